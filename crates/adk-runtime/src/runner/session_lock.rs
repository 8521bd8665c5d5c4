//! One run per session at a time: a second concurrent run is refused, never interleaved.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use crate::{AdkError, ErrorCode};

/// The sessions (user, session) with a run going. A list: a runner has few runs at a time, and a
/// hashed set's code costs more than the search.
pub type Running = Rc<RefCell<Vec<(String, String)>>>;

/// Held while a run is going; released when the run ends or is dropped.
pub struct SessionLock {
    running: Running,
    key: (String, String),
}

impl SessionLock {
    pub fn acquire(running: &Running, user_id: &str, session_id: &str) -> Result<Self, AdkError> {
        let key = (user_id.to_string(), session_id.to_string());
        if running.lend().contains(&key) {
            return Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                format!("Session {session_id} of user {user_id} already has a run in progress; wait for it to finish or abort it."),
            ));
        }
        running.lend_mut().push(key.clone());
        Ok(SessionLock { running: running.clone(), key })
    }
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        self.running.lend_mut().retain(|k| *k != self.key);
    }
}
