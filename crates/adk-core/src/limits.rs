//! How large the things a page hands the SDK may be. One wasm instance has at most 4 GiB of memory,
//! shared by every runner and service in it, and never gives memory back: a limit is checked
//! before the bytes are copied in, and going over it is a clear `RESOURCE_EXHAUSTED`, not a trap.

use std::cell::Cell;

use crate::{AdkError, ErrorCode};

crate::json_struct! {
    /// The instance's limits, in bytes of JSON (or, for artifacts, of data). Their JSON keys are
    /// the names `setLimits()` takes; a member left out reads as the limit in force, so that
    /// the changes `setLimits()` is given read as the limits they make.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Limits {
        /// One event: appended, yielded by an agent, or decoded.
        pub max_event_bytes: usize => "maxEventBytes" (with limits().max_event_bytes),
        /// One model response (from a model written in JS).
        pub max_model_response_bytes: usize => "maxModelResponseBytes" (with limits().max_model_response_bytes),
        /// One tool result (from a tool written in JS).
        pub max_tool_result_bytes: usize => "maxToolResultBytes" (with limits().max_tool_result_bytes),
        /// One artifact version's data.
        pub max_artifact_bytes: usize => "maxArtifactBytes" (with limits().max_artifact_bytes),
        /// All the events of one session, as stored.
        pub max_session_bytes: usize => "maxSessionBytes" (with limits().max_session_bytes),
        /// How many times its own size decoded JSON may take in memory (beyond a first 4 MiB): a
        /// few bytes of JSON such as `{}` become a struct of hundreds, so a 16 MiB event of empty
        /// parts would otherwise need more than the 4 GiB wasm memory has.
        pub max_json_expansion: usize => "maxJsonExpansion" (with limits().max_json_expansion),
    }
}

const MIB: usize = 1 << 20;

impl Limits {
    /// The limits an instance starts with.
    const DEFAULT: Limits = Limits {
        max_event_bytes: 16 * MIB,
        max_model_response_bytes: 16 * MIB,
        max_tool_result_bytes: 16 * MIB,
        max_artifact_bytes: 64 * MIB,
        max_session_bytes: 256 * MIB,
        max_json_expansion: 64,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

thread_local! {
    // Initialised by a constant: read in place, with no first-use check and no lazy initialiser
    // at each of the many places that read a limit.
    static LIMITS: Cell<Limits> = const { Cell::new(Limits::DEFAULT) };
}

/// The limits in force.
pub fn limits() -> Limits {
    LIMITS.with(Cell::get)
}

/// Replaces the limits (for the whole instance).
pub fn set_limits(limits: Limits) {
    LIMITS.with(|l| l.set(limits));
}

/// One limit, with the option that sets it, so that an error can name both.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// The largest size allowed.
    pub bytes: usize,
    /// The option's name in `setLimits()`, e.g. `maxEventBytes`.
    pub option: &'static str,
}

impl Limit {
    /// `max_event_bytes`.
    pub fn event() -> Self {
        Limit { bytes: limits().max_event_bytes, option: "maxEventBytes" }
    }

    /// `max_model_response_bytes`.
    pub fn model_response() -> Self {
        Limit { bytes: limits().max_model_response_bytes, option: "maxModelResponseBytes" }
    }

    /// `max_tool_result_bytes`.
    pub fn tool_result() -> Self {
        Limit { bytes: limits().max_tool_result_bytes, option: "maxToolResultBytes" }
    }

    /// `max_artifact_bytes`.
    pub fn artifact() -> Self {
        Limit { bytes: limits().max_artifact_bytes, option: "maxArtifactBytes" }
    }

    /// `max_artifact_bytes` for an artifact's JSON (its data as base64, in a request): checked
    /// before the JSON is copied in, the data itself once decoded.
    pub fn artifact_json() -> Self {
        let bytes = limits().max_artifact_bytes;
        Limit { bytes: (bytes / 3).saturating_mul(4).saturating_add(64 << 10), option: "maxArtifactBytes" }
    }

    /// `max_session_bytes`.
    pub fn session() -> Self {
        Limit { bytes: limits().max_session_bytes, option: "maxSessionBytes" }
    }

    /// `RESOURCE_EXHAUSTED` if `size` (of `what`) is over the limit. `size` may be a lower bound
    /// known before copying (a JS string's UTF-16 length never exceeds its UTF-8 length).
    pub fn check(self, what: &str, size: usize) -> Result<(), AdkError> {
        if size <= self.bytes {
            return Ok(());
        }
        let message = format!(
            "{what} is over the limit of {} bytes (at least {size}); raise it with setLimits({{{}}}) if that is meant",
            self.bytes, self.option
        );
        Err(AdkError::new(ErrorCode::ResourceExhausted, message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_a_limit_names_it_and_its_option() {
        assert!(Limit::event().check("the event", 16 * MIB).is_ok());
        let e = Limit::event().check("the event", 16 * MIB + 1).unwrap_err();
        assert_eq!(e.code, ErrorCode::ResourceExhausted);
        assert!(
            e.message.contains("16777216 bytes") && e.message.contains("setLimits({maxEventBytes})"),
            "{}",
            e.message
        );
        set_limits(Limits { max_tool_result_bytes: 10, ..Limits::default() });
        assert!(Limit::tool_result().check("the result", 11).is_err());
        set_limits(Limits::default());
    }
}
