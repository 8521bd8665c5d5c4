//! ADK's `McpInstructionProvider`: an agent's instruction fetched from an MCP server's prompt on
//! each turn (`prompts/list` for the arguments it takes, filled from the session state, then
//! `prompts/get`), the text of its messages joined. An `Instruction::Provider` calls
//! [`prompt_instruction`] with the context's state.

use std::rc::Rc;

use adk_mcp::McpClient;
use serde_json::Value;

use crate::cancellation::Cancellation;
use crate::types::JsonObject;
use crate::AdkError;

/// The instruction the prompt `name` gives for `state`.
pub async fn prompt_instruction(
    client: &McpClient,
    name: &str,
    state: &JsonObject,
    cancellation: Rc<Cancellation>,
) -> Result<String, AdkError> {
    let mut listed = client.request("prompts/list", None, &[], cancellation.clone()).await?;
    let prompts = match listed.remove("prompts") {
        Some(Value::Array(prompts)) => prompts,
        _ => Vec::new(),
    };
    let definition = prompts.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(name));
    let mut wanted: Vec<&str> = Vec::new();
    for a in definition.and_then(|p| p.get("arguments")?.as_array()).map_or(&[][..], Vec::as_slice) {
        wanted.extend(a.get("name").and_then(Value::as_str));
    }
    // The state's values for the arguments the prompt names, as ADK passes them.
    let mut arguments = JsonObject::new();
    for (k, v) in state {
        if wanted.contains(&k.as_str()) {
            arguments.insert(k.clone(), v.clone());
        }
    }
    let params = adk_core::json::members([("name", Value::from(name)), ("arguments", Value::Object(arguments))]);
    let mut got = client.request("prompts/get", Some(params), &[], cancellation).await?;
    let messages = match got.remove("messages") {
        Some(Value::Array(messages)) if !messages.is_empty() => messages,
        _ => return Err(AdkError::invalid(["Failed to load MCP prompt '", name, "'."].concat())),
    };
    let mut texts = Vec::new();
    for m in &messages {
        let Some(content) = m.get("content") else { continue };
        if content.get("type").and_then(Value::as_str) == Some("text") {
            texts.extend(content.get("text").and_then(Value::as_str));
        }
    }
    Ok(texts.concat())
}
