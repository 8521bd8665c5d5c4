//! The A2A data model, spelled as protocol v1.0 spells it on the wire (the proto JSON mapping of
//! `a2a.proto`: camelCase fields, `ROLE_*` and `TASK_STATE_*` enum names, one key per `oneof`).
//! v0.3 payloads are translated to and from this model in [`super::v03`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use adk_core::types::{Bytes, JsonObject};

/// Declares a proto enum carried as its name, keeping names this version does not know.
macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $wire:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
            /// A name this client does not know, kept as sent.
            Other(String),
        }

        impl $name {
            /// The wire name.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)*
                    Self::Other(name) => name,
                }
            }

            /// The value named `name`.
            pub fn parse(name: &str) -> Self {
                match name {
                    $($wire => Self::$variant,)*
                    other => Self::Other(other.to_string()),
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                Ok(Self::parse(&std::borrow::Cow::<str>::deserialize(d)?))
            }
        }
    };
}

wire_enum! {
    /// Who sent a message.
    Role {
        /// Not set.
        #[default]
        Unspecified = "ROLE_UNSPECIFIED",
        /// The client side.
        User = "ROLE_USER",
        /// The remote agent.
        Agent = "ROLE_AGENT",
    }
}

wire_enum! {
    /// Where a task is in its life.
    TaskState {
        /// Not set.
        #[default]
        Unspecified = "TASK_STATE_UNSPECIFIED",
        /// Accepted, not started.
        Submitted = "TASK_STATE_SUBMITTED",
        /// Being worked on.
        Working = "TASK_STATE_WORKING",
        /// Done (terminal).
        Completed = "TASK_STATE_COMPLETED",
        /// Failed (terminal).
        Failed = "TASK_STATE_FAILED",
        /// Canceled (terminal).
        Canceled = "TASK_STATE_CANCELED",
        /// Waiting for the user (interrupted).
        InputRequired = "TASK_STATE_INPUT_REQUIRED",
        /// Refused by the agent (terminal).
        Rejected = "TASK_STATE_REJECTED",
        /// Waiting for authentication (interrupted).
        AuthRequired = "TASK_STATE_AUTH_REQUIRED",
    }
}

impl TaskState {
    /// Whether nothing more will happen to the task.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Canceled | Self::Rejected)
    }

    /// Whether the task waits for the client (input or authentication) before going on.
    pub fn is_interrupted(&self) -> bool {
        matches!(self, Self::InputRequired | Self::AuthRequired)
    }

    /// Whether a stream about the task ends here: terminal or interrupted.
    pub fn ends_stream(&self) -> bool {
        self.is_terminal() || self.is_interrupted()
    }
}

/// What a part carries: exactly one of these.
#[derive(Debug, Clone, PartialEq)]
pub enum PartContent {
    /// Text.
    Text(String),
    /// Inline bytes (`raw`, base64 on the wire).
    Raw(Bytes),
    /// A file by reference (`url`).
    Url(String),
    /// Structured data (`data`, any JSON value).
    Data(Value),
}

/// One piece of a message or an artifact.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The content.
    pub content: PartContent,
    /// The IANA media type, e.g. `image/png`.
    pub media_type: Option<String>,
    /// A file name.
    pub filename: Option<String>,
    /// Extension metadata.
    pub metadata: Option<JsonObject>,
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(PartContent::Text(text.into()))
    }

    /// A part with `content` and nothing else.
    pub fn new(content: PartContent) -> Self {
        Part { content, media_type: None, filename: None, metadata: None }
    }

    /// The text, if this is a text part.
    pub fn as_text(&self) -> Option<&str> {
        match &self.content {
            PartContent::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// Part as it is on the wire: the `oneof` flattened into optional keys.
#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct WirePart {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "standard_base64")]
    raw: Option<Bytes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<JsonObject>,
    #[serde(default, skip_serializing_if = "non_empty_none")]
    filename: Option<String>,
    #[serde(default, skip_serializing_if = "non_empty_none")]
    media_type: Option<String>,
}

/// A2A's bytes are proto JSON bytes: the standard alphabet (ADK's own JSON uses the URL-safe one).
fn standard_base64<S: Serializer>(raw: &Option<Bytes>, s: S) -> Result<S::Ok, S::Error> {
    match raw {
        Some(bytes) => s.serialize_str(&bytes.to_standard_base64()),
        None => s.serialize_none(),
    }
}

fn non_empty_none(v: &Option<String>) -> bool {
    v.as_deref().is_none_or(str::is_empty)
}

impl Serialize for Part {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut wire = WirePart {
            metadata: self.metadata.clone(),
            filename: self.filename.clone(),
            media_type: self.media_type.clone(),
            ..Default::default()
        };
        match &self.content {
            PartContent::Text(t) => wire.text = Some(t.clone()),
            PartContent::Raw(b) => wire.raw = Some(b.clone()),
            PartContent::Url(u) => wire.url = Some(u.clone()),
            PartContent::Data(d) => wire.data = Some(d.clone()),
        }
        wire.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = WirePart::deserialize(d)?;
        let content = match (w.text, w.raw, w.url, w.data) {
            (Some(t), None, None, None) => PartContent::Text(t),
            (None, Some(b), None, None) => PartContent::Raw(b),
            (None, None, Some(u), None) => PartContent::Url(u),
            (None, None, None, Some(v)) => PartContent::Data(v),
            _ => return Err(serde::de::Error::custom("a part needs exactly one of text, raw, url, data")),
        };
        let keep = |v: Option<String>| v.filter(|s| !s.is_empty());
        Ok(Part { content, media_type: keep(w.media_type), filename: keep(w.filename), metadata: w.metadata })
    }
}

/// A message between the user and the agent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// Unique per message, chosen by the sender.
    pub message_id: String,
    /// The conversation it belongs to.
    #[serde(default, skip_serializing_if = "non_empty_none")]
    pub context_id: Option<String>,
    /// The task it belongs to.
    #[serde(default, skip_serializing_if = "non_empty_none")]
    pub task_id: Option<String>,
    /// Who sent it.
    #[serde(default)]
    pub role: Role,
    /// The content.
    #[serde(default)]
    pub parts: Vec<Part>,
    /// Extension metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// URIs of the extensions used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
    /// Other tasks this message refers to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_task_ids: Vec<String>,
}

/// A task's state, with the agent's latest word on it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskStatus {
    /// The state.
    #[serde(default)]
    pub state: TaskState,
    /// A message from the agent about the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// When the state was reached (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// An output of a task.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    /// Unique within the task.
    pub artifact_id: String,
    /// A name for people.
    #[serde(default, skip_serializing_if = "non_empty_none")]
    pub name: Option<String>,
    /// A description for people.
    #[serde(default, skip_serializing_if = "non_empty_none")]
    pub description: Option<String>,
    /// The content.
    #[serde(default)]
    pub parts: Vec<Part>,
    /// Extension metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// URIs of the extensions used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
}

/// A unit of work the agent does for the client.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// Chosen by the server.
    pub id: String,
    /// The conversation it belongs to.
    #[serde(default)]
    pub context_id: String,
    /// Where it is.
    #[serde(default)]
    pub status: TaskStatus,
    /// What it produced so far.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<Artifact>,
    /// The messages exchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Message>,
    /// Extension metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
}

/// A task changed state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskStatusUpdateEvent {
    /// The task.
    pub task_id: String,
    /// Its conversation.
    #[serde(default)]
    pub context_id: String,
    /// The new status.
    #[serde(default)]
    pub status: TaskStatus,
    /// Extension metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// v0.3's `final` on a state that does not end a stream by itself: the server ends it after this
    /// update anyway. (v1.0 dropped the flag: there the state says it.) Not part of the v1.0 JSON.
    #[serde(skip)]
    pub last: bool,
}

/// A task produced (a chunk of) an artifact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskArtifactUpdateEvent {
    /// The task.
    pub task_id: String,
    /// Its conversation.
    #[serde(default)]
    pub context_id: String,
    /// The artifact, or the chunk of it.
    pub artifact: Artifact,
    /// The parts continue the artifact with this id; otherwise they replace it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub append: bool,
    /// The artifact is complete.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_chunk: bool,
    /// Extension metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
}

/// One event of a stream (and, restricted to `Task`/`Message`, the result of `SendMessage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StreamResponse {
    /// The task as it is now.
    Task(Task),
    /// A message (a direct answer, without a task).
    Message(Message),
    /// A status change.
    StatusUpdate(TaskStatusUpdateEvent),
    /// An artifact (chunk).
    ArtifactUpdate(TaskArtifactUpdateEvent),
}

impl StreamResponse {
    /// The task this event is about, if any.
    pub fn task_id(&self) -> Option<&str> {
        match self {
            Self::Task(t) => Some(t.id.as_str()),
            Self::Message(m) => m.task_id.as_deref(),
            Self::StatusUpdate(e) => Some(e.task_id.as_str()),
            Self::ArtifactUpdate(e) => Some(e.task_id.as_str()),
        }
        .filter(|id| !id.is_empty())
    }
}

/// What `SendMessage` returns: a task, or a direct message.
#[allow(clippy::large_enum_variant)] // one per call, moved once: boxing would only add noise
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskOrMessage {
    /// The task the message started or continued.
    Task(Task),
    /// A direct answer.
    Message(Message),
}

/// How the server should handle a sent message.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageConfiguration {
    /// Media types the client accepts in the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted_output_modes: Vec<String>,
    /// How many history messages to return with the task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<u32>,
    /// Answer as soon as the task exists instead of when it ends (v0.3: `blocking: false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_immediately: Option<bool>,
}

/// The parameters of `SendMessage` / `SendStreamingMessage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageParams {
    /// The message.
    pub message: Message,
    /// How to handle it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<SendMessageConfiguration>,
    /// Extension metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
}

/// The filters of `ListTasks` (v1.0 only).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksParams {
    /// Only tasks of this conversation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    /// Only tasks in this state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TaskState>,
    /// At most this many tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<u32>,
    /// Where the previous page ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_token: Option<String>,
    /// How many history messages per task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<u32>,
    /// Only tasks whose status changed after this time (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_timestamp_after: Option<String>,
    /// Whether to include the artifacts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_artifacts: Option<bool>,
}

/// One page of `ListTasks`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksResponse {
    /// The tasks.
    #[serde(default)]
    pub tasks: Vec<Task>,
    /// The token for the next page; empty on the last one.
    #[serde(default)]
    pub next_page_token: String,
    /// The page size used.
    #[serde(default)]
    pub page_size: u32,
    /// How many tasks match in all.
    #[serde(default)]
    pub total_size: u32,
}
