//! ADK's `BuiltInCodeExecutor`: the model runs the code it writes (Gemini's `codeExecution` tool).
//! The agent only asks for the tool, saves the images the code drew as artifacts, and retells code
//! and results that ended a turn as fenced text: what ADK's `_code_execution` request and response
//! processors do for this executor (ADK's other executors run code on the host, which a page has no
//! sandbox for).

use std::future::Future;
use std::pin::Pin;

use crate::agent::{CallbackContext, InvocationContext};
use crate::memory::file_timestamp;
use crate::model::LlmRequest;
use crate::tool::is_gemini_model;
use crate::types::{Content, Part};
use crate::{AdkError, Event, LlmResponse};

/// ADK's `BuiltInCodeExecutor`, an `LlmAgent`'s `code_executor`: Gemini runs the code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuiltInCodeExecutor;

/// ADK's `BaseCodeExecutor` defaults: its first code-block delimiters and the result delimiters.
const CODE_FENCE: (&str, &str) = ("```tool_code\n", "\n```");
const RESULT_FENCE: (&str, &str) = ("```tool_output\n", "\n```");

impl BuiltInCodeExecutor {
    /// The request processor: the `codeExecution` tool for a Gemini model (ADK's
    /// `BuiltInCodeExecutor.process_llm_request`; any other model is refused with its words), then
    /// every content's trailing code or lone result as text (`convert_code_execution_parts`).
    pub(super) fn process_llm_request(self, request: &mut LlmRequest) -> Result<(), AdkError> {
        let model = request.model.as_deref().unwrap_or_default();
        if !is_gemini_model(model) {
            return Err(AdkError::invalid(format!("Gemini code execution tool is not supported for model {model}")));
        }
        request.append_built_in_tool("codeExecution");
        request.contents.iter_mut().for_each(fence_code_execution_parts);
        Ok(())
    }

    /// The response processor (ADK's `_run_post_processor` for this executor), for a complete
    /// response with content: each image becomes an artifact and, in the response, the text
    /// `Saved as artifact: <name>. `. The event it returns (no content, the artifacts' versions)
    /// goes before the response's own, as ADK yields it. Boxed: inlined, its await doubled into
    /// the agent's loop (3.6 KB of code).
    pub(super) fn process_llm_response<'a>(
        self,
        ctx: &'a InvocationContext,
        response: &'a mut LlmResponse,
    ) -> Pin<Box<dyn Future<Output = Result<Option<Event>, AdkError>> + 'a>> {
        Box::pin(save_images(ctx, response))
    }
}

/// The images of a complete response saved as artifacts; see `process_llm_response`.
async fn save_images(ctx: &InvocationContext, response: &mut LlmResponse) -> Result<Option<Event>, AdkError> {
    let Some(content) = response.content.as_mut().filter(|_| response.partial != Some(true)) else {
        return Ok(None);
    };
    let saver = CallbackContext::new(ctx.clone());
    for part in content.parts.as_deref_mut().unwrap_or_default() {
        let Some(blob) = &part.inline_data else { continue };
        let mime_type = blob.mime_type.clone().unwrap_or_default();
        if !mime_type.starts_with("image/") {
            continue;
        }
        let name = match blob.display_name.as_deref().filter(|n| !n.is_empty()) {
            Some(name) => name.to_string(),
            None => {
                // What follows the last `/`, as ADK's `split('/')[-1]` (a byte search: no char searcher).
                let slash = mime_type.bytes().rposition(|b| b == b'/').map_or(0, |i| i + 1);
                let extension = mime_type.get(slash..).unwrap_or_default();
                format!("{}.{extension}", file_timestamp(adk_core::platform::now_seconds()))
            }
        };
        let data =
            blob.data.clone().ok_or_else(|| AdkError::invalid("Generated image artifact data must be bytes."))?;
        saver.save_artifact(&name, Part::from_inline_data(data.0, &mime_type)).await?;
        part.inline_data = None;
        part.text = Some(format!("Saved as artifact: {name}. "));
    }
    let mut event = Event::new(ctx.agent_name());
    event.invocation_id = ctx.invocation_id().to_string();
    event.branch = ctx.branch().map(str::to_string);
    event.actions = saver.take_actions();
    Ok(Some(event))
}

/// ADK's `CodeExecutionUtils.convert_code_execution_parts`: a content ending in code ends in that
/// code fenced instead; a content that is only a result becomes the user's fenced output (the model
/// reads it as what running its code gave). Code and results amid other parts stay as they are.
fn fence_code_execution_parts(content: &mut Content) {
    let Some(parts) = content.parts.as_mut() else { return };
    let single = parts.len() == 1;
    let Some(last) = parts.last_mut() else { return };
    if let Some(code) = &last.executable_code {
        let code = code.code.as_deref().unwrap_or_default();
        *last = Part::from_text(&format!("{}{code}{}", CODE_FENCE.0, CODE_FENCE.1));
    } else if let Some(result) = last.code_execution_result.as_ref().filter(|_| single) {
        let text = match &result.output {
            Some(output) => format!("{}{output}{}", RESULT_FENCE.0, RESULT_FENCE.1),
            None => String::new(),
        };
        *last = Part::from_text(&text);
        content.role = Some("user".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{CodeExecutionResult, ExecutableCode};

    fn code(source: &str) -> Part {
        let code = ExecutableCode { code: Some(source.into()), language: Some("PYTHON".into()), id: None };
        Part { executable_code: Some(code), ..Default::default() }
    }

    fn result(output: Option<&str>) -> Part {
        let result =
            CodeExecutionResult { outcome: Some("OUTCOME_OK".into()), output: output.map(Into::into), id: None };
        Part { code_execution_result: Some(result), ..Default::default() }
    }

    fn fenced(parts: Vec<Part>) -> Content {
        let mut content = Content::new("model", parts);
        fence_code_execution_parts(&mut content);
        content
    }

    /// As ADK's `convert_code_execution_parts`: only a trailing code part, or a result on its own.
    #[test]
    fn trailing_code_and_lone_results_become_fenced_text() {
        let content = fenced(vec![Part::from_text("Running."), code("print(1)")]);
        assert_eq!(content.parts()[1].text.as_deref(), Some("```tool_code\nprint(1)\n```"));
        assert_eq!(content.role.as_deref(), Some("model"));
        let content = fenced(vec![result(Some("1\n"))]);
        assert_eq!(content.parts()[0].text.as_deref(), Some("```tool_output\n1\n\n```"));
        assert_eq!(content.role.as_deref(), Some("user"));
        assert_eq!(fenced(vec![result(None)]).parts()[0].text.as_deref(), Some(""));
        let kept = vec![code("print(1)"), result(Some("1\n"))];
        assert_eq!(fenced(kept.clone()).parts(), kept.as_slice());
        let mut empty = Content { parts: Some(Vec::new()), role: None };
        fence_code_execution_parts(&mut empty);
        assert!(empty.parts().is_empty());
    }

    #[test]
    fn a_model_that_is_not_gemini_is_refused_in_adks_words() {
        let mut request = LlmRequest { model: Some("gpt-4o".into()), ..Default::default() };
        let error = BuiltInCodeExecutor.process_llm_request(&mut request).unwrap_err();
        assert_eq!(error.message, "Gemini code execution tool is not supported for model gpt-4o");
        assert!(request.config.tools.is_empty());
    }
}
