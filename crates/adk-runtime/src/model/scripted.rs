//! A model that answers from a script given up front: for tests and for the offline demo.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use super::{BaseLlm, LlmRequest, LlmResponseStream, StreamingAggregator};
use crate::cancellation::Cancellation;
use crate::{AdkError, ErrorCode, LlmResponse};

/// One scripted turn: a whole response, or chunks that stream.
#[derive(Debug, Clone)]
pub enum ScriptedTurn {
    /// Answered at once.
    Response(Box<LlmResponse>),
    /// Answered in pieces: partial events in streaming mode, one aggregated response otherwise.
    Chunks(Vec<LlmResponse>),
}

/// Answers each call with the next turn of its script and records the requests it got. Running out
/// of script is an error naming the call, not a hang.
pub struct ScriptedModel {
    name: String,
    turns: RefCell<std::collections::VecDeque<ScriptedTurn>>,
    requests: RefCell<Vec<LlmRequest>>,
}

impl ScriptedModel {
    /// A model named `scripted` answering with `turns` in order.
    pub fn new(turns: Vec<ScriptedTurn>) -> Self {
        ScriptedModel { name: "scripted".into(), turns: RefCell::new(turns.into()), requests: RefCell::new(Vec::new()) }
    }

    /// The same model under another name (what a request carries as `model`).
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_string();
        self
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<LlmRequest> {
        self.requests.lend().clone()
    }

    /// Turns not used yet.
    pub fn remaining(&self) -> usize {
        self.turns.lend().len()
    }
}

impl BaseLlm for ScriptedModel {
    fn model(&self) -> &str {
        &self.name
    }

    fn generate_content(
        &self,
        request: LlmRequest,
        stream: bool,
        _cancellation: Rc<Cancellation>,
    ) -> LlmResponseStream {
        let call = self.requests.lend().len() + 1;
        self.requests.lend_mut().push(request);
        let turn = self.turns.lend_mut().pop_front();
        let responses: Vec<Result<LlmResponse, AdkError>> = match turn {
            None => vec![Err(AdkError::new(
                ErrorCode::FailedPrecondition,
                format!("ScriptedModel: no scripted response left for call {call}"),
            ))],
            Some(ScriptedTurn::Response(r)) => vec![Ok(*r)],
            Some(ScriptedTurn::Chunks(chunks)) => {
                let mut agg = StreamingAggregator::new();
                let mut out: Vec<Result<LlmResponse, AdkError>> = Vec::new();
                for c in chunks {
                    let partial = agg.add(c);
                    if stream {
                        out.push(Ok(partial));
                    }
                }
                out.extend(agg.finish().map(Ok));
                out
            }
        };
        Box::pin(futures_util::stream::iter(responses))
    }
}
