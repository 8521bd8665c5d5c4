//! The body of a Chat Completions request, built from an [`LlmRequest`]: the messages are sorted
//! out first (a user part that cannot be sent is refused there), then written as JSON text
//! directly, with no `Value` tree in between.

use std::borrow::Cow;

use adk_core::json::{self, Writer};
use serde_json::Value;

use crate::model::http_call::camel_case;
use crate::model::safe_part::base_mime;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::{Bytes, Content, JsonObject, Part};
use crate::AdkError;

/// Settings with a Chat Completions equivalent, and its name. The rest (safety settings, thinking
/// config, …) are Gemini-only and left out, so one agent config works with both adapters.
const RENAMED: [(&str, &str); 9] = [
    ("temperature", "temperature"),
    ("topP", "top_p"),
    ("maxOutputTokens", "max_tokens"),
    ("stopSequences", "stop"),
    ("seed", "seed"),
    ("presencePenalty", "presence_penalty"),
    ("frequencyPenalty", "frequency_penalty"),
    ("responseLogprobs", "logprobs"),
    ("logprobs", "top_logprobs"),
];

/// The setting `name` (camelCase), given in either spelling; of two, the later one counts.
fn setting<'a>(settings: &'a JsonObject, name: &str) -> Option<&'a Value> {
    settings.iter().rev().find(|(key, _)| camel_case(key) == name).map(|(_, value)| value)
}

/// The JSON body for `request` to `model`; `openai` when the server is OpenAI's own (or Azure's).
pub(super) fn body(model: &str, request: &LlmRequest, stream: bool, openai: bool) -> Result<String, AdkError> {
    let messages = messages(request)?;
    let settings = &request.config.settings;
    let mut w = Writer::new();
    let mut body = w.object();
    body.field("model", model);
    body.field_with("messages", |w| w.array_of(&messages, write_message));
    let tools = request.function_declarations();
    if tools.len() != 0 {
        body.field_with("tools", |w| w.array_of(tools, write_tool));
        // The function-calling mode, as ADK's LiteLlm maps it (AUTO is every provider's default).
        let config = setting(settings, "toolConfig")
            .and_then(|c| c.get("functionCallingConfig").or_else(|| c.get("function_calling_config")));
        match config.and_then(|c| c.get("mode")).and_then(Value::as_str) {
            Some("ANY") => body.field("tool_choice", "required"),
            Some("NONE") => body.field("tool_choice", "none"),
            _ => &mut body,
        };
    }
    body.field("stream", &stream);
    if stream {
        body.raw("stream_options", r#"{"include_usage":true}"#);
    }
    for (from, to) in RENAMED {
        // OpenAI's reasoning models refuse `max_tokens` (deprecated there): what LiteLlm sends,
        // `max_completion_tokens`, which LiteLLM passes on to OpenAI and Azure as it is (other
        // providers get it under their own names).
        let to = if openai && to == "max_tokens" { "max_completion_tokens" } else { to };
        if let Some(value) = setting(settings, from) {
            body.field(to, value);
        }
    }
    // A JSON schema asks for structured output, named by its `title` or `response` (as ADK's
    // LiteLLM adapter names it); a bare JSON MIME type asks for JSON mode.
    match setting(settings, "responseJsonSchema").or_else(|| setting(settings, "responseSchema")) {
        Some(schema) => {
            let name = schema.get("title").and_then(Value::as_str).unwrap_or("response");
            body.field_with("response_format", |w| {
                let mut format = w.object();
                format.field("type", "json_schema").field_with("json_schema", |w| {
                    let mut json_schema = w.object();
                    json_schema.field("name", name).field("schema", schema);
                    json_schema.end();
                });
                format.end();
            });
        }
        None if setting(settings, "responseMimeType").and_then(Value::as_str) == Some("application/json") => {
            body.raw("response_format", r#"{"type":"json_object"}"#);
        }
        None => {}
    }
    body.end();
    Ok(w.into_string())
}

/// A declared function as a Chat Completions tool.
fn write_tool(w: &mut Writer, declaration: &FunctionDeclaration) {
    let mut tool = w.object();
    tool.field("type", "function").field_with("function", |w| {
        let mut function = w.object();
        function.field("name", &declaration.name).field("description", &declaration.description);
        match &declaration.parameters {
            Some(parameters) => function.field("parameters", parameters),
            None => function.raw("parameters", r#"{"type":"object","properties":{}}"#),
        };
        function.end();
    });
    tool.end();
}

/// One message, as sorted out of the history.
enum Message<'a> {
    /// The system instruction, or a user turn of one text: `(role, text)`.
    Text(&'static str, &'a str),
    /// A function's answer to the call `id`: its response as JSON text.
    Tool { id: String, output: String },
    /// The model's answer text, its reasoning (thought texts) and its calls.
    Assistant { text: String, reasoning: String, calls: Vec<Call<'a>> },
    /// A user turn of several parts.
    User(Vec<Item<'a>>),
}

/// A call the model made, as it goes back: its id, its name, its arguments as JSON text, and the
/// thought signature its part carries.
struct Call<'a> {
    id: String,
    name: &'a str,
    arguments: String,
    thought_signature: Option<&'a Bytes>,
}

/// One content item of a user message.
enum Item<'a> {
    Text(Cow<'a, str>),
    /// `{"type": kind, kind: {key: value, …more}}`: media by URL (`image_url`, `video_url`; a
    /// `data:` URL for inline data), `file` (`file_data` and its `filename`), and `input_audio`
    /// (its base64 `data` and `format`).
    Media {
        kind: &'static str,
        key: &'static str,
        value: Cow<'a, str>,
        more: Option<(&'static str, Cow<'a, str>)>,
    },
}

fn write_message(w: &mut Writer, message: &Message<'_>) {
    let mut object = w.object();
    match message {
        Message::Text(role, text) => {
            object.field("role", role).field("content", text);
        }
        Message::Tool { id, output } => {
            object.field("role", "tool").field("tool_call_id", id).field("content", output);
        }
        Message::Assistant { text, reasoning, calls } => {
            object.field("role", "assistant");
            match text.is_empty() {
                true => object.raw("content", "null"),
                false => object.field("content", text),
            };
            // Sent back as ADK's LiteLlm sends it: DeepSeek's thinking mode refuses a tool loop's
            // next request without it.
            if !reasoning.is_empty() {
                object.field("reasoning_content", reasoning);
            }
            if !calls.is_empty() {
                object.field_with("tool_calls", |w| w.array_of(calls, write_call));
            }
        }
        Message::User(items) => {
            object.field("role", "user").field_with("content", |w| w.array_of(items, write_item));
        }
    }
    object.end();
}

fn write_call(w: &mut Writer, c: &Call<'_>) {
    let mut call = w.object();
    call.field("id", &c.id).field("type", "function").field_with("function", |w| {
        let mut function = w.object();
        function.field("name", c.name).field("arguments", &c.arguments);
        function.end();
    });
    // Where Gemini's OpenAI-compatible endpoint reads it back (ADK's LiteLlm also writes it to
    // LiteLLM's own `provider_specific_fields`, which a Chat Completions server does not know).
    if let Some(signature) = c.thought_signature {
        call.field_with("extra_content", |w| {
            let mut extra = w.object();
            extra.field_with("google", |w| {
                let mut google = w.object();
                google.field("thought_signature", &signature.to_standard_base64());
                google.end();
            });
            extra.end();
        });
    }
    call.end();
}

fn write_item(w: &mut Writer, item: &Item<'_>) {
    let mut object = w.object();
    match item {
        Item::Text(text) => object.field("type", "text").field("text", &**text),
        Item::Media { kind, key, value, more } => object.field("type", kind).field_with(kind, |w| {
            let mut media = w.object();
            media.field(key, &**value);
            if let Some((key, value)) = more {
                media.field(key, &**value);
            }
            media.end();
        }),
    };
    object.end();
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
fn messages(request: &LlmRequest) -> Result<Vec<Message<'_>>, AdkError> {
    let mut messages = Vec::new();
    if let Some(system) = request.config.system_instruction.as_deref().filter(|s| !s.is_empty()) {
        messages.push(Message::Text("system", system));
    }
    let mut ids = CallIds::default();
    for content in &request.contents {
        let mut responses: Vec<&crate::FunctionResponse> = Vec::new();
        for p in content.parts() {
            responses.extend(p.function_response.as_ref());
        }
        if !responses.is_empty() {
            for r in responses {
                let id = ids.for_response(r.name.as_deref().unwrap_or_default(), r.id.as_deref());
                messages.push(Message::Tool { id, output: json::to_string(&r.response) });
            }
        } else if matches!(content.role.as_deref(), Some("model" | "assistant")) {
            messages.extend(assistant_message(content, &mut ids));
        } else if let Some(message) = user_message(content)? {
            messages.push(message);
        }
    }
    Ok(messages)
}

/// The model's answer text, its reasoning and its calls; none when it has neither text nor calls.
fn assistant_message<'a>(content: &'a Content, ids: &mut CallIds) -> Option<Message<'a>> {
    let (mut text, mut reasoning) = (String::new(), String::new());
    for p in content.parts() {
        let into = if p.thought == Some(true) { &mut reasoning } else { &mut text };
        into.push_str(p.text.as_deref().unwrap_or_default());
    }
    let mut calls = Vec::new();
    for (call, part) in content.parts().iter().filter_map(|p| Some((p.function_call.as_ref()?, p))) {
        let name = call.name.as_deref().unwrap_or_default();
        let arguments = call.args.as_ref().map_or_else(|| "{}".to_string(), json::to_string);
        let id = ids.for_call(name, call.id.as_deref());
        let thought_signature = part.thought_signature.as_ref().filter(|s| !s.0.is_empty());
        calls.push(Call { id, name, arguments, thought_signature });
    }
    (!text.is_empty() || !calls.is_empty()).then_some(Message::Assistant { text, reasoning, calls })
}

/// A user message: plain text when it is one text part, else an array of content items.
fn user_message(content: &Content) -> Result<Option<Message<'_>>, AdkError> {
    let mut parts: Vec<&Part> = Vec::new();
    for p in content.parts() {
        if p.thought != Some(true) {
            parts.push(p);
        }
    }
    if let [Part { text: Some(text), .. }] = parts.as_slice() {
        return Ok(Some(Message::Text("user", text)));
    }
    // A loop rather than collecting `Result`s: that adapter is code of its own per item type.
    let mut items = Vec::new();
    for part in parts {
        items.extend(content_item(part)?);
    }
    Ok((!items.is_empty()).then_some(Message::User(items)))
}

/// One part as a content item, as ADK's LiteLlm writes it (`_get_content`), MIME types without
/// their parameters: text; inline text data as text (JSON too, where LiteLlm sends a file: every
/// server reads text); inline audio as `input_audio`; inline images and video as `data:` URLs; a
/// PDF as a `file` with its `filename`; images and video by http(s) URL; an OpenAI file id
/// (`file-…`, `assistant-…`, as LiteLlm tells them) as a `file`'s `file_id`. Empty inline data is
/// left out, as LiteLlm leaves it. LiteLlm also sends Office documents as files, to providers that
/// read them, and uploads a PDF to OpenAI itself first; here those are refused, by name, as
/// anything else without a Chat Completions form is.
fn content_item(part: &Part) -> Result<Option<Item<'_>>, AdkError> {
    if let Some(text) = &part.text {
        return Ok(Some(Item::Text(Cow::Borrowed(text))));
    }
    let media = |kind, key, value, more| Ok(Some(Item::Media { kind, key, value, more }));
    if let Some(blob) = &part.inline_data {
        let data = blob.data.as_ref().map(|d| d.0.as_slice()).unwrap_or_default();
        if data.is_empty() {
            return Ok(None);
        }
        let (mime, _) = base_mime(blob.mime_type.as_deref().unwrap_or_default());
        if mime.starts_with("text/") || mime == "application/json" {
            return Ok(Some(Item::Text(adk_core::text::utf8_lossy(data))));
        }
        let base64 = blob.data.as_ref().map(crate::types::Bytes::to_standard_base64).unwrap_or_default();
        if let Some(format) = mime.strip_prefix("audio/") {
            return media(
                "input_audio",
                "data",
                Cow::Owned(base64),
                Some(("format", Cow::Owned(audio_format(format).to_string()))),
            );
        }
        let url = Cow::Owned(["data:", &mime, ";base64,", &base64].concat());
        return match media_kind(&mime) {
            Some(kind) => media(kind, "url", url, None),
            // OpenAI refuses a file's data without a name.
            None if mime == "application/pdf" => {
                let name = blob.display_name.as_deref().unwrap_or("document.pdf");
                media("file", "file_data", url, Some(("filename", Cow::Borrowed(name))))
            }
            None => Err(AdkError::invalid(format!("OpenAICompatible: inline data of type `{mime}` cannot be sent"))),
        };
    }
    if let Some(file) = &part.file_data {
        let (mime, _) = base_mime(file.mime_type.as_deref().unwrap_or_default());
        let uri = file.file_uri.as_deref().unwrap_or_default();
        if uri.starts_with("file-") || uri.starts_with("assistant-") {
            return media("file", "file_id", Cow::Borrowed(uri), None);
        }
        if let (Some(kind), true) = (media_kind(&mime), uri.starts_with("https://") || uri.starts_with("http://")) {
            return media(kind, "url", Cow::Borrowed(uri), None);
        }
        return Err(AdkError::invalid(format!("OpenAICompatible: file `{uri}` of type `{mime}` cannot be sent")));
    }
    // Function calls in a user turn, code execution results, …: nothing a user message can hold.
    Ok(None)
}

/// The URL item of an image or a video.
fn media_kind(mime: &str) -> Option<&'static str> {
    if mime.starts_with("image/") {
        Some("image_url")
    } else if mime.starts_with("video/") {
        Some("video_url")
    } else {
        None
    }
}

/// `input_audio`'s `format` for an audio subtype (LiteLlm's `_audio_format_from_mime_type`).
fn audio_format(subtype: &str) -> &str {
    match subtype.strip_prefix("x-").unwrap_or(subtype) {
        "mpeg" => "mp3",
        "wave" | "vnd.wave" => "wav",
        other => other,
    }
}
