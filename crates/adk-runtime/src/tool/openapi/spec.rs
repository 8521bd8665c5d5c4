//! An OpenAPI 3 spec read into operations as ADK's `OpenApiSpecParser` reads it: local `$ref`s
//! replaced by what they point at (a cycle cut where it closes), schema types normalised, and one
//! operation per path and method, with the path's parameters and the security scheme it requires.

use serde_json::Value;

use super::operation::to_snake_case;
use crate::types::JsonObject;
use crate::AdkError;

/// The methods ADK reads, in its order.
const METHODS: [&str; 8] = ["get", "post", "put", "delete", "patch", "head", "options", "trace"];

/// The types pydantic accepts for a schema; others are dropped (ADK's `_sanitize_schema_types`).
const SCHEMA_TYPES: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];

/// How deep the resolved spec may nest, and how many values resolving may produce: a spec whose
/// references expand without end is refused, not followed until the page runs out of stack or
/// memory.
const MAX_DEPTH: usize = 256;
const MAX_RESOLVED_VALUES: usize = 2_000_000;

/// One operation of the spec (ADK's `ParsedOperation`).
#[derive(Debug, Clone)]
pub struct ParsedOperation {
    pub base_url: String,
    pub path: String,
    pub method: &'static str,
    /// The operation object, `parameters` merged with the path item's, an `operationId` given.
    pub operation: JsonObject,
    /// The security scheme the operation requires, if any.
    pub auth_scheme: Option<JsonObject>,
}

fn spec_error(message: impl Into<String>) -> AdkError {
    AdkError::invalid(["OpenAPI spec: ", &message.into()].concat())
}

/// The operations of `spec`, in the spec's order of paths and ADK's order of methods.
pub fn parse(spec: &Value) -> Result<Vec<ParsedOperation>, AdkError> {
    let mut resolver = Resolver { doc: spec, cache: Vec::new(), seen: Vec::new(), produced: 0 };
    let mut spec = resolver.resolve(spec, 0)?;
    sanitize_types(&mut spec, false);
    collect(&spec)
}

struct Resolver<'a> {
    doc: &'a Value,
    // A spec has tens of references, not thousands: lists are small and quick enough. Each resolved
    // value with how deep it nests, so a copy pasted deep down is measured too.
    cache: Vec<(String, Value, usize)>,
    // Every reference met so far, never forgotten (ADK's `seen_refs`): met again before it is
    // resolved, it is a cycle, and that occurrence loses its `$ref`.
    seen: Vec<String>,
    produced: usize,
}

impl Resolver<'_> {
    fn resolve(&mut self, value: &Value, depth: usize) -> Result<Value, AdkError> {
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        self.produced += 1;
        if self.produced > MAX_RESOLVED_VALUES {
            return Err(spec_error(format!("resolving its references makes more than {MAX_RESOLVED_VALUES} values")));
        }
        match value {
            Value::Object(object) => match object.get("$ref").and_then(Value::as_str) {
                Some(reference) => self.reference(object, reference, depth),
                None => {
                    let mut resolved = JsonObject::with_capacity(object.len());
                    for (key, member) in object {
                        resolved.insert(key.clone(), self.resolve(member, depth + 1)?);
                    }
                    Ok(Value::Object(resolved))
                }
            },
            Value::Array(items) => {
                let mut resolved = Vec::with_capacity(items.len());
                for item in items {
                    resolved.push(self.resolve(item, depth + 1)?);
                }
                Ok(Value::Array(resolved))
            }
            other => Ok(other.clone()),
        }
    }

    /// What `{"$ref": reference, …}` becomes: its target resolved (the object's other members
    /// dropped, as ADK drops them), the object itself when the target is missing, and the object
    /// without `$ref` where a cycle closes.
    fn reference(&mut self, object: &JsonObject, reference: &str, depth: usize) -> Result<Value, AdkError> {
        if let Some((_, resolved, nesting)) = self.cache.iter().find(|(r, _, _)| r == reference) {
            if depth + nesting > MAX_DEPTH {
                return Err(too_deep());
            }
            self.produced = self.produced.saturating_add(size(resolved));
            return Ok(resolved.clone());
        }
        if self.seen.iter().any(|r| r == reference) {
            let mut rest = object.clone();
            rest.shift_remove("$ref");
            return Ok(Value::Object(rest));
        }
        self.seen.push(reference.to_string());
        let mut parts = reference.split('/');
        if parts.next() != Some("#") {
            return Err(spec_error(["external references are not supported: ", reference].concat()));
        }
        let mut target = self.doc;
        for part in parts {
            match target.get(part) {
                Some(next) => target = next,
                None => return Ok(Value::Object(object.clone())),
            }
        }
        let resolved = self.resolve(target, depth + 1)?;
        self.cache.push((reference.to_string(), resolved.clone(), nesting(&resolved)));
        Ok(resolved)
    }
}

fn too_deep() -> AdkError {
    spec_error(format!("resolving its references nests it more than {MAX_DEPTH} levels deep"))
}

/// How many levels `value` nests (bounded: resolution refuses deeper values).
fn nesting(value: &Value) -> usize {
    match value {
        Value::Object(o) => 1 + o.values().map(nesting).max().unwrap_or(0),
        Value::Array(a) => 1 + a.iter().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// How many values `value` holds (what a copy of it costs).
fn size(value: &Value) -> usize {
    match value {
        Value::Object(o) => o.values().map(size).sum::<usize>() + 1,
        Value::Array(a) => a.iter().map(size).sum::<usize>() + 1,
        _ => 1,
    }
}

/// Lower-cases the `type` of every object under a `schema` or `schemas` member and drops the
/// types pydantic would refuse (an API's `"Any"`), from a list too.
fn sanitize_types(value: &mut Value, in_schema: bool) {
    match value {
        Value::Object(object) => {
            if in_schema {
                sanitize_type(object);
            }
            for (key, member) in object.iter_mut() {
                sanitize_types(member, in_schema || key == "schema" || key == "schemas");
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| sanitize_types(item, in_schema)),
        _ => {}
    }
}

fn sanitize_type(object: &mut JsonObject) {
    let valid = |t: &str| {
        let t = t.to_ascii_lowercase();
        SCHEMA_TYPES.contains(&t.as_str()).then_some(t)
    };
    let sanitized = match object.get("type") {
        Some(Value::String(t)) => valid(t).map(Value::from),
        Some(Value::Array(types)) => {
            let mut kept: Vec<Value> = Vec::new();
            for t in types.iter().filter_map(Value::as_str).filter_map(valid) {
                if !kept.iter().any(|k| *k == t) {
                    kept.push(t.into());
                }
            }
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        _ => return,
    };
    match sanitized {
        Some(t) => drop(object.insert("type".into(), t)),
        None => drop(object.shift_remove("type")),
    }
}

/// The scheme name a security requirement list asks for: none for an empty list or one with an
/// empty requirement (optional authentication), else the first requirement's first name.
fn required_scheme_name(security: Option<&Value>) -> Option<String> {
    let requirements = security?.as_array()?;
    if requirements.iter().any(|r| r.as_object().is_none_or(JsonObject::is_empty)) {
        return None;
    }
    requirements.first()?.as_object()?.keys().next().cloned()
}

fn collect(spec: &Value) -> Result<Vec<ParsedOperation>, AdkError> {
    // As `pointer("/servers/0/url")` reads it (item 0, or a member named `0`), by hand: serde_json's
    // pointer unescapes its tokens with `str::replace`, whose slicing links a panic path into the module.
    let server = spec.get("servers").and_then(|s| s.as_array().map_or_else(|| s.get("0"), |items| items.first()));
    let base_url = server.and_then(|s| s.get("url")).and_then(Value::as_str).unwrap_or_default().to_string();
    let global_scheme = required_scheme_name(spec.get("security"));
    let schemes = spec.get("components").and_then(|c| c.get("securitySchemes")).and_then(Value::as_object);
    let mut operations = Vec::new();
    let paths = match spec.get("paths") {
        None | Some(Value::Null) => return Ok(operations),
        Some(Value::Object(paths)) => paths,
        Some(_) => return Err(spec_error("`paths` must be an object")),
    };
    for (path, item) in paths {
        let item = match item {
            Value::Null => continue,
            Value::Object(item) => item,
            _ => return Err(spec_error(["the path item of ", path, " must be an object"].concat())),
        };
        let path_parameters = item.get("parameters").and_then(Value::as_array).cloned().unwrap_or_default();
        for method in METHODS {
            let mut operation = match item.get(method) {
                None | Some(Value::Null) => continue,
                Some(Value::Object(operation)) => operation.clone(),
                Some(_) => return Err(spec_error(format!("{} {path} must be an object", method.to_ascii_uppercase()))),
            };
            merge_path_parameters(&mut operation, &path_parameters);
            if !operation.get("operationId").is_some_and(Value::is_string) {
                operation.insert("operationId".into(), to_snake_case(&[path, "_", method].concat()).into());
            }
            // An operation's own `security`, even an empty one, overrides the spec's.
            let scheme = match operation.get("security") {
                None | Some(Value::Null) => global_scheme.clone(),
                own => required_scheme_name(own),
            };
            let auth_scheme = scheme.and_then(|name| schemes?.get(&name)?.as_object().cloned());
            operations.push(ParsedOperation {
                base_url: base_url.clone(),
                path: path.clone(),
                method,
                operation,
                auth_scheme,
            });
        }
    }
    Ok(operations)
}

/// Appends the path item's parameters that the operation does not override (same name and `in`).
fn merge_path_parameters(operation: &mut JsonObject, path_parameters: &[Value]) {
    let key = |p: &Value| (p.get("name").cloned(), p.get("in").cloned());
    let mut own = match operation.shift_remove("parameters") {
        Some(Value::Array(own)) => own,
        _ => Vec::new(),
    };
    let mut overridden = Vec::new();
    for p in &own {
        if p.get("name").is_some() {
            overridden.push(key(p));
        }
    }
    own.extend(path_parameters.iter().filter(|p| !p.is_object() || !overridden.contains(&key(p))).cloned());
    operation.insert("parameters".into(), Value::Array(own));
}

#[cfg(test)]
mod tests {
    use super::*;
    use adk_core::json;

    #[test]
    fn references_cycles_and_types() {
        let spec = json::constant(
            r##"{"paths": {"/t": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}},
                "components": {"schemas": {"Node": {"type": "OBJECT", "properties": {
                  "next": {"$ref": "#/components/schemas/Node", "description": "the next"},
                  "kind": {"type": ["String", "Any", "string", "null"]}, "odd": {"type": "Any"},
                  "gone": {"$ref": "#/components/schemas/Missing"}}}}}}"##,
        );
        let operations = parse(&spec).unwrap_or_default();
        let schema = operations
            .first()
            .and_then(|o| o.operation.get("requestBody")?.pointer("/content/application~1json/schema"));
        let expected = json::constant(
            r##"{"type": "object", "properties": {"next": {"description": "the next"}, "kind": {"type": ["string", "null"]},
                 "odd": {}, "gone": {"$ref": "#/components/schemas/Missing"}}}"##,
        );
        assert_eq!(schema, Some(&expected));
        assert_eq!(operations.first().map(|o| o.operation.get("operationId").cloned()), Some(Some("t_post".into())));
    }

    /// A spec whose one operation takes a query parameter of schema `S0` among `schemas`.
    fn query_of_s0(schemas: JsonObject) -> Value {
        json::object([
            (
                "paths",
                json::constant(
                    r##"{"/x": {"get": {"parameters": [{"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/S0"}}]}}}"##,
                ),
            ),
            ("components", json::object([("schemas", Value::Object(schemas))])),
        ])
    }

    #[test]
    fn expanding_references_are_refused() {
        // Each level refers to the one below twice: 2^40 values if followed.
        let mut schemas = JsonObject::new();
        for i in 0..40 {
            let below = format!("#/components/schemas/S{}", i + 1);
            let object = json::object([
                ("a", json::object([("$ref", below.as_str().into())])),
                ("b", json::object([("$ref", below.as_str().into())])),
            ]);
            schemas.insert(format!("S{i}"), object);
        }
        let error = parse(&query_of_s0(schemas)).err().map(|e| e.message).unwrap_or_default();
        assert!(error.contains("more than"), "{error}");
        assert!(parse(&json::constant(r##"{"paths": {"/x": {"$ref": "http://elsewhere/spec.json"}}}"##)).is_err());
    }

    #[test]
    fn deep_pastes_of_resolved_references_are_refused() {
        // S0 is 100 levels deep and ends in a reference to S1, which is too: each cached copy goes
        // deeper than the resolution's own recursion.
        let mut schemas = JsonObject::new();
        for i in 0..6 {
            let mut inner = json::object([("$ref", format!("#/components/schemas/S{}", i + 1).as_str().into())]);
            for _ in 0..100 {
                inner = json::object([("a", inner)]);
            }
            schemas.insert(format!("S{i}"), inner);
        }
        schemas.insert("S6".into(), json::object([("type", "string".into())]));
        let error = parse(&query_of_s0(schemas)).err().map(|e| e.message).unwrap_or_default();
        assert!(error.contains("levels deep"), "{error}");
    }

    #[test]
    fn security_and_path_parameters() {
        let spec = json::constant(
            r#"{"security": [{"key": []}], "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "K"}}},
                "paths": {"/a/{id}": {"parameters": [{"name": "id", "in": "path"}, {"name": "v", "in": "query"}],
                  "get": {"operationId": "getA", "parameters": [{"name": "id", "in": "path", "description": "own"}]},
                  "put": {"security": []}, "delete": {"security": [{}, {"key": []}]}}}}"#,
        );
        let operations = parse(&spec).unwrap_or_default();
        let summary: Vec<_> = operations
            .iter()
            .map(|o| {
                (
                    o.method,
                    o.auth_scheme.is_some(),
                    o.operation.get("parameters").and_then(Value::as_array).map_or(0, Vec::len),
                )
            })
            .collect();
        assert_eq!(summary, [("get", true, 2), ("put", false, 2), ("delete", false, 2)]);
    }
}
