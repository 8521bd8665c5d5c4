//! Maps kept as lists of pairs, for the in-memory services whose maps hold a few entries and are
//! read whole by their searches and listings: a hashed map per key type was more code to download
//! than these loops.

/// The value of `key` in `pairs`, appended with its default when `key` is not there yet. Always
/// `Some`: an `Option` rather than an index, so that no bounds check can panic.
pub(crate) fn entry<K: PartialEq, V: Default>(pairs: &mut Vec<(K, V)>, key: K) -> Option<&mut V> {
    let slot = match pairs.iter().position(|(k, _)| *k == key) {
        Some(at) => pairs.get_mut(at),
        None => {
            pairs.push((key, V::default()));
            pairs.last_mut()
        }
    };
    slot.map(|(_, value)| value)
}

/// The value of `key` in `pairs`.
pub(crate) fn get<'a, K: PartialEq, V>(pairs: &'a [(K, V)], key: &K) -> Option<&'a V> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, value)| value)
}
