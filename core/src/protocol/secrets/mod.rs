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
//! Cost: only the places whose first two bytes can start a detector are tried (a table built
//! at compile time from the detectors' prefixes), found sixteen bytes at a time
//! (the `candidates` module); text without secrets pays about one pass of vector instructions.
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

mod candidates;
mod names;
mod rules;
mod table;

pub use names::{is_placeholder, is_secret_name};
pub use table::{Charset, Detector, Form, Rule, DETECTORS};

use rules::Hit;
use std::borrow::Cow;
use std::ops::Range;
use table::TABLE;

/// Strings shorter than this hold no secret any detector finds in text (the shortest is a URL
/// password, `s://:pw@h`).
pub const MIN_TEXT: usize = 9;

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
#[inline(always)]
pub fn holds_secret(name: Option<&str>, value: &str) -> bool {
    // Most strings are too short for any rule in text or hold no place a detector may start
    // (answered by vector rounds where the string is read); a member's value is also one
    // itself when the member is named like a secret.
    let in_text = value.len() >= MIN_TEXT && !candidates::none_in(value.as_bytes());
    match name {
        None => in_text && text_holds_secret(value),
        Some(name) => secret_member(name, value) || in_text && text_holds_secret(value),
    }
}

/// Whether a member's value is a secret by the member's name ([`rules::secret_member`]).
#[inline(never)]
fn secret_member(name: &str, value: &str) -> bool {
    rules::secret_member(name, value).is_some()
}

/// Whether [`scan_text`] finds a secret in a string, past the first tests of [`holds_secret`].
#[inline(never)]
fn text_holds_secret(value: &str) -> bool {
    let mut found = false;
    text_hits(value, &mut |_, _| {
        found = true;
        false
    });
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

/// Patterns (by name) whose strings cannot hold a secret any detector finds: `agent-` and
/// lower-case letters and digits; a UUID (hex and dashes, `msg-` before); lower-case hex. No
/// provider prefix, `eyJ`, `-----`, `://`, `=` or `Bearer`/`Basic` fits their alphabets, and no
/// member is named by them (`tests` generates strings of each and finds none).
const SECRET_FREE_PATTERNS: &[&str] = &["agent_id", "message_id", "commit_sha"];

/// Whether a string that matches the pattern named `pattern` may hold a secret.
#[must_use]
pub fn pattern_may_hold_secret(pattern: &str) -> bool {
    !SECRET_FREE_PATTERNS.contains(&pattern)
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
    if b.len() < MIN_TEXT {
        return;
    }
    candidates::each(b, |i| !anchored(b, i) || try_at(text, i, sink));
}

/// Whether a detector may start at `i` (its first two bytes are an anchor pair).
#[inline]
fn anchored(b: &[u8], i: usize) -> bool {
    // A byte past ASCII is no anchor's second byte: it reads as 0, which only `=` (any
    // second byte) takes.
    let first = usize::from(b[i] & 127);
    let second = b
        .get(i + 1)
        .filter(|c| c.is_ascii())
        .map_or(0, |&c| usize::from(c));
    b[i] < 128 && ANCHORS[first][second >> 6] >> (second & 63) & 1 == 1
}

/// Tries the detectors that may start with the byte at `i`; `false` when the sink asked to
/// stop. A place inside a word starts none of the word-led ones (each wants a word boundary
/// before it), so only the punctuation-led ones (`--`, `://`, `=`) are tried there.
fn try_at(text: &str, i: usize, sink: &mut impl Sink) -> bool {
    let b = text.as_bytes();
    let first = b[i];
    if i > 0 && rules::is_word(first) && rules::is_word(b[i - 1]) {
        return true;
    }
    let mut candidates = BY_FIRST[usize::from(first & 127)];
    while candidates != 0 {
        let idx = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let hit = match TABLE[idx].rule {
            Rule::Prefixed(forms) => forms.iter().find_map(|f| rules::prefixed(b, i, f)),
            Rule::Jwt => rules::jwt(b, i),
            Rule::PrivateKey => rules::private_key(text, i),
            Rule::UrlCredentials if b[i..].starts_with(b"://") => rules::url_credentials(text, i),
            Rule::Assignment => rules::assignment(text, i),
            Rule::AuthorizationHeader => rules::authorization(text, i),
            Rule::UrlCredentials | Rule::SecretName => None,
        };
        if let Some(hit) = hit {
            if !sink(idx, hit) {
                return false;
            }
        }
    }
    true
}

/// For each first byte (ASCII), the detectors (bit per table row) that may start with it.
static BY_FIRST: [u32; 128] = {
    const fn set(mut t: [u32; 128], c: u8, d: usize) -> [u32; 128] {
        t[c as usize] |= 1 << d;
        t
    }
    assert!(TABLE.len() <= 32);
    let mut t = [0u32; 128];
    let mut d = 0;
    while d < TABLE.len() {
        t = match TABLE[d].rule {
            Rule::Prefixed(forms) => {
                let mut k = 0;
                while k < forms.len() {
                    t = set(t, forms[k].prefix.as_bytes()[0], d);
                    k += 1;
                }
                t
            }
            Rule::Jwt => set(t, b'e', d),
            Rule::PrivateKey => set(t, b'-', d),
            Rule::UrlCredentials => set(t, b':', d),
            Rule::Assignment => set(t, b'=', d),
            Rule::AuthorizationHeader => set(set(t, b'B', d), b'b', d),
            Rule::SecretName => t,
        };
        d += 1;
    }
    t
};

/// The table index of the member-name rule.
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

/// For each first byte (ASCII), the second bytes (bit per ASCII value) at which a detector may
/// start: every provider prefix's first two bytes, and the fixed anchors (`ey` of a JWT, `--`
/// of a PEM line, `:/` of a URL, `=` of an assignment, `Be` `be` `BE` `Ba` `BA` of an
/// `Authorization` scheme). Every pair is in a bucket of [`candidates`] (checked when built).
static ANCHORS: [[u64; 2]; 128] = anchors();

const fn anchors() -> [[u64; 2]; 128] {
    const fn add(mut t: [[u64; 2]; 128], pair: &[u8]) -> [[u64; 2]; 128] {
        assert!(
            candidates::bucketed(pair),
            "an anchor pair outside the buckets"
        );
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
            Rule::AuthorizationHeader => {
                let t = add(add(t, b"Be"), b"be");
                add(add(add(t, b"BE"), b"Ba"), b"BA")
            }
            Rule::SecretName => t,
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
