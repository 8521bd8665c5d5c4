//! The writer every encoder is written against: compact JSON text, numbers and strings spelled as
//! serde_json spells them (so the wire format is what ADK Python's JSON reads back unchanged).

use serde_json::{Number, Value};

use super::ToJson;

/// The length of `value` written by [`Writer::str`]: quotes, and the escapes' extra bytes.
fn escaped_len(value: &str) -> usize {
    value.bytes().fold(value.len() + 2, |n, b| match b {
        b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => n + 1,
        0..=0x1f => n + 5,
        _ => n,
    })
}

/// An integer's decimal digits, made on the stack: one small loop for every integer the SDK writes
/// (`itoa`'s two functions and its table of digit pairs were ~900 bytes of every wasm module).
pub struct Digits {
    bytes: [u8; 20],
    start: usize,
}

impl Digits {
    /// The digits of `n`.
    pub fn new(mut n: u64) -> Self {
        // 20 digits hold every `u64`.
        let (mut bytes, mut start) = ([b'0'; 20], 20);
        for slot in bytes.iter_mut().rev() {
            *slot = b'0' + (n % 10) as u8;
            start -= 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Digits { bytes, start }
    }

    /// The digits as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.bytes.get(self.start..).unwrap_or_default()).unwrap_or_default()
    }
}

/// From this size on, a string is given exactly the room it needs (see [`Writer::str`]).
const BIG_STRING: usize = 1 << 20;

/// Writes one JSON value into a string.
#[derive(Default)]
pub struct Writer {
    out: String,
    /// When only the length is wanted: the length so far, nothing being written.
    counted: Option<usize>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `bytes` of text: a document of about that size is written
    /// without reallocations as it grows.
    pub fn with_capacity(bytes: usize) -> Self {
        Writer { out: String::with_capacity(bytes), counted: None }
    }

    /// A writer that measures instead of writing (see [`super::encoded_len`]).
    pub(super) fn counting() -> Self {
        Writer { out: String::new(), counted: Some(0) }
    }

    /// What was written.
    pub fn into_string(self) -> String {
        self.out
    }

    /// The length of what was written (or counted).
    pub(super) fn len(&self) -> usize {
        self.out.len() + self.counted.unwrap_or(0)
    }

    /// Appends `text`, or counts it when measuring: a session's size is measured on every append,
    /// and the count costs a fraction of the text.
    fn put(&mut self, text: &str) {
        match &mut self.counted {
            Some(counted) => *counted += text.len(),
            None => self.out.push_str(text),
        }
    }

    /// `null`
    pub fn null(&mut self) {
        self.put("null");
    }

    /// `true` or `false`.
    pub fn bool(&mut self, value: bool) {
        self.put(if value { "true" } else { "false" });
    }

    /// The shortest text that reads back as `value`; `null` for NaN and infinities, as serde_json.
    pub fn f64(&mut self, value: f64) {
        if value.is_finite() {
            match &mut self.counted {
                // Measuring: the digits go into the buffer, empty while counting, and are cleared
                // again, so that its room serves every float of the count (no allocation per float).
                Some(counted) => {
                    super::float::write(&mut self.out, value);
                    *counted += self.out.len();
                    self.out.clear();
                }
                None => super::float::write(&mut self.out, value),
            }
        } else {
            self.null();
        }
    }

    /// An integer.
    pub fn i64(&mut self, value: i64) {
        if value < 0 {
            self.put("-");
        }
        self.u64(value.unsigned_abs());
    }

    /// An integer.
    pub fn u64(&mut self, value: u64) {
        self.put(Digits::new(value).as_str());
    }

    /// A number, as serde_json spells it (and displays it).
    pub fn number(&mut self, n: &Number) {
        if let Some(u) = n.as_u64() {
            self.u64(u);
        } else if let Some(i) = n.as_i64() {
            self.i64(i);
        } else {
            self.f64(n.as_f64().unwrap_or(f64::NAN));
        }
    }

    /// A string, quoted and escaped.
    pub fn str(&mut self, value: &str) {
        if let Some(counted) = &mut self.counted {
            *counted += escaped_len(value);
            return;
        }
        // A big string gets room for itself and the rest of a document around it, exactly: the
        // usual doubling would leave the buffer up to twice the text, and wasm memory never shrinks.
        if value.len() >= BIG_STRING {
            self.out.reserve_exact(value.len() + value.len() / 64 + 4096);
        }
        self.out.reserve(value.len() + 2);
        self.out.push('"');
        let mut rest = value;
        // Plain runs are found 8 bytes at a time; most strings are one run.
        while let Some(at) = crate::scan::find_string_special(rest.as_bytes()) {
            let (run, tail) = rest.split_at_checked(at).unwrap_or((rest, ""));
            let Some(&b) = tail.as_bytes().first() else { break };
            self.out.push_str(run);
            let escape = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                _ => "",
            };
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.out.push_str("\\u00");
                for nibble in [b >> 4, b & 0xf] {
                    self.out.push(char::from(*HEX.get(usize::from(nibble)).unwrap_or(&b'0')));
                }
            } else {
                self.out.push_str(escape);
            }
            rest = tail.get(1..).unwrap_or_default();
        }
        self.out.push_str(rest);
        self.out.push('"');
    }

    /// JSON text written as it is (it must be one whole value).
    pub fn raw(&mut self, json: &str) {
        self.put(json);
    }

    /// A whole `Value`.
    pub fn json_value(&mut self, value: &Value) {
        match value {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.number(n),
            Value::String(s) => self.str(s),
            Value::Array(items) => self.array(items),
            Value::Object(map) => {
                let mut object = self.object();
                for (key, value) in map {
                    object.field(key, value);
                }
                object.end();
            }
        }
    }

    /// An object: add its members with [`ObjectWriter::field`], then [`ObjectWriter::end`] it.
    pub fn object(&mut self) -> ObjectWriter<'_> {
        self.put("{");
        ObjectWriter { writer: self, empty: true }
    }

    /// An array of `items`.
    pub fn array<'i, T: ToJson + 'i>(&mut self, items: impl IntoIterator<Item = &'i T>) {
        self.array_of(items, |w, item| item.write_json(w));
    }

    /// An array with one element per item, each written by `write`.
    pub fn array_of<I: IntoIterator>(&mut self, items: I, mut write: impl FnMut(&mut Writer, I::Item)) {
        self.punctuate('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.punctuate(',');
            }
            write(self, item);
        }
        self.punctuate(']');
    }

    /// One character of an array's punctuation (ASCII). Out of line, and given as one constant
    /// rather than a string's two: [`Self::array_of`] has a copy per type of array, each with
    /// three of these calls.
    #[inline(never)]
    fn punctuate(&mut self, mark: char) {
        match &mut self.counted {
            Some(counted) => *counted += 1,
            None => self.out.push(mark),
        }
    }
}

/// An object being written.
pub struct ObjectWriter<'w> {
    writer: &'w mut Writer,
    empty: bool,
}

impl ObjectWriter<'_> {
    /// Adds the member `key`.
    pub fn field<T: ToJson + ?Sized>(&mut self, key: &str, value: &T) -> &mut Self {
        self.key(key);
        value.write_json(self.writer);
        self
    }

    /// Adds the member `key`, its value written by `write`.
    pub fn field_with(&mut self, key: &str, write: impl FnOnce(&mut Writer)) -> &mut Self {
        self.key(key);
        write(self.writer);
        self
    }

    /// Adds the member `key` with JSON text written as it is.
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.writer.raw(json);
        self
    }

    fn key(&mut self, key: &str) {
        if !std::mem::take(&mut self.empty) {
            self.writer.put(",");
        }
        self.writer.str(key);
        self.writer.put(":");
    }

    /// Closes the object.
    pub fn end(self) {
        self.writer.put("}");
    }
}
