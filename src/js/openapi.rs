//! `OpenAPIToolset` for JS (`@google/adk`'s name and options): one tool per operation of an OpenAPI
//! 3 spec, called through the runner's `fetch` with the run's abort signal.

use std::rc::Rc;

use adk_core::json;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, prop};
use super::http_options::text;
use super::llm::ToolHandle;
use super::to_js_error;
use super::toolset::{header_provider, tool_filter};
use crate::tool::{OpenApiOptions, OpenApiToolset};
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode};

const WHAT: &str = "OpenAPIToolset";

/// `options[key]` as a JSON object, if given.
fn object(options: &JsValue, key: &str) -> Result<Option<JsonObject>, JsValue> {
    let given = prop(options, key);
    if given.is_undefined() || given.is_null() {
        return Ok(None);
    }
    match from_js::<Value>(&format!("{WHAT} {key}"), &given)? {
        Value::Object(object) => Ok(Some(object)),
        _ => Err(to_js_error(AdkError::invalid(format!("{WHAT}: {key}: expected an object")))),
    }
}

impl ToolHandle {
    /// The toolset of one spec, from `{specDict | specStr, specType?, toolFilter?, prefix?,
    /// preservePropertyNames?, authScheme?, authCredential?, credentialKey?, headerProvider?,
    /// allowPrivateNetworkAccess?}`. `OpenAPIToolset` keeps it and gives each agent a share.
    pub(super) fn open_api(options: JsValue) -> Result<ToolHandle, JsValue> {
        let spec = match (object(&options, "specDict")?, text(WHAT, &options, "specStr").map_err(to_js_error)?) {
            (Some(spec), _) => Value::Object(spec),
            (None, Some(spec)) => {
                if text(WHAT, &options, "specType").map_err(to_js_error)?.is_some_and(|t| t != "json") {
                    return Err(to_js_error(AdkError::new(
                        ErrorCode::Unimplemented,
                        "OpenAPIToolset: only JSON specs are read; parse YAML first (js-yaml, say) and pass specDict",
                    )));
                }
                json::parse(&format!("{WHAT} specStr"), &spec).map_err(to_js_error)?
            }
            (None, None) => {
                return Err(to_js_error(AdkError::invalid("OpenAPIToolset: give specDict or specStr")));
            }
        };
        let flag = |key: &str| prop(&options, key).is_truthy();
        let settings = OpenApiOptions {
            auth_scheme: object(&options, "authScheme")?,
            auth_credential: object(&options, "authCredential")?,
            credential_key: text(WHAT, &options, "credentialKey").map_err(to_js_error)?,
            preserve_property_names: flag("preservePropertyNames"),
            tool_filter: tool_filter(WHAT, &prop(&options, "toolFilter"))?,
            tool_name_prefix: text(WHAT, &options, "prefix").map_err(to_js_error)?.filter(|p| !p.is_empty()),
            header_provider: header_provider(WHAT, &options)?,
            allow_private_network_access: flag("allowPrivateNetworkAccess"),
        };
        let inner = OpenApiToolset::new(&spec, settings).map_err(to_js_error)?;
        Ok(ToolHandle::toolset(Rc::new(inner)))
    }
}
