//! Equality of short strings (member names, discriminator values) without a call: the
//! validation paths compare a name with a registry name once or twice per member, and a call to
//! `memcmp` (with its size dispatch) cost more than the comparison (10% of the path from bytes'
//! time in a profile over the benchmark's valid messages).

/// Whether `a` and `b` hold the same bytes: up to 32 bytes as two overlapping loads per side.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => u32_at(a, 0) == u32_at(b, 0) && u32_at(a, n - 4) == u32_at(b, n - 4),
        8..=16 => u64_at(a, 0) == u64_at(b, 0) && u64_at(a, n - 8) == u64_at(b, n - 8),
        17..=32 => u128_at(a, 0) == u128_at(b, 0) && u128_at(a, n - 16) == u128_at(b, n - 16),
        _ => a == b,
    }
}

/// The four bytes of `s` from `at`, as one number.
#[inline(always)]
fn u32_at(s: &[u8], at: usize) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(&s[at..at + 4]);
    u32::from_ne_bytes(w)
}

/// The eight bytes of `s` from `at`, as one number.
#[inline(always)]
fn u64_at(s: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(w)
}

/// The sixteen bytes of `s` from `at`, as one number.
#[inline(always)]
fn u128_at(s: &[u8], at: usize) -> u128 {
    let mut w = [0; 16];
    w.copy_from_slice(&s[at..at + 16]);
    u128::from_ne_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::same;

    /// Against `==`, the model: names of every length the loads cover and past them, each
    /// equal copy, each one-byte change at each position, each other length; and a list of
    /// real names, non-ASCII among them.
    #[test]
    fn equal_exactly_when_the_bytes_are() {
        let alphabet = "abcdefghijklmnopqrstuvwxyz_0123456789ABCDEFGHIJK";
        for n in 0..=alphabet.len() {
            let a = &alphabet[..n];
            let copy = String::from(a);
            assert!(same(a, &copy), "{a:?}");
            for i in 0..n {
                let mut changed = a.as_bytes().to_vec();
                changed[i] ^= 1;
                let c = std::str::from_utf8(&changed).unwrap();
                assert!(!same(a, c), "{a:?} {c:?}");
            }
            for m in 0..=alphabet.len() {
                let b = &alphabet[..m];
                assert_eq!(same(a, b), a == b, "{a:?} {b:?}");
            }
        }
        let names = [
            "type",
            "subject",
            "body_md",
            "message_id",
            "message_ie",
            "sender_id",
            "scheming_detected",
            "scheming_detecteD",
            "driverTranscript",
            "Subject",
            "étagé",
            "étagè",
        ];
        for a in names {
            for b in names {
                assert_eq!(same(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }
}
