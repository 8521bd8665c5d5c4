//! Records as the services' typed rows: written as JSON objects, read back through the same codec.

use adk_core::json;
use adk_core::{AdkError, ErrorCode};
use wasm_bindgen::JsValue;

use super::{done, idb_error, IdbTransaction};

pub fn to_js<T: json::ToJson>(row: &T) -> Result<JsValue, AdkError> {
    js_sys::JSON::parse(&json::to_string(row)).map_err(|e| idb_error(&e, "encoding a record"))
}

pub fn from_js<T: json::FromJson>(what: &str, value: &JsValue) -> Result<T, AdkError> {
    let text = js_sys::JSON::stringify(value).map(String::from).map_err(|e| idb_error(&e, "reading a record"))?;
    json::from_str(what, &text).map_err(|e| {
        AdkError::new(ErrorCode::Internal, format!("IndexedDB: a stored {what} is damaged: {}", e.message))
    })
}

/// Every record of `store` in `range`, in key order.
pub async fn get_all(
    tx: &IdbTransaction,
    store: &str,
    range: &JsValue,
    doing: &str,
) -> Result<js_sys::Array, AdkError> {
    let request = tx.object_store(store).and_then(|s| s.get_all(range)).map_err(|e| idb_error(&e, doing))?;
    Ok(js_sys::Array::from(&done(&request, doing).await?))
}

/// Writes `value` into `store` (its key is in it); a failure aborts the transaction.
pub fn put_value(tx: &IdbTransaction, store: &str, value: &JsValue) -> Result<(), AdkError> {
    tx.object_store(store).and_then(|s| s.put(value)).map(|_| ()).map_err(|e| idb_error(&e, "writing"))
}
