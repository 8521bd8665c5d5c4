//! A client of an ADK server: the REST surface ADK Python's `adk api_server` and `adk web` serve
//! (apps, sessions, artifacts, `/run`, `/run_sse`).
//!
//! [`AdkServerClient`] speaks through the [`HttpClient`](adk_core::http::HttpClient) seam, so it is
//! plain Rust, tested natively against bodies recorded from real servers (google-adk 2.13 and 1.39).
//! Events come back as the core's [`Event`](adk_core::Event), decoded once from the server's JSON
//! (the same values a local run gives), or as that JSON, checked, for a caller that parses it
//! itself ([`EventsJson`], or its bare text: the browser). A call's arguments are one JSON object
//! read in place ([`Args`]): a JS caller's, or a Rust caller's typed request encoded.

mod call;
mod client;
mod errors;
mod run_events;
mod types;

pub use call::{Args, Endpoint, Pending, ServerCall};
pub use client::{AdkServerClient, AdkServerOptions};
pub use errors::{decode, unexpected};
pub use run_events::{EventsJson, RunEvents, RunItem};
pub use types::{
    ArtifactRef, CreateSessionRequest, RunAgentRequest, SaveArtifactRequest, Session, SessionRef, UpdateSessionRequest,
    UserRef,
};
