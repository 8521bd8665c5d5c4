//! ADK's `McpToolset` and `McpTool`: the tools an MCP server lists, each declared from its
//! `inputSchema` (and `outputSchema`) as ADK 2.x declares it, each call's `CallToolResult` handed
//! to the model as ADK dumps it (camelCase, `meta` for `_meta`, `isError` written out, no
//! `resultType`). The protocol is `adk_mcp`'s.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use adk_core::sort::sort_by;
use adk_mcp::McpClient;
use async_trait::async_trait;
use serde_json::Value;

mod headers;
mod prompt;
mod resource;

use headers::RequestHeaders;
pub use prompt::prompt_instruction;
use resource::LoadMcpResourceTool;

use super::toolset::HeaderProvider;
use super::{Tool, ToolFilter, Toolset};
use crate::agent::{ReadonlyContext, ToolContext};
use crate::auth::AuthConfig;
use crate::markers::{fence_schema_descriptions, fence_tool_description, TOOL_DESCRIPTION_PREAMBLE};
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::JsonObject;
use crate::AdkError;

/// ADK's own function names, which no MCP tool may take.
const RESERVED: [&str; 5] = [
    "adk_request_credential",
    "adk_request_confirmation",
    "adk_request_input",
    "transfer_to_agent",
    "set_model_response",
];

/// The tools of one MCP server (ADK's `McpToolset`).
pub struct McpToolset {
    client: Rc<McpClient>,
    filter: Option<ToolFilter>,
    prefix: Option<String>,
    headers: Rc<RequestHeaders>,
    // The listing of the invocation it was made for (ADK caches per invocation too), until the
    // server says its tools changed.
    listed: RefCell<Option<Listing>>,
    use_resources: bool,
}

/// The tools listed for one invocation (its id).
type Listing = (String, Vec<Rc<dyn Tool>>);

impl McpToolset {
    /// The toolset of the server `client` talks to.
    pub fn new(client: Rc<McpClient>) -> Self {
        let listed = RefCell::new(None);
        McpToolset { client, filter: None, prefix: None, headers: Rc::default(), listed, use_resources: false }
    }

    /// Only the tools `filter` selects.
    pub fn with_filter(mut self, filter: ToolFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Tools named `<prefix>_<name>`.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// Headers computed for each request.
    pub fn with_header_provider(mut self, provider: HeaderProvider) -> Self {
        Rc::make_mut(&mut self.headers).provider = Some(provider);
        self
    }

    /// Offers the server's resources through ADK's `load_mcp_resource` tool (`use_mcp_resources`).
    pub fn with_resources(mut self, use_resources: bool) -> Self {
        self.use_resources = use_resources;
        self
    }

    /// A credential for every request (ADK's `auth_scheme` and `auth_credential`): resolved before
    /// each model call, the person asked for it when there is none yet.
    pub fn with_auth(mut self, auth: AuthConfig) -> Self {
        Rc::make_mut(&mut self.headers).auth = Some(auth);
        self
    }
}

#[async_trait(?Send)]
impl Toolset for McpToolset {
    async fn get_tools(&self, ctx: &ReadonlyContext) -> Result<Vec<Rc<dyn Tool>>, AdkError> {
        let changed = self.client.take_tools_changed();
        if let Some((invocation, tools)) = self.listed.lend().as_ref() {
            if !changed && invocation == ctx.invocation_id() {
                return Ok(tools.clone());
            }
        }
        let cancellation = ctx.invocation_context().invocation().cancellation.clone();
        let listed = self.client.list_tools(&self.headers.for_request(ctx)?, cancellation).await?;
        let mut tools: Vec<Rc<dyn Tool>> = Vec::with_capacity(listed.len());
        for tool in listed {
            // A server's tool named as one of ADK's own is skipped, not allowed to shadow it.
            if tool.get("name").and_then(Value::as_str).is_some_and(|n| RESERVED.contains(&n)) {
                continue;
            }
            let tool: Rc<dyn Tool> = Rc::new(McpTool::new(self.client.clone(), tool, self.headers.clone()));
            if self.filter.as_ref().is_none_or(|f| f.selects(&*tool, ctx)) {
                tools.push(tool);
            }
        }
        // By name, as ADK sorts them: a server's order is not contractual, and a stable one keeps
        // the model's context cache warm.
        let mut tools = sort_by(tools, |a, b| a.name() < b.name());
        // After the sort and unfiltered, as ADK appends it.
        if self.use_resources {
            tools.push(Rc::new(LoadMcpResourceTool { client: self.client.clone(), headers: self.headers.clone() }));
        }
        *self.listed.lend_mut() = Some((ctx.invocation_id().to_string(), tools.clone()));
        Ok(tools)
    }

    fn tool_name_prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }

    fn auth_config(&self) -> Option<AuthConfig> {
        self.headers.auth.clone()
    }

    fn class_name(&self) -> &'static str {
        "McpToolset"
    }

    async fn close(&self) -> Result<(), AdkError> {
        self.listed.lend_mut().take();
        self.client.close().await
    }
}

/// One tool of an MCP server (ADK's `McpTool`).
struct McpTool {
    client: Rc<McpClient>,
    declaration: FunctionDeclaration,
    headers: Rc<RequestHeaders>,
}

impl McpTool {
    fn new(client: Rc<McpClient>, tool: JsonObject, headers: Rc<RequestHeaders>) -> Self {
        let text = |key: &str| tool.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
        let declaration = FunctionDeclaration {
            name: text("name"),
            description: text("description"),
            parameters: tool.get("inputSchema").cloned(),
            response: tool.get("outputSchema").cloned().filter(|s| !s.is_null()),
        };
        McpTool { client, declaration, headers }
    }
}

#[async_trait(?Send)]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.declaration.name
    }

    fn declaration(&self) -> FunctionDeclaration {
        self.declaration.clone()
    }

    /// Declared fenced: the server's descriptions between the untrusted markers, and ADK's preamble
    /// about them in the system instruction once (ADK 2.x's `McpTool.process_llm_request`).
    async fn process_llm_request(&self, _ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        let declaration = &self.declaration;
        request.append_tool(FunctionDeclaration {
            name: declaration.name.clone(),
            description: fence_tool_description(&declaration.description),
            parameters: declaration.parameters.as_ref().map(|s| fence_schema_descriptions(s, false)),
            response: declaration.response.as_ref().map(|s| fence_schema_descriptions(s, false)),
        });
        // A byte search: `str`'s substring searcher would link its code (and a panic path) in.
        let has_preamble = request
            .config
            .system_instruction
            .as_deref()
            .is_some_and(|i| adk_core::scan::find(i.as_bytes(), TOOL_DESCRIPTION_PREAMBLE.as_bytes()).is_some());
        if !has_preamble {
            request.append_instructions(&[TOOL_DESCRIPTION_PREAMBLE.to_string()]);
        }
        Ok(())
    }

    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let headers = self.headers.for_request(&ctx)?;
        let cancellation = ctx.invocation_context().invocation().cancellation.clone();
        let result = self.client.call_tool(&self.declaration.name, args, &headers, cancellation).await?;
        Ok(Value::Object(as_adk_dumps(result)))
    }
}

/// The fields of the MCP models a result holds, in the order the MCP SDK declares them (so ADK's
/// dump writes them), by the `type` of a content block. `_meta` is written `meta`.
const RESULT: &[&str] = &["_meta", "content", "structuredContent", "isError"];
const TEXT: &[&str] = &["type", "text", "annotations", "_meta"];
const MEDIA: &[&str] = &["type", "data", "mimeType", "annotations", "_meta"];
const LINK: &[&str] =
    &["name", "title", "uri", "description", "mimeType", "size", "icons", "annotations", "_meta", "type"];
const EMBEDDED: &[&str] = &["type", "resource", "annotations", "_meta"];
const TEXT_RESOURCE: &[&str] = &["uri", "mimeType", "_meta", "text"];
const BLOB_RESOURCE: &[&str] = &["uri", "mimeType", "_meta", "blob"];
const ANNOTATIONS: &[&str] = &["audience", "priority", "lastModified"];

/// A `CallToolResult` as ADK 2.13 hands it to the model (`_dump_mcp_model` with the MCP SDK 2.x):
/// the models' fields in their declared order, nulls left out, `isError` defaulting to `false`,
/// `_meta` renamed `meta` (but inside server data: `_meta`, `structuredContent`), and
/// `resultType` dropped.
fn as_adk_dumps(mut result: JsonObject) -> JsonObject {
    result.entry("isError").or_insert(Value::Bool(false));
    if let Some(Value::Array(blocks)) = result.get_mut("content") {
        for block in blocks.iter_mut() {
            if let Value::Object(block) = block {
                let fields = match block.get("type").and_then(Value::as_str) {
                    Some("text") => TEXT,
                    Some("image" | "audio") => MEDIA,
                    Some("resource_link") => LINK,
                    Some("resource") => EMBEDDED,
                    _ => continue,
                };
                if let Some(Value::Object(resource)) = block.get_mut("resource") {
                    let fields = if resource.contains_key("blob") { BLOB_RESOURCE } else { TEXT_RESOURCE };
                    reorder(resource, fields);
                }
                if let Some(Value::Object(annotations)) = block.get_mut("annotations") {
                    reorder(annotations, ANNOTATIONS);
                }
                reorder(block, fields);
            }
        }
    }
    reorder(&mut result, RESULT);
    result
}

/// Keeps `fields` of `object`, in that order, without nulls; `_meta` as `meta`.
fn reorder(object: &mut JsonObject, fields: &[&str]) {
    let mut ordered = JsonObject::new();
    for field in fields {
        if let Some(value) = object.shift_remove(*field).filter(|v| !v.is_null()) {
            ordered.insert(if *field == "_meta" { "meta".into() } else { (*field).into() }, value);
        }
    }
    *object = ordered;
}

#[cfg(test)]
mod tests {
    use super::*;
    use adk_core::json;

    /// What mcp 2.3.0's models dump for the same result (`model_dump(exclude_none, by_alias)`), with
    /// ADK's `_meta` → `meta` and `resultType` dropped.
    #[test]
    fn results_are_dumped_as_adk_dumps_them() {
        let result: JsonObject = json::from_str(
            "test",
            r#"{"resultType": "complete", "content": [{"_meta": {"k": 1}, "text": "x", "type": "text", "annotations": null},
                {"mimeType": "image/png", "type": "image", "data": "AAA="}], "_meta": {"m": {"_meta": 2}}, "structuredContent": {"_meta": 3}}"#,
        )
        .unwrap();
        let dumped = json::to_string(&Value::Object(as_adk_dumps(result)));
        assert_eq!(
            dumped,
            r#"{"meta":{"m":{"_meta":2}},"content":[{"type":"text","text":"x","meta":{"k":1}},{"type":"image","data":"AAA=","mimeType":"image/png"}],"structuredContent":{"_meta":3},"isError":false}"#
        );
    }
}
