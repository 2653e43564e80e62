//! Contract integrity computed from the linked folder: each fingerprinted file's SHA-256 now
//! against the baseline (`test_fingerprints` of CONTRACT_FINAL or of the accepted change
//! order), and for a changed file whose baseline text is known (kept when the reviewer read
//! it at checkpoint #1, or shipped with the demo), the lines that differ.

use super::content::Content;
use super::diff_view::{annotate, FileView};
use super::path::FolderPath;
use crate::audit::diff::{between, Diff};
use crate::fingerprint::{verify, Fingerprints, Sha256Digest, Tamper};
use serde::{Deserialize, Serialize};

/// The contract's state on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every fingerprinted file has its baseline digest.
    Intact,
    /// A file changed or is gone.
    Tampered,
    /// No changed file, but a file could not be read (too large, unreadable): not known.
    Incomplete,
    /// The contract carries no fingerprints to compare with.
    NoBaseline,
}

/// One fingerprinted file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileCheck {
    /// The file.
    pub path: FolderPath,
    /// The baseline digest.
    pub baseline: Sha256Digest,
    /// Its digest now, when read.
    pub current: Option<Sha256Digest>,
    /// What it is now.
    pub state: FileState,
    /// The lines that differ from the baseline text, when that text is known.
    pub changes: Option<FileView>,
}

/// What a fingerprinted file is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileState {
    /// As fingerprinted.
    Same,
    /// Its bytes changed.
    Modified,
    /// Gone from the folder.
    Missing,
    /// Not read (too large or unreadable): not known.
    NotRead,
}

/// The contract's integrity against the folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Integrity {
    /// The verdict.
    pub verdict: Verdict,
    /// Every fingerprinted file, in path order.
    pub files: Vec<FileCheck>,
}

impl Integrity {
    /// The files that changed or are gone.
    pub fn tampered(&self) -> impl Iterator<Item = &FileCheck> {
        self.files
            .iter()
            .filter(|f| matches!(f.state, FileState::Modified | FileState::Missing))
    }
}

/// Compares the files as read (`read` gives each fingerprinted path's content, `None` when the
/// folder was not asked) with `baseline`; `baseline_text` gives a text known to have a digest.
#[must_use]
pub fn check<'a>(
    baseline: Option<&Fingerprints>,
    read: impl Fn(&FolderPath) -> Option<&'a Content>,
    baseline_text: impl Fn(&Sha256Digest) -> Option<&'a str>,
) -> Integrity {
    let Some(baseline) = baseline.filter(|b| !b.is_empty()) else {
        return Integrity {
            verdict: Verdict::NoBaseline,
            files: Vec::new(),
        };
    };
    let mut current = Fingerprints::default();
    let mut not_read = Vec::new();
    let mut contents = Vec::new();
    for (path, _) in baseline.iter() {
        let Ok(folder) = super::path::resolve(path.as_str()) else {
            continue;
        };
        match read(&folder) {
            Some(Content::Text(t)) => {
                contents.push((path.clone(), Some(t.text.as_str())));
                let _ = current.insert_digest(path.clone(), t.sha256);
            }
            Some(Content::Binary { sha256, .. }) => {
                contents.push((path.clone(), None));
                let _ = current.insert_digest(path.clone(), *sha256);
            }
            Some(Content::Missing) => {}
            Some(Content::TooLarge { .. } | Content::Unreadable { .. }) | None => {
                not_read.push(path.clone());
            }
        }
    }
    let verification = verify(baseline, &current);
    let files: Vec<FileCheck> = baseline
        .iter()
        .filter_map(|(path, &expected)| {
            let folder = super::path::resolve(path.as_str()).ok()?;
            let tamper = verification.tampered.iter().find(|t| t.path() == path);
            let state = match tamper {
                Some(Tamper::Modified { .. }) => FileState::Modified,
                Some(Tamper::Missing { .. }) if not_read.contains(path) => FileState::NotRead,
                Some(Tamper::Missing { .. }) => FileState::Missing,
                _ => FileState::Same,
            };
            let now = contents
                .iter()
                .find(|(p, _)| p == path)
                .and_then(|(_, t)| *t);
            let changes = match (state, baseline_text(&expected), now) {
                (FileState::Modified, Some(before), Some(after)) => {
                    let diff = Diff {
                        files: vec![between(path.clone(), before, after)],
                    };
                    annotate(&diff, Vec::new()).files.into_iter().next()
                }
                _ => None,
            };
            Some(FileCheck {
                path: folder,
                baseline: expected,
                current: current.get(path.as_str()),
                state,
                changes,
            })
        })
        .collect();
    let verdict = if files
        .iter()
        .any(|f| matches!(f.state, FileState::Modified | FileState::Missing))
    {
        Verdict::Tampered
    } else if files.iter().any(|f| f.state == FileState::NotRead) {
        Verdict::Incomplete
    } else {
        Verdict::Intact
    };
    Integrity { verdict, files }
}
