//! adk-wasm's runtime: ADK's agents, runner, sessions, memory, artifacts, models and tools, in pure
//! Rust over the core's event model and HTTP seam.
//!
//! The modules form layers; each imports only from the ones before it:
//! 0. [`store`]: the key-value transactions the persistent services run on;
//! 1. [`session`], [`memory`], [`artifact`], [`model`] (over `adk-core`);
//! 2. [`agent`]: the `Agent` trait, the contexts, callbacks and `RunConfig`;
//! 3. [`tool`]: the `Tool` trait, `FunctionTool` and the built-in tools;
//! 4. [`agents`]: the agents (workflow, `LlmAgent`, `RemoteA2aAgent` over `adk-a2a`);
//! 5. [`apps`]: an app's settings, compaction;
//! 6. [`runner`], and [`plugins`]: ADK's ready-made plugins (the trait is the agent layer's);
//! 7. [`agent_tool`]: an agent offered as a tool, the one leaf that runs a runner.

pub mod agent;
pub mod agent_tool;
pub mod agents;
pub mod apps;
pub mod artifact;
pub mod auth;
mod markers;
pub mod memory;
pub mod model;
mod or_break;
mod pairs;
pub mod plugins;
mod python_format;
mod python_repr;
pub mod runner;
pub mod session;
pub mod store;
pub mod tool;

use adk_a2a as a2a;
use adk_core::{cancellation, http, platform, types};
use adk_core::{AdkError, ErrorCode, Event, EventActions, FunctionResponse, LlmResponse};
