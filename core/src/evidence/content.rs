//! What a file read from the linked folder holds, as the reviewer may be shown it: text (its
//! lines), text that is not UTF-8 (shown with replacement characters, said so), or a file
//! that is not shown: binary (its kind), too large (its size), missing, unreadable (why).
//! Every shown file carries the SHA-256 of its bytes, the digest a contract's
//! `test_fingerprints` compare.

use crate::fingerprint::Sha256Digest;
use serde::{Deserialize, Serialize};

/// The largest file shown: 4 MiB. Contracts, tests and diffs are far smaller; a larger file is
/// refused by its size before it is read (the browser knows a file's size without reading it).
pub const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// How many leading bytes are looked at for a NUL (as git does to call a file binary).
const SNIFF: usize = 8000;

/// A file as read: shown (text, maybe lossy) or named with the reason it is not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Content {
    /// Text to show.
    Text(TextFile),
    /// Not shown: a binary file.
    Binary {
        /// Its size in bytes.
        size: u64,
        /// What it looks like (`PNG image`, `ZIP archive`, `binary data`).
        kind: String,
        /// The SHA-256 of its bytes.
        sha256: Sha256Digest,
    },
    /// Not read: larger than [`MAX_BYTES`].
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// No such file in the folder.
    Missing,
    /// The folder refused the read (permission, a directory where a file was expected, …).
    Unreadable {
        /// Why, in the browser's words.
        reason: String,
    },
}

/// A file shown as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextFile {
    /// The text (lossy when the bytes are not UTF-8).
    pub text: String,
    /// The SHA-256 of the bytes (not of the text shown).
    pub sha256: Sha256Digest,
    /// Its size in bytes.
    pub size: u64,
    /// The bytes are not UTF-8: invalid sequences are shown as U+FFFD.
    pub lossy: bool,
}

impl TextFile {
    /// The lines, numbered from 1 (a final line break ends the last line, it does not start
    /// an empty one).
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.text.lines().enumerate().map(|(i, l)| (i + 1, l))
    }
}

impl Content {
    /// Classifies bytes read from a file.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Content {
        let size = bytes.len() as u64;
        if size > MAX_BYTES {
            return Content::TooLarge {
                size,
                limit: MAX_BYTES,
            };
        }
        let sha256 = Sha256Digest::of(bytes);
        if let Some(kind) = binary_kind(bytes) {
            return Content::Binary {
                size,
                kind: kind.to_owned(),
                sha256,
            };
        }
        let (text, lossy) = match std::str::from_utf8(bytes) {
            Ok(text) => (text.to_owned(), false),
            Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
        };
        Content::Text(TextFile {
            text,
            sha256,
            size,
            lossy,
        })
    }

    /// A file the browser did not read because of its size.
    #[must_use]
    pub fn too_large(size: u64) -> Content {
        Content::TooLarge {
            size,
            limit: MAX_BYTES,
        }
    }

    /// The digest of the bytes, when they were read.
    #[must_use]
    pub fn sha256(&self) -> Option<Sha256Digest> {
        match self {
            Content::Text(t) => Some(t.sha256),
            Content::Binary { sha256, .. } => Some(*sha256),
            Content::TooLarge { .. } | Content::Missing | Content::Unreadable { .. } => None,
        }
    }

    /// The text, when the file is shown.
    #[must_use]
    pub fn text(&self) -> Option<&TextFile> {
        match self {
            Content::Text(t) => Some(t),
            _ => None,
        }
    }

    /// Why the file is not shown (or the note a lossy one carries), in words naming `path`.
    #[must_use]
    pub fn note(&self, path: &str) -> Option<String> {
        Some(match self {
            Content::Text(t) if t.lossy => format!(
                "{path} is not valid UTF-8: shown with replacement characters (�); its SHA-256 is of the bytes on disk"
            ),
            Content::Text(_) => return None,
            Content::Binary { size, kind, .. } => {
                format!("{path} is not shown: {kind}, {} (not text)", bytes(*size))
            }
            Content::TooLarge { size, limit } => format!(
                "{path} is not shown: {} is over the {} limit",
                bytes(*size),
                bytes(*limit)
            ),
            Content::Missing => format!("{path} is not in the linked folder"),
            Content::Unreadable { reason } => format!("{path} could not be read: {reason}"),
        })
    }
}

/// A size for people: `812 bytes`, `52.4 MB`.
#[must_use]
pub fn bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GB"), (1 << 20, "MB"), (1 << 10, "KB")];
    for (unit, name) in UNITS {
        if n >= unit {
            let tenths = n * 10 / unit;
            return format!("{}.{} {name}", tenths / 10, tenths % 10);
        }
    }
    format!("{n} bytes")
}

/// The kind of a binary file: a known signature, else a NUL in the first 8,000 bytes.
fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "PNG image"),
        (b"\xff\xd8\xff", "JPEG image"),
        (b"GIF8", "GIF image"),
        (b"%PDF-", "PDF document"),
        (b"PK\x03\x04", "ZIP archive"),
        (b"\x1f\x8b", "gzip archive"),
        (b"\x7fELF", "ELF executable"),
        (b"\0asm", "WebAssembly module"),
        (b"SQLite format 3\0", "SQLite database"),
    ];
    SIGNATURES
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|(_, kind)| *kind)
        .or_else(|| {
            bytes[..bytes.len().min(SNIFF)]
                .contains(&0)
                .then_some("binary data")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies() {
        let Content::Text(t) = Content::of(b"a\nb\n") else {
            panic!()
        };
        assert_eq!(t.lines().collect::<Vec<_>>(), vec![(1, "a"), (2, "b")]);
        assert!(!t.lossy);
        let Content::Text(t) = Content::of(b"caf\xe9\n") else {
            panic!()
        };
        assert!(t.lossy && t.text.contains('\u{fffd}'));
        assert_eq!(t.sha256, Sha256Digest::of(b"caf\xe9\n"));
        assert!(Content::of(b"caf\xe9")
            .note("x.py")
            .unwrap()
            .contains("not valid UTF-8"));
        assert!(
            matches!(Content::of(b"\x89PNG\r\n\x1a\nxx"), Content::Binary { ref kind, .. } if kind == "PNG image")
        );
        assert!(
            matches!(Content::of(b"ab\0cd"), Content::Binary { ref kind, .. } if kind == "binary data")
        );
        let big = Content::too_large(50 * 1024 * 1024);
        assert_eq!(
            big.note("big.bin").unwrap(),
            "big.bin is not shown: 50.0 MB is over the 4.0 MB limit"
        );
        assert_eq!(bytes(812), "812 bytes");
    }

    #[test]
    fn digests_cross_as_hex() {
        let d = Sha256Digest::of(b"x");
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, format!("\"{d}\""));
        assert_eq!(serde_json::from_str::<Sha256Digest>(&json).unwrap(), d);
        let prefixed = format!("\"sha256:{d}\"");
        assert_eq!(serde_json::from_str::<Sha256Digest>(&prefixed).unwrap(), d);
    }
}
