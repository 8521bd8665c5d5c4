//! JSON in and out of the SDK's types, written for the browser's download and speed.
//!
//! Every type has one decoder ([`FromJson`], over a [`Reader`] of text) and one
//! encoder ([`ToJson`], into a [`Writer`]), most of them declared with [`json_struct!`](crate::json_struct).
//! Unlike derived serde code, nothing is instantiated per input format, which keeps the wasm module
//! small; decoding reads text in place, borrowing what it does not keep. Errors name the path of
//! the offending field (`content.parts[0].text: invalid type: a number, expected a string`),
//! built while the decoders unwind, so reading costs nothing for it.

mod float;
mod impls;
mod rare;
mod read;
mod write;

use serde_json::Value;

pub use impls::JsonEmpty;
pub use rare::{read_rare, Rare, RareValue};
pub use read::{Kind, Reader, BASE_BUDGET};
pub use write::{Digits, ObjectWriter, Writer};

use crate::AdkError;

/// A type read from JSON.
pub trait FromJson: Sized {
    /// Reads one value of this type.
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError>;
}

/// A type written as JSON.
pub trait ToJson {
    /// Writes this value.
    fn write_json(&self, w: &mut Writer);
}

/// Decodes `T` from JSON text; `what` names it in errors (`invalid event: author: …`).
pub fn from_str<T: FromJson>(what: &str, text: &str) -> Result<T, AdkError> {
    let mut reader = Reader::text(text);
    match T::read_json(&mut reader) {
        Ok(value) => finish(&mut reader, what).map(|()| value),
        Err(e) => Err(e.into_adk(what)),
    }
}

/// The end of [`from_str`], out of line: one copy, not one per decoded type.
#[inline(never)]
fn finish(reader: &mut Reader<'_>, what: &str) -> Result<(), AdkError> {
    reader.finish().map_err(|e| e.into_adk(what))
}

/// Decodes `T` from a `Value` already in memory, through its text: one reader (of text) for
/// every decoder, not a second walk of `Value`s in each of its steps.
pub fn from_value<T: FromJson>(what: &str, value: Value) -> Result<T, AdkError> {
    read_value(&value).map_err(|e| e.into_adk(what))
}

/// [`from_value`] before the error names what was read.
fn read_value<T: FromJson>(value: &Value) -> Result<T, JsonError> {
    read_own_text(&to_string(value))
}

/// Decodes `T` from JSON text this SDK wrote itself (an event kept as its text, a stored record):
/// read without the size budget that guards input, which the value paid when it first came in, so
/// that lowering the limits later cannot make what was accepted unreadable, and nested up to 256
/// levels with no limit on a value's own (input's 128), as the SDK builds values around input's
/// (a `load_memory` result). Text after the value is not looked at. The error is the reader's,
/// which [`JsonError::into_adk`] names: each caller has its own (a damaged record is `INTERNAL`),
/// so none pays for two conversions.
pub fn read_own_text<T: FromJson>(text: &str) -> Result<T, JsonError> {
    T::read_json(&mut Reader::unbounded(text))
}

/// The member `key` of an object, found by a scan rather than by hashing (objects read for a few
/// members are small, and the scan leaves the hasher out of the modules that need nothing else of it).
pub fn field<'a>(object: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a Value> {
    object.iter().find(|(k, _)| *k == key).map(|(_, value)| value)
}

/// Whether two values are equal, as `==` says, their objects compared by [`same_members`]: the
/// derived comparison looks members up by hashing, which brings that lookup into a module that
/// compares values and otherwise only builds them.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => a == b,
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b)),
        (Value::Object(a), Value::Object(b)) => same_members(a, b),
        _ => false,
    }
}

/// [`same`] of two objects: the same keys (each once in an object), with the same values. Members
/// in the same order are compared pairwise, in linear time; from the first key out of place on,
/// each is searched for by [`field`], which is quadratic only in the members a peer reordered.
pub fn same_members(a: &serde_json::Map<String, Value>, b: &serde_json::Map<String, Value>) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut in_order = 0;
    for ((key, value), (other_key, other)) in a.iter().zip(b) {
        if key != other_key {
            break;
        }
        if !same(value, other) {
            return false;
        }
        in_order += 1;
    }
    a.iter().skip(in_order).all(|(key, value)| field(b, key).is_some_and(|other| same(value, other)))
}

/// [`field`] of a value that is an object; `None` for any other value.
pub fn member<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    field(value.as_object()?, key)
}

/// [`member`] to change in place.
pub fn member_mut<'a>(value: &'a mut Value, key: &str) -> Option<&'a mut Value> {
    value.as_object_mut()?.iter_mut().find(|(k, _)| *k == key).map(|(_, value)| value)
}

/// Parses JSON text into a `Value`.
pub fn parse(what: &str, text: &str) -> Result<Value, AdkError> {
    from_str(what, text)
}

/// The JSON text of `value`.
pub fn to_string<T: ToJson + ?Sized>(value: &T) -> String {
    let mut writer = Writer::new();
    value.write_json(&mut writer);
    writer.into_string()
}

/// The length of `value`'s JSON text, counted without writing it: what a size limit checks.
pub fn encoded_len<T: ToJson + ?Sized>(value: &T) -> usize {
    let mut writer = Writer::counting();
    value.write_json(&mut writer);
    writer.len()
}

/// A number's text, as serde_json's `Display` gives it, but by this module's writer: `Display`
/// would bring serde_json's own float writer, and its tables, into the wasm module.
pub fn number_text(n: &serde_json::Number) -> String {
    let mut writer = Writer::new();
    writer.number(n);
    writer.into_string()
}

/// `value` as a `Value`, for the few places that rewrite JSON (the A2A v0.3 mapping). Through
/// `dyn`: one copy for every type, not one each.
pub fn to_value(value: &dyn ToJson) -> Value {
    read_own_text(&to_string(value)).unwrap_or(Value::Null)
}

/// A JSON object of `members`, in order: what `serde_json::json!` builds, without the generic
/// serializer (and its error formatting) it compiles in for every value it is given.
pub fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(members_of(&mut members.into_iter()))
}

/// The object of `members`, in order, as a map (see [`object`]).
pub fn members<const N: usize>(members: [(&str, Value); N]) -> serde_json::Map<String, Value> {
    members_of(&mut members.into_iter())
}

/// [`object`]'s and [`members`]' work, once for every size of object.
#[inline(never)]
fn members_of(members: &mut dyn Iterator<Item = (&str, Value)>) -> serde_json::Map<String, Value> {
    members.map(|(key, value)| (key.to_string(), value)).collect()
}

/// A constant written as JSON text (a tool's schema, say). Text that does not parse gives `null`;
/// the constants are in the source and covered by tests.
pub fn constant(text: &str) -> Value {
    parse("constant", text).unwrap_or(Value::Null)
}

/// One step of the path to a value inside a document.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// Where `key` is in `keys` (`usize::MAX` when it is not).
#[doc(hidden)]
pub fn key_index(keys: &[&str], key: &str) -> usize {
    keys.iter().position(|k| *k == key).unwrap_or(usize::MAX)
}

/// Reads a member into its field (one instance per field type, shared by every struct).
#[doc(hidden)]
#[inline(never)]
pub fn read_into<T: FromJson>(slot: &mut T, r: &mut Reader<'_>) -> Result<(), JsonError> {
    *slot = T::read_json(r)?;
    Ok(())
}

/// Reads a required member.
#[doc(hidden)]
#[inline(never)]
pub fn read_some<T: FromJson>(slot: &mut Option<T>, r: &mut Reader<'_>) -> Result<(), JsonError> {
    *slot = Some(T::read_json(r)?);
    Ok(())
}

/// Keeps a member no field names.
#[doc(hidden)]
pub fn read_member(extra: &mut serde_json::Map<String, Value>, key: &str, r: &mut Reader<'_>) -> Result<(), JsonError> {
    let value = r.json_value()?;
    extra.insert(key.to_string(), value);
    Ok(())
}

/// `serde::Serialize` through [`ToJson`], for Rust code that uses serde with these types (the SDK
/// itself never does: serde's generic code would be compiled into the wasm module once per format).
#[doc(hidden)]
pub fn serialize_via_json<T: ToJson, S: serde::Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&to_value(value), serializer)
}

/// `serde::Deserialize` through [`FromJson`].
#[doc(hidden)]
pub fn deserialize_via_json<'de, T: FromJson, D: serde::Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    let value = <Value as serde::Deserialize>::deserialize(deserializer)?;
    read_value(&value).map_err(serde::de::Error::custom)
}

#[doc(hidden)]
pub use serde as __serde;

/// Implements `serde::Serialize` and `serde::Deserialize` for types with [`ToJson`] and
/// [`FromJson`], so they work with serde_json and friends in Rust code.
#[macro_export]
macro_rules! serde_via_json {
    ($($name:ty),* $(,)?) => {$(
        impl $crate::json::__serde::Serialize for $name {
            fn serialize<S: $crate::json::__serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::json::serialize_via_json(self, s)
            }
        }

        impl<'de> $crate::json::__serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::json::__serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                $crate::json::deserialize_via_json(d)
            }
        }
    )*};
}

/// Why a value could not be read: the message, and where. One pointer wide, so the `Result` every
/// decoder returns stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError(Box<Failure>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Failure {
    message: String,
    /// Over the decoding budget ([`crate::limits::Limits::max_json_expansion`]), not malformed.
    too_large: bool,
    /// Line and column of a syntax error.
    at: Option<(usize, usize)>,
    /// The path, innermost step first (steps are added as the decoders unwind).
    path: Vec<Step>,
}

impl JsonError {
    /// A value that is valid JSON but not what the type expects.
    pub fn data(message: impl Into<String>) -> Self {
        JsonError(Box::new(Failure { message: message.into(), too_large: false, at: None, path: Vec::new() }))
    }

    /// Text that is not JSON.
    pub fn syntax(message: &str, line: usize, column: usize) -> Self {
        JsonError(Box::new(Failure {
            message: message.to_string(),
            too_large: false,
            at: Some((line, column)),
            path: Vec::new(),
        }))
    }

    /// JSON that would take more memory decoded than the budget allows.
    pub fn too_large(budget: usize) -> Self {
        let message = format!(
            "decoded, it would take more than {budget} bytes of memory (its size times maxJsonExpansion, plus 4 MiB); \
             raise setLimits({{maxJsonExpansion}}) if that is meant"
        );
        JsonError(Box::new(Failure { message, too_large: true, at: None, path: Vec::new() }))
    }

    /// A required member is missing.
    pub fn missing(field: &str) -> Self {
        Self::data(format!("missing field `{field}`"))
    }

    /// Whether the value was refused as too large to hold decoded.
    pub fn is_too_large(&self) -> bool {
        self.0.too_large
    }

    /// Whether the text is not JSON at all.
    pub fn is_syntax(&self) -> bool {
        self.0.at.is_some()
    }

    fn in_field(mut self, key: &str) -> Self {
        if self.0.at.is_none() {
            self.0.path.push(Step::Key(key.to_string()));
        }
        self
    }

    fn in_item(mut self, index: usize) -> Self {
        if self.0.at.is_none() {
            self.0.path.push(Step::Index(index));
        }
        self
    }

    /// `content.parts[0].text`
    pub fn path(&self) -> String {
        let mut path = String::new();
        for step in self.0.path.iter().rev() {
            match step {
                Step::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Step::Index(i) => {
                    path.push('[');
                    path.push_str(Digits::new(*i as u64).as_str());
                    path.push(']');
                }
            }
        }
        path
    }

    /// The `INVALID_ARGUMENT` error for a `what` that did not read (`RESOURCE_EXHAUSTED` when it
    /// was too large to read).
    pub fn into_adk(self, what: &str) -> AdkError {
        let failure = &*self.0;
        // The forms built in one pass, piece by piece, because one `format!` each costs ~100 bytes
        // of wasm: `invalid {what}: not valid JSON: {message} at line {line} column {column}`,
        // `invalid {what}: {path}: {message}` and `{what} is too large: {path}: {message}` (no
        // `{path}: ` when the path is empty). A syntax error has no path and is never too large:
        // the decoders add no steps to one.
        debug_assert!(failure.at.is_none() || (!failure.too_large && failure.path.is_empty()));
        let mut text = String::from(if failure.too_large { "" } else { "invalid " });
        text.push_str(what);
        text.push_str(if failure.too_large { " is too large: " } else { ": " });
        if failure.at.is_some() {
            text.push_str("not valid JSON: ");
        }
        let path = self.path();
        if !path.is_empty() {
            text.push_str(&path);
            text.push_str(": ");
        }
        text.push_str(&failure.message);
        if let Some((line, column)) = failure.at {
            text.push_str(" at line ");
            text.push_str(Digits::new(line as u64).as_str());
            text.push_str(" column ");
            text.push_str(Digits::new(column as u64).as_str());
        }
        let code =
            if failure.too_large { crate::ErrorCode::ResourceExhausted } else { crate::ErrorCode::InvalidArgument };
        AdkError::new(code, text)
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path() {
            path if path.is_empty() => f.write_str(&self.0.message),
            path => write!(f, "{path}: {}", self.0.message),
        }
    }
}

/// Declares a struct and its JSON form: each field names its JSON key and how it reads and writes.
///
/// - `opt`: an `Option`; absent or `null` reads as `None`, which is not written;
/// - `req`: required; absent is an error naming it;
/// - `def`: absent reads as the default; always written;
/// - `nonempty`: absent reads as the default; an empty value ([`JsonEmpty`]) is not written;
/// - `(with expr)`: absent reads as `expr`; always written;
/// - `(fill expr)`: absent or empty ([`JsonEmpty`]) reads as `expr` (an id to assign); always written;
/// - `(opt_via f)`: an `Option` read by `f(reader)` (a field with more than one accepted form);
///   written as `opt`;
/// - `skip`: not part of the JSON (the member is passed over on reading, never written);
/// - `extra`: a `JsonObject` keeping every member no other field names, written last as they came;
/// - `(rare store)`: no field of its own: the member (an `Option` of a string, an object or any
///   value) is kept in the [`Rare`] field `store` (declared `skip`), and written in its place here.
///
/// Members are written in the order declared; unknown members are ignored on reading.
#[macro_export]
macro_rules! json_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident { $($members:tt)* }
    ) => {
        $crate::json_struct!(@split [$(#[$meta])* $vis struct $name] [$($members)*] [] $($members)*);
    };
    // The struct's own fields are its members less the rare ones: picked one by one.
    (@split $head:tt $all:tt [$($kept:tt)*]
        $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty => $key:literal (rare $store:ident) $(, $($rest:tt)*)?
    ) => {
        $crate::json_struct!(@split $head $all [$($kept)*] $($($rest)*)?);
    };
    (@split $head:tt $all:tt [$($kept:tt)*]
        $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty => $key:literal $mode:tt $(, $($rest:tt)*)?
    ) => {
        $crate::json_struct!(@split $head $all [$($kept)* $(#[$fmeta])* $fvis $field: $ty => $key $mode,] $($($rest)*)?);
    };
    (@split [$($head:tt)*] [$($all:tt)*] [$($kept:tt)*]) => {
        $crate::json_struct!(@define [$($head)*] [$($kept)*] $($all)*);
    };
    (@define
        [$(#[$meta:meta])* $vis:vis struct $name:ident]
        [$( $(#[$kmeta:meta])* $kvis:vis $kfield:ident : $kty:ty => $kkey:literal $kmode:tt, )*]
        $( $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty => $key:literal $mode:tt ),* $(,)?
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$kmeta])* $kvis $kfield: $kty, )*
        }

        impl $name {
            /// The JSON keys of its members, in the order declared.
            #[doc(hidden)]
            pub const JSON_KEYS: &'static [&'static str] = &[$( $key, )*];
        }

        impl $crate::json::FromJson for $name {
            fn read_json(r: &mut $crate::json::Reader<'_>) -> ::core::result::Result<Self, $crate::json::JsonError> {
                $( $crate::json_struct!(@local $mode, $field, $ty); )*
                let mut this = $name { $( $kfield: $crate::json_struct!(@init $kmode), )* };
                // Keys are found by one shared lookup in this table, so each field costs an index
                // comparison here rather than a string comparison.
                #[allow(non_camel_case_types)]
                enum Field { $( $field, )* }
                r.object(|r, key| {
                    match $crate::json::key_index(Self::JSON_KEYS, key) {
                        $( i if i == Field::$field as usize => $crate::json_struct!(@read $mode, this, $field, r, key, $ty, $key), )*
                        _ => {
                            #[allow(unused_mut)]
                            let mut kept = false;
                            $( $crate::json_struct!(@unknown $mode, this, $field, r, key, kept); )*
                            if !kept {
                                r.skip()?;
                            }
                        }
                    }
                    ::core::result::Result::Ok(())
                })?;
                $( $crate::json_struct!(@finish $mode, this, $field, $key); )*
                ::core::result::Result::Ok(this)
            }
        }

        impl $crate::json::ToJson for $name {
            fn write_json(&self, w: &mut $crate::json::Writer) {
                #[allow(unused_mut)]
                let mut object = w.object();
                $( $crate::json_struct!(@write $mode, object, $key, &self.$field, self); )*
                object.end();
            }
        }

        $crate::serde_via_json!($name);
    };
    (@local req, $f:ident, $ty:ty) => {
        let mut $f: ::core::option::Option<$ty> = ::core::option::Option::None;
    };
    (@local $mode:tt, $f:ident, $ty:ty) => {};
    (@init opt) => { ::core::option::Option::None };
    (@init (with $e:expr)) => { $e };
    (@init $mode:tt) => { ::core::default::Default::default() };
    (@read req, $this:ident, $f:ident, $r:ident, $key:ident, $ty:ty, $k:literal) => { $crate::json::read_some(&mut $f, $r)? };
    (@read (opt_via $via:path), $this:ident, $f:ident, $r:ident, $key:ident, $ty:ty, $k:literal) => { $this.$f = $via($r)? };
    (@read skip, $this:ident, $f:ident, $r:ident, $key:ident, $ty:ty, $k:literal) => { $r.skip()? };
    (@read extra, $this:ident, $f:ident, $r:ident, $key:ident, $ty:ty, $k:literal) => { $crate::json::read_member(&mut $this.$f, $key, $r)? };
    (@read (rare $store:ident), $this:ident, $f:ident, $r:ident, $key:ident, $ty:ty, $k:literal) => {
        $crate::json::read_rare::<$ty>(&mut $this.$store, $k, $r)?
    };
    (@read $mode:tt, $this:ident, $f:ident, $r:ident, $key:ident, $ty:ty, $k:literal) => { $crate::json::read_into(&mut $this.$f, $r)? };
    (@unknown extra, $this:ident, $f:ident, $r:ident, $key:ident, $kept:ident) => {{
        $crate::json::read_member(&mut $this.$f, $key, $r)?;
        $kept = true;
    }};
    (@unknown $mode:tt, $this:ident, $f:ident, $r:ident, $key:ident, $kept:ident) => {};
    (@finish req, $this:ident, $f:ident, $k:literal) => {
        $this.$f = $f.ok_or_else(|| $crate::json::JsonError::missing($k))?;
    };
    (@finish (fill $e:expr), $this:ident, $f:ident, $k:literal) => {
        if $crate::json::JsonEmpty::is_empty_json(&$this.$f) {
            $this.$f = $e;
        }
    };
    (@finish $mode:tt, $this:ident, $f:ident, $k:literal) => {};
    (@write opt, $o:ident, $k:literal, $v:expr, $this:expr) => {
        if let ::core::option::Option::Some(v) = $v {
            $o.field($k, v);
        }
    };
    (@write (opt_via $via:path), $o:ident, $k:literal, $v:expr, $this:expr) => {
        $crate::json_struct!(@write opt, $o, $k, $v, $this)
    };
    (@write (rare $store:ident), $o:ident, $k:literal, $v:expr, $this:expr) => {
        $this.$store.write(&mut $o, $k);
    };
    (@write nonempty, $o:ident, $k:literal, $v:expr, $this:expr) => {
        if !$crate::json::JsonEmpty::is_empty_json($v) {
            $o.field($k, $v);
        }
    };
    (@write skip, $o:ident, $k:literal, $v:expr, $this:expr) => {};
    (@write extra, $o:ident, $k:literal, $v:expr, $this:expr) => {
        for (key, value) in $v {
            $o.field(key, value);
        }
    };
    (@write $mode:tt, $o:ident, $k:literal, $v:expr, $this:expr) => {
        $o.field($k, $v);
    };
}

#[cfg(test)]
mod tests;
