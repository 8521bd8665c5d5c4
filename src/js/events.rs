//! Event model exports: `parseEvent`, `eventToJson`, `createEvent`, ADK's helpers (the tests one
//! export, called by name from core.js) and what core.js's `Part.from*` factories need of wasm.

use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;
use wasm_bindgen::JsCast;

use super::convert::{self, from_js, json_text_within, string_within, to_js};
use super::to_js_error;
use crate::types::JsonObject;
use crate::{Event, LlmResponse};

/// [`convert::string_arg`] for exports that throw.
fn string_arg(what: &str, value: &JsValue) -> Result<String, JsValue> {
    convert::string_arg(what, value).map_err(to_js_error)
}

/// An event from a JS object or from JSON text (`Transcript.add` reads its events here too).
pub(super) fn event(value: &JsValue) -> Result<Event, JsValue> {
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

/// ADK's boolean tests of an event, by their JS names: `isFinalResponse`, `isUser`, `isAgent`
/// (with `agentName`, that agent), `hasError`, `hasTrailingCodeExecutionResult`. One export for
/// all (each export costs a shim): core.js answers them in JS for events given as objects.
#[wasm_bindgen(js_name = eventIs)]
pub fn event_is(test: &str, input: &JsValue, agent_name: &JsValue) -> Result<bool, JsValue> {
    // One decoding and one call of each test, whichever is asked: each copy costs bytes.
    let name = match test != "isAgent" || agent_name.is_undefined() || agent_name.is_null() {
        true => None,
        false => Some(string_arg("isAgent agentName", agent_name)?),
    };
    let event = event(input)?;
    Ok(match test {
        "isAgent" => event.is_agent(name.as_deref()),
        "isFinalResponse" => event.is_final_response(),
        "isUser" => event.is_user(),
        "hasTrailingCodeExecutionResult" => event.has_trailing_code_execution_result(),
        _ => event.has_error(),
    })
}

/// The object a `Part.fromFunctionCall` / `fromFunctionResponse` carries (`what`: `args`,
/// `response`), checked and normalised as the event model reads it; core.js builds the part.
#[wasm_bindgen(js_name = jsonObject)]
pub fn json_object(what: &str, value: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&from_js::<JsonObject>(what, value)?)
}

/// `LlmResponse.fromParts`.
#[wasm_bindgen(js_name = llmResponseFromParts)]
pub fn llm_response_from_parts(parts: &JsValue) -> Result<JsValue, JsValue> {
    to_js(&LlmResponse::from_parts(from_js("parts", parts)?))
}
