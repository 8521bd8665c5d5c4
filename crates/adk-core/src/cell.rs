//! `RefCell` borrows whose conflict would be a bug, never input: the SDK holds no borrow across an
//! `await` or a call out to JS. `RefCell::borrow` and `borrow_mut` are `#[track_caller]`, so each
//! call site keeps a panic location of its own in the module (16 bytes, and its file's name), which
//! nothing prints (the module has no panic hook, and a panic traps); borrowed through [`Lend`], the
//! whole module keeps one.

use std::cell::{Ref, RefCell, RefMut};

/// Borrows with one panic site for every caller.
pub trait Lend<T: ?Sized> {
    /// As `RefCell::borrow`.
    fn lend(&self) -> Ref<'_, T>;
    /// As `RefCell::borrow_mut`.
    fn lend_mut(&self) -> RefMut<'_, T>;
}

impl<T: ?Sized> Lend<T> for RefCell<T> {
    fn lend(&self) -> Ref<'_, T> {
        match self.try_borrow() {
            Ok(value) => value,
            Err(_) => conflict(),
        }
    }

    fn lend_mut(&self) -> RefMut<'_, T> {
        match self.try_borrow_mut() {
            Ok(value) => value,
            Err(_) => conflict(),
        }
    }
}

/// A borrow met another: a bug in the SDK, which stops the instance as every panic does.
#[cold]
#[inline(never)]
fn conflict() -> ! {
    #[allow(clippy::panic)]
    {
        panic!("RefCell already borrowed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lends_as_refcell_does() {
        let cell = RefCell::new(vec![1]);
        cell.lend_mut().push(2);
        assert_eq!(*cell.lend(), vec![1, 2]);
        let _a = cell.lend();
        let _b = cell.lend();
    }

    #[test]
    #[should_panic(expected = "RefCell already borrowed")]
    fn a_conflict_panics() {
        let cell = RefCell::new(0);
        let _held = cell.lend();
        let _ = cell.lend_mut();
    }
}
