//! ADK's `Event`: an `LlmResponse` plus who wrote it, when, and what it does.

use serde_json::Value;

use super::llm_response::{function_calls, function_responses};
use super::{EventActions, LlmResponse, ToolIds};
use crate::error::AdkError;
use crate::json;
use crate::platform;
use crate::types::{FunctionCall, FunctionResponse, JsonObject, Part};

llm_response_fields!(with_llm_response_fields {
    /// One entry of a conversation, as ADK Python puts it on the wire.
    #[derive(Debug, Clone, PartialEq)]
    Event {
        /// The invocation that produced the event; `e-` + uuid4.
        invocation_id: String => "invocationId" def,
        /// `user` or the name of the agent that wrote the event.
        author: String => "author" req,
        /// What the event does to the session and the agent flow.
        actions: EventActions => "actions" def,
        /// Generic output of a workflow node (ADK 2.x).
        output: Option<Value> => "output" (rare rare),
        /// Workflow node metadata (ADK 2.x).
        node_info: Option<JsonObject> => "nodeInfo" (rare rare),
        /// Ids of the long-running function calls in this event (kept sorted, as ADK 2.x writes them).
        long_running_tool_ids: Option<ToolIds> => "longRunningToolIds" opt,
        /// `agent_1.agent_2.…`: whose conversation history this event belongs to.
        branch: Option<String> => "branch" opt,
        /// Internal ADK 2.x scope tag, carried through.
        isolation_scope: Option<String> => "isolationScope" opt,
        /// The event id, a uuid4; assigned when missing or empty, whatever decodes the event.
        id: String => "id" (fill Event::new_id()),
        /// Seconds since the Unix epoch.
        timestamp: f64 => "timestamp" (with platform::now_seconds()),
    }
});

/// Moves every `LlmResponse` field into `event` (the rare ones move with `rare`).
macro_rules! move_response_fields {
    ($response:ident, $event:ident ; $($(#[$fmeta:meta])* $field:ident: $ty:ty => $key:literal $mode:tt,)*) => {
        $( move_response_fields!(@move $mode, $response, $event, $field); )*
        $event.rare = $response.rare;
    };
    (@move (rare $store:ident), $response:ident, $event:ident, $field:ident) => {};
    (@move $mode:tt, $response:ident, $event:ident, $field:ident) => {
        $event.$field = $response.$field;
    };
}

impl Event {
    /// A new event by `author` with a fresh id and the current time.
    pub fn new(author: &str) -> Self {
        Event {
            model_version: None,
            content: None,
            grounding_metadata: None,
            partial: None,
            turn_complete: None,
            finish_reason: None,
            error_code: None,
            error_message: None,
            interrupted: None,
            custom_metadata: None,
            usage_metadata: None,
            avg_logprobs: None,
            logprobs_result: None,
            citation_metadata: None,
            invocation_id: String::new(),
            author: author.to_string(),
            actions: EventActions::default(),
            long_running_tool_ids: None,
            branch: None,
            isolation_scope: None,
            id: Self::new_id(),
            timestamp: platform::now_seconds(),
            rare: json::Rare::default(),
        }
    }

    /// The event an agent yields for a model response.
    pub fn from_llm_response(response: LlmResponse, author: &str, invocation_id: &str) -> Self {
        let mut event = Event::new(author);
        event.invocation_id = invocation_id.to_string();
        llm_response_fields!(move_response_fields { response, event });
        event
    }

    /// A fresh event id (uuid4).
    pub fn new_id() -> String {
        platform::new_uuid()
    }

    /// Decodes ADK wire JSON. Unknown fields are ignored (as ADK's `extra='ignore'`); a missing id
    /// is assigned and a missing timestamp is now, as ADK's constructor does. Errors name the field.
    pub fn from_json(json: &str) -> Result<Self, AdkError> {
        let event: Event = json::from_str("event", json)?;
        if !event.timestamp.is_finite() {
            return Err(AdkError::invalid("invalid event: timestamp: must be a finite number of seconds"));
        }
        Ok(event)
    }

    /// ADK wire JSON, as `model_dump_json(exclude_none=True, by_alias=True)`.
    pub fn to_json(&self) -> Result<String, AdkError> {
        Ok(json::to_string(self))
    }

    /// Whether this is an agent's final answer for the turn (ADK 2.x semantics, see below).
    ///
    /// True when summarization is skipped or the event has long-running tool ids; for an error
    /// event that is not partial and calls no function; otherwise when it has no function calls or
    /// responses, is not partial and does not end with a code-execution result. ADK 1.x differs only
    /// for an error event carrying function responses, which 1.x does not count as final.
    pub fn is_final_response(&self) -> bool {
        if self.actions.skip_summarization == Some(true)
            || self.long_running_tool_ids.as_ref().is_some_and(|ids| !ids.is_empty())
        {
            return true;
        }
        let partial = self.partial == Some(true);
        if self.has_error() && !partial && self.get_function_calls().is_empty() {
            return true;
        }
        self.get_function_calls().is_empty()
            && self.get_function_responses().is_empty()
            && !partial
            && !self.has_trailing_code_execution_result()
    }

    /// The function calls in the content, in order.
    pub fn get_function_calls(&self) -> Vec<&FunctionCall> {
        function_calls(self.content.as_ref())
    }

    /// The function responses in the content, in order.
    pub fn get_function_responses(&self) -> Vec<&FunctionResponse> {
        function_responses(self.content.as_ref())
    }

    /// The last part of the content is a code-execution result.
    pub fn has_trailing_code_execution_result(&self) -> bool {
        self.parts().last().is_some_and(|p| p.code_execution_result.is_some())
    }

    /// The user wrote this event.
    pub fn is_user(&self) -> bool {
        self.author == "user"
    }

    /// An agent wrote this event; with `name`, that particular agent.
    pub fn is_agent(&self, name: Option<&str>) -> bool {
        !self.is_user() && name.is_none_or(|n| n == self.author)
    }

    /// The event carries an error code.
    pub fn has_error(&self) -> bool {
        self.error_code.as_deref().is_some_and(|c| !c.is_empty())
    }

    /// The parts of the content, or none.
    pub fn parts(&self) -> &[Part] {
        self.content.as_ref().map_or(&[], |c| c.parts())
    }
}

#[cfg(test)]
mod tests {
    use super::Event;
    use crate::json::from_str;

    #[test]
    fn an_event_holds_a_value_as_deep_as_one_may_be_on_its_own() {
        // As the SDK gives it out and may get it back (from a JS session service, a callback, a
        // page), the event reads as input; the value in it may not nest deeper than on its own.
        let event = |n: usize| {
            let value = format!("{}{}", "[".repeat(n), "]".repeat(n));
            format!(
                r#"{{"author":"a","content":{{"parts":[{{"functionResponse":{{"name":"f","response":{{"r":{value}}}}}}}]}}}}"#
            )
        };
        assert!(from_str::<Event>("event", &event(128)).is_ok());
        let e = from_str::<Event>("event", &event(129)).unwrap_err();
        assert!(e.message.contains("recursion limit exceeded"), "{}", e.message);
    }
}
