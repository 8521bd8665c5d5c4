//! A long stream is mostly artifact chunks that differ from the one before only in their text: the
//! same envelope, ids and flags around `"parts": [{"text": "…"}]`. Such a chunk is read by comparing
//! its bytes with the last chunk read whole instead of walking its JSON again. Reading a short text
//! whole is a function of its bytes and of the JSON-RPC id expected (the limits cannot refuse it:
//! see [`BASE_BUDGET`]), so bytes equal around a text that reads as a string read as they read there:
//! the event is the last one with its own text. Anything else is read whole, and a chunk so read
//! (of one part of plain text, its ids before it, no escapes in them or in it, short) is the next
//! one compared with.

use std::borrow::Cow;
use std::ops::Range;

use adk_core::json::{Reader, BASE_BUDGET};
use adk_core::scan;

use super::skim::{Parts, Skim};

/// A chunk read whole, and where its pieces are.
#[derive(Debug)]
struct Chunk {
    text: String,
    /// Where its text starts (after the opening quote), and its closing quote.
    open: usize,
    close: usize,
    rpc_id: Option<u64>,
    /// Its ids, before the text (the same bytes in the next chunk).
    task_id: Range<usize>,
    artifact_id: Range<usize>,
    /// Its v1.0 JSON (the JSON-RPC result, or all of it): where it starts, and how far before the
    /// end it ends (the text inside it may have another length in the next chunk).
    json: (usize, usize),
    append: bool,
}

/// The longest chunk kept to compare with: one that reads whole the same under any limits (a reader
/// charges well under 64 bytes per byte of JSON), and a copy that stays small.
pub(crate) const MAX_CHUNK: usize = BASE_BUDGET / 64;

/// The last artifact chunk of one plain text part read whole, if any.
#[derive(Debug, Default)]
pub(crate) struct LastChunk(Option<Chunk>);

impl LastChunk {
    /// Reads `text` (a v1.0 event answering JSON-RPC request `rpc_id`) into `event` if it is the last
    /// chunk but for its text, giving its v1.0 JSON; `None` when it must be read whole.
    pub fn read<'f>(&self, text: &'f str, rpc_id: Option<u64>, event: &mut Skim<'f>) -> Option<&'f str> {
        let last = self.0.as_ref().filter(|last| last.rpc_id == rpc_id)?;
        let (bytes, last_bytes) = (text.as_bytes(), last.text.as_bytes());
        // What follows the text first: where chunks differ most (flags, metadata), and shorter.
        let after = last_bytes.get(last.close..)?;
        let close = bytes.len().checked_sub(after.len()).filter(|&close| close >= last.open)?;
        if !scan::same(bytes.get(close..)?, after) || !scan::same(bytes.get(..last.open)?, last_bytes.get(..last.open)?)
        {
            return None;
        }
        // The text as the reader reads any string (escapes and all), from its opening quote.
        let mut reader = Reader::text(text.get(last.open - 1..)?);
        let chunk = reader.str().ok()?;
        if last.open + reader.offset() - 2 != close {
            return None;
        }
        let json = text.get(last.json.0..text.len().checked_sub(last.json.1)?)?;
        *event = Skim::ArtifactUpdate {
            task_id: Cow::Borrowed(text.get(last.task_id.clone())?),
            artifact_id: Cow::Borrowed(text.get(last.artifact_id.clone())?),
            parts: Parts::Text(chunk),
            append: last.append,
        };
        Some(json)
    }

    /// After `text` was read whole into `event`, with `json` its v1.0 JSON: keeps it if it is a chunk
    /// of one plain text part, at most [`MAX_CHUNK`] long, whose ids come before the text and were
    /// borrowed from it; any other leaves the last one as it was (a chunk with escapes in its ids or
    /// its text, whose pieces are not the text's own).
    pub fn learn(&mut self, text: &str, rpc_id: Option<u64>, event: &Skim<'_>, json: &str) {
        let Skim::ArtifactUpdate {
            task_id: Cow::Borrowed(task_id),
            artifact_id: Cow::Borrowed(artifact_id),
            parts: Parts::Text(Cow::Borrowed(chunk)),
            append,
        } = event
        else {
            return;
        };
        // Where each borrowed piece is in `text`.
        let span = |piece: &str| {
            let start = (piece.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
            let end = start.checked_add(piece.len()).filter(|&end| end <= text.len())?;
            Some(start..end)
        };
        let (Some(Range { start: open, end: close }), Some(task_id), Some(artifact_id), Some(json)) =
            (span(chunk), span(task_id), span(artifact_id), span(json))
        else {
            return;
        };
        // The text between its quotes, the ids before it, the JSON around it.
        let quoted =
            text.as_bytes().get(open.wrapping_sub(1)) == Some(&b'"') && text.as_bytes().get(close) == Some(&b'"');
        if quoted
            && text.len() <= MAX_CHUNK
            && json.start < open
            && close < json.end
            && task_id.end < open
            && artifact_id.end < open
        {
            let (text, json, append) = (text.to_string(), (json.start, text.len() - json.end), *append);
            self.0 = Some(Chunk { text, open, close, rpc_id, task_id, artifact_id, json, append });
        }
    }
}
