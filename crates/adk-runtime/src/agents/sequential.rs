//! Runs sub-agents one after the other.

use std::rc::Rc;

use crate::agent::{Agent, AgentCore, EventStream, InvocationContext};

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
        super::loop_agent::rounds(self.core.sub_agents(), ctx, Some(1), false)
    }
}
