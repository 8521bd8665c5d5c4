//! Python's `str()` and `repr()` of JSON values: ADK writes state into instructions, and other
//! agents' replies into the contents, as Python prints them.

use serde_json::Value;

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
        Value::Number(n) => python_number(n),
        Value::String(s) => python_string(s),
        Value::Array(items) => format!("[{}]", items.iter().map(python_repr).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter().map(|(k, v)| format!("{}: {}", python_string(k), python_repr(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Python's `json.dumps(value, ensure_ascii=False)`, as ADK writes a structured answer: `", "`
/// and `": "` between members, floats as Python writes them, strings escaped as JSON (non-ASCII
/// as it is).
pub fn python_json(value: &Value) -> String {
    match value {
        Value::Number(n) => python_number(n),
        Value::Array(items) => format!("[{}]", items.iter().map(python_json).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => {
            let members: Vec<String> =
                map.iter().map(|(k, v)| format!("{}: {}", adk_core::json::to_string(k), python_json(v))).collect();
            format!("{{{}}}", members.join(", "))
        }
        other => adk_core::json::to_string(other),
    }
}

/// A number as Python writes it (`repr()` and `json.dumps` agree on numbers).
fn python_number(n: &serde_json::Number) -> String {
    let Some(f) = n.as_f64().filter(|_| n.is_f64()) else { return adk_core::json::number_text(n) };
    if f.fract() == 0.0 && f.abs() < 1e16 {
        // Python writes a whole float with one decimal; the integer part is exact below 1e16.
        let sign = if f.is_sign_negative() && f == 0.0 { "-" } else { "" };
        format!("{sign}{}.0", f as i64)
    } else if f.abs() < 1e-4 {
        python_small_float(&adk_core::json::number_text(n))
    } else {
        adk_core::json::number_text(n)
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
    fn python_json_matches_python() {
        // What `json.dumps(value, ensure_ascii=False)` prints for the same values.
        assert_eq!(
            python_json(&json!({"a": [1, 2.0, 1.5e-5, null, true], "b": {"c": "é \"q\"\n\u{1}"}, "d": {}})),
            r#"{"a": [1, 2.0, 1.5e-05, null, true], "b": {"c": "é \"q\"\n\u0001"}, "d": {}}"#
        );
    }
}
