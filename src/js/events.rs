//! The event model's calls from core.js — `parseEvent`, `eventToJson`, `createEvent`, ADK's helpers
//! and tests of an event, what the `Part.from*` factories need of wasm, `LlmResponse.fromParts` and
//! the limits — through one export told apart by number: each export costs a shim and a JS wrapper,
//! in every entry.

use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;
use wasm_bindgen::JsCast;

use super::convert::{self, from_js, json_text_within, string_within, to_js};
use super::to_js_error;
use crate::types::JsonObject;
use crate::Event;
use adk_core::events::PartsResponse;

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

/// Decodes an event (object or JSON text) and returns it normalised in ADK's wire shape: the
/// calls' Rust face, as tests/web.rs uses them (not exported: JS reaches them through [`event_model`]).
pub fn parse_event(input: &JsValue) -> Result<JsValue, JsValue> {
    event_model(PARSE, input, &JsValue::UNDEFINED)
}

/// The ADK wire JSON text of an event.
pub fn event_to_json(input: &JsValue) -> Result<String, JsValue> {
    event(input)?.to_json().map_err(to_js_error)
}

/// A new event from `init` (at least `author`), with a fresh id and the current time unless given.
pub fn create_event(init: &JsValue) -> Result<JsValue, JsValue> {
    parse_event(init)
}

/// ADK's boolean test of an event named `test` by its JS name (`isFinalResponse`, …).
pub fn event_is(test: &str, input: &JsValue, agent_name: &JsValue) -> Result<bool, JsValue> {
    let op = match test {
        "isAgent" => IS_AGENT,
        "isFinalResponse" => IS_FINAL_RESPONSE,
        "isUser" => IS_USER,
        "hasTrailingCodeExecutionResult" => HAS_TRAILING_CODE_EXECUTION_RESULT,
        _ => HAS_ERROR,
    };
    Ok(event_model(op, input, agent_name)?.is_truthy())
}

/// The calls, by the numbers core.js passes (`MODEL` there).
const PARSE: u32 = 0;
const TO_JSON: u32 = 1;
const FUNCTION_CALLS: u32 = 2;
const FUNCTION_RESPONSES: u32 = 3;
const IS_AGENT: u32 = 4;
const IS_FINAL_RESPONSE: u32 = 5;
const IS_USER: u32 = 6;
const HAS_TRAILING_CODE_EXECUTION_RESULT: u32 = 7;
/// What any other number asks too.
const HAS_ERROR: u32 = 8;
const ARGS: u32 = 9;
const RESPONSE: u32 = 10;
const FROM_PARTS: u32 = 11;
const GET_LIMITS: u32 = 12;
const SET_LIMITS: u32 = 13;

/// Call `op` with `input` (an event as a JS object or JSON text, for the first nine) and `arg`
/// (`isAgent`'s agent name):
/// - `parseEvent` / `createEvent`: the event decoded (a fresh id and the current time unless given)
///   and returned normalised in ADK's wire shape; `eventToJson`: its ADK wire JSON text;
/// - ADK's `Event.get_function_calls()` / `get_function_responses()`;
/// - ADK's boolean tests (core.js answers them in JS for events given as objects);
/// - the object a `Part.fromFunctionCall` / `fromFunctionResponse` carries (`args`, `response`),
///   checked and normalised as the event model reads it (core.js builds the part);
/// - `LlmResponse.fromParts`, `getLimits`, `setLimits`.
#[wasm_bindgen(js_name = eventModel)]
pub fn event_model(op: u32, input: &JsValue, arg: &JsValue) -> Result<JsValue, JsValue> {
    match op {
        TO_JSON => return event_to_json(input).map(JsValue::from),
        ARGS => return to_js(&from_js::<JsonObject>("args", input)?),
        RESPONSE => return to_js(&from_js::<JsonObject>("response", input)?),
        FROM_PARTS => return to_js(&PartsResponse::new(from_js("parts", input)?)),
        GET_LIMITS => return super::limits::get_limits(),
        SET_LIMITS => return super::limits::set_limits(input),
        _ => {}
    }
    let name = match op != IS_AGENT || arg.is_undefined() || arg.is_null() {
        true => None,
        false => Some(string_arg("isAgent agentName", arg)?),
    };
    // One decoding and one call of each test, whichever is asked: each copy costs bytes.
    let event = event(input)?;
    let truth = match op {
        PARSE => return to_js(&event),
        FUNCTION_CALLS => return to_js(&event.get_function_calls()),
        FUNCTION_RESPONSES => return to_js(&event.get_function_responses()),
        IS_AGENT => event.is_agent(name.as_deref()),
        IS_FINAL_RESPONSE => event.is_final_response(),
        IS_USER => event.is_user(),
        HAS_TRAILING_CODE_EXECUTION_RESULT => event.has_trailing_code_execution_result(),
        _ => event.has_error(),
    };
    Ok(truth.into())
}
