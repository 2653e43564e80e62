//! The matchers of the table's rules: each looks at one place of a text and says whether its
//! secret starts (or is anchored) there, and where it lies.

use super::names::{is_placeholder, is_secret_name};
use super::table::Form;
use std::ops::Range;

/// A match: the secret's bytes, how many of its first bytes may be shown (a provider prefix,
/// a PEM header), and the text the issue shows around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hit {
    /// The secret.
    pub(super) span: Range<usize>,
    /// Leading bytes of `span` that are public (the kind, not the secret).
    pub(super) shown: usize,
    /// What the message quotes, `span` masked inside it.
    pub(super) context: Range<usize>,
}

impl Hit {
    fn plain(span: Range<usize>, shown: usize) -> Hit {
        Hit {
            context: span.clone(),
            span,
            shown,
        }
    }
}

/// A character that continues a word (`\w`).
pub(super) const fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The end of the run of bytes from `at` that satisfy `f`.
fn run_end(b: &[u8], at: usize, f: impl Fn(u8) -> bool) -> usize {
    at + b
        .get(at..)
        .map_or(0, |r| r.iter().take_while(|&&c| f(c)).count())
}

/// A provider token of `form` at `i`.
pub(super) fn prefixed(b: &[u8], i: usize, form: &Form) -> Option<Hit> {
    if !b[i..].starts_with(form.prefix.as_bytes()) || (i > 0 && is_word(b[i - 1])) {
        return None;
    }
    let start = i + form.prefix.len();
    let end = run_end(b, start, |c| form.body.has(c));
    let n = end - start;
    let fits = (form.min..=form.max).contains(&n)
        && b.get(end).is_none_or(|&c| !is_word(c))
        && (!form.digit || b[start..end].iter().any(u8::is_ascii_digit));
    fits.then(|| Hit::plain(i..end, form.prefix.len()))
}

/// A JSON Web Token at `i`.
pub(super) fn jwt(b: &[u8], i: usize) -> Option<Hit> {
    let boundary = i == 0 || !(base64url(b[i - 1]) || b[i - 1] == b'.');
    if !boundary {
        return None;
    }
    let segment = |at: usize| -> Option<usize> {
        let end = run_end(b, at, base64url);
        (b[at..].starts_with(b"eyJ") && end - at >= 13).then_some(end)
    };
    let header = segment(i)?;
    if b.get(header) != Some(&b'.') {
        return None;
    }
    let payload = segment(header + 1)?;
    if b.get(payload) != Some(&b'.') {
        return None;
    }
    let signature = run_end(b, payload + 1, base64url);
    let end = run_end(b, signature, |c| c == b'=');
    Some(Hit::plain(i..end, 3))
}

/// A PEM private key whose BEGIN line starts at `i`.
pub(super) fn private_key(text: &str, i: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let rest = text.get(i..)?.strip_prefix("-----BEGIN ")?;
    let close = rest.get(..rest.len().min(120))?.find("-----")?;
    let label = &rest[..close];
    let label_ok = label
        .bytes()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || matches!(c, b' ' | b'_' | b'-'));
    if !label_ok || !(label.ends_with("PRIVATE KEY") || label.ends_with("PRIVATE KEY BLOCK")) {
        return None;
    }
    let header_end = i + "-----BEGIN ".len() + close + 5;
    // Key material: lines of base64 (one of at least 32 characters: prose words are shorter),
    // with the encrypted form's `Proc-Type: 4,ENCRYPTED` and `DEK-Info:` header lines, up to
    // the END line.
    let (mut line, mut longest) = (0, 0);
    let mut at = header_end;
    while at < b.len() {
        if b[at..].starts_with(b"-----END") {
            at = text[at + 5..]
                .find("-----")
                .map_or(b.len(), |k| at + 5 + k + 5);
            break;
        }
        let c = b[at];
        if c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'=' {
            line += 1;
            longest = longest.max(line);
        } else if c.is_ascii_whitespace() || matches!(c, b':' | b',' | b'-') {
            line = 0;
        } else {
            break;
        }
        at += 1;
    }
    (longest >= 32).then(|| Hit::plain(i..at, header_end - i))
}

/// The authority of a URL ends at one of these (or whitespace).
fn ends_authority(c: u8) -> bool {
    c <= b' ' || matches!(c, b'/' | b'?' | b'#' | b'"' | b'\'' | b'<' | b'>' | b'\\')
}

/// A password in the URL whose `://` is at `j`.
pub(super) fn url_credentials(text: &str, j: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let scheme_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-');
    let mut k = j;
    while k > 0 && scheme_char(b[k - 1]) {
        k -= 1;
    }
    while k < j && !b[k].is_ascii_alphabetic() {
        k += 1;
    }
    if k == j || (k > 0 && is_word(b[k - 1])) {
        return None;
    }
    let authority = j + 3;
    let end = authority
        + b[authority..]
            .iter()
            .take_while(|&&c| !ends_authority(c))
            .count();
    let at = authority + text[authority..end].rfind('@')?;
    let colon = authority + text[authority..at].find(':')?;
    let password = &text[colon + 1..at];
    let user = &text[authority..colon];
    if password.is_empty() || at + 1 == end || password_placeholder(user, password) {
        return None;
    }
    Some(Hit {
        span: colon + 1..at,
        shown: 0,
        context: k..end,
    })
}

/// Passwords that are stand-ins in URLs: the generic placeholders, one character (`x`), or
/// the user's name repeated (`user:user`).
fn password_placeholder(user: &str, password: &str) -> bool {
    password.chars().count() == 1 || is_placeholder(password) || (password == user)
}

/// An `Authorization` credential whose scheme word (`Bearer`, `bearer`, `BEARER`, `Basic`,
/// `BASIC`) starts at `i`, at a word boundary, followed by ASCII whitespace and the credential
/// (up to the next blank).
pub(super) fn authorization(text: &str, i: usize) -> Option<Hit> {
    let b = text.as_bytes();
    if i > 0 && is_word(b[i - 1]) {
        return None;
    }
    let rest = &text[i..];
    let scheme = ["Bearer", "bearer", "BEARER", "Basic", "BASIC"]
        .into_iter()
        .find(|s| rest.starts_with(s))?;
    let mut start = i + scheme.len();
    if !b.get(start).is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    while b.get(start).is_some_and(u8::is_ascii_whitespace) {
        start += 1;
    }
    let end = start + b[start..].iter().take_while(|&&c| c > b' ').count();
    let token = text[start..end].trim_end_matches([',', ';', ')', '"', '\'', '.']);
    let token_end = start + token.len();
    let ok = if scheme.eq_ignore_ascii_case("bearer") {
        bearer_token(token)
    } else {
        basic_credentials(token)
    };
    ok.then_some(Hit {
        span: start..token_end,
        shown: 0,
        context: i..token_end,
    })
}

fn bearer_token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    body.len() >= 16
        && body.bytes().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'~' | b'+' | b'/' | b'-')
        })
        && body.bytes().any(|c| c.is_ascii_alphabetic())
        && body.bytes().any(|c| c.is_ascii_digit())
        && !is_placeholder(body)
}

/// Base64 of `user:password` (a password that is not a placeholder).
fn basic_credentials(token: &str) -> bool {
    if token.len() < 12 {
        return false;
    }
    let Some(decoded) = decode_base64(token) else {
        return false;
    };
    let Ok(text) = String::from_utf8(decoded) else {
        return false;
    };
    text.split_once(':').is_some_and(|(user, password)| {
        !password.is_empty() && !password_placeholder(user, password)
    })
}

/// Standard base64 (padding optional); `None` for anything else.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let body = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in body.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// The characters a value assigned in text stops at (besides whitespace).
fn ends_value(c: u8) -> bool {
    c <= b' '
        || matches!(
            c,
            b',' | b';' | b'&' | b')' | b']' | b'}' | b'>' | b'"' | b'\''
        )
}

/// `NAME=value` whose `=` is at `j`.
pub(super) fn assignment(text: &str, j: usize) -> Option<Hit> {
    let b = text.as_bytes();
    if b.get(j + 1) == Some(&b'=') || (j > 0 && matches!(b[j - 1], b'=' | b'!' | b'<' | b'>')) {
        return None;
    }
    let name_end = if j > 0 && b[j - 1] == b':' { j - 1 } else { j };
    let name_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    let mut k = name_end;
    while k > 0 && name_char(b[k - 1]) {
        k -= 1;
    }
    if k == name_end || !is_secret_name(&text[k..name_end]) {
        return None;
    }
    let quoted = matches!(b.get(j + 1), Some(b'"' | b'\''));
    let start = j + 1 + usize::from(quoted);
    let end = start + b[start..].iter().take_while(|&&c| !ends_value(c)).count();
    let value = &text[start..end];
    (value.chars().count() >= 6 && !is_placeholder(value)).then_some(Hit {
        span: start..end,
        shown: 0,
        context: k..end,
    })
}

/// The value of a member named `name`, when the name is a secret's and the value is one.
pub(super) fn secret_member(name: &str, value: &str) -> Option<Hit> {
    if !is_secret_name(name) {
        return None;
    }
    let lead = value.len() - value.trim_start().len();
    let trimmed = value.trim();
    // An Authorization value: the credential follows its scheme.
    let token = match trimmed.split_once(char::is_whitespace) {
        Some((s, t))
            if ["bearer", "basic", "token", "digest"]
                .iter()
                .any(|w| s.eq_ignore_ascii_case(w)) =>
        {
            t.trim_start()
        }
        _ => trimmed,
    };
    // `token` is a suffix of `trimmed`.
    let scheme = trimmed.len() - token.len();
    let secret = token.chars().count() >= 4
        && !token.contains(char::is_whitespace)
        && !is_placeholder(token);
    secret.then(|| {
        let start = lead + scheme;
        Hit {
            span: start..start + token.len(),
            shown: 0,
            context: lead..start + token.len(),
        }
    })
}
