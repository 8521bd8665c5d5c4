//! Unicode word matching for the in-memory memory search (ADK 2.13's rules).
//!
//! Words are runs of letters, digits and `_` after NFC normalisation, lower-cased. A word that mixes
//! Latin and other scripts (Japanese and Chinese are written without spaces) also yields each of its
//! single-script runs, so `私はPythonを使う` can be found by `python`. A non-ASCII query word also
//! matches inside longer text, so the Korean `날씨` finds `날씨는`.

use adk_core::sort::sort_by;

use crate::platform::{lowercase, nfc};

/// NFC-normalised, lower-cased text.
pub fn normalise(text: &str) -> String {
    lowercase(&nfc(text))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `c` belongs to the Latin script (ASCII letters, digits and `_` count as Latin).
fn is_latin(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(c,
        '\u{00C0}'..='\u{00D6}' | '\u{00D8}'..='\u{00F6}' | '\u{00F8}'..='\u{024F}' // Latin-1 letters, Extended-A/B
        | '\u{0250}'..='\u{02AF}' // IPA extensions
        | '\u{1D00}'..='\u{1D7F}' | '\u{1D80}'..='\u{1DBF}' // phonetic extensions
        | '\u{1E00}'..='\u{1EFF}' // Latin Extended Additional
        | '\u{2C60}'..='\u{2C7F}' | '\u{A720}'..='\u{A7FF}' | '\u{AB30}'..='\u{AB6F}' // Extended-C/D/E
        | '\u{FB00}'..='\u{FB06}' // Latin ligatures
        | '\u{FF21}'..='\u{FF3A}' | '\u{FF41}'..='\u{FF5A}') // fullwidth Latin
}

/// The words of already-normalised text, sorted, each once: found by a binary search (a sorted
/// list rather than a hashed set: the same speed for texts this size, and less code to download).
pub fn words(normalised: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for word in normalised.split(|c: char| !is_word_char(c)) {
        if !word.is_empty() {
            words.push(word);
        }
    }
    distinct(words)
}

fn distinct(words: Vec<&str>) -> Vec<&str> {
    let mut words = sort_by(words, |a, b| a < b);
    words.dedup();
    words
}

/// The words an event can be matched on: its words plus the single-script runs of mixed-script words.
pub fn searchable_words(normalised: &str) -> Vec<&str> {
    let mut all = words(normalised);
    let mut mixed: Vec<&str> = Vec::new();
    for &word in &all {
        if !word.is_ascii() {
            mixed.push(word);
        }
    }
    for word in mixed {
        let mut start = 0;
        let mut latin = None;
        for (i, c) in word.char_indices() {
            let this = is_latin(c);
            if latin.is_some_and(|l| l != this) {
                all.push(word.get(start..i).unwrap_or_default());
                start = i;
            }
            latin = Some(this);
        }
        all.push(word.get(start..).unwrap_or_default());
    }
    distinct(all)
}

/// How many query words the event text matches.
pub fn matched_words(query_words: &[&str], event_normalised: &str, event_words: &[&str]) -> usize {
    let inside = |q: &str| !q.is_empty() && adk_core::scan::find(event_normalised.as_bytes(), q.as_bytes()).is_some();
    query_words.iter().filter(|q| event_words.binary_search(q).is_ok() || (!q.is_ascii() && inside(q))).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_unicode_aware() {
        assert_eq!(words(&normalise("Hello, 세계! snake_case x2 hello")), ["hello", "snake_case", "x2", "세계"]);
    }

    #[test]
    fn nfc_makes_decomposed_hangul_match() {
        let decomposed = "\u{1112}\u{1161}\u{11AB}"; // 한 as conjoining jamo
        assert_eq!(normalise(decomposed), "한");
    }

    #[test]
    fn mixed_script_words_yield_their_runs() {
        let text = normalise("私はPythonを使う");
        let w = searchable_words(&text);
        assert!(w.contains(&"python") && w.contains(&"私は") && w.contains(&"を使う"), "{w:?}");
        assert!(!w.contains(&"thon"));
    }

    #[test]
    fn non_ascii_query_words_match_inside_text() {
        let text = normalise("오늘 날씨는 맑음");
        let w = searchable_words(&text);
        assert_eq!(matched_words(&["날씨"], &text, &w), 1);
        assert_eq!(matched_words(&["wea"], &normalise("weather"), &searchable_words("weather")), 0);
    }
}
