//! Python's `str.format` with keyword arguments, as ADK fills a path template and a prompt
//! template: `{name}` replaced by its value, `{{` and `}}` literal braces.

/// `template` with each `{name}` replaced by its value in `values`. A name with no value is the
/// error. A lone `}` or an unclosed `{` is kept as written, or, when `strict`, the error (with an
/// empty name: Python refuses such a template).
pub fn format_named(template: &str, values: &[(&str, String)], strict: bool) -> Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    // Checked slicing (never refused here): a slice that could panic links core's message for it,
    // and the Unicode tables that message needs, into the module.
    while let Some((before, after)) = rest.find(['{', '}']).and_then(|i| rest.split_at_checked(i)) {
        out.push_str(before);
        if let Some(tail) = after.strip_prefix("{{").or_else(|| after.strip_prefix("}}")) {
            out.push_str(after.get(..1).unwrap_or_default());
            rest = tail;
            continue;
        }
        let Some(end) = after.find('}').filter(|_| after.starts_with('{')) else {
            if strict {
                return Err(String::new());
            }
            out.push_str(after.get(..1).unwrap_or_default());
            rest = after.get(1..).unwrap_or_default();
            continue;
        };
        let name = after.get(1..end).unwrap_or_default();
        match values.iter().find(|(k, _)| *k == name) {
            Some((_, value)) => out.push_str(value),
            None => return Err(name.to_string()),
        }
        rest = after.get(end + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_braces() {
        let values = [("id", "7".to_string()), ("x", String::new())];
        assert_eq!(format_named("/a/{id}/{{b}}{x}", &values, true).as_deref(), Ok("/a/7/{b}"));
        assert_eq!(format_named("/a/{other}", &values, false), Err("other".to_string()));
        assert_eq!(format_named("a } b {c", &values, false).as_deref(), Ok("a } b {c"));
        assert_eq!(format_named("a } b", &values, true), Err(String::new()));
        assert_eq!(format_named("a {id", &values, true), Err(String::new()));
    }
}
