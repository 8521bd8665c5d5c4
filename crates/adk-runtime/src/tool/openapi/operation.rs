//! One OpenAPI operation as a tool's parameters (ADK's `OperationParser` and `ApiParameter`): the
//! operation's parameters and its request body's properties, each under the snake_case name the
//! model sees, and the JSON Schema of the arguments as ADK declares it.

use adk_core::json;
use serde_json::Value;

use crate::types::JsonObject;

/// Gemini caps function names; ADK cuts operation names to this many characters.
pub const MAX_TOOL_NAME_LENGTH: usize = 60;

/// Where a parameter goes in the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
    Header,
    Cookie,
    Body,
    /// An `in` this parser does not know: declared, never sent (as ADK).
    Other,
}

/// One argument of the tool (ADK's `ApiParameter`).
#[derive(Debug, Clone)]
pub struct ApiParameter {
    /// The name in the spec, which the request uses.
    pub original_name: String,
    /// The name the model uses.
    pub py_name: String,
    pub location: Location,
    pub schema: Value,
    pub required: bool,
}

/// ADK's `_to_snake_case`: runs of other characters become `_`, camel humps split, lower case,
/// no leading, trailing or repeated `_`.
pub fn to_snake_case(text: &str) -> String {
    // Read as bytes: every non-ASCII character becomes `_` (its several bytes too, and repeated
    // `_` collapse), so nothing needs decoding.
    let mut bytes = Vec::with_capacity(text.len());
    for c in text.bytes() {
        bytes.push(if c.is_ascii_alphanumeric() { c } else { b'_' });
    }
    let mut out = String::with_capacity(bytes.len() + 4);
    for (i, &c) in bytes.iter().enumerate() {
        let previous = i.checked_sub(1).and_then(|p| bytes.get(p)).copied();
        let next = bytes.get(i + 1).copied();
        if c.is_ascii_uppercase() {
            // `aB` → `a_B`; `ABc` → `A_Bc` (the end of an acronym).
            let after_lower = previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            let acronym_end =
                previous.is_some_and(|p| p.is_ascii_uppercase()) && next.is_some_and(|n| n.is_ascii_lowercase());
            if after_lower || acronym_end {
                out.push('_');
            }
        }
        if c == b'_' && out.ends_with('_') {
            continue;
        }
        out.push(char::from(c.to_ascii_lowercase()));
    }
    out.trim_matches('_').to_string()
}

/// Python's keywords, which ADK prefixes with `param_` as parameter names.
const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// The name the model sees for `original` (ADK's `ApiParameter.model_post_init`): snake_case, or
/// as the spec writes it when property names are preserved; a Python keyword gets `param_`.
fn py_name(original: &str, location: Location, preserve: bool) -> String {
    let snake = if preserve && !original.is_empty() { original.to_string() } else { to_snake_case(original) };
    if PYTHON_KEYWORDS.contains(&snake.as_str()) {
        return ["param_", &snake].concat();
    }
    if !snake.is_empty() {
        return snake;
    }
    match location {
        Location::Body => "body",
        Location::Query => "query_param",
        Location::Path => "path_param",
        Location::Header => "header_param",
        Location::Cookie => "cookie_param",
        Location::Other => "value",
    }
    .into()
}

/// How parameters are named: ADK's `preserve_property_names`.
#[derive(Clone, Copy)]
struct Naming {
    preserve: bool,
}

impl Naming {
    fn parameter(self, original_name: &str, location: Location, schema: Value, required: bool) -> ApiParameter {
        let py_name = py_name(original_name, location, self.preserve);
        ApiParameter { py_name, original_name: original_name.into(), location, schema, required }
    }
}

/// A schema as ADK's pydantic model dumps it (`exclude_none`): members that are `null` left out,
/// at every depth. `true` or a missing schema is `{}`.
pub fn dumped_schema(schema: Option<&Value>) -> Value {
    fn drop_nulls(value: &mut Value) {
        match value {
            Value::Object(members) => {
                members.retain(|_, v| !v.is_null());
                members.values_mut().for_each(drop_nulls);
            }
            Value::Array(items) => items.iter_mut().for_each(drop_nulls),
            _ => {}
        }
    }
    let mut schema = match schema {
        Some(schema @ Value::Object(_)) => schema.clone(),
        _ => Value::Object(JsonObject::new()),
    };
    drop_nulls(&mut schema);
    schema
}

fn text<'a>(object: &'a JsonObject, key: &str) -> &'a str {
    object.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The parameters of `operation` (its `parameters` already merged with the path item's), then its
/// request body's, with ADK's deduplicated names; `preserve_property_names` keeps the spec's names.
pub fn parameters(operation: &JsonObject, preserve_property_names: bool) -> Vec<ApiParameter> {
    let naming = Naming { preserve: preserve_property_names };
    let mut params = Vec::new();
    for param in operation.get("parameters").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default() {
        // A `$ref` left unresolved, or anything else that is not a parameter, is skipped, as ADK
        // skips it: one dangling pointer must not take every tool down.
        let Some(param) = param.as_object().filter(|p| p.get("name").is_some_and(Value::is_string)) else {
            continue;
        };
        let location = match text(param, "in") {
            "path" => Location::Path,
            "query" => Location::Query,
            "header" => Location::Header,
            "cookie" => Location::Cookie,
            _ => Location::Other,
        };
        let mut schema = dumped_schema(param.get("schema"));
        if let Value::Object(members) = &mut schema {
            let has_description = members.get("description").and_then(Value::as_str).is_some_and(|d| !d.is_empty());
            if !has_description {
                members.insert("description".into(), text(param, "description").into());
            }
        }
        // A path parameter is required whatever the spec says: the URL cannot be built without it.
        let required = location == Location::Path || param.get("required") == Some(&Value::Bool(true));
        params.push(naming.parameter(text(param, "name"), location, schema, required));
    }
    body_parameters(operation, naming, &mut params);
    dedupe(&mut params);
    params
}

/// The first media type of the request body: an object's properties each a parameter, an array
/// one `array` parameter, anything else one `body` parameter (ADK's `_process_request_body`).
fn body_parameters(operation: &JsonObject, naming: Naming, params: &mut Vec<ApiParameter>) {
    let Some(content) = operation.get("requestBody").and_then(|b| b.get("content")).and_then(Value::as_object) else {
        return;
    };
    let Some((_, media)) = content.iter().next() else { return };
    let schema = dumped_schema(media.get("schema"));
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let required = |name: &str| {
                schema.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|n| n == name))
            };
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    params.push(naming.parameter(name, Location::Body, dumped_schema(Some(property)), required(name)));
                }
            }
        }
        Some("array") => params.push(naming.parameter("array", Location::Body, schema, false)),
        _ => params.push(naming.parameter("body", Location::Body, schema, false)),
    }
}

/// A second `x` becomes `x_0`, a third `x_1` (ADK's `_dedupe_param_names`).
fn dedupe(params: &mut [ApiParameter]) {
    let mut seen: Vec<(String, usize)> = Vec::new();
    for param in params.iter_mut() {
        match seen.iter_mut().find(|(name, _)| *name == param.py_name) {
            Some((name, count)) => {
                param.py_name = format!("{name}_{count}");
                *count += 1;
            }
            None => seen.push((param.py_name.clone(), 0)),
        }
    }
}

/// The JSON Schema of the tool's arguments (ADK's `get_json_schema`).
pub fn arguments_schema(operation_id: &str, params: &[ApiParameter]) -> Value {
    let mut properties = JsonObject::new();
    let mut required: Vec<Value> = Vec::new();
    for p in params {
        properties.insert(p.py_name.clone(), p.schema.clone());
        if p.required {
            required.push(p.py_name.as_str().into());
        }
    }
    let title = [if operation_id.is_empty() { "unnamed" } else { operation_id }, "_Arguments"].concat();
    json::object([
        ("properties", Value::Object(properties)),
        ("required", Value::Array(required)),
        ("title", title.into()),
        ("type", "object".into()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of ADK's `_to_snake_case` docstring and tests, and what its regexes do at edges.
    #[test]
    fn snake_case_as_adk() {
        for (given, expected) in [
            ("camelCase", "camel_case"),
            ("UpperCamelCase", "upper_camel_case"),
            ("space separated", "space_separated"),
            ("REST API", "rest_api"),
            ("HTTPServerError", "http_server_error"),
            ("getPetById", "get_pet_by_id"),
            ("/pets/{pet_id}_get", "pets_pet_id_get"),
            ("x-request-id", "x_request_id"),
            ("v2Beta", "v2_beta"),
            ("__a__b__", "a_b"),
            ("", ""),
            ("한글", ""),
        ] {
            assert_eq!(to_snake_case(given), expected, "{given}");
        }
    }

    #[test]
    fn names_keywords_and_duplicates() {
        let operation: JsonObject = json::from_str(
            "op",
            r##"{"parameters": [{"name": "class", "in": "query"}, {"name": "id", "in": "path", "required": false},
                {"name": "id", "in": "header"}, {"name": "ID", "in": "cookie"}, {"name": "", "in": "query"},
                {"$ref": "#/nowhere"}],
                "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["id"],
                  "properties": {"id": {"type": "string", "default": null}}}}}}}"##,
        )
        .unwrap_or_default();
        let params = parameters(&operation, false);
        let preserved = parameters(&operation, true);
        assert_eq!(preserved.get(3).map(|p| p.py_name.as_str()), Some("ID"));
        let names: Vec<_> = params.iter().map(|p| (p.py_name.as_str(), p.required)).collect();
        assert_eq!(
            names,
            [
                ("param_class", false),
                ("id", true),
                ("id_0", false),
                ("id_1", false),
                ("query_param", false),
                ("id_2", true)
            ]
        );
        assert_eq!(params.last().map(|p| p.schema.clone()), Some(json::constant(r#"{"type": "string"}"#)));
        assert_eq!(params.first().map(|p| p.schema.clone()), Some(json::constant(r#"{"description": ""}"#)));
    }
}
