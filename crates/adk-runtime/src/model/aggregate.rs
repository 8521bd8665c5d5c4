//! Turns streamed chunks into partial events plus exactly one complete response.

use crate::types::{Bytes, Content, JsonObject, Part, UsageMetadata};
use crate::LlmResponse;

/// A run of consecutive text chunks of one kind (answer or thought), merged into one part.
#[derive(Debug)]
struct TextRun {
    text: String,
    thought: bool,
    /// The model wants the signature back verbatim; it may arrive on any chunk of the run.
    signature: Option<Bytes>,
}

/// Collects streamed chunks the way ADK's `StreamingResponseAggregator` does in its (default)
/// progressive mode: every chunk becomes a partial, and [`finish`](Self::finish) gives the one
/// complete response with the parts in arrival order, consecutive text of the same kind merged,
/// function calls kept whole (nameless ones are end markers and dropped, repeated ids deduplicated).
/// The final response never repeats text as a second, separate part.
#[derive(Debug, Default)]
pub struct StreamingAggregator {
    parts: Vec<Part>,
    run: Option<TextRun>,
    usage: Option<UsageMetadata>,
    grounding: Option<JsonObject>,
    citation: Option<JsonObject>,
    finish_reason: Option<String>,
    last: Option<LlmResponse>,
}

impl StreamingAggregator {
    /// A new aggregator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one chunk; returns it marked partial, for the UI.
    pub fn add(&mut self, mut chunk: LlmResponse) -> LlmResponse {
        for part in chunk.content.as_ref().map_or(&[][..], Content::parts) {
            self.add_part(part);
        }
        // Usage and metadata usually come on one chunk: a later chunk without them keeps them.
        self.usage = chunk.usage_metadata.clone().or(self.usage.take());
        self.grounding = chunk.grounding_metadata.clone().or(self.grounding.take());
        self.citation = chunk.citation_metadata.clone().or(self.citation.take());
        self.finish_reason = chunk.finish_reason.clone().or(self.finish_reason.take());
        self.last = Some(chunk.clone());
        chunk.partial = Some(true);
        chunk
    }

    fn add_part(&mut self, part: &Part) {
        match (&part.text, &part.function_call) {
            (Some(text), _) if !text.is_empty() => {
                let thought = part.thought == Some(true);
                if self.run.as_ref().is_some_and(|r| r.thought != thought) {
                    self.flush_text();
                }
                let run = self.run.get_or_insert_with(|| TextRun { text: String::new(), thought, signature: None });
                run.text.push_str(text);
                if run.signature.is_none() {
                    run.signature.clone_from(&part.thought_signature);
                }
            }
            (_, Some(call)) if call.name.as_deref().is_none_or(str::is_empty) => {}
            _ => {
                self.flush_text();
                self.parts.push(part.clone());
            }
        }
    }

    fn flush_text(&mut self) {
        if let Some(run) = self.run.take() {
            self.parts.push(Part {
                text: Some(run.text),
                thought: run.thought.then_some(true),
                thought_signature: run.signature,
                ..Default::default()
            });
        }
    }

    /// The complete response, `None` when no chunk came. It has the merged parts, the last usage,
    /// grounding, citation and finish reason any chunk reported, and the last chunk's other fields.
    /// As in ADK, a finish reason other than `STOP` makes it an error response with that code.
    pub fn finish(mut self) -> Option<LlmResponse> {
        self.flush_text();
        let mut response = self.last.take()?;
        let mut seen_ids = Vec::new();
        let mut parts: Vec<Part> = Vec::new();
        for p in std::mem::take(&mut self.parts) {
            match p.function_call.as_ref().and_then(|c| c.id.clone()) {
                Some(id) if seen_ids.contains(&id) => {}
                Some(id) => {
                    seen_ids.push(id);
                    parts.push(p);
                }
                None => parts.push(p),
            }
        }
        response.content = (!parts.is_empty()).then(|| Content::new("model", parts));
        match self.finish_reason.as_deref() {
            Some("STOP") => (response.error_code, response.error_message) = (None, None),
            Some(reason) => {
                if response.error_code.as_deref() != Some(reason) {
                    response.error_message = None;
                }
                response.error_code = Some(reason.to_string());
            }
            None => {}
        }
        response.finish_reason = self.finish_reason;
        response.usage_metadata = self.usage;
        response.grounding_metadata = self.grounding;
        response.citation_metadata = self.citation;
        response.partial = None;
        Some(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thought(t: &str) -> Part {
        Part { text: Some(t.into()), thought: Some(true), ..Default::default() }
    }

    #[test]
    fn chunks_become_partials_and_one_whole_response() {
        let mut agg = StreamingAggregator::new();
        let a = agg.add(LlmResponse::from_parts(vec![Part::from_text("Hel")]));
        let b = agg.add(LlmResponse::from_parts(vec![Part::from_text("lo")]));
        assert_eq!((a.partial, b.partial), (Some(true), Some(true)));
        let mut last = LlmResponse::from_parts(vec![Part::from_function_call("f", Default::default())]);
        last.finish_reason = Some("STOP".into());
        agg.add(last);
        let whole = agg.finish().unwrap();
        assert_eq!(whole.partial, None);
        assert_eq!(whole.finish_reason.as_deref(), Some("STOP"));
        let parts = whole.content.unwrap().parts.unwrap();
        assert_eq!(parts[0].text.as_deref(), Some("Hello"));
        assert!(parts[1].function_call.is_some());
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn order_is_kept_runs_merge_and_signatures_survive() {
        let mut agg = StreamingAggregator::new();
        let mut signed = thought("ing.");
        signed.thought_signature = Some(Bytes(vec![7]));
        for parts in [vec![thought("Think")], vec![signed], vec![Part::from_text("A")], vec![Part::from_text("B")]] {
            agg.add(LlmResponse::from_parts(parts));
        }
        let mut usage = LlmResponse::from_parts(vec![]);
        usage.usage_metadata = Some(UsageMetadata { total_token_count: Some(9), ..Default::default() });
        agg.add(usage);
        agg.add(LlmResponse::default());
        let whole = agg.finish().unwrap();
        let parts = whole.content.unwrap().parts.unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!((parts[0].text.as_deref(), parts[0].thought), (Some("Thinking."), Some(true)));
        assert_eq!(parts[0].thought_signature, Some(Bytes(vec![7])));
        assert_eq!((parts[1].text.as_deref(), parts[1].thought), (Some("AB"), None));
        assert_eq!(whole.usage_metadata.unwrap().total_token_count, Some(9), "a later chunk does not erase usage");
    }

    #[test]
    fn a_finish_reason_other_than_stop_is_an_error() {
        let mut agg = StreamingAggregator::new();
        let mut chunk = LlmResponse::from_parts(vec![Part::from_text("cut")]);
        chunk.finish_reason = Some("MAX_TOKENS".into());
        agg.add(chunk);
        let whole = agg.finish().unwrap();
        assert_eq!(whole.error_code.as_deref(), Some("MAX_TOKENS"));
        assert_eq!(whole.content.unwrap().parts()[0].text.as_deref(), Some("cut"));
    }
}
