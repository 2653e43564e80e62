//! The checkpoint evidence against models written from what the reviewer must see:
//!
//! - `integrity::check`: each fingerprinted file's state and the verdict follow from what was
//!   done to it (kept, rewritten, deleted, not readable), and a changed file's lines are the
//!   baseline's and the current text's, numbered as in those texts.
//! - `diff_view::annotate`: every finding is shown exactly once, beside the line its
//!   `file:line` names on its side, or listed apart; every row's text is the line its numbers
//!   name.
//! - `change_order::requested`: a quoted requirement is read with its name and constraint,
//!   and whatever the text, each name once and only what the text holds.

use proptest::prelude::*;
use switchboard_core::audit::diff::{between, Diff, LineKind};
use switchboard_core::audit::Side;
use switchboard_core::evidence::change_order::requested;
use switchboard_core::evidence::content::Content;
use switchboard_core::evidence::diff_view::annotate;
use switchboard_core::evidence::integrity::{check, FileState, Verdict};
use switchboard_core::evidence::path::{resolve, FolderPath};
use switchboard_core::evidence::report::ReportedFinding;
use switchboard_core::fingerprint::{ContractPath, Fingerprints, Sha256Digest};

/// What happened to a fingerprinted file since the baseline.
#[derive(Debug, Clone)]
enum Fate {
    Kept,
    Rewritten(Vec<String>),
    Deleted,
    NotReadable,
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("assert total == 10".to_owned()),
        Just("def test_total():".to_owned()),
        Just(String::new()),
        "[a-z =()0-9]{0,12}",
    ]
}

fn lines() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(line(), 0..12)
}

fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        3 => Just(Fate::Kept),
        3 => lines().prop_map(Fate::Rewritten),
        1 => Just(Fate::Deleted),
        1 => Just(Fate::NotReadable),
    ]
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The texts' lines, 1-based.
fn numbered(text: &str, n: usize) -> Option<&str> {
    text.lines().nth(n.checked_sub(1)?)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn integrity_follows_what_happened_to_each_file(
        files in prop::collection::vec((lines(), fate(), any::<bool>()), 1..5),
    ) {
        let paths: Vec<String> = (0..files.len()).map(|i| format!("tests/test_{i}.py")).collect();
        let mut baseline = Fingerprints::default();
        let mut before: Vec<(Sha256Digest, String)> = Vec::new();
        let mut now: Vec<(FolderPath, Content)> = Vec::new();
        for (path, (old, fate, text_known)) in paths.iter().zip(&files) {
            let old_text = text(old);
            baseline.insert(path, old_text.as_bytes()).unwrap();
            if *text_known {
                before.push((Sha256Digest::of(old_text.as_bytes()), old_text.clone()));
            }
            let content = match fate {
                Fate::Kept => Content::of(old_text.as_bytes()),
                Fate::Rewritten(new) => Content::of(text(new).as_bytes()),
                Fate::Deleted => Content::Missing,
                Fate::NotReadable => Content::Unreadable { reason: "denied".into() },
            };
            now.push((resolve(path).unwrap(), content));
        }
        let integrity = check(
            Some(&baseline),
            |p| now.iter().find(|(q, _)| q == p).map(|(_, c)| c),
            |d| before.iter().find(|(e, _)| e == d).map(|(_, t)| t.as_str()),
        );
        // The model: a rewrite to the same bytes is no change.
        let states: Vec<FileState> = files
            .iter()
            .map(|(old, fate, _)| match fate {
                Fate::Kept => FileState::Same,
                Fate::Rewritten(new) if text(new) == text(old) => FileState::Same,
                Fate::Rewritten(_) => FileState::Modified,
                Fate::Deleted => FileState::Missing,
                Fate::NotReadable => FileState::NotRead,
            })
            .collect();
        let verdict = if states.iter().any(|s| matches!(s, FileState::Modified | FileState::Missing)) {
            Verdict::Tampered
        } else if states.contains(&FileState::NotRead) {
            Verdict::Incomplete
        } else {
            Verdict::Intact
        };
        prop_assert_eq!(integrity.verdict, verdict);
        prop_assert_eq!(integrity.files.len(), files.len());
        for file in &integrity.files {
            let i = paths.iter().position(|p| p == file.path.as_str()).unwrap();
            let (old, fate, _) = &files[i];
            // The baseline text is known by its digest: any file kept with the same text gives it.
            let text_known = files.iter().any(|(o, _, known)| *known && text(o) == text(old));
            prop_assert_eq!(file.state, states[i], "{}", file.path.as_str());
            let changed = file.changes.as_ref();
            match (states[i], fate) {
                (FileState::Modified, Fate::Rewritten(new)) if text_known => {
                    let view = changed.expect("a modified file with a known baseline shows its lines");
                    let (old_text, new_text) = (text(old), text(new));
                    let mut differs = false;
                    for row in view.hunks.iter().flat_map(|h| &h.rows) {
                        if let Some(n) = row.old {
                            prop_assert_eq!(numbered(&old_text, n), Some(row.text.as_str()));
                        }
                        if let Some(n) = row.new {
                            prop_assert_eq!(numbered(&new_text, n), Some(row.text.as_str()));
                        }
                        differs |= row.kind != LineKind::Context;
                    }
                    prop_assert!(differs, "a changed file shows a changed line");
                }
                _ => prop_assert!(changed.is_none()),
            }
        }
    }

    #[test]
    fn every_finding_is_shown_once_beside_its_line(
        old in lines(),
        new in lines(),
        findings in prop::collection::vec((0..3usize, any::<bool>(), prop::option::of(0..15usize)), 0..8),
    ) {
        let (old_text, new_text) = (text(&old), text(&new));
        let path = ContractPath::parse("src/app.py").unwrap();
        let diff = Diff { files: vec![between(path, &old_text, &new_text)] };
        let findings: Vec<ReportedFinding> = findings
            .into_iter()
            .map(|(file, new_side, line)| ReportedFinding {
                kind: None,
                severity: None,
                description: "found".into(),
                location: None,
                file: ["src/app.py", "src/other.py", ""].get(file).filter(|f| !f.is_empty()).map(|f| (*f).to_owned()),
                line,
                side: if new_side { Side::New } else { Side::Old },
                code: None,
                pattern: None,
            })
            .collect();
        let view = annotate(&diff, findings.clone());
        let rows: Vec<_> = view.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.rows).collect();
        for (i, f) in findings.iter().enumerate() {
            let at: Vec<_> = rows.iter().filter(|r| r.findings.contains(&i)).collect();
            let apart = view.unplaced.contains(&i);
            prop_assert_eq!(at.len() + usize::from(apart), 1, "finding {} {:?}", i, f);
            // The model: the line exists on the finding's side of this file and the diff shows it.
            let shown = rows.iter().any(|r| match f.side {
                Side::New => r.kind != LineKind::Removed && r.new == f.line,
                Side::Old => r.kind == LineKind::Removed && r.old == f.line,
            });
            let placeable = f.file.as_deref() == Some("src/app.py") && f.line.is_some() && shown;
            prop_assert_eq!(apart, !placeable, "finding {} {:?}", i, f);
            for row in at {
                let number = match f.side { Side::New => row.new, Side::Old => row.old };
                prop_assert_eq!(number, f.line);
            }
        }
        for row in &rows {
            if let Some(n) = row.old {
                prop_assert_eq!(numbered(&old_text, n), Some(row.text.as_str()));
            }
            if let Some(n) = row.new {
                prop_assert_eq!(numbered(&new_text, n), Some(row.text.as_str()));
            }
        }
    }

    #[test]
    fn a_quoted_requirement_is_read_with_its_constraint(
        name in "[a-z][a-z0-9]{1,10}",
        op in prop::sample::select(vec![">=", "==", "~=", "<", "<="]),
        version in "[0-9]{1,2}\\.[0-9]{1,2}",
        quote in prop::sample::select(vec!["'", "\"", "`"]),
        lead in prop::sample::select(vec!["Please add ", "Needs ", "Install ", ""]),
    ) {
        let text = format!("{lead}{quote}{name}{op}{version}{quote} to the contract.");
        let found = requested([text.as_str()]);
        let constraint = format!("{op}{version}");
        prop_assert!(
            found.iter().any(|r| r.name == name && r.constraint.as_deref() == Some(constraint.as_str())),
            "{text:?} -> {found:?}"
        );
    }

    #[test]
    fn any_text_gives_each_name_once_and_only_what_it_holds(
        texts in prop::collection::vec(any::<String>(), 0..3),
        words in prop::collection::vec(prop::sample::select(vec![
            "the", "dependency", "library", "'requests'", "pyjwt>=2.8", "module", "No", "named", "'jwt'", "crate", "serde", ".",
        ]), 0..12),
    ) {
        let mut all = texts.clone();
        all.push(words.join(" "));
        let found = requested(all.iter().map(String::as_str));
        let mut names: Vec<&str> = found.iter().map(|r| r.name.as_str()).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        prop_assert_eq!(names.len(), count, "{:?}", found);
        for r in &found {
            prop_assert!(all.iter().any(|t| t.contains(r.written.as_str())), "{:?} not in {:?}", r, all);
        }
    }
}
