//! The agents: the workflow agents, `LlmAgent`, and `RemoteA2aAgent`, all on the `Agent` trait.

mod fencing;
pub mod llm;
mod loop_agent;
mod merge;
mod parallel;
pub mod remote_a2a;
mod sequential;

pub use llm::{BuiltInCodeExecutor, IncludeContents, Instruction, LlmAgent, LlmAgentConfig, Planner};
pub use loop_agent::LoopAgent;
pub use parallel::ParallelAgent;
pub use remote_a2a::RemoteA2aAgent;
pub use sequential::SequentialAgent;

use crate::types::FunctionCall;
use crate::Event;

/// The function calls of `events`, each with the event that made it, in order: the one loop the
/// flows' searches of a history for calls share (a plain loop is less code than an adapter per search).
pub(crate) fn calls_in<'a>(events: &[&'a Event]) -> Vec<(&'a Event, &'a FunctionCall)> {
    let mut calls = Vec::new();
    for &event in events {
        for call in event.get_function_calls() {
            calls.push((event, call));
        }
    }
    calls
}
