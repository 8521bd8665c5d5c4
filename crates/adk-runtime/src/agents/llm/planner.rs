//! ADK's planners, an `LlmAgent`'s `planner`, applied as ADK's `nl_planning` request and response
//! processors apply them: after the contents are built, and on each model response after the
//! `afterModelCallback`s.

use serde_json::Value;

use super::plan_re_act::{process_planning_response, PLANNING_INSTRUCTION};
use crate::model::LlmRequest;
use crate::types::JsonObject;
use crate::LlmResponse;

/// How the agent plans (ADK's `BasePlanner`s; writing one's own is not supported).
#[derive(Debug, Clone, PartialEq)]
pub enum Planner {
    /// ADK's `BuiltInPlanner`: the model's own thinking, as genai's `ThinkingConfig`
    /// (`{includeThoughts, thinkingBudget, thinkingLevel}`), sent as it is.
    BuiltIn {
        /// The request's `thinkingConfig`; it replaces one in the agent's `generate_content_config`.
        thinking_config: JsonObject,
    },
    /// ADK's `PlanReActPlanner`: the model is told to plan, reason and act under tags, and what it
    /// writes under them becomes thoughts.
    PlanReAct,
}

impl Planner {
    /// The request processor. A thinking config replaces the agent's (ADK only logs that it
    /// does). For `PlanReAct`: its instruction last so far, and no content marked as a thought:
    /// the model reads its earlier plans and reasoning as plain text (ADK's
    /// `_remove_thought_from_request`); replies that were only thought are already left out.
    pub(super) fn process_llm_request(&self, request: &mut LlmRequest) {
        match self {
            Planner::BuiltIn { thinking_config } => {
                let settings = &mut request.config.settings;
                // genai reads either spelling; the planner's is the one sent.
                settings.shift_remove("thinking_config");
                settings.insert("thinkingConfig".into(), Value::Object(thinking_config.clone()));
            }
            Planner::PlanReAct => {
                request.append_instructions(&[PLANNING_INSTRUCTION.to_string()]);
                for content in &mut request.contents {
                    for part in content.parts.as_deref_mut().unwrap_or_default() {
                        part.thought = None;
                    }
                }
            }
        }
    }

    /// The response processor: `PlanReAct` rewrites the parts of every response with some
    /// (streamed chunks too, as ADK); the built-in planner leaves them to the model.
    pub(super) fn process_llm_response(&self, response: &mut LlmResponse) {
        let Planner::PlanReAct = self else { return };
        let Some(parts) = response.content.as_mut().and_then(|c| c.parts.as_mut()) else { return };
        let processed = process_planning_response(parts);
        if !processed.is_empty() {
            *parts = processed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Content, Part};
    use serde_json::json;

    #[test]
    fn the_planners_thinking_config_replaces_the_agents() {
        let mut request = LlmRequest::default();
        request.config.settings.insert("temperature".into(), json!(0.2));
        request.config.settings.insert("thinking_config".into(), json!({"thinkingBudget": 0}));
        let thinking_config = json!({"includeThoughts": true}).as_object().cloned().unwrap_or_default();
        Planner::BuiltIn { thinking_config }.process_llm_request(&mut request);
        assert_eq!(
            Value::Object(request.config.settings),
            json!({"temperature": 0.2, "thinkingConfig": {"includeThoughts": true}})
        );
    }

    #[test]
    fn plan_re_act_unmarks_thoughts_and_appends_its_instruction() {
        let mut thought = Part::from_text("plan");
        thought.thought = Some(true);
        let mut request = LlmRequest { contents: vec![Content::new("model", vec![thought])], ..Default::default() };
        request.append_instructions(&["Be brief.".to_string()]);
        Planner::PlanReAct.process_llm_request(&mut request);
        assert_eq!(request.contents[0].parts()[0].thought, None);
        let instruction = request.config.system_instruction.unwrap_or_default();
        assert!(instruction.starts_with("Be brief.\n\n\nWhen answering the question"), "{instruction}");
    }

    #[test]
    fn a_response_with_nothing_left_stays_as_it_was() {
        let mut response = LlmResponse::from_parts(vec![Part::from_text("/*FINAL_ANSWER*/")]);
        Planner::PlanReAct.process_llm_response(&mut response);
        assert_eq!(response.content.unwrap().parts()[0].text.as_deref(), Some("/*FINAL_ANSWER*/"));
    }
}
