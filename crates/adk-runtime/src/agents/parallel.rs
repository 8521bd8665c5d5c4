//! Runs sub-agents at the same time, each on its own branch.

use std::rc::Rc;

use super::merge::Merge;
use crate::agent::{run_agent, Agent, AgentCore, EventStream, InvocationContext};

/// Runs its sub-agents concurrently (ADK's `ParallelAgent`). Each runs on branch `parent.child`, so
/// their histories stay apart; events are yielded as they come, and a sub-agent does not go on until
/// its last event has been taken.
pub struct ParallelAgent {
    core: AgentCore,
}

impl ParallelAgent {
    /// A new agent; give it sub-agents with [`with_sub_agents`](crate::agent::with_sub_agents).
    pub fn new(core: AgentCore) -> Self {
        ParallelAgent { core }
    }
}

impl Agent for ParallelAgent {
    fn core(&self) -> &AgentCore {
        &self.core
    }

    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream {
        let mut runs = Vec::new();
        for sub in self.core.sub_agents() {
            let ctx = ctx.for_branch(self.core.name(), sub.name());
            runs.push(run_agent(sub, &ctx));
        }
        Box::pin(Merge::new(runs))
    }
}
