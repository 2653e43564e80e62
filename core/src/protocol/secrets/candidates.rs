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
//! bucket combine); each candidate is then checked exactly. Elsewhere (wasm) every place is
//! checked against the pair table. `tests` holds the two to the same answer.

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

#[cfg(target_arch = "x86_64")]
/// The bucket of the anchors led by punctuation (`--`, `://`); every other bucket's anchors
/// start a word, so they are places only after a byte that is not `[A-Za-z0-9_]`.
const PUNCTUATION_LED: u8 = 1 << 6;

#[cfg(target_arch = "x86_64")]
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

#[cfg(target_arch = "x86_64")]
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
#[inline]
pub(super) fn each(b: &[u8], f: impl FnMut(usize) -> bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("ssse3") {
            let mut f = f;
            // SAFETY: the CPU has SSSE3, checked just above.
            return unsafe { ssse3::each(b, &mut f) };
        }
    }
    scalar(b, f)
}

/// [`each`] one place at a time: word starts and every byte that is not a word byte.
pub(super) fn scalar(b: &[u8], mut f: impl FnMut(usize) -> bool) -> bool {
    (0..b.len()).all(|i| (i > 0 && WORD[usize::from(b[i - 1])] && WORD[usize::from(b[i])]) || f(i))
}

/// `[A-Za-z0-9_]`, by byte (what `rules::is_word` says).
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
        fn report(mut mask: u32, at: usize, f: &mut impl FnMut(usize) -> bool) -> bool {
            while mask != 0 {
                if !f(at + mask.trailing_zeros() as usize) {
                    return false;
                }
                mask &= mask - 1;
            }
            true
        }
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

        let mut i = 0;
        // Each block reads the byte after it (the second byte of its last place).
        while i + 17 <= b.len() {
            // SAFETY: i + 17 <= len, so both 16-byte loads are inside `b`.
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
        // A short string (8 to 16 bytes), built in registers from two overlapping 8-byte
        // reads, zeros after its end (a zero byte is no anchor's first or second byte).
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
        let vector = |x: u128| _mm_set_epi64x((x >> 64) as i64, x as i64);
        report(
            places(vector(v << 8), vector(v), vector(v >> 8)) & ((1u32 << len) - 1),
            0,
            f,
        )
    }
}
