//! Where a detector may start: the places whose first two bytes are an anchor pair (a
//! provider prefix's first two bytes, `ey` of a JWT, `--` of a PEM line, `:/` of a URL, `=` of
//! an assignment, `Be`/`Ba` … of an `Authorization` scheme).
//!
//! Text without secrets should cost next to nothing, so on x86-64 with SSSE3 sixteen bytes are
//! classified at a time, as Teddy does (the multi-pattern prefilter of the `aho-corasick`
//! crate): each anchor pair belongs to one of eight buckets; `pshufb` looks up, for every
//! byte, the buckets its low and high nibbles allow as a first byte, and the same for the next
//! byte as a second byte; a place is a candidate when some bucket allows both, and, for the
//! anchors that start a word, the byte before is not a word byte (classified the same way).
//! That is a superset of the places a detector may start (nibbles of different bytes of one
//! bucket combine); each candidate is then checked exactly. WebAssembly with SIMD (the npm
//! package's build) runs the same rounds with `i8x16.swizzle` for `pshufb`; elsewhere every place
//! is checked against the pair table. `tests` holds the native paths to the same answer, and the
//! package's tests hold its answers to the native ones (`bindings/wasm/tests/js/secrets.test.mjs`).

/// The anchor pairs by bucket: first bytes × second bytes (`None`: any second byte).
const BUCKETS: [(&[u8], Option<&[u8]>); 8] = [
    (b"A", Some(b"KSBC3I")),
    (b"gG", Some(b"hilR")),
    (b"x", Some(b"oa")),
    (b"h", Some(b"o")),
    (b"sr", Some(b"k")),
    (b"ne", Some(b"py")),
    (b"-:", Some(b"-/")),
    (b"Bb", Some(b"eEaA")),
];

/// Whether `pair` (two bytes, or one for an anchor that takes any second byte) is in a
/// bucket: what the table in `mod.rs` asserts for every anchor it builds.
pub(super) const fn bucketed(pair: &[u8]) -> bool {
    if pair.len() == 1 && pair[0] == b'=' {
        return true;
    }
    let mut k = 0;
    while k < BUCKETS.len() {
        let (firsts, seconds) = BUCKETS[k];
        if contains(firsts, pair[0]) {
            match seconds {
                None => return true,
                Some(s) if pair.len() > 1 && contains(s, pair[1]) => return true,
                Some(_) => {}
            }
        }
        k += 1;
    }
    false
}

const fn contains(set: &[u8], b: u8) -> bool {
    let mut i = 0;
    while i < set.len() {
        if set[i] == b {
            return true;
        }
        i += 1;
    }
    false
}

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
/// The bucket of the anchors led by punctuation (`--`, `://`); every other bucket's anchors
/// start a word, so they are places only after a byte that is not `[A-Za-z0-9_]`.
const PUNCTUATION_LED: u8 = 1 << 6;

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
/// The nibble tables: bucket bits allowed by a first byte's low and high nibble, by a second
/// byte's, and the classes of word bytes (`[0-9]`, `[A-Oa-o]`, `[P-Zp-z]`, `_`) by nibble.
struct Tables {
    first_lo: [u8; 16],
    first_hi: [u8; 16],
    second_lo: [u8; 16],
    second_hi: [u8; 16],
    word_lo: [u8; 16],
    word_hi: [u8; 16],
}

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
const TABLES: Tables = {
    let mut t = Tables {
        first_lo: [0; 16],
        first_hi: [0; 16],
        second_lo: [0; 16],
        second_hi: [0; 16],
        word_lo: [0; 16],
        word_hi: [0, 0, 0, 1, 2, 4 | 8, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0],
    };
    let mut n = 0;
    while n < 16 {
        t.word_lo[n] = (if n <= 9 { 1 } else { 0 })
            | (if n >= 1 { 2 } else { 0 })
            | (if n <= 10 { 4 } else { 0 })
            | (if n == 15 { 8 } else { 0 });
        n += 1;
    }
    assert!(
        BUCKETS[6].0[0] == b'-',
        "PUNCTUATION_LED names the bucket of `-` and `:`"
    );
    let mut k = 0;
    while k < BUCKETS.len() {
        let bit = 1u8 << k;
        let (firsts, seconds) = BUCKETS[k];
        let mut i = 0;
        while i < firsts.len() {
            t.first_lo[(firsts[i] & 15) as usize] |= bit;
            t.first_hi[(firsts[i] >> 4) as usize] |= bit;
            i += 1;
        }
        match seconds {
            Some(s) => {
                let mut i = 0;
                while i < s.len() {
                    t.second_lo[(s[i] & 15) as usize] |= bit;
                    t.second_hi[(s[i] >> 4) as usize] |= bit;
                    i += 1;
                }
            }
            None => {
                let mut n = 0;
                while n < 16 {
                    t.second_lo[n] |= bit;
                    t.second_hi[n] |= bit;
                    n += 1;
                }
            }
        }
        k += 1;
    }
    t
};

/// Calls `f(i)` for every place `i` that may start a detector, in order, until `f` returns
/// `false` (`false` then): a superset of the anchor pairs that are led by punctuation or
/// follow a byte that is not `[A-Za-z0-9_]` (a word-led anchor inside a word starts nothing).
#[inline(always)]
pub(super) fn each(b: &[u8], f: impl FnMut(usize) -> bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let mut f = f;
        if std::arch::is_x86_feature_detected!("avx2") {
            return avx2_each(b, &mut f);
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU has SSSE3, checked just above.
            return unsafe { ssse3::each(b, &mut f) };
        }
        scalar(b, f)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        let mut f = f;
        simd128::each(b, &mut f)
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    scalar(b, f)
}

/// Whether [`each`] would call nothing for `b`, when this CPU runs the AVX2 path and `b` holds
/// at least 8 bytes: one round for up to 32 bytes, answered where the string is read; longer,
/// the rounds of [`avx2::each`] stopping at the first place. `false` says only that [`each`]
/// must be asked.
#[inline(always)]
pub(super) fn none_in(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        b.len() >= 8
            && std::arch::is_x86_feature_detected!("avx2")
            && if b.len() <= 32 {
                // SAFETY: the CPU has AVX2; 8 <= len <= 32.
                unsafe { avx2::short(b) == 0 }
            } else {
                // SAFETY: the CPU has AVX2; len > 32.
                unsafe { avx2::each(b, &mut |_| false) }
            }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = b;
        false
    }
}

/// [`each`] on a CPU with AVX2: a string of 8 to 32 bytes in one round that calls nothing
/// (most strings a message holds), its places reported after; longer ones round by round.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2_each(b: &[u8], f: &mut impl FnMut(usize) -> bool) -> bool {
    if (8..=32).contains(&b.len()) {
        // SAFETY: the caller checked that the CPU has AVX2; 8 <= len <= 32.
        return report(unsafe { avx2::short(b) }, 0, f);
    }
    if b.len() > 32 {
        // SAFETY: the CPU has AVX2; len > 32.
        return unsafe { avx2::each(b, f) };
    }
    // SAFETY: AVX2 implies SSSE3.
    unsafe { ssse3::each(b, f) }
}

/// Calls `f(at + k)` for each bit `k` set in `mask`, lowest first, until `f` returns `false`.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
fn report(mut mask: u32, at: usize, f: &mut impl FnMut(usize) -> bool) -> bool {
    while mask != 0 {
        if !f(at + mask.trailing_zeros() as usize) {
            return false;
        }
        mask &= mask - 1;
    }
    true
}

/// The rounds of sixteen places the SSSE3 and WebAssembly SIMD paths share: `block(at)` gives
/// the places of the sixteen bytes from `at` as bits (it reads the byte before and the byte after
/// them; `at + 17 <= b.len()` here), and `short(v)` those of a string of 8 to 16 bytes held in
/// `v`, zeros after its end (a zero byte is no anchor's first or second byte).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
fn rounds(
    b: &[u8],
    f: &mut impl FnMut(usize) -> bool,
    block: impl Fn(usize) -> u32,
    short: impl Fn(u128) -> u32,
) -> bool {
    let mut i = 0;
    // Each block reads the byte after it (the second byte of its last place).
    while i + 17 <= b.len() {
        if !report(block(i), i, f) {
            return false;
        }
        i += 16;
    }
    let len = b.len();
    if i == len {
        return true;
    }
    if len >= 17 {
        // The last block again, overlapping the one before: its places from `i` on.
        let start = len - 17;
        let fresh = u32::MAX << (i - start);
        if !report(block(start) & fresh, start, f) {
            return false;
        }
        // The very last place has no second byte: only `=` anchors there.
        return b[len - 1] != b'=' || f(len - 1);
    }
    if len < 8 {
        return (i..len).all(f);
    }
    // A short string (8 to 16 bytes), from two overlapping 8-byte reads.
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let low = word(0);
    let high = word(len - 8)
        .checked_shr(8 * (16 - len) as u32)
        .unwrap_or(0);
    let v = u128::from(low) | u128::from(high) << 64;
    report(short(v) & ((1u32 << len) - 1), 0, f)
}

/// A way to run [`each`] (for the tests).
#[cfg(test)]
pub(super) type Path = fn(&[u8], &mut dyn FnMut(usize) -> bool) -> bool;

/// Each way [`each`] may run on this CPU, by name, for the tests (they must agree).
#[cfg(test)]
pub(super) fn paths() -> Vec<(&'static str, Path)> {
    let mut paths: Vec<(&'static str, Path)> = vec![("scalar", |b, f| scalar(b, f))];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU has SSSE3.
            paths.push(("ssse3", |b, f| unsafe { ssse3::each(b, &mut &mut *f) }));
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            paths.push(("avx2", |b, f| avx2_each(b, &mut &mut *f)));
        }
    }
    paths
}

/// [`each`] one place at a time: word starts and every byte that is not a word byte.
#[cfg(any(test, not(all(target_arch = "wasm32", target_feature = "simd128"))))]
pub(super) fn scalar(b: &[u8], mut f: impl FnMut(usize) -> bool) -> bool {
    (0..b.len()).all(|i| (i > 0 && WORD[usize::from(b[i - 1])] && WORD[usize::from(b[i])]) || f(i))
}

/// `[A-Za-z0-9_]`, by byte (what `rules::is_word` says).
#[cfg(any(test, not(all(target_arch = "wasm32", target_feature = "simd128"))))]
static WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = super::rules::is_word(c as u8);
        c += 1;
    }
    t
};

#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use super::{PUNCTUATION_LED, TABLES};
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x, _mm_setzero_si128,
        _mm_shuffle_epi8, _mm_slli_si128, _mm_srli_epi16,
    };

    /// [`super::each`] sixteen places at a time.
    ///
    /// # Safety
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn each(b: &[u8], f: &mut impl FnMut(usize) -> bool) -> bool {
        let table = |t: &[u8; 16]| _mm_loadu_si128(t.as_ptr().cast::<__m128i>());
        let (first_lo, first_hi) = (table(&TABLES.first_lo), table(&TABLES.first_hi));
        let (second_lo, second_hi) = (table(&TABLES.second_lo), table(&TABLES.second_hi));
        let (word_lo, word_hi) = (table(&TABLES.word_lo), table(&TABLES.word_hi));
        let punctuation = _mm_set1_epi8(PUNCTUATION_LED as i8);
        let nibble = _mm_set1_epi8(0x0f);
        let eq = _mm_set1_epi8(b'=' as i8);
        let zero = _mm_setzero_si128();
        let buckets = |v: __m128i, lo: __m128i, hi: __m128i| {
            let low = _mm_and_si128(v, nibble);
            let high = _mm_and_si128(_mm_srli_epi16(v, 4), nibble);
            _mm_and_si128(_mm_shuffle_epi8(lo, low), _mm_shuffle_epi8(hi, high))
        };
        // The places of one block of 16: its bytes, the bytes before and after each.
        let places = |prev: __m128i, here: __m128i, next: __m128i| {
            let both = _mm_and_si128(
                buckets(here, first_lo, first_hi),
                buckets(next, second_lo, second_hi),
            );
            // Word-led anchors only where the byte before is not a word byte.
            let after_no_word = _mm_cmpeq_epi8(buckets(prev, word_lo, word_hi), zero);
            let word_led = _mm_and_si128(_mm_andnot_si128(punctuation, both), after_no_word);
            let led = _mm_or_si128(word_led, _mm_and_si128(both, punctuation));
            let none = _mm_cmpeq_epi8(led, zero);
            let hits = _mm_or_si128(_mm_cmpeq_epi8(none, zero), _mm_cmpeq_epi8(here, eq));
            _mm_movemask_epi8(hits) as u32
        };
        // The block of 16 starting at `at` (the bytes before and after it are read too).
        let block = |at: usize| {
            let p = b.as_ptr().add(at);
            let here = _mm_loadu_si128(p.cast::<__m128i>());
            // Before the first byte: a zero, which is no word byte.
            let prev = if at == 0 {
                _mm_slli_si128::<1>(here)
            } else {
                _mm_loadu_si128(p.sub(1).cast::<__m128i>())
            };
            places(prev, here, _mm_loadu_si128(p.add(1).cast::<__m128i>()))
        };

        let vector = |x: u128| _mm_set_epi64x((x >> 64) as i64, x as i64);
        // SAFETY (the blocks' loads): `rounds` keeps `at + 17 <= b.len()`.
        super::rounds(b, f, block, |v| {
            places(vector(v << 8), vector(v), vector(v >> 8))
        })
    }
}

/// The SSSE3 path's rounds in WebAssembly SIMD (`i8x16.swizzle` is `pshufb` for indexes below
/// sixteen).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::{PUNCTUATION_LED, TABLES};
    use std::arch::wasm32::{
        i8x16_shuffle, u64x2, u8x16_bitmask, u8x16_eq, u8x16_shr, u8x16_splat, u8x16_swizzle, v128,
        v128_and, v128_andnot, v128_load, v128_or,
    };

    /// `v`'s bytes moved up by one lane, a zero into the first.
    fn shift_up(v: v128) -> v128 {
        i8x16_shuffle::<16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14>(v, u8x16_splat(0))
    }

    /// [`super::each`] sixteen places at a time.
    pub(super) fn each(b: &[u8], f: &mut impl FnMut(usize) -> bool) -> bool {
        // SAFETY: each table is sixteen bytes (WebAssembly loads need no alignment).
        let table = |t: &[u8; 16]| unsafe { v128_load(t.as_ptr().cast::<v128>()) };
        let (first_lo, first_hi) = (table(&TABLES.first_lo), table(&TABLES.first_hi));
        let (second_lo, second_hi) = (table(&TABLES.second_lo), table(&TABLES.second_hi));
        let (word_lo, word_hi) = (table(&TABLES.word_lo), table(&TABLES.word_hi));
        let punctuation = u8x16_splat(PUNCTUATION_LED);
        let nibble = u8x16_splat(0x0f);
        let eq = u8x16_splat(b'=');
        let zero = u8x16_splat(0);
        // The closures copy the tables (`move`): borrowed, each round read them through the
        // closures' pointers to copies kept on the stack.
        let buckets = move |v: v128, lo: v128, hi: v128| {
            v128_and(
                u8x16_swizzle(lo, v128_and(v, nibble)),
                u8x16_swizzle(hi, u8x16_shr(v, 4)),
            )
        };
        // The places of one block of 16: its bytes, the bytes before and after each.
        let places = move |prev: v128, here: v128, next: v128| {
            let both = v128_and(
                buckets(here, first_lo, first_hi),
                buckets(next, second_lo, second_hi),
            );
            // Word-led anchors only where the byte before is not a word byte.
            let after_no_word = u8x16_eq(buckets(prev, word_lo, word_hi), zero);
            let word_led = v128_and(v128_andnot(both, punctuation), after_no_word);
            let led = v128_or(word_led, v128_and(both, punctuation));
            let none = u8x16_eq(led, zero);
            let hits = v128_or(u8x16_eq(none, zero), u8x16_eq(here, eq));
            u32::from(u8x16_bitmask(hits))
        };
        // The block of 16 starting at `at` (the bytes before and after it are read too).
        // SAFETY: `rounds` keeps `at + 17 <= b.len()`, so the three loads are inside `b`.
        let block = move |at: usize| unsafe {
            let p = b.as_ptr().add(at);
            let here = v128_load(p.cast::<v128>());
            // Before the first byte: a zero, which is no word byte.
            let prev = if at == 0 {
                shift_up(here)
            } else {
                v128_load(p.sub(1).cast::<v128>())
            };
            places(prev, here, v128_load(p.add(1).cast::<v128>()))
        };

        let vector = |x: u128| u64x2(x as u64, (x >> 64) as u64);
        super::rounds(b, f, block, move |v| {
            places(vector(v << 8), vector(v), vector(v >> 8))
        })
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{report, PUNCTUATION_LED, TABLES};
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_alignr_epi8, _mm256_and_si256, _mm256_broadcastsi128_si256,
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_set_m128i, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_zextsi128_si256, _mm_loadu_si128,
        _mm_set_epi64x, _mm_slli_si128, _mm_srli_si128,
    };

    /// The SSSE3 path's nibble tables and constants, in both lanes.
    struct Classes {
        first: [__m256i; 2],
        second: [__m256i; 2],
        word: [__m256i; 2],
        punctuation: __m256i,
        nibble: __m256i,
        eq: __m256i,
        zero: __m256i,
    }

    impl Classes {
        #[target_feature(enable = "avx2")]
        fn new() -> Classes {
            // SAFETY: each table is sixteen bytes.
            let table = |t: &[u8; 16]| {
                _mm256_broadcastsi128_si256(unsafe {
                    _mm_loadu_si128(t.as_ptr().cast::<__m128i>())
                })
            };
            Classes {
                first: [table(&TABLES.first_lo), table(&TABLES.first_hi)],
                second: [table(&TABLES.second_lo), table(&TABLES.second_hi)],
                word: [table(&TABLES.word_lo), table(&TABLES.word_hi)],
                punctuation: _mm256_set1_epi8(PUNCTUATION_LED as i8),
                nibble: _mm256_set1_epi8(0x0f),
                eq: _mm256_set1_epi8(b'=' as i8),
                zero: _mm256_setzero_si256(),
            }
        }

        /// The buckets each byte of `v` allows, by the nibble tables `[lo, hi]`.
        #[target_feature(enable = "avx2")]
        fn buckets(&self, v: __m256i, [lo, hi]: [__m256i; 2]) -> __m256i {
            let low = _mm256_and_si256(v, self.nibble);
            let high = _mm256_and_si256(_mm256_srli_epi16(v, 4), self.nibble);
            _mm256_and_si256(_mm256_shuffle_epi8(lo, low), _mm256_shuffle_epi8(hi, high))
        }

        /// Thirty-two places as bits, from their bytes and the bytes before and after each.
        #[target_feature(enable = "avx2")]
        fn places(&self, prev: __m256i, here: __m256i, next: __m256i) -> u32 {
            let both = _mm256_and_si256(
                self.buckets(here, self.first),
                self.buckets(next, self.second),
            );
            // Word-led anchors only where the byte before is not a word byte (all ones there).
            let after_no_word = _mm256_cmpeq_epi8(self.buckets(prev, self.word), self.zero);
            let led = _mm256_and_si256(both, _mm256_or_si256(after_no_word, self.punctuation));
            let none = _mm256_movemask_epi8(_mm256_cmpeq_epi8(led, self.zero)) as u32;
            !none | _mm256_movemask_epi8(_mm256_cmpeq_epi8(here, self.eq)) as u32
        }
    }

    /// The places of a string of 8 to 32 bytes, as bits: one round, nothing called. Up to
    /// sixteen bytes, the string is built in registers from two overlapping 8-byte reads,
    /// zeros around it; longer, it is two lanes of sixteen, the first from its first byte and
    /// the second ending at its last (only the second lane's places past the first count).
    ///
    /// # Safety
    /// The CPU must have AVX2, and `b` must hold 8 to 32 bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn short(b: &[u8]) -> u32 {
        let len = b.len();
        debug_assert!((8..=32).contains(&len));
        let classes = Classes::new();
        if len <= 16 {
            let word = |at: usize| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[at..at + 8]);
                u64::from_le_bytes(w)
            };
            // Zeros after the end (a zero byte is no anchor's first or second byte).
            let high = word(len - 8)
                .checked_shr(8 * (16 - len) as u32)
                .unwrap_or(0);
            let here = _mm_set_epi64x(high as i64, word(0) as i64);
            let mask = classes.places(
                _mm256_zextsi128_si256(_mm_slli_si128::<1>(here)),
                _mm256_zextsi128_si256(here),
                _mm256_zextsi128_si256(_mm_srli_si128::<1>(here)),
            );
            return mask & ((1u32 << len) - 1);
        }
        let p = b.as_ptr();
        // SAFETY: 16 < len <= 32: every read below, 16 bytes from 0, 1, len - 17 or
        // len - 16, is inside `b`.
        let load = |at: usize| unsafe { _mm_loadu_si128(p.add(at).cast::<__m128i>()) };
        let (first, last) = (load(0), load(len - 16));
        let mask = classes.places(
            _mm256_set_m128i(load(len - 17), _mm_slli_si128::<1>(first)),
            _mm256_set_m128i(last, first),
            _mm256_set_m128i(_mm_srli_si128::<1>(last), load(1)),
        );
        mask & 0xffff | (mask >> 16 & 0xffff << (32 - len)) << (len - 16)
    }

    /// [`super::each`] on more than 32 bytes, thirty-two places a round. The last 1 to 32
    /// places take one round too, as two lanes of sixteen: one from the first place left (or
    /// ending at the string's end, when fewer than sixteen are left) and one ending at the
    /// string's end (only its places past the first lane count).
    ///
    /// # Safety
    /// The CPU must have AVX2, and `b` must hold more than 32 bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn each(b: &[u8], f: &mut impl FnMut(usize) -> bool) -> bool {
        let len = b.len();
        debug_assert!(len > 32);
        let classes = Classes::new();
        let p = b.as_ptr();
        let load = |at: usize| unsafe { _mm256_loadu_si256(p.add(at).cast::<__m256i>()) };
        let mut at = 0;
        // Whole rounds, while the byte after the round's last place is inside `b`.
        while at + 33 <= len {
            // SAFETY (the loads): at + 33 <= len: `at .. at + 33` is inside `b`, and `at - 1`
            // when 0 < at.
            let here = load(at);
            let prev = if at == 0 {
                // Before the first byte, a zero (no word byte): the bytes moved up by one.
                _mm256_alignr_epi8::<15>(here, _mm256_permute2x128_si256::<0x08>(here, here))
            } else {
                load(at - 1)
            };
            if !report(classes.places(prev, here, load(at + 1)), at, f) {
                return false;
            }
            at += 32;
        }
        // The last 1 to 32 places (0 < at: a whole round was read). A lane of sixteen from
        // `start` (`0 < start`, `start + 16 <= len`): the bytes before, at and after each
        // place; after the last byte, a zero (no anchor's second byte).
        // SAFETY: every read is inside `b`: `start - 1 .. start + 15`, `start .. start + 16`,
        // and `start + 1 .. start + 17` when start + 16 < len.
        let lane = |start: usize| unsafe {
            let q = p.add(start);
            let here = _mm_loadu_si128(q.cast::<__m128i>());
            let next = if start + 16 == len {
                _mm_srli_si128::<1>(here)
            } else {
                _mm_loadu_si128(q.add(1).cast::<__m128i>())
            };
            [_mm_loadu_si128(q.sub(1).cast::<__m128i>()), here, next]
        };
        let left = len - at;
        let first = if left >= 16 { at } else { len - 16 };
        let (low, high) = (lane(first), lane(len - 16));
        let pair = |i: usize| _mm256_set_m128i(high[i], low[i]);
        let mask = classes.places(pair(0), pair(1), pair(2));
        // The first lane's places from `at` on; the second lane's past the first lane.
        let mut fresh = (mask & 0xffff) >> (at - first);
        if left > 16 {
            fresh |= (mask >> 16 & 0xffff << (32 - left)) << (left - 16);
        }
        report(fresh, at, f)
    }
}
