//! Models: what an `LlmAgent` sends (`LlmRequest`) and the trait every model implements.

mod aggregate;
pub mod gemini;
mod http_call;
pub mod openai;
pub(crate) mod safe_part;
pub mod scripted;

use adk_core::text::join;
use std::pin::Pin;
use std::rc::Rc;

use futures_core::Stream;
use serde_json::Value;

use crate::cancellation::Cancellation;
use adk_core::json::{FromJson, JsonError, Kind, Reader};

use crate::types::{Content, JsonObject};
use crate::{AdkError, LlmResponse};

pub use aggregate::StreamingAggregator;
pub use gemini::Gemini;
pub use openai::OpenAICompatible;
pub use scripted::ScriptedModel;

adk_core::json_struct! {
    /// A function the model may call (`types.FunctionDeclaration`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct FunctionDeclaration {
        /// The tool's name.
        pub name: String => "name" req,
        /// What it does, for the model.
        pub description: String => "description" nonempty,
        /// JSON Schema of the arguments (genai's `parameters_json_schema`; ADK 2.x declares
        /// function tools this way).
        pub parameters: Option<Value> => "parametersJsonSchema" opt,
        /// JSON Schema of the result (genai's `response_json_schema`; ADK declares an MCP tool's
        /// `outputSchema` this way).
        pub response: Option<Value> => "responseJsonSchema" opt,
    }
}

adk_core::json_struct! {
    /// One entry of the request's tools (`types.Tool`): function declarations, or one of the
    /// model's own tools (`{"googleSearch": {}}`, `{"urlContext": {}}`, …).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct ToolDeclarations {
        /// The functions.
        pub function_declarations: Vec<FunctionDeclaration> => "functionDeclarations" nonempty,
        /// The model's own tools, as genai names them.
        pub built_in: JsonObject => "" extra,
    }
}

adk_core::json_struct! {
    /// Generation settings (`types.GenerateContentConfig`): the system instruction, tools and
    /// labels are typed, everything else (`temperature`, `maxOutputTokens`, `responseSchema`, …) is
    /// passed through as given.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct GenerateContentConfig {
        /// The instructions, one string as ADK builds it. A `Content` given instead (genai accepts
        /// both) reads as its texts joined by a blank line.
        pub system_instruction: Option<String> => "systemInstruction" (opt_via read_system_instruction),
        /// The tools the model may call.
        pub tools: Vec<ToolDeclarations> => "tools" nonempty,
        /// Labels for billing reports; ADK adds `adk_agent_name` before each model call.
        pub labels: JsonObject => "labels" nonempty,
        /// Every other setting, unchanged.
        pub settings: JsonObject => "" extra,
    }
}

adk_core::json_struct! {
    /// One request to a model (ADK's `LlmRequest`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct LlmRequest {
        /// The model name.
        pub model: Option<String> => "model" opt,
        /// The conversation so far, as the agent sees it.
        pub contents: Vec<Content> => "contents" def,
        /// Instructions, tools and settings.
        pub config: GenerateContentConfig => "config" def,
        /// How many leading contents are a static instruction's media, which stay first (a stable
        /// prefix for context caching); never sent.
        pub static_prefix_end: usize => "staticPrefixEnd" skip,
        /// Instructions tools queue while they shape the request, added to the system instruction
        /// after every tool has (ADK's `_dynamic_instructions`); never sent.
        pub dynamic_instructions: Vec<String> => "dynamicInstructions" skip,
    }
}

fn read_system_instruction(r: &mut Reader<'_>) -> Result<Option<String>, JsonError> {
    match r.kind()? {
        Kind::Null => r.null().map(|_| None),
        Kind::String => r.string().map(Some),
        _ => {
            let content = Content::read_json(r)?;
            let mut texts: Vec<&str> = Vec::new();
            for p in content.parts() {
                texts.extend(p.text.as_deref());
            }
            Ok(Some(texts.join("\n\n")))
        }
    }
}

impl LlmRequest {
    /// Appends instructions to the system instruction, separated by a blank line (as ADK does).
    pub fn append_instructions(&mut self, instructions: &[String]) {
        if instructions.is_empty() {
            return;
        }
        let text = join(instructions, "\n\n");
        match &mut self.config.system_instruction {
            Some(existing) if !existing.is_empty() => {
                existing.push_str("\n\n");
                existing.push_str(&text);
            }
            slot => *slot = Some(text),
        }
    }

    /// Declares `declaration` in the first group of functions, or a new one (ADK's `append_tools`).
    pub fn append_tool(&mut self, declaration: FunctionDeclaration) {
        match self.config.tools.iter_mut().find(|t| !t.function_declarations.is_empty()) {
            Some(group) => group.function_declarations.push(declaration),
            None => self
                .config
                .tools
                .push(ToolDeclarations { function_declarations: vec![declaration], built_in: JsonObject::new() }),
        }
    }

    /// Adds one of the model's own tools, e.g. `googleSearch`, as a tool entry of its own.
    pub fn append_built_in_tool(&mut self, name: &str) {
        let built_in = adk_core::json::members([(name, Value::Object(JsonObject::new()))]);
        self.config.tools.push(ToolDeclarations { function_declarations: Vec::new(), built_in });
    }

    /// Inserts request-scoped user content (ADK's `_insert_transient_user_content`): before the
    /// latest run of user messages, but after a function response the model is continuing from,
    /// and never inside the static prefix.
    pub fn insert_transient_user_content(&mut self, contents: Vec<Content>) {
        let mut at = self.contents.len();
        for (i, content) in self.contents.iter().enumerate().rev() {
            if content.role.as_deref() != Some("user") || content.parts().iter().any(|p| p.function_response.is_some())
            {
                break;
            }
            at = i;
        }
        let at = at.max(self.static_prefix_end).min(self.contents.len());
        // Appended, then rotated into place: a `splice` is more code to download.
        let count = contents.len();
        self.contents.extend(contents);
        if let Some(moved) = self.contents.get_mut(at..) {
            moved.rotate_right(count);
        }
    }

    /// The declared functions.
    pub fn function_declarations(&self) -> std::vec::IntoIter<&FunctionDeclaration> {
        let mut declared = Vec::new();
        for tool in &self.config.tools {
            declared.extend(tool.function_declarations.iter());
        }
        declared.into_iter()
    }
}

/// The responses of one model call. In streaming mode: partial chunks, then one final response.
pub type LlmResponseStream = Pin<Box<dyn Stream<Item = Result<LlmResponse, AdkError>>>>;

/// A model (ADK's `BaseLlm`).
pub trait BaseLlm {
    /// The model's name, as put in requests.
    fn model(&self) -> &str;

    /// Generates a response for `request`. With `stream`, yields partial responses (`partial: true`)
    /// as they arrive and then exactly one complete response holding the whole text; without, one
    /// complete response. `cancellation` fires when the run is stopped: abort the request then.
    fn generate_content(&self, request: LlmRequest, stream: bool, cancellation: Rc<Cancellation>) -> LlmResponseStream;
}
