//! Instruction storage that grows without moving what it holds: fixed-size
//! chunks after a first one that grows like a vector, so a large function
//! never copies all its instructions to grow and never reserves twice what
//! it needs.

use std::ops::{Index, IndexMut};

/// Items per chunk (a power of two).
const CHUNK: usize = 1 << 12;

/// A vector of `T` indexed by `usize`, stored in chunks of [`CHUNK`].
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ChunkedVec<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        ChunkedVec { chunks: Vec::new(), len: 0 }
    }
}

impl<T> ChunkedVec<T> {
    /// Number of items.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds `item` at the end.
    pub(super) fn push(&mut self, item: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(item),
            _ => {
                // The first chunk starts small (most functions are); later
                // ones are allocated whole.
                let capacity = if self.chunks.is_empty() { 0 } else { CHUNK };
                let mut chunk = Vec::with_capacity(capacity);
                chunk.push(item);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
    }

    /// The items, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }

    /// The items from index `start` on, in order, mutably.
    pub(super) fn iter_mut_from(&mut self, start: usize) -> impl Iterator<Item = &mut T> {
        let (first, offset) = (start / CHUNK, start % CHUNK);
        self.chunks.iter_mut().skip(first).enumerate().flat_map(move |(i, chunk)| {
            let skip = if i == 0 { offset } else { 0 };
            chunk.iter_mut().skip(skip)
        })
    }

    /// Makes room for `additional` more items in the chunk being filled.
    pub(super) fn reserve(&mut self, additional: usize) {
        match self.chunks.last_mut() {
            Some(last) => last.reserve(additional.min(CHUNK - last.len())),
            None => self.chunks.push(Vec::with_capacity(additional.min(CHUNK))),
        }
    }
}

impl<T> Index<usize> for ChunkedVec<T> {
    type Output = T;

    #[inline]
    fn index(&self, index: usize) -> &T {
        &self.chunks[index / CHUNK][index % CHUNK]
    }
}

impl<T> IndexMut<usize> for ChunkedVec<T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.chunks[index / CHUNK][index % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_stay_put_across_chunks() {
        let mut items = ChunkedVec::default();
        items.reserve(10);
        for i in 0..3 * CHUNK + 5 {
            items.push(i);
        }
        assert_eq!(items.len(), 3 * CHUNK + 5);
        for i in [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK + 7, 3 * CHUNK + 4] {
            assert_eq!(items[i], i);
        }
        items[CHUNK] = 0;
        assert_eq!(items[CHUNK], 0);
        assert!(items.iter().enumerate().all(|(i, item)| *item == i || i == CHUNK));
        for item in items.iter_mut_from(CHUNK - 1) {
            *item = usize::MAX;
        }
        assert_eq!(items[CHUNK - 2], CHUNK - 2);
        assert!(items.iter().skip(CHUNK - 1).all(|item| *item == usize::MAX));
    }
}
