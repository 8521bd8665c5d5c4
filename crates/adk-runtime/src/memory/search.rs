//! Keyword search over remembered events, the same for every memory service: which events are
//! remembered, the text a memory is searched by, and how results are ranked.

use adk_core::sort::sort_by;

use super::timestamp::iso_timestamp_utc;
use super::tokenize::{matched_words, normalise, searchable_words, words};
use super::{MemoryEntry, SearchMemoryResponse};
use crate::Event;

/// Where events added without a session are remembered (ADK's name for it).
pub const UNKNOWN_SESSION_ID: &str = "__unknown_session_id__";

/// At most this many memories are returned.
pub const MAX_SEARCH_RESULTS: usize = 10;

/// Whether an event is remembered at all: it has parts.
pub fn has_content(event: &Event) -> bool {
    !event.parts().is_empty()
}

/// The text a memory is searched by: its texts, joined and normalised.
pub fn memory_text(event: &Event) -> String {
    let mut text: Vec<&str> = Vec::new();
    for part in event.parts() {
        text.extend(part.text.as_deref());
    }
    normalise(&text.join(" "))
}

/// The memories among `remembered` (events with their `memory_text`, in the order they were
/// remembered) that share words with `query`: those sharing the most first, ties in that order, at
/// most [`MAX_SEARCH_RESULTS`].
pub fn rank(query: &str, remembered: &[(&Event, &str)]) -> SearchMemoryResponse {
    let query = normalise(query);
    let query_words = words(&query);
    let mut scored: Vec<(usize, &Event)> = Vec::new();
    for &(event, text) in remembered {
        let event_words = searchable_words(text);
        if event_words.is_empty() {
            continue;
        }
        let matched = matched_words(&query_words, text, &event_words);
        if matched > 0 {
            scored.push((matched, event));
        }
    }
    // A stable sort on the count alone keeps equally good matches in insertion order.
    let mut memories = Vec::new();
    for (_, event) in sort_by(scored, |a, b| a.0 > b.0).into_iter().take(MAX_SEARCH_RESULTS) {
        let Some(content) = event.content.clone() else { continue };
        memories.push(MemoryEntry {
            content,
            custom_metadata: Default::default(),
            id: Some(event.id.clone()),
            author: Some(event.author.clone()),
            timestamp: Some(iso_timestamp_utc(event.timestamp)),
        });
    }
    SearchMemoryResponse { memories }
}
