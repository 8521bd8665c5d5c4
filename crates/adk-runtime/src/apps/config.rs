//! When an app compacts its sessions (ADK's `EventsCompactionConfig`): after every
//! `compaction_interval` new invocations (a sliding window overlapping the last one by
//! `overlap_size` invocations), or once the prompt reached `token_threshold` tokens (keeping the
//! last `event_retention_size` events as they are). Each pair is set together, one at least.

use std::rc::Rc;

use super::summarizer::BaseEventsSummarizer;
use crate::AdkError;

/// The config of event compaction for an app.
#[derive(Clone, Default)]
pub struct EventsCompactionConfig {
    /// What writes the summaries; by default an `LlmEventSummarizer` over the root agent's model.
    pub summarizer: Option<Rc<dyn BaseEventsSummarizer>>,
    /// How many new invocations, all in the session, trigger a compaction (more than 0).
    pub compaction_interval: Option<i64>,
    /// How many invocations before the new ones each summary also covers (0 or more).
    pub overlap_size: Option<i64>,
    /// The prompt size, in tokens as the model last reported it, that triggers a compaction.
    pub token_threshold: Option<i64>,
    /// How many of the latest events a token-triggered compaction leaves as they are.
    pub event_retention_size: Option<i64>,
}

impl EventsCompactionConfig {
    /// ADK's checks, with its messages: the field bounds, then the pairs.
    pub fn validate(&self) -> Result<(), AdkError> {
        let bounds = [
            ("compaction_interval", self.compaction_interval, 1, "greater than 0"),
            ("overlap_size", self.overlap_size, 0, "greater than or equal to 0"),
            ("token_threshold", self.token_threshold, 1, "greater than 0"),
            ("event_retention_size", self.event_retention_size, 0, "greater than or equal to 0"),
        ];
        for (name, value, min, bound) in bounds {
            if value.is_some_and(|v| v < min) {
                return Err(AdkError::invalid(format!("{name}: Input should be {bound}")));
            }
        }
        let token = self.token_threshold.is_some();
        if token != self.event_retention_size.is_some() {
            return Err(AdkError::invalid("token_threshold and event_retention_size must be set together."));
        }
        let window = self.compaction_interval.is_some();
        if window != self.overlap_size.is_some() {
            return Err(AdkError::invalid("compaction_interval and overlap_size must be set together."));
        }
        if !(token || window) {
            return Err(AdkError::invalid(
                "At least one compaction trigger must be configured: the token-threshold pair or the sliding-window \
                 pair.",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(interval: Option<i64>, overlap: Option<i64>, threshold: Option<i64>, retention: Option<i64>) -> String {
        let config = EventsCompactionConfig {
            summarizer: None,
            compaction_interval: interval,
            overlap_size: overlap,
            token_threshold: threshold,
            event_retention_size: retention,
        };
        config.validate().map_or_else(|e| e.message, |()| "ok".into())
    }

    #[test]
    fn adk_refuses_what_it_refuses() {
        assert_eq!(config(Some(2), Some(1), None, None), "ok");
        assert_eq!(config(None, None, Some(100), Some(0)), "ok");
        assert_eq!(config(Some(2), Some(1), Some(100), Some(2)), "ok");
        assert_eq!(config(None, None, Some(0), Some(0)), "token_threshold: Input should be greater than 0");
        assert_eq!(
            config(None, None, Some(1), Some(-1)),
            "event_retention_size: Input should be greater than or equal to 0"
        );
        assert_eq!(config(Some(2), None, None, None), "compaction_interval and overlap_size must be set together.");
        assert_eq!(config(None, None, Some(1), None), "token_threshold and event_retention_size must be set together.");
        assert!(config(None, None, None, None).starts_with("At least one compaction trigger"));
        assert_eq!(config(Some(0), Some(1), None, None), "compaction_interval: Input should be greater than 0");
        assert_eq!(config(Some(1), Some(-1), None, None), "overlap_size: Input should be greater than or equal to 0");
    }
}
