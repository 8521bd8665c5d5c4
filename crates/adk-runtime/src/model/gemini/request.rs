//! The body of a `generateContent` request, built from an [`LlmRequest`].

use serde::Serialize;
use serde_json::Value;

use crate::model::http_call::camel_case;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::{Content, JsonObject};
use crate::AdkError;

/// Settings that are request fields rather than generation settings.
const TOP_LEVEL: [&str; 3] = ["safetySettings", "toolConfig", "cachedContent"];

/// Settings that only steer the SDKs (or, for `labels`, that the Gemini API rejects; ADK clears
/// them for this backend too): never sent.
const NOT_SENT: [&str; 5] =
    ["labels", "httpOptions", "automaticFunctionCalling", "abortSignal", "shouldReturnHttpResponse"];

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    contents: Vec<Content>,
    #[serde(skip_serializing_if = "Option::is_none")]
    system_instruction: Option<&'a Content>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Tool<'a>>,
    #[serde(flatten)]
    top_level: JsonObject,
    #[serde(skip_serializing_if = "JsonObject::is_empty")]
    generation_config: JsonObject,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool<'a> {
    function_declarations: Vec<Declaration<'a>>,
}

/// Our declarations hold JSON Schema, which the API takes as `parametersJsonSchema` (its
/// `parameters` field is the OpenAPI subset).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Declaration<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters_json_schema: Option<&'a Value>,
}

impl<'a> From<&'a FunctionDeclaration> for Declaration<'a> {
    fn from(d: &'a FunctionDeclaration) -> Self {
        Declaration { name: &d.name, description: &d.description, parameters_json_schema: d.parameters.as_ref() }
    }
}

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
    let declarations: Vec<Declaration> = request.function_declarations().map(Declaration::from).collect();
    let body = Body {
        contents: request.contents.iter().map(without_display_names).collect(),
        system_instruction: config.system_instruction.as_ref(),
        tools: if declarations.is_empty() { Vec::new() } else { vec![Tool { function_declarations: declarations }] },
        top_level,
        generation_config,
    };
    serde_json::to_string(&body).map_err(|e| AdkError::invalid(format!("Gemini request: {e}")))
}

/// The Gemini API rejects `displayName` on inline and file data (ADK strips it for this backend).
fn without_display_names(content: &Content) -> Content {
    let mut content = content.clone();
    for part in content.parts.iter_mut().flatten() {
        if let Some(blob) = &mut part.inline_data {
            blob.display_name = None;
        }
        if let Some(file) = &mut part.file_data {
            file.display_name = None;
        }
    }
    content
}
