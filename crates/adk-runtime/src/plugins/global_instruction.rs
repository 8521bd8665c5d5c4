//! ADK's `GlobalInstructionPlugin`: one instruction for every agent of the app, ahead of each
//! model call's system instruction (what `LlmAgent.global_instruction` does from the root agent,
//! which ADK deprecates for it).

use async_trait::async_trait;

use crate::agent::{CallbackContext, Plugin};
use crate::agents::Instruction;
use crate::model::LlmRequest;
use crate::{AdkError, LlmResponse};

/// Puts its instruction first in every model request's system instruction.
pub struct GlobalInstructionPlugin {
    name: String,
    global_instruction: Instruction,
}

impl GlobalInstructionPlugin {
    /// The plugin `global_instruction` (its ADK name) with `instruction`: a template filled from
    /// the state as an agent's instruction is, or a provider whose text is used as it is.
    pub fn new(instruction: Instruction) -> Self {
        GlobalInstructionPlugin { name: "global_instruction".into(), global_instruction: instruction }
    }

    /// The same plugin under another name.
    pub fn named(self, name: &str) -> Self {
        GlobalInstructionPlugin { name: name.into(), ..self }
    }
}

#[async_trait(?Send)]
impl Plugin for GlobalInstructionPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    /// The instruction, then a blank line, then the request's own system instruction (ADK 2.13's
    /// `_prepend_instruction` for a text one, the only kind adk-wasm sends); an empty one adds nothing.
    async fn before_model(
        &self,
        ctx: &CallbackContext,
        request: &mut LlmRequest,
    ) -> Result<Option<LlmResponse>, AdkError> {
        let Some(text) = self.global_instruction.resolve(ctx).await?.filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let system = &mut request.config.system_instruction;
        *system = Some(match system.take().filter(|s| !s.is_empty()) {
            Some(existing) => [text.as_str(), "\n\n", &existing].concat(),
            None => text,
        });
        Ok(None)
    }
}
