//! Instruction templates: `{key}`, `{key?}`, `{app:key}`, `{user:key}`, `{temp:key}`, `{artifact.name}`
//! (ADK's `inject_session_state`).

use adk_core::json;
use serde_json::Value;

use crate::agent::CallbackContext;
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

/// How Python's `str()` writes a JSON value, as ADK puts state into instructions.
pub fn python_str(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => python_repr(other),
    }
}

fn python_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or_default();
            if f.fract() == 0.0 && f.abs() < 1e16 {
                // Python writes a whole float with one decimal; the integer part is exact below 1e16.
                let sign = if f.is_sign_negative() && f == 0.0 { "-" } else { "" };
                format!("{sign}{}.0", f as i64)
            } else if f.abs() < 1e-4 {
                python_small_float(&n.to_string())
            } else {
                n.to_string()
            }
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) => python_string(s),
        Value::Array(items) => format!("[{}]", items.iter().map(python_repr).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter().map(|(k, v)| format!("{}: {}", python_string(k), python_repr(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Python's `repr()` of a string: quoted with `'` unless it holds `'` and no `"`, backslash escapes
/// for the quote, `\\`, `\n`, `\r`, `\t`, and `\x..`/`\u....` for characters Python does not print
/// (controls, the Latin-1 ones around NBSP, and the invisible spaces and marks of the wider planes).
fn python_string(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        let code = u32::from(c);
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            _ if code < 0x20 || (0x7f..=0xa0).contains(&code) || code == 0xad => {
                out.push_str(&format!("\\x{code:02x}"));
            }
            _ if matches!(code, 0x1680 | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x206f | 0x3000 | 0xfeff) => {
                out.push_str(&format!("\\u{code:04x}"));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr()` of a float below 1e-4 (not 0), from the shortest decimal text of it: always
/// an exponent, of at least two digits (`1.23e-05`).
fn python_small_float(text: &str) -> String {
    let (sign, body) = text.strip_prefix('-').map_or(("", text), |b| ("-", b));
    if let Some((mantissa, exponent)) = body.split_once(['e', 'E']) {
        let digits = exponent.trim_start_matches(['+', '-']);
        let exp_sign = if exponent.starts_with('-') { "-" } else { "+" };
        return format!("{sign}{mantissa}e{exp_sign}{digits:0>2}");
    }
    let fraction = body.strip_prefix("0.").unwrap_or(body);
    let digits = fraction.trim_start_matches('0');
    let zeros = fraction.len() - digits.len();
    let mantissa = match digits.split_at_checked(1) {
        Some((first, rest)) if !rest.is_empty() => format!("{first}.{rest}"),
        _ => digits.to_string(),
    };
    format!("{sign}{mantissa}e-{:02}", zeros + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_str_matches_python() {
        assert_eq!(python_str(&json!("x")), "x");
        assert_eq!(python_str(&json!(true)), "True");
        assert_eq!(python_str(&json!(1.0)), "1.0");
        assert_eq!(python_str(&json!(3)), "3");
        assert_eq!(python_str(&json!([1, "a", null])), "[1, 'a', None]");
        assert_eq!(python_str(&json!({"k": "it's"})), "{'k': \"it's\"}");
        // What Python 3 prints for the same values.
        assert_eq!(
            python_str(&json!(["a\r\nb\u{a0}c", "\u{200b}", "é 한 👋", "\u{1}"])),
            "['a\\r\\nb\\xa0c', '\\u200b', 'é 한 👋', '\\x01']"
        );
        assert_eq!(
            python_str(&json!([1.23e-5, 1.5e-6, -2e-7, 0.00012, 1e-4])),
            "[1.23e-05, 1.5e-06, -2e-07, 0.00012, 0.0001]"
        );
    }

    #[test]
    fn placeholders() {
        assert_eq!(next_placeholder("a {b} c"), Some((2, 5)));
        assert_eq!(next_placeholder("{{b}}"), Some((0, 5)));
        assert_eq!(next_placeholder("no } { braces"), None);
        assert_eq!(next_placeholder("{a{b}"), Some((2, 5)));
        assert!(is_valid_state_name("app:x") && !is_valid_state_name("other:x") && !is_valid_state_name("a b"));
    }
}
