//! ADK Python's session-service cases (tests/unittests/sessions/test_session_service.py), translated,
//! plus the scope-isolation and failure cases adk-wasm promises: run against the in-memory service,
//! and against the store-backed one (IndexedDB's logic) over the in-memory key-value store.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use adk_wasm::session::{
    stored, GetSessionConfig, InMemorySessionService, Session, SessionService, StoredSessionService,
};
use adk_wasm::store::InMemoryStore;
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{ErrorCode, Event};
use futures::executor::block_on;
use serde_json::{json, Value};

fn obj(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap()
}

fn text_event(delta: Value) -> Event {
    let mut e = Event::new("user");
    e.invocation_id = "invocation".into();
    e.content = Some(Content::user_text("text"));
    e.actions.state_delta = obj(delta);
    e
}

fn get(s: &dyn SessionService, app: &str, user: &str, id: &str) -> Option<Session> {
    block_on(s.get_session(app, user, id, None)).unwrap()
}

/// The cases, for the service `$service` makes.
macro_rules! session_cases {
    ($service:expr) => {
        #[test]
        fn test_get_empty_session() {
            let s = $service;
            assert!(get(&s, "my_app", "test_user", "123").is_none());
        }

        #[test]
        fn test_create_get_session() {
            let s = $service;
            let session = block_on(s.create_session("my_app", "test_user", Some(obj(json!({"key": "value"}))), None)).unwrap();
            assert_eq!((session.app_name.as_str(), session.user_id.as_str()), ("my_app", "test_user"));
            assert_eq!(session.id.len(), 36);
            assert_eq!(session.state, obj(json!({"key": "value"})));
            assert_eq!(get(&s, "my_app", "test_user", &session.id), Some(session.clone()));
            block_on(s.delete_session("my_app", "test_user", &session.id)).unwrap();
            assert!(get(&s, "my_app", "test_user", &session.id).is_none());
        }

        #[test]
        fn test_create_and_list_sessions() {
            let s = $service;
            let ids: Vec<String> = (0..5).map(|i| format!("session{i}")).collect();
            for id in &ids {
                block_on(s.create_session("my_app", "test_user", None, Some(id))).unwrap();
            }
            let listed = block_on(s.list_sessions("my_app", Some("test_user"))).unwrap();
            assert_eq!(listed.iter().map(|s| s.id.clone()).collect::<Vec<_>>(), ids);
            assert!(listed.iter().all(|s| s.events.is_empty()));
        }

        #[test]
        fn an_event_holding_a_value_as_deep_as_any_input_reads_back() {
            // A tool's result nested as deep as input may be at its own root (128 levels) lies six
            // levels deeper in the event: its stored text must still read back.
            let s = $service;
            let mut session = block_on(s.create_session("app", "u", None, Some("deep"))).unwrap();
            let mut deep = json!(1);
            for _ in 0..127 {
                deep = json!([deep]);
            }
            let mut event = Event::new("tool");
            event.content = Some(Content::new("user", vec![Part::from_function_response("f", obj(json!({"r": deep})))]));
            let stored = block_on(s.append_event(&mut session, event)).unwrap();
            assert_eq!(session.events[0], stored);
            assert_eq!(get(&s, "app", "u", "deep").unwrap().events[0], stored);
        }

        #[test]
        fn test_session_state() {
            let s = $service;
            let mut s11 =
                block_on(s.create_session("my_app", "user1", Some(obj(json!({"key11": "value11"}))), Some("session11")))
                    .unwrap();
            block_on(s.create_session("my_app", "user1", Some(obj(json!({"key12": "value12"}))), Some("session12"))).unwrap();
            block_on(s.create_session("my_app", "user2", None, Some("session2"))).unwrap();
            assert_eq!(s11.state["key11"], "value11");

            let event =
                text_event(json!({"app:key": "value", "user:key1": "value1", "temp:key": "temp", "key11": "value11_new"}));
            let stored = block_on(s.append_event(&mut s11, event)).unwrap();

            assert_eq!(s11.state["app:key"], "value");
            assert_eq!(s11.state["key11"], "value11_new");
            assert_eq!(s11.state["user:key1"], "value1");
            // ADK 1.39: temp keys stay on the caller's session for the rest of the invocation…
            assert_eq!(s11.state["temp:key"], "temp");
            // …but leave the stored event.
            assert!(!stored.actions.state_delta.contains_key("temp:key"));

            let s12 = get(&s, "my_app", "user1", "session12").unwrap();
            assert_eq!(s12.state["key12"], "value12");
            assert_eq!(s12.state["user:key1"], "value1");
            assert!(!s12.state.contains_key("temp:key"));

            let s2 = get(&s, "my_app", "user2", "session2").unwrap();
            assert_eq!(s2.state["app:key"], "value");
            assert!(!s2.state.contains_key("user:key1"));

            let s11 = get(&s, "my_app", "user1", "session11").unwrap();
            assert_eq!(s11.state["key11"], "value11_new");
            assert_eq!(s11.state["user:key1"], "value1");
            assert!(!s11.state.contains_key("temp:key"));
            assert!(!s11.events[0].actions.state_delta.contains_key("temp:key"));
        }

        #[test]
        fn test_create_new_session_will_merge_states() {
            let s = $service;
            let mut s1 =
                block_on(s.create_session("my_app", "user", Some(obj(json!({"key1": "value1"}))), Some("session1"))).unwrap();
            block_on(
                s.append_event(&mut s1, text_event(json!({"app:key": "value", "user:key1": "value1", "temp:key": "temp"}))),
            )
            .unwrap();
            assert_eq!(
                (s1.state["app:key"].clone(), s1.state["key1"].clone(), s1.state["user:key1"].clone()),
                (json!("value"), json!("value1"), json!("value1"))
            );
            let s2 = block_on(s.create_session("my_app", "user", Some(JsonObject::new()), Some("session2"))).unwrap();
            assert_eq!(s2.state["app:key"], "value");
            assert_eq!(s2.state["user:key1"], "value1");
            assert!(!s2.state.contains_key("key1") && !s2.state.contains_key("temp:key"));
        }

        #[test]
        fn test_append_event_bytes() {
            let s = $service;
            let mut session = block_on(s.create_session("my_app", "user", None, None)).unwrap();
            let content = Content::new("user", vec![Part::from_inline_data(b"test_image_data".to_vec(), "image/png")]);
            let mut event = Event::new("user");
            event.content = Some(content.clone());
            event.grounding_metadata = Some(obj(json!({"searchEntryPoint": {"sdkBlob": "dGVzdF9zZGtfYmxvYg=="}})));
            block_on(s.append_event(&mut session, event.clone())).unwrap();
            assert_eq!(session.events[0].content, Some(content.clone()));
            let session = get(&s, "my_app", "user", &session.id).unwrap();
            assert_eq!(session.events.len(), 1);
            assert_eq!(session.events[0].content, Some(content));
            assert_eq!(session.events[0].grounding_metadata, event.grounding_metadata);
        }

        #[test]
        fn test_append_event_complete() {
            let s = $service;
            let mut session = block_on(s.create_session("my_app", "user", None, None)).unwrap();
            let mut e = text_event(json!({}));
            e.turn_complete = Some(true);
            e.partial = Some(false);
            e.actions.artifact_delta.insert("file".into(), 0);
            e.actions.transfer_to_agent = Some("agent".into());
            e.actions.escalate = Some(true);
            e.long_running_tool_ids = Some(["tool1".to_string()].into());
            e.error_code = Some("error_code".into());
            e.error_message = Some("error_message".into());
            e.interrupted = Some(true);
            block_on(s.append_event(&mut session, e)).unwrap();
            assert_eq!(get(&s, "my_app", "user", &session.id), Some(session));
        }

        #[test]
        fn test_get_session_with_config() {
            let s = $service;
            let mut session = block_on(s.create_session("my_app", "user", None, None)).unwrap();
            for i in 1..=5 {
                let mut e = Event::new("user");
                e.timestamp = f64::from(i);
                block_on(s.append_event(&mut session, e)).unwrap();
            }
            let with = |config: GetSessionConfig| {
                block_on(s.get_session("my_app", "user", &session.id, Some(&config))).unwrap().unwrap().events
            };
            assert_eq!(get(&s, "my_app", "user", &session.id).unwrap().events.len(), 5);
            let recent = with(GetSessionConfig { num_recent_events: Some(3), after_timestamp: None });
            assert_eq!((recent.len(), recent[0].timestamp), (3, 3.0));
            let after = with(GetSessionConfig { num_recent_events: None, after_timestamp: Some(4.0) });
            assert_eq!((after.len(), after[0].timestamp), (2, 4.0));
            assert!(with(GetSessionConfig { num_recent_events: None, after_timestamp: Some(50.0) }).is_empty());
            assert_eq!(with(GetSessionConfig { num_recent_events: Some(3), after_timestamp: Some(4.0) }).len(), 2);
            assert!(with(GetSessionConfig { num_recent_events: Some(0), after_timestamp: None }).is_empty());
            assert_eq!(with(GetSessionConfig { num_recent_events: Some(99), after_timestamp: None }).len(), 5);
            // ADK 2.x: an after_timestamp of 0 is a filter too (1.x ignored falsy values).
            assert_eq!(with(GetSessionConfig { num_recent_events: None, after_timestamp: Some(0.0) }).len(), 5);
        }

        #[test]
        fn duplicate_id_is_already_exists_and_ids_are_stripped() {
            let s = $service;
            let created = block_on(s.create_session("app", "u", None, Some("  s1 "))).unwrap();
            assert_eq!(created.id, "s1");
            let err = block_on(s.create_session("app", "u", None, Some("s1"))).unwrap_err();
            assert_eq!(err.code, ErrorCode::AlreadyExists);
            assert!(get(&s, "app", "u", " s1").is_some());
            // A blank id gets a uuid4.
            assert_eq!(block_on(s.create_session("app", "u", None, Some("   "))).unwrap().id.len(), 36);
            // The same id is free for another user.
            assert!(block_on(s.create_session("app", "other", None, Some("s1"))).is_ok());
        }

        #[test]
        fn temp_keys_of_the_initial_state_are_never_stored() {
            let s = $service;
            let created = block_on(s.create_session("app", "u", Some(obj(json!({"temp:x": 1, "k": 2}))), Some("s"))).unwrap();
            assert_eq!(created.state, obj(json!({"k": 2})));
            assert_eq!(get(&s, "app", "u", "s").unwrap().state, obj(json!({"k": 2})));
        }

        #[test]
        fn partial_events_are_returned_and_not_stored() {
            let s = $service;
            let mut session = block_on(s.create_session("app", "u", None, None)).unwrap();
            let mut e = text_event(json!({"k": 1}));
            e.partial = Some(true);
            let back = block_on(s.append_event(&mut session, e.clone())).unwrap();
            assert_eq!(back, e);
            assert!(session.events.is_empty() && !session.state.contains_key("k"));
            assert!(get(&s, "app", "u", &session.id).unwrap().events.is_empty());
        }

        #[test]
        fn appending_to_a_missing_session_is_not_found_and_changes_nothing() {
            let s = $service;
            let mut session = block_on(s.create_session("app", "u", None, Some("s"))).unwrap();
            block_on(s.delete_session("app", "u", "s")).unwrap();
            let before = session.clone();
            let err = block_on(s.append_event(&mut session, text_event(json!({"app:k": 1})))).unwrap_err();
            assert_eq!(err.code, ErrorCode::NotFound);
            assert_eq!(session, before);
            let other = block_on(s.create_session("app", "u2", None, None)).unwrap();
            assert!(!other.state.contains_key("app:k"), "a refused event must not leak app state");
            // Deleting what is gone is a no-op.
            block_on(s.delete_session("app", "u", "s")).unwrap();
        }

        #[test]
        fn last_update_time_follows_the_event() {
            let s = $service;
            let mut session = block_on(s.create_session("app", "u", None, None)).unwrap();
            let mut e = Event::new("user");
            e.timestamp = 42.5;
            block_on(s.append_event(&mut session, e)).unwrap();
            assert_eq!(session.last_update_time, 42.5);
            assert_eq!(get(&s, "app", "u", &session.id).unwrap().last_update_time, 42.5);
        }

        #[test]
        fn isolation_between_users_and_apps() {
            let s = $service;
            let mut a = block_on(s.create_session("app1", "alice", None, Some("s"))).unwrap();
            block_on(s.append_event(&mut a, text_event(json!({"user:secret": "a", "app:motd": "hi"})))).unwrap();
            let bob = block_on(s.create_session("app1", "bob", None, Some("s"))).unwrap();
            assert!(!bob.state.contains_key("user:secret"));
            assert_eq!(bob.state["app:motd"], "hi");
            assert!(get(&s, "app1", "bob", "s").unwrap().events.is_empty(), "bob's session s is not alice's");
            let other_app = block_on(s.create_session("app2", "alice", None, None)).unwrap();
            assert!(!other_app.state.contains_key("app:motd") && !other_app.state.contains_key("user:secret"));
            assert_eq!(block_on(s.list_sessions("app1", Some("bob"))).unwrap().len(), 1);
            assert_eq!(block_on(s.list_sessions("app1", None)).unwrap().len(), 2);
            assert!(block_on(s.list_sessions("app3", None)).unwrap().is_empty());
        }
    };
}

mod in_memory {
    use super::*;

    session_cases!(InMemorySessionService::new());

    #[test]
    fn user_state_is_kept_apart_per_user() {
        let s = InMemorySessionService::new();
        let mut a = block_on(s.create_session("app1", "alice", None, Some("s"))).unwrap();
        block_on(s.append_event(&mut a, text_event(json!({"user:secret": "a", "app:motd": "hi"})))).unwrap();
        block_on(s.create_session("app1", "bob", None, Some("s"))).unwrap();
        assert_eq!(s.get_user_state("app1", "alice"), obj(json!({"secret": "a"})));
        assert!(s.get_user_state("app1", "bob").is_empty());
    }
}

mod stored_over_a_key_value_store {
    use super::*;

    session_cases!(StoredSessionService::new(InMemoryStore::new(stored::LAYOUT)));

    fn service() -> StoredSessionService<InMemoryStore> {
        StoredSessionService::new(InMemoryStore::new(stored::LAYOUT))
    }

    #[test]
    fn a_stale_copy_is_refused_and_nothing_is_written() {
        let s = service();
        let mut first = block_on(s.create_session("app", "u", None, Some("s"))).unwrap();
        let mut second = get(&s, "app", "u", "s").unwrap();
        let mut later = text_event(json!({"k": 1, "app:a": 1}));
        later.timestamp = first.last_update_time + 10.0;
        block_on(s.append_event(&mut first, later)).unwrap();
        let err = block_on(s.append_event(&mut second, text_event(json!({"k": 2, "user:b": 2})))).unwrap_err();
        assert_eq!(err.code, ErrorCode::FailedPrecondition);
        let stored = get(&s, "app", "u", "s").unwrap();
        assert_eq!((stored.events.len(), stored.state.clone()), (1, obj(json!({"k": 1, "app:a": 1}))));
        // Read again, it appends.
        let mut again = stored;
        block_on(s.append_event(&mut again, text_event(json!({"k": 3})))).unwrap();
        assert_eq!(get(&s, "app", "u", "s").unwrap().events.len(), 2);
    }

    #[test]
    fn events_are_numbered_and_the_last_ones_read_alone() {
        let s = service();
        let mut session = block_on(s.create_session("app", "u", None, Some("s"))).unwrap();
        for i in 0..70 {
            let mut e = text_event(json!({}));
            e.timestamp = 1000.0 + f64::from(i);
            block_on(s.append_event(&mut session, e)).unwrap();
        }
        let config = GetSessionConfig { num_recent_events: Some(3), after_timestamp: None };
        let last = block_on(s.get_session("app", "u", "s", Some(&config))).unwrap().unwrap();
        assert_eq!(last.events.iter().map(|e| e.timestamp).collect::<Vec<_>>(), vec![1067.0, 1068.0, 1069.0]);
        let config = GetSessionConfig { num_recent_events: None, after_timestamp: Some(1068.0) };
        let after = block_on(s.get_session("app", "u", "s", Some(&config))).unwrap().unwrap();
        assert_eq!(after.events.iter().map(|e| e.timestamp).collect::<Vec<_>>(), vec![1068.0, 1069.0]);
    }

    #[test]
    fn an_imported_session_reads_back_byte_for_byte_and_is_not_imported_twice() {
        let from = InMemorySessionService::new();
        let mut session =
            block_on(from.create_session("app", "u", Some(obj(json!({"app:x": 1, "user:y": 2, "z": 3}))), Some("s")))
                .unwrap();
        for i in 0..3 {
            block_on(from.append_event(&mut session, text_event(json!({ "n": i })))).unwrap();
        }
        let session = get(&from, "app", "u", "s").unwrap();
        let s = service();
        assert_eq!(block_on(s.import_session(&session)).unwrap(), "s");
        let back = get(&s, "app", "u", "s").unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), serde_json::to_string(&session).unwrap());
        assert_eq!(block_on(s.import_session(&session)).unwrap_err().code, ErrorCode::AlreadyExists);
    }
}
