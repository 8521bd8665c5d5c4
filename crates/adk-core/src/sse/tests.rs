use super::*;

fn parse_all(chunks: &[&[u8]]) -> Result<Vec<SseEvent>, SseError> {
    let mut p = SseParser::default();
    let mut out = Vec::new();
    for c in chunks {
        out.extend(p.push(c)?);
    }
    out.extend(p.finish()?);
    Ok(out)
}

fn ev(event: &str, data: &str, id: &str) -> SseEvent {
    SseEvent { event: event.to_string().into(), data: data.into(), id: id.into(), retry: None }
}

/// Every way of cutting `stream` in two and in three gives the same events as one chunk.
fn same_for_every_split(stream: &[u8]) -> Vec<SseEvent> {
    let whole = parse_all(&[stream]).unwrap();
    for i in 0..=stream.len() {
        assert_eq!(parse_all(&[&stream[..i], &stream[i..]]).unwrap(), whole, "split at {i}");
        for j in i..=stream.len() {
            assert_eq!(parse_all(&[&stream[..i], &stream[i..j], &stream[j..]]).unwrap(), whole, "split at {i},{j}");
        }
    }
    whole
}

#[test]
fn line_endings_lf_crlf_cr() {
    for nl in ["\n", "\r\n", "\r"] {
        let s = format!("data: a{nl}data: b{nl}{nl}event: x{nl}data: c{nl}{nl}");
        assert_eq!(same_for_every_split(s.as_bytes()), [ev("message", "a\nb", ""), ev("x", "c", "")], "{nl:?}");
    }
}

#[test]
fn utf8_split_inside_a_sequence() {
    let s = "data: 안녕하세요 😀\n\n".as_bytes();
    assert_eq!(same_for_every_split(s), [ev("message", "안녕하세요 😀", "")]);
}

#[test]
fn comments_ids_retry_bom() {
    let s = b"\xEF\xBB\xBF: keep-alive\nid: 7\nretry: 3000\ndata:{\"x\":1}\n\n:ping\n\ndata: next\n\n";
    let events = same_for_every_split(s);
    assert_eq!(events.len(), 2);
    assert_eq!((events[0].data.as_str(), events[0].id.as_str(), events[0].retry), ("{\"x\":1}", "7", Some(3000)));
    assert_eq!(events[1].id, "7", "the last id carries over");
}

#[test]
fn spec_details() {
    // No space after the colon, a field without colon, empty data, unknown fields, id with NUL.
    let s = b"data\n\ndata:x\nfoo: bar\nid: a\0b\n\nevent: only-type\n\n";
    let events = parse_all(&[s]).unwrap();
    assert_eq!(events, [ev("message", "", ""), ev("message", "x", "")]);
    // Only the first space after the colon is removed.
    assert_eq!(parse_all(&[b"data:  two\n\n"]).unwrap()[0].data, " two");
    // retry must be all digits.
    assert_eq!(parse_all(&[b"retry: 1a\ndata: x\n\n"]).unwrap()[0].retry, None);
    // ...and fit in a u64.
    assert_eq!(parse_all(&[b"retry: 18446744073709551616\ndata: x\n\n"]).unwrap()[0].retry, None);
    assert_eq!(parse_all(&[b"retry: 18446744073709551615\ndata: x\n\n"]).unwrap()[0].retry, Some(u64::MAX));
}

#[test]
fn end_of_stream_versus_cut_stream() {
    assert_eq!(parse_all(&[b"data: a\n\n"]).unwrap().len(), 1);
    assert_eq!(parse_all(&[b": just a comment\n"]).unwrap().len(), 0);
    assert_eq!(parse_all(&[b"data: a\n"]), Err(SseError::Truncated));
    assert_eq!(parse_all(&[b"data: a\n\ndata: partial"]), Err(SseError::Truncated));
    assert_eq!(parse_all(&[b"event: x\n"]), Err(SseError::Truncated));
}

#[test]
fn size_cap() {
    let mut p = SseParser::new(16);
    assert_eq!(p.push(b"data: 0123456789abcdef\n"), Err(SseError::EventTooLarge { limit: 16 }));
    let mut p = SseParser::new(16);
    assert!(p.push(b"data: 01234567\ndata: 01234567\n").is_err());
    let mut p = SseParser::new(16);
    assert!(p.push(b"data: 01234567").is_ok());
    assert!(p.push(b"89abcdef").is_err(), "a long partial line is capped too");
}

#[test]
fn recorded_gemini_and_a2a_streams_split_everywhere() {
    for file in [
        include_bytes!("../../../../tests/fixtures/models/gemini-stream-text.sse").as_slice(),
        include_bytes!("../../../../tests/fixtures/models/openai-stream-tools.sse").as_slice(),
        include_bytes!("../../../../tests/fixtures/a2a/v10-jsonrpc-stream.sse").as_slice(),
        include_bytes!("../../../../tests/fixtures/a2a/v03-rest-stream.sse").as_slice(),
    ] {
        let whole = parse_all(&[file]).unwrap();
        assert!(whole.len() >= 3);
        for i in 0..=file.len() {
            assert_eq!(parse_all(&[&file[..i], &file[i..]]).unwrap(), whole, "split at {i}");
        }
    }
}

// Vectors from a2a-js (`test/sse_utils.spec.ts`, `test/client/transports/sse_line_endings.spec.ts`,
// `sse_eof.spec.ts`). Where a2a-js silently drops an unfinished last event, this parser reports
// `Truncated`: the A2A client resumes a cut stream instead of ending it as if complete.

#[test]
fn a2a_js_sse_utils_vectors() {
    assert_eq!(
        same_for_every_split(b"data: {\"kind\":\"message\"}\n\n"),
        [ev("message", "{\"kind\":\"message\"}", "")]
    );
    assert_eq!(
        same_for_every_split(b"event: error\ndata: {\"code\":-32001}\n\n"),
        [ev("error", "{\"code\":-32001}", "")]
    );
    assert_eq!(
        same_for_every_split(b"data: {\"id\":1}\n\ndata: {\"id\":2}\n\n"),
        [ev("message", "{\"id\":1}", ""), ev("message", "{\"id\":2}", "")]
    );
    let mixed = b"data: {\"kind\":\"message\",\"text\":\"hello\"}\n\nevent: error\ndata: {\"code\":-32603,\"message\":\"Internal error\"}\n\n";
    assert_eq!(
        same_for_every_split(mixed),
        [
            ev("message", "{\"kind\":\"message\",\"text\":\"hello\"}", ""),
            ev("error", "{\"code\":-32603,\"message\":\"Internal error\"}", "")
        ]
    );
}

#[test]
fn a2a_js_line_ending_vectors() {
    let s = b"event: update\rdata: first\r\ndata: second\n\rdata: third\r\n\r\n";
    assert_eq!(same_for_every_split(s), [ev("update", "first\nsecond", ""), ev("message", "third", "")]);
    assert_eq!(parse_all(&[b"data: ready\r\r"]).unwrap(), [ev("message", "ready", "")]);
    for nl in ["\n", "\r\n", "\r"] {
        let frame = |id: &str| {
            format!(": heartbeat{nl}data: {{\"task\":{{\"id\":\"{id}\",\"contextId\":\"ctx-Україна-🌍\"}}}}{nl}{nl}")
        };
        let s = frame("task-1") + &frame("task-2");
        let events = same_for_every_split(s.as_bytes());
        assert_eq!(events.len(), 2, "{nl:?}");
        assert!(events[1].data.contains("task-2") && events[1].data.contains("ctx-Україна-🌍"));
    }
}

#[test]
fn a2a_js_size_limit_with_cr_lines() {
    let mut p = SseParser::new(10);
    let mut events = Vec::new();
    for b in b"data: 1234\rdata: 5678\r\r" {
        events.extend(p.push(&[*b]).unwrap());
    }
    assert_eq!(events, [ev("message", "1234\n5678", "")]);
    let mut p = SseParser::new(10);
    let oversized: Result<Vec<_>, _> = b"data: 1234\rdata: 5678\rdata: 90\r\r".iter().map(|b| p.push(&[*b])).collect();
    assert_eq!(oversized, Err(SseError::EventTooLarge { limit: 10 }));
}

#[test]
fn a2a_js_end_of_stream_vectors() {
    let frame = |id: &str, end: &str| format!("data: {{\"task\":{{\"id\":\"{id}\",\"contextId\":\"ctx-你好\"}}}}{end}");
    // An event without its blank line, or without even a line break: cut, not complete.
    assert_eq!(parse_all(&[frame("task-2", "\n").as_bytes()]), Err(SseError::Truncated));
    assert_eq!(parse_all(&[frame("task-2", "").as_bytes()]), Err(SseError::Truncated));
    let mut p = SseParser::default();
    let first = p.push((frame("task-1", "\n\n") + &frame("task-2", "\n")).as_bytes()).unwrap();
    assert_eq!(first.len(), 1, "the complete event before the cut one is delivered");
    assert_eq!(p.finish(), Err(SseError::Truncated));
    assert_eq!(same_for_every_split((frame("task-1", "\n\n") + &frame("task-2", "\n\n")).as_bytes()).len(), 2);
    assert_eq!(same_for_every_split(frame("task-2", "\r\n\r\n").as_bytes()).len(), 1);
}

#[test]
fn invalid_utf8_is_replaced_in_values_and_matches_no_field() {
    let events = parse_all(&[b"data: a\xFF:b\xF0\x9F\n\xFFdata: x\nevent: \xC3\n\n"]).unwrap();
    assert_eq!(events, [ev("\u{FFFD}", "a\u{FFFD}:b\u{FFFD}", "")]);
}
