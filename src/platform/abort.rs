//! The one bridge from a run's [`Cancellation`] to a JS `AbortSignal`, for everything that hands
//! JS a signal: fetches, JS models, `ctx.abortSignal`. The bridge's listener on the cancellation
//! goes when the bridge is dropped, so finished work leaves nothing behind on a long run.

use std::rc::Rc;

use adk_core::cancellation::{Cancellation, Listening};
use adk_core::AdkError;

use super::interop::js_error_to_core;

/// An `AbortController` aborted when the cancellation fires.
pub struct AbortBridge {
    controller: web_sys::AbortController,
    _listening: Listening,
}

impl AbortBridge {
    /// A controller that `cancellation` aborts.
    pub fn new(cancellation: &Rc<Cancellation>) -> Result<Self, AdkError> {
        let controller = web_sys::AbortController::new().map_err(|e| js_error_to_core(&e))?;
        let on_cancel = controller.clone();
        let listening = cancellation.listen(move || on_cancel.abort());
        Ok(AbortBridge { controller, _listening: listening })
    }

    /// The signal to hand JS.
    pub fn signal(&self) -> web_sys::AbortSignal {
        self.controller.signal()
    }

    /// Aborts now, whatever the cancellation does (a dropped response body).
    pub fn abort(&self) {
        self.controller.abort();
    }
}
