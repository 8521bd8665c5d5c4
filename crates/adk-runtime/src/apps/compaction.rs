//! When compaction runs: before each model call, the token trigger (`tokens.rs`, ADK 2.x's
//! compaction request processor); after an invocation (ADK's `_run_compaction_for_sliding_window`),
//! the token trigger again, else, once
//! `compaction_interval` invocations completed since the last summary, the events from
//! `overlap_size` invocations before the first new one through the last new one are summarized
//! into one compaction event, which later requests carry in their place.
//!
//! With interval 2 and overlap 1: invocations 1 and 2 are summarized after the second; the third
//! triggers nothing; after the fourth, a summary of invocations 2 to 4.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use super::summarizer::{BaseEventsSummarizer, LlmEventSummarizer};
use super::tokens::token_threshold_range;
use super::window::{is_range_worth_compacting, longest_self_contained_prefix};
use super::EventsCompactionConfig;
use crate::agent::{Agent, CompactBeforeModel, InvocationContext};
use crate::agents::llm::as_llm_agent;
use crate::cancellation::Cancellation;
use crate::session::{Events, Session};
use crate::{AdkError, Event};

/// The sliding-window range to summarize now, if the window is due: the events of the new
/// invocations and of the `overlap` ones before them, earlier summaries left out.
fn sliding_window<'a>(events: &[&'a Event], interval: usize, overlap: usize) -> Vec<&'a Event> {
    let last_end = events
        .iter()
        .rev()
        .filter_map(|e| e.actions.compaction.as_ref())
        .map(|c| c.end_timestamp)
        .find(|end| *end != 0.0)
        .unwrap_or(0.0);
    // Each invocation's latest timestamp, in order of first appearance.
    let mut latest: Vec<(&str, f64)> = Vec::new();
    for event in events.iter().filter(|e| !e.invocation_id.is_empty() && e.actions.compaction.is_none()) {
        match latest.iter_mut().find(|(id, _)| *id == event.invocation_id) {
            Some(entry) => entry.1 = entry.1.max(event.timestamp),
            None => latest.push((&event.invocation_id, event.timestamp)),
        }
    }
    let mut new: Vec<usize> = Vec::new();
    for (i, (_, ts)) in latest.iter().enumerate() {
        if *ts > last_end {
            new.push(i);
        }
    }
    let (Some(&first_new), Some(&last_new)) = (new.first(), new.last()) else { return Vec::new() };
    if new.len() < interval {
        return Vec::new();
    }
    let (Some((start_id, _)), Some((end_id, _))) =
        (latest.get(first_new.saturating_sub(overlap)), latest.get(last_new))
    else {
        return Vec::new();
    };
    let first = events.iter().position(|e| e.invocation_id == *start_id);
    let last = events.iter().rposition(|e| e.invocation_id == *end_id);
    let (Some(first), Some(last)) = (first, last) else { return Vec::new() };
    let range = events.get(first..=last).unwrap_or_default();
    let mut kept = Vec::new();
    for &event in range {
        if event.actions.compaction.is_none() {
            kept.push(event);
        }
    }
    let range = kept;
    longest_self_contained_prefix(range, events)
}

/// The token trigger before a model call, for an app's config that sets it.
pub(crate) fn compaction_before_model(config: &Rc<EventsCompactionConfig>) -> Option<Rc<dyn CompactBeforeModel>> {
    config.token_threshold.is_some().then(|| Rc::new(TokenTrigger(config.clone())) as Rc<dyn CompactBeforeModel>)
}

struct TokenTrigger(Rc<EventsCompactionConfig>);

impl CompactBeforeModel for TokenTrigger {
    /// ADK's compaction request processor: the calling agent's prompt, on its branch, measured; its
    /// model writes the summary unless the config names a summarizer.
    fn compact<'a>(&'a self, ctx: &'a InvocationContext) -> Pin<Box<dyn Future<Output = Result<(), AdkError>> + 'a>> {
        Box::pin(async move {
            let agent = ctx.agent().clone();
            let range = ctx.with_session(|s| {
                let events = unisolated(&s.events);
                token_threshold_range(&self.0, &events, agent.name(), ctx.branch())
            });
            if range.is_empty() {
                return Ok(());
            }
            let invocation = ctx.invocation();
            if let Some(summary) = summarize(&self.0, &agent, &range, invocation.cancellation.clone()).await? {
                invocation.record(summary).await?;
            }
            Ok(())
        })
    }
}

/// The configured summarizer, or ADK's default: an `LlmEventSummarizer` over the root agent's model.
fn summarizer(config: &EventsCompactionConfig, root: &Rc<dyn Agent>) -> Result<Rc<dyn BaseEventsSummarizer>, AdkError> {
    if let Some(summarizer) = &config.summarizer {
        return Ok(summarizer.clone());
    }
    let Some(agent) = as_llm_agent(root.as_ref()) else {
        return Err(AdkError::invalid("No LlmAgent model available for event compaction summarizer."));
    };
    Ok(Rc::new(LlmEventSummarizer::new(agent.config().model.clone(), None)?))
}

/// The compaction event to append to `session` after an invocation completed, if one is due: by the
/// token trigger, else by the sliding window.
pub(crate) async fn compact_after_invocation(
    config: &EventsCompactionConfig,
    root: &Rc<dyn Agent>,
    session: &Session,
    cancellation: Rc<Cancellation>,
) -> Result<Option<Event>, AdkError> {
    // Isolated sub-agent turns stay out of the root session's summaries.
    let events = unisolated(&session.events);
    // The token trigger first; the window only when it wrote nothing.
    let range = token_threshold_range(config, &events, "", None);
    if !range.is_empty() {
        if let Some(summary) = summarize(config, root, &range, cancellation.clone()).await? {
            return Ok(Some(summary));
        }
    }
    let (Some(interval), Some(overlap)) = (config.compaction_interval, config.overlap_size) else { return Ok(None) };
    let range =
        sliding_window(&events, usize::try_from(interval).unwrap_or(usize::MAX), usize::try_from(overlap).unwrap_or(0));
    if range.is_empty() || !is_range_worth_compacting(&events, &range) {
        return Ok(None);
    }
    let mut owned: Vec<Event> = Vec::with_capacity(range.len());
    for event in range {
        owned.push(event.clone());
    }
    let range = owned;
    summarize(config, root, &range, cancellation).await
}

/// The summary of `range` by the configured summarizer (or ADK's default over `agent`'s model). A
/// summarizer that fails writes nothing: the whole history is still there to send, so the turn
/// does not fail (ADK logs a warning).
pub(super) async fn summarize(
    config: &EventsCompactionConfig,
    agent: &Rc<dyn Agent>,
    range: &[Event],
    cancellation: Rc<Cancellation>,
) -> Result<Option<Event>, AdkError> {
    let summarizer = summarizer(config, agent)?;
    Ok(summarizer.maybe_summarize_events(range, cancellation).await.unwrap_or(None))
}

/// The events outside any isolated sub-agent turn, in order.
fn unisolated(events: &Events) -> Vec<&Event> {
    let mut kept = Vec::new();
    for event in events.iter() {
        if event.isolation_scope.is_none() {
            kept.push(event);
        }
    }
    kept
}
