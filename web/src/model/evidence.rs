//! The evidence a reviewer judges at a checkpoint, read from the project's folder: what the
//! page read of a file (the bytes, or why there are none), handed to the engine, which turns
//! it into the core's `evidence::content::Content` and the views' models.

use super::sessions::ViolationView;
use serde::{Deserialize, Serialize};
use switchboard_core::evidence::change_order::DependencyCheck;
use switchboard_core::evidence::diff_view::DiffView;
use switchboard_core::evidence::integrity::Integrity;
use switchboard_core::evidence::path::FolderPath;
use switchboard_core::evidence::record::{Concern, Shown as ShownArtifact};
use switchboard_core::evidence::report::Report;
use switchboard_core::evidence::Role;
use switchboard_core::fingerprint::{Fingerprints, Sha256Digest};
use switchboard_core::session::pair::checkpoint::Checkpoint;

/// A file as the page read it from the linked folder (or the demo's virtual folder). The page
/// only reads bytes; what they are (text, binary, lossy) and their SHA-256 are the core's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileRead {
    /// The file's bytes.
    Bytes(Vec<u8>),
    /// Not read: larger than the core's limit (`evidence::content::MAX_BYTES`), known by its
    /// size before reading.
    TooLarge {
        /// Its size in bytes.
        size: u64,
    },
    /// No such file in the folder.
    Missing,
    /// The folder refused the read (permission revoked, a directory, …), in the browser's words.
    Unreadable {
        /// Why.
        reason: String,
    },
}

/// What the page reads from the folder for a session's evidence: these files, and these
/// directories' names (the engine then selects the diffs and manifests among them).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ReadPlan {
    /// The files to read, once each.
    pub paths: Vec<FolderPath>,
    /// The directories to list (`""`: the folder's root).
    pub dirs: Vec<String>,
}

/// The evidence of one session's review as the page shows it: written as HTML by the engine
/// (every text escaped, Markdown rendered by `crate::markdown`), with what the decision and
/// its record need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidencePage {
    /// The panels, as HTML.
    pub html: String,
    /// Every artifact shown, with its SHA-256 (the review record's).
    pub shown: Vec<ShownArtifact>,
    /// The fingerprints of exactly the test files shown: what APPROVED sends as
    /// CONTRACT_FINAL's `test_fingerprints` (empty: none was read).
    pub reviewed: Fingerprints,
    /// What the files show that an approval would override.
    pub concerns: Vec<Concern>,
}

/// The evidence of one session's review, read from its folder and laid out by the core (the
/// engine's model of [`EvidencePage`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceView {
    /// The session.
    pub session: String,
    /// The checkpoint open now, if any.
    pub checkpoint: Option<Checkpoint>,
    /// Every artifact the review needs, in review order: shown, or named with why not.
    pub artifacts: Vec<ArtifactView>,
    /// Messages naming a path that leaves the folder.
    pub violations: Vec<ViolationView>,
    /// The contract's integrity computed from the folder (once a contract exists).
    pub integrity: Option<Integrity>,
    /// The audit: its report (from the mail, the folder, or run here) and its diff.
    pub audit: Option<AuditEvidence>,
    /// The pending change order beside the contract (checkpoint #3).
    pub change_order: Option<ChangeOrderEvidence>,
    /// The fingerprints of exactly the test files shown: what APPROVED sends as
    /// CONTRACT_FINAL's `test_fingerprints` (empty: none was read).
    pub reviewed: Fingerprints,
}

/// One artifact as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtifactView {
    /// What it is to the review.
    pub role: Role,
    /// The path as the message wrote it.
    pub written: String,
    /// Where it is in the folder (`None`: refused, see `note`).
    pub path: Option<FolderPath>,
    /// The message that named it.
    pub message: Option<u64>,
    /// Its content as shown.
    pub shown: Shown,
    /// Why it is not shown, or what to know about what is (not UTF-8), naming the file.
    pub note: Option<String>,
    /// The SHA-256 of its bytes, when read.
    pub sha256: Option<Sha256Digest>,
    /// The digest the contract fingerprinted it with.
    pub baseline: Option<Sha256Digest>,
}

/// An artifact's content as the view shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shown {
    /// Markdown rendered by the console's safe renderer (`crate::markdown::render`).
    Markdown(String),
    /// Code, one entry per line (numbered from 1).
    Code(Vec<String>),
    /// Shown in the audit section (the report, the diff).
    InAudit,
    /// Not shown: see the note.
    Nothing,
}

/// Where the audit report came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuditSource {
    /// An `AUDIT_REPORT` in the mail (its message id).
    Mail(Option<u64>),
    /// An `audit_report.json` in the folder.
    File(FolderPath),
    /// No report: the core's audit, run in the engine on the diff against the contract's
    /// files read from the folder.
    Computed,
}

/// The audit of a session, with the diff it read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEvidence {
    /// Where the report came from.
    pub source: AuditSource,
    /// The report (`None`: none exists and none could be run, see `note`).
    pub report: Option<Report>,
    /// The diff, with each finding beside its line.
    pub diff: Option<(FolderPath, DiffView)>,
    /// What is missing or could not be read, naming the file.
    pub note: Option<String>,
}

/// The pending change order beside the contract it would change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeOrderEvidence {
    /// The tests (and files) its texts name, found in the folder.
    pub tests: Vec<NamedTest>,
    /// The dependencies it asks for, checked against the folder's manifests.
    pub dependencies: Vec<DependencyCheck>,
    /// The manifests read.
    pub manifests: Vec<FolderPath>,
}

/// A file or test a change order names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedTest {
    /// The file as written.
    pub file: String,
    /// The test named in it (`file::test`).
    pub test: Option<String>,
    /// The test's lines, numbered (empty: not found, see `note`).
    pub lines: Vec<(usize, String)>,
    /// Why it is not shown.
    pub note: Option<String>,
}
