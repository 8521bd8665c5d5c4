//! ADK's `LoadArtifactsTool` (`load_artifacts`): tells the model which artifacts the session and the
//! user have, and when the model asks for some, puts their contents into that one request (never
//! into the session), each in a form the model accepts (ADK's `as_safe_part_for_llm`).

use adk_core::json;
use async_trait::async_trait;
use serde_json::Value;

use super::{asked_in_last_response, string_list_parameter, Tool};
use crate::agent::ToolContext;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::python_repr::python_json_list;
use crate::types::{Blob, Content, JsonObject, Part};
use crate::AdkError;

const NAME: &str = "load_artifacts";
const USER_PREFIX: &str = "user:";

/// ADK's `load_artifacts` tool.
pub struct LoadArtifactsTool;

#[async_trait(?Send)]
impl Tool for LoadArtifactsTool {
    fn name(&self) -> &str {
        NAME
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: NAME.into(),
            description: "Loads artifacts into the session for this request.\n\nNOTE: Call when you need access to \
                          artifacts (for example, uploads saved by the\nweb UI)."
                .into(),
            parameters: Some(string_list_parameter("artifact_names")),
            response: None,
        }
    }

    async fn run(&self, args: JsonObject, _ctx: ToolContext) -> Result<Value, AdkError> {
        let Some(names) = string_list(args.get("artifact_names").unwrap_or(&Value::Array(Vec::new()))) else {
            return Ok(json::object([
                ("error", "'artifact_names' must be a list of strings.".into()),
                ("error_code", "INVALID_ARGUMENTS".into()),
            ]));
        };
        Ok(json::object([
            ("artifact_names", names.into_iter().map(Value::from).collect()),
            (
                "status",
                "artifact contents temporarily inserted and removed. to access these artifacts, call load_artifacts \
                 tool again."
                    .into(),
            ),
        ]))
    }

    async fn process_llm_request(&self, ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        request.append_tool(self.declaration());
        let available = ctx.list_artifacts().await?;
        if available.is_empty() {
            return Ok(());
        }
        request.dynamic_instructions.push(format!(
            "You have a list of artifacts:\n  {}\n\n  When the user asks questions about any of the artifacts, you \
             should call the\n  `load_artifacts` function to load the artifact. Always call load_artifacts\n  before \
             answering questions related to the artifacts, regardless of whether the\n  artifacts have been loaded \
             before. Do not depend on prior answers about the\n  artifacts.\n  ",
            python_json_list(&available)
        ));
        // A response whose names are not all strings is skipped whole, as ADK skips it.
        let mut asked: Vec<String> = Vec::new();
        for response in asked_in_last_response(request, NAME, "artifact_names") {
            asked.extend(string_list(&response).unwrap_or_default());
        }
        for requested in &asked {
            // The model's name is honoured only as one just listed for this session (`user:` added
            // or dropped, as models do).
            let Some(name) = resolve(requested, &available) else { continue };
            // The name as resolved, then with `user:` when it has none (taken from the end); one
            // await for both, so the load's future is inlined once.
            let mut tries = Vec::with_capacity(2);
            if !name.starts_with(USER_PREFIX) {
                tries.push([USER_PREFIX, &name].concat());
            }
            tries.push(name);
            let mut artifact = None;
            while let (None, Some(name)) = (&artifact, tries.pop()) {
                artifact = ctx.load_artifact(&name, None).await?;
            }
            let Some(artifact) = artifact else { continue };
            let intro = Part::from_text(&["Artifact ", requested, " is:"].concat());
            request.contents.push(Content::new("user", vec![intro, safe_part(artifact, requested)]));
        }
        Ok(())
    }
}

/// A list of strings, or `None` for anything else.
fn string_list(value: &Value) -> Option<Vec<String>> {
    // A loop rather than collecting `Option`s: that adapter is code of its own.
    let mut list = Vec::new();
    for item in value.as_array()? {
        list.push(item.as_str()?.to_string());
    }
    Some(list)
}

/// The listed name the model's `requested` stands for (ADK's `_resolve_requested_artifact_name`).
fn resolve(requested: &str, available: &[String]) -> Option<String> {
    let listed = |name: &str| available.iter().any(|a| a == name);
    if listed(requested) {
        return Some(requested.into());
    }
    match requested.strip_prefix(USER_PREFIX) {
        Some(bare) => listed(bare).then(|| requested.into()),
        None => {
            let prefixed = [USER_PREFIX, requested].concat();
            listed(&prefixed).then_some(prefixed)
        }
    }
}

/// Whether Gemini takes `mime` (without parameters, lower case) as inline data.
fn inline_supported(mime: &str) -> bool {
    if matches!(mime, "image/svg" | "image/svg+xml" | "image/xml") {
        return false;
    }
    ["image/", "audio/", "video/"].iter().any(|p| mime.starts_with(p)) || mime == "application/pdf"
}

/// ADK's `as_safe_part_for_llm`: media Gemini takes stay (their MIME type's base lower-cased),
/// text-like data becomes text, anything else a placeholder naming it. (ADK also reads the text
/// of a DOCX file; here a DOCX file gets the placeholder.)
fn safe_part(artifact: Part, name: &str) -> Part {
    let Some(blob) = artifact.inline_data.clone() else { return artifact };
    let given = blob.mime_type.clone().unwrap_or_default();
    // The base type and what follows it from the first `;` on.
    // Checked slicing (never refused here): a slice that could panic links core's message for it,
    // and the Unicode tables that message needs, into the module.
    let (base, params) = given.split_at_checked(given.find(';').unwrap_or(given.len())).unwrap_or((&given, ""));
    let mime = base.trim().to_ascii_lowercase();
    if !given.is_empty() && inline_supported(&mime) {
        let inline_data = Some(Blob { mime_type: Some([&mime, params].concat()), ..blob });
        return Part { inline_data, ..artifact };
    }
    let mime = if mime.is_empty() { "application/octet-stream".to_string() } else { mime };
    let Some(data) = blob.data else {
        return Part::from_text(&["[Artifact: ", name, ", type: ", &mime, ". No inline data was provided.]"].concat());
    };
    let lower = name.to_ascii_lowercase();
    let text_like = mime.starts_with("text/")
        || matches!(
            mime.as_str(),
            "application/csv"
                | "application/json"
                | "application/svg+xml"
                | "application/xml"
                | "image/svg"
                | "image/svg+xml"
                | "image/xml"
        )
        || [".csv", ".txt", ".json", ".xml"].iter().any(|s| lower.ends_with(s));
    if text_like {
        return Part::from_text(&adk_core::text::utf8_lossy(&data.0));
    }
    Part::from_text(
        &[
            "[Binary artifact: ",
            name,
            ", type: ",
            &mime,
            ", size: ",
            &kilobytes(data.0.len()),
            " KB. Content cannot be displayed inline.]",
        ]
        .concat(),
    )
}

/// `len / 1024` with one decimal, as Python's `f"{x:.1f}"` rounds it (half to even; the value is
/// exact in binary).
fn kilobytes(len: usize) -> String {
    let tenths = len.saturating_mul(10);
    let (mut whole, rest) = (tenths / 1024, tenths % 1024);
    if rest > 512 || (rest == 512 && whole % 2 == 1) {
        whole += 1;
    }
    format!("{}.{}", whole / 10, whole % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sizes_and_python_json() {
        let available = vec!["report.csv".to_string(), "user:photo.png".to_string()];
        assert_eq!(resolve("photo.png", &available).as_deref(), Some("user:photo.png"));
        assert_eq!(resolve("user:report.csv", &available).as_deref(), Some("user:report.csv"));
        assert_eq!(resolve("other", &available), None);
        assert_eq!(python_json_list(&["a\"b".into(), "한😀".into()]), r#"["a\"b", "\ud55c\ud83d\ude00"]"#);
        // ADK 2.x keeps media with the base of its MIME type lower-cased (1.x sent a placeholder).
        let image = Part {
            inline_data: Some(Blob { mime_type: Some("IMAGE/PNG; q=1".into()), ..Default::default() }),
            ..Default::default()
        };
        let safe = safe_part(image, "x.png");
        assert_eq!(safe.inline_data.and_then(|b| b.mime_type).as_deref(), Some("image/png; q=1"));
        let svg = Part {
            inline_data: Some(Blob {
                mime_type: Some("image/svg+xml".into()),
                data: Some(adk_core::types::Bytes(b"<svg/>".to_vec())),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(safe_part(svg, "x.svg").text.as_deref(), Some("<svg/>"));
        for (len, expected) in
            [(0, "0.0"), (1024, "1.0"), (1075, "1.0"), (1076, "1.1"), (51, "0.0"), (52, "0.1"), (1_048_576, "1024.0")]
        {
            assert_eq!(kilobytes(len), expected, "{len}");
        }
    }
}
