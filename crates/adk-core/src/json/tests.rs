use serde_json::{json, Value};

use super::*;
use crate::ErrorCode;

crate::json_struct! {
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Inner {
        text: Option<String> => "text" opt,
        n: i64 => "n" def,
    }
}

crate::json_struct! {
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Outer {
        name: String => "name" req,
        items: Vec<Inner> => "items" nonempty,
        extra: Option<Value> => "extra" opt,
        when: f64 => "when" (with 7.5),
    }
}

fn outer(text: &str) -> Result<Outer, AdkError> {
    from_str("outer", text)
}

#[test]
fn reads_and_writes_in_declared_order() {
    let o = outer(r#" {"when": 1.5, "items": [{"n": 2, "text": "a\"b\u00e9\ud83d\ude00"}], "name": "x", "zzz": [1, {"a": null}]} "#)
        .unwrap();
    assert_eq!(o.items[0].text.as_deref(), Some("a\"bé😀"));
    assert_eq!(to_string(&o), r#"{"name":"x","items":[{"text":"a\"bé😀","n":2}],"when":1.5}"#);
    let defaults = outer(r#"{"name": "y"}"#).unwrap();
    assert_eq!((defaults.items.len(), defaults.when), (0, 7.5));
    assert_eq!(to_string(&defaults), r#"{"name":"y","when":7.5}"#);
}

#[test]
fn the_value_reader_gives_the_same_results() {
    let text = r#"{"name": "x", "items": [{"text": "t", "n": -3}], "extra": {"k": [1, 2.5, "s", true, null]}}"#;
    let from_text = outer(text).unwrap();
    let walked: Outer = from_value("outer", serde_json::from_str::<Value>(text).unwrap()).unwrap();
    assert_eq!(from_text, walked);
    let e = from_value::<Outer>("outer", json!({"name": "x", "items": [{"n": "one"}]})).unwrap_err();
    assert!(e.message.contains("items[0].n"), "{}", e.message);
}

#[test]
fn errors_name_the_path() {
    let cases = [
        (r#"{"name": 5}"#, "invalid outer: name: invalid type: a number, expected a string"),
        (r#"{"items": []}"#, "invalid outer: missing field `name`"),
        (
            r#"{"name": "x", "items": [{}, {"text": 1}]}"#,
            "invalid outer: items[1].text: invalid type: a number, expected a string",
        ),
        (
            r#"{"name": "x", "items": [{"n": 1.5}]}"#,
            "invalid outer: items[0].n: invalid value: 1.5, expected a whole number",
        ),
        (r#"[1]"#, "invalid outer: invalid type: an array, expected an object"),
    ];
    for (text, message) in cases {
        let e = outer(text).unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (ErrorCode::InvalidArgument, message), "{text}");
    }
}

#[test]
fn syntax_errors_say_where() {
    for (text, needle) in [
        ("", "EOF while parsing a value at line 1 column 1"),
        ("{\"name\": \"x\",}", "key must be a string at line 1 column 14"),
        ("{\"name\": \"x\"} x", "trailing characters at line 1 column 15"),
        ("{\"name\": \"x\", \"when\":\n 01}", "invalid number at line 2 column 2"),
        ("{\"name\": \"a\u{1}\"}", "control character"),
        ("{\"name\": \"\\x\"}", "invalid escape"),
        ("{\"name\": tru}", "expected value"),
        ("{\"name\": \"x\", \"when\": 1e999}", "number out of range"),
    ] {
        let e = outer(text).unwrap_err();
        assert!(e.message.starts_with("invalid outer: not valid JSON: "), "{text}: {}", e.message);
        assert!(e.message.contains(needle), "{text}: {}", e.message);
    }
}

/// The five texts `into_adk` writes, a syntax error
/// keeping no path: `in_field`/`in_item` add none to one.
#[test]
fn into_adk_writes_the_five_forms() {
    let big = JsonError::too_large(7).0.message.clone();
    let cases = [
        (JsonError::data("bad"), ErrorCode::InvalidArgument, "invalid thing: bad".to_string()),
        (
            JsonError::data("bad").in_field("text").in_item(2).in_field("parts"),
            ErrorCode::InvalidArgument,
            "invalid thing: parts[2].text: bad".to_string(),
        ),
        (
            JsonError::syntax("eof", 3, 14).in_field("parts"),
            ErrorCode::InvalidArgument,
            "invalid thing: not valid JSON: eof at line 3 column 14".to_string(),
        ),
        (JsonError::too_large(7), ErrorCode::ResourceExhausted, format!("thing is too large: {big}")),
        (
            JsonError::too_large(7).in_item(0).in_field("items"),
            ErrorCode::ResourceExhausted,
            format!("thing is too large: items[0]: {big}"),
        ),
    ];
    for (error, code, text) in cases {
        let e = error.into_adk("thing");
        assert_eq!((e.code, e.message.as_str()), (code, text.as_str()));
    }
}

#[test]
fn values_round_trip_as_serde_json_writes_them() {
    let text = r#"{"a":[1,-2,18446744073709551615,-9223372036854775808,1.0,0.1,1e-7,1.5e300,"\u0001\n\t\\\"/é"],"b":{},"c":[],"d":null,"e":false}"#;
    let value = parse("v", text).unwrap();
    assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
    assert_eq!(to_string(&value), serde_json::to_string(&value).unwrap());
    assert_eq!(to_string(&f64::NAN), "null");
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let e = parse("v", &deep).unwrap_err();
    assert!(e.message.contains("recursion limit exceeded"), "{}", e.message);
    let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert!(parse("v", &ok).is_ok());
}

#[test]
fn a_value_nests_128_levels_at_its_root() {
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(from_str::<Value>("v", &nested(128)).is_ok());
    assert!(from_str::<Value>("v", &nested(129)).is_err());
    // A map of values (a state delta): each member as deep as a value may be.
    assert!(from_str::<serde_json::Map<String, Value>>("v", &format!(r#"{{"k":{}}}"#, nested(128))).is_ok());
    assert!(from_str::<serde_json::Map<String, Value>>("v", &format!(r#"{{"k":{}}}"#, nested(129))).is_err());
}

#[test]
fn text_this_sdk_wrote_reads_nested_deeper_than_input() {
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(from_str::<Value>("v", &nested(129)).is_err());
    assert!(read_own_text::<Value>(&nested(256)).is_ok());
    let e = read_own_text::<Value>(&nested(257)).unwrap_err().into_adk("v");
    assert!(e.message.contains("recursion limit exceeded"), "{}", e.message);
    // A value rewritten through its text (the A2A v0.3 mapping) is read as the SDK's own text too.
    let deep: Value = read_own_text(&nested(200)).unwrap();
    assert_eq!(to_value(&deep), deep);
}

#[test]
fn raw_gives_the_text_of_a_member() {
    let mut r = Reader::text(r#"{"a": {"b": [1, "x"]}, "c": 2}"#);
    let mut raw = Vec::new();
    r.object(|r, key| {
        raw.push((key.to_string(), r.raw()?.into_owned()));
        Ok(())
    })
    .unwrap();
    assert_eq!(raw, [("a".to_string(), r#"{"b": [1, "x"]}"#.to_string()), ("c".to_string(), "2".to_string())]);
}

#[test]
fn skipped_and_raw_strings_have_their_escapes_checked() {
    for bad in [r#"["\q"]"#, r#"["\u00zz"]"#, "[\"\\\u{1}\"]", r#"["a\"]"#] {
        assert!(Reader::text(bad).skip().is_err(), "{bad}");
        assert!(Reader::text(bad).raw().is_err(), "{bad}");
    }
    let good = r#"["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]"#;
    assert!(Reader::text(good).skip().is_ok());
    assert_eq!(Reader::text(good).raw().unwrap(), good);
}

#[test]
fn lone_surrogates_become_replacement_characters() {
    for (escaped, read) in [
        (r"\ud800", "\u{fffd}"),
        (r"\udfff", "\u{fffd}"),
        (r"a\ud800b", "a\u{fffd}b"),
        (r"\ud800\u0041", "\u{fffd}A"),
        (r"\ud800\ud800\ude00", "\u{fffd}\u{10200}"),
        (r"\ude00\ud800", "\u{fffd}\u{fffd}"),
        (r"\ud83d\ude00", "😀"),
    ] {
        let o = outer(&format!(r#"{{"name": "{escaped}"}}"#)).unwrap();
        assert_eq!(o.name, read, "{escaped}");
    }
    assert!(outer(r#"{"name": "\ud800\u00"}"#).unwrap_err().message.contains("invalid escape"));
}

#[test]
fn encoded_len_counts_what_to_string_writes() {
    let big = format!("{}\"\\\n\u{1}é😀", "x".repeat(3 << 20));
    let value = json!({"a": [1, 2.5, null, true, -3], "big": big, "small": "q\"\t\u{1f}é"});
    assert_eq!(encoded_len(&value), to_string(&value).len());
    let o = outer(r#"{"name": "n", "items": [{"n": 2}]}"#).unwrap();
    assert_eq!(encoded_len(&o), to_string(&o).len());
}

#[test]
fn integers_read_as_serde_json_keeps_them() {
    for text in [
        "0",
        "7",
        "-7",
        "18446744073709551615",
        "18446744073709551616",
        "9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
    ] {
        let ours: Value = from_str("n", text).unwrap();
        let theirs: Value = serde_json::from_str(text).unwrap();
        let kind = |v: &Value| (v.as_u64(), v.as_i64(), v.as_f64().map(f64::to_bits));
        assert_eq!(kind(&ours), kind(&theirs), "{text}");
    }
    // Unlike serde_json (-0.0), an integer zero, as this reader always gave it.
    assert_eq!(from_str::<Value>("n", "-0").unwrap().as_u64(), Some(0));
}

#[test]
fn integers_are_written_as_display_writes_them() {
    for n in [0, 7, 10, 99, 100, 1_000_000_007, i64::MAX as u64, u64::MAX] {
        assert_eq!(Digits::new(n).as_str(), n.to_string());
        assert_eq!(to_string(&n), n.to_string());
    }
    for n in [0, -1, -10, i64::MIN, i64::MAX] {
        assert_eq!(to_string(&n), n.to_string());
    }
}

#[test]
fn same_is_equality() {
    let values = [
        json!(null),
        json!(true),
        json!(1),
        json!(-1),
        json!(1.5),
        json!("a"),
        json!([1, {"a": [null]}]),
        json!([1, {"a": [false]}]),
        json!({"a": 1, "b": {"c": [1, 2]}}),
        json!({"b": {"c": [1, 2]}, "a": 1}),
        json!({"a": 1, "b": {"c": [1, 3]}}),
        json!({"a": 1}),
        json!({"a": 1, "c": 1}),
        json!({"a": 1, "c": 1, "b": 2}),
        json!({"a": 1, "b": 2, "c": 1}),
        json!({"a": 1, "b": 2, "c": 2}),
        json!({}),
        json!([]),
    ];
    for a in &values {
        for b in &values {
            assert_eq!(same(a, b), a == b, "{a} {b}");
        }
    }
    // A large object in the same order is compared pair by pair (a search per member would take
    // 200 million key comparisons here).
    let large: serde_json::Map<String, Value> = (0..20_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let mut changed = large.clone();
    changed.insert("k19999".into(), json!(-1));
    assert!(same_members(&large, &large.clone()));
    assert!(!same_members(&large, &changed));
}

#[test]
fn take_u64_takes_only_the_plain_number() {
    for (id, taken) in [
        ("12", true),
        (" 12 ", true),
        ("123", false),
        ("1", false),
        ("12.0", false),
        ("12e0", false),
        ("-12", false),
        ("\"12\"", false),
        ("[12]", false),
    ] {
        // Taken or not, the object reads on from where the id ends.
        let text = format!(r#"{{"id":{id},"x":[1]}}"#);
        let (mut took, mut x) = (None, None);
        let mut r = Reader::text(&text);
        r.object(|r, key| match key {
            "id" => {
                let taken = r.take_u64(12);
                took = Some(taken);
                if taken {
                    Ok(())
                } else {
                    r.skip()
                }
            }
            _ => r.raw().map(|raw| x = Some(raw.into_owned())),
        })
        .unwrap();
        r.finish().unwrap();
        assert_eq!((took, x.as_deref()), (Some(taken), Some("[1]")), "{id}");
    }
    // A leading zero is not JSON: not taken, so the reading that follows refuses it.
    for text in ["01", "00"] {
        let mut r = Reader::text(text);
        assert!(!r.take_u64(0), "{text}");
        assert!(r.u64().is_err(), "{text}");
    }
    assert!(!Reader::text(",").take_u64(0));
    // The number may end the text, an object or an array.
    assert!(Reader::text("12").take_u64(12));
    for text in [r#"{"id":12}"#, "[12]"] {
        let mut r = Reader::text(text);
        let mut took = false;
        if text.starts_with('{') {
            r.object(|r, _| {
                took = r.take_u64(12);
                Ok(())
            })
            .unwrap();
        } else {
            r.array(|r| {
                took = r.take_u64(12);
                Ok(())
            })
            .unwrap();
        }
        assert!(took, "{text}");
    }
}
