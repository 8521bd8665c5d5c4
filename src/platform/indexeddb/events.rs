//! IndexedDB's events as Promises (`events.js`): the handlers are JS functions, which go with
//! the request or transaction they are set on, so a wait needs no wasm closure (with its own
//! glue, to be kept alive, cleared and freed).

use wasm_bindgen::prelude::*;

use super::sys::IdbDatabase;

// The kinds index events.js's `EVENTS`: keep the two in step.

/// A request: resolved with its `result` on `success`, rejected with its `error`.
pub const REQUEST: u32 = 0;
/// A transaction: resolved on `complete`, rejected with its `error` on `abort`.
pub const TRANSACTION: u32 = 1;
/// An open or delete request another connection holds up: resolved on `blocked`.
pub const BLOCKED: u32 = 2;

#[wasm_bindgen(module = "/src/platform/indexeddb/events.js")]
extern "C" {
    /// Settles when `target` fires the events of `kind` ([`REQUEST`], [`TRANSACTION`], [`BLOCKED`]).
    pub fn settled(target: &JsValue, kind: u32) -> js_sys::Promise;

    /// Closes `db` when another tab upgrades or deletes the database.
    #[wasm_bindgen(js_name = closeOnVersionChange)]
    pub fn close_on_version_change(db: &IdbDatabase);
}
