//! genai `Part` ⇄ A2A `Part`, as ADK's part converter does it: text as text, inline bytes as raw
//! bytes, file URIs as URLs, and function calls/responses (and code) as data parts tagged
//! `adk_type`, so an ADK server on the other side rebuilds them exactly.

use adk_core::json;
use serde_json::Value;

use crate::a2a::{Part as A2aPart, PartContent};
use crate::types::{Blob, FileData, Part};

const TYPE_KEY: &str = "adk_type";
const THOUGHT_KEY: &str = "adk_thought";
/// Part metadata ADK's server puts on a call the run waits on (`A2A_DATA_PART_METADATA_IS_LONG_RUNNING_KEY`).
const LONG_RUNNING_KEY: &str = "adk_is_long_running";

/// An A2A part for a genai part; `None` for parts A2A cannot carry (thought signatures alone, …).
pub fn to_a2a(part: &Part) -> Option<A2aPart> {
    if let Some(text) = &part.text {
        return Some(A2aPart::text(text.clone()));
    }
    if let Some(blob) = &part.inline_data {
        let mut out = A2aPart::new(PartContent::Raw(blob.data.clone().unwrap_or_default()));
        out.media_type.clone_from(&blob.mime_type);
        out.filename.clone_from(&blob.display_name);
        return Some(out);
    }
    if let Some(file) = &part.file_data {
        let mut out = A2aPart::new(PartContent::Url(file.file_uri.clone().unwrap_or_default()));
        out.media_type.clone_from(&file.mime_type);
        out.filename.clone_from(&file.display_name);
        return Some(out);
    }
    let tagged = |kind: &str, value: Option<Value>| {
        value.map(|data| {
            let mut out = A2aPart::new(PartContent::Data(data));
            out.metadata = Some(json::members([(TYPE_KEY, Value::from(kind))]));
            out
        })
    };
    if let Some(call) = &part.function_call {
        return tagged("function_call", Some(json::to_value(call)));
    }
    if let Some(response) = &part.function_response {
        return tagged("function_response", Some(json::to_value(response)));
    }
    if let Some(code) = &part.executable_code {
        return tagged("executable_code", Some(json::to_value(code)));
    }
    if let Some(result) = &part.code_execution_result {
        return tagged("code_execution_result", Some(json::to_value(result)));
    }
    None
}

/// A genai part for an A2A part. Untagged data becomes its JSON text, which any model can read; a
/// text ADK's server marked `adk_thought` is a thought again.
pub fn from_a2a(part: &A2aPart) -> Part {
    match &part.content {
        PartContent::Text(text) => Part { thought: is_thought(part).then_some(true), ..Part::from_text(text) },
        PartContent::Raw(bytes) => Part {
            inline_data: Some(Blob {
                data: Some(bytes.clone()),
                mime_type: part.media_type.clone(),
                display_name: part.filename.clone(),
                transcript: None,
            }),
            ..Default::default()
        },
        PartContent::Url(url) => Part {
            file_data: Some(FileData {
                file_uri: Some(url.clone()),
                mime_type: part.media_type.clone(),
                display_name: part.filename.clone(),
            }),
            ..Default::default()
        },
        PartContent::Data(data) => {
            tagged_part(part, data).unwrap_or_else(|| Part::from_text(&adk_core::json::to_string(data)))
        }
    }
}

/// Whether ADK's server marked this text a thought (`adk_thought: true` in its metadata).
pub fn is_thought(part: &A2aPart) -> bool {
    matches!(&part.content, PartContent::Text(_))
        && matches!(part.metadata.as_ref().and_then(|m| m.get(THOUGHT_KEY)), Some(Value::Bool(true)))
}

/// The calls ADK's server marked `adk_is_long_running` (a remote tool waiting for the person): the
/// run pauses on them, and no stand-in question is made (ADK's `to_adk_event`).
pub fn long_running(parts: &[A2aPart]) -> Option<adk_core::events::ToolIds> {
    let mut ids = adk_core::events::ToolIds::new();
    for part in parts {
        let Some(meta) = &part.metadata else { continue };
        // A call's data part (`{"id", "name", "args"}`, tagged `adk_type: function_call`) carries its id.
        let call = matches!(meta.get(TYPE_KEY), Some(Value::String(t)) if t == "function_call");
        if let (true, Some(Value::Bool(true)), PartContent::Data(Value::Object(data))) =
            (call, meta.get(LONG_RUNNING_KEY), &part.content)
        {
            if let Some(Value::String(id)) = data.get("id") {
                ids.insert(id.clone());
            }
        }
    }
    (!ids.is_empty()).then_some(ids)
}

fn tagged_part(part: &A2aPart, data: &Value) -> Option<Part> {
    let kind = part.metadata.as_ref()?.get(TYPE_KEY)?.as_str()?;
    // Decoding through the part itself keeps one decoder: `{"functionCall": data}` is a Part.
    let field = match kind {
        "function_call" => "functionCall",
        "function_response" => "functionResponse",
        "executable_code" => "executableCode",
        "code_execution_result" => "codeExecutionResult",
        _ => return None,
    };
    let wrapped = json::object([(field, data.clone())]);
    json::from_value("A2A data part", wrapped).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::JsonObject;

    #[test]
    fn parts_survive_the_round_trip() {
        let call = Part::from_function_call("get_weather", JsonObject::from_iter([("city".into(), "서울".into())]));
        let bytes = Part::from_inline_data(vec![0, 159, 255], "image/png");
        for part in [Part::from_text("안녕"), call, bytes] {
            let a2a = to_a2a(&part).unwrap();
            assert_eq!(from_a2a(&a2a), part);
        }
        let data = A2aPart::new(PartContent::Data(serde_json::json!({"k": [1, 2]})));
        assert_eq!(from_a2a(&data).text.as_deref(), Some(r#"{"k":[1,2]}"#));
        assert!(to_a2a(&Part { thought_signature: Some(Default::default()), ..Default::default() }).is_none());
    }
}
