//! What each operation sends and how its results read, per protocol version and binding. The
//! bindings ([`super::jsonrpc`], [`super::rest`]) only add their envelopes and URLs.

use adk_core::json;
use serde_json::Value;

use super::card::{Binding, ProtocolVersion};
use super::types::{ListTasksParams, SendMessageParams};
use super::v03::{self, to_json, Dialect};
use crate::{AdkError, ErrorCode};

/// An A2A operation with its parameters.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op<'a> {
    Send(&'a SendMessageParams),
    Stream(&'a SendMessageParams),
    GetTask { id: &'a str, history_length: Option<u32> },
    Cancel { id: &'a str },
    Subscribe { id: &'a str },
    List(&'a ListTasksParams),
}

/// A protocol version spoken over a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Codec {
    pub version: ProtocolVersion,
    pub binding: Binding,
}

impl Codec {
    /// `what` as an error names it: as the protocol in use does (`task`, `v0.3 task`).
    pub fn name(self, what: &str) -> String {
        match self.version {
            ProtocolVersion::V1_0 => what.to_string(),
            ProtocolVersion::V0_3 => format!("v0.3 {what}"),
        }
    }

    pub(crate) fn dialect(self) -> Option<Dialect> {
        match (self.version, self.binding) {
            (ProtocolVersion::V1_0, _) => None,
            (ProtocolVersion::V0_3, Binding::JsonRpc) => Some(Dialect::JsonRpc),
            (ProtocolVersion::V0_3, Binding::HttpJson) => Some(Dialect::Rest),
        }
    }

    /// The JSON parameters / body of `op` (JSON-RPC `params`; the HTTP+JSON body of the `POST`s).
    pub fn params(self, op: Op<'_>) -> Result<Value, AdkError> {
        Ok(match op {
            Op::Send(p) | Op::Stream(p) => self.send_params(p),
            Op::GetTask { id, history_length } => {
                let mut v = json::object([("id", id.into())]);
                if let (Some(n), Some(obj)) = (history_length, v.as_object_mut()) {
                    obj.insert("historyLength".into(), n.into());
                }
                v
            }
            Op::Cancel { id } | Op::Subscribe { id } => json::object([("id", id.into())]),
            Op::List(p) if self.version == ProtocolVersion::V1_0 => to_json(p),
            Op::List(_) => {
                return Err(AdkError::new(
                    ErrorCode::Unimplemented,
                    "ListTasks is not part of A2A protocol 0.3; the agent speaks 0.3 here",
                ))
            }
        })
    }

    fn send_params(self, p: &SendMessageParams) -> Value {
        let Some(dialect) = self.dialect() else { return to_json(p) };
        let mut v = json::object([("message", v03::message_to_v03(&p.message, dialect))]);
        let Some(obj) = v.as_object_mut() else { return v };
        if let Some(c) = &p.configuration {
            let mut config = serde_json::Map::new();
            if !c.accepted_output_modes.is_empty() {
                config.insert("acceptedOutputModes".into(), c.accepted_output_modes.clone().into());
            }
            if let Some(n) = c.history_length {
                config.insert("historyLength".into(), n.into());
            }
            // v0.3 asked the opposite question: wait for the task to end?
            if let Some(now) = c.return_immediately {
                config.insert("blocking".into(), (!now).into());
            }
            obj.insert("configuration".into(), config.into());
        }
        if let Some(m) = &p.metadata {
            obj.insert("metadata".into(), m.clone().into());
        }
        v
    }
}

/// A payload the agent sent that does not read as the protocol says: the agent's fault, not the caller's.
pub(crate) fn malformed(e: AdkError) -> AdkError {
    if e.code == ErrorCode::ResourceExhausted {
        return AdkError { message: format!("the agent's {}", e.message), ..e };
    }
    let detail = e.message.strip_prefix("invalid ").unwrap_or(&e.message);
    AdkError::new(ErrorCode::Internal, format!("the agent sent a malformed {detail}"))
}
