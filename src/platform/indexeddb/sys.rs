//! Typed bindings for the IndexedDB objects the services use, and nothing else: declarations
//! without behaviour. Event handlers are set as properties (`onsuccess`, …) by the wrapper and
//! by `events.js`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `indexedDB`.
    pub type IdbFactory;

    /// `indexedDB.open(name, version)`.
    #[wasm_bindgen(method, catch)]
    pub fn open(this: &IdbFactory, name: &str, version: u32) -> Result<IdbRequest, JsValue>;

    /// `indexedDB.deleteDatabase(name)`.
    #[wasm_bindgen(method, catch, js_name = deleteDatabase)]
    pub fn delete_database(this: &IdbFactory, name: &str) -> Result<IdbRequest, JsValue>;

    /// An `IDBRequest` (or `IDBOpenDBRequest`).
    #[derive(Clone)]
    pub type IdbRequest;

    /// What it succeeded with.
    #[wasm_bindgen(method, getter, catch)]
    pub fn result(this: &IdbRequest) -> Result<JsValue, JsValue>;

    /// The version-change transaction of an open request, during `upgradeneeded`.
    #[wasm_bindgen(method, getter)]
    pub fn transaction(this: &IdbRequest) -> Option<IdbTransaction>;

    /// An open database.
    #[derive(Clone)]
    pub type IdbDatabase;

    /// A transaction over `stores`, `readonly` or `readwrite`.
    #[wasm_bindgen(method, catch)]
    pub fn transaction(this: &IdbDatabase, stores: &JsValue, mode: &str) -> Result<IdbTransaction, JsValue>;

    /// Creates a store (during an upgrade).
    #[wasm_bindgen(method, catch, js_name = createObjectStore)]
    pub fn create_object_store(this: &IdbDatabase, name: &str, options: &JsValue) -> Result<IdbObjectStore, JsValue>;

    /// Closes the connection.
    #[wasm_bindgen(method)]
    pub fn close(this: &IdbDatabase);

    /// A transaction.
    #[derive(Clone)]
    pub type IdbTransaction;

    /// One of its stores.
    #[wasm_bindgen(method, catch, js_name = objectStore)]
    pub fn object_store(this: &IdbTransaction, name: &str) -> Result<IdbObjectStore, JsValue>;

    /// Aborts it: nothing it wrote stays.
    #[wasm_bindgen(method, catch)]
    pub fn abort(this: &IdbTransaction) -> Result<(), JsValue>;

    /// A store.
    pub type IdbObjectStore;

    #[wasm_bindgen(method, catch)]
    pub fn get(this: &IdbObjectStore, key: &JsValue) -> Result<IdbRequest, JsValue>;

    #[wasm_bindgen(method, catch, js_name = getAll)]
    pub fn get_all(this: &IdbObjectStore, range: &JsValue) -> Result<IdbRequest, JsValue>;

    #[wasm_bindgen(method, catch, js_name = getAllKeys)]
    pub fn get_all_keys(this: &IdbObjectStore, range: &JsValue) -> Result<IdbRequest, JsValue>;

    #[wasm_bindgen(method, catch)]
    pub fn put(this: &IdbObjectStore, value: &JsValue) -> Result<IdbRequest, JsValue>;

    #[wasm_bindgen(method, catch)]
    pub fn delete(this: &IdbObjectStore, range: &JsValue) -> Result<IdbRequest, JsValue>;

    /// A cursor over `range`, `next` or `prev`.
    #[wasm_bindgen(method, catch, js_name = openCursor)]
    pub fn open_cursor(this: &IdbObjectStore, range: &JsValue, direction: &str) -> Result<IdbRequest, JsValue>;

    /// Creates an index (during an upgrade).
    #[wasm_bindgen(method, catch, js_name = createIndex)]
    pub fn create_index(this: &IdbObjectStore, name: &str, key_path: &JsValue) -> Result<JsValue, JsValue>;

    /// An index of the store.
    #[wasm_bindgen(method, catch)]
    pub fn index(this: &IdbObjectStore, name: &str) -> Result<IdbObjectStore, JsValue>;

    /// A cursor's position.
    pub type IdbCursor;

    /// The record there.
    #[wasm_bindgen(method, getter)]
    pub fn value(this: &IdbCursor) -> JsValue;

    /// Moves on; the cursor's request succeeds again.
    #[wasm_bindgen(method, catch, js_name = continue)]
    pub fn advance(this: &IdbCursor) -> Result<(), JsValue>;

    /// `IDBKeyRange.bound(lower, upper)`.
    #[wasm_bindgen(js_namespace = IDBKeyRange, js_name = bound, catch)]
    pub fn key_range(lower: &JsValue, upper: &JsValue) -> Result<JsValue, JsValue>;
}
