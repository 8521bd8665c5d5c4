//! ADK's `LoadMcpResourceTool` (`load_mcp_resource`, an `McpToolset` with `use_mcp_resources`): the
//! server's resource names in the system instruction, and the resources the model asks for put
//! into that one request (never into the session), each content a text or media part as ADK makes it.

use std::rc::Rc;

use adk_core::json;
use adk_core::types::Bytes;
use adk_mcp::McpClient;
use async_trait::async_trait;
use serde_json::Value;

use super::headers::RequestHeaders;
use crate::agent::{ReadonlyContext, ToolContext};
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::python_repr::python_json_list;
use crate::tool::{asked_in_last_response, string_list_parameter, Tool};
use crate::types::{Blob, Content, JsonObject, Part};
use crate::AdkError;

const NAME: &str = "load_mcp_resource";

/// ADK's `load_mcp_resource` tool over one MCP server.
pub(super) struct LoadMcpResourceTool {
    pub(super) client: Rc<McpClient>,
    pub(super) headers: Rc<RequestHeaders>,
}

impl LoadMcpResourceTool {
    /// The server's resources (`resources/list`, one page, as ADK asks).
    async fn resources(&self, ctx: &ReadonlyContext) -> Result<Vec<JsonObject>, AdkError> {
        let cancellation = ctx.invocation_context().invocation().cancellation.clone();
        let headers = self.headers.for_request(ctx)?;
        let mut listed = self.client.request("resources/list", None, &headers, cancellation).await?;
        let Some(Value::Array(resources)) = listed.remove("resources") else { return Ok(Vec::new()) };
        let mut objects = Vec::new();
        for r in resources {
            if let Value::Object(r) = r {
                objects.push(r);
            }
        }
        Ok(objects)
    }

    /// The contents of the resource named `name` (its URI from the listing, then `resources/read`).
    async fn read(&self, name: &str, ctx: &ReadonlyContext) -> Result<Vec<Value>, AdkError> {
        let listed = self.resources(ctx).await?;
        let found = listed.iter().find(|r| r.get("name").and_then(Value::as_str) == Some(name));
        let Some(uri) = found.and_then(|r| r.get("uri")).and_then(Value::as_str) else {
            return Err(AdkError::invalid(["Resource with name '", name, "' not found."].concat()));
        };
        let params = json::members([("uri", Value::from(uri))]);
        let cancellation = ctx.invocation_context().invocation().cancellation.clone();
        let mut read =
            self.client.request("resources/read", Some(params), &self.headers.for_request(ctx)?, cancellation).await?;
        match read.remove("contents") {
            Some(Value::Array(contents)) => Ok(contents),
            _ => Ok(Vec::new()),
        }
    }
}

/// One resource content as a part (ADK's `_mcp_content_to_part`).
fn content_part(content: &Value, name: &str) -> Part {
    if let Some(text) = content.get("text").and_then(Value::as_str) {
        return Part::from_text(text);
    }
    let Some(blob) = content.get("blob").and_then(Value::as_str) else {
        return Part::from_text(&["[Unknown content type for ", name, "]"].concat());
    };
    match Bytes::from_base64(blob) {
        Ok(data) => {
            let mime = content.get("mimeType").and_then(Value::as_str).unwrap_or("application/octet-stream");
            let inline_data = Some(Blob { data: Some(data), mime_type: Some(mime.into()), ..Default::default() });
            Part { inline_data, ..Default::default() }
        }
        Err(_) => Part::from_text(&["[Binary content for ", name, " could not be decoded]"].concat()),
    }
}

#[async_trait(?Send)]
impl Tool for LoadMcpResourceTool {
    fn name(&self) -> &str {
        NAME
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: NAME.into(),
            description: "Loads resources from the MCP server.\n\nNOTE: Call when you need access to resources.".into(),
            parameters: Some(string_list_parameter("resource_names")),
            response: None,
        }
    }

    async fn run(&self, args: JsonObject, _ctx: ToolContext) -> Result<Value, AdkError> {
        let names = args.get("resource_names").cloned().unwrap_or(Value::Array(Vec::new()));
        Ok(json::object([
            ("resource_names", names),
            (
                "status",
                "resource contents temporarily inserted and removed. to access these resources, call \
                 load_mcp_resource tool again."
                    .into(),
            ),
        ]))
    }

    async fn process_llm_request(&self, ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        request.append_tool(self.declaration());
        // A server that cannot list its resources leaves the request without them (ADK logs it).
        let mut names: Vec<String> = Vec::new();
        for r in self.resources(ctx).await.unwrap_or_default() {
            names.extend(r.get("name").and_then(Value::as_str).map(str::to_string));
        }
        if !names.is_empty() {
            request.dynamic_instructions.push(format!(
                "You have a list of MCP resources:\n{}\n\nWhen the user asks questions about any of the resources, \
                 you should call the\n`load_mcp_resource` function to load the resource. Always call \
                 load_mcp_resource\nbefore answering questions related to the resources.\n",
                python_json_list(&names)
            ));
        }
        let asked = asked_in_last_response(request, NAME, "resource_names");
        let mut names_asked: Vec<String> = Vec::new();
        for list in asked.iter().filter_map(Value::as_array) {
            for n in list {
                names_asked.extend(n.as_str().map(str::to_string));
            }
        }
        for name in names_asked {
            // A resource that cannot be read is skipped, as ADK skips it.
            let Ok(contents) = self.read(&name, ctx).await else { continue };
            for content in &contents {
                let intro = Part::from_text(&["Resource ", &name, " is:"].concat());
                request.contents.push(Content::new("user", vec![intro, content_part(content, &name)]));
            }
        }
        Ok(())
    }
}
