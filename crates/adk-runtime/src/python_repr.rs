//! Python's `str()`, `repr()` and `json.dumps` of JSON values: ADK writes state into instructions,
//! other agents' replies into the contents, and lists of names into tools' instructions, as Python
//! prints them.

use serde_json::Value;

/// How Python's `str()` writes a JSON value, as ADK puts state into instructions.
pub fn python_str(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => python_repr(other),
    }
}

fn python_repr(value: &Value) -> String {
    let mut out = String::new();
    write_python(value, Style::Repr, &mut out);
    out
}

/// Python's `json.dumps(value, ensure_ascii=False)`, as ADK writes a structured answer: `", "`
/// and `": "` between members, floats as Python writes them, strings escaped as JSON (non-ASCII
/// as it is).
pub fn python_json(value: &Value) -> String {
    let mut out = String::new();
    write_python(value, Style::Json, &mut out);
    out
}

/// Python's `json.dumps(value)` (ASCII only: other characters as `\uXXXX`), as ADK writes a
/// tool's answer into text.
pub(crate) fn python_json_ascii(value: &Value) -> String {
    let mut out = String::new();
    write_python(value, Style::Ascii, &mut out);
    out
}

/// How `write_python` writes strings and the three constants.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Repr,
    Json,
    Ascii,
}

/// `repr()` or `json.dumps` (`ensure_ascii` off, or on) of `value` onto `out`, by `style`: they
/// differ only in how they write strings and the three constants.
fn write_python(value: &Value, style: Style, out: &mut String) {
    let json = style != Style::Repr;
    match value {
        Value::Null => out.push_str(if json { "null" } else { "None" }),
        Value::Bool(true) => out.push_str(if json { "true" } else { "True" }),
        Value::Bool(false) => out.push_str(if json { "false" } else { "False" }),
        Value::Number(n) => out.push_str(&python_number(n)),
        Value::String(s) => write_string(s, style, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { ", " });
                write_python(item, style, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { ", " });
                write_string(key, style, out);
                out.push_str(": ");
                write_python(item, style, out);
            }
            out.push('}');
        }
    }
}

fn write_string(s: &str, style: Style, out: &mut String) {
    match style {
        Style::Json => out.push_str(&adk_core::json::to_string(s)),
        Style::Ascii => ascii_string(s, out),
        Style::Repr => python_string(s, out),
    }
}

/// A number as Python writes it (`repr()` and `json.dumps` agree on numbers).
fn python_number(n: &serde_json::Number) -> String {
    let Some(f) = n.as_f64().filter(|_| n.is_f64()) else { return adk_core::json::number_text(n) };
    if f.fract() == 0.0 && f.abs() < 1e16 {
        // Python writes a whole float with one decimal; the integer part is exact below 1e16.
        let sign = if f.is_sign_negative() && f == 0.0 { "-" } else { "" };
        [sign, &(f as i64).to_string(), ".0"].concat()
    } else if f.abs() < 1e-4 {
        python_small_float(&adk_core::json::number_text(n))
    } else {
        adk_core::json::number_text(n)
    }
}

/// Python's `repr()` of a string onto `out`: quoted with `'` unless it holds `'` and no `"`,
/// backslash escapes for the quote, `\\`, `\n`, `\r`, `\t`, and `\x..`/`\u....` for characters
/// Python does not print (controls, the Latin-1 ones around NBSP, and the invisible spaces and
/// marks of the wider planes).
fn python_string(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.reserve(s.len() + 2);
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
            _ if code < 0x20 || (0x7f..=0xa0).contains(&code) || code == 0xad => push_hex(out, 'x', code, 2),
            _ if matches!(code, 0x1680 | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x206f | 0x3000 | 0xfeff) => {
                push_hex(out, 'u', code, 4)
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// `\x..` or `\u....`: `code` in `digits` lower-case hex digits.
fn push_hex(out: &mut String, kind: char, code: u32, digits: u32) {
    out.push('\\');
    out.push(kind);
    for shift in (0..digits).rev() {
        out.extend(char::from_digit(code >> (4 * shift) & 0xf, 16));
    }
}

/// Python's `json.dumps` of a list of strings (`", "` between items, non-ASCII as `\uXXXX`).
pub(crate) fn python_json_list(items: &[String]) -> String {
    let mut out = String::from("[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        ascii_string(item, &mut out);
    }
    out.push(']');
    out
}

/// A string as Python's `json.dumps` writes it by default: quoted, escaped, non-ASCII as `\uXXXX`.
fn ascii_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    push_hex(out, 'u', u32::from(*unit), 4);
                }
            }
        }
    }
    out.push('"');
}

/// Python's `repr()` of a float below 1e-4 (not 0), from the shortest decimal text of it: always
/// an exponent, of at least two digits (`1.23e-05`).
fn python_small_float(text: &str) -> String {
    let (sign, body) = text.strip_prefix('-').map_or(("", text), |b| ("-", b));
    if let Some((mantissa, exponent)) = body.split_once(['e', 'E']) {
        let digits = exponent.trim_start_matches(['+', '-']);
        let exp_sign = if exponent.starts_with('-') { "-" } else { "+" };
        let pad = if digits.len() < 2 { "0" } else { "" };
        return [sign, mantissa, "e", exp_sign, pad, digits].concat();
    }
    let fraction = body.strip_prefix("0.").unwrap_or(body);
    let digits = fraction.trim_start_matches('0');
    let exponent = (fraction.len() - digits.len() + 1).to_string();
    let pad = if exponent.len() < 2 { "0" } else { "" };
    match digits.split_at_checked(1) {
        Some((first, rest)) if !rest.is_empty() => [sign, first, ".", rest, "e-", pad, &exponent].concat(),
        _ => [sign, digits, "e-", pad, &exponent].concat(),
    }
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
