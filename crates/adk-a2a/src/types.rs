//! The A2A data model, spelled as protocol v1.0 spells it on the wire (the proto JSON mapping of
//! `a2a.proto`: camelCase fields, `ROLE_*` and `TASK_STATE_*` enum names, one key per `oneof`).
//! v0.3 payloads are translated to and from this model in [`super::v03`].

use std::borrow::Cow;

use serde_json::Value;

use adk_core::json::{FromJson, JsonEmpty, JsonError, Reader, ToJson, Writer};
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

        impl ToJson for $name {
            fn write_json(&self, w: &mut Writer) {
                w.str(self.as_str());
            }
        }

        impl FromJson for $name {
            fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
                Ok(Self::parse(&r.str()?))
            }
        }

        adk_core::serde_via_json!($name);
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

/// A part on the wire: the `oneof` as one of `text`, `raw`, `url`, `data`; the media type and file
/// name only when they say something.
impl ToJson for Part {
    fn write_json(&self, w: &mut Writer) {
        let mut object = w.object();
        match &self.content {
            PartContent::Text(t) => object.field("text", t),
            // A2A's bytes are proto JSON bytes: the standard alphabet (ADK's own JSON uses the URL-safe one).
            PartContent::Raw(b) => object.field("raw", &b.to_standard_base64()),
            PartContent::Url(u) => object.field("url", u),
            PartContent::Data(d) => object.field("data", d),
        };
        if let Some(metadata) = &self.metadata {
            object.field("metadata", metadata);
        }
        for (key, value) in [("filename", &self.filename), ("mediaType", &self.media_type)] {
            if !value.is_empty_json() {
                object.field(key, value);
            }
        }
        object.end();
    }
}

impl FromJson for Part {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        read_part(r).map(|part| part.unwrap_or_else(text_part))
    }
}

/// A part of plain `text` and nothing else (one instance for every caller; [`Part::text`] is generic).
pub(crate) fn text_part(text: Cow<'_, str>) -> Part {
    Part::new(PartContent::Text(text.into_owned()))
}

/// Reads a part; one of plain text and nothing else as `Err` of its text, borrowed from the JSON
/// where it has no escapes: most chunks of a stream are one, which the stream's skim keeps without
/// building a part.
pub(crate) fn read_part<'a>(r: &mut Reader<'a>) -> Result<Result<Part, Cow<'a, str>>, JsonError> {
    // The content (`None` for a text, kept apart), and how many came (no list: a part is read per
    // chunk of a stream).
    let (mut content, mut text, mut contents) = (None, None, 0);
    let (mut media_type, mut filename, mut metadata) = (None, None, None);
    r.object(|r, key| {
        let found = match key {
            // A null member is an absent one, as for every optional field.
            "text" if r.null()? => None,
            "text" => {
                text = Some(r.str()?);
                Some(None)
            }
            "raw" => Option::read_json(r)?.map(|raw| Some(PartContent::Raw(raw))),
            "url" => Option::read_json(r)?.map(|url| Some(PartContent::Url(url))),
            "data" => Option::<Value>::read_json(r)?.map(|data| Some(PartContent::Data(data))),
            "mediaType" => Option::<String>::read_json(r).map(|v| media_type = v).map(|()| None)?,
            "filename" => Option::<String>::read_json(r).map(|v| filename = v).map(|()| None)?,
            "metadata" => Option::<JsonObject>::read_json(r).map(|v| metadata = v).map(|()| None)?,
            _ => r.skip().map(|()| None)?,
        };
        if let Some(found) = found {
            contents += 1;
            content = found;
        }
        Ok(())
    })?;
    if contents != 1 {
        return Err(JsonError::data("a part needs exactly one of text, raw, url, data"));
    }
    let keep = |v: Option<String>| v.filter(|s| !s.is_empty());
    let (media_type, filename) = (keep(media_type), keep(filename));
    let content = match (content, text) {
        (Some(content), _) => content,
        (None, Some(text)) if media_type.is_none() && filename.is_none() && metadata.is_none() => return Ok(Err(text)),
        (None, text) => PartContent::Text(text.unwrap_or_default().into_owned()),
    };
    Ok(Ok(Part { content, media_type, filename, metadata }))
}

adk_core::serde_via_json!(Part);

adk_core::json_struct! {
    /// A message between the user and the agent.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Message {
        /// Unique per message, chosen by the sender.
        pub message_id: String => "messageId" req,
        /// The conversation it belongs to.
        pub context_id: Option<String> => "contextId" nonempty,
        /// The task it belongs to.
        pub task_id: Option<String> => "taskId" nonempty,
        /// Who sent it.
        pub role: Role => "role" def,
        /// The content.
        pub parts: Vec<Part> => "parts" def,
        /// Extension metadata.
        pub metadata: Option<JsonObject> => "metadata" opt,
        /// URIs of the extensions used.
        pub extensions: Vec<String> => "extensions" nonempty,
        /// Other tasks this message refers to.
        pub reference_task_ids: Vec<String> => "referenceTaskIds" nonempty,
    }
}

adk_core::json_struct! {
    /// A task's state, with the agent's latest word on it.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct TaskStatus {
        /// The state.
        pub state: TaskState => "state" def,
        /// A message from the agent about the state.
        pub message: Option<Message> => "message" opt,
        /// When the state was reached (RFC 3339).
        pub timestamp: Option<String> => "timestamp" opt,
    }
}

adk_core::json_struct! {
    /// An output of a task.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Artifact {
        /// Unique within the task.
        pub artifact_id: String => "artifactId" req,
        /// A name for people.
        pub name: Option<String> => "name" nonempty,
        /// A description for people.
        pub description: Option<String> => "description" nonempty,
        /// The content.
        pub parts: Vec<Part> => "parts" def,
        /// Extension metadata.
        pub metadata: Option<JsonObject> => "metadata" opt,
        /// URIs of the extensions used.
        pub extensions: Vec<String> => "extensions" nonempty,
    }
}

adk_core::json_struct! {
    /// A unit of work the agent does for the client.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Task {
        /// Chosen by the server.
        pub id: String => "id" req,
        /// The conversation it belongs to.
        pub context_id: String => "contextId" def,
        /// Where it is.
        pub status: TaskStatus => "status" def,
        /// What it produced so far.
        pub artifacts: Vec<Artifact> => "artifacts" nonempty,
        /// The messages exchanged.
        pub history: Vec<Message> => "history" nonempty,
        /// Extension metadata.
        pub metadata: Option<JsonObject> => "metadata" opt,
    }
}

adk_core::json_struct! {
    /// A task changed state.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct TaskStatusUpdateEvent {
        /// The task.
        pub task_id: String => "taskId" req,
        /// Its conversation.
        pub context_id: String => "contextId" def,
        /// The new status.
        pub status: TaskStatus => "status" def,
        /// Extension metadata.
        pub metadata: Option<JsonObject> => "metadata" opt,
        /// v0.3's `final` on a state that does not end a stream by itself: the server ends it after
        /// this update anyway. (v1.0 dropped the flag: there the state says it.) Not part of the
        /// v1.0 JSON.
        pub last: bool => "final" skip,
    }
}

adk_core::json_struct! {
    /// A task produced (a chunk of) an artifact.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct TaskArtifactUpdateEvent {
        /// The task.
        pub task_id: String => "taskId" req,
        /// Its conversation.
        pub context_id: String => "contextId" def,
        /// The artifact, or the chunk of it.
        pub artifact: Artifact => "artifact" req,
        /// The parts continue the artifact with this id; otherwise they replace it.
        pub append: bool => "append" nonempty,
        /// The artifact is complete.
        pub last_chunk: bool => "lastChunk" nonempty,
        /// Extension metadata.
        pub metadata: Option<JsonObject> => "metadata" opt,
    }
}

/// One event of a stream (and, restricted to `Task`/`Message`, the result of `SendMessage`).
#[derive(Debug, Clone, PartialEq)]
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

/// The `oneof` of a v1.0 stream response: an object with exactly one of these keys (a macro, so
/// that the messages are literals: no `format!` for a constant).
macro_rules! stream_keys {
    () => {
        "task, message, statusUpdate, artifactUpdate"
    };
}

impl FromJson for StreamResponse {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        one_of(r, |r, key| {
            Ok(Some(match key {
                "task" => StreamResponse::Task(Task::read_json(r)?),
                "message" => StreamResponse::Message(Message::read_json(r)?),
                "statusUpdate" => StreamResponse::StatusUpdate(TaskStatusUpdateEvent::read_json(r)?),
                "artifactUpdate" => StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::read_json(r)?),
                _ => return r.skip().map(|()| None),
            }))
        })
    }
}

/// Reads the `oneof` of a stream response: `read` reads the member `key` names, or skips it
/// (`None`); exactly one must be there.
pub(crate) fn one_of<'a, T>(
    r: &mut Reader<'a>,
    mut read: impl FnMut(&mut Reader<'a>, &str) -> Result<Option<T>, JsonError>,
) -> Result<T, JsonError> {
    let mut found = None;
    r.object(|r, key| match (read(r, key)?, &found) {
        (Some(_), Some(_)) => Err(JsonError::data(concat!("expected exactly one of ", stream_keys!()))),
        (Some(event), None) => {
            found = Some(event);
            Ok(())
        }
        (None, _) => Ok(()),
    })?;
    found.ok_or_else(|| JsonError::data(concat!("expected one of ", stream_keys!())))
}

impl ToJson for StreamResponse {
    fn write_json(&self, w: &mut Writer) {
        let mut object = w.object();
        match self {
            StreamResponse::Task(t) => object.field("task", t),
            StreamResponse::Message(m) => object.field("message", m),
            StreamResponse::StatusUpdate(e) => object.field("statusUpdate", e),
            StreamResponse::ArtifactUpdate(e) => object.field("artifactUpdate", e),
        };
        object.end();
    }
}

adk_core::serde_via_json!(StreamResponse);

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
#[derive(Debug, Clone, PartialEq)]
pub enum TaskOrMessage {
    /// The task the message started or continued.
    Task(Task),
    /// A direct answer.
    Message(Message),
}

impl ToJson for TaskOrMessage {
    fn write_json(&self, w: &mut Writer) {
        let mut object = w.object();
        match self {
            TaskOrMessage::Task(t) => object.field("task", t),
            TaskOrMessage::Message(m) => object.field("message", m),
        };
        object.end();
    }
}

adk_core::json_struct! {
    /// How the server should handle a sent message.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct SendMessageConfiguration {
        /// Media types the client accepts in the answer.
        pub accepted_output_modes: Vec<String> => "acceptedOutputModes" nonempty,
        /// How many history messages to return with the task.
        pub history_length: Option<u32> => "historyLength" opt,
        /// Answer as soon as the task exists instead of when it ends (v0.3: `blocking: false`).
        pub return_immediately: Option<bool> => "returnImmediately" opt,
    }
}

adk_core::json_struct! {
    /// The parameters of `SendMessage` / `SendStreamingMessage`.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct SendMessageParams {
        /// The message.
        pub message: Message => "message" req,
        /// How to handle it.
        pub configuration: Option<SendMessageConfiguration> => "configuration" opt,
        /// Extension metadata.
        pub metadata: Option<JsonObject> => "metadata" opt,
    }
}

adk_core::json_struct! {
    /// The filters of `ListTasks` (v1.0 only).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct ListTasksParams {
        /// Only tasks of this conversation.
        pub context_id: Option<String> => "contextId" opt,
        /// Only tasks in this state.
        pub status: Option<TaskState> => "status" opt,
        /// At most this many tasks.
        pub page_size: Option<u32> => "pageSize" opt,
        /// Where the previous page ended.
        pub page_token: Option<String> => "pageToken" opt,
        /// How many history messages per task.
        pub history_length: Option<u32> => "historyLength" opt,
        /// Only tasks whose status changed after this time (RFC 3339).
        pub status_timestamp_after: Option<String> => "statusTimestampAfter" opt,
        /// Whether to include the artifacts.
        pub include_artifacts: Option<bool> => "includeArtifacts" opt,
    }
}

adk_core::json_struct! {
    /// One page of `ListTasks`.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct ListTasksResponse {
        /// The tasks.
        pub tasks: Vec<Task> => "tasks" def,
        /// The token for the next page; empty on the last one.
        pub next_page_token: String => "nextPageToken" def,
        /// The page size used.
        pub page_size: u32 => "pageSize" def,
        /// How many tasks match in all.
        pub total_size: u32 => "totalSize" def,
    }
}
