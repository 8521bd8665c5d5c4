//! Gemini's own tools (ADK's `GoogleSearchTool`, `UrlContextTool`, `GoogleMapsGroundingTool`): the
//! model runs them; the agent only adds them to the request (`{"googleSearch": {}}`, …), and only
//! for a Gemini model, as ADK checks it.

use async_trait::async_trait;
use serde_json::Value;

use super::Tool;
use crate::agent::ToolContext;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode};

/// One of Gemini's built-in tools.
pub struct BuiltInTool {
    name: &'static str,
    field: &'static str,
    label: &'static str,
}

/// ADK's `google_search`: grounding in Google Search results.
pub const GOOGLE_SEARCH: BuiltInTool =
    BuiltInTool { name: "google_search", field: "googleSearch", label: "Google search" };
/// ADK's `url_context`: the model reads the URLs in the conversation.
pub const URL_CONTEXT: BuiltInTool = BuiltInTool { name: "url_context", field: "urlContext", label: "Url context" };
/// ADK's `google_maps_grounding`: grounding in Google Maps.
pub const GOOGLE_MAPS_GROUNDING: BuiltInTool =
    BuiltInTool { name: "google_maps_grounding", field: "googleMaps", label: "Google maps" };

/// The model name without its path (ADK's `extract_model_name`): `models/…`, a Vertex AI
/// `projects/…/models/…` path, an Apigee path, or a provider prefix before a `gemini-` name.
fn model_name(model: &str) -> &str {
    let mut segments: Vec<&str> = Vec::new();
    for segment in model.split('/') {
        segments.push(segment);
    }
    if let ["projects", _, "locations", _, "publishers", _, "models", ..] = segments.as_slice() {
        let prefix: usize = segments.iter().take(7).map(|s| s.len() + 1).sum();
        if let Some(name) = model.get(prefix..).filter(|n| !n.is_empty()) {
            return name;
        }
    }
    if let Some(rest) = model.strip_prefix("apigee/") {
        // Up to two leading segments (a version, a provider) before the name, as ADK's pattern.
        let mut name = rest;
        for _ in 0..2 {
            match name.split_once('/') {
                Some((_, after)) if !after.is_empty() => name = after,
                _ => break,
            }
        }
        return name;
    }
    if let Some(name) = model.strip_prefix("models/") {
        return name;
    }
    if model.starts_with("projects/") {
        return model;
    }
    match model.rsplit_once('/') {
        Some((_, name)) if name.starts_with("gemini-") => name,
        _ => model,
    }
}

/// Whether `model` is a Gemini model (ADK's `is_gemini_model`).
pub fn is_gemini_model(model: &str) -> bool {
    model_name(model).starts_with("gemini-")
}

#[async_trait(?Send)]
impl Tool for BuiltInTool {
    fn name(&self) -> &str {
        self.name
    }

    /// Never sent: the model knows its own tools. ADK names and describes them so.
    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration { name: self.name.into(), description: self.name.into(), ..Default::default() }
    }

    async fn run(&self, _args: JsonObject, _ctx: ToolContext) -> Result<Value, AdkError> {
        Err(AdkError::new(ErrorCode::Unimplemented, format!("{} runs inside the model, not as a function", self.name)))
    }

    async fn process_llm_request(&self, _ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        let model = request.model.clone().unwrap_or_default();
        if !is_gemini_model(&model) {
            return Err(AdkError::invalid(format!("{} tool is not supported for model {model}", self.label)));
        }
        request.append_built_in_tool(self.field);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_are_read_as_adk_reads_them() {
        for (model, gemini) in [
            ("gemini-2.5-flash", true),
            ("models/gemini-2.5-pro", true),
            ("projects/p/locations/l/publishers/google/models/gemini-2.0-flash", true),
            ("apigee/gemini-2.5-flash", true),
            ("apigee/v1/gemini-2.5-flash", true),
            ("apigee/vertex_ai/v1/gemini-2.5-flash", true),
            ("gemini/gemini-2.5-flash", true),
            ("openai/gpt-4o", false),
            ("scripted-agent", false),
            ("", false),
        ] {
            assert_eq!(is_gemini_model(model), gemini, "{model}");
        }
    }
}
