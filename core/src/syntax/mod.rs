//! TEST_SYNTAX_ERROR (seed 000, Error Codes: "Tests have syntax errors → Planner fixes tests"):
//! whether a contract's test files parse, and where the first error is (file, line, column).
//!
//! The types are always here; the parsers only with the `syntax` feature (the CLI build), as
//! they add about a megabyte gzipped to a wasm module:
//!
//! | language | files | parser |
//! |---|---|---|
//! | Python | `.py`, `.pyi` | Ruff's (`ruff_python_parser`), as a module (a stub for `.pyi`) |
//! | JavaScript | `.js`, `.mjs`, `.cjs`, `.jsx` | Oxc's (`oxc_parser`), JSX allowed (test files often hold it) |
//! | TypeScript | `.ts`, `.mts`, `.cts`, `.tsx` | Oxc's, JSX in `.tsx` only (`<T>x` is a cast in `.ts`) |
//! | Rust | `.rs` | `syn` (its full grammar, over `proc-macro2`'s lexer) |
//!
//! The file must be UTF-8 (what the three languages' own tools read); bytes that are not are
//! the error, at their line.
//!
//! ```
//! # #[cfg(feature = "syntax")] {
//! use switchboard_core::syntax;
//!
//! assert!(syntax::check("tests/test_ok.py", b"def test_ok():\n    assert 1 + 1 == 2\n").is_ok());
//! let e = syntax::check("tests/test_bad.py", b"def test_bad(:\n    pass\n").unwrap_err();
//! assert_eq!((e.path.as_str(), e.line), ("tests/test_bad.py", 1));
//! # }
//! ```

#[cfg(feature = "syntax")]
mod parse;

#[cfg(feature = "syntax")]
pub use parse::{check, check_files, MAX_NESTING};

use serde::Serialize;
use std::fmt;

/// A test file's language, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// `.py`, `.pyi`.
    Python,
    /// `.js`, `.mjs`, `.cjs`, `.jsx`.
    JavaScript,
    /// `.ts`, `.mts`, `.cts`, `.tsx`.
    TypeScript,
    /// `.rs`.
    Rust,
}

impl Language {
    /// The language of a path, by extension; `None` for a file that is not code (a spec, a
    /// manifest, data).
    #[must_use]
    pub fn of(path: &str) -> Option<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        match name.rsplit_once('.')?.1 {
            "py" | "pyi" => Some(Language::Python),
            "js" | "mjs" | "cjs" | "jsx" => Some(Language::JavaScript),
            "ts" | "mts" | "cts" | "tsx" => Some(Language::TypeScript),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }

    /// Its name in reports.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Rust => "rust",
        }
    }
}

/// The code every report gives a test file that does not parse (the seed's error code).
pub const TEST_SYNTAX_ERROR: &str = "TEST_SYNTAX_ERROR";

/// A test file that does not parse: the first error, where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    /// The file, as given (repository-relative in reports).
    pub path: String,
    /// Its language.
    pub language: Language,
    /// 1-based line of the error.
    pub line: usize,
    /// 1-based column (in characters) of the error.
    pub column: usize,
    /// The parser's message.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    /// `path:line:column: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path, self.line, self.column, self.message
        )
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `text` (clamped to its end
/// and to a character boundary).
#[must_use]
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, 1 + before[start..].chars().count())
}
