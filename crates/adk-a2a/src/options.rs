//! How an [`A2aClient`](crate::A2aClient) is configured: headers, a forced interface, an
//! interceptor, and how dropped streams are resumed.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use super::card::{Binding, ProtocolVersion};
use crate::http::HttpRequest;

/// Waits the given number of milliseconds (natively an instant no-op in tests; `setTimeout` in the
/// browser): the client has no timer of its own.
pub type Sleep = Rc<dyn Fn(u32) -> Pin<Box<dyn Future<Output = ()>>>>;

/// Changes every request before it is sent (e.g. adds a bearer token).
pub type Interceptor = Rc<dyn Fn(&mut HttpRequest)>;

/// How a dropped stream is resumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePolicy {
    /// Re-attach attempts in a row without progress before giving up; 0 turns resuming off.
    pub max_retries: u32,
    /// The wait before the first attempt; it doubles with every further one (capped at 30 s).
    pub backoff_base_ms: u32,
}

impl Default for ResumePolicy {
    fn default() -> Self {
        ResumePolicy { max_retries: 3, backoff_base_ms: 500 }
    }
}

impl ResumePolicy {
    /// The wait before attempt `attempt` (1-based).
    pub fn backoff_ms(&self, attempt: u32) -> u32 {
        let factor = 1u32.checked_shl(attempt.saturating_sub(1)).unwrap_or(u32::MAX);
        self.backoff_base_ms.saturating_mul(factor).min(30_000)
    }
}

/// How to build an [`A2aClient`].
#[derive(Clone, Default)]
pub struct A2aClientOptions {
    /// Headers added to every request.
    pub headers: Vec<(String, String)>,
    /// Use only interfaces of this binding.
    pub binding: Option<Binding>,
    /// Use only interfaces of this protocol version.
    pub protocol_version: Option<ProtocolVersion>,
    /// Runs on every request last, after the client's own headers.
    pub interceptor: Option<Interceptor>,
    /// How dropped streams are resumed.
    pub resume: ResumePolicy,
    /// The timer for the resume backoff; without one, attempts follow each other at once.
    pub sleep: Option<Sleep>,
}
