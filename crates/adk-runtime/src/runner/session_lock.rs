//! One run per session at a time: a second concurrent run is refused, never interleaved.

use std::cell::RefCell;
use std::rc::Rc;

use indexmap::IndexSet;

use crate::{AdkError, ErrorCode};

/// Held while a run is going; released when the run ends or is dropped.
pub struct SessionLock {
    running: Rc<RefCell<IndexSet<(String, String)>>>,
    key: (String, String),
}

impl SessionLock {
    pub fn acquire(
        running: &Rc<RefCell<IndexSet<(String, String)>>>,
        user_id: &str,
        session_id: &str,
    ) -> Result<Self, AdkError> {
        let key = (user_id.to_string(), session_id.to_string());
        if !running.borrow_mut().insert(key.clone()) {
            return Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                format!("Session {session_id} of user {user_id} already has a run in progress; wait for it to finish or abort it."),
            ));
        }
        Ok(SessionLock { running: running.clone(), key })
    }
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        self.running.borrow_mut().swap_remove(&self.key);
    }
}
