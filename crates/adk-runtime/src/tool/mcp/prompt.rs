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
    let wanted: Vec<&str> = definition
        .and_then(|p| p.get("arguments")?.as_array())
        .into_iter()
        .flatten()
        .filter_map(|a| a.get("name")?.as_str())
        .collect();
    // The state's values for the arguments the prompt names, as ADK passes them.
    let arguments: JsonObject =
        state.iter().filter(|(k, _)| wanted.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
    let params = JsonObject::from_iter([
        ("name".to_string(), Value::from(name)),
        ("arguments".to_string(), Value::Object(arguments)),
    ]);
    let mut got = client.request("prompts/get", Some(params), &[], cancellation).await?;
    let messages = match got.remove("messages") {
        Some(Value::Array(messages)) if !messages.is_empty() => messages,
        _ => return Err(AdkError::invalid(["Failed to load MCP prompt '", name, "'."].concat())),
    };
    let texts = messages.iter().filter_map(|m| {
        let content = m.get("content")?;
        (content.get("type")?.as_str()? == "text").then(|| content.get("text")?.as_str()).flatten()
    });
    Ok(texts.collect())
}
