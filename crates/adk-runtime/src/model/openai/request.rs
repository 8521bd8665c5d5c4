//! The body of a Chat Completions request, built from an [`LlmRequest`].

use adk_core::json;
use serde_json::{Map, Value};

use crate::model::http_call::camel_case;
use crate::model::LlmRequest;
use crate::types::{Content, Part};
use crate::AdkError;

/// Settings with a Chat Completions equivalent, and its name. The rest (safety settings, thinking
/// config, …) are Gemini-only and left out, so one agent config works with both adapters.
const RENAMED: [(&str, &str); 8] = [
    ("temperature", "temperature"),
    ("topP", "top_p"),
    ("maxOutputTokens", "max_tokens"),
    ("stopSequences", "stop"),
    ("seed", "seed"),
    ("presencePenalty", "presence_penalty"),
    ("frequencyPenalty", "frequency_penalty"),
    ("responseLogprobs", "logprobs"),
];

/// The JSON body for `request` to `model`.
pub(super) fn body(model: &str, request: &LlmRequest, stream: bool) -> Result<String, AdkError> {
    let mut body = Map::new();
    body.insert("model".into(), model.into());
    body.insert("messages".into(), Value::Array(messages(request)?));
    let tools: Vec<Value> = request
        .function_declarations()
        .map(|d| {
            let parameters =
                d.parameters.clone().unwrap_or_else(|| json::constant(r#"{"type": "object", "properties": {}}"#));
            let function = json::object([
                ("name", d.name.as_str().into()),
                ("description", d.description.as_str().into()),
                ("parameters", parameters),
            ]);
            json::object([("type", "function".into()), ("function", function)])
        })
        .collect();
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), stream.into());
    if stream {
        body.insert("stream_options".into(), json::object([("include_usage", true.into())]));
    }
    let settings: Map<String, Value> =
        request.config.settings.iter().map(|(k, v)| (camel_case(k), v.clone())).collect();
    for (from, to) in RENAMED {
        if let Some(value) = settings.get(from) {
            body.insert(to.into(), value.clone());
        }
    }
    if let Some(value) = settings.get("logprobs") {
        body.insert("top_logprobs".into(), value.clone());
    }
    if let Some(format) = response_format(&settings) {
        body.insert("response_format".into(), format);
    }
    Ok(json::to_string(&body))
}

/// A JSON schema asks for structured output, named by its `title` or `response` (as ADK's LiteLLM
/// adapter names it); a bare JSON MIME type asks for JSON mode.
fn response_format(settings: &Map<String, Value>) -> Option<Value> {
    let schema = settings.get("responseJsonSchema").or_else(|| settings.get("responseSchema"));
    match schema {
        Some(schema) => {
            let name = schema.get("title").and_then(Value::as_str).unwrap_or("response");
            let json_schema = json::object([("name", name.into()), ("schema", schema.clone())]);
            Some(json::object([("type", "json_schema".into()), ("json_schema", json_schema)]))
        }
        None => (settings.get("responseMimeType").and_then(Value::as_str) == Some("application/json"))
            .then(|| json::object([("type", "json_object".into())])),
    }
}

/// Call ids for history without them (adk-wasm does not send its own `adk-` ids, and other models
/// give none): numbered in order, so the same history always gets the same ids, and each response
/// takes the oldest unanswered call of its function.
#[derive(Default)]
struct CallIds {
    next: usize,
    open: Vec<(String, String)>,
}

impl CallIds {
    fn for_call(&mut self, name: &str, id: Option<&str>) -> String {
        let id = match id.filter(|id| !id.is_empty()) {
            Some(id) => id.to_string(),
            None => {
                self.next += 1;
                format!("call_{}", self.next)
            }
        };
        self.open.push((name.to_string(), id.clone()));
        id
    }

    fn for_response(&mut self, name: &str, id: Option<&str>) -> String {
        let position = match id.filter(|id| !id.is_empty()) {
            Some(id) => self.open.iter().position(|(_, open)| open == id),
            None => self.open.iter().position(|(open, _)| open == name),
        };
        match (position, id) {
            (Some(i), _) => self.open.remove(i).1,
            (None, Some(id)) if !id.is_empty() => id.to_string(),
            (None, _) => self.for_call(name, None),
        }
    }
}

/// The system message, then one message per content; a content holding function responses becomes
/// one `tool` message per response (as in ADK's LiteLLM adapter).
fn messages(request: &LlmRequest) -> Result<Vec<Value>, AdkError> {
    let mut messages = Vec::new();
    if let Some(system) = request.config.system_instruction.as_deref().filter(|s| !s.is_empty()) {
        messages.push(json::object([("role", "system".into()), ("content", system.into())]));
    }
    let mut ids = CallIds::default();
    for content in &request.contents {
        let responses: Vec<&crate::FunctionResponse> =
            content.parts().iter().filter_map(|p| p.function_response.as_ref()).collect();
        if !responses.is_empty() {
            for r in responses {
                let name = r.name.as_deref().unwrap_or_default();
                let output = json::to_string(&r.response);
                let id = ids.for_response(name, r.id.as_deref());
                let message = [("role", "tool".into()), ("tool_call_id", id.into()), ("content", output.into())];
                messages.push(json::object(message));
            }
        } else if matches!(content.role.as_deref(), Some("model" | "assistant")) {
            messages.extend(assistant_message(content, &mut ids));
        } else if let Some(message) = user_message(content)? {
            messages.push(message);
        }
    }
    Ok(messages)
}

/// The answer text of `content`; thoughts are the model's own and not sent back.
fn texts(content: &Content) -> Vec<&str> {
    content.parts().iter().filter(|p| p.thought != Some(true)).filter_map(|p| p.text.as_deref()).collect()
}

fn assistant_message(content: &Content, ids: &mut CallIds) -> Option<Value> {
    let text = texts(content).concat();
    let calls: Vec<Value> = content
        .parts()
        .iter()
        .filter_map(|p| p.function_call.as_ref())
        .map(|call| {
            let name = call.name.as_deref().unwrap_or_default();
            let arguments = json::to_string(&call.args.clone().unwrap_or_default());
            let id = ids.for_call(name, call.id.as_deref());
            let function = json::object([("name", name.into()), ("arguments", arguments.into())]);
            json::object([("id", id.into()), ("type", "function".into()), ("function", function)])
        })
        .collect();
    let mut message = Map::new();
    message.insert("role".into(), "assistant".into());
    if text.is_empty() && calls.is_empty() {
        return None;
    }
    message.insert("content".into(), if text.is_empty() { Value::Null } else { text.into() });
    if !calls.is_empty() {
        message.insert("tool_calls".into(), Value::Array(calls));
    }
    Some(Value::Object(message))
}

/// A user message: plain text when it is one text part, else an array of content parts.
fn user_message(content: &Content) -> Result<Option<Value>, AdkError> {
    let parts: Vec<&Part> = content.parts().iter().filter(|p| p.thought != Some(true)).collect();
    if let [Part { text: Some(text), .. }] = parts.as_slice() {
        return Ok(Some(json::object([("role", "user".into()), ("content", text.as_str().into())])));
    }
    let items = parts.into_iter().map(content_item).collect::<Result<Vec<_>, _>>()?;
    let items: Vec<Value> = items.into_iter().flatten().collect();
    Ok((!items.is_empty()).then(|| json::object([("role", "user".into()), ("content", Value::Array(items))])))
}

fn text_item(text: &str) -> Value {
    json::object([("type", "text".into()), ("text", text.into())])
}

fn image_item(url: &str) -> Value {
    json::object([("type", "image_url".into()), ("image_url", json::object([("url", url.into())]))])
}

/// One part as a content item: text, an image (inline as a data URL, or by URL), or inline text
/// data as text. Other media have no portable Chat Completions form and are refused by name.
fn content_item(part: &Part) -> Result<Option<Value>, AdkError> {
    if let Some(text) = &part.text {
        return Ok(Some(text_item(text)));
    }
    if let Some(blob) = &part.inline_data {
        let mime = blob.mime_type.as_deref().unwrap_or_default();
        let data = blob.data.as_ref().map(|d| d.0.as_slice()).unwrap_or_default();
        if mime.starts_with("image/") {
            let url = format!(
                "data:{mime};base64,{}",
                blob.data.as_ref().map(crate::types::Bytes::to_standard_base64).unwrap_or_default()
            );
            return Ok(Some(image_item(&url)));
        }
        if mime.starts_with("text/") || mime == "application/json" {
            return Ok(Some(text_item(&String::from_utf8_lossy(data))));
        }
        return Err(AdkError::invalid(format!("OpenAICompatible: inline data of type `{mime}` cannot be sent")));
    }
    if let Some(file) = &part.file_data {
        let mime = file.mime_type.as_deref().unwrap_or_default();
        let uri = file.file_uri.as_deref().unwrap_or_default();
        if mime.starts_with("image/") && (uri.starts_with("https://") || uri.starts_with("http://")) {
            return Ok(Some(image_item(uri)));
        }
        return Err(AdkError::invalid(format!("OpenAICompatible: file `{uri}` of type `{mime}` cannot be sent")));
    }
    // Function calls in a user turn, code execution results, …: nothing a user message can hold.
    Ok(None)
}
