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

/// How a dropped stream is resumed: attempts are capped in a row and in all, spaced out
/// exponentially with jitter, and never sooner than a `Retry-After` the agent sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePolicy {
    /// Re-attach attempts in a row without progress (an event the caller had not seen) before
    /// giving up; 0 turns resuming off.
    pub max_retries: u32,
    /// Re-attach attempts in all, per stream, progress or not: an agent that keeps dropping the
    /// stream cannot keep the client reconnecting.
    pub max_total_retries: u32,
    /// The wait before the first attempt in a row; it doubles with each further one. Each wait is
    /// drawn between half of that and all of it, so clients dropped together do not return together.
    pub backoff_base_ms: u32,
    /// The longest wait, and the longest `Retry-After` honoured: an agent asking for more ends the stream.
    pub max_backoff_ms: u32,
}

impl Default for ResumePolicy {
    fn default() -> Self {
        ResumePolicy { max_retries: 3, max_total_retries: 10, backoff_base_ms: 500, max_backoff_ms: 30_000 }
    }
}

impl ResumePolicy {
    /// The wait before attempt `attempt` (1-based) in a row; `fraction` in [0, 1) picks it from
    /// [half, all] of the exponential step.
    pub fn backoff_ms(&self, attempt: u32, fraction: f64) -> u32 {
        let factor = 1u32.checked_shl(attempt.saturating_sub(1)).unwrap_or(u32::MAX);
        let step = self.backoff_base_ms.saturating_mul(factor).min(self.max_backoff_ms);
        let half = step / 2;
        half + ((step - half) as f64 * fraction.clamp(0.0, 1.0)) as u32
    }
}

/// How to build an [`A2aClient`](crate::A2aClient).
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
