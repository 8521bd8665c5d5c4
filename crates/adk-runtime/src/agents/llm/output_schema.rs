//! An agent's output schema (ADK's `output_schema`): the request asks the model for JSON of that
//! schema, or, when the agent has tools, offers `set_model_response` for the answer instead; the
//! answer is parsed into `output_key` (ADK's basic and output-schema request processors, and
//! `__maybe_save_output_to_state`).

use serde_json::Value;

use super::LlmAgentConfig;
use crate::agent::{agent_event, InvocationContext};
use crate::model::LlmRequest;
use crate::python_repr::python_json;
use crate::tool::schema::parse_reply;
use crate::tool::{SET_MODEL_RESPONSE, SET_MODEL_RESPONSE_INSTRUCTION};
use crate::types::{Content, JsonObject, Part};
use crate::{AdkError, Event};

/// The schema, if any: an empty object is none, as Python reads an empty dict.
pub(crate) fn schema(config: &LlmAgentConfig) -> Option<&JsonObject> {
    config.output_schema.as_ref().filter(|s| !s.is_empty())
}

/// Whether the answer comes through `set_model_response`: when the agent has tools, which a model
/// cannot call under a response schema. (ADK asks the model; only Gemini on Vertex AI, which
/// adk-wasm does not call, can do both.)
pub(super) fn answers_through_tool(config: &LlmAgentConfig) -> bool {
    schema(config).is_some() && !config.tools.is_empty()
}

/// The request asks for the schema's JSON; or, when the answer comes through the tool, the
/// instruction says so (after the agent's own, before the transfer instruction, as ADK orders its
/// processors).
pub(super) fn process_request(config: &LlmAgentConfig, request: &mut LlmRequest) {
    let Some(schema) = schema(config) else { return };
    if answers_through_tool(config) {
        request.append_instructions(&[SET_MODEL_RESPONSE_INSTRUCTION.to_string()]);
        return;
    }
    request.config.settings.insert("responseMimeType".into(), "application/json".into());
    request.config.settings.insert("responseSchema".into(), Value::Object(schema.clone()));
}

/// The concatenated non-thought text of an event.
fn final_text(event: &Event) -> String {
    let mut text = String::new();
    for part in event.parts().iter().filter(|p| p.thought != Some(true)) {
        text.push_str(part.text.as_deref().unwrap_or_default());
    }
    text
}

/// Saves a final reply under `output_key`: its text, or with an output schema the value the text
/// holds. A reply that holds none is INVALID_ARGUMENT, raised before its event is stored (ADK
/// raises there too); a blank one (the empty last chunk of a stream) saves nothing.
pub(super) fn save_output(config: &LlmAgentConfig, event: &mut Event) -> Result<(), AdkError> {
    let Some(key) = &config.output_key else { return Ok(()) };
    if event.partial == Some(true) || !event.is_final_response() || event.has_error() || event.content.is_none() {
        return Ok(());
    }
    // A reply that was only thought leaves the key as it was (ADK saves the non-thought text).
    if !event.parts().iter().any(|p| p.text.is_some() && p.thought != Some(true)) {
        return Ok(());
    }
    let text = final_text(event);
    let value = match schema(config) {
        None => Value::from(text),
        Some(_) if text.trim().is_empty() => return Ok(()),
        Some(_) => parse_reply(&text)?,
    };
    event.actions.state_delta.insert(key.clone(), value);
    Ok(())
}

/// The agent's reply a `set_model_response` call made, if the tool step holds one (ADK's
/// `get_structured_model_response` and `create_final_model_response_event`): a model event whose
/// text is the answer as Python's `json.dumps` writes it.
pub(super) fn structured_reply(ctx: &InvocationContext, step: &Event) -> Option<Event> {
    let called = step.get_function_responses().iter().any(|r| r.name.as_deref() == Some(SET_MODEL_RESPONSE));
    let answer = step.actions.set_model_response.as_ref().filter(|_| called)?;
    Some(agent_event(ctx, Some(Content::new("model", vec![Part::from_text(&python_json(answer))]))))
}
