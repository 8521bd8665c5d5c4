//! `MCPToolset` for JS (`@google/adk`'s name; ADK's `McpToolset`): the tools of an MCP server over
//! Streamable HTTP or the older HTTP+SSE, through `fetch`, shared by every agent it is given to.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{from_js, prop};
use super::http_options::{header_list, http_client, text};
use super::llm::ToolHandle;
use super::to_js_error;
use super::toolset::{self, header_provider};
use crate::auth::AuthConfig;
use crate::tool::mcp::prompt_instruction;
use crate::tool::McpToolset;
use crate::types::JsonObject;
use crate::AdkError;
use adk_mcp::McpClient;
use serde_json::Value;

impl ToolHandle {
    /// The toolset of one MCP server, from `{type: 'StreamableHTTPConnectionParams' |
    /// 'SseConnectionParams', url, headers?, header?, fetch?}`, a filter (tool names, or a predicate
    /// of `{name, description}`), a name prefix and `{headerProvider?, authScheme?, …}`. `MCPToolset`
    /// keeps it and gives each agent a share: every agent shares the session.
    pub(super) fn mcp(
        params: JsValue,
        tool_filter: JsValue,
        prefix: JsValue,
        options: JsValue,
    ) -> Result<ToolHandle, JsValue> {
        const WHAT: &str = "MCPToolset";
        let client = client(WHAT, &params)?;
        let mut toolset = McpToolset::new(Rc::new(client));
        if let Some(filter) = toolset::tool_filter(WHAT, &tool_filter)? {
            toolset = toolset.with_filter(filter);
        }
        if let Some(prefix) = prefix.as_string().filter(|p| !p.is_empty()) {
            toolset = toolset.with_prefix(prefix);
        } else if !prefix.is_undefined() && !prefix.is_null() {
            return Err(to_js_error(AdkError::invalid("MCPToolset: prefix: expected a string")));
        }
        if let Some(provider) = header_provider(WHAT, &options)? {
            toolset = toolset.with_header_provider(provider);
        }
        if let Some(auth) = auth_config(&options)? {
            toolset = toolset.with_auth(auth);
        }
        toolset = toolset.with_resources(prop(&options, "useMcpResources").is_truthy());
        Ok(ToolHandle::toolset(Rc::new(toolset)))
    }
}

/// The client of `{type: 'StreamableHTTPConnectionParams' | 'SseConnectionParams', url, headers?,
/// header?, fetch?}`.
fn client(what: &str, params: &JsValue) -> Result<McpClient, JsValue> {
    let kind = text(what, params, "type").map_err(to_js_error)?;
    // ADK's name for the older HTTP+SSE transport; Streamable HTTP when no type is given.
    let sse = kind.as_deref() == Some("SseConnectionParams");
    if !sse && kind.as_deref().is_some_and(|k| k != "StreamableHTTPConnectionParams") {
        return Err(to_js_error(AdkError::new(
            adk_core::ErrorCode::Unimplemented,
            [
                what,
                ": connection type `",
                &kind.unwrap_or_default(),
                "`: only StreamableHTTPConnectionParams and SseConnectionParams reach a server from a page",
            ]
            .concat(),
        )));
    }
    let url = text(what, params, "url")
        .map_err(to_js_error)?
        .ok_or_else(|| to_js_error(AdkError::invalid(format!("{what}: url: expected a string"))))?;
    // `headers`, or `@google/adk`'s older `header`.
    let mut headers = header_list(what, &prop(params, "header")).map_err(to_js_error)?;
    headers.extend(header_list(what, &prop(params, "headers")).map_err(to_js_error)?);
    let http = http_client(what, params).map_err(to_js_error)?;
    Ok(if sse { McpClient::sse(http, url, headers) } else { McpClient::new(http, url, headers) })
}

/// ADK's `McpInstructionProvider`: an agent's instruction from an MCP server's prompt.
#[wasm_bindgen(js_name = McpInstructionProviderHandle)]
pub struct McpInstructionProviderHandle {
    client: Rc<McpClient>,
    prompt_name: String,
}

#[wasm_bindgen(js_class = McpInstructionProviderHandle)]
impl McpInstructionProviderHandle {
    /// From the connection params (as `MCPToolset`'s) and the prompt's name.
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue, prompt_name: String) -> Result<McpInstructionProviderHandle, JsValue> {
        let client = Rc::new(client("McpInstructionProvider", &params)?);
        Ok(McpInstructionProviderHandle { client, prompt_name })
    }

    /// The instruction for the session state `state`: the prompt's text, its arguments from the state.
    pub fn text(&self, state: JsValue) -> js_sys::Promise {
        let (client, name) = (self.client.clone(), self.prompt_name.clone());
        super::convert::promise(async move {
            let state: JsonObject = super::convert::from_js_core("state", &state)?;
            let text = prompt_instruction(&client, &name, &state, Rc::default()).await?;
            Ok(JsValue::from_str(&text))
        })
    }
}

/// `options.authScheme` (with `authCredential` and `credentialKey`): the toolset's credential
/// config, as ADK's `McpToolset(auth_scheme=…, auth_credential=…)` makes it.
fn auth_config(options: &JsValue) -> Result<Option<AuthConfig>, JsValue> {
    let scheme = prop(options, "authScheme");
    if scheme.is_undefined() || scheme.is_null() {
        return Ok(None);
    }
    let mut config = JsonObject::new();
    for (from, to) in
        [("authScheme", "authScheme"), ("authCredential", "rawAuthCredential"), ("credentialKey", "credentialKey")]
    {
        let value = prop(options, from);
        if !value.is_undefined() && !value.is_null() {
            config.insert(to.into(), from_js::<Value>(&format!("MCPToolset {from}"), &value)?);
        }
    }
    AuthConfig::from_json(config).map(Some).map_err(to_js_error)
}
