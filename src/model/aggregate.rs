//! Turns streamed chunks into partial events plus exactly one complete response.

use crate::types::{Content, Part};
use crate::LlmResponse;

/// Collects streamed chunks: text and thought text are concatenated in order, function calls and
/// other parts kept; [`finish`](Self::finish) gives the one complete response (ADK's
/// `StreamingResponseAggregator`). Avoids the known pitfall of a final event that repeats the text.
#[derive(Debug, Default)]
pub struct StreamingAggregator {
    text: String,
    thought: String,
    other_parts: Vec<Part>,
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
            match (&part.text, part.thought) {
                (Some(t), Some(true)) => self.thought.push_str(t),
                (Some(t), _) => self.text.push_str(t),
                _ => self.other_parts.push(part.clone()),
            }
        }
        self.last = Some(chunk.clone());
        chunk.partial = Some(true);
        chunk
    }

    /// The complete response: the aggregated parts with the last chunk's metadata (finish reason,
    /// usage, errors); `None` when no chunk came.
    pub fn finish(self) -> Option<LlmResponse> {
        let mut response = self.last?;
        let mut parts = Vec::new();
        if !self.thought.is_empty() {
            parts.push(Part { text: Some(self.thought), thought: Some(true), ..Default::default() });
        }
        if !self.text.is_empty() {
            parts.push(Part::from_text(&self.text));
        }
        parts.extend(self.other_parts);
        response.content = (!parts.is_empty()).then(|| Content::new("model", parts));
        response.partial = None;
        Some(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
