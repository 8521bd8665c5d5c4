//! `Gemini` and `OpenAICompatible` for JS: the options object read once, the key kept in wasm
//! memory only (never put back on a JS object), requests sent with `fetch`.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::http_options::{headers, http_client, text};
use super::llm::ModelHandle;
use super::to_js_error;
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
    let model = text(what, options, "model")?
        .filter(|m| !m.is_empty())
        .ok_or_else(|| AdkError::invalid(format!("{what}: model: expected a model name")))?;
    Ok(HttpModelOptions {
        model,
        api_key: text(what, options, "apiKey")?,
        base_url: text(what, options, "baseUrl")?,
        headers: headers(what, options)?,
        client: http_client(what, options)?,
    })
}

impl ModelHandle {
    /// `new Gemini({model, apiKey, baseUrl, headers, fetch})`.
    pub(super) fn gemini(options: JsValue) -> Result<ModelHandle, JsValue> {
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
    pub(super) fn open_ai_compatible(options: JsValue) -> Result<ModelHandle, JsValue> {
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
