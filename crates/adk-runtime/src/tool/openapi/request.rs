//! The HTTP request of one call of a `RestApiTool`, built from the model's arguments as ADK's
//! `_prepare_request_params` builds it: path parameters encoded into the path (`.`/`..` segments
//! refused), query, header and cookie parameters where the spec puts them, the body in the first
//! media type of the spec's `requestBody`.

use adk_core::http::{encode_component, form, HttpRequest};
use adk_core::json;
use adk_core::text::join;
use serde_json::Value;

use super::operation::{ApiParameter, Location};
use crate::python_format::format_named;
use crate::types::JsonObject;

/// What the call is sent to: the spec's server, the path template and the method.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub base_url: String,
    pub path: String,
    pub method: &'static str,
}

/// The parameters of a call: the credential's, if any, ahead of the operation's (ADK inserts it
/// first, so an operation parameter of the same name wins). Kept apart rather than copied into
/// one list for each call.
#[derive(Clone, Copy)]
pub struct Params<'a> {
    pub auth: Option<&'a ApiParameter>,
    pub operation: &'a [ApiParameter],
}

/// A call that cannot be made as the model asked: reported to the model, which may retry (ADK's
/// `InputValidationError`).
pub struct BadArguments(pub String);

/// A value as ADK writes a path, header or cookie parameter (`_to_param_string`): JSON spelling of
/// booleans, arrays and objects comma-joined without their nulls, numbers as Python prints them.
pub fn param_string(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        // Written as JSON writes it (`1.0` stays `1.0`, as Python's `str` keeps it).
        Value::Number(_) => json::to_string(value),
        Value::Null => "None".into(),
        Value::Array(items) => {
            let mut strings = Vec::new();
            for v in items.iter().filter(|v| !v.is_null()) {
                strings.push(param_string(v));
            }
            join(&strings, ",")
        }
        Value::Object(members) => {
            let mut strings = Vec::new();
            for (k, v) in members.iter().filter(|(_, v)| !v.is_null()) {
                strings.push([k.as_str(), ",", &param_string(v)].concat());
            }
            join(&strings, ",")
        }
    }
}

/// A query or form value as httpx writes it: booleans in JSON spelling, `null` as empty, an object
/// as JSON text (httpx would write Python's repr of it).
fn primitive_string(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Object(_) => json::to_string(value),
        other => param_string(other),
    }
}

/// Sets header `name`, replacing one of the same name (ADK keeps its headers in a dict).
pub fn set_header(headers: &mut Vec<(String, String)>, name: String, value: String) {
    headers.retain(|(n, _)| *n != name);
    headers.push((name, value));
}

/// `(name, value)` pairs of one parameter: an array repeats its name, as httpx sends it.
fn pairs(name: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| out.push((name.into(), primitive_string(item)))),
        other => out.push((name.into(), primitive_string(other))),
    }
}

/// A path parameter's value, percent-encoded as one segment; `.` and `..` segments are refused,
/// so that a server that decodes `%2F` cannot be steered onto a path the spec never declared.
fn encode_path_param(name: &str, value: &str) -> Result<String, BadArguments> {
    if value.split(['/', '\\']).any(|s| s == "." || s == "..") {
        return Err(BadArguments(
            ["Path parameter '", name, "' must not contain current-directory or parent-directory segments."].concat(),
        ));
    }
    Ok(encode_component(value))
}

/// The request for `args` (the model's arguments, any default already filled in), with the headers
/// the tool adds first in `headers`. Unknown arguments are ignored, as ADK ignores them.
pub fn build(
    endpoint: &Endpoint,
    operation: &JsonObject,
    params: Params,
    args: &JsonObject,
    mut headers: Vec<(String, String)>,
) -> Result<HttpRequest, BadArguments> {
    let Params { auth, operation: params } = params;
    let mut path_values: Vec<(&str, String)> = Vec::new();
    let mut query: Vec<(String, String)> = Vec::new();
    let mut cookies: Vec<String> = Vec::new();
    // The last parameter of a name wins, as in ADK's dict of them.
    let param = |name: &str| params.iter().rev().chain(auth).find(|p| p.py_name == name);
    for (name, value) in args {
        let Some(param) = param(name) else { continue };
        let original = param.original_name.as_str();
        match param.location {
            Location::Path => path_values.push((original, encode_path_param(original, &param_string(value))?)),
            Location::Query if !value.is_null() => pairs(original, value, &mut query),
            Location::Header if !value.is_null() => set_header(&mut headers, original.into(), param_string(value)),
            Location::Cookie if !value.is_null() => cookies.push([original, "=", &param_string(value)].concat()),
            _ => {}
        }
    }
    if !cookies.is_empty() {
        headers.push(("Cookie".into(), join(&cookies, "; ")));
    }

    let base_url = endpoint.base_url.strip_suffix('/').unwrap_or(&endpoint.base_url);
    let path = format_named(&endpoint.path, &path_values, false).map_err(|missing| {
        let py_name = params
            .iter()
            .find(|p| p.location == Location::Path && p.original_name == missing)
            .map_or(missing.as_str(), |p| p.py_name.as_str());
        BadArguments(["Missing required path parameter '", py_name, "'."].concat())
    })?;
    let url = [base_url, &path].concat();
    // A query or fragment the spec wrote into the path joins the parameters (those win).
    let (url, fragment) = url.split_once('#').map_or((url.as_str(), ""), |(u, f)| (u, f));
    let (url, literal_query) = url.split_once('?').map_or((url, ""), |(u, q)| (u, q));
    for part in [literal_query, fragment] {
        for (key, value) in adk_core::http::query_params(&["?", part].concat()) {
            if !value.is_empty() && !query.iter().any(|(k, _)| *k == key) {
                query.push((key, value));
            }
        }
    }

    let body = body(operation, params, args, &mut headers)?;
    let query = form(&query);
    let url = if query.is_empty() { url.to_string() } else { [url, "?", &query].concat() };
    Ok(HttpRequest { method: endpoint.method.to_ascii_uppercase(), url, headers, body })
}

/// The body in the first media type of the spec's `requestBody`, and its `Content-Type`.
fn body(
    operation: &JsonObject,
    params: &[ApiParameter],
    args: &JsonObject,
    headers: &mut Vec<(String, String)>,
) -> Result<Option<String>, BadArguments> {
    let Some((mime, media)) = operation
        .get("requestBody")
        .and_then(|b| b.get("content"))
        .and_then(Value::as_object)
        .and_then(|c| c.iter().next())
    else {
        return Ok(None);
    };
    let is_object = media.get("schema").and_then(|s| s.get("type")).and_then(Value::as_str) == Some("object");
    let data = if is_object {
        let mut members = JsonObject::new();
        for param in params.iter().filter(|p| p.location == Location::Body) {
            if let Some(value) = args.get(&param.py_name) {
                members.insert(param.original_name.clone(), value.clone());
            }
        }
        Some(Value::Object(members))
    } else {
        params.iter().find(|p| p.location == Location::Body).and_then(|p| args.get(&p.py_name)).cloned()
    };
    let mime = mime.as_str();
    if mime == "multipart/form-data" {
        return Err(BadArguments("multipart/form-data request bodies are not supported in adk-wasm.".into()));
    }
    if !mime.is_empty() {
        set_header(headers, "Content-Type".into(), mime.into());
    }
    let Some(data) = data.filter(|d| !d.is_null()) else { return Ok(None) };
    Ok(Some(match mime {
        "application/x-www-form-urlencoded" => match &data {
            Value::Object(members) => {
                let mut fields = Vec::new();
                members.iter().for_each(|(k, v)| pairs(k, v, &mut fields));
                form(&fields)
            }
            other => primitive_string(other),
        },
        m if m == "application/json" || m.ends_with("+json") => json::to_string(&data),
        // text/plain, application/octet-stream and the rest: a string as it is.
        _ => primitive_string(&data),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_strings_as_adk_writes_them() {
        let value = json::constant(r#"[true, null, 1.0, 2, {"a": "b", "c": null}, "s"]"#);
        assert_eq!(param_string(&value), "true,1.0,2,a,b,s");
        assert!(encode_path_param("id", "a/../b").is_err());
        assert_eq!(encode_path_param("id", "file..txt").ok().as_deref(), Some("file..txt"));
    }
}
