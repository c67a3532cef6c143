//! Storage for a function's instructions and registers: one vector, read
//! as cheaply as any, that grows fourfold once it is large, so that the
//! buffers it leaves behind as it grows (which the allocator keeps) come to
//! a third of what it holds rather than all of it.

use std::ops::{Index, IndexMut};

/// Below this many items the vector grows as `Vec` does (doubling).
const LARGE: usize = 1 << 12;

/// A vector of `T` indexed by `usize`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Slots<T> {
    items: Vec<T>,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots { items: Vec::new() }
    }
}

impl<T> Slots<T> {
    /// Number of items.
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    /// Adds `item` at the end.
    #[inline]
    pub(super) fn push(&mut self, item: T) {
        if self.items.len() == self.items.capacity() && self.items.len() >= LARGE {
            self.items.reserve_exact(3 * self.items.len());
        }
        self.items.push(item);
    }

    /// The items, in order.
    pub(super) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The items from index `start` on, in order, mutably.
    pub(super) fn iter_mut_from(&mut self, start: usize) -> std::slice::IterMut<'_, T> {
        self.items[start..].iter_mut()
    }

    /// Makes room for `additional` more items.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
    }
}

impl<T> Index<usize> for Slots<T> {
    type Output = T;

    #[inline]
    fn index(&self, index: usize) -> &T {
        &self.items[index]
    }
}

impl<T> IndexMut<usize> for Slots<T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.items[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_vectors_grow_fourfold() {
        let mut items = Slots::default();
        for i in 0..LARGE {
            items.push(i);
        }
        assert_eq!(items.items.capacity(), LARGE);
        items.push(LARGE);
        assert_eq!(items.items.capacity(), 4 * LARGE);
        assert!(items.iter().enumerate().all(|(i, item)| *item == i));
        for item in items.iter_mut_from(LARGE) {
            *item = usize::MAX;
        }
        assert_eq!(items[LARGE - 1], LARGE - 1);
        assert_eq!(items[LARGE], usize::MAX);
    }
}
