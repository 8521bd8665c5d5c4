//! [`ServerCall`]: one request to an ADK server, described before it is sent. Every endpoint is a
//! row of one table (its path, its body's members), and its arguments are one JSON object read in
//! place ([`Args`]): a JS caller's object, stringified, or a Rust caller's typed request, encoded.
//! The body is written from the members' own text, so nothing is decoded only to be encoded back.
//! The names a call is built from (app, user, session, artifact) must not be empty: an empty path
//! segment would address another endpoint (`…/sessions/` is the listing), so it is refused here,
//! before anything is sent.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use adk_core::http::encode_component;
use adk_core::json::{Digits, FromJson, JsonError, Kind, Reader, Writer};
use adk_core::{AdkError, Content, Part};

/// A future of the client's, boxed: every endpoint awaits the same one instead of its own copy.
pub type Pending<T> = Pin<Box<dyn Future<Output = Result<T, AdkError>>>>;

/// A request to an ADK server: the operation's name (for errors), method, path and JSON body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCall {
    /// The operation, as the JS method is named (`getSession`): errors start with it.
    pub op: &'static str,
    /// `GET`, `POST`, `PATCH` or `DELETE`.
    pub method: &'static str,
    /// The path below the base URL, segments encoded.
    pub path: String,
    /// The JSON body, if any.
    pub body: Option<String>,
    /// A `404` here means "there is none" (an artifact), not an error.
    pub absent_when_missing: bool,
}

/// One endpoint of the server (its JS method).
#[derive(Clone, Copy)]
pub struct Endpoint(&'static Spec);

/// What a body member must be, sent as the caller wrote it: a message or an artifact is checked
/// as the event model reads one; events to start a session with only to be objects (the server
/// reads them as it reads its own, assigning an id or a time missing).
#[derive(Clone, Copy)]
enum Check {
    Text,
    Flag,
    Object,
    Content,
    Part,
    Events,
}

/// One endpoint: the first `names` of [`NAMES`] are required, the first `depth` of them make the
/// path (then `tail`), and `body` lists the members its JSON body carries.
struct Spec {
    op: &'static str,
    method: &'static str,
    names: usize,
    depth: usize,
    tail: &'static str,
    body: &'static [Member],
    /// A `404` means there is no such artifact (or version); the only endpoint given a `version`.
    artifact: bool,
}

/// The names a path is built from, in the order a path nests them.
const NAMES: [&str; 4] = ["appName", "userId", "sessionId", "filename"];

const fn spec(op: &'static str, method: &'static str, names: usize, depth: usize, tail: &'static str) -> Spec {
    Spec { op, method, names, depth, tail, body: &[], artifact: false }
}

/// A member of a body: its key, what it must be, whether the call needs it.
struct Member(&'static str, Check, bool);

const fn opt(key: &'static str, check: Check) -> Member {
    Member(key, check, false)
}

const METADATA: Member = opt("customMetadata", Check::Object);

#[allow(missing_docs)] // each is the JS method of its `op`
impl Endpoint {
    pub const LIST_APPS: Endpoint = Endpoint(&spec("listApps", "GET", 0, 0, "/list-apps"));
    pub const GET_APP_INFO: Endpoint = Endpoint(&spec("getAppInfo", "GET", 1, 1, "/app-info"));
    pub const CREATE_SESSION: Endpoint = Endpoint(&Spec {
        body: &[
            opt("sessionId", Check::Text),
            opt("state", Check::Object),
            opt("events", Check::Events),
            opt("options", Check::Object),
        ],
        ..spec("createSession", "POST", 2, 2, "/sessions")
    });
    pub const GET_SESSION: Endpoint = Endpoint(&spec("getSession", "GET", 3, 3, ""));
    pub const LIST_SESSIONS: Endpoint = Endpoint(&spec("listSessions", "GET", 2, 2, "/sessions"));
    pub const DELETE_SESSION: Endpoint = Endpoint(&spec("deleteSession", "DELETE", 3, 3, ""));
    pub const UPDATE_SESSION: Endpoint = Endpoint(&Spec {
        body: &[Member("stateDelta", Check::Object, true)],
        ..spec("updateSession", "PATCH", 3, 3, "")
    });
    pub const LIST_ARTIFACT_NAMES: Endpoint = Endpoint(&spec("listArtifactNames", "GET", 3, 3, "/artifacts"));
    pub const LOAD_ARTIFACT: Endpoint = Endpoint(&Spec { artifact: true, ..spec("loadArtifact", "GET", 4, 4, "") });
    pub const LIST_ARTIFACT_VERSIONS: Endpoint = Endpoint(&spec("listArtifactVersions", "GET", 4, 4, "/versions"));
    pub const SAVE_ARTIFACT: Endpoint = Endpoint(&Spec {
        body: &[opt("filename", Check::Text), Member("artifact", Check::Part, true), METADATA],
        ..spec("saveArtifact", "POST", 4, 3, "/artifacts")
    });
    pub const DELETE_ARTIFACT: Endpoint = Endpoint(&spec("deleteArtifact", "DELETE", 4, 4, ""));
    pub const RUN: Endpoint = Endpoint(&Spec { body: RUN_REQUEST, ..spec("run", "POST", 3, 0, "/run") });
    pub const RUN_SSE: Endpoint = Endpoint(&Spec { body: RUN_REQUEST, ..spec("runSse", "POST", 3, 0, "/run_sse") });
}

/// The endpoints but the runs, numbered as `adk-server.js` calls them.
static NUMBERED: [Endpoint; 12] = [
    Endpoint::LIST_APPS,
    Endpoint::GET_APP_INFO,
    Endpoint::CREATE_SESSION,
    Endpoint::GET_SESSION,
    Endpoint::LIST_SESSIONS,
    Endpoint::DELETE_SESSION,
    Endpoint::UPDATE_SESSION,
    Endpoint::LIST_ARTIFACT_NAMES,
    Endpoint::LOAD_ARTIFACT,
    Endpoint::LIST_ARTIFACT_VERSIONS,
    Endpoint::SAVE_ARTIFACT,
    Endpoint::DELETE_ARTIFACT,
];

impl Endpoint {
    /// The endpoint of JS method number `n` (the runs have their own export).
    pub fn from_index(n: u8) -> Option<Endpoint> {
        NUMBERED.get(usize::from(n)).copied()
    }

    /// The operation, as the JS method is named.
    pub fn op(self) -> &'static str {
        self.0.op
    }

    fn spec(self) -> &'static Spec {
        self.0
    }
}

/// ADK's `RunAgentRequest`.
const RUN_REQUEST: &[Member] = &[
    opt("appName", Check::Text),
    opt("userId", Check::Text),
    opt("sessionId", Check::Text),
    opt("newMessage", Check::Content),
    opt("streaming", Check::Flag),
    opt("stateDelta", Check::Object),
    opt("invocationId", Check::Text),
    opt("functionCallEventId", Check::Text),
    METADATA,
    opt("serviceTier", Check::Text),
];

/// Passes over one event, checked only to be a JSON object (the server reads it as its own).
pub(crate) fn skip_object(r: &mut Reader<'_>) -> Result<(), JsonError> {
    match r.kind()? {
        Kind::Object => r.skip(),
        _ => Err(r.unexpected("an event (an object)")),
    }
}

/// An endpoint's arguments, read from one JSON object: the names its path needs (each a string,
/// present if required), an artifact's version, and its body's members as they were written
/// (each checked; `null` is none). Members the endpoint does not take are passed over.
pub struct Args<'a> {
    endpoint: Endpoint,
    names: [Option<Cow<'a, str>>; 4],
    version: Option<u64>,
    body: Vec<(&'static str, &'a str)>,
}

impl<'a> Args<'a> {
    /// Reads `text`, the arguments of `endpoint`. A value of the wrong kind, or a required one
    /// missing, is `INVALID_ARGUMENT` naming it.
    pub fn read(endpoint: Endpoint, text: &'a str) -> Result<Self, AdkError> {
        let spec = endpoint.spec();
        let mut args = Args { endpoint, names: Default::default(), version: None, body: Vec::new() };
        let mut r = Reader::text(text);
        r.object(|r, key| args.member(r, key)).and_then(|()| r.finish()).map_err(|e| e.into_adk(spec.op))?;
        let given = |key: &str| args.body.iter().any(|(k, _)| *k == key);
        let missing = NAMES.iter().zip(&args.names).take(spec.names).find_map(|(key, v)| v.is_none().then_some(*key));
        let missing = missing.or_else(|| {
            spec.body.iter().find_map(|Member(key, _, required)| (*required && !given(key)).then_some(*key))
        });
        match missing {
            Some(key) => Err(AdkError::invalid(format!("{}: {key} is required", spec.op))),
            None => Ok(args),
        }
    }

    fn member(&mut self, r: &mut Reader<'a>, key: &str) -> Result<(), JsonError> {
        let spec = self.endpoint.spec();
        if r.kind()? == Kind::Null {
            return r.skip();
        }
        let member = spec.body.iter().find(|m| m.0 == key);
        let name = NAMES.iter().position(|n| *n == key).filter(|i| *i < spec.names || member.is_some());
        if name.is_none() && member.is_none() {
            return match key == "version" && spec.depth == 4 {
                true => r.u64().map(|v| self.version = Some(v)),
                false => r.skip(),
            };
        }
        let (check, key) = match member {
            Some(Member(k, check, _)) => (*check, Some(*k)),
            None => (Check::Text, None),
        };
        let read = |r: &mut Reader<'a>| -> Result<Option<Cow<'a, str>>, JsonError> {
            match check {
                Check::Text => return r.str().map(Some),
                Check::Flag => drop(r.bool()?),
                Check::Object if r.kind()? != Kind::Object => return Err(r.unexpected("an object")),
                Check::Object => r.skip()?,
                Check::Content => drop(Content::read_json(r)?),
                Check::Part => drop(Part::read_json(r)?),
                Check::Events => r.array(skip_object)?,
            }
            Ok(None)
        };
        let (value, text) = r.with_text(read)?;
        if let Some(slot) = name.and_then(|i| self.names.get_mut(i)) {
            *slot = value;
        }
        if let (Some(key), Some(text)) = (key, text) {
            self.body.push((key, text));
        }
        Ok(())
    }

    fn name(&self, i: usize) -> &str {
        self.names.get(i).and_then(|name| name.as_deref()).unwrap_or_default()
    }
}

impl ServerCall {
    /// The call `args` describe, once its names are checked.
    pub fn new(args: &Args<'_>) -> Result<ServerCall, AdkError> {
        let spec = args.endpoint.spec();
        // A name given must name something: a required one, or createSession's own session id.
        let empty = NAMES.iter().zip(&args.names).enumerate().find(|(_, (_, v))| v.as_deref() == Some(""));
        if let Some((i, (name, _))) = empty {
            let what = match i < spec.names {
                true => name,
                false => "sessionId (or none, for the server to pick one)",
            };
            return Err(AdkError::invalid(format!("{}: {what} is required (an empty one names nothing)", spec.op)));
        }
        let mut path = String::new();
        for (i, prefix) in ["/apps/", "/users/", "/sessions/", "/artifacts/"].iter().enumerate().take(spec.depth) {
            path.push_str(prefix);
            path.push_str(&encode_component(args.name(i)));
        }
        path.push_str(spec.tail);
        if let (Some(version), true) = (args.version, spec.artifact) {
            path.push_str("?version=");
            path.push_str(Digits::new(version).as_str());
        }
        let body = (!spec.body.is_empty()).then(|| {
            let mut out = Writer::new();
            let mut object = out.object();
            for (key, text) in &args.body {
                object.raw(key, text);
            }
            object.end();
            out.into_string()
        });
        Ok(ServerCall { op: spec.op, method: spec.method, path, body, absent_when_missing: spec.artifact })
    }

    /// The arguments JSON of the path names `names` (in [`NAMES`]' order) and a `version`.
    pub(crate) fn names(names: &[&str], version: Option<u64>) -> String {
        let mut out = Writer::new();
        let mut object = out.object();
        for (key, value) in NAMES.iter().zip(names) {
            object.field(key, *value);
        }
        if let Some(version) = version {
            object.field("version", &version);
        }
        object.end();
        out.into_string()
    }

    /// The call of `endpoint` with the arguments `text` holds (see [`Args`]).
    pub fn of(endpoint: Endpoint, text: &str) -> Result<ServerCall, AdkError> {
        ServerCall::new(&Args::read(endpoint, text)?)
    }

    /// Whether this runs the agent with events streamed as they happen (`/run_sse`).
    pub fn streams(&self) -> bool {
        self.path == "/run_sse"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use adk_core::ErrorCode;

    fn call(endpoint: Endpoint, args: &str) -> Result<ServerCall, AdkError> {
        ServerCall::of(endpoint, args)
    }

    fn message(result: Result<ServerCall, AdkError>) -> String {
        let e = result.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{}", e.message);
        e.message
    }

    #[test]
    fn paths_nest_the_names_encoded() {
        let args = r#"{"appName":"a b","userId":"u/1","sessionId":"s\u00e9","filename":"f?","version":3}"#;
        let load = call(Endpoint::LOAD_ARTIFACT, args).unwrap();
        assert_eq!(load.path, "/apps/a%20b/users/u%2F1/sessions/s%C3%A9/artifacts/f%3F?version=3");
        assert!(load.absent_when_missing && load.body.is_none());
        assert_eq!(call(Endpoint::LIST_ARTIFACT_VERSIONS, args).unwrap().path.rsplit('/').next(), Some("versions"));
        assert_eq!(call(Endpoint::LIST_SESSIONS, args).unwrap().path, "/apps/a%20b/users/u%2F1/sessions");
        assert_eq!(call(Endpoint::GET_APP_INFO, args).unwrap().path, "/apps/a%20b/app-info");
        let delete = call(Endpoint::DELETE_ARTIFACT, args).unwrap();
        assert_eq!((delete.method, delete.absent_when_missing), ("DELETE", false));
        assert!(!delete.path.contains("version"));
        assert_eq!(call(Endpoint::LIST_APPS, "{}").unwrap().path, "/list-apps");
    }

    #[test]
    fn bodies_carry_the_members_as_written_and_nothing_else() {
        let args = r#"{"appName":"a","userId":"u","sessionId":"s","filename":"n.txt","extra":[1],
            "artifact":{"inlineData":{"mimeType":"text/plain","data":"aGk="}},"customMetadata":null}"#;
        let save = call(Endpoint::SAVE_ARTIFACT, args).unwrap();
        assert_eq!((save.method, save.path.as_str()), ("POST", "/apps/a/users/u/sessions/s/artifacts"));
        assert_eq!(
            save.body.as_deref(),
            Some(r#"{"filename":"n.txt","artifact":{"inlineData":{"mimeType":"text/plain","data":"aGk="}}}"#)
        );
        let run = r#"{"appName":"a","userId":"u","sessionId":"s","newMessage":{"role":"user","parts":[{"text":"hi"}]},"signal":{}}"#;
        let sse = call(Endpoint::RUN_SSE, run).unwrap();
        assert!(sse.streams() && sse.path == "/run_sse");
        let sent =
            r#"{"appName":"a","userId":"u","sessionId":"s","newMessage":{"role":"user","parts":[{"text":"hi"}]}}"#;
        assert_eq!(sse.body.as_deref(), Some(sent));
        assert_eq!(
            call(Endpoint::CREATE_SESSION, r#"{"appName":"a","userId":"u"}"#).unwrap().body.as_deref(),
            Some("{}")
        );
    }

    #[test]
    fn a_missing_or_empty_name_or_a_value_of_the_wrong_kind_is_refused() {
        assert_eq!(
            message(call(Endpoint::GET_SESSION, r#"{"appName":"a","userId":"u"}"#)),
            "getSession: sessionId is required"
        );
        assert_eq!(
            message(call(Endpoint::GET_SESSION, r#"{"appName":"a","userId":"u","sessionId":null}"#)),
            "getSession: sessionId is required"
        );
        assert_eq!(
            message(call(Endpoint::GET_SESSION, r#"{"appName":"a","userId":"","sessionId":"s"}"#)),
            "getSession: userId is required (an empty one names nothing)"
        );
        assert!(message(call(Endpoint::CREATE_SESSION, r#"{"appName":"a","userId":"u","sessionId":""}"#))
            .starts_with("createSession: sessionId (or none, for the server to pick one) is required"));
        assert_eq!(
            message(call(Endpoint::UPDATE_SESSION, r#"{"appName":"a","userId":"u","sessionId":"s"}"#)),
            "updateSession: stateDelta is required"
        );
        let wrong = [
            (Endpoint::LIST_SESSIONS, r#"{"appName":1,"userId":"u"}"#, "appName"),
            (Endpoint::UPDATE_SESSION, r#"{"appName":"a","userId":"u","sessionId":"s","stateDelta":[]}"#, "stateDelta"),
            (Endpoint::CREATE_SESSION, r#"{"appName":"a","userId":"u","events":[1]}"#, "events"),
            (
                Endpoint::LOAD_ARTIFACT,
                r#"{"appName":"a","userId":"u","sessionId":"s","filename":"f","version":-1}"#,
                "version",
            ),
            (
                Endpoint::RUN,
                r#"{"appName":"a","userId":"u","sessionId":"s","newMessage":{"parts":7}}"#,
                "newMessage.parts",
            ),
            (Endpoint::RUN, r#"{"appName":"a","userId":"u","sessionId":"s","streaming":"yes"}"#, "streaming"),
            (Endpoint::RUN_SSE, r#"{"appName":"a","userId":"u","sessionId":"s","serviceTier":1}"#, "serviceTier"),
            (Endpoint::CREATE_SESSION, r#"{"appName":"a","userId":"u","options":"ttl"}"#, "options"),
            (
                Endpoint::SAVE_ARTIFACT,
                r#"{"appName":"a","userId":"u","sessionId":"s","filename":"f","artifact":"x"}"#,
                "artifact",
            ),
            (Endpoint::GET_SESSION, "[]", "an object"),
        ];
        for (endpoint, args, named) in wrong {
            let text = message(call(endpoint, args));
            assert!(text.starts_with(&format!("invalid {}: ", endpoint.op())) && text.contains(named), "{text}");
        }
    }

    #[test]
    fn js_methods_are_numbered_in_the_order_of_adk_server_js() {
        let ops: Vec<&str> = (0..=12).filter_map(Endpoint::from_index).map(Endpoint::op).collect();
        let js = include_str!("../../../src/js/adk-server.js");
        let numbered: Vec<String> = ops.iter().map(|op| format!("{op}(")).collect();
        assert_eq!(ops.len(), 12);
        for (i, op) in numbered.iter().enumerate() {
            let line = js.lines().find(|l| l.trim_start().starts_with(op.as_str())).unwrap_or_default();
            assert!(line.contains(&format!("call({i}")), "{op} is not method {i}: {line}");
        }
    }
}
