//! Runs sub-agents one after the other.

use std::rc::Rc;

use futures_util::StreamExt;

use crate::agent::{run_agent, Agent, AgentCore, EventStream, InvocationContext};

/// Runs its sub-agents in order, in the same invocation context (ADK's `SequentialAgent`).
pub struct SequentialAgent {
    core: AgentCore,
}

impl SequentialAgent {
    /// A new agent; give it sub-agents with [`with_sub_agents`](crate::agent::with_sub_agents).
    pub fn new(core: AgentCore) -> Self {
        SequentialAgent { core }
    }
}

impl Agent for SequentialAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        Box::pin(async_stream::try_stream! {
            let subs = self.core.sub_agents();
            for sub in subs {
                let mut events = run_agent(sub, &ctx);
                while let Some(event) = events.next().await {
                    yield event?;
                }
            }
        })
    }
}
