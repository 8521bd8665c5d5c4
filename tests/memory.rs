//! ADK Python's in-memory memory cases (tests/unittests/memory/test_in_memory_memory_service.py),
//! translated: what ADK checks on its private store is checked here through searches. They run
//! against the in-memory service and against the store-backed one (IndexedDB's logic) over the
//! in-memory key-value store.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use adk_wasm::memory::{stored, InMemoryMemoryService, MemoryService, StoredMemoryService};
use adk_wasm::session::Session;
use adk_wasm::store::InMemoryStore;
use adk_wasm::types::Content;
use adk_wasm::Event;
use futures::executor::block_on;

const APP: &str = "test-app";
const USER: &str = "test-user";
const OTHER: &str = "another-user";

fn ev(id: &str, author: &str, ts: f64, text: Option<&str>) -> Event {
    let mut e = Event::new(author);
    e.id = id.into();
    e.timestamp = ts;
    e.content = text.map(|t| Content { parts: Some(vec![adk_wasm::Part::from_text(t)]), role: None });
    e
}

fn session(user: &str, id: &str, events: Vec<Event>) -> Session {
    Session {
        id: id.into(),
        app_name: APP.into(),
        user_id: user.into(),
        state: Default::default(),
        events: events.into(),
        last_update_time: 1000.0,
    }
}

fn session_1() -> Session {
    session(
        USER,
        "session-1",
        vec![
            ev("event-1a", "user", 12345.0, Some("The ADK is a great toolkit.")),
            ev("event-1b", "user", 12346.0, None),
            ev("event-1c", "model", 12347.0, Some("I agree. The Agent Development Kit (ADK) rocks!")),
        ],
    )
}

fn session_2() -> Session {
    session(USER, "session-2", vec![ev("event-2a", "user", 54321.0, Some("I like to code in Python."))])
}

fn search(m: &dyn MemoryService, user: &str, q: &str) -> Vec<String> {
    let r = block_on(m.search_memory(APP, user, q)).unwrap();
    r.memories.iter().map(|m| m.content.parts()[0].text.clone().unwrap()).collect()
}

fn ids(m: &dyn MemoryService, q: &str) -> Vec<String> {
    block_on(m.search_memory(APP, USER, q)).unwrap().memories.into_iter().map(|m| m.id.unwrap()).collect()
}

/// The cases, for the service `$service` makes.
macro_rules! memory_cases {
    ($service:expr) => {
        #[test]
        fn test_add_session_to_memory() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            // Both events with content are remembered, the empty one is not.
            assert_eq!(ids(&m, "ADK"), ["event-1a", "event-1c"]);
        }

        #[test]
        fn test_add_events_to_memory_with_explicit_events() {
            let m = $service;
            block_on(m.add_events_to_memory(APP, USER, &session_1().events.to_vec()[..1], Some("session-1"))).unwrap();
            assert_eq!(ids(&m, "ADK"), ["event-1a"]);
        }

        #[test]
        fn test_add_events_to_memory_without_session_id_uses_default_bucket() {
            let m = $service;
            block_on(m.add_events_to_memory(APP, USER, &session_1().events.to_vec()[..1], None)).unwrap();
            assert_eq!(ids(&m, "ADK"), ["event-1a"]);
        }

        #[test]
        fn test_add_events_to_memory_appends_without_replacing() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            block_on(m.add_events_to_memory(
                APP,
                USER,
                &[ev("event-1d", "user", 12348.0, Some("A new fact about ADK."))],
                Some("session-1"),
            ))
            .unwrap();
            assert_eq!(ids(&m, "ADK"), ["event-1a", "event-1c", "event-1d"]);
        }

        #[test]
        fn test_add_events_to_memory_deduplicates_event_ids() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            block_on(m.add_events_to_memory(
                APP,
                USER,
                &[ev("event-1a", "user", 12349.0, Some("Updated duplicate text about ADK."))],
                Some("session-1"),
            ))
            .unwrap();
            assert_eq!(
                search(&m, USER, "ADK"),
                ["The ADK is a great toolkit.", "I agree. The Agent Development Kit (ADK) rocks!"]
            );
        }

        #[test]
        fn test_add_session_with_no_events_to_memory() {
            let m = $service;
            block_on(m.add_session_to_memory(&session(USER, "session-4", vec![]))).unwrap();
            assert!(search(&m, USER, "anything").is_empty());
        }

        #[test]
        fn add_session_replaces_that_sessions_memories() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            block_on(m.add_session_to_memory(&session(
                USER,
                "session-1",
                vec![ev("x", "user", 1.0, Some("Only this now about ADK"))],
            )))
            .unwrap();
            assert_eq!(ids(&m, "ADK"), ["x"]);
        }

        #[test]
        fn test_search_memory_simple_match() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            block_on(m.add_session_to_memory(&session_2())).unwrap();
            let r = block_on(m.search_memory(APP, USER, "Python")).unwrap();
            assert_eq!(r.memories.len(), 1);
            assert_eq!(r.memories[0].content.parts()[0].text.as_deref(), Some("I like to code in Python."));
            assert_eq!(r.memories[0].author.as_deref(), Some("user"));
            assert_eq!(r.memories[0].timestamp.as_deref(), Some("1970-01-01T15:05:21+00:00"));
        }

        #[test]
        fn test_search_memory_case_insensitive_match() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            assert_eq!(search(&m, USER, "development"), ["I agree. The Agent Development Kit (ADK) rocks!"]);
        }

        #[test]
        fn test_search_memory_multiple_matches() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            assert_eq!(search(&m, USER, "How about ADK?").len(), 2);
        }

        #[test]
        fn test_search_memory_no_match() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            assert!(search(&m, USER, "nonexistent").is_empty());
        }

        #[test]
        fn test_search_memory_is_scoped_by_user() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            block_on(m.add_session_to_memory(&session(
                OTHER,
                "session-3",
                vec![ev("event-3a", "user", 60000.0, Some("This is a secret."))],
            )))
            .unwrap();
            assert!(search(&m, USER, "secret").is_empty());
            assert_eq!(search(&m, OTHER, "secret"), ["This is a secret."]);
        }

        #[test]
        fn test_search_memory_does_not_collide_on_slash_in_identifiers() {
            let m = $service;
            let mut s = session("user", "session-slashed-app", vec![ev("e", "user", 1.0, Some("This is a secret."))]);
            s.app_name = "app/other-user".into();
            block_on(m.add_session_to_memory(&s)).unwrap();
            assert!(block_on(m.search_memory("app", "other-user/user", "secret")).unwrap().memories.is_empty());
        }

        #[test]
        fn scoped_by_app() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_2())).unwrap();
            assert!(block_on(m.search_memory("other-app", USER, "Python")).unwrap().memories.is_empty());
        }

        #[test]
        fn test_search_memory_non_latin() {
            let nfd = |s: &str| -> String {
                use unicode_normalization::UnicodeNormalization;
                s.nfd().collect()
            };
            let cases: Vec<(String, String, usize)> = vec![
                ("私の名前は太郎です".into(), "太郎".into(), 1),
                ("私の名前は太郎です".into(), "天気".into(), 0),
                ("我喜欢机器学习".into(), "机器学习".into(), 1),
                ("我喜欢机器学习".into(), "天气预报".into(), 0),
                ("제 이름은 민수입니다".into(), "민수입니다".into(), 1),
                ("Меня зовут Алексей".into(), "Алексей".into(), 1),
                ("太郎 works at ABC Corp".into(), "太郎".into(), 1),
                ("太郎 works at ABC Corp".into(), "ABC".into(), 1),
                ("私はPythonでADKを使っています".into(), "Python".into(), 1),
                ("私はPythonでADKを使っています".into(), "adk".into(), 1),
                ("我用Python写代码".into(), "python".into(), 1),
                ("私はPythonでADKを使っています".into(), "使って".into(), 1),
                ("私はPythonでADKを使っています".into(), "Java".into(), 0),
                ("I like to code in Python.".into(), "thon".into(), 0),
                ("私はPythonでADKを使っています".into(), "thon".into(), 0),
                (nfd("私はCaféでADKを使っています"), "Café".into(), 1),
                (nfd("私はCaféでADKを使っています"), "café".into(), 1),
                (nfd("私はCaféでADKを使っています"), "Ruby".into(), 0),
                (nfd("Meet at the Café"), "Café".into(), 1),
                ("Meet at the Café".into(), nfd("Café"), 1),
                (nfd("プログラミングを学ぶ"), "プログラミング".into(), 1),
                (nfd("제 이름은 민수입니다"), "민수입니다".into(), 1),
            ];
            for (text, query, expected) in cases {
                let m = $service;
                block_on(m.add_session_to_memory(&session(
                    USER,
                    "session-i18n",
                    vec![ev("event-i18n", "user", 90000.0, Some(&text))],
                )))
                .unwrap();
                assert_eq!(search(&m, USER, &query).len(), expected, "{text:?} / {query:?}");
            }
        }

        #[test]
        fn korean_and_mixed_script_search() {
            let m = $service;
            block_on(m.add_session_to_memory(&session(
                USER,
                "ko",
                vec![
                    ev("a", "user", 1.0, Some("서울 날씨 알려줘")),
                    ev("b", "weather_agent", 2.0, Some("서울은 맑고 21°C입니다. 내일은 비가 옵니다.")),
                    ev("c", "user", 3.0, Some("ADK로 에이전트를 만들었어요")),
                    ev("d", "user", 4.0, Some("부산 여행 계획")),
                ],
            )))
            .unwrap();
            // Korean query words match inside longer Korean words (서울 in 서울은).
            assert_eq!(ids(&m, "서울 날씨"), ["a", "b"]);
            assert_eq!(ids(&m, "내일 비"), ["b"]);
            // A Latin word glued to Hangul is found on its own.
            assert_eq!(ids(&m, "adk 에이전트"), ["c"]);
            assert!(ids(&m, "도쿄").is_empty());
        }

        #[test]
        fn test_search_memory_ranks_by_number_of_matching_words() {
            let m = $service;
            block_on(m.add_session_to_memory(&session(
                USER,
                "session-ranked",
                vec![
                    ev("ranked-a", "user", 1.0, Some("The deploy is ready.")),
                    ev("ranked-b", "user", 1.0, Some("Ready.")),
                    ev("ranked-c", "user", 1.0, Some("The deploy status is ready.")),
                ],
            )))
            .unwrap();
            assert_eq!(
                search(&m, USER, "deploy status ready"),
                ["The deploy status is ready.", "The deploy is ready.", "Ready."]
            );
        }

        #[test]
        fn test_search_memory_returns_at_most_ten_memories() {
            let m = $service;
            let mut events: Vec<Event> =
                (0..20).map(|i| ev(&format!("note-{i}"), "user", 1.0, Some(&format!("note {i} about work")))).collect();
            events.push(ev("backlog", "user", 1.0, Some("the backlog note about work")));
            block_on(m.add_session_to_memory(&session(USER, "s", events))).unwrap();
            let found = ids(&m, "backlog note");
            assert_eq!(found.len(), 10);
            assert_eq!(found[0], "backlog");
            assert_eq!(found[1..], (0..9).map(|i| format!("note-{i}")).collect::<Vec<_>>()[..]);
        }

        #[test]
        fn deleted_memories_are_not_re_added() {
            let m = $service;
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            block_on(m.delete_memory(APP, USER, "event-1a")).unwrap();
            assert_eq!(ids(&m, "ADK"), ["event-1c"]);
            block_on(m.add_session_to_memory(&session_1())).unwrap();
            assert_eq!(ids(&m, "ADK"), ["event-1c"]);
        }
    };
}

mod in_memory {
    use super::*;

    memory_cases!(InMemoryMemoryService::new());
}

mod stored_over_a_key_value_store {
    use super::*;

    memory_cases!(StoredMemoryService::new(InMemoryStore::new(stored::LAYOUT)));
}
