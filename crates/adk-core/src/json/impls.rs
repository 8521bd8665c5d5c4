//! [`FromJson`] and [`ToJson`] for the standard types the SDK's types are made of.

use serde_json::{Map, Value};

use super::{Digits, FromJson, JsonError, Reader, ToJson, Writer};

impl FromJson for String {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        r.string()
    }
}

impl ToJson for String {
    fn write_json(&self, w: &mut Writer) {
        w.str(self);
    }
}

impl ToJson for str {
    fn write_json(&self, w: &mut Writer) {
        w.str(self);
    }
}

impl FromJson for bool {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        r.bool()
    }
}

impl ToJson for bool {
    fn write_json(&self, w: &mut Writer) {
        w.bool(*self);
    }
}

impl FromJson for f64 {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        r.f64()
    }
}

impl ToJson for f64 {
    fn write_json(&self, w: &mut Writer) {
        w.f64(*self);
    }
}

impl FromJson for i64 {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        r.i64()
    }
}

impl ToJson for i64 {
    fn write_json(&self, w: &mut Writer) {
        w.i64(*self);
    }
}

impl FromJson for u64 {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        r.u64()
    }
}

impl ToJson for u64 {
    fn write_json(&self, w: &mut Writer) {
        w.u64(*self);
    }
}

/// `invalid value: {n}{why}`, the digits by the JSON writer's loop: `u64`'s formatter would be in
/// the A2A module for these messages alone.
fn out_of_range(n: u64, why: &str) -> JsonError {
    JsonError::data(format!("invalid value: {}{why}", Digits::new(n).as_str()))
}

impl FromJson for u32 {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let n = r.u64()?;
        u32::try_from(n).map_err(|_| out_of_range(n, ", expected at most 4294967295"))
    }
}

impl ToJson for u32 {
    fn write_json(&self, w: &mut Writer) {
        w.u64(u64::from(*self));
    }
}

impl FromJson for usize {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let n = r.u64()?;
        usize::try_from(n).map_err(|_| out_of_range(n, ", out of range"))
    }
}

impl ToJson for usize {
    fn write_json(&self, w: &mut Writer) {
        w.u64(*self as u64);
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        if r.null()? {
            return Ok(None);
        }
        T::read_json(r).map(Some)
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, w: &mut Writer) {
        match self {
            Some(value) => value.write_json(w),
            None => w.null(),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let mut items = Vec::new();
        r.array(|r| {
            r.charge(std::mem::size_of::<T>())?;
            let item = T::read_json(r)?;
            // Most arrays on ADK's wire hold one item (a content's parts): room for exactly one,
            // not the four a first push reserves.
            if items.capacity() == 0 {
                items.reserve_exact(1);
            }
            items.push(item);
            Ok(())
        })?;
        Ok(items)
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, w: &mut Writer) {
        w.array(self);
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, w: &mut Writer) {
        w.array(self);
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        T::read_json(r).map(Box::new)
    }
}

impl<T: ToJson + ?Sized> ToJson for Box<T> {
    fn write_json(&self, w: &mut Writer) {
        (**self).write_json(w);
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, w: &mut Writer) {
        (**self).write_json(w);
    }
}

impl FromJson for Value {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        r.json_value()
    }
}

impl ToJson for Value {
    fn write_json(&self, w: &mut Writer) {
        w.json_value(self);
    }
}

impl FromJson for Map<String, Value> {
    /// An object of values (state, a call's arguments), each as deep as a value may be: a state
    /// value set on its own can be given back with the rest of the state.
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let mut map = Map::new();
        r.object(|r, key| {
            r.charge(super::read::MAP_ENTRY)?;
            let value = r.json_value()?;
            map.insert(key.to_string(), value);
            Ok(())
        })?;
        Ok(map)
    }
}

impl ToJson for Map<String, Value> {
    fn write_json(&self, w: &mut Writer) {
        let mut object = w.object();
        for (key, value) in self {
            object.field(key, value);
        }
        object.end();
    }
}

/// Values a `nonempty` field leaves out when writing.
pub trait JsonEmpty {
    /// Whether to leave the field out.
    fn is_empty_json(&self) -> bool;
}

impl<T> JsonEmpty for Vec<T> {
    fn is_empty_json(&self) -> bool {
        self.is_empty()
    }
}

impl JsonEmpty for Map<String, Value> {
    fn is_empty_json(&self) -> bool {
        self.is_empty()
    }
}

impl JsonEmpty for String {
    fn is_empty_json(&self) -> bool {
        self.is_empty()
    }
}

impl JsonEmpty for bool {
    fn is_empty_json(&self) -> bool {
        !*self
    }
}

impl JsonEmpty for Option<String> {
    fn is_empty_json(&self) -> bool {
        self.as_deref().is_none_or(str::is_empty)
    }
}
