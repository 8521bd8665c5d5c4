//! The memory tools: `preload_memory` recalls memories for every request on its own,
//! `load_memory` lets the model search them (ADK's `PreloadMemoryTool` and `LoadMemoryTool`).
//! The texts a model sees are ADK's, to the character.

use adk_core::json;
use adk_core::text::join;
use async_trait::async_trait;
use serde_json::{Map, Value};

use super::{one_string_parameter, string_argument, Tool};
use crate::agent::ToolContext;
use crate::memory::MemoryEntry;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::{Content, JsonObject};
use crate::{AdkError, ErrorCode};

/// The texts of `content`'s parts, joined by a space (thoughts included, as ADK's memory text is).
fn joined_text(content: &Content, skip_thoughts: bool) -> String {
    let mut texts: Vec<&str> = Vec::new();
    for p in content.parts() {
        match p.text.as_deref() {
            Some(t) if !(t.is_empty() || skip_thoughts && p.thought == Some(true)) => texts.push(t),
            _ => {}
        }
    }
    texts.join(" ")
}

/// The memories as the lines ADK shows the model: `Time: …`, then `author: text`.
fn memory_lines(memories: &[MemoryEntry]) -> Vec<String> {
    let mut lines = Vec::new();
    for memory in memories {
        if let Some(time) = memory.timestamp.as_deref().filter(|t| !t.is_empty()) {
            lines.push(["Time: ", time].concat());
        }
        let text = joined_text(&memory.content, false);
        if text.is_empty() {
            continue;
        }
        lines.push(match memory.author.as_deref().filter(|a| !a.is_empty()) {
            Some(author) => [author, ": ", &text].concat(),
            None => text,
        });
    }
    lines
}

/// ADK's `PreloadMemoryTool`: before each model call, searches the user's memories with the text
/// of the invocation's user message and puts what it finds before that message. The model never
/// sees it as a tool.
pub struct PreloadMemoryTool;

#[async_trait(?Send)]
impl Tool for PreloadMemoryTool {
    fn name(&self) -> &str {
        "preload_memory"
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: "preload_memory".into(),
            description: "preload_memory".into(),
            parameters: None,
            response: None,
        }
    }

    async fn run(&self, _args: JsonObject, _ctx: ToolContext) -> Result<Value, AdkError> {
        Err(AdkError::new(ErrorCode::FailedPrecondition, "preload_memory is not called by the model"))
    }

    async fn process_llm_request(&self, ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        let query = ctx.user_content().map(|c| joined_text(c, true)).unwrap_or_default();
        if query.is_empty() {
            return Ok(());
        }
        // As in ADK, a failed search (no memory service, say) leaves the request as it is.
        let Ok(found) = ctx.search_memory(&query).await else { return Ok(()) };
        let lines = memory_lines(&found.memories);
        if lines.is_empty() {
            return Ok(());
        }
        let text = [
            "The following content is from your previous conversations with the user.\n\
             They may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n",
            &join(&lines, "\n"),
            "\n</PAST_CONVERSATIONS>\n",
        ]
        .concat();
        request.insert_transient_user_content(vec![Content::user_text(&text)]);
        Ok(())
    }
}

/// A memory as ADK's pydantic `MemoryEntry` dumps it into a function response: snake_case
/// `custom_metadata`, unset fields left out.
fn memory_json(memory: &MemoryEntry) -> Value {
    let mut entry = Map::new();
    entry.insert("content".into(), json::to_value(&memory.content));
    entry.insert("custom_metadata".into(), Value::Object(memory.custom_metadata.clone()));
    for (key, value) in [("id", &memory.id), ("author", &memory.author), ("timestamp", &memory.timestamp)] {
        if let Some(value) = value {
            entry.insert(key.into(), value.as_str().into());
        }
    }
    Value::Object(entry)
}

/// ADK's `load_memory` tool: the model searches the user's memories with a query of its own.
pub struct LoadMemoryTool;

#[async_trait(?Send)]
impl Tool for LoadMemoryTool {
    fn name(&self) -> &str {
        "load_memory"
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: "load_memory".into(),
            description:
                "Loads the memory for the current user.\n\nArgs:\n  query: The query to load the memory for.\n\n\
                          Returns:\n  A list of memory results."
                    .into(),
            parameters: Some(one_string_parameter("query")),
            response: None,
        }
    }

    /// ADK's function returns a pydantic model, which its flow wraps as `{"result": …}`: the model
    /// gets `{"result": {"memories": […]}}`, so this does too.
    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let found = ctx.search_memory(string_argument(&args, "query", self.name())?).await?;
        let mut memories = Vec::with_capacity(found.memories.len());
        for memory in &found.memories {
            memories.push(memory_json(memory));
        }
        Ok(json::object([("result", json::object([("memories", Value::Array(memories))]))]))
    }

    async fn process_llm_request(&self, _ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        request.append_tool(self.declaration());
        request.append_instructions(&[
            "\nYou have memory. You can use it to answer questions. If any questions need\n\
                                       you to look up the memory, you should call load_memory function with a query.\n"
                .to_string(),
        ]);
        Ok(())
    }
}
