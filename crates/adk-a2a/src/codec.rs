//! What each operation sends and how its results read, per protocol version and binding. The
//! bindings ([`super::jsonrpc`], [`super::rest`]) only add their envelopes and URLs.

use adk_core::json::{ToJson, Writer};

use super::card::{Binding, Endpoint, ProtocolVersion};
use super::types::{ListTasksParams, SendMessageParams};
use super::v03::{self, Dialect};
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
    /// What `endpoint` speaks.
    pub fn of(endpoint: &Endpoint) -> Codec {
        Codec { version: endpoint.version, binding: endpoint.binding }
    }

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

    /// The JSON text of the parameters / body of `op` (JSON-RPC `params`; the HTTP+JSON body of
    /// the `POST`s).
    pub fn params(self, op: Op<'_>) -> Result<String, AdkError> {
        let mut w = Writer::new();
        match op {
            Op::Send(p) | Op::Stream(p) => match self.dialect() {
                Some(dialect) => send_params_v03(p, dialect, &mut w),
                None => p.write_json(&mut w),
            },
            Op::GetTask { id, history_length } => {
                let mut o = w.object();
                o.field("id", id);
                if let Some(n) = history_length {
                    o.field("historyLength", &n);
                }
                o.end();
            }
            Op::Cancel { id } | Op::Subscribe { id } => {
                let mut o = w.object();
                o.field("id", id);
                o.end();
            }
            Op::List(p) if self.version == ProtocolVersion::V1_0 => p.write_json(&mut w),
            Op::List(_) => {
                return Err(AdkError::new(
                    ErrorCode::Unimplemented,
                    "ListTasks is not part of A2A protocol 0.3; the agent speaks 0.3 here",
                ))
            }
        }
        Ok(w.into_string())
    }
}

/// The v0.3 `message/send` parameters: v0.3's message, and a configuration asking the opposite
/// question (wait for the task to end?).
fn send_params_v03(p: &SendMessageParams, dialect: Dialect, w: &mut Writer) {
    let mut o = w.object();
    o.field("message", &v03::message_to_v03(&p.message, dialect));
    if let Some(c) = &p.configuration {
        o.field_with("configuration", |w| {
            let mut config = w.object();
            if !c.accepted_output_modes.is_empty() {
                config.field("acceptedOutputModes", &c.accepted_output_modes);
            }
            if let Some(n) = c.history_length {
                config.field("historyLength", &n);
            }
            if let Some(now) = c.return_immediately {
                config.field("blocking", &!now);
            }
            config.end();
        });
    }
    if let Some(m) = &p.metadata {
        o.field("metadata", m);
    }
    o.end();
}

/// A payload the agent sent that does not read as the protocol says: the agent's fault, not the caller's.
pub(crate) fn malformed(e: AdkError) -> AdkError {
    if e.code == ErrorCode::ResourceExhausted {
        return AdkError { message: format!("the agent's {}", e.message), ..e };
    }
    let detail = e.message.strip_prefix("invalid ").unwrap_or(&e.message);
    AdkError::new(ErrorCode::Internal, format!("the agent sent a malformed {detail}"))
}
