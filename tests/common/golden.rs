//! The golden-fixture check shared by the native and the browser tests: every event ADK wrote must
//! decode, encode back to the same JSON value, and give ADK's own helper answers.

use adk_wasm::Event;
use serde_json::Value;

/// ADK 1.x counts an error event that carries function responses as not final; adk-wasm follows
/// 2.x, which does. This is the only place the two lines disagree in the fixtures.
const ONLY_1X_NOT_FINAL: &[&str] = &["error_with_function_response"];

pub const FIXTURES: &[(&str, &str)] = &[
    ("adk-1.39.1", include_str!("../fixtures/events/adk-1.39.1.json")),
    ("adk-2.13.0", include_str!("../fixtures/events/adk-2.13.0.json")),
];

/// Checks every case of every fixture file; returns (cases checked, failures).
pub fn check_all() -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (file, text) in FIXTURES {
        let fixture: Value = serde_json::from_str(text).expect("fixture is JSON");
        let cases = fixture["cases"].as_array().expect("cases");
        assert!(cases.len() >= 30, "{file}: expected the full fixture set, got {}", cases.len());
        for case in cases {
            checked += 1;
            if let Err(e) = check_case(file, case) {
                failures.push(e);
            }
        }
    }
    (checked, failures)
}

fn check_case(file: &str, case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap_or("?");
    let wire = case["wire"].as_str().ok_or("no wire")?;
    let at = |what: &str| format!("{file} {name}: {what}");
    let event = Event::from_json(wire).map_err(|e| at(&format!("decode failed: {e}")))?;
    let ours = as_set_compared(
        serde_json::from_str(&event.to_json().map_err(|e| at(&e.message))?).map_err(|e| at(&e.to_string()))?,
    );
    let theirs = as_set_compared(serde_json::from_str(wire).map_err(|e| at(&e.to_string()))?);
    if ours != theirs {
        return Err(at(&format!("round trip differs\n ours:   {ours}\n theirs: {theirs}")));
    }
    let helpers = &case["helpers"];
    let mut expected_final = helpers["isFinalResponse"].as_bool().ok_or("isFinalResponse")?;
    if file.starts_with("adk-1.") && ONLY_1X_NOT_FINAL.contains(&name) {
        assert!(!expected_final, "{file} {name}: the recorded 1.x divergence no longer holds");
        expected_final = true;
    }
    let checks = [
        ("isFinalResponse", Value::Bool(event.is_final_response()), Value::Bool(expected_final)),
        (
            "getFunctionCalls",
            serde_json::to_value(event.get_function_calls()).map_err(|e| e.to_string())?,
            helpers["getFunctionCalls"].clone(),
        ),
        (
            "getFunctionResponses",
            serde_json::to_value(event.get_function_responses()).map_err(|e| e.to_string())?,
            helpers["getFunctionResponses"].clone(),
        ),
        (
            "hasTrailingCodeExecutionResult",
            Value::Bool(event.has_trailing_code_execution_result()),
            helpers["hasTrailingCodeExecutionResult"].clone(),
        ),
    ];
    for (helper, ours, theirs) in checks {
        if ours != theirs {
            return Err(at(&format!("{helper}: ours {ours}, ADK {theirs}")));
        }
    }
    Ok(())
}

/// `longRunningToolIds` is a Python `set`: 1.x writes it in hash order, 2.x sorted. Compare it as a set.
fn as_set_compared(mut event: Value) -> Value {
    if let Some(Value::Array(ids)) = event.get_mut("longRunningToolIds") {
        ids.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    }
    event
}
