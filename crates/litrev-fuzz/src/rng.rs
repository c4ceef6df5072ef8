//! A small seeded random number generator (SplitMix64), so every case is reproducible from
//! the run's seed, the target's name and the case number alone.

use litrev_testkit::random::SplitMix64;

/// SplitMix64 (the bench server's), with the draws the mutations need.
#[derive(Debug, Clone)]
pub struct Rng {
    generator: SplitMix64,
}

impl Rng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            generator: SplitMix64::new(seed),
        }
    }

    /// The generator of one case: the run's seed, the target and the case number mixed.
    pub fn for_case(seed: u64, target: &str, case: u64) -> Rng {
        let mut rng = Rng::new(seed ^ fnv1a(target.as_bytes()));
        let mixed = rng.next_u64() ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Rng::new(mixed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.generator.next_u64()
    }

    /// A number in `0..bound` (0 when `bound` is 0).
    pub fn below(&mut self, bound: usize) -> usize {
        self.generator.below(bound)
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high.saturating_sub(low) + 1)
    }

    /// True once in `n` draws.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A length skewed towards small values but reaching `max`: mostly 1–16, sometimes
    /// hundreds, now and then thousands.
    pub fn skewed_len(&mut self, max: usize) -> usize {
        let cap = match self.below(10) {
            0..=5 => 16,
            6..=8 => 512,
            _ => max,
        };
        self.between(1, cap.min(max).max(1))
    }
}

/// FNV-1a of some bytes: a stable hash of a target's name.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_reproducible_and_distinct() {
        let a = Rng::for_case(7, "ris", 3).next_u64();
        assert_eq!(a, Rng::for_case(7, "ris", 3).next_u64());
        assert_ne!(a, Rng::for_case(7, "ris", 4).next_u64());
        assert_ne!(a, Rng::for_case(7, "csl_style", 3).next_u64());
        let mut rng = Rng::new(1);
        assert!((0..1000).all(|_| rng.between(3, 5) >= 3 && rng.between(3, 5) <= 5));
    }
}
