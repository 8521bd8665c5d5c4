//! `?` for the body of a `try_stream!` generator.

/// `result?` inside a `try_stream!` body, leaving the block labelled `$label` with the error
/// instead, which the generator then yields once, at its end: in `try_stream!` each `?` is a yield
/// of its own, one more state in the generator's code (about 80 bytes of wasm each). Unlike `?`,
/// it drops the block's locals before the error is yielded: whatever is in flight and must outlive
/// the yield (a stream whose drop ends work a stopped run must first signal) is declared outside.
#[macro_export]
macro_rules! or_break {
    ($label:lifetime, $result:expr) => {
        match $result {
            Ok(value) => value,
            Err(error) => break $label Err(error),
        }
    };
}

pub(crate) use or_break;
