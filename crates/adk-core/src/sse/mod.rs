//! An incremental parser for `text/event-stream` (the WHATWG server-sent events format), fed with
//! whatever chunks the network delivers.
//!
//! Lines may end in LF, CRLF or a lone CR, and a line or a UTF-8 sequence may be split across chunks;
//! a leading BOM is dropped; comments (`:` lines, e.g. keep-alive pings) are skipped; `data` lines
//! accumulate; `event`, `id` and `retry` are honoured. Each event is capped in size. At the end,
//! [`SseParser::finish`] tells a clean end from a stream cut in the middle of an event.

use std::borrow::Cow;
use std::fmt;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` type; `message` when none was given (borrowed then: most events give none).
    pub event: Cow<'static, str>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The last event id seen so far in the stream (`id:`), empty when none.
    pub id: String,
    /// A reconnection delay the server asked for (`retry:`), in milliseconds.
    pub retry: Option<u64>,
}

/// Why a stream could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseError {
    /// An event (or a single line) grew past the cap.
    EventTooLarge {
        /// The cap in bytes.
        limit: usize,
    },
    /// The stream ended in the middle of an event.
    Truncated,
}

impl SseError {
    /// The error's message: what `Display` writes, built without a formatter (see
    /// [`crate::http::sse_error`]).
    pub fn message(&self) -> String {
        match self {
            SseError::EventTooLarge { limit } => format!("server-sent event larger than {limit} bytes"),
            SseError::Truncated => "the event stream was cut in the middle of an event".into(),
        }
    }
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for SseError {}

/// The default cap on one event: 16 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 << 20;

/// Incremental parser state.
#[derive(Debug)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous chunk ended in CR: an LF at the start of the next one belongs to it.
    after_cr: bool,
    at_start: bool,
    data: String,
    has_data: bool,
    event: String,
    last_id: String,
    retry: Option<u64>,
    /// Fields seen since the last dispatch (for telling a cut stream).
    in_event: bool,
    max_event_bytes: usize,
}

impl Default for SseParser {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_EVENT_BYTES)
    }
}

impl SseParser {
    /// A parser capping each event at `max_event_bytes`.
    pub fn new(max_event_bytes: usize) -> Self {
        SseParser {
            line: Vec::new(),
            after_cr: false,
            at_start: true,
            data: String::new(),
            has_data: false,
            event: String::new(),
            last_id: String::new(),
            retry: None,
            in_event: false,
            max_event_bytes,
        }
    }

    /// The id of the last event seen, for resuming (`Last-Event-ID`).
    pub fn last_event_id(&self) -> &str {
        &self.last_id
    }

    /// Feeds a chunk; returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut events = Vec::new();
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if let Some(stripped) = rest.strip_prefix(b"\n") {
                rest = stripped;
            }
        }
        while let Some(end) = crate::scan::find2(rest, b'\n', b'\r') {
            let (piece, tail) = rest.split_at(end);
            let is_cr = tail.first() == Some(&b'\r');
            rest = tail.get(1..).unwrap_or_default();
            if is_cr {
                match rest.first() {
                    Some(b'\n') => rest = rest.get(1..).unwrap_or_default(),
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
            // A line wholly inside this chunk is read where it is; only one begun in an earlier
            // chunk goes through the buffer, which keeps its capacity.
            let event = if self.line.is_empty() {
                self.check_size(piece.len())?;
                self.process_line(piece)?
            } else {
                self.append(piece)?;
                let line = std::mem::take(&mut self.line);
                let event = self.process_line(&line);
                self.line = line;
                self.line.clear();
                event?
            };
            events.extend(event);
        }
        self.append(rest)?;
        Ok(events)
    }

    fn check_size(&self, len: usize) -> Result<(), SseError> {
        if len > self.max_event_bytes {
            return Err(SseError::EventTooLarge { limit: self.max_event_bytes });
        }
        Ok(())
    }

    fn append(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        self.check_size(self.line.len() + bytes.len())?;
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn process_line(&mut self, raw: &[u8]) -> Result<Option<SseEvent>, SseError> {
        let mut raw = raw;
        if self.at_start {
            self.at_start = false;
            raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
        }
        if raw.is_empty() {
            return Ok(self.dispatch());
        }
        if raw.first() == Some(&b':') {
            return Ok(None);
        }
        // Split as bytes: `:` is never part of a UTF-8 sequence, valid or not, so only the value
        // needs decoding (a field with invalid UTF-8 is none of those below either way).
        let (field, value) = match raw.iter().position(|&b| b == b':') {
            Some(at) => {
                let (field, value) = raw.split_at(at);
                let value = value.get(1..).unwrap_or_default();
                // A slice pattern, not `strip_prefix`: built for size, that is a call per line.
                (field, if let [b' ', rest @ ..] = value { rest } else { value })
            }
            None => (raw, &b""[..]),
        };
        // Valid text (checked by `from_utf8`, word at a time on ASCII) is borrowed.
        let value = crate::text::utf8_lossy(value);
        self.in_event = true;
        match field {
            b"data" => {
                // As counted when every line kept its own line break: the cap is unchanged.
                if self.data.len() + usize::from(self.has_data) + value.len() + 1 > self.max_event_bytes {
                    return Err(SseError::EventTooLarge { limit: self.max_event_bytes });
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&value);
                self.has_data = true;
            }
            b"event" => self.event = value.into_owned(),
            // A plain loop: `contains` would bring core's `memchr` into the module for this alone.
            b"id" if !value.bytes().any(|b| b == 0) => self.last_id = value.into_owned(),
            b"retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = crate::scan::decimal(value.as_bytes())
            }
            _ => {}
        }
        Ok(None)
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        self.in_event = false;
        let event = std::mem::take(&mut self.event);
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        // The event takes the buffer: most events are one data line, which fills an empty buffer
        // at its size.
        let data = std::mem::take(&mut self.data);
        Some(SseEvent {
            event: if event.is_empty() { Cow::Borrowed("message") } else { Cow::Owned(event) },
            data,
            id: self.last_id.clone(),
            retry: self.retry,
        })
    }

    /// Ends the stream. An event still being assembled (fields without the closing blank line, or a
    /// partial line) means the stream was cut: `Err(Truncated)`. A last line without its line break
    /// that completes an event is accepted.
    pub fn finish(mut self) -> Result<Vec<SseEvent>, SseError> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            if let Some(e) = self.process_line(&line)? {
                events.push(e);
            }
        }
        if self.in_event {
            return Err(SseError::Truncated);
        }
        Ok(events)
    }
}

#[cfg(test)]
mod tests;
