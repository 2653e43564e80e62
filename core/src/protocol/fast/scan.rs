//! The tokenizer of the path from bytes: JSON text read in place, strings borrowed unless they
//! have escapes.
//!
//! It accepts a subset of what `serde_json`'s parser accepts, and gives up ([`Stop`]) on
//! everything else, so that a message it reads is one the `Value` path reads the same way:
//! - the text must be UTF-8 as a whole (checked once, by the caller making a `&str`);
//! - whitespace, literals, strings and structure follow RFC 8259 exactly as `serde_json`
//!   does (no comments, no trailing commas, control characters in strings refused);
//! - a `\u` escape of a surrogate (paired or lone) gives up;
//! - a number other than a non-negative integer of at most 19 digits is handed to
//!   `serde_json` itself, so its value (and its refusal of `1e400`) is the parser's;
//! - nesting gives up well before `serde_json`'s depth limit.

use crate::protocol::json::Num;
use crate::protocol::same::same;
use crate::protocol::validator::Leaf;
use std::borrow::Cow;

/// Not read here: the full path decides (a syntax error, a surrogate escape, deep nesting).
#[derive(Debug)]
pub(crate) struct Stop;

/// The result of a read.
pub(crate) type Read<T> = Result<T, Stop>;

/// Nesting at which this reader gives up (`serde_json` refuses 128 levels).
const MAX_DEPTH: u32 = 100;

/// A literal or a number.
#[derive(Clone, Copy)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    Num(Num),
}

impl Scalar {
    /// The scalar as a rule checks it.
    pub(crate) fn leaf(self) -> Leaf<'static> {
        match self {
            Scalar::Null => Leaf::Null,
            Scalar::Bool(b) => Leaf::Bool(b),
            Scalar::Num(n) => Leaf::Num(n),
        }
    }
}

/// A cursor over JSON text.
pub(crate) struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    depth: u32,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    pub(crate) fn new(text: &'a str) -> Self {
        Scanner {
            text,
            pos: 0,
            depth: 0,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// A scanner at offset `pos` of `text` (a value read before, read again).
    pub(crate) fn at(text: &'a str, pos: usize) -> Self {
        Scanner {
            text,
            pos,
            depth: 0,
        }
    }

    /// The offset of the next byte.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Skips whitespace and returns the next byte, if any.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        let b = *bytes.get(self.pos)?;
        if !is_whitespace(b) {
            return Some(b);
        }
        self.pos = skip_whitespace(bytes, self.pos + 1);
        bytes.get(self.pos).copied()
    }

    /// Skips whitespace and consumes `b`.
    pub(crate) fn eat(&mut self, b: u8) -> Read<()> {
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Stop)
        }
    }

    /// Consumes the rest: only whitespace may follow the value.
    pub(crate) fn end(&mut self) -> Read<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(Stop),
        }
    }

    /// Enters an array or object (its opening byte already consumed).
    pub(crate) fn enter(&mut self) -> Read<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Stop);
        }
        Ok(())
    }

    /// Leaves an array or object.
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// After an object's `{` or a member: `true` when a member follows (its name is next),
    /// `false` at the closing `}`. `first` is whether no member was read yet.
    #[inline]
    pub(crate) fn next_member(&mut self, first: bool) -> Read<bool> {
        match self.peek() {
            Some(b'}') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b',') if !first => {
                self.pos += 1;
                if self.peek() == Some(b'"') {
                    Ok(true)
                } else {
                    Err(Stop)
                }
            }
            Some(b'"') if first => Ok(true),
            _ => Err(Stop),
        }
    }

    /// Whether the next member is named `name` as written, without escapes (`name` has no
    /// character that needs one); if so, consumes the name and its colon.
    #[cfg_attr(not(feature = "speed"), inline)]
    #[cfg_attr(feature = "speed", inline(always))]
    pub(crate) fn name_is(&mut self, name: &str) -> bool {
        let bytes = self.bytes();
        let at = self.pos;
        let end = at + 1 + name.len();
        let written = bytes.get(at) == Some(&b'"')
            && bytes.get(end) == Some(&b'"')
            && self.text.get(at + 1..end).is_some_and(|t| same(t, name));
        if !written {
            return false;
        }
        self.pos = end + 1;
        if self.eat(b':').is_err() {
            // Not a member after all: read it again, as written, to fail there.
            self.pos = at;
            return false;
        }
        true
    }

    /// A member name and its colon.
    #[cfg_attr(feature = "speed", inline(always))]
    pub(crate) fn name(&mut self) -> Read<Cow<'a, str>> {
        self.eat(b'"')?;
        let name = self.string()?;
        self.eat(b':')?;
        Ok(name)
    }

    /// After an array's `[` or an item: `true` when an item follows, `false` at `]`.
    pub(crate) fn next_item(&mut self, first: bool) -> Read<bool> {
        match self.peek() {
            Some(b']') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b',') if !first => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) if first => Ok(true),
            _ => Err(Stop),
        }
    }

    /// Reads a value no rule covers, exactly as any value is read, building nothing.
    pub(crate) fn skip_value(&mut self) -> Read<()> {
        match self.peek().ok_or(Stop)? {
            b'"' => {
                self.pos += 1;
                self.skip_string()
            }
            b'{' => {
                self.pos += 1;
                self.enter()?;
                self.skip_members()?;
                self.leave();
                Ok(())
            }
            b'[' => {
                self.pos += 1;
                self.enter()?;
                let mut first = true;
                while self.next_item(first)? {
                    first = false;
                    self.skip_value()?;
                }
                self.leave();
                Ok(())
            }
            _ => self.scalar().map(|_| ()),
        }
    }

    /// Reads the members of an object no rule covers (after its `{`).
    pub(crate) fn skip_members(&mut self) -> Read<()> {
        let mut first = true;
        while self.next_member(first)? {
            first = false;
            self.pos += 1;
            self.skip_string()?;
            self.eat(b':')?;
            self.skip_value()?;
        }
        Ok(())
    }

    /// Consumes the byte `peek` returned.
    pub(crate) fn bump(&mut self) {
        self.pos += 1;
    }

    /// A literal or a number, its first byte not consumed yet (anything else is not one).
    pub(crate) fn scalar(&mut self) -> Read<Scalar> {
        match self.peek().ok_or(Stop)? {
            b't' => self.literal("true").map(|()| Scalar::Bool(true)),
            b'f' => self.literal("false").map(|()| Scalar::Bool(false)),
            b'n' => self.literal("null").map(|()| Scalar::Null),
            b'-' | b'0'..=b'9' => self.number().map(Scalar::Num),
            _ => Err(Stop),
        }
    }

    /// The literal `word` (`true`, `false`, `null`), its first byte not consumed yet.
    fn literal(&mut self, word: &str) -> Read<()> {
        if self.bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Stop)
        }
    }

    /// Reads a string whose text is not needed (its opening quote consumed): the same checks
    /// as [`Scanner::string`], nothing built.
    pub(crate) fn skip_string(&mut self) -> Read<()> {
        let bytes = self.bytes();
        let mut i = self.pos;
        loop {
            i = skip_plain(bytes, i);
            match bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(());
                }
                Some(b'\\') => i += 1 + escape(&bytes[i + 1..])?.1,
                _ => return Err(Stop),
            }
        }
    }

    /// A string, its opening quote consumed: borrowed from the text unless it has escapes.
    #[cfg_attr(not(feature = "speed"), inline)]
    #[cfg_attr(feature = "speed", inline(always))]
    pub(crate) fn string(&mut self) -> Read<Cow<'a, str>> {
        let start = self.pos;
        let end = skip_plain(self.bytes(), start);
        if self.bytes().get(end) == Some(&b'"') {
            self.pos = end + 1;
            // Both ends are ASCII quotes: char boundaries.
            return self.text.get(start..end).map(Cow::Borrowed).ok_or(Stop);
        }
        self.escaped(start, end)
    }

    /// The rest of a string from its first escape (or bad byte) at `i`.
    #[cold]
    fn escaped(&mut self, start: usize, mut i: usize) -> Read<Cow<'a, str>> {
        let bytes = self.bytes();
        let mut owned = String::with_capacity(i - start + 8);
        owned.push_str(&self.text[start..i]);
        loop {
            match bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(Cow::Owned(owned));
                }
                Some(b'\\') => {
                    let (c, len) = escape(&bytes[i + 1..])?;
                    owned.push(c);
                    i += 1 + len;
                }
                _ => return Err(Stop),
            }
            let run = skip_plain(bytes, i);
            owned.push_str(&self.text[i..run]);
            i = run;
        }
    }

    /// A number, its first byte not consumed yet.
    pub(crate) fn number(&mut self) -> Read<Num> {
        let bytes = self.bytes();
        let start = self.pos;
        let end = start
            + bytes[start..]
                .iter()
                .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .count();
        self.pos = end;
        let token = &bytes[start..end];
        let simple = !token.is_empty()
            && token.len() <= 19
            && token.iter().all(u8::is_ascii_digit)
            && (token[0] != b'0' || token.len() == 1);
        if simple {
            let n = token.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
            // Below 10^19, so it is the parser's u64 and this is its f64 value.
            #[allow(clippy::cast_precision_loss)]
            let value = n as f64;
            return Ok(Num {
                value,
                integer: true,
            });
        }
        // Anything else is the parser's to read (and to refuse).
        let number: serde_json::Number =
            serde_json::from_str(&self.text[start..end]).map_err(|_| Stop)?;
        Ok(Num::of(&number))
    }
}

/// The end of the run of string bytes from `i` that need no attention: not a quote, not a
/// backslash, not a control character. On x86-64 sixteen bytes at a time (SSE2 is part of
/// x86-64: no CPU check), the last few bytes of the text out of line ([`skip_plain_words`]),
/// so that the loop most strings end in needs no saved registers; the same with WebAssembly
/// SIMD (the npm package's build); elsewhere eight at a time.
#[inline(always)]
fn skip_plain(bytes: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        let mut i = i;
        while let Some(chunk) = bytes.get(i..i + 16) {
            // SAFETY: `chunk` holds sixteen bytes; SSE2 is enabled on every x86-64 target.
            let hits = unsafe {
                let x = _mm_loadu_si128(chunk.as_ptr().cast());
                let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
                // A control byte is at most 0x1f: the larger of it and 0x1f is 0x1f.
                let low = _mm_set1_epi8(0x1f);
                let control = _mm_cmpeq_epi8(_mm_max_epu8(x, low), low);
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control))
            };
            if hits != 0 {
                return i + hits.trailing_zeros() as usize;
            }
            i += 16;
        }
        skip_plain_words(bytes, i)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use std::arch::wasm32::{
            u8x16_bitmask, u8x16_eq, u8x16_max, u8x16_splat, v128_load, v128_or,
        };
        let mut i = i;
        while let Some(chunk) = bytes.get(i..i + 16) {
            // SAFETY: `chunk` holds sixteen bytes (WebAssembly loads need no alignment).
            let x = unsafe { v128_load(chunk.as_ptr().cast()) };
            let quote = u8x16_eq(x, u8x16_splat(b'"'));
            let backslash = u8x16_eq(x, u8x16_splat(b'\\'));
            // A control byte is at most 0x1f: the larger of it and 0x1f is 0x1f.
            let low = u8x16_splat(0x1f);
            let control = u8x16_eq(u8x16_max(x, low), low);
            let hits = u8x16_bitmask(v128_or(v128_or(quote, backslash), control));
            if hits != 0 {
                return i + hits.trailing_zeros() as usize;
            }
            i += 16;
        }
        skip_plain_words(bytes, i)
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    skip_plain_words(bytes, i)
}

/// JSON whitespace (RFC 8259: space, tab, line feed, carriage return).
fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

/// The end of the run of whitespace from `i` (a pretty-printed message's line breaks and
/// indents): on x86-64 sixteen bytes at a time, elsewhere one.
#[inline(never)]
fn skip_whitespace(bytes: &[u8], mut i: usize) -> usize {
    // Most runs are one byte (the space after a pretty-printed member's colon).
    if !bytes.get(i).is_some_and(|&b| is_whitespace(b)) {
        return i;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        while let Some(chunk) = bytes.get(i..i + 16) {
            // SAFETY: `chunk` holds sixteen bytes; SSE2 is enabled on every x86-64 target.
            let spaces = unsafe {
                let x = _mm_loadu_si128(chunk.as_ptr().cast());
                let is = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
                let white = _mm_or_si128(
                    _mm_or_si128(is(b' '), is(b'\n')),
                    _mm_or_si128(is(b'\t'), is(b'\r')),
                );
                _mm_movemask_epi8(white) as u32
            };
            if spaces != 0xffff {
                return i + (!spaces).trailing_zeros() as usize;
            }
            i += 16;
        }
    }
    while bytes.get(i).is_some_and(|&b| is_whitespace(b)) {
        i += 1;
    }
    i
}

/// [`skip_plain`] eight bytes at a time, then one: the lowest flagged byte of each test below
/// is exact (borrows only run upwards), so its position is the answer.
#[cfg_attr(target_arch = "x86_64", inline(never))]
#[cfg_attr(not(target_arch = "x86_64"), inline(always))]
fn skip_plain_words(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let below = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        let hits = below | zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\')));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// An escape after its backslash: the character and how many bytes it took.
fn escape(rest: &[u8]) -> Read<(char, usize)> {
    let c = match rest.first().ok_or(Stop)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hex = rest.get(1..5).ok_or(Stop)?;
            let code = hex.iter().try_fold(0u32, |n, &h| {
                let d = char::from(h).to_digit(16)?;
                Some(n * 16 + d)
            });
            // A surrogate (paired or not) is the parser's to read.
            let c = code.and_then(char::from_u32).ok_or(Stop)?;
            return Ok((c, 5));
        }
        _ => return Err(Stop),
    };
    Ok((c, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_runs_stop_at_quotes_backslashes_and_controls() {
        for (text, at) in [
            ("abcdefghijklmnop\"", 16),
            ("abcdefgh\\ijklmnop", 8),
            ("abc\u{1}defghijklmnop", 3),
            ("héllo wörld, ünïcödé\"", 26),
            ("", 0),
        ] {
            assert_eq!(skip_plain(text.as_bytes(), 0), at, "{text:?}");
        }
    }

    proptest::proptest! {
        /// Sixteen, eight and one byte at a time, from any place: the first byte that needs
        /// attention, as a byte-by-byte look finds it.
        #[test]
        fn plain_runs_end_where_a_byte_by_byte_look_ends_them(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    6 => 0x20u8..=0xff,
                    1 => proptest::sample::select(vec![b'"', b'\\', 0x00, 0x1f, 0x7f, 0x20]),
                ],
                0..80,
            ),
            from in 0usize..80,
        ) {
            let from = from.min(bytes.len());
            let want = (from..bytes.len())
                .find(|&i| matches!(bytes[i], b'"' | b'\\' | 0..=0x1f))
                .unwrap_or(bytes.len());
            proptest::prop_assert_eq!(skip_plain(&bytes, from), want);
        }
    }

    proptest::proptest! {
        /// Sixteen bytes and one at a time, from any place: the first byte that is not JSON
        /// whitespace, as a byte-by-byte look finds it.
        #[test]
        fn whitespace_runs_end_where_a_byte_by_byte_look_ends_them(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    8 => proptest::sample::select(vec![b' ', b'\n', b'\t', b'\r']),
                    1 => proptest::num::u8::ANY,
                ],
                0..80,
            ),
            from in 0usize..80,
        ) {
            let from = from.min(bytes.len());
            let want = (from..bytes.len())
                .find(|&i| !matches!(bytes[i], b' ' | b'\n' | b'\t' | b'\r'))
                .unwrap_or(bytes.len());
            proptest::prop_assert_eq!(skip_whitespace(&bytes, from), want);
        }
    }

    #[test]
    fn strings_and_numbers_read_as_the_parser_reads_them() {
        for text in [r#"plain""#, r#"a\"b\\c\/d\n\u00e9\u0000""#, "é\""] {
            let mut s = Scanner::new(text);
            let got = s.string().unwrap();
            let want: String = serde_json::from_str(&format!("\"{text}")).unwrap();
            assert_eq!(got, want);
        }
        let mut s = Scanner::new(r#""type" "x": 1"#);
        assert!(!s.name_is("type"));
        assert!(
            s.name().is_err(),
            "read again from the name, the colon is missing"
        );
        for bad in [r#"\ud83d\ude00""#, "\u{1}\"", r#"\x""#, "open"] {
            assert!(Scanner::new(bad).string().is_err(), "{bad}");
        }
        for text in [
            "0",
            "7",
            "1234567890123456789",
            "12345678901234567890",
            "-0",
            "-5",
            "5.0",
            "1e2",
            "0.5",
        ] {
            let got = Scanner::new(text).number().unwrap();
            let want: serde_json::Number = serde_json::from_str(text).unwrap();
            assert_eq!(got, Num::of(&want), "{text}");
        }
        for bad in ["01", "1e400", "-", "1.", "--1", "+1"] {
            assert!(Scanner::new(bad).number().is_err(), "{bad}");
        }
    }
}
