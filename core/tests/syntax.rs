//! TEST_SYNTAX_ERROR: the corpora of valid and broken test files per language
//! (`fixtures/syntax/<language>/{valid,invalid}`, the expected lines in `cases.json`), and the
//! parsers' behaviour on damaged files.
#![cfg(feature = "syntax")]

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use switchboard_core::syntax::{self, check, line_column, Language, SyntaxError};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/syntax")
}

/// Every file under `dir` (relative to the corpus root), in path order.
fn files(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for lang in ["python", "javascript", "typescript", "rust"] {
        let mut names: Vec<_> = std::fs::read_dir(root().join(lang).join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        for name in names {
            let rel = format!("{lang}/{dir}/{name}");
            out.push((rel.clone(), std::fs::read(root().join(&rel)).unwrap()));
        }
    }
    out
}

#[test]
fn valid_files_parse() {
    let valid = files("valid");
    assert!(valid.len() >= 14, "{}", valid.len());
    for (path, bytes) in &valid {
        if let Err(e) = check(path, bytes) {
            panic!("{e}");
        }
    }
}

#[test]
fn broken_files_are_reported_at_their_line() {
    let cases: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("cases.json")).unwrap()).unwrap();
    let cases = cases["invalid"].as_array().unwrap();
    let on_disk = files("invalid");
    assert_eq!(cases.len(), on_disk.len(), "every broken file has its case");
    for case in cases {
        let path = case["file"].as_str().unwrap();
        let bytes = std::fs::read(root().join(path)).unwrap();
        let e = check(path, &bytes).expect_err(path);
        assert_eq!(e.path, path);
        assert_eq!(Some(e.language), Language::of(path));
        assert_eq!(e.line as u64, case["line"].as_u64().unwrap(), "{e}");
        assert!(e.column >= 1 && !e.message.is_empty(), "{e}");
    }
}

#[test]
fn check_files_keeps_only_the_broken_test_files() {
    let found = syntax::check_files([
        ("spec.md", &b"def (:"[..]),
        ("requirements.txt", b"pyjwt>=2 ("),
        ("tests/test_ok.py", b"assert True\n"),
        ("tests/test_bad.py", b"assert (\n"),
        ("src/lib.rs", b"fn f( {}"),
    ]);
    let names: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert_eq!(found.len(), 2, "{names:?}");
    assert_eq!(found[0].path, "tests/test_bad.py");
    assert_eq!(found[1].path, "src/lib.rs");
    assert!(names[1].starts_with("src/lib.rs:1:"), "{names:?}");
}

#[test]
fn languages_by_extension() {
    for (path, lang) in [
        ("a/test_x.py", Some(Language::Python)),
        ("x.pyi", Some(Language::Python)),
        ("x.test.js", Some(Language::JavaScript)),
        ("x.cjs", Some(Language::JavaScript)),
        ("x.mjs", Some(Language::JavaScript)),
        ("x.jsx", Some(Language::JavaScript)),
        ("x.spec.ts", Some(Language::TypeScript)),
        ("x.tsx", Some(Language::TypeScript)),
        ("x.mts", Some(Language::TypeScript)),
        ("x.cts", Some(Language::TypeScript)),
        ("tests/it.rs", Some(Language::Rust)),
        ("spec.md", None),
        ("Makefile", None),
        ("dir.py/README", None),
        ("package.json", None),
    ] {
        assert_eq!(Language::of(path), lang, "{path}");
    }
    // A file in no language is not checked.
    assert!(check("notes.txt", b"def (:").is_ok());
}

#[test]
fn bytes_that_are_not_utf8_are_the_error_at_their_line() {
    let e = check("t.py", b"x = 1\ny = '\xff'\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 6), "{e}");
    assert!(e.message.contains("not UTF-8"), "{e}");
    let e = check("t.rs", b"\xc3").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1), "{e}");
}

#[test]
fn empty_and_blank_files_parse() {
    for path in ["t.py", "t.js", "t.ts", "t.rs", "t.tsx"] {
        assert!(check(path, b"").is_ok(), "{path}");
        assert!(check(path, b"\n\n  \n").is_ok(), "{path}");
    }
}

#[test]
fn deep_nesting_is_reported_or_parsed_never_a_crash() {
    let deep = |open: &str, close: &str, n: usize| {
        let mut s = String::from("x = ");
        s.push_str(&open.repeat(n));
        s.push('1');
        s.push_str(&close.repeat(n));
        s.push('\n');
        s
    };
    // Within the limit: parsed (on the parse's own stack, not the test thread's 2 MiB).
    let js = format!("const {}", deep("[", "]", 1_900));
    assert!(check("t.js", js.as_bytes()).is_ok());
    let rs = format!("fn f() {{ let {}; }}", deep("(", ")", 1_900).trim_end());
    assert!(check("t.rs", rs.as_bytes()).is_ok());
    // Past it: the limit is the error, at the bracket that passes it.
    let e = check("t.ts", deep("(", ")", 100_000).as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column), (1, 5 + syntax::MAX_NESTING), "{e}");
    assert!(e.message.contains("deeper than"), "{e}");
    assert!(check("t.rs", deep("[", "]", 100_000).as_bytes()).is_err());
    // Ruff's parser grows its own stack: Python parses at any depth.
    assert!(check("t.py", deep("(", ")", 20_000).as_bytes()).is_ok());
}

#[test]
fn reports_read_as_path_line_column_message() {
    let e = SyntaxError {
        path: "tests/test_a.py".into(),
        language: Language::Python,
        line: 3,
        column: 7,
        message: "Expected ':', found newline".into(),
    };
    assert_eq!(
        e.to_string(),
        "tests/test_a.py:3:7: Expected ':', found newline"
    );
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        serde_json::json!({"path": "tests/test_a.py", "language": "python", "line": 3,
            "column": 7, "message": "Expected ':', found newline"})
    );
}

#[test]
fn line_column_counts_characters() {
    let text = "ab\nçé€x\n";
    assert_eq!(line_column(text, 0), (1, 1));
    assert_eq!(line_column(text, 3), (2, 1));
    assert_eq!(line_column(text, 3 + 2 + 2 + 3), (2, 4));
    // Inside a character: its start. Past the end: the end.
    assert_eq!(line_column(text, 4), (2, 1));
    assert_eq!(line_column(text, 999), (3, 1));
}

fn lines_of(bytes: &[u8]) -> usize {
    1 + bytes.iter().filter(|&&b| b == b'\n').count()
}

fn damaged() -> impl Strategy<Value = (String, Vec<u8>)> {
    let valid = files("valid");
    (
        0..valid.len(),
        any::<prop::sample::Index>(),
        any::<u8>(),
        0..3u8,
    )
        .prop_map(move |(file, at, byte, how)| {
            let (path, mut bytes) = valid[file].clone();
            let i = at.index(bytes.len());
            match how {
                0 => {
                    bytes.remove(i);
                }
                1 => bytes.insert(i, byte),
                _ => bytes[i] = byte,
            }
            (path, bytes)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A valid test file with one byte deleted, inserted or replaced anywhere: never a panic;
    /// it parses, or the error is at a line and column inside the file.
    #[test]
    fn a_damaged_file_parses_or_is_reported_inside_it((path, bytes) in damaged()) {
        if let Err(e) = check(&path, &bytes) {
            prop_assert_eq!(&e.path, &path);
            prop_assert!(e.line >= 1 && e.line <= lines_of(&bytes), "{} of {} lines", e, lines_of(&bytes));
            prop_assert!(e.column >= 1);
            let line = bytes.split(|&b| b == b'\n').nth(e.line - 1).unwrap_or_default();
            let chars = String::from_utf8_lossy(line).chars().count();
            prop_assert!(e.column <= chars + 1, "{} (line of {} characters)", e, chars);
        }
    }

    /// Deleting a closing bracket from a valid file is always an error (the model: a file
    /// whose brackets no longer balance does not parse), reported at or after the line of the
    /// bracket's opening and inside the file.
    #[test]
    fn a_deleted_closing_bracket_is_always_an_error(file in 0usize..64, pick in any::<prop::sample::Index>()) {
        let valid = files("valid");
        let (path, bytes) = &valid[file % valid.len()];
        let text = String::from_utf8(bytes.clone()).unwrap();
        let closers: Vec<usize> = code_brackets(&text, path);
        prop_assume!(!closers.is_empty());
        let at = closers[pick.index(closers.len())];
        let mut broken = bytes.clone();
        broken.remove(at);
        let e = check(path, &broken);
        prop_assert!(e.is_err(), "{} parsed without the bracket at byte {}", path, at);
        let e = e.unwrap_err();
        prop_assert!(e.line <= lines_of(&broken), "{}", e);
    }
}

/// Byte offsets of the closing brackets of `text` that are code (outside strings and
/// comments), found with a small lexer per language; braces in JSX text, template literals and
/// f-strings are left out rather than guessed.
fn code_brackets(text: &str, path: &str) -> Vec<usize> {
    let lang = Language::of(path).unwrap();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let comment = match lang {
        Language::Python => "#",
        _ => "//",
    };
    let jsx = path.ends_with(".jsx") || path.ends_with(".tsx") || path.ends_with(".test.js");
    while i < bytes.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        if rest.starts_with(comment) || (lang != Language::Python && rest.starts_with("/*")) {
            let end = if rest.starts_with("/*") { "*/" } else { "\n" };
            i += rest.find(end).map_or(rest.len(), |e| e + end.len());
            continue;
        }
        let b = bytes[i];
        if matches!(b, b'"' | b'\'' | b'`') {
            // Strings (and everything after a template or a Python triple quote, or a Rust
            // lifetime / char, ends the scan for that file: no guessing).
            if let Some(body) = rest.strip_prefix("\"\"\"") {
                match body.find("\"\"\"") {
                    Some(j) => {
                        i += j + 6;
                        continue;
                    }
                    None => break,
                }
            }
            if lang == Language::Rust && b == b'\'' {
                // A char literal ('x') or a lifetime ('a).
                i += if rest.as_bytes().get(2) == Some(&b'\'') {
                    3
                } else {
                    1
                };
                continue;
            }
            if b == b'`' {
                break;
            }
            let close = rest[1..].find([b as char, '\n']);
            match close {
                Some(j) if rest.as_bytes()[1 + j] == b && !rest[1..1 + j].contains('\\') => {
                    i += j + 2;
                    continue;
                }
                _ => break,
            }
        }
        if jsx && b == b'<' {
            break;
        }
        if matches!(b, b')' | b']' | b'}') {
            // Python f-string braces are inside strings (skipped above); Rust macros' and
            // regex literals' brackets end the scan.
            if lang == Language::Rust && text[..i].contains("macro_rules") {
                break;
            }
            out.push(i);
        }
        if b == b'/' && lang != Language::Python && lang != Language::Rust {
            // A regex literal or a division: stop rather than guess.
            break;
        }
        i += 1;
    }
    out
}
