//! `set_lent` changes a setting every reader of input looks at: tested in a binary of its own, so
//! that no other test reads input on another thread while it is set.

use adk_core::json::{from_str, set_lent};
use serde_json::Value;

#[test]
fn text_lent_out_reads_as_deep_as_the_sdks_own_while_set() {
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(from_str::<Value>("v", &nested(129)).is_err());
    assert!(!set_lent(true));
    assert!(from_str::<Value>("v", &nested(256)).is_ok());
    let e = from_str::<Value>("v", &nested(257)).unwrap_err();
    assert!(e.message.contains("recursion limit exceeded"), "{}", e.message);
    assert!(set_lent(false));
    assert!(from_str::<Value>("v", &nested(129)).is_err());
}
