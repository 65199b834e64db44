//! A growable bitset over dense indices (structure ids, usable-operation indices). The
//! closures of `space.rs` keep one per candidate set; a crate would add a dependency for forty
//! lines.

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    pub fn new() -> Bits {
        Bits::default()
    }

    pub fn from_indices(indices: impl IntoIterator<Item = u32>) -> Bits {
        let mut b = Bits::new();
        for i in indices {
            b.insert(i);
        }
        b
    }

    pub fn contains(&self, i: u32) -> bool {
        self.words
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Sets bit `i`; returns whether it was clear.
    pub fn insert(&mut self, i: u32) -> bool {
        let at = i as usize / 64;
        if at >= self.words.len() {
            self.words.resize(at + 1, 0);
        }
        let mask = 1u64 << (i % 64);
        let was_clear = self.words[at] & mask == 0;
        self.words[at] |= mask;
        was_clear
    }

    pub fn remove(&mut self, i: u32) {
        if let Some(w) = self.words.get_mut(i as usize / 64) {
            *w &= !(1u64 << (i % 64));
        }
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Set bits in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(at, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(at as u32 * 64 + b)
            })
        })
    }

    /// Clears every bit, keeping the allocation.
    pub fn clear(&mut self) {
        self.words.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_clear_iterate() {
        let mut b = Bits::new();
        assert!(b.insert(3));
        assert!(!b.insert(3));
        assert!(b.insert(130));
        assert!(b.contains(130) && b.contains(3) && !b.contains(4) && !b.contains(9999));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 130]);
        assert_eq!(b.len(), 2);
        b.remove(130);
        assert_eq!(b, Bits::from_indices([3]));
        b.clear();
        assert!(b.is_empty());
    }
}
