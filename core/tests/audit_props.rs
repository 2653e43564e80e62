//! Property tests for the diff parser and the audit: no text panics them, and a generated set
//! of file changes rendered as `git diff` text parses back to the same files, kinds, line
//! kinds, line numbers and texts (the model).

use proptest::prelude::*;
use switchboard_core::audit::diff::{ChangeKind, LineKind};
use switchboard_core::audit::lexer::{Language, Lexer};
use switchboard_core::audit::{self, Contract};

/// A model hunk: the lines unchanged before it, and its lines.
#[derive(Debug, Clone)]
struct MHunk {
    gap: usize,
    lines: Vec<(LineKind, String)>,
}

#[derive(Debug, Clone)]
struct MFile {
    kind: ChangeKind,
    old: String,
    new: String,
    hunks: Vec<MHunk>,
    /// The last line has `\ No newline at end of file`.
    no_newline: bool,
    /// Write `@@ -a +b @@` when a count is 1.
    omit_ones: bool,
}

fn arb_path() -> impl Strategy<Value = String> {
    "[a-z]{1,5}(/[a-z_]{1,5}){0,2}\\.(py|ts|rs|txt)"
}

fn arb_text() -> impl Strategy<Value = String> {
    // Hunk-looking and header-looking texts included: the parser must count, not guess.
    prop_oneof![
        "[ -~]{0,30}",
        Just("-- not a header".to_owned()),
        Just("++ b/x".to_owned()),
        Just("@@ -1 +1 @@".to_owned()),
        Just("\\ No newline at end of file".to_owned()),
        Just("diff --git a/x b/x".to_owned()),
    ]
}

fn arb_kind() -> impl Strategy<Value = LineKind> {
    prop_oneof![
        Just(LineKind::Context),
        Just(LineKind::Added),
        Just(LineKind::Removed)
    ]
}

fn arb_hunks(only: Option<LineKind>) -> impl Strategy<Value = Vec<MHunk>> {
    let line = (arb_kind(), arb_text()).prop_map(move |(k, t)| (only.unwrap_or(k), t));
    let hunk = (1usize..4, prop::collection::vec(line, 1..6))
        .prop_map(|(gap, lines)| MHunk { gap, lines });
    prop::collection::vec(hunk, 1..4)
}

fn arb_file() -> impl Strategy<Value = MFile> {
    let kind = prop_oneof![
        Just(ChangeKind::Added),
        Just(ChangeKind::Deleted),
        Just(ChangeKind::Modified),
        Just(ChangeKind::Renamed),
    ];
    (
        kind,
        arb_path(),
        arb_path(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(kind, old, new, no_newline, omit_ones, empty)| {
            let only = match kind {
                ChangeKind::Added => Some(LineKind::Added),
                ChangeKind::Deleted => Some(LineKind::Removed),
                _ => None,
            };
            let hunks = if empty && kind == ChangeKind::Renamed {
                Just(Vec::new()).boxed()
            } else if only.is_some() {
                arb_hunks(only)
                    .prop_map(|mut h| {
                        // A created or deleted file is one hunk from line 1.
                        h.truncate(1);
                        h[0].gap = 0;
                        h
                    })
                    .boxed()
            } else {
                arb_hunks(None).boxed()
            };
            hunks.prop_map(move |hunks| MFile {
                kind,
                new: if matches!(kind, ChangeKind::Renamed) {
                    new.clone()
                } else {
                    old.clone()
                },
                old: old.clone(),
                no_newline: no_newline && !hunks.is_empty(),
                hunks,
                omit_ones,
            })
        })
}

fn range(start: usize, count: usize, omit_ones: bool) -> String {
    if count == 1 && omit_ones {
        start.to_string()
    } else {
        format!("{start},{count}")
    }
}

/// Renders the model as `git diff` text.
fn render(files: &[MFile]) -> String {
    let mut out = String::new();
    for f in files {
        out.push_str(&format!("diff --git a/{} b/{}\n", f.old, f.new));
        match f.kind {
            ChangeKind::Added => out.push_str("new file mode 100644\nindex 0000000..1234567\n"),
            ChangeKind::Deleted => {
                out.push_str("deleted file mode 100644\nindex 1234567..0000000\n")
            }
            ChangeKind::Renamed => out.push_str(&format!(
                "similarity index 90%\nrename from {}\nrename to {}\n",
                f.old, f.new
            )),
            _ => out.push_str("index 1234567..89abcde 100644\n"),
        }
        if f.hunks.is_empty() {
            continue;
        }
        let old = if f.kind == ChangeKind::Added {
            "/dev/null".to_owned()
        } else {
            format!("a/{}", f.old)
        };
        let new = if f.kind == ChangeKind::Deleted {
            "/dev/null".to_owned()
        } else {
            format!("b/{}", f.new)
        };
        out.push_str(&format!("--- {old}\n+++ {new}\n"));
        let (mut old_cursor, mut new_cursor) = (1, 1);
        let last = f.hunks.len() - 1;
        for (i, h) in f.hunks.iter().enumerate() {
            old_cursor += h.gap;
            new_cursor += h.gap;
            let old_count = h
                .lines
                .iter()
                .filter(|(k, _)| *k != LineKind::Added)
                .count();
            let new_count = h
                .lines
                .iter()
                .filter(|(k, _)| *k != LineKind::Removed)
                .count();
            // A side with no lines is numbered by the line before the hunk.
            let old_start = if old_count == 0 {
                old_cursor - 1
            } else {
                old_cursor
            };
            let new_start = if new_count == 0 {
                new_cursor - 1
            } else {
                new_cursor
            };
            out.push_str(&format!(
                "@@ -{} +{} @@ fn context\n",
                range(old_start, old_count, f.omit_ones),
                range(new_start, new_count, f.omit_ones)
            ));
            for (j, (kind, text)) in h.lines.iter().enumerate() {
                let prefix = match kind {
                    LineKind::Context => ' ',
                    LineKind::Added => '+',
                    LineKind::Removed => '-',
                };
                out.push(prefix);
                out.push_str(text);
                out.push('\n');
                if f.no_newline && i == last && j == h.lines.len() - 1 {
                    out.push_str("\\ No newline at end of file\n");
                }
            }
            old_cursor += old_count;
            new_cursor += new_count;
        }
    }
    out
}

/// The parse the model predicts: per file, (kind, old, new, [(kind, old_line, new_line, text, no_newline)]).
type Expected = (
    ChangeKind,
    String,
    String,
    Vec<(LineKind, Option<usize>, Option<usize>, String, bool)>,
);

fn expected(f: &MFile) -> Expected {
    let (mut old, mut new) = (1, 1);
    let mut lines = Vec::new();
    let total: usize = f.hunks.iter().map(|h| h.lines.len()).sum();
    for h in &f.hunks {
        old += h.gap;
        new += h.gap;
        for (kind, text) in &h.lines {
            let (o, n) = match kind {
                LineKind::Context => (Some(old), Some(new)),
                LineKind::Added => (None, Some(new)),
                LineKind::Removed => (Some(old), None),
            };
            old += usize::from(o.is_some());
            new += usize::from(n.is_some());
            let last = lines.len() + 1 == total;
            lines.push((*kind, o, n, text.clone(), f.no_newline && last));
        }
    }
    (f.kind, f.old.clone(), f.new.clone(), lines)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn rendered_changes_parse_back_to_the_model(files in prop::collection::vec(arb_file(), 0..4)) {
        let text = render(&files);
        let diff = audit::parse_diff(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let got: Vec<Expected> = diff
            .files
            .iter()
            .map(|f| {
                let lines = f.lines().map(|l| (l.kind, l.old_line, l.new_line, l.text.clone(), l.no_newline)).collect();
                (f.kind, f.old_path.as_str().to_owned(), f.new_path.as_str().to_owned(), lines)
            })
            .collect();
        let want: Vec<Expected> = files.iter().map(expected).collect();
        prop_assert_eq!(got, want, "{}", text);
        prop_assert!(diff.files.iter().all(|f| !f.binary));
    }

    #[test]
    fn no_text_panics_the_parser_or_the_audit(text in "(diff --git a/x b/x\n|--- a/x\n|\\+\\+\\+ b/x\n|@@ -[0-9] \\+[0-9],?[0-9]? @@\n|[ +\\-\\\\][ -~]{0,12}\n|rename (from|to) [a-z./]{0,6}\n|(new|deleted) file mode 1[0-9]{5}\nBinary files a and b differ\n|[ -~]{0,20}\n){0,14}") {
        if let Ok(diff) = audit::parse_diff(&text) {
            let contract = Contract::from_files([("tests/test_x.py", "assert f(5) == 10\n"), ("requirements.txt", "x\n")]).unwrap();
            let _ = audit::audit(&contract, &diff, &["y"]);
        }
    }

    #[test]
    fn mutated_diffs_never_panic(files in prop::collection::vec(arb_file(), 1..3), cut in any::<prop::sample::Index>(), junk in "[ -~]{0,10}", op in 0u8..4) {
        let text = render(&files);
        let mut lines: Vec<&str> = text.lines().collect();
        let at = cut.index(lines.len().max(1)).min(lines.len());
        match op {
            0 => { lines.truncate(at); }
            1 if at < lines.len() => { lines.remove(at); }
            2 => lines.insert(at, &junk),
            _ => { if at < lines.len() { let dup = lines[at]; lines.insert(at, dup); } }
        }
        let mutated = lines.join("\n");
        if let Ok(diff) = audit::parse_diff(&mutated) {
            let _ = audit::audit(&Contract::default(), &diff, &[]);
        }
    }

    #[test]
    fn no_contract_text_panics_the_audit(text in "([ -~]{0,30}\n|assert [a-z]\\([0-9\"a-z, -]{0,8}\\) == -?[0-9.]{1,4}\n|expect\\([a-z]\\(\"x\"\\)\\)\\.toBe\\(\\)\n|\\[[a-z.-]{0,12}\\]\n|\"[a-z-]{0,6}\": [{\"^0-9.]{0,6}\n){0,12}") {
        let files = [
            ("tests/test_a.py", text.as_str()),
            ("tests/a.test.ts", text.as_str()),
            ("tests/a.rs", text.as_str()),
            ("requirements.txt", text.as_str()),
            ("pyproject.toml", text.as_str()),
            ("package.json", text.as_str()),
            ("Cargo.toml", text.as_str()),
            ("spec.md", text.as_str()),
        ];
        let contract = Contract::from_files(files).unwrap();
        let (first, last) = (text.lines().next().unwrap_or(""), text.lines().last().unwrap_or(""));
        let mut change = String::new();
        for path in ["x.py", "Cargo.toml", "package.json", "pyproject.toml", "requirements.txt"] {
            // The old line is the contract file's first line, so the baseline applies.
            change.push_str(&format!(
                "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1,2 @@\n-{first}\n+{first}\n+{last}\n"
            ));
        }
        if let Ok(diff) = audit::parse_diff(&change) {
            let _ = audit::audit(&contract, &diff, &[]);
        }
    }

    #[test]
    fn any_text_parses_or_errs(text in ".{0,300}") {
        let _ = audit::parse_diff(&text);
    }

    #[test]
    fn the_lexer_never_panics(lines in prop::collection::vec(".{0,40}", 0..6)) {
        for lang in [Language::Python, Language::TypeScript, Language::Rust] {
            let mut lexer = Lexer::new(lang);
            for line in &lines {
                let _ = lexer.line(line);
            }
        }
    }
}

#[test]
fn a_real_git_diff_with_every_header_kind_parses() {
    let text = "\
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..7c4530c
Binary files /dev/null and b/logo.png differ
diff --git a/old_name.py b/new_name.py
similarity index 92%
rename from old_name.py
rename to new_name.py
index 1111111..2222222 100644
--- a/old_name.py
+++ b/new_name.py
@@ -1 +1 @@
-x = 1
\\ No newline at end of file
+x = 2
\\ No newline at end of file
diff --git a/gone.py b/gone.py
deleted file mode 100644
index 3333333..0000000
--- a/gone.py
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
";
    let diff = audit::parse_diff(text).unwrap();
    let kinds: Vec<ChangeKind> = diff.files.iter().map(|f| f.kind).collect();
    assert_eq!(
        kinds,
        [
            ChangeKind::Modified,
            ChangeKind::Added,
            ChangeKind::Renamed,
            ChangeKind::Deleted
        ]
    );
    assert!(diff.files[0].hunks.is_empty());
    assert!(diff.files[1].binary);
    assert_eq!(diff.files[2].old_path.as_str(), "old_name.py");
    assert_eq!(diff.files[2].new_path.as_str(), "new_name.py");
    let renamed: Vec<_> = diff.files[2]
        .lines()
        .map(|l| (l.kind, l.number(), l.no_newline))
        .collect();
    assert_eq!(
        renamed,
        [(LineKind::Removed, 1, true), (LineKind::Added, 1, true)]
    );
    assert_eq!(
        diff.files[3]
            .lines()
            .map(|l| l.number())
            .collect::<Vec<_>>(),
        [1, 2]
    );
}

#[test]
fn unusable_text_gives_structured_errors() {
    assert_eq!(audit::parse_diff("").unwrap().files.len(), 0);
    assert_eq!(
        audit::parse_diff("hello\nworld\n"),
        Err(audit::DiffError::NotADiff)
    );
    let bad_count = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n";
    assert!(matches!(
        audit::parse_diff(bad_count),
        Err(audit::DiffError::Malformed { index: 1, .. })
    ));
    let climbing = "--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n";
    assert!(matches!(
        audit::parse_diff(climbing),
        Err(audit::DiffError::BadPath(_))
    ));
}
