//! A diff as the reviewer reads it: files, hunks, numbered lines, and each audit finding
//! beside the line its `file:line` names (on the side it counts on). Findings whose line the
//! diff does not show are listed apart, never dropped. The same model shows what changed in a
//! tampered contract file since its baseline.

use super::report::ReportedFinding;
use crate::audit::diff::{ChangeKind, Diff, FileChange, LineKind};
use crate::audit::Side;
use serde::{Deserialize, Serialize};

/// One numbered line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Its role.
    pub kind: LineKind,
    /// Old-side number.
    pub old: Option<usize>,
    /// New-side number.
    pub new: Option<usize>,
    /// The text.
    pub text: String,
    /// The findings at this line (indices into [`DiffView::findings`]).
    pub findings: Vec<usize>,
}

/// One hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HunkView {
    /// `@@ -a +b @@ section`.
    pub header: String,
    /// Its lines.
    pub rows: Vec<Row>,
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileView {
    /// The path after.
    pub path: String,
    /// The path before, when it differs (renamed, copied).
    pub old_path: Option<String>,
    /// What happened to it.
    pub change: ChangeKind,
    /// A binary change (no lines).
    pub binary: bool,
    /// The hunks.
    pub hunks: Vec<HunkView>,
}

/// A diff with its findings placed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffView {
    /// The files.
    pub files: Vec<FileView>,
    /// Every finding, in the report's order.
    pub findings: Vec<ReportedFinding>,
    /// Findings at no line the diff shows (indices into `findings`).
    pub unplaced: Vec<usize>,
}

/// Lays `diff` out with `findings` beside their lines.
#[must_use]
pub fn annotate(diff: &Diff, findings: Vec<ReportedFinding>) -> DiffView {
    let mut placed = vec![false; findings.len()];
    let files = diff
        .files
        .iter()
        .map(|file| file_view(file, &findings, &mut placed))
        .collect();
    let unplaced = placed
        .iter()
        .enumerate()
        .filter(|(_, p)| !**p)
        .map(|(i, _)| i)
        .collect();
    DiffView {
        files,
        findings,
        unplaced,
    }
}

fn file_view(file: &FileChange, findings: &[ReportedFinding], placed: &mut [bool]) -> FileView {
    let hunks = file
        .hunks
        .iter()
        .map(|h| {
            let (old_count, new_count) = h.lines.iter().fold((0, 0), |(o, n), l| match l.kind {
                LineKind::Context => (o + 1, n + 1),
                LineKind::Removed => (o + 1, n),
                LineKind::Added => (o, n + 1),
            });
            let header = format!(
                "@@ -{},{old_count} +{},{new_count} @@{}",
                h.old_start,
                h.new_start,
                h.section
                    .as_deref()
                    .map(|s| format!(" {s}"))
                    .unwrap_or_default()
            );
            let rows = h
                .lines
                .iter()
                .map(|l| {
                    let at = |i: usize| {
                        let f = &findings[i];
                        let (path, line) = match f.side {
                            Side::Old => (file.old_path.as_str(), l.old_line),
                            Side::New => (file.new_path.as_str(), l.new_line),
                        };
                        let on_side = match f.side {
                            Side::Old => l.kind == LineKind::Removed,
                            Side::New => l.kind != LineKind::Removed,
                        };
                        on_side
                            && f.file.as_deref() == Some(path)
                            && f.line.is_some()
                            && f.line == line
                    };
                    let here: Vec<usize> = (0..findings.len()).filter(|&i| at(i)).collect();
                    for &i in &here {
                        placed[i] = true;
                    }
                    Row {
                        kind: l.kind,
                        old: l.old_line,
                        new: l.new_line,
                        text: l.text.clone(),
                        findings: here,
                    }
                })
                .collect();
            HunkView { header, rows }
        })
        .collect();
    FileView {
        path: file.new_path.to_string(),
        old_path: (file.old_path != file.new_path).then(|| file.old_path.to_string()),
        change: file.kind,
        binary: file.binary,
        hunks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{self, Contract};
    use crate::evidence::report::Report;

    #[test]
    fn places_each_finding_at_its_line() {
        let contract = Contract::from_files([(
            "tests/test_math.py",
            "from math_utils import factorial\n\ndef test_five():\n    assert factorial(5) == 120\n",
        )])
        .unwrap();
        let diff = audit::parse_diff("diff --git a/math_utils.py b/math_utils.py\nnew file mode 100644\n--- /dev/null\n+++ b/math_utils.py\n@@ -0,0 +1,4 @@\n+def factorial(n):\n+    if n == 5:\n+        return 120\n+    return 1\n").unwrap();
        let report = Report::of(&audit::audit(&contract, &diff, &[]));
        let mut extra = report.issues[0].clone();
        extra.line = Some(99);
        let mut findings = report.issues.clone();
        findings.push(extra);
        let view = annotate(&diff, findings);
        let rows = &view.files[0].hunks[0].rows;
        assert_eq!(view.files[0].hunks[0].header, "@@ -0,0 +1,4 @@");
        assert_eq!(rows[1].new, Some(2));
        assert_eq!(rows[1].findings, vec![0]);
        assert_eq!(view.unplaced, vec![view.findings.len() - 1]);
    }
}
