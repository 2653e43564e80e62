//! The issue model: one [`Issue`] type with a stable [`IssueCode`] kind, a [`Severity`] and an
//! instance path made of typed [`PathSegment`]s rendered as an RFC 6901 JSON Pointer.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// What went wrong. Every variant has a stable snake_case string ([`IssueCode::as_str`]); the
/// table in `docs/protocol.md` documents them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueCode {
    /// The input is not JSON (or the JSON in an Agent Mail `body_md` does not parse).
    NotJson,
    /// An Agent Mail `body_md` holds no JSON at all (a plain Markdown message): there is no
    /// protocol message to validate.
    NoProtocolMessage,
    /// No known protocol family claims the message.
    UnknownFamily,
    /// More than one protocol family claims the message; the message names the candidates.
    AmbiguousFamily,
    /// The family is known but its discriminator value names no message type of it.
    UnknownMessageType,
    /// The discriminator names a message type with several shapes and the message fits none or several.
    AmbiguousMessageType,
    /// A required member is missing; the path points at the missing member itself.
    MissingField,
    /// A value has the wrong JSON type.
    WrongType,
    /// A string is not one of the allowed values (or not the one constant value).
    NotInEnum,
    /// A number is outside its allowed range.
    OutOfRange,
    /// A string that must be non-empty is empty.
    EmptyString,
    /// A string is not an RFC 3339 date-time.
    BadTimestamp,
    /// An identifier does not have its documented form.
    BadId,
    /// A string does not match its documented pattern.
    BadPattern,
    /// A declared protocol version has a major version other than the supported one.
    VersionMismatch,
    /// Two fields that must agree (e.g. `priority` and `priority_value`) disagree.
    InconsistentFields,
    /// A string holds a secret (an API key, a token, a private key, a password): seed 004,
    /// Security 4. The message names its kind and shows it masked, never whole.
    SecretInMessage,
    /// The report lists [`MAX_ISSUES`] issues and omits the rest; this last issue counts
    /// them. It is an error when any omitted issue is one, else a warning.
    TooManyIssues,
}

/// The most issues a report lists. Past it, validation goes on counting (so `valid` stays
/// exact) and one last [`IssueCode::TooManyIssues`] issue says how many were left out.
pub const MAX_ISSUES: usize = 100;

impl IssueCode {
    /// Every code, in documentation order.
    pub const ALL: &'static [IssueCode] = &[
        IssueCode::NotJson,
        IssueCode::NoProtocolMessage,
        IssueCode::UnknownFamily,
        IssueCode::AmbiguousFamily,
        IssueCode::UnknownMessageType,
        IssueCode::AmbiguousMessageType,
        IssueCode::MissingField,
        IssueCode::WrongType,
        IssueCode::NotInEnum,
        IssueCode::OutOfRange,
        IssueCode::EmptyString,
        IssueCode::BadTimestamp,
        IssueCode::BadId,
        IssueCode::BadPattern,
        IssueCode::VersionMismatch,
        IssueCode::InconsistentFields,
        IssueCode::SecretInMessage,
        IssueCode::TooManyIssues,
    ];

    /// The stable snake_case string of this code.
    pub const fn as_str(self) -> &'static str {
        match self {
            IssueCode::NotJson => "not_json",
            IssueCode::NoProtocolMessage => "no_protocol_message",
            IssueCode::UnknownFamily => "unknown_family",
            IssueCode::AmbiguousFamily => "ambiguous_family",
            IssueCode::UnknownMessageType => "unknown_message_type",
            IssueCode::AmbiguousMessageType => "ambiguous_message_type",
            IssueCode::MissingField => "missing_field",
            IssueCode::WrongType => "wrong_type",
            IssueCode::NotInEnum => "not_in_enum",
            IssueCode::OutOfRange => "out_of_range",
            IssueCode::EmptyString => "empty_string",
            IssueCode::BadTimestamp => "bad_timestamp",
            IssueCode::BadId => "bad_id",
            IssueCode::BadPattern => "bad_pattern",
            IssueCode::VersionMismatch => "version_mismatch",
            IssueCode::InconsistentFields => "inconsistent_fields",
            IssueCode::SecretInMessage => "secret_in_message",
            IssueCode::TooManyIssues => "too_many_issues",
        }
    }
}

impl fmt::Display for IssueCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for IssueCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for IssueCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::names::by_name(d, IssueCode::ALL, IssueCode::as_str)
    }
}

/// How bad an issue is: errors make a message invalid, warnings (lenient-mode deviations) do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The message breaks a rule.
    Error,
    /// The message deviates from a rule in a way lenient mode accepts.
    Warning,
}

/// One step of an instance path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// An object member name.
    Key(String),
    /// An array index.
    Index(usize),
}

/// One path step, borrowed (as an [`super::IssueLog`]'s issues give their steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentRef<'a> {
    /// An object member name.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

/// An instance path: a list of segments, rendered as an RFC 6901 JSON Pointer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(Vec<PathSegment>);

impl Path {
    /// The empty path (the whole message).
    pub const fn root() -> Self {
        Path(Vec::new())
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &[PathSegment] {
        &self.0
    }

    /// Builds a path from segments, outermost first.
    pub fn from_segments(segments: Vec<PathSegment>) -> Self {
        Path(segments)
    }

    /// Renders the path as a JSON Pointer (`""` for the root; `~` → `~0`, `/` → `~1`).
    pub fn to_pointer(&self) -> String {
        self.to_string()
    }
}

impl Path {
    /// The segments as references.
    pub(crate) fn segment_refs(&self) -> impl Iterator<Item = SegmentRef<'_>> {
        self.0.iter().map(|seg| match seg {
            PathSegment::Key(k) => SegmentRef::Key(k),
            PathSegment::Index(i) => SegmentRef::Index(*i),
        })
    }

    /// Appends the JSON Pointer to `out` (as [`Path::to_pointer`] writes it).
    pub fn write_pointer(&self, out: &mut String) {
        push_pointer(self.segment_refs(), out);
    }
}

/// Appends the JSON Pointer of `segments` to `out`.
pub(crate) fn push_pointer<'a>(segments: impl Iterator<Item = SegmentRef<'a>>, out: &mut String) {
    let written: Result<(), std::convert::Infallible> = pointer_pieces(segments, |s| {
        out.push_str(s);
        Ok(())
    });
    let Ok(()) = written;
}

/// A JSON Pointer, handed to `piece` in pieces: runs of a member name without `~` or `/` as
/// they are, those two escaped, indexes in decimal.
pub(crate) fn pointer_pieces<'a, E>(
    segments: impl Iterator<Item = SegmentRef<'a>>,
    mut piece: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    for seg in segments {
        piece("/")?;
        match seg {
            SegmentRef::Index(i) => {
                let mut digits = [0u8; 20];
                let mut at = digits.len();
                let mut n = i;
                loop {
                    at -= 1;
                    digits[at] = b'0' + (n % 10) as u8;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                // ASCII digits.
                piece(std::str::from_utf8(&digits[at..]).unwrap_or_default())?;
            }
            SegmentRef::Key(k) => {
                let mut rest = k;
                // A byte search (a char pattern decodes every char): both are ASCII, so
                // where one is found is a char boundary.
                while let Some(at) = rest.bytes().position(|b| b == b'~' || b == b'/') {
                    piece(&rest[..at])?;
                    piece(if rest.as_bytes()[at] == b'~' {
                        "~0"
                    } else {
                        "~1"
                    })?;
                    rest = &rest[at + 1..];
                }
                piece(rest)?;
            }
        }
    }
    Ok(())
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        pointer_pieces(self.segment_refs(), |s| f.write_str(s))
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One finding about a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// Where: a JSON Pointer into the (carried) message; a missing member's own pointer.
    pub path: Path,
    /// What, as a stable code.
    pub code: IssueCode,
    /// A human-readable explanation.
    pub message: String,
    /// Error or (lenient-mode) warning.
    pub severity: Severity,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.to_pointer();
        let p = if p.is_empty() { "(root)" } else { p.as_str() };
        write!(f, "{p}: {} ({})", self.message, self.code)
    }
}

/// A path under construction, kept on the stack while validating; it is written out only when
/// an issue is listed ([`super::IssueLog`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum LazyPath<'a> {
    /// The message root.
    Root,
    /// A member of the parent object.
    Key(&'a LazyPath<'a>, &'a str),
    /// An element of the parent array.
    Index(&'a LazyPath<'a>, usize),
}

impl<'a> LazyPath<'a> {
    /// Extends the path by an object member name.
    pub(crate) fn key(&'a self, k: &'a str) -> LazyPath<'a> {
        LazyPath::Key(self, k)
    }

    /// Extends the path by an array index.
    pub(crate) fn index(&'a self, i: usize) -> LazyPath<'a> {
        LazyPath::Index(self, i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_escapes_tilde_and_slash() {
        let p = Path::from_segments(vec![
            PathSegment::Key("a/b".into()),
            PathSegment::Key("m~n".into()),
            PathSegment::Index(3),
        ]);
        assert_eq!(p.to_pointer(), "/a~1b/m~0n/3");
        assert_eq!(Path::root().to_pointer(), "");
        // Against escaping character by character (RFC 6901), on every string of up to five
        // of these characters.
        let model = |k: &str| -> String {
            k.chars()
                .map(|c| match c {
                    '~' => "~0".to_owned(),
                    '/' => "~1".to_owned(),
                    c => c.to_string(),
                })
                .collect()
        };
        let mut keys = vec![String::new()];
        for _ in 0..5 {
            keys = keys
                .iter()
                .flat_map(|k| ["~", "/", "a", "é", "0"].map(|c| format!("{k}{c}")))
                .chain(keys.iter().cloned())
                .collect();
            keys.sort();
            keys.dedup();
        }
        assert!(keys.len() > 3000, "{}", keys.len());
        for k in &keys {
            let p = Path::from_segments(vec![PathSegment::Key(k.clone()), PathSegment::Index(7)]);
            assert_eq!(p.to_pointer(), format!("/{}/7", model(k)), "{k:?}");
            let mut written = String::from("x");
            p.write_pointer(&mut written);
            assert_eq!(written, format!("x{}", p.to_pointer()));
        }
        for i in [0, 1, 9, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(
                Path(vec![PathSegment::Index(i)]).to_pointer(),
                format!("/{i}")
            );
        }
    }

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for c in IssueCode::ALL {
            assert!(seen.insert(c.as_str()));
            assert!(c
                .as_str()
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch == '_'));
        }
    }
}
