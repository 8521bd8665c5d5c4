//! ADK's ready-made plugins, over the [`Plugin`] trait the agents and the runner call (in
//! [`crate::agent`], where the invocation carries its plugins).

mod global_instruction;
mod logging;

pub use crate::agent::{Plugin, PluginManager};
pub use global_instruction::GlobalInstructionPlugin;
pub use logging::LoggingPlugin;
