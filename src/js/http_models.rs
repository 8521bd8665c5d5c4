//! `Gemini` and `OpenAICompatible` for JS: the options object read once, the key kept in wasm
//! memory only (never put back on a JS object), requests sent with `fetch`.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::prop;
use super::llm::ModelHandle;
use super::to_js_error;
use crate::http::fetch::FetchClient;
use crate::http::HttpClient;
use crate::model::{Gemini, OpenAICompatible};
use crate::AdkError;

/// What both adapters read from their options.
struct HttpModelOptions {
    model: String,
    api_key: Option<String>,
    base_url: Option<String>,
    headers: Vec<(String, String)>,
    client: Rc<dyn HttpClient>,
}

fn read_options(what: &str, options: &JsValue) -> Result<HttpModelOptions, AdkError> {
    let model = prop(options, "model")
        .as_string()
        .filter(|m| !m.is_empty())
        .ok_or_else(|| AdkError::invalid(format!("{what}: model: expected a model name")))?;
    let text = |key: &str| -> Result<Option<String>, AdkError> {
        let value = prop(options, key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        value.as_string().map(Some).ok_or_else(|| AdkError::invalid(format!("{what}: {key}: expected a string")))
    };
    let mut headers = Vec::new();
    let given = prop(options, "headers");
    if given.is_object() {
        for entry in js_sys::Object::entries(given.unchecked_ref()).iter() {
            let pair: js_sys::Array = entry.unchecked_into();
            match (pair.get(0).as_string(), pair.get(1).as_string()) {
                (Some(k), Some(v)) => headers.push((k, v)),
                _ => return Err(AdkError::invalid(format!("{what}: headers: values must be strings"))),
            }
        }
    }
    let fetch = prop(options, "fetch");
    let client: Rc<dyn HttpClient> = match fetch.dyn_into::<js_sys::Function>() {
        Ok(f) => Rc::new(FetchClient::with_fetch(f)),
        Err(v) if v.is_undefined() || v.is_null() => Rc::new(FetchClient::global()),
        Err(_) => return Err(AdkError::invalid(format!("{what}: fetch: expected a function"))),
    };
    Ok(HttpModelOptions { model, api_key: text("apiKey")?, base_url: text("baseUrl")?, headers, client })
}

#[wasm_bindgen]
impl ModelHandle {
    /// `new Gemini({model, apiKey, baseUrl, headers, fetch})`.
    pub fn gemini(options: JsValue) -> Result<ModelHandle, JsValue> {
        let o = read_options("Gemini", &options).map_err(to_js_error)?;
        let mut model = Gemini::new(o.model, o.client);
        if let Some(key) = o.api_key {
            model = model.with_api_key(key);
        }
        if let Some(url) = o.base_url {
            model = model.with_base_url(url);
        }
        for (name, value) in o.headers {
            model = model.with_header(name, value);
        }
        Ok(ModelHandle::wrap(Rc::new(model)))
    }

    /// `new OpenAICompatible({model, baseUrl, apiKey, headers, fetch})`.
    #[wasm_bindgen(js_name = openAICompatible)]
    pub fn open_ai_compatible(options: JsValue) -> Result<ModelHandle, JsValue> {
        let o = read_options("OpenAICompatible", &options).map_err(to_js_error)?;
        let base_url =
            o.base_url.ok_or_else(|| to_js_error(AdkError::invalid("OpenAICompatible: baseUrl: expected a URL")))?;
        let mut model = OpenAICompatible::new(o.model, base_url, o.client);
        if let Some(key) = o.api_key {
            model = model.with_api_key(key);
        }
        for (name, value) in o.headers {
            model = model.with_header(name, value);
        }
        Ok(ModelHandle::wrap(Rc::new(model)))
    }
}
