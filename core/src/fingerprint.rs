//! Contract integrity: SHA-256 fingerprints of the contract's artifacts, taken at
//! `CONTRACT_FINAL`, and their verification against later contents.
//!
//! The seed says only "Tests are fingerprinted (hash) at CONTRACT_FINAL"; the algorithm is
//! SHA-256 of each file's bytes. An accepted change order re-baselines by replacing the
//! [`Fingerprints`] value. Serialized form (the `switchboard fingerprint` output and
//! `--verify` input): one JSON object, paths in byte order, each value `"sha256:<64 hex>"`:
//!
//! ```
//! use switchboard_core::fingerprint::{fingerprint, verify, Fingerprints};
//!
//! let baseline = fingerprint([("./tests/test_auth.py", &b"assert True\n"[..])]).unwrap();
//! let json = serde_json::to_string(&baseline).unwrap();
//! assert!(json.starts_with(r#"{"tests/test_auth.py":"sha256:"#));
//! assert_eq!(Fingerprints::from_json(&json).unwrap(), baseline);
//!
//! let later = fingerprint([("tests/test_auth.py", &b"assert 1\n"[..])]).unwrap();
//! let verdict = verify(&baseline, &later);
//! assert!(!verdict.is_intact());
//! assert_eq!(verdict.tampered[0].path().as_str(), "tests/test_auth.py");
//! ```

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde::{Deserialize, Deserializer};
use sha2::{Digest as _, Sha256};
use std::fmt;

/// A path relative to the repository root, normalised: `/`-separated, no `.` or empty
/// segments, never absolute and never climbing out with `..`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContractPath(String);

impl ContractPath {
    /// Normalises `raw` (`./a//b` becomes `a/b`), rejecting empty, absolute and `..` paths.
    pub fn parse(raw: &str) -> Result<ContractPath, FingerprintError> {
        let drive =
            raw.len() >= 2 && raw.as_bytes()[1] == b':' && raw.as_bytes()[0].is_ascii_alphabetic();
        if raw.starts_with('/') || raw.starts_with('\\') || drive {
            return Err(FingerprintError::AbsolutePath(raw.to_owned()));
        }
        let mut segments = Vec::new();
        for segment in raw.split('/') {
            match segment {
                "" | "." => {}
                ".." => return Err(FingerprintError::ParentPath(raw.to_owned())),
                s => segments.push(s),
            }
        }
        if segments.is_empty() {
            return Err(FingerprintError::EmptyPath(raw.to_owned()));
        }
        Ok(ContractPath(segments.join("/")))
    }

    /// The normalised path.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The last segment.
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }
}

impl fmt::Display for ContractPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A SHA-256 digest; displays as 64 lowercase hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sha256Digest(pub [u8; 32]);

impl Sha256Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Sha256Digest {
        Sha256Digest(Sha256::digest(bytes).into())
    }

    /// Parses 64 hex digits (either case).
    pub fn from_hex(hex: &str) -> Option<Sha256Digest> {
        let bytes = hex.as_bytes();
        if bytes.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let high = (pair[0] as char).to_digit(16)?;
            let low = (pair[1] as char).to_digit(16)?;
            out[i] = (high * 16 + low) as u8;
        }
        Some(Sha256Digest(out))
    }
}

impl fmt::Display for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// Serialized as its 64 hex digits in text formats (JSON), as 32 bytes in binary ones (the
/// console's worker seam); read back from either, with or without a `sha256:` prefix.
impl Serialize for Sha256Digest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(self)
        } else {
            self.0.serialize(s)
        }
    }
}

impl<'de> serde::Deserialize<'de> for Sha256Digest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Sha256Digest, D::Error> {
        if d.is_human_readable() {
            let text = String::deserialize(d)?;
            Sha256Digest::from_hex(text.strip_prefix(PREFIX).unwrap_or(&text))
                .ok_or_else(|| serde::de::Error::custom("expected 64 hex digits"))
        } else {
            <[u8; 32]>::deserialize(d).map(Sha256Digest)
        }
    }
}

/// The seed's error code for a contract file that differs from its fingerprint (the audit's
/// `CONTRACT_TAMPERED` code is this one).
pub const CONTRACT_TAMPERED: &str = "CONTRACT_TAMPERED";

/// The prefix of a serialized digest.
const PREFIX: &str = "sha256:";

/// Fingerprints of a set of files: normalised path to SHA-256 of the bytes, in path order.
/// A sorted vector, not a tree: a contract names a handful of files, and every session keeps
/// two of these (draft and contract), so one exact-size allocation each matters at scale.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fingerprints(Vec<(ContractPath, Sha256Digest)>);

impl Fingerprints {
    /// Records the digest of `bytes` under `path`; the same path twice is an error.
    pub fn insert(&mut self, path: &str, bytes: &[u8]) -> Result<(), FingerprintError> {
        self.insert_digest(ContractPath::parse(path)?, Sha256Digest::of(bytes))
    }

    /// Records a digest already taken under `path`; the same path twice is an error.
    pub fn insert_digest(
        &mut self,
        path: ContractPath,
        digest: Sha256Digest,
    ) -> Result<(), FingerprintError> {
        match self.0.binary_search_by(|(p, _)| p.cmp(&path)) {
            Ok(_) => Err(FingerprintError::DuplicatePath(path.0)),
            Err(at) => {
                self.0.insert(at, (path, digest));
                Ok(())
            }
        }
    }

    /// The digest recorded for `path` (normalised first), if any.
    pub fn get(&self, path: &str) -> Option<Sha256Digest> {
        self.digest(&ContractPath::parse(path).ok()?)
    }

    fn digest(&self, path: &ContractPath) -> Option<Sha256Digest> {
        let at = self.0.binary_search_by(|(p, _)| p.cmp(path)).ok()?;
        Some(self.0[at].1)
    }

    /// Every path and digest, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&ContractPath, &Sha256Digest)> {
        self.0.iter().map(|(path, digest)| (path, digest))
    }

    /// How many files.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No file recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses the serialized form `{"path": "sha256:<64 hex>", ...}`.
    pub fn from_json(text: &str) -> Result<Fingerprints, FingerprintError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| FingerprintError::NotJson(e.to_string()))?;
        Fingerprints::from_value(&value)
    }

    /// Reads the serialized form from a parsed JSON value (e.g. a message's
    /// `test_fingerprints` member).
    pub fn from_value(value: &serde_json::Value) -> Result<Fingerprints, FingerprintError> {
        let serde_json::Value::Object(members) = value else {
            return Err(FingerprintError::NotAnObject);
        };
        let mut out = Fingerprints(Vec::with_capacity(members.len()));
        for (path, digest) in members {
            let parsed = digest
                .as_str()
                .and_then(|s| s.strip_prefix(PREFIX))
                .and_then(Sha256Digest::from_hex);
            let Some(parsed) = parsed else {
                return Err(FingerprintError::BadDigest {
                    path: path.clone(),
                    found: digest.to_string(),
                });
            };
            out.insert_digest(ContractPath::parse(path)?, parsed)?;
        }
        Ok(out)
    }
}

/// Text formats (JSON) read the serialized form, checked as [`Fingerprints::from_value`]
/// checks it; binary ones (the console's worker seam, postcard, which cannot read a JSON
/// value) read `(path, digest)` pairs, each path checked as [`ContractPath::parse`] checks it.
impl<'de> Deserialize<'de> for Fingerprints {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fingerprints, D::Error> {
        if !d.is_human_readable() {
            let pairs = Vec::<(String, Sha256Digest)>::deserialize(d)?;
            let mut out = Fingerprints(Vec::with_capacity(pairs.len()));
            for (path, digest) in pairs {
                ContractPath::parse(&path)
                    .and_then(|path| out.insert_digest(path, digest))
                    .map_err(serde::de::Error::custom)?;
            }
            return Ok(out);
        }
        let value = serde_json::Value::deserialize(d)?;
        Fingerprints::from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// The serialized form in text formats; `(path, digest)` pairs in binary ones.
impl Serialize for Fingerprints {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !s.is_human_readable() {
            return s.collect_seq(self.iter().map(|(path, digest)| (path.as_str(), digest)));
        }
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (path, digest) in self.iter() {
            map.serialize_entry(path.as_str(), &format!("{PREFIX}{digest}"))?;
        }
        map.end()
    }
}

/// Fingerprints `(path, bytes)` pairs; bad or repeated paths are errors.
pub fn fingerprint<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<Fingerprints, FingerprintError> {
    let mut out = Fingerprints::default();
    for (path, bytes) in files {
        out.insert(path, bytes)?;
    }
    Ok(out)
}

/// One way the current files differ from the baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tamper {
    /// The file's bytes changed.
    Modified {
        /// The file.
        path: ContractPath,
        /// The baseline digest.
        expected: Sha256Digest,
        /// The current digest.
        found: Sha256Digest,
    },
    /// A baseline file is gone.
    Missing {
        /// The file.
        path: ContractPath,
        /// The baseline digest.
        expected: Sha256Digest,
    },
    /// A file the baseline does not have (e.g. a `conftest.py` slipped in beside the tests).
    Added {
        /// The file.
        path: ContractPath,
        /// Its digest.
        found: Sha256Digest,
    },
}

impl Tamper {
    /// The file concerned.
    pub fn path(&self) -> &ContractPath {
        match self {
            Tamper::Modified { path, .. }
            | Tamper::Missing { path, .. }
            | Tamper::Added { path, .. } => path,
        }
    }

    /// The seed's error code for every tamper finding: `CONTRACT_TAMPERED`.
    pub fn code(&self) -> &'static str {
        CONTRACT_TAMPERED
    }
}

impl fmt::Display for Tamper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tamper::Modified { path, expected, found } => write!(
                f,
                "CONTRACT_TAMPERED: {path} modified (expected sha256:{expected}, found sha256:{found})"
            ),
            Tamper::Missing { path, .. } => write!(f, "CONTRACT_TAMPERED: {path} missing"),
            Tamper::Added { path, .. } => {
                write!(f, "CONTRACT_TAMPERED: {path} added (not in the baseline)")
            }
        }
    }
}

impl Serialize for Tamper {
    /// `{code, path, change: modified|missing|added, expected?, found?, message}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (change, expected, found) = match self {
            Tamper::Modified {
                expected, found, ..
            } => ("modified", Some(expected), Some(found)),
            Tamper::Missing { expected, .. } => ("missing", Some(expected), None),
            Tamper::Added { found, .. } => ("added", None, Some(found)),
        };
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("code", &self.code())?;
        map.serialize_entry("path", self.path().as_str())?;
        map.serialize_entry("change", change)?;
        if let Some(d) = expected {
            map.serialize_entry("expected", &format!("{PREFIX}{d}"))?;
        }
        if let Some(d) = found {
            map.serialize_entry("found", &format!("{PREFIX}{d}"))?;
        }
        map.serialize_entry("message", &self.to_string())?;
        map.end()
    }
}

/// The outcome of [`verify`]: every tampered file, in path order. Serializes as
/// `{intact, tampered: [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    /// What differs from the baseline; empty when the contract is intact.
    pub tampered: Vec<Tamper>,
}

impl Verification {
    /// No file differs from the baseline.
    pub fn is_intact(&self) -> bool {
        self.tampered.is_empty()
    }
}

impl Serialize for Verification {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("intact", &self.is_intact())?;
        map.serialize_entry("tampered", &self.tampered)?;
        map.end()
    }
}

/// Compares current fingerprints with the baseline: modified, missing and added files.
pub fn verify(baseline: &Fingerprints, current: &Fingerprints) -> Verification {
    let mut tampered = Vec::new();
    for (path, &expected) in baseline.iter() {
        match current.digest(path) {
            None => tampered.push(Tamper::Missing {
                path: path.clone(),
                expected,
            }),
            Some(found) if found != expected => tampered.push(Tamper::Modified {
                path: path.clone(),
                expected,
                found,
            }),
            Some(_) => {}
        }
    }
    for (path, &found) in current.iter() {
        if baseline.digest(path).is_none() {
            tampered.push(Tamper::Added {
                path: path.clone(),
                found,
            });
        }
    }
    tampered.sort_by(|a, b| a.path().cmp(b.path()));
    Verification { tampered }
}

/// Why fingerprints could not be taken or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FingerprintError {
    /// The path has no segment (`""`, `.`, `./`).
    EmptyPath(String),
    /// The path is absolute (`/x`, `\x`, `C:x`).
    AbsolutePath(String),
    /// The path has a `..` segment.
    ParentPath(String),
    /// Two entries normalise to the same path.
    DuplicatePath(String),
    /// The fingerprint file is not JSON.
    NotJson(String),
    /// The fingerprint file is JSON but not an object.
    NotAnObject,
    /// A value is not `"sha256:<64 hex digits>"`.
    BadDigest {
        /// The entry's path as written.
        path: String,
        /// The value found, as JSON.
        found: String,
    },
}

impl fmt::Display for FingerprintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FingerprintError::EmptyPath(p) => write!(f, "empty path {p:?}"),
            FingerprintError::AbsolutePath(p) => {
                write!(
                    f,
                    "absolute path {p:?} (paths are relative to the repository root)"
                )
            }
            FingerprintError::ParentPath(p) => write!(f, "path {p:?} climbs out with `..`"),
            FingerprintError::DuplicatePath(p) => write!(f, "path {p:?} appears twice"),
            FingerprintError::NotJson(e) => write!(f, "fingerprints are not JSON: {e}"),
            FingerprintError::NotAnObject => {
                write!(
                    f,
                    "fingerprints must be a JSON object of path to \"sha256:<hex>\""
                )
            }
            FingerprintError::BadDigest { path, found } => write!(
                f,
                "fingerprint of {path:?} must be \"sha256:<64 hex digits>\", found {found}"
            ),
        }
    }
}

impl std::error::Error for FingerprintError {}
