//! The three parsers behind [`check`] (feature `syntax`).

use super::{line_column, Language, SyntaxError};
use oxc_allocator::Allocator;
use oxc_span::SourceType;
use ruff_python_parser::{parse_unchecked, Mode, ParseError, ParseOptions};

/// Brackets nested deeper than this in a JavaScript, TypeScript or Rust file are reported
/// rather than parsed: those parsers recurse per level (Ruff's grows its stack as it goes).
pub const MAX_NESTING: usize = 2_000;

/// The stack each parse runs on (its own thread): room for [`MAX_NESTING`] levels in either
/// recursive parser, whatever the caller's thread has.
const STACK_BYTES: usize = 256 << 20;

/// Whether the file at `path` parses in its language (by extension). A file in no language
/// [`Language::of`] knows is not checked and passes.
///
/// # Errors
/// The first syntax error (the earliest in the file), with its line and column; bytes that are
/// not UTF-8 are one.
pub fn check(path: &str, bytes: &[u8]) -> Result<(), SyntaxError> {
    let Some(language) = Language::of(path) else {
        return Ok(());
    };
    let error = |(offset, message): (usize, String), text: &str| {
        let (line, column) = line_column(text, offset);
        SyntaxError {
            path: path.to_owned(),
            language,
            line,
            column,
            message,
        }
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.valid_up_to();
            let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
            let message = format!(
                "not UTF-8 text (byte 0x{:02x} is not part of a UTF-8 character)",
                bytes[valid]
            );
            return Err(error((valid, message), prefix));
        }
    };
    let found = match language {
        Language::Python => python(text),
        Language::JavaScript | Language::TypeScript => {
            too_deep(text).map_or_else(|| on_big_stack(|| script(path, text, language)), Err)
        }
        Language::Rust => too_deep(text).map_or_else(|| on_big_stack(|| rust(text)), Err),
    };
    found.map_err(|found| error(found, text))
}

/// The files among `files` (path and bytes) that are test code and do not parse, in order.
pub fn check_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Vec<SyntaxError> {
    files
        .into_iter()
        .filter_map(|(path, bytes)| check(path, bytes).err())
        .collect()
}

/// A parse's outcome: the byte offset and the message of the earliest error.
type Found = Result<(), (usize, String)>;

fn python(text: &str) -> Found {
    // A module (a `.pyi` stub parses the same way).
    let parsed = parse_unchecked(text, ParseOptions::from(Mode::Module));
    match parsed.errors().iter().min_by_key(|e| e.location.start()) {
        None => Ok(()),
        Some(ParseError { error, location }) => {
            Err((u32::from(location.start()) as usize, error.to_string()))
        }
    }
}

fn script(path: &str, text: &str, language: Language) -> Found {
    let by_extension = SourceType::from_path(path).unwrap_or_default();
    // JSX in every JavaScript file (Jest and Vitest suites hold it in `.js`); TypeScript as its
    // extension says (`<T>x` is a cast in `.ts`).
    let source_type = match language {
        Language::JavaScript => by_extension.with_jsx(true),
        _ => by_extension,
    };
    let allocator = Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, text, source_type).parse();
    let earliest = parsed
        .diagnostics
        .errors()
        .map(|d| {
            let offset = d
                .labels
                .iter()
                .find(|l| l.primary())
                .or_else(|| d.labels.first())
                .map_or(0, |l| l.offset() as usize);
            (offset, d.message.to_string())
        })
        .min_by_key(|(offset, _)| *offset);
    match earliest {
        None if parsed.panicked => Err((0, "the parser could not read this file".into())),
        None => Ok(()),
        Some(found) => Err(found),
    }
}

fn rust(text: &str) -> Found {
    match syn::parse_file(text) {
        Ok(_) => Ok(()),
        Err(e) => {
            let at = e.span().start();
            // syn words a lexing failure "cannot parse string into token stream"; say what
            // stops the lexer instead.
            let lexes = text
                .trim_start_matches('\u{feff}')
                .parse::<proc_macro2::TokenStream>()
                .is_ok();
            let message = if lexes {
                e.to_string()
            } else {
                "the file does not split into tokens: a delimiter not closed or not opened, or \
                 a string, character or block comment not terminated"
                    .to_owned()
            };
            Err((offset_of(text, at.line, at.column), message))
        }
    }
}

/// The byte offset of a 1-based line and 0-based character column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    start
        + rest
            .char_indices()
            .nth(column)
            .map_or(rest.len(), |(i, _)| i)
}

/// Where brackets first nest deeper than [`MAX_NESTING`], counting every bracket (those in
/// strings and comments too, so a file is never parsed deeper than the limit).
fn too_deep(text: &str) -> Option<(usize, String)> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some((
                        i,
                        format!(
                            "brackets nest deeper than {MAX_NESTING} levels (the syntax check's limit)"
                        ),
                    ));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Runs a parse on a thread with [`STACK_BYTES`] of stack; a parser that panics is reported
/// as an error at the file's start, never passed on.
fn on_big_stack(parse: impl FnOnce() -> Found + Send) -> Found {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, parse)
            .map_err(|e| (0, format!("cannot start the parser: {e}")))?
            .join()
            .unwrap_or_else(|_| Err((0, "the parser failed on this file".into())))
    })
}
