//! `Event.long_running_tool_ids`: a set of function-call ids, sorted, as ADK 2.x writes it.

use std::ops::Deref;

use crate::json::{FromJson, JsonError, Reader, ToJson, Writer};

/// A sorted set of ids without duplicates. A vector, not a `BTreeSet`: these sets hold one id or
/// a few, and the B-tree's code (insert, split, drop) weighed 4 KB in every wasm module.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolIds(Vec<String>);

impl ToolIds {
    /// An empty set.
    pub fn new() -> Self {
        ToolIds(Vec::new())
    }

    /// Adds `id` in its sorted place; false when it is there already.
    pub fn insert(&mut self, id: String) -> bool {
        match self.0.binary_search(&id) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, id);
                true
            }
        }
    }
}

/// The ids, sorted.
impl Deref for ToolIds {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a ToolIds {
    type Item = &'a String;
    type IntoIter = std::slice::Iter<'a, String>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<const N: usize> From<[String; N]> for ToolIds {
    fn from(ids: [String; N]) -> Self {
        let mut set = ToolIds::new();
        for id in ids {
            set.insert(id);
        }
        set
    }
}

impl FromJson for ToolIds {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        let mut set = ToolIds::new();
        r.array(|r| {
            set.insert(r.string()?);
            Ok(())
        })?;
        Ok(set)
    }
}

impl ToJson for ToolIds {
    fn write_json(&self, w: &mut Writer) {
        w.array(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_stay_sorted_and_unique() {
        let mut ids = ToolIds::from(["b".to_string(), "a".to_string()]);
        assert!(!ids.insert("b".into()));
        assert!(ids.insert("c".into()));
        assert_eq!(&ids[..], ["a", "b", "c"]);
        assert!(ids.contains(&"a".to_string()));
    }
}
