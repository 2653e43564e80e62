//! Secrets in messages (seed 004, Security 4: "Never include passwords, API keys, or secrets in
//! messages"). The Agent Mail archive is a Git repository: a key that reaches it is hard to
//! take back, so the validator reports one as `secret_in_message` and never repeats it.
//!
//! One table ([`DETECTORS`]) says what a secret is: provider tokens by their public prefixes,
//! JSON Web Tokens, PEM private keys, passwords in URLs, `Authorization` credentials,
//! `NAME=value` assignments and members named like secrets. [`scan_text`] and [`scan_member`]
//! find them in one string; each [`Finding`] carries the secret masked (`AKIA…(20 chars)`):
//! the kind's public prefix, then only the length.
//!
//! Cost: a string is first cut at whitespace; only runs of [`MIN_RUN`] or more non-blank
//! characters are looked at, and in them only the places whose first two bytes can start a
//! detector (a table built at compile time from the detectors' prefixes). Prose pays one pass
//! of eight bytes at a time.
//!
//! ```
//! use switchboard_core::protocol::secrets::{scan_member, scan_text};
//!
//! let found = scan_text("boto3 failed with key AKIAIOSFODNN7EXAMPLE in us-east-1");
//! assert_eq!(found[0].detector.id, "aws-access-key-id");
//! assert_eq!(found[0].masked, "AKIA…(20 chars)");
//! assert!(scan_text("rotate the AWS access key and update the password policy").is_empty());
//! assert_eq!(scan_member("db_password", "hunter22")[0].masked, "…(8 chars)");
//! assert!(scan_member("db_password", "${DB_PASSWORD}").is_empty());
//! ```

mod names;
mod rules;
mod table;

pub use names::{is_placeholder, is_secret_name};
pub use table::{Charset, Detector, Form, Rule, DETECTORS};

use rules::Hit;
use std::borrow::Cow;
use std::ops::Range;
use table::TABLE;

/// Runs of non-blank characters shorter than this hold no secret any detector finds in text
/// (the shortest is a URL password, `s://:pw@h`).
pub const MIN_RUN: usize = 9;

/// One secret found in a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What found it.
    pub detector: &'static Detector,
    /// Where the secret lies in the string (bytes).
    pub span: Range<usize>,
    /// The secret masked: its public prefix, `…`, and its length in characters.
    pub masked: String,
    /// The text around it that the message quotes, every secret in it masked.
    pub quoted: String,
}

impl Finding {
    /// The issue message: what was found, masked, and the rule.
    #[must_use]
    pub fn message(&self) -> String {
        format!(
            "{} ({}): a message must not carry secrets (seed 004, Security 4); revoke it and \
             send a reference instead",
            self.detector.title, self.quoted
        )
    }
}

/// The secrets in a string value.
#[must_use]
pub fn scan_text(text: &str) -> Vec<Finding> {
    let mut hits = Vec::new();
    text_hits(text, &mut |idx, hit| {
        hits.push((idx, hit));
        true
    });
    findings(text, hits)
}

/// The secrets in a member's string value: the value itself when the member's name is a
/// secret's ([`is_secret_name`]) and the value is not a placeholder, and any found by
/// [`scan_text`].
#[must_use]
pub fn scan_member(name: &str, value: &str) -> Vec<Finding> {
    let mut hits = Vec::new();
    member_hits(name, value, &mut |idx, hit| {
        hits.push((idx, hit));
        true
    });
    findings(value, hits)
}

/// Whether a string (a member's value when `name` is given) holds a secret: [`scan_member`]
/// or [`scan_text`] without building findings.
#[must_use]
pub fn holds_secret(name: Option<&str>, value: &str) -> bool {
    // Most strings: too short for any rule in text, under a name no rule reads.
    if value.len() < MIN_RUN && !name.is_some_and(is_secret_name) {
        return false;
    }
    let mut found = false;
    let mut stop = |_, _| {
        found = true;
        false
    };
    match name {
        Some(name) => member_hits(name, value, &mut stop),
        None => text_hits(value, &mut stop),
    }
    found
}

/// The text with every secret [`scan_text`] finds replaced by its mask (borrowed when none).
#[must_use]
pub fn redact(text: &str) -> Cow<'_, str> {
    redact_findings(text, &scan_text(text))
}

/// A member's value with every secret [`scan_member`] finds replaced by its mask.
#[must_use]
pub fn redact_member<'a>(name: &str, value: &'a str) -> Cow<'a, str> {
    redact_findings(value, &scan_member(name, value))
}

fn redact_findings<'a>(text: &'a str, found: &[Finding]) -> Cow<'a, str> {
    if found.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for f in found {
        out.push_str(&text[at..f.span.start]);
        out.push_str(&f.masked);
        at = f.span.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// The text of an Agent Mail body around the JSON message in it (`json` a slice of `body`):
/// the prose before and after, which is scanned like any string.
#[must_use]
pub fn around<'a>(body: &'a str, json: &str) -> [&'a str; 2] {
    let start = (json.as_ptr() as usize).wrapping_sub(body.as_ptr() as usize);
    let end = start.wrapping_add(json.len());
    match (body.get(..start), body.get(end..)) {
        (Some(before), Some(after)) if start <= end => [before, after],
        _ => [body, ""],
    }
}

/// Takes each hit (detector index, hit); `false` asks to stop.
trait Sink: FnMut(usize, Hit) -> bool {}

impl<F: FnMut(usize, Hit) -> bool> Sink for F {}

fn member_hits(name: &str, value: &str, sink: &mut impl Sink) {
    if let Some(hit) = rules::secret_member(name, value) {
        if !sink(SECRET_NAME, hit) {
            return;
        }
    }
    text_hits(value, sink);
}

fn text_hits(text: &str, sink: &mut impl Sink) {
    let b = text.as_bytes();
    if b.len() < MIN_RUN {
        return;
    }
    for_each_run(b, |start, end| run_hits(text, start, end, sink));
}

/// Looks at one run of non-blank bytes; `false` when the sink asked to stop.
///
/// Tokens and JWTs start where a word starts (their rules want a word boundary before
/// them); the other anchors (`=`, `://`, `-----`) are punctuation. So the run is walked word
/// by word: at a word's start the anchor table is asked, then the word is skipped, and at the
/// punctuation after it the punctuation anchors are tried.
fn run_hits(text: &str, start: usize, end: usize, sink: &mut impl Sink) -> bool {
    let b = text.as_bytes();
    if let Some(hit) = rules::authorization(text, start, end) {
        if !sink(AUTHORIZATION, hit) {
            return false;
        }
    }
    let mut i = start;
    while i < end {
        if anchored(b, i) && !try_at(text, i, sink) {
            return false;
        }
        i += 1;
        if WORD[usize::from(b[i - 1])] {
            while i < end && WORD[usize::from(b[i])] {
                i += 1;
            }
        }
    }
    true
}

/// `[A-Za-z0-9_]`, by byte.
static WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = rules::is_word(c as u8);
        c += 1;
    }
    t
};

/// Whether a detector may start at `i` (its first two bytes are an anchor pair).
#[inline]
fn anchored(b: &[u8], i: usize) -> bool {
    let first = usize::from(b[i]);
    if first >= 128 || ANCHORS[first] == [0; 2] {
        return false;
    }
    let second = b.get(i + 1).map_or(0, |&c| usize::from(c & 127));
    ANCHORS[first][second >> 6] >> (second & 63) & 1 == 1
}

/// Tries every detector at `i`; `false` when the sink asked to stop.
fn try_at(text: &str, i: usize, sink: &mut impl Sink) -> bool {
    let b = text.as_bytes();
    let first = b[i];
    for (idx, d) in TABLE.iter().enumerate() {
        let hit = match d.rule {
            Rule::Prefixed(forms) => forms.iter().find_map(|f| rules::prefixed(b, i, f)),
            Rule::Jwt if first == b'e' => rules::jwt(b, i),
            Rule::PrivateKey if first == b'-' => rules::private_key(text, i),
            Rule::UrlCredentials if b[i..].starts_with(b"://") => rules::url_credentials(text, i),
            Rule::Assignment if first == b'=' => rules::assignment(text, i),
            _ => None,
        };
        if let Some(hit) = hit {
            if !sink(idx, hit) {
                return false;
            }
        }
    }
    true
}

/// The table index of the `Authorization` rule, and of the member-name rule.
const AUTHORIZATION: usize = index_of(Rule::AuthorizationHeader);
const SECRET_NAME: usize = index_of(Rule::SecretName);

const fn index_of(rule: Rule) -> usize {
    let mut i = 0;
    while i < TABLE.len() {
        if matches!(
            (TABLE[i].rule, rule),
            (Rule::AuthorizationHeader, Rule::AuthorizationHeader)
                | (Rule::SecretName, Rule::SecretName)
        ) {
            return i;
        }
        i += 1;
    }
    panic!("the table lacks a rule")
}

/// Calls `f(start, end)` for every run of bytes above `' '` at least [`MIN_RUN`] long, eight
/// bytes at a time (a run inside one word of eight is shorter than `MIN_RUN`, so only the runs
/// crossing words are measured); `f` returns `false` to stop.
#[inline]
fn for_each_run(b: &[u8], mut f: impl FnMut(usize, usize) -> bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const _: () = assert!(MIN_RUN > 8);
    let mut start = 0;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // Per byte, exactly: the high bit of (b | 0x80) - 0x21 is clear for b < 0x21; bytes
        // with their own high bit set (UTF-8) are never blank.
        let blank = !((x | HIGH) - ONES * 0x21) & !x & HIGH;
        if blank != 0 {
            let first = i + (blank.trailing_zeros() / 8) as usize;
            if first - start >= MIN_RUN && !f(start, first) {
                return;
            }
            start = i + 8 - (blank.leading_zeros() / 8) as usize;
        }
        i += 8;
    }
    for (k, &c) in b.iter().enumerate().skip(i) {
        if c <= b' ' {
            if k - start >= MIN_RUN && !f(start, k) {
                return;
            }
            start = k + 1;
        }
    }
    if b.len() - start >= MIN_RUN {
        f(start, b.len());
    }
}

/// For each first byte (ASCII), the second bytes (bit per ASCII value) at which a detector may
/// start: every provider prefix's first two bytes, and the fixed anchors (`ey` of a JWT, `--`
/// of a PEM line, `:/` of a URL, `=` of an assignment).
static ANCHORS: [[u64; 2]; 128] = anchors();

const fn anchors() -> [[u64; 2]; 128] {
    const fn add(mut t: [[u64; 2]; 128], pair: &[u8]) -> [[u64; 2]; 128] {
        let first = pair[0] as usize;
        if pair.len() > 1 {
            let second = pair[1] as usize;
            t[first][second >> 6] |= 1 << (second & 63);
        } else {
            t[first] = [u64::MAX; 2];
        }
        t
    }
    let mut t = [[0u64; 2]; 128];
    let mut d = 0;
    while d < TABLE.len() {
        t = match TABLE[d].rule {
            Rule::Prefixed(forms) => {
                let mut k = 0;
                while k < forms.len() {
                    t = add(t, forms[k].prefix.as_bytes());
                    k += 1;
                }
                t
            }
            Rule::Jwt => add(t, b"ey"),
            Rule::PrivateKey => add(t, b"--"),
            Rule::UrlCredentials => add(t, b":/"),
            Rule::Assignment => add(t, b"="),
            Rule::AuthorizationHeader | Rule::SecretName => t,
        };
        d += 1;
    }
    t
}

/// Hits in order, overlaps dropped (at one place, the earlier table row wins), as findings.
fn findings(text: &str, mut hits: Vec<(usize, Hit)>) -> Vec<Finding> {
    if hits.is_empty() {
        return Vec::new();
    }
    hits.sort_by_key(|(idx, h)| (h.span.start, *idx));
    let mut kept: Vec<(usize, Hit)> = Vec::with_capacity(hits.len());
    for (idx, hit) in hits {
        if kept
            .last()
            .is_none_or(|(_, k)| hit.span.start >= k.span.end)
        {
            kept.push((idx, hit));
        }
    }
    let masks: Vec<(Range<usize>, String)> = kept
        .iter()
        .map(|(_, h)| {
            let secret = &text[h.span.clone()];
            let shown = &secret[..h.shown.min(secret.len())];
            let mask = format!("{shown}…({} chars)", secret.chars().count());
            (h.span.clone(), mask)
        })
        .collect();
    kept.iter()
        .zip(&masks)
        .map(|((idx, h), (_, mask))| Finding {
            detector: &TABLE[*idx],
            span: h.span.clone(),
            masked: mask.clone(),
            quoted: quote(text, h.context.clone(), &masks),
        })
        .collect()
}

/// `text[range]` with every masked span inside it replaced by its mask.
fn quote(text: &str, range: Range<usize>, masks: &[(Range<usize>, String)]) -> String {
    let mut out = String::new();
    let mut at = range.start;
    for (span, mask) in masks {
        if span.start >= at && span.end <= range.end {
            out.push_str(&text[at..span.start]);
            out.push_str(mask);
            at = span.end;
        }
    }
    out.push_str(&text[at..range.end]);
    out
}

#[cfg(test)]
mod tests;
