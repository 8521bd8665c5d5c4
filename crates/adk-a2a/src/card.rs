//! Agent cards and the choice of the interface to talk to.
//!
//! A v1.0 card lists `supportedInterfaces` (url, binding, version); a v0.3 card has one `url` with
//! its `preferredTransport`, more in `additionalInterfaces`, and one `protocolVersion` for all.
//! a2a-sdk serves both shapes merged into one card, so both are read.

use crate::{AdkError, ErrorCode};
use adk_core::json;
use adk_core::types::JsonObject;

/// A protocol version this client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// 0.3 (`message/send`, `kind`-tagged objects).
    V0_3,
    /// 1.0 (`SendMessage`, proto JSON).
    V1_0,
}

impl ProtocolVersion {
    /// `"1.0"` or `"0.3"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V0_3 => "0.3",
            Self::V1_0 => "1.0",
        }
    }

    /// The version `text` names (`"1.0"`, `"1"`, `"0.3.0"`, …), if this client speaks it.
    pub fn parse(text: &str) -> Option<Self> {
        // Matched on bytes: `trim_start_matches` and `split` would each link a char searcher.
        let mut text = text.trim().as_bytes();
        while let [b'v' | b'V', rest @ ..] = text {
            text = rest;
        }
        match text {
            [b'1'] | [b'1', b'.', ..] => Some(Self::V1_0),
            [b'0', b'.', b'3'] | [b'0', b'.', b'3', b'.', ..] => Some(Self::V0_3),
            _ => None,
        }
    }
}

/// A protocol binding this client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP.
    JsonRpc,
    /// HTTP+JSON ("REST").
    HttpJson,
}

impl Binding {
    /// The card's spelling: `JSONRPC` or `HTTP+JSON`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::JsonRpc => "JSONRPC",
            Self::HttpJson => "HTTP+JSON",
        }
    }

    /// The binding `text` names (case-insensitive; `REST` is accepted for HTTP+JSON).
    pub fn parse(text: &str) -> Option<Self> {
        let is = |name: &str| text.trim().eq_ignore_ascii_case(name);
        match () {
            _ if is("JSONRPC") || is("JSON-RPC") => Some(Self::JsonRpc),
            _ if is("HTTP+JSON") || is("REST") => Some(Self::HttpJson),
            _ => None,
        }
    }
}

adk_core::json_struct! {
    /// One way to reach the agent (v1.0 `AgentInterface`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct AgentInterface {
        /// The endpoint.
        pub url: String => "url" req,
        /// `JSONRPC`, `HTTP+JSON`, `GRPC`, …
        pub protocol_binding: String => "protocolBinding" def,
        /// `1.0`, `0.3`, …
        pub protocol_version: String => "protocolVersion" def,
        /// The tenant every request to it names (v1.0); none when absent, null or empty.
        pub tenant: Option<String> => "tenant" opt,
        /// Keys this client does not model.
        pub extra: JsonObject => "" extra,
    }
}

adk_core::json_struct! {
    /// A v0.3 `additionalInterfaces` entry.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct V03Interface {
        /// The endpoint.
        pub url: String => "url" req,
        /// `JSONRPC`, `HTTP+JSON`, `GRPC`.
        pub transport: String => "transport" def,
    }
}

adk_core::json_struct! {
    /// What the agent can do.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct AgentCapabilities {
        /// It streams (`SendStreamingMessage`, `SubscribeToTask`).
        pub streaming: Option<bool> => "streaming" opt,
        /// It sends push notifications.
        pub push_notifications: Option<bool> => "pushNotifications" opt,
        /// Keys this client does not model (extensions, …).
        pub extra: JsonObject => "" extra,
    }
}

adk_core::json_struct! {
    /// A skill the agent advertises.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct AgentSkill {
        /// Unique within the card.
        pub id: String => "id" req,
        /// For people.
        pub name: String => "name" def,
        /// For people and models.
        pub description: String => "description" def,
        /// Keywords.
        pub tags: Vec<String> => "tags" def,
        /// Example prompts.
        pub examples: Vec<String> => "examples" nonempty,
        /// Keys this client does not model.
        pub extra: JsonObject => "" extra,
    }
}

adk_core::json_struct! {
    /// An agent's self-description, v1.0 and v0.3 keys read alike; unknown keys are kept.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct AgentCard {
        /// The agent's name.
        pub name: String => "name" req,
        /// What it does.
        pub description: String => "description" def,
        /// The agent's own version.
        pub version: String => "version" def,
        /// v1.0: every interface, in the agent's order of preference.
        pub supported_interfaces: Vec<AgentInterface> => "supportedInterfaces" nonempty,
        /// What it can do.
        pub capabilities: AgentCapabilities => "capabilities" def,
        /// Media types it accepts.
        pub default_input_modes: Vec<String> => "defaultInputModes" def,
        /// Media types it produces.
        pub default_output_modes: Vec<String> => "defaultOutputModes" def,
        /// Its skills.
        pub skills: Vec<AgentSkill> => "skills" def,
        /// v0.3: the main endpoint.
        pub url: Option<String> => "url" opt,
        /// v0.3: the main endpoint's binding (JSON-RPC when absent).
        pub preferred_transport: Option<String> => "preferredTransport" opt,
        /// v0.3: other endpoints.
        pub additional_interfaces: Vec<V03Interface> => "additionalInterfaces" nonempty,
        /// v0.3: the version of every v0.3 endpoint.
        pub protocol_version: Option<String> => "protocolVersion" opt,
        /// Keys this client does not model (provider, security schemes, signatures, …).
        pub extra: JsonObject => "" extra,
    }
}

/// The interface a client talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The URL.
    pub url: String,
    /// The binding.
    pub binding: Binding,
    /// The protocol version.
    pub version: ProtocolVersion,
    /// The tenant every request names, as a2a-sdk's client sends it: a member of a JSON-RPC
    /// request's parameters, the first segment of an HTTP+JSON path. Empty for none (and on 0.3,
    /// which has no tenants).
    pub tenant: String,
}

impl AgentCard {
    /// Parses a card from JSON text.
    pub fn from_json(text: &str) -> Result<Self, AdkError> {
        json::from_str("agent card", text)
    }

    /// Every interface of the card this client could use, v1.0 ones first, then those of the v0.3
    /// keys, each once, in the card's order.
    pub fn endpoints(&self) -> Vec<Endpoint> {
        let mut out: Vec<Endpoint> = Vec::new();
        // One adder for the three lists: a chain of iterators over them is more code.
        let mut add = |url: &str, binding: &str, version: &str, tenant: &str| {
            let (Some(binding), Some(version)) = (Binding::parse(binding), ProtocolVersion::parse(version)) else {
                return;
            };
            let tenant = if version == ProtocolVersion::V1_0 { tenant.to_string() } else { String::new() };
            let endpoint = Endpoint { url: url.to_string(), binding, version, tenant };
            if !url.is_empty() && !out.contains(&endpoint) {
                out.push(endpoint);
            }
        };
        for i in &self.supported_interfaces {
            // An empty version in a v1.0 list means the list's own version.
            let version = if i.protocol_version.is_empty() { "1.0" } else { &i.protocol_version };
            add(&i.url, &i.protocol_binding, version, i.tenant.as_deref().unwrap_or_default());
        }
        let v03_version = self.protocol_version.as_deref().unwrap_or("0.3");
        if let Some(url) = &self.url {
            add(url, self.preferred_transport.as_deref().unwrap_or("JSONRPC"), v03_version, "");
        }
        for i in &self.additional_interfaces {
            add(&i.url, &i.transport, v03_version, "");
        }
        out
    }

    /// The endpoint to use: the newest protocol version, then JSON-RPC over HTTP+JSON, then the
    /// card's order; `binding` and `version` restrict the choice when given.
    pub fn choose_endpoint(
        &self,
        binding: Option<Binding>,
        version: Option<ProtocolVersion>,
    ) -> Result<Endpoint, AdkError> {
        let all = self.endpoints();
        let rank = |e: &Endpoint| (std::cmp::Reverse(e.version), e.binding != Binding::JsonRpc);
        all.iter()
            .filter(|e| binding.is_none_or(|b| b == e.binding) && version.is_none_or(|v| v == e.version))
            .min_by_key(|e| rank(e))
            .cloned()
            .ok_or_else(|| {
                // Pieces pushed rather than a format! per interface and a join: less code.
                let mut offered = String::new();
                for e in &all {
                    let sep = if offered.is_empty() { "" } else { ", " };
                    for piece in [sep, e.binding.as_str(), " ", e.version.as_str(), " at ", &e.url] {
                        offered.push_str(piece);
                    }
                }
                let wanted = match (binding, version) {
                    (None, None) => String::new(),
                    _ => format!(
                        " matching {} {}",
                        binding.map_or("any binding", Binding::as_str),
                        version.map_or("any version", ProtocolVersion::as_str)
                    ),
                };
                if offered.is_empty() {
                    offered.push_str("none");
                }
                AdkError::new(
                    ErrorCode::Unimplemented,
                    format!("agent card of '{}' has no JSON-RPC or HTTP+JSON interface of protocol 1.0 or 0.3{wanted} (usable: {offered})", self.name),
                )
            })
    }
}

/// The URL of the card for `url`: a URL naming a `.json` file or a `/.well-known/` path is the
/// card itself; anything else is the agent's base URL.
pub fn card_url(url: &str) -> String {
    let end = adk_core::scan::find2(url.as_bytes(), b'?', b'#');
    let path = end.and_then(|end| url.get(..end)).unwrap_or(url);
    if path.ends_with(".json") || adk_core::scan::find(path.as_bytes(), b"/.well-known/").is_some() {
        url.to_string()
    } else {
        format!("{}/.well-known/agent-card.json", without_trailing_slashes(url))
    }
}

/// `url` without the `/`s it ends with (`trim_end_matches` would link a char searcher).
pub(crate) fn without_trailing_slashes(mut url: &str) -> &str {
    while let Some(rest) = url.strip_suffix('/') {
        url = rest;
    }
    url
}
