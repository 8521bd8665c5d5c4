//! Runs sub-agents in a loop until one escalates or the iterations run out.

use std::rc::Rc;

use futures_util::StreamExt;

use crate::agent::{run_agent, Agent, AgentCore, EventStream, InvocationContext};
use crate::or_break::or_break;
use crate::AdkError;

/// Runs its sub-agents in order, again and again, until an event escalates or `max_iterations`
/// rounds have run (ADK's `LoopAgent`; no limit when `None`).
pub struct LoopAgent {
    core: AgentCore,
    max_iterations: Option<u32>,
}

impl LoopAgent {
    /// A new agent; give it sub-agents with [`with_sub_agents`](crate::agent::with_sub_agents).
    pub fn new(core: AgentCore, max_iterations: Option<u32>) -> Self {
        LoopAgent { core, max_iterations }
    }
}

impl Agent for LoopAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        rounds(self.core.sub_agents(), ctx, self.max_iterations, true)
    }
}

/// The sub-agents' events, run in order for up to `max_iterations` rounds (no limit when `None`),
/// stopping after an escalating event's agent when `until_escalated`. One generator for the loop
/// and the sequential agent (one round, escalation ignored): each would compile its own.
pub(super) fn rounds(
    subs: Vec<Rc<dyn Agent>>,
    ctx: InvocationContext,
    max_iterations: Option<u32>,
    until_escalated: bool,
) -> EventStream {
    Box::pin(async_stream::try_stream! {
        let mut times_looped = 0;
        let mut escalated = false;
        // The running sub-agent's events: out here, so that an error is yielded while they live
        // (see `or_break!`); the next sub-agent's take the place of a finished one's.
        let mut events: Option<EventStream> = None;
        // Errors leave the loop here and are yielded once, below.
        let failed: Result<(), AdkError> = 'run: {
            while !subs.is_empty() && !escalated && max_iterations.is_none_or(|max| times_looped < max) {
                for sub in &subs {
                    let events = events.insert(run_agent(sub.clone(), &ctx));
                    while let Some(event) = events.next().await {
                        let event = or_break!('run, event);
                        escalated |= until_escalated && event.actions.escalate == Some(true);
                        yield event;
                    }
                    if escalated {
                        break;
                    }
                }
                times_looped += 1;
            }
            Ok(())
        };
        failed?;
    })
}
