//! What the library never reads, read here at the CLI's edge: the clock and the random
//! source; and their command-line forms (`--now`, `--random`).

use crate::time::Timestamp;

/// Parses `--now`: RFC 3339 (or the forms Agent Mail servers write).
pub fn parse_now(text: &str) -> Result<Timestamp, String> {
    Timestamp::parse(text).ok_or_else(|| format!("not an RFC 3339 time: {text:?}"))
}

/// The clock.
pub fn clock() -> Timestamp {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    Timestamp(ms)
}

/// Parses `--random`: 16 bytes as 32 hex digits (dashes allowed, as in a UUID).
pub fn parse_random(text: &str) -> Result<[u8; 16], String> {
    let digits: Vec<u8> = text.bytes().filter(|b| *b != b'-').collect();
    let bad = || format!("not 16 bytes in hex (32 digits): {text:?}");
    if digits.len() != 32 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(bad());
    }
    let mut out = [0u8; 16];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        let hex = std::str::from_utf8(pair).map_err(|_| bad())?;
        out[i] = u8::from_str_radix(hex, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// 16 bytes from the operating system's random source.
///
/// # Errors
/// The source's error (no random source on this system).
pub fn random() -> Result<[u8; 16], String> {
    let mut out = [0u8; 16];
    getrandom::fill(&mut out).map_err(|e| format!("no random source: {e}"))?;
    Ok(out)
}
