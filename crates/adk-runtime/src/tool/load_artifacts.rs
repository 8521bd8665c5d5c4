//! ADK's `LoadArtifactsTool` (`load_artifacts`): tells the model which artifacts the session and the
//! user have, and when the model asks for some, puts their contents into that one request (never
//! into the session), each in a form the model accepts (ADK's `as_safe_part_for_llm`).

use adk_core::json;
use async_trait::async_trait;
use serde_json::Value;

use super::{asked_in_last_response, string_list_parameter, Tool};
use crate::agent::ToolContext;
use crate::model::safe_part::safe_part;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::python_repr::python_json_list;
use crate::types::{Content, JsonObject, Part};
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
    }
}
