//! Runs sub-agents in a loop until one escalates or the iterations run out.

use std::rc::Rc;

use futures_util::StreamExt;

use crate::agent::{run_agent, Agent, AgentCore, EventStream, InvocationContext};

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
        Box::pin(async_stream::try_stream! {
            let subs = self.core.sub_agents();
            let mut times_looped = 0;
            let mut escalated = false;
            while !subs.is_empty() && !escalated && self.max_iterations.is_none_or(|max| times_looped < max) {
                for sub in &subs {
                    let mut events = run_agent(sub.clone(), &ctx);
                    while let Some(event) = events.next().await {
                        let event = event?;
                        escalated |= event.actions.escalate == Some(true);
                        yield event;
                    }
                    if escalated {
                        break;
                    }
                }
                times_looped += 1;
            }
        })
    }
}
