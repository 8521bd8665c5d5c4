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
