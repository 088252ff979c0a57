//! glibc's `rand`: shared by the interpreter and the encoder.

/// glibc's `random` (TYPE_3: an additive feedback generator over 34 words,
/// `r[i] = r[i-31] + r[i-3]`), which `rand` returns.
pub struct Random {
    r: [u32; 34],
    /// Index of the oldest word (the ring's `i - 34`).
    k: usize,
}

impl Random {
    /// The generator `srand(seed)` makes (`rand` without `srand`: seed 1).
    pub fn new(seed: u32) -> Random {
        let seed = if seed == 0 { 1 } else { seed };
        let mut r = [0u32; 34];
        r[0] = seed;
        for i in 1..31 {
            // 16807 * r[i-1] % 2147483647 by Schrage's method, on a signed word.
            let word = r[i - 1] as i32 as i64;
            let hi = word / 127_773;
            let lo = word % 127_773;
            let mut w = 16_807 * lo - 2_836 * hi;
            if w < 0 {
                w += 2_147_483_647;
            }
            r[i] = w as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = Random { r, k: 0 };
        for _ in 34..344 {
            g.step();
        }
        g
    }

    fn step(&mut self) -> u32 {
        // The ring holds r[n-34..n]; r[n] = r[n-31] + r[n-3].
        let v = self.r[(self.k + 3) % 34].wrapping_add(self.r[(self.k + 31) % 34]);
        self.r[self.k] = v;
        self.k = (self.k + 1) % 34;
        v
    }

    /// The next value `rand()` returns.
    pub fn next_value(&mut self) -> i64 {
        (self.step() >> 1) as i64
    }
}
