//! The evidence a reviewer judges at a human checkpoint, read from the project's folder: the
//! artifacts live in the agents' working tree, not in the mail, so the review console links
//! that folder and reads them in the browser. This module is the pure part: which files a
//! session needs and whether a path may be read at all, what a file's bytes are (text, not
//! UTF-8, binary, too large), the contract's integrity against its baseline with the changed
//! lines, a diff with the audit's findings beside their lines, a change order's dependency
//! checked against the folder's manifests, and the review record of each decision sent.
//!
//! - [`path`]: a message's path resolved inside the folder, or refused.
//! - [`needs`](mod@needs): the files a session's review needs.
//! - [`content`]: what a file holds, as it may be shown.
//! - [`integrity`]: current hashes against the baseline fingerprints, with changed lines.
//! - [`report`], [`diff_view`]: an audit report as read, and a diff with its findings placed.
//! - [`change_order`]: the files, tests and dependency a change order names.
//! - [`record`]: the review record, as JSON Lines; [`trail`]: records chained and signed.

pub mod change_order;
pub mod content;
pub mod diff_view;
pub mod integrity;
pub mod needs;
pub mod path;
pub mod record;
pub mod report;
pub mod trail;

pub use needs::{needs, Artifact, Needs, Role, Search};

use crate::fingerprint::{ContractPath, Fingerprints};
use content::Content;
use path::FolderPath;

/// The name of the report `switchboard audit … --out DIR` writes in `DIR`.
pub const AUDIT_REPORT_FILE: &str = "audit_report.json";

/// The name of the diff `switchboard audit … --out DIR` writes beside the report (the diff as
/// it was read).
pub const AUDIT_DIFF_FILE: &str = "audit.diff";

/// The fingerprints of exactly the test files the reviewer was shown (the [`Role::Tests`]
/// artifacts read as text or bytes): what CONTRACT_FINAL carries when the reviewer approves,
/// so later checks compare against what was approved. Empty when none was read.
#[must_use]
pub fn reviewed_fingerprints<'a>(
    needs: &Needs,
    read: impl Fn(&FolderPath) -> Option<&'a Content>,
) -> Fingerprints {
    let mut out = Fingerprints::default();
    for artifact in needs.artifacts.iter().filter(|a| a.role == Role::Tests) {
        let Ok(path) = &artifact.path else { continue };
        let (Some(digest), Ok(contract)) = (
            read(path).and_then(Content::sha256),
            ContractPath::parse(path.as_str()),
        ) else {
            continue;
        };
        let _ = out.insert_digest(contract, digest);
    }
    out
}
