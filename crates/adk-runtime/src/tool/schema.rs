//! JSON Schema as ADK's structured output uses it. An agent's `output_schema` reads its reply as
//! ADK's `validate_schema` reads it for a schema given as a JSON object: JSON (out of a Markdown
//! fence), not checked against the schema. Its `input_schema` shapes what an `AgentTool` passes
//! it, as pydantic's `model_validate` then `model_dump_json` shape the model ADK takes there.

use serde_json::Value;

use crate::types::JsonObject;
use crate::AdkError;

/// Whether `kind` names a JSON Schema type, in either case (genai writes `OBJECT`).
fn is_type(kind: &Value) -> bool {
    let kind = kind.as_str().unwrap_or_default();
    ["string", "number", "integer", "boolean", "array", "object", "null"].iter().any(|t| t.eq_ignore_ascii_case(kind))
}

/// `schema` as an agent's input or output schema, or INVALID_ARGUMENT naming `what`: a JSON
/// object whose `type`, `properties` (objects, each checked the same way), `items` and `required`
/// have their JSON Schema shapes where present.
pub fn check_schema(what: &str, schema: &Value) -> Result<JsonObject, AdkError> {
    let Value::Object(object) = schema else {
        return Err(AdkError::invalid([what, ": expected a JSON Schema object"].concat()));
    };
    let fault = match object.get("type") {
        Some(Value::Array(kinds)) if !kinds.iter().all(is_type) => Some("type"),
        Some(kind) if !kind.is_array() && !is_type(kind) => Some("type"),
        _ => match object.get("required") {
            Some(Value::Array(names)) if names.iter().all(Value::is_string) => None,
            Some(_) => Some("required"),
            None => None,
        },
    };
    let fault = fault.or(object.get("properties").filter(|p| !p.is_object()).map(|_| "properties"));
    if let Some(fault) = fault {
        return Err(AdkError::invalid([what, ": `", fault, "` is not what JSON Schema has there"].concat()));
    }
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            check_schema(&[what, ".properties.", name].concat(), property)?;
        }
    }
    if let Some(items) = object.get("items") {
        check_schema(&[what, ".items"].concat(), items)?;
    }
    Ok(object.clone())
}

/// ADK's `_strip_json_code_fence`: the text inside a Markdown fence wrapping the whole reply (its
/// language tag dropped), which models add now and then; any other text as it is.
fn strip_json_code_fence(text: &str) -> &str {
    let stripped = text.trim();
    let Some(inner) = stripped.strip_prefix("```").and_then(|s| s.strip_suffix("```")) else { return text };
    if stripped.len() < 6 {
        return text;
    }
    // The tag: word characters, then spaces or tabs, then one newline (`^[A-Za-z0-9_]*[ \t]*\n?`).
    let inner = inner.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let inner = inner.trim_start_matches([' ', '\t']);
    inner.strip_prefix('\n').unwrap_or(inner).trim()
}

/// What an agent with an output schema replied, parsed: INVALID_ARGUMENT when it is not JSON (ADK
/// raises `ValueError: Invalid JSON in schema value`).
pub fn parse_reply(text: &str) -> Result<Value, AdkError> {
    adk_core::json::parse("schema value", strip_json_code_fence(text))
}

/// The arguments of a call of `tool` as its input schema takes them, or INVALID_ARGUMENT: every
/// required one present, each of its declared type, declared ones in the schema's order with
/// their defaults filled in, nulls left out, undeclared ones dropped unless `additionalProperties`
/// allows them (what pydantic does with the model ADK takes).
pub fn validate_args(schema: &JsonObject, args: &JsonObject, tool: &str) -> Result<JsonObject, AdkError> {
    let fault = |name: &str, what: &str| AdkError::invalid([tool, ": the argument `", name, "` ", what].concat());
    for name in schema.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default() {
        let name = name.as_str().unwrap_or_default();
        if !args.contains_key(name) {
            return Err(fault(name, "is required"));
        }
    }
    let empty = JsonObject::new();
    let declared = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    let mut out = JsonObject::new();
    for (name, property) in declared {
        let value = match args.get(name) {
            Some(value) if !fits(value, property.get("type")) => {
                return Err(fault(name, "is not of its declared type"))
            }
            Some(value) => value,
            None => property.get("default").unwrap_or(&Value::Null),
        };
        if !value.is_null() {
            out.insert(name.clone(), value.clone());
        }
    }
    let open = schema.get("additionalProperties").is_some_and(|a| a.is_object() || a == &Value::Bool(true));
    for (name, value) in args.iter().filter(|(k, v)| open && !declared.contains_key(*k) && !v.is_null()) {
        out.insert(name.clone(), value.clone());
    }
    Ok(out)
}

/// Whether `value` is of the JSON Schema type `kind` (a name or a list of them; none fits all).
fn fits(value: &Value, kind: Option<&Value>) -> bool {
    let one = |kind: &Value| {
        let is = |name: &str| kind.as_str().is_some_and(|k| k.eq_ignore_ascii_case(name));
        match value {
            Value::Number(n) => is("number") || (is("integer") && !n.is_f64()),
            Value::String(_) => is("string"),
            Value::Bool(_) => is("boolean"),
            Value::Array(_) => is("array"),
            Value::Object(_) => is("object"),
            Value::Null => is("null"),
        }
    };
    match kind {
        None => true,
        Some(Value::Array(kinds)) => kinds.iter().any(one),
        Some(kind) => one(kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn schemas_are_json_schema_objects() {
        assert!(
            check_schema("s", &json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}})).is_ok()
        );
        assert!(check_schema("s", &json!({"type": "OBJECT", "properties": {"a": {"type": "STRING"}}})).is_ok());
        assert!(check_schema("s", &json!({})).is_ok());
        for (bad, said) in [
            (json!("object"), "s: expected a JSON Schema object"),
            (json!([{"type": "object"}]), "s: expected a JSON Schema object"),
            (json!({"type": "dict"}), "s: `type` is not what JSON Schema has there"),
            (json!({"type": ["string", 1]}), "s: `type` is not what JSON Schema has there"),
            (json!({"required": "a"}), "s: `required` is not what JSON Schema has there"),
            (json!({"properties": []}), "s: `properties` is not what JSON Schema has there"),
            (json!({"properties": {"a": {"type": 3}}}), "s.properties.a: `type` is not what JSON Schema has there"),
            (json!({"type": "array", "items": true}), "s.items: expected a JSON Schema object"),
        ] {
            let e = check_schema("s", &bad).unwrap_err();
            assert_eq!((e.code, e.message.as_str()), (adk_core::ErrorCode::InvalidArgument, said), "{bad}");
        }
    }

    #[test]
    fn replies_parse_as_json_out_of_a_fence() {
        assert_eq!(parse_reply(" {\"a\": 1} ").unwrap(), json!({"a": 1}));
        assert_eq!(parse_reply("```json\n{\"a\": 1}\n```").unwrap(), json!({"a": 1}));
        assert_eq!(parse_reply("```\n[1, 2]```").unwrap(), json!([1, 2]));
        assert_eq!(parse_reply("```JSON \t\n\"x\"\n```").unwrap(), json!("x"));
        // A tag after a space is not one; a fence whose body is blank, an unclosed one and
        // backticks alone stay as they are (what Python's `validate_schema` does with each).
        for bad in ["Sorry.", "``` json\n1```", "```json\n```", "```{\"a\": 1}", "`````", ""] {
            let e = parse_reply(bad).unwrap_err();
            assert_eq!(e.code, adk_core::ErrorCode::InvalidArgument, "{bad}");
            assert!(e.message.starts_with("invalid schema value: "), "{}", e.message);
        }
    }

    #[test]
    fn args_take_the_shape_of_the_input_schema() {
        let schema = object(json!({
            "properties": {"city": {"type": "string"}, "days": {"type": "integer", "default": 1},
                           "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}},
            "required": ["city"], "type": "object"}));
        let shaped = validate_args(&schema, &object(json!({"note": null, "x": 1, "city": "Seoul"})), "t").unwrap();
        assert_eq!(adk_core::json::to_string(&Value::Object(shaped)), r#"{"city":"Seoul","days":1}"#);
        let shaped = validate_args(&schema, &object(json!({"days": 3, "city": "Seoul", "note": "n"})), "t").unwrap();
        assert_eq!(Value::Object(shaped), json!({"city": "Seoul", "days": 3, "note": "n"}));
        let e = validate_args(&schema, &object(json!({"days": 2})), "t").unwrap_err();
        assert_eq!(e.message, "t: the argument `city` is required");
        for bad in [
            json!({"city": 1}),
            json!({"city": null}),
            json!({"city": "a", "days": 1.5}),
            json!({"city": "a", "days": "2"}),
        ] {
            let e = validate_args(&schema, &object(bad.clone()), "t").unwrap_err();
            assert!(e.message.ends_with("is not of its declared type"), "{bad}: {}", e.message);
        }
        let open = object(json!({"properties": {"a": {"type": "string"}}, "additionalProperties": true}));
        let shaped = validate_args(&open, &object(json!({"b": 2, "a": "x", "c": null})), "t").unwrap();
        assert_eq!(adk_core::json::to_string(&Value::Object(shaped)), r#"{"a":"x","b":2}"#);
    }
}
