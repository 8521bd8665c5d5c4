//! A stable sort shared by every list the SDK orders (sessions, artifact names, memory matches).
//!
//! The standard library's sort is instantiated, a few KiB of wasm each, for every element type and
//! comparison; these lists are short and sorted rarely, so one merge sort of indices serves them all.

/// `items` in the order `less` defines; equal items keep their order.
pub fn sort_by<T>(mut items: Vec<T>, less: impl Fn(&T, &T) -> bool) -> Vec<T> {
    let swaps = swaps(&order(items.len(), &|a, b| match (items.get(a), items.get(b)) {
        (Some(a), Some(b)) => less(a, b),
        _ => false,
    }));
    // In place, by swaps worked out once for every element type: the only code made per type.
    for (a, b) in swaps {
        items.swap(a, b);
    }
    items
}

/// The swaps that put the items at the positions `order` gives them (the item at `order[k]`
/// goes to `k`), applied in turn.
#[inline(never)]
fn swaps(order: &[usize]) -> Vec<(usize, usize)> {
    // Where each item is now, and which item each position holds, as the swaps go.
    let mut position: Vec<usize> = (0..order.len()).collect();
    let mut holder = position.clone();
    let mut swaps = Vec::new();
    for (k, &item) in order.iter().enumerate() {
        let (Some(&from), Some(&displaced)) = (position.get(item), holder.get(k)) else { continue };
        if from != k {
            swaps.push((k, from));
            holder.swap(k, from);
            position.swap(item, displaced);
        }
    }
    swaps
}

/// The comparison [`order`] calls, as a trait object of its own: a `dyn Fn`'s vtable would carry
/// `call_once` and `call_mut` shims for every caller's closure, which nothing calls.
trait Less {
    fn less(&self, a: usize, b: usize) -> bool;
}

impl<F: Fn(usize, usize) -> bool> Less for F {
    fn less(&self, a: usize, b: usize) -> bool {
        self(a, b)
    }
}

/// The indices `0..n` sorted by `less`, stably: a bottom-up merge sort.
#[inline(never)]
fn order(n: usize, less: &dyn Less) -> Vec<usize> {
    let mut from: Vec<usize> = (0..n).collect();
    let mut into = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        into.clear();
        for start in (0..n).step_by(2 * width) {
            let left = from.get(start..(start + width).min(n)).unwrap_or_default();
            let right = from.get((start + width).min(n)..(start + 2 * width).min(n)).unwrap_or_default();
            let (mut l, mut r) = (left.iter().peekable(), right.iter().peekable());
            loop {
                // The right item goes first only when strictly less: that keeps the sort stable.
                let take_right = match (l.peek(), r.peek()) {
                    (Some(&&a), Some(&&b)) => less.less(b, a),
                    (None, Some(_)) => true,
                    (_, None) => false,
                };
                match if take_right { r.next() } else { l.next() } {
                    Some(&i) => into.push(i),
                    None => break,
                }
            }
        }
        std::mem::swap(&mut from, &mut into);
        width *= 2;
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_sort() {
        for n in 0..40usize {
            let items: Vec<(usize, usize)> = (0..n).map(|i| ((i * 7919) % 5, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|p| p.0);
            assert_eq!(sort_by(items, |a, b| a.0 < b.0), expected, "{n} items");
        }
    }
}
