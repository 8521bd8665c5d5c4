//! The two things the core needs from its host: the clock and randomness for ids.

/// Seconds since the Unix epoch, as ADK's `time.time()`.
#[cfg(target_arch = "wasm32")]
pub fn now_seconds() -> f64 {
    js_sys::Date::now() / 1000.0
}

/// Seconds since the Unix epoch, as ADK's `time.time()`.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// A random uuid4 string (ADK's `str(uuid.uuid4())`).
pub fn new_uuid() -> String {
    uuid::Uuid::new_v4().to_string()
}
