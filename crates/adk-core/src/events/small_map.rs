//! [`SmallMap`]: the maps of `EventActions` (artifact versions, auth configs, tool confirmations).

use crate::json::{FromJson, JsonError, Reader, ToJson, Writer};

/// A map from keys to `T` in insertion order, kept as a vector of pairs: these maps hold one entry
/// or a few, and an `IndexMap` per value type brought its hash table's insert and rehash into the
/// wasm module three times over. Inserting a key already there replaces its value in place, as an
/// `IndexMap` does; equality ignores the order, as an `IndexMap`'s does.
#[derive(Clone)]
pub struct SmallMap<T>(Vec<(String, T)>);

/// The entries of a [`SmallMap`], in order.
pub type Iter<'a, T> = std::iter::Map<std::slice::Iter<'a, (String, T)>, fn(&'a (String, T)) -> (&'a String, &'a T)>;

impl<T> SmallMap<T> {
    /// An empty map.
    pub fn new() -> Self {
        SmallMap(Vec::new())
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.0.iter().position(|(k, _)| k == key)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, value)| value)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`: in its place if the key is there (giving back the value it had),
    /// else last.
    pub fn insert(&mut self, key: String, value: T) -> Option<T> {
        match self.position(&key).and_then(|at| self.0.get_mut(at)) {
            Some((_, slot)) => Some(std::mem::replace(slot, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(key, _)| key)
    }

    /// The entries, in order, as a slice (for code shared with plain lists of pairs).
    pub fn as_slice(&self) -> &[(String, T)] {
        &self.0
    }

    /// The entries, in order.
    pub fn iter(&self) -> Iter<'_, T> {
        self.0.iter().map(|(key, value)| (key, value))
    }
}

impl<T> Default for SmallMap<T> {
    fn default() -> Self {
        SmallMap::new()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for SmallMap<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The same entries, whatever their order.
impl<T: PartialEq> PartialEq for SmallMap<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.0.iter().all(|(key, value)| other.get(key) == Some(value))
    }
}

impl<T> Extend<(String, T)> for SmallMap<T> {
    fn extend<I: IntoIterator<Item = (String, T)>>(&mut self, entries: I) {
        for (key, value) in entries {
            self.insert(key, value);
        }
    }
}

impl<T> FromIterator<(String, T)> for SmallMap<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(entries: I) -> Self {
        let mut map = SmallMap::new();
        map.extend(entries);
        map
    }
}

impl<T> IntoIterator for SmallMap<T> {
    type Item = (String, T);
    type IntoIter = std::vec::IntoIter<(String, T)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a SmallMap<T> {
    type Item = (&'a String, &'a T);
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: FromJson> FromJson for SmallMap<T> {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let mut map = SmallMap::new();
        let mut seen = serde_json::Map::new();
        r.object(|r, key| {
            r.charge(std::mem::size_of::<(String, T)>() + 16)?;
            let value = T::read_json(r)?;
            match repeated(&mut seen, key, map.0.len()).and_then(|at| map.0.get_mut(at)) {
                Some((_, slot)) => *slot = value,
                None => map.0.push((key.to_string(), value)),
            }
            Ok(())
        })?;
        Ok(map)
    }
}

/// Where `key` was among the `len` entries read so far, or `None` (and it is recorded as the next
/// one): a repeated key's value replaces the first one's in its place, found without a search
/// through all the others (input can hold thousands). `seen` is a JSON object of key → index, whose
/// code the module has already: only its `insert` (which gives back what the key had, put back
/// then), not a lookup too; one instance for every value type.
#[inline(never)]
fn repeated(seen: &mut serde_json::Map<String, serde_json::Value>, key: &str, len: usize) -> Option<usize> {
    let first = seen.insert(key.to_string(), len.into())?;
    let at = first.as_u64().and_then(|at| usize::try_from(at).ok());
    seen.insert(key.to_string(), first);
    at
}

impl<T: ToJson> ToJson for SmallMap<T> {
    fn write_json(&self, w: &mut Writer) {
        let mut object = w.object();
        for (key, value) in self {
            object.field(key, value);
        }
        object.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_keeps_its_place_and_takes_the_last_value() {
        let map: SmallMap<i64> = crate::json::from_str("map", r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(map.iter().collect::<Vec<_>>(), [(&"a".to_string(), &3), (&"b".to_string(), &2)]);
        assert_eq!(crate::json::to_string(&map), r#"{"a":3,"b":2}"#);
        let mut other: SmallMap<i64> = [("b".to_string(), 2)].into_iter().collect();
        assert_ne!(map, other);
        assert_eq!(other.insert("a".into(), 3), None);
        assert_eq!(map, other);
        assert_eq!(other.insert("b".into(), 4), Some(2));
        assert_eq!((other.get("b"), other.contains_key("c"), other.len()), (Some(&4), false, 2));
    }
}
