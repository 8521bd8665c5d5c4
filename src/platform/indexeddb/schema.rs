//! The one database every persistent service of an app shares (`databaseName`): its stores, and
//! the upgrade from each earlier version.

use wasm_bindgen::JsValue;

use super::{IdbDatabase, IdbTransaction, Schema};

// The stores are the runtime's (`stored::LAYOUT` of each); the upgrade
// steps below create them as each version did, and a step, once shipped, never changes.
use adk_runtime::artifact::stored::ARTIFACTS;
use adk_runtime::memory::stored::{MEMORIES, MEMORY_DELETED, MEMORY_SESSIONS};
use adk_runtime::session::stored::{APP_STATE, BY_UPDATE, EVENTS, SESSIONS, USER_STATE};

/// Version 1: the four session stores. Version 2: the index `listSessions` reads. Version 3: the
/// artifacts and the memory.
pub const SCHEMA: Schema = Schema { version: 3, upgrade };

fn key_path(path: &[&str]) -> JsValue {
    match path {
        [one] => JsValue::from_str(one),
        _ => {
            let parts = js_sys::Array::new();
            for part in path {
                parts.push(&JsValue::from_str(part));
            }
            parts.into()
        }
    }
}

fn create(db: &IdbDatabase, store: &str, path: &[&str]) -> Result<(), JsValue> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"keyPath".into(), &key_path(path))?;
    db.create_object_store(store, &options).map(|_| ())
}

fn upgrade(db: &IdbDatabase, tx: &IdbTransaction, old_version: u32) -> Result<(), JsValue> {
    if old_version < 1 {
        create(db, SESSIONS, &["appName", "userId", "id"])?;
        create(db, EVENTS, &["appName", "userId", "sessionId", "seq"])?;
        create(db, APP_STATE, &["appName"])?;
        create(db, USER_STATE, &["appName", "userId"])?;
    }
    if old_version < 2 {
        tx.object_store(SESSIONS)?.create_index(BY_UPDATE, &key_path(&["appName", "lastUpdateTime"]))?;
    }
    if old_version < 3 {
        // `scope` is the session id, or "" for the user's `user:` files (a session id is never blank).
        create(db, ARTIFACTS, &["appName", "userId", "scope", "filename", "version"])?;
        create(db, MEMORIES, &["appName", "userId", "slot", "seq"])?;
        create(db, MEMORY_SESSIONS, &["appName", "userId", "sessionId"])?;
        create(db, MEMORY_DELETED, &["appName", "userId", "id"])?;
    }
    Ok(())
}
