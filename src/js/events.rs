//! Event model exports: `parseEvent`, `eventToJson`, `createEvent`, ADK's helpers and `Part.from*`.

use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;
use wasm_bindgen::JsCast;

use super::convert::{self, from_js, json_text_within, string_within, to_js};
use super::to_js_error;
use crate::types::{JsonObject, Part};
use crate::{AdkError, Event, LlmResponse};

/// [`convert::string_arg`] for exports that throw.
fn string_arg(what: &str, value: &JsValue) -> Result<String, JsValue> {
    convert::string_arg(what, value).map_err(to_js_error)
}

/// An event from a JS object or from JSON text.
fn event(value: &JsValue) -> Result<Event, JsValue> {
    let text = match value.dyn_ref::<js_sys::JsString>() {
        Some(text) => string_within("event", text, Limit::event()),
        None => json_text_within("event", value, Some(Limit::event())),
    };
    let text = text.map_err(to_js_error)?;
    Event::from_json(&text).map_err(to_js_error)
}

/// Decodes an event (object or JSON text) and returns it normalised in ADK's wire shape.
#[wasm_bindgen(js_name = parseEvent)]
pub fn parse_event(input: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&event(input)?)
}

/// The ADK wire JSON text of an event.
#[wasm_bindgen(js_name = eventToJson)]
pub fn event_to_json(input: &JsValue) -> Result<String, JsValue> {
    event(input)?.to_json().map_err(to_js_error)
}

/// A new event from `init` (at least `author`), with a fresh id and the current time unless given.
#[wasm_bindgen(js_name = createEvent)]
pub fn create_event(init: &JsValue) -> Result<JsValue, JsValue> {
    parse_event(init)
}

/// ADK's `Event.is_final_response()`.
#[wasm_bindgen(js_name = isFinalResponse)]
pub fn is_final_response(input: &JsValue) -> Result<bool, JsValue> {
    Ok(event(input)?.is_final_response())
}

/// ADK's `Event.get_function_calls()`.
#[wasm_bindgen(js_name = getFunctionCalls)]
pub fn get_function_calls(input: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&event(input)?.get_function_calls())
}

/// ADK's `Event.get_function_responses()`.
#[wasm_bindgen(js_name = getFunctionResponses)]
pub fn get_function_responses(input: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&event(input)?.get_function_responses())
}

/// ADK's `Event.has_trailing_code_execution_result()`.
#[wasm_bindgen(js_name = hasTrailingCodeExecutionResult)]
pub fn has_trailing_code_execution_result(input: &JsValue) -> Result<bool, JsValue> {
    Ok(event(input)?.has_trailing_code_execution_result())
}

/// The user wrote the event.
#[wasm_bindgen(js_name = isUser)]
pub fn is_user(input: &JsValue) -> Result<bool, JsValue> {
    Ok(event(input)?.is_user())
}

/// An agent wrote the event; with `agentName`, that agent.
#[wasm_bindgen(js_name = isAgent)]
pub fn is_agent(input: &JsValue, agent_name: &JsValue) -> Result<bool, JsValue> {
    let name = match agent_name.is_undefined() || agent_name.is_null() {
        true => None,
        false => Some(string_arg("isAgent agentName", agent_name)?),
    };
    Ok(event(input)?.is_agent(name.as_deref()))
}

/// The event carries an error code.
#[wasm_bindgen(js_name = hasError)]
pub fn has_error(input: &JsValue) -> Result<bool, JsValue> {
    Ok(event(input)?.has_error())
}

/// `Part.fromText`.
#[wasm_bindgen(js_name = partFromText)]
pub fn part_from_text(text: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&Part::from_text(&string_arg("Part.fromText text", text)?))
}

/// `Part.fromFunctionCall`.
#[wasm_bindgen(js_name = partFromFunctionCall)]
pub fn part_from_function_call(name: &JsValue, args: &JsValue) -> Result<JsValue, JsValue> {
    let name = string_arg("Part.fromFunctionCall name", name)?;
    let args: JsonObject = if args.is_undefined() { JsonObject::new() } else { from_js("args", args)? };
    to_js(&Part::from_function_call(&name, args))
}

/// `Part.fromFunctionResponse`.
#[wasm_bindgen(js_name = partFromFunctionResponse)]
pub fn part_from_function_response(name: &JsValue, response: &JsValue) -> Result<JsValue, JsValue> {
    let name = string_arg("Part.fromFunctionResponse name", name)?;
    to_js(&Part::from_function_response(&name, from_js("response", response)?))
}

/// `Part.fromInlineData`.
#[wasm_bindgen(js_name = partFromInlineData)]
pub fn part_from_inline_data(data: &JsValue, mime_type: &JsValue) -> Result<JsValue, JsValue> {
    let data = data
        .dyn_ref::<js_sys::Uint8Array>()
        .ok_or_else(|| to_js_error(AdkError::invalid("Part.fromInlineData data: expected a Uint8Array")))?;
    to_js(&Part::from_inline_data(data.to_vec(), &string_arg("Part.fromInlineData mimeType", mime_type)?))
}

/// `Part.fromJson`.
#[wasm_bindgen(js_name = partFromJson)]
pub fn part_from_json(data: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&Part::from_json(&string_arg("Part.fromJson data", data)?))
}

/// `Part.fromAgentTransfer`.
#[wasm_bindgen(js_name = partFromAgentTransfer)]
pub fn part_from_agent_transfer(agent: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&Part::from_agent_transfer(&string_arg("Part.fromAgentTransfer agent", agent)?))
}

/// `Part.fromEndSession`.
#[wasm_bindgen(js_name = partFromEndSession)]
pub fn part_from_end_session(reason: &JsValue, escalated: bool) -> Result<JsValue, JsValue> {
    to_js(&Part::from_end_session(&string_arg("Part.fromEndSession reason", reason)?, escalated))
}

/// `LlmResponse.fromParts`.
#[wasm_bindgen(js_name = llmResponseFromParts)]
pub fn llm_response_from_parts(parts: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&LlmResponse::from_parts(from_js("parts", parts)?))
}
