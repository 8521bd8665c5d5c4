//! The body of a `generateContent` request, built from an [`LlmRequest`].

use adk_core::json::Writer;

use crate::model::http_call::camel_case;
use crate::model::safe_part::safe_part;
use crate::model::{FunctionDeclaration, LlmRequest, ToolDeclarations};
use crate::types::{Content, JsonObject};
use crate::AdkError;

/// Settings that are request fields rather than generation settings (as google-genai sends them).
const TOP_LEVEL: [&str; 6] =
    ["safetySettings", "toolConfig", "cachedContent", "serviceTier", "continuationToken", "store"];

/// Settings that only steer the SDKs (or, for `labels`, that the Gemini API rejects; ADK clears
/// them for this backend too): never sent.
const NOT_SENT: [&str; 5] =
    ["labels", "httpOptions", "automaticFunctionCalling", "abortSignal", "shouldReturnHttpResponse"];

/// The JSON body for `request`. Settings are sorted by name: request fields go top-level, SDK-only
/// ones are dropped, and everything else (including settings this code does not know yet) goes into
/// `generationConfig`, where the API adds new ones; a name it does not know gets a clear 400 from
/// the server instead of being dropped here in silence. `snake_case` names are accepted.
pub(super) fn body(request: &LlmRequest) -> Result<String, AdkError> {
    let config = &request.config;
    let mut top_level = JsonObject::new();
    let mut generation_config = JsonObject::new();
    for (key, value) in &config.settings {
        let key = camel_case(key);
        if TOP_LEVEL.contains(&key.as_str()) {
            top_level.insert(key, value.clone());
        } else if !NOT_SENT.contains(&key.as_str()) {
            generation_config.insert(key, value.clone());
        }
    }
    let mut w = Writer::new();
    let mut body = w.object();
    let mut contents: Vec<Content> = Vec::with_capacity(request.contents.len());
    for content in &request.contents {
        contents.push(for_gemini(content));
    }
    body.field("contents", &contents);
    if let Some(system_instruction) = config.system_instruction.as_deref().filter(|s| !s.is_empty()) {
        body.field_with("systemInstruction", |w| {
            let mut content = w.object();
            content.field_with("parts", |w| {
                w.array_of([system_instruction], |w, text| {
                    let mut part = w.object();
                    part.field("text", text);
                    part.end();
                })
            });
            content.end();
        });
    }
    // The tools as the request groups them: function declarations, and the model's own tools
    // (`googleSearch`, `urlContext`, …) each as an entry of its own, as ADK sends them.
    let mut tools: Vec<&ToolDeclarations> = Vec::new();
    for t in &config.tools {
        if !t.function_declarations.is_empty() || !t.built_in.is_empty() {
            tools.push(t);
        }
    }
    if !tools.is_empty() {
        body.field_with("tools", |w| {
            w.array_of(tools.iter(), |w, group| {
                let mut tool = w.object();
                if !group.function_declarations.is_empty() {
                    tool.field_with("functionDeclarations", |w| {
                        w.array_of(group.function_declarations.iter(), write_declaration)
                    });
                }
                for (key, value) in &group.built_in {
                    tool.field(key, value);
                }
                tool.end();
            })
        });
    }
    for (key, value) in &top_level {
        body.field(key, value);
    }
    if !generation_config.is_empty() {
        body.field("generationConfig", &generation_config);
    }
    body.end();
    Ok(w.into_string())
}

/// Our declarations hold JSON Schema, which the API takes as `parametersJsonSchema` (its
/// `parameters` field is the OpenAPI subset).
fn write_declaration(w: &mut Writer, declaration: &FunctionDeclaration) {
    let mut object = w.object();
    object.field("name", &declaration.name);
    if !declaration.description.is_empty() {
        object.field("description", &declaration.description);
    }
    if let Some(parameters) = &declaration.parameters {
        object.field("parametersJsonSchema", parameters);
    }
    if let Some(response) = &declaration.response {
        object.field("responseJsonSchema", response);
    }
    object.end();
}

/// `content` as the Gemini API takes it: inline data in a form it accepts, and no `displayName` on
/// inline and file data, which it rejects (ADK strips it for this backend).
fn for_gemini(content: &Content) -> Content {
    let mut content = content.clone();
    for part in content.parts.as_deref_mut().unwrap_or_default() {
        if part.inline_data.is_some() {
            // As ADK's Gemini model sends inline data (`as_safe_part_for_llm`, with its stand-in name).
            *part = safe_part(std::mem::take(part), "inline-file");
        }
        if let Some(blob) = &mut part.inline_data {
            blob.display_name = None;
        }
        if let Some(file) = &mut part.file_data {
            file.display_name = None;
        }
    }
    content
}
