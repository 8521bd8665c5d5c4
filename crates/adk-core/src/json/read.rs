//! The pull reader every decoder is written against. It reads JSON text in place (strings without
//! escapes are borrowed, nothing is built that the decoder does not keep). A `serde_json::Value`
//! already in memory is read through its text (see [`super::from_value`]): a reader that could
//! walk `Value`s too had a second branch in each of its steps, in every module.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use super::JsonError;

/// What the next value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Kind {
    /// As error messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// What [`Reader::object`] calls for each member, as a trait object of its own: a `dyn FnMut`'s
/// vtable would carry a `call_once` shim for every decoder's closure, which nothing calls.
trait OnMember<'a> {
    fn member(&mut self, r: &mut Reader<'a>, key: &str) -> Result<(), JsonError>;
}

impl<'a, F: FnMut(&mut Reader<'a>, &str) -> Result<(), JsonError>> OnMember<'a> for F {
    fn member(&mut self, r: &mut Reader<'a>, key: &str) -> Result<(), JsonError> {
        self(r, key)
    }
}

/// What [`Reader::array`] calls for each item (see [`OnMember`]).
trait OnItem<'a> {
    fn item(&mut self, r: &mut Reader<'a>) -> Result<(), JsonError>;
}

impl<'a, F: FnMut(&mut Reader<'a>) -> Result<(), JsonError>> OnItem<'a> for F {
    fn item(&mut self, r: &mut Reader<'a>) -> Result<(), JsonError> {
        self(r)
    }
}

/// A JSON value in input (a tool's result, a state value, one argument of a call) may nest this
/// deep from where it starts (serde_json's limit for a document, give or take its count of one);
/// deeper is refused, so hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 128;

/// How deep input may nest in all: the SDK's shapes (an event, a session, a request) hold values
/// as deep as [`MAX_DEPTH`] a few levels in (a tool's result six into its event, eight into a
/// session), and what the SDK built from them comes back as input (a session a JS service kept, a
/// request a callback edited, an event a page folds into a `Transcript`).
const SHAPE_DEPTH: usize = MAX_DEPTH + 32;

/// The nesting allowed in text this SDK wrote itself (an event kept as text, a stored record),
/// values included: what it holds was read within the limits above, or built by the SDK around
/// such a value (a `load_memory` result, a confirmation's original call).
const OWN_MAX_DEPTH: usize = 2 * MAX_DEPTH;

/// Reads one JSON value, piece by piece.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// The levels of nesting entered.
    depth: usize,
    /// The depth refused from here on: [`SHAPE_DEPTH`] for input, less inside a value (see
    /// [`Reader::json_value`]), [`OWN_MAX_DEPTH`] for text this SDK wrote.
    ceiling: usize,
    /// How deep a value may nest from where it starts.
    value_depth: usize,
    /// Bytes of decoded structure still allowed (see [`Reader::charge`]); the first budget.
    room: usize,
    budget: usize,
}

/// What a map entry takes besides its key's and value's own heap: the key and value inline, the
/// index's hash and slot.
pub(super) const MAP_ENTRY: usize = std::mem::size_of::<(String, Value)>() + 16;

/// What any text may take decoded, whatever its size and the limits: a reading of text short enough
/// never charges this much, so its outcome does not depend on the limits.
pub const BASE_BUDGET: usize = 4 << 20;

impl<'a> Reader<'a> {
    /// Counts `bytes` of decoded structure (an array item, a map entry) against the budget: JSON
    /// as small as `{}` decodes to structs hundreds of bytes large.
    pub fn charge(&mut self, bytes: usize) -> Result<(), JsonError> {
        match self.room.checked_sub(bytes) {
            Some(left) => {
                self.room = left;
                Ok(())
            }
            None => Err(JsonError::too_large(self.budget)),
        }
    }

    /// A reader of JSON text given to the SDK. Out of line: every decoder of text starts with one,
    /// and inlined (the limits' thread-local read with it) each carried its own copy.
    #[inline(never)]
    pub fn text(text: &'a str) -> Self {
        let expansion = crate::limits::limits().max_json_expansion;
        let budget = text.len().saturating_mul(expansion).saturating_add(BASE_BUDGET);
        Reader { text, pos: 0, depth: 0, ceiling: SHAPE_DEPTH, value_depth: MAX_DEPTH, room: budget, budget }
    }

    /// A reader of the text of a value already in memory, which has been paid for already.
    pub(super) fn unbounded(text: &'a str) -> Self {
        let (ceiling, value_depth) = (OWN_MAX_DEPTH, OWN_MAX_DEPTH);
        Reader { text, pos: 0, depth: 0, ceiling, value_depth, room: usize::MAX, budget: usize::MAX }
    }

    /// How many bytes of the text have been read.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// After the top value: only white space may follow.
    pub fn finish(&mut self) -> Result<(), JsonError> {
        if self.peek_byte().is_some() {
            return Err(self.syntax("trailing characters"));
        }
        Ok(())
    }

    /// What the next value is (nothing is consumed).
    pub fn kind(&mut self) -> Result<Kind, JsonError> {
        let first = self.peek_byte();
        let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
        match first {
            Some(b'n') if rest.starts_with(b"null") => Ok(Kind::Null),
            Some(b't') if rest.starts_with(b"true") => Ok(Kind::Bool),
            Some(b'f') if rest.starts_with(b"false") => Ok(Kind::Bool),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            Some(b'"') => Ok(Kind::String),
            Some(b'[') => Ok(Kind::Array),
            Some(b'{') => Ok(Kind::Object),
            Some(_) => Err(self.syntax("expected value")),
            None => Err(self.syntax("EOF while parsing a value")),
        }
    }

    /// An error saying the value is not of the kind expected.
    pub fn unexpected(&mut self, expected: &str) -> JsonError {
        match self.kind() {
            Ok(found) => JsonError::data(format!("invalid type: {}, expected {expected}", found.name())),
            Err(e) => e,
        }
    }

    /// Consumes a `null` if one comes next; says whether it did.
    pub fn null(&mut self) -> Result<bool, JsonError> {
        if self.kind()? != Kind::Null {
            return Ok(false);
        }
        self.literal(b"null")?;
        Ok(true)
    }

    /// A boolean.
    pub fn bool(&mut self) -> Result<bool, JsonError> {
        // A `t` or `f` that does not spell its word fails `literal` as it fails `kind`.
        let truth = match self.peek_byte() {
            Some(b't') => true,
            Some(b'f') => false,
            _ => return Err(self.unexpected("a boolean")),
        };
        self.literal(if truth { b"true" } else { b"false" })?;
        Ok(truth)
    }

    /// A number, as serde_json keeps it: an integer when it is one that fits, else a float.
    pub fn number(&mut self) -> Result<Number, JsonError> {
        if !matches!(self.peek_byte(), Some(b'-' | b'0'..=b'9')) {
            return Err(self.unexpected("a number"));
        }
        let text = self.text;
        let bytes = text.as_bytes();
        let start = self.pos;
        let mut end = start + usize::from(bytes.get(start) == Some(&b'-'));
        let digits =
            |from: usize| from + bytes.get(from..).map_or(0, |b| b.iter().take_while(|c| c.is_ascii_digit()).count());
        let int_end = digits(end);
        if int_end == end || (bytes.get(end) == Some(&b'0') && int_end > end + 1) {
            return Err(self.syntax("invalid number"));
        }
        end = int_end;
        let mut float = false;
        if bytes.get(end) == Some(&b'.') {
            let frac_end = digits(end + 1);
            if frac_end == end + 1 {
                return Err(self.syntax("invalid number"));
            }
            end = frac_end;
            float = true;
        }
        if matches!(bytes.get(end), Some(b'e' | b'E')) {
            let mut exp = end + 1;
            if matches!(bytes.get(exp), Some(b'+' | b'-')) {
                exp += 1;
            }
            let exp_end = digits(exp);
            if exp_end == exp {
                return Err(self.syntax("invalid number"));
            }
            end = exp_end;
            float = true;
        }
        let token = text.get(start..end).unwrap_or_default();
        self.pos = end;
        if !float {
            if let Some(n) = integer(token) {
                return Ok(n);
            }
        }
        Number::from_f64(super::float::parse(token)).ok_or_else(|| self.syntax("number out of range"))
    }

    /// A number as `f64`.
    pub fn f64(&mut self) -> Result<f64, JsonError> {
        self.number().map(|n| n.as_f64().unwrap_or(f64::NAN))
    }

    /// A whole number that fits in `i64`.
    pub fn i64(&mut self) -> Result<i64, JsonError> {
        let n = self.number()?;
        n.as_i64().ok_or_else(|| {
            JsonError::data(format!("invalid value: {}, expected a whole number", super::number_text(&n)))
        })
    }

    /// A whole number that fits in `u64`.
    pub fn u64(&mut self) -> Result<u64, JsonError> {
        let n = self.number()?;
        n.as_u64().ok_or_else(|| {
            JsonError::data(format!("invalid value: {}, expected a whole number ≥ 0", super::number_text(&n)))
        })
    }

    /// Consumes the next value if it is the whole number `n` written plainly (digits only, as
    /// writers write it): a cheap check of an expected number, which leaves any other value
    /// (`1.0`, a string) to the caller's reading.
    pub fn take_u64(&mut self, n: u64) -> bool {
        let digits = super::Digits::new(n);
        let digits = digits.as_str().as_bytes();
        self.peek_byte();
        let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
        // What may follow a value comes next: the number ends there.
        let whole = rest.starts_with(digits)
            && matches!(rest.get(digits.len()), None | Some(b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'));
        if whole {
            self.pos += digits.len();
        }
        whole
    }

    /// A string, borrowed from the text when it has no escapes.
    pub fn str(&mut self) -> Result<Cow<'a, str>, JsonError> {
        if !self.at(b'"') {
            return Err(self.unexpected("a string"));
        }
        self.quoted()
    }

    /// The string whose opening quote is at the position.
    fn quoted(&mut self) -> Result<Cow<'a, str>, JsonError> {
        // Most strings are plain up to their closing quote: borrowed here, without the result of
        // the careful reader below (which reads them the same).
        let (text, from) = (self.text, self.pos + 1);
        let end = text.as_bytes().get(from..).map_or(text.len(), |rest| from + crate::scan::string_special_end(rest));
        if let (Some(b'"'), Some(plain)) = (text.as_bytes().get(end), text.get(from..end)) {
            self.pos = end + 1;
            return Ok(Cow::Borrowed(plain));
        }
        let (value, end) = match scan_string(text, from, end) {
            Ok(found) => found,
            Err((message, at)) => {
                self.pos = at;
                return Err(self.syntax(message));
            }
        };
        self.pos = end;
        Ok(Cow::Owned(value))
    }

    /// A string, owned.
    pub fn string(&mut self) -> Result<String, JsonError> {
        self.str().map(Cow::into_owned)
    }

    /// Reads an object, calling `field` with each key; `field` must read (or skip) the value. An
    /// error inside names the key, so messages carry the path (`content.parts[0].text`).
    pub fn object(&mut self, mut field: impl FnMut(&mut Self, &str) -> Result<(), JsonError>) -> Result<(), JsonError> {
        self.object_dyn(&mut field)
    }

    /// [`Self::object`] with one instance for every decoder (the walk is not duplicated per struct).
    fn object_dyn(&mut self, field: &mut dyn OnMember<'a>) -> Result<(), JsonError> {
        if !self.at(b'{') {
            return Err(self.unexpected("an object"));
        }
        self.enter()?;
        self.pos += 1;
        if self.peek_byte_inlined() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                if !self.at(b'"') {
                    return Err(self.syntax("key must be a string"));
                }
                let key = self.quoted()?;
                if self.peek_byte_inlined() != Some(b':') {
                    return Err(self.syntax("expected `:`"));
                }
                self.pos += 1;
                field.member(self, &key).map_err(|e| e.in_field(&key))?;
                if !self.more(b'}', "expected `,` or `}`")? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Reads an array, calling `item` for each element; `item` must read (or skip) it.
    pub fn array(&mut self, mut item: impl FnMut(&mut Self) -> Result<(), JsonError>) -> Result<(), JsonError> {
        self.array_dyn(&mut item)
    }

    fn array_dyn(&mut self, item: &mut dyn OnItem<'a>) -> Result<(), JsonError> {
        if !self.at(b'[') {
            return Err(self.unexpected("an array"));
        }
        self.enter()?;
        self.pos += 1;
        if self.peek_byte() == Some(b']') {
            self.pos += 1;
        } else {
            let mut index = 0;
            loop {
                item.item(self).map_err(|e| e.in_item(index))?;
                index += 1;
                if !self.more(b']', "expected `,` or `]`")? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Passes over the next value.
    pub fn skip(&mut self) -> Result<(), JsonError> {
        // Dispatched on the first byte: the kinds skipped most need no second look.
        match self.peek_byte() {
            Some(b'"') => match skip_string(self.text.as_bytes(), self.pos + 1) {
                Some(end) => {
                    self.pos = end;
                    Ok(())
                }
                None => self.quoted().map(drop),
            },
            Some(b'{') => self.object(|r, _| r.skip()),
            Some(b'[') => self.array(|r| r.skip()),
            _ => match self.kind()? {
                Kind::Null => self.null().map(drop),
                Kind::Bool => self.bool().map(drop),
                // A number (strings, arrays and objects went above).
                _ => self.number().map(drop),
            },
        }
    }

    /// The next value, whole, nested at most 128 levels from where it starts (in input):
    /// so a value read inside one of the SDK's shapes is one the SDK may read again on its own.
    pub fn json_value(&mut self) -> Result<Value, JsonError> {
        let ceiling = self.ceiling;
        self.ceiling = ceiling.min(self.depth + self.value_depth);
        let value = self.any_value();
        self.ceiling = ceiling;
        value
    }

    /// [`Self::json_value`] within the ceiling already set.
    fn any_value(&mut self) -> Result<Value, JsonError> {
        Ok(match self.kind()? {
            Kind::Null => {
                self.null()?;
                Value::Null
            }
            Kind::Bool => Value::Bool(self.bool()?),
            Kind::Number => Value::Number(self.number()?),
            Kind::String => Value::String(self.string()?),
            Kind::Array => {
                let mut items = Vec::new();
                self.array(|r| {
                    r.charge(std::mem::size_of::<Value>())?;
                    items.push(r.any_value()?);
                    Ok(())
                })?;
                Value::Array(items)
            }
            Kind::Object => {
                let mut map = Map::new();
                self.object(|r, key| {
                    r.charge(MAP_ENTRY)?;
                    let value = r.any_value()?;
                    map.insert(key.to_string(), value);
                    Ok(())
                })?;
                Value::Object(map)
            }
        })
    }

    /// The next value's own JSON text, unchanged.
    pub fn raw(&mut self) -> Result<Cow<'a, str>, JsonError> {
        let ((), text) = self.with_text(Self::skip)?;
        Ok(Cow::Borrowed(text.unwrap_or_default()))
    }

    /// Reads the next value with `read` and gives, with what it read, the JSON text it read it
    /// from: a decoder can keep the wire's own text (`Some` after any read that succeeded, which
    /// ends on a character boundary).
    pub fn with_text<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, JsonError>,
    ) -> Result<(T, Option<&'a str>), JsonError> {
        self.kind()?;
        let start = self.pos;
        let value = read(self)?;
        Ok((value, self.text.get(start..self.pos)))
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > self.ceiling {
            return Err(self.syntax("recursion limit exceeded"));
        }
        Ok(())
    }

    /// After a member or an item: `true` past a `,` (another follows), `false` past `close`.
    /// Inlined into its two callers: a call per member and item cost more than the check.
    #[inline(always)]
    fn more(&mut self, close: u8, expected: &str) -> Result<bool, JsonError> {
        let comma = match self.peek_byte_inlined() {
            Some(b',') => true,
            Some(b) if b == close => false,
            _ => return Err(self.syntax(expected)),
        };
        self.pos += 1;
        Ok(comma)
    }

    /// Whether the next byte after white space is `byte` (nothing is consumed): the one check a
    /// reader of one kind needs before reading; [`Self::kind`] is for telling what came instead.
    /// Inlined: a call of its own, before every value read, cost more than the comparison.
    #[inline(always)]
    fn at(&mut self, byte: u8) -> bool {
        self.peek_byte_inlined() == Some(byte)
    }

    /// The next byte after white space, which is passed over.
    fn peek_byte(&mut self) -> Option<u8> {
        self.peek_byte_inlined()
    }

    /// [`Self::peek_byte`] inlined, where the reader calls it for every member and item: as a call
    /// of its own there, it was the reader's largest cost.
    #[inline(always)]
    fn peek_byte_inlined(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            // White space is below `!`: one comparison passes anything else.
            if b > b' ' || !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), JsonError> {
        if self.text.as_bytes().get(self.pos..self.pos + word.len()) != Some(word) {
            return Err(self.syntax("expected value"));
        }
        self.pos += word.len();
        Ok(())
    }

    /// A syntax error at the current position, with its line and column.
    fn syntax(&self, message: &str) -> JsonError {
        let before = self.text.as_bytes().get(..self.pos).unwrap_or_default();
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = self.pos - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
        JsonError::syntax(message, line, column)
    }
}

/// An integer's text (an optional `-` and digits, as the grammar checked) as serde_json keeps it:
/// `u64` when it fits, else `i64` when negative and it fits; `None` sends it to the float reader.
fn integer(token: &str) -> Option<Number> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, token),
    };
    let magnitude = crate::scan::decimal(digits.as_bytes())?;
    if !negative {
        return Some(magnitude.into());
    }
    // -2^63 is the one magnitude that fits negated but not as it is.
    (magnitude <= 1 << 63).then(|| (magnitude as i64).wrapping_neg().into())
}

/// The end (after the closing quote) of a string whose content starts at `from`, if it has no
/// escapes and no control characters; `None` sends it the careful way.
fn skip_string(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        i += crate::scan::string_special_end(bytes.get(i..)?);
        match bytes.get(i)? {
            b'"' => return Some(i + 1),
            // A one-character escape is passed over; `\u` sequences and bad escapes go the careful
            // way, which checks them (so a skipped or kept-raw string is valid JSON).
            b'\\' => match bytes.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                _ => return None,
            },
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
}

/// Reads a string whose content starts at `from` and is plain up to `at` (its first byte that is
/// not plain text: `quoted` has found it, and takes the plain case itself): the text and the
/// position after its closing quote, or an error message and where it happened.
fn scan_string(text: &str, from: usize, at: usize) -> Result<(String, usize), (&'static str, usize)> {
    let bytes = text.as_bytes();
    let mut i = at;
    let mut out = String::from(text.get(from..i).unwrap_or_default());
    loop {
        match bytes.get(i) {
            None => return Err(("EOF while parsing a string", i)),
            Some(b'"') => return Ok((out, i + 1)),
            Some(b'\\') => {
                let escape = bytes.get(i + 1).copied();
                i += 2;
                match escape {
                    Some(b'"') => out.push('"'),
                    Some(b'\\') => out.push('\\'),
                    Some(b'/') => out.push('/'),
                    Some(b'b') => out.push('\u{8}'),
                    Some(b'f') => out.push('\u{c}'),
                    Some(b'n') => out.push('\n'),
                    Some(b'r') => out.push('\r'),
                    Some(b't') => out.push('\t'),
                    Some(b'u') => {
                        let (c, end) = unicode_escape(bytes, i)?;
                        out.push(c);
                        i = end;
                    }
                    _ => return Err(("invalid escape", i.saturating_sub(1))),
                }
            }
            Some(_) => return Err(("control character (\\u0000-\\u001F) found while parsing a string", i)),
        }
        let run_start = i;
        i = bytes.get(i..).map_or(bytes.len(), |rest| i + crate::scan::string_special_end(rest));
        out.push_str(text.get(run_start..i).unwrap_or_default());
    }
}

fn hex4(bytes: &[u8], at: usize) -> Result<u32, (&'static str, usize)> {
    let digits = bytes.get(at..at + 4).ok_or(("EOF while parsing a string", at))?;
    digits.iter().try_fold(0u32, |acc, &b| {
        let d = char::from(b).to_digit(16).ok_or(("invalid escape", at))?;
        Ok(acc * 16 + d)
    })
}

/// The character of a `\uXXXX` escape whose digits start at `at` (a surrogate pair takes two). A
/// lone surrogate becomes U+FFFD, as it does when a JS string crosses into wasm (`TextEncoder`), so
/// that one policy holds whether a string arrives as a JS value or inside JSON text.
fn unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), (&'static str, usize)> {
    let first = hex4(bytes, at)?;
    let end = at + 4;
    if (0xD800..=0xDBFF).contains(&first) && bytes.get(end..end + 2) == Some(b"\\u") {
        if let Ok(second @ 0xDC00..=0xDFFF) = hex4(bytes, end + 2) {
            let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            return Ok((char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), end + 6));
        }
    }
    Ok((char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER), end))
}
