//! ADK Python's artifact-service cases (tests/unittests/artifacts/test_artifact_service.py),
//! translated, plus user namespace, metadata, isolation and unsafe names: run against the in-memory
//! service and against the store-backed one (IndexedDB's logic) over the in-memory key-value store.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

use adk_wasm::artifact::{stored, ArtifactKey, ArtifactService, InMemoryArtifactService, StoredArtifactService};
use adk_wasm::store::InMemoryStore;
use adk_wasm::types::{FileData, Part};
use adk_wasm::ErrorCode;
use futures::executor::block_on;
use serde_json::json;

fn key<'a>(session: Option<&'a str>, filename: &'a str) -> ArtifactKey<'a> {
    ArtifactKey { app_name: "app0", user_id: "user0", session_id: session, filename }
}

fn blob(data: &[u8]) -> Part {
    Part::from_inline_data(data.to_vec(), "text/plain")
}

/// The cases, for the service `$service` makes.
macro_rules! artifact_cases {
    ($service:expr) => {
        #[test]
        fn test_load_empty() {
            let a = $service;
            assert!(block_on(a.load_artifact(key(Some("123"), "filename"), None)).unwrap().is_none());
        }

        #[test]
        fn test_save_load_delete() {
            let a = $service;
            let artifact = blob(b"test_data");
            assert_eq!(block_on(a.save_artifact(key(Some("123"), "file456"), artifact.clone(), None)).unwrap(), 0);
            assert_eq!(block_on(a.load_artifact(key(Some("123"), "file456"), None)).unwrap(), Some(artifact));
            block_on(a.delete_artifact(key(Some("123"), "file456"))).unwrap();
            assert!(block_on(a.load_artifact(key(Some("123"), "file456"), None)).unwrap().is_none());
            // Deleting again is a no-op.
            block_on(a.delete_artifact(key(Some("123"), "file456"))).unwrap();
        }

        #[test]
        fn test_list_keys() {
            let a = $service;
            let names: Vec<String> = (0..5).map(|i| format!("filename_{i}")).collect();
            for n in &names {
                block_on(a.save_artifact(key(Some("123"), n), blob(b"test_data"), None)).unwrap();
            }
            assert_eq!(block_on(a.list_artifact_keys("app0", "user0", Some("123"))).unwrap(), names);
        }

        #[test]
        fn test_list_versions() {
            let a = $service;
            let versions: Vec<Part> = (0..3).map(|i| blob(format!("test_data_{i}").as_bytes())).collect();
            for (i, v) in versions.iter().enumerate() {
                assert_eq!(
                    block_on(a.save_artifact(key(Some("123"), "with/slash/filename"), v.clone(), None)).unwrap(),
                    i as u64
                );
            }
            assert_eq!(block_on(a.list_versions(key(Some("123"), "with/slash/filename"))).unwrap(), [0, 1, 2]);
            for (i, v) in versions.iter().enumerate() {
                assert_eq!(
                    block_on(a.load_artifact(key(Some("123"), "with/slash/filename"), Some(i as u64))).unwrap().as_ref(),
                    Some(v)
                );
            }
            assert_eq!(
                block_on(a.load_artifact(key(Some("123"), "with/slash/filename"), None)).unwrap().as_ref(),
                versions.last()
            );
            assert!(block_on(a.load_artifact(key(Some("123"), "with/slash/filename"), Some(3))).unwrap().is_none());
        }

        #[test]
        fn user_namespace_is_shared_across_sessions_and_listed_with_session_keys() {
            let a = $service;
            block_on(a.save_artifact(
                key(Some("s1"), "user:avatar.png"),
                Part::from_inline_data(vec![1, 2], "image/png"),
                None,
            ))
            .unwrap();
            block_on(a.save_artifact(key(Some("s1"), "b.txt"), Part::from_text("b"), None)).unwrap();
            block_on(a.save_artifact(key(Some("s2"), "a.txt"), Part::from_text("a"), None)).unwrap();
            assert!(block_on(a.load_artifact(key(Some("s2"), "user:avatar.png"), None)).unwrap().is_some());
            assert!(block_on(a.load_artifact(key(None, "user:avatar.png"), None)).unwrap().is_some());
            assert_eq!(block_on(a.list_artifact_keys("app0", "user0", Some("s1"))).unwrap(), ["b.txt", "user:avatar.png"]);
            assert_eq!(block_on(a.list_artifact_keys("app0", "user0", Some("s2"))).unwrap(), ["a.txt", "user:avatar.png"]);
            assert_eq!(block_on(a.list_artifact_keys("app0", "user0", None)).unwrap(), ["user:avatar.png"]);
        }

        #[test]
        fn version_metadata() {
            let a = $service;
            block_on(a.save_artifact(
                key(Some("s"), "img"),
                Part::from_inline_data(vec![1], "image/png"),
                Some(json!({"k": 1}).as_object().cloned().unwrap()),
            ))
            .unwrap();
            block_on(a.save_artifact(key(Some("s"), "img"), Part::from_text("now text"), None)).unwrap();
            let file = Part {
                file_data: Some(FileData {
                    file_uri: Some("gs://b/f.pdf".into()),
                    mime_type: Some("application/pdf".into()),
                    display_name: None,
                }),
                ..Default::default()
            };
            block_on(a.save_artifact(key(Some("s"), "img"), file, None)).unwrap();
            let versions = block_on(a.list_artifact_versions(key(Some("s"), "img"))).unwrap();
            let mimes: Vec<_> = versions.iter().map(|v| v.mime_type.as_deref()).collect();
            assert_eq!(mimes, [Some("image/png"), Some("text/plain"), Some("application/pdf")]);
            assert_eq!(versions[0].custom_metadata["k"], 1);
            assert_eq!(versions[1].canonical_uri, "memory://apps/app0/users/user0/sessions/s/artifacts/img/versions/1");
            assert_eq!(block_on(a.get_artifact_version(key(Some("s"), "img"), None)).unwrap().unwrap().version, 2);
            assert!(block_on(a.get_artifact_version(key(Some("s"), "img"), Some(9))).unwrap().is_none());
            let err = block_on(a.save_artifact(key(Some("s"), "empty"), Part::default(), None)).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidArgument);
            assert!(block_on(a.list_versions(key(Some("s"), "empty"))).unwrap().is_empty(), "a refused save stores nothing");
        }

        #[test]
        fn isolation_between_users_apps_and_sessions() {
            let a = $service;
            block_on(a.save_artifact(key(Some("s"), "f"), Part::from_text("x"), None)).unwrap();
            block_on(a.save_artifact(key(Some("s"), "user:u"), Part::from_text("x"), None)).unwrap();
            let other_user = ArtifactKey { user_id: "user1", ..key(Some("s"), "f") };
            let other_app = ArtifactKey { app_name: "app1", ..key(Some("s"), "user:u") };
            assert!(block_on(a.load_artifact(other_user, None)).unwrap().is_none());
            assert!(block_on(a.load_artifact(ArtifactKey { filename: "user:u", ..other_user }, None)).unwrap().is_none());
            assert!(block_on(a.load_artifact(other_app, None)).unwrap().is_none());
            assert!(block_on(a.load_artifact(key(Some("s2"), "f"), None)).unwrap().is_none());
            assert!(block_on(a.list_artifact_keys("app0", "user1", Some("s"))).unwrap().is_empty());
        }

        #[test]
        fn unsafe_names_are_invalid_argument() {
            let a = $service;
            let bad = [
                key(Some("s"), ""),
                key(Some("s"), "../escape"),
                key(Some("s"), "/abs"),
                key(Some("../s"), "f"),
                key(Some("a/b"), "f"),
                key(Some(""), "f"),
                key(None, "session-file-without-session"),
                ArtifactKey { user_id: "..", ..key(Some("s"), "f") },
                ArtifactKey { app_name: "a/b", ..key(Some("s"), "f") },
            ];
            for k in bad {
                let err = block_on(a.save_artifact(k, Part::from_text("x"), None)).unwrap_err();
                assert_eq!(err.code, ErrorCode::InvalidArgument, "{k:?}");
                assert!(block_on(a.load_artifact(k, None)).is_err());
            }
            assert!(block_on(a.list_artifact_keys("app0", "user0", Some(".."))).is_err());
        }
    };
}

mod in_memory {
    use super::*;

    artifact_cases!(InMemoryArtifactService::new());
}

mod stored_over_a_key_value_store {
    use super::*;

    // The in-memory service's scheme, so that the canonical URIs the cases expect hold for both.
    artifact_cases!(StoredArtifactService::new(InMemoryStore::new(stored::LAYOUT), "memory:/"));
}
