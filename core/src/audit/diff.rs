//! Unified diffs (`git diff` output) as an owned, line-numbered model.
//!
//! Parsing is the `diffy` crate's `PatchSet` (git extended headers: new/deleted file mode,
//! old/new mode, rename/copy, `index`, binary markers and `GIT binary patch`; `\ No newline at
//! end of file`; hunk counts omitted as in `@@ -1 +1 @@`). This module numbers every line on
//! its side and normalises paths: the `a/` / `b/` prefixes of `---`/`+++` and `diff --git`
//! paths are dropped, rename/copy paths are taken as written.

use crate::fingerprint::{ContractPath, FingerprintError};
use diffy::patch_set::{FileMode as GitMode, FileOperation, ParseOptions, PatchKind, PatchSet};
use std::fmt;

/// A parsed diff: one entry per file, in input order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// The changed files.
    pub files: Vec<FileChange>,
}

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Created (`--- /dev/null` or `new file mode`).
    Added,
    /// Deleted (`+++ /dev/null` or `deleted file mode`).
    Deleted,
    /// Changed in place (content or mode).
    Modified,
    /// Renamed (`rename from` / `rename to`), possibly with content changes.
    Renamed,
    /// Copied (`copy from` / `copy to`), possibly with content changes.
    Copied,
}

/// A git file mode from the extended headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileMode {
    /// `100644`.
    Regular,
    /// `100755`.
    Executable,
    /// `120000`.
    Symlink,
    /// `160000` (submodule).
    Gitlink,
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// What happened.
    pub kind: ChangeKind,
    /// The path before (for an added file, the same as `new_path`, as `diff --git` writes it).
    pub old_path: ContractPath,
    /// The path after (for a deleted file, the same as `old_path`).
    pub new_path: ContractPath,
    /// The mode before, when a header names it.
    pub old_mode: Option<FileMode>,
    /// The mode after, when a header names it.
    pub new_mode: Option<FileMode>,
    /// A binary change (no line content).
    pub binary: bool,
    /// The text hunks, in order.
    pub hunks: Vec<Hunk>,
}

impl FileChange {
    /// The path a line of this kind is numbered in: the old path for removed lines.
    pub fn path(&self, line: LineKind) -> &ContractPath {
        match line {
            LineKind::Removed => &self.old_path,
            LineKind::Added | LineKind::Context => &self.new_path,
        }
    }

    /// Every line of every hunk, in order.
    pub fn lines(&self) -> impl Iterator<Item = &DiffLine> {
        self.hunks.iter().flat_map(|h| h.lines.iter())
    }
}

/// One hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// First old line (the line before the hunk when it has no old lines).
    pub old_start: usize,
    /// First new line (the line before the hunk when it has no new lines).
    pub new_start: usize,
    /// The text after the second `@@` (git's "function context"), if any.
    pub section: Option<String>,
    /// The lines.
    pub lines: Vec<DiffLine>,
}

/// A line's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// Unchanged (` `).
    Context,
    /// Added (`+`): numbered on the new side.
    Added,
    /// Removed (`-`): numbered on the old side.
    Removed,
}

/// One hunk line with its line number on its side(s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    /// Context, added or removed.
    pub kind: LineKind,
    /// Old-side number (context and removed lines).
    pub old_line: Option<usize>,
    /// New-side number (context and added lines).
    pub new_line: Option<usize>,
    /// The text without its line ending.
    pub text: String,
    /// The line had no newline (`\ No newline at end of file` followed it).
    pub no_newline: bool,
}

impl DiffLine {
    /// The number a finding on this line reports: new side unless removed.
    pub fn number(&self) -> usize {
        self.new_line.or(self.old_line).unwrap_or(0)
    }
}

/// Why a text is not a usable diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// Non-blank text with no `diff --git`, `---`/`+++` file header.
    NotADiff,
    /// The `index`-th file patch (1-based) is malformed; `reason` comes from the parser.
    Malformed {
        /// 1-based position of the file patch in the input.
        index: usize,
        /// What is wrong (with the byte offset where the parser stopped).
        reason: String,
    },
    /// A file path in the diff is absolute, empty or climbs out with `..`.
    BadPath(FingerprintError),
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffError::NotADiff => write!(
                f,
                "not a unified diff: no file header (diff --git, ---/+++) found"
            ),
            DiffError::Malformed { index, reason } => write!(f, "file patch {index}: {reason}"),
            DiffError::BadPath(e) => write!(f, "bad file path in diff: {e}"),
        }
    }
}

impl std::error::Error for DiffError {}

/// Parses `git diff` output (or a plain multi-file unified diff). Blank input is an empty diff.
pub fn parse(text: &str) -> Result<Diff, DiffError> {
    if text.trim().is_empty() {
        return Ok(Diff::default());
    }
    let git = text.lines().any(|l| l.starts_with("diff --git "));
    let options = if git {
        ParseOptions::gitdiff()
    } else {
        ParseOptions::unidiff()
    };
    let mut files = Vec::new();
    for (i, patch) in PatchSet::parse(text, options).enumerate() {
        let patch = patch.map_err(|e| {
            if files.is_empty() && !has_file_header(text) {
                DiffError::NotADiff
            } else {
                DiffError::Malformed {
                    index: i + 1,
                    reason: e.to_string(),
                }
            }
        })?;
        files.push(convert(patch)?);
    }
    Ok(Diff { files })
}

/// The line diff between two texts of one file (3 lines of context), as the model a parsed
/// diff gives: what changed in a contract file since its baseline text.
pub fn between(path: ContractPath, old: &str, new: &str) -> FileChange {
    let patch = diffy::create_patch(old, new);
    FileChange {
        kind: ChangeKind::Modified,
        old_path: path.clone(),
        new_path: path,
        old_mode: None,
        new_mode: None,
        binary: false,
        hunks: patch.hunks().iter().map(hunk).collect(),
    }
}

fn has_file_header(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("diff --git ") || l.starts_with("--- ") || l.starts_with("+++ "))
}

fn mode(m: Option<&GitMode>) -> Option<FileMode> {
    m.map(|m| match m {
        GitMode::Regular => FileMode::Regular,
        GitMode::Executable => FileMode::Executable,
        GitMode::Symlink => FileMode::Symlink,
        GitMode::Gitlink => FileMode::Gitlink,
    })
}

/// A `---`/`+++`/`diff --git` path without its `a/` or `b/` prefix.
fn prefixed(path: &str, prefix: &str) -> Result<ContractPath, DiffError> {
    ContractPath::parse(path.strip_prefix(prefix).unwrap_or(path)).map_err(DiffError::BadPath)
}

fn plain(path: &str) -> Result<ContractPath, DiffError> {
    ContractPath::parse(path).map_err(DiffError::BadPath)
}

fn convert(patch: diffy::patch_set::FilePatch<'_, str>) -> Result<FileChange, DiffError> {
    let (kind, old_path, new_path) = match patch.operation() {
        FileOperation::Create(p) => {
            let p = prefixed(p, "b/")?;
            (ChangeKind::Added, p.clone(), p)
        }
        FileOperation::Delete(p) => {
            let p = prefixed(p, "a/")?;
            (ChangeKind::Deleted, p.clone(), p)
        }
        FileOperation::Modify { original, modified } => (
            ChangeKind::Modified,
            prefixed(original, "a/")?,
            prefixed(modified, "b/")?,
        ),
        FileOperation::Rename { from, to } => (ChangeKind::Renamed, plain(from)?, plain(to)?),
        FileOperation::Copy { from, to } => (ChangeKind::Copied, plain(from)?, plain(to)?),
    };
    let old_mode = mode(patch.old_mode());
    let new_mode = mode(patch.new_mode());
    let (binary, hunks) = match patch.patch() {
        PatchKind::Binary(_) => (true, Vec::new()),
        PatchKind::Text(text) => (false, text.hunks().iter().map(hunk).collect()),
    };
    Ok(FileChange {
        kind,
        old_path,
        new_path,
        old_mode,
        new_mode,
        binary,
        hunks,
    })
}

fn hunk(h: &diffy::Hunk<'_, str>) -> Hunk {
    let (mut old, mut new) = (h.old_range().start(), h.new_range().start());
    let lines = h
        .lines()
        .iter()
        .map(|line| {
            let (kind, raw, old_line, new_line) = match *line {
                diffy::Line::Context(t) => {
                    let n = (Some(old), Some(new));
                    old += 1;
                    new += 1;
                    (LineKind::Context, t, n.0, n.1)
                }
                diffy::Line::Delete(t) => {
                    old += 1;
                    (LineKind::Removed, t, Some(old - 1), None)
                }
                diffy::Line::Insert(t) => {
                    new += 1;
                    (LineKind::Added, t, None, Some(new - 1))
                }
            };
            let no_newline = !raw.ends_with('\n');
            let text = raw.strip_suffix('\n').unwrap_or(raw);
            let text = text.strip_suffix('\r').unwrap_or(text);
            DiffLine {
                kind,
                old_line,
                new_line,
                text: text.to_owned(),
                no_newline,
            }
        })
        .collect();
    Hunk {
        old_start: h.old_range().start(),
        new_start: h.new_range().start(),
        section: h
            .function_context()
            .map(|s| s.trim_end().to_owned())
            .filter(|s| !s.is_empty()),
        lines,
    }
}
