//! Instruction templates: `{key}`, `{key?}`, `{app:key}`, `{user:key}`, `{temp:key}`, `{artifact.name}`
//! (ADK's `inject_session_state`).

use adk_core::json;
use serde_json::Value;

use crate::agent::CallbackContext;
use crate::python_repr::python_str;
use crate::{AdkError, ErrorCode};

/// Fills `template` from the session state and artifacts. A missing required key is a `NOT_FOUND`
/// error; `{key?}` gives an empty string instead; braces around anything that is not a state name
/// (an identifier, optionally after `app:`, `user:` or `temp:`) are left as they are.
pub async fn inject_session_state(template: &str, ctx: &CallbackContext) -> Result<String, AdkError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some((start, end)) = next_placeholder(rest) {
        out.push_str(rest.get(..start).unwrap_or_default());
        let whole = rest.get(start..end).unwrap_or_default();
        out.push_str(&replacement(whole, ctx).await?);
        rest = rest.get(end..).unwrap_or_default();
    }
    out.push_str(rest);
    Ok(out)
}

/// The next match of ADK's pattern `{+[^{}]*}+`, as byte offsets.
fn next_placeholder(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut search = 0;
    loop {
        let open = search + text.get(search..)?.find('{')?;
        let mut i = open;
        while bytes.get(i) == Some(&b'{') {
            i += 1;
        }
        let inner_end = i + text.get(i..)?.find(['{', '}']).unwrap_or(text.len() - i);
        if bytes.get(inner_end) != Some(&b'}') {
            search = inner_end.max(open + 1);
            continue;
        }
        let mut end = inner_end;
        while bytes.get(end) == Some(&b'}') {
            end += 1;
        }
        return Some((open, end));
    }
}

async fn replacement(whole: &str, ctx: &CallbackContext) -> Result<String, AdkError> {
    let name = whole.trim_start_matches('{').trim_end_matches('}').trim();
    let (name, optional) = match name.strip_suffix('?') {
        Some(n) => (n, true),
        None => (name, false),
    };
    if let Some(file) = name.strip_prefix("artifact.") {
        return match ctx.load_artifact(file, None).await? {
            Some(part) => Ok(match part.text {
                Some(text) => text,
                None => json::to_string(&part),
            }),
            None if optional => Ok(String::new()),
            None => Err(AdkError::new(ErrorCode::NotFound, format!("Artifact {file} not found."))),
        };
    }
    if !is_valid_state_name(name) {
        return Ok(whole.to_string());
    }
    match ctx.state().get(name) {
        Some(Value::Null) => Ok(String::new()),
        Some(value) => Ok(python_str(&value)),
        None if optional => Ok(String::new()),
        None => Err(AdkError::new(ErrorCode::NotFound, format!("Context variable not found: `{name}`."))),
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic()) && chars.all(|c| c == '_' || c.is_alphanumeric())
}

fn is_valid_state_name(name: &str) -> bool {
    match name.split_once(':') {
        Some((prefix, key)) => ["app", "user", "temp"].contains(&prefix) && is_identifier(key),
        None => is_identifier(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        assert_eq!(next_placeholder("a {b} c"), Some((2, 5)));
        assert_eq!(next_placeholder("{{b}}"), Some((0, 5)));
        assert_eq!(next_placeholder("no } { braces"), None);
        assert_eq!(next_placeholder("{a{b}"), Some((2, 5)));
        assert!(is_valid_state_name("app:x") && !is_valid_state_name("other:x") && !is_valid_state_name("a b"));
    }
}
