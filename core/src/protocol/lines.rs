//! JSON Lines: one report per non-blank line, numbered by input line, from bytes in memory
//! ([`validate_lines`]) or streamed from a reader in constant memory ([`validate_reader`]).

use super::{validate_line, Options, Report};
use serde::Serialize;
use std::io::{self, BufRead};

/// One report of a JSON Lines input: the 1-based input line, then the report's members
/// (`{"line": 3, "valid": …, "family": …, …}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineReport {
    /// The input line the message is on, counting blank lines.
    pub line: usize,
    /// The message's report.
    #[serde(flatten)]
    pub report: Report,
}

/// Whether a line holds only ASCII whitespace (and so no message).
fn is_blank(text: &[u8]) -> bool {
    text.iter().all(u8::is_ascii_whitespace)
}

/// Validates JSON Lines: one [`LineReport`] per non-blank line (a line holding only ASCII
/// whitespace is skipped, but counted, so `line` is the real input line). A line that is
/// not JSON gets a `not_json` issue naming its real line.
pub fn validate_lines<'a>(
    bytes: &'a [u8],
    options: &'a Options,
) -> impl Iterator<Item = LineReport> + 'a {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, text)| !is_blank(text))
        .map(|(index, text)| LineReport {
            line: index + 1,
            report: validate_line(text, options, index + 1),
        })
}

/// Validates JSON Lines read from `reader` as [`validate_lines`] does, one line at a time:
/// memory holds one line (and, for an invalid message, its parsed form), whatever the size
/// of the input.
pub fn validate_reader<R: BufRead>(reader: R, options: Options) -> ReaderLines<R> {
    ReaderLines {
        reader,
        options,
        buf: Vec::new(),
        line: 0,
    }
}

/// The reports of [`validate_reader`], in input order; a read error ends them.
#[derive(Debug)]
pub struct ReaderLines<R> {
    reader: R,
    options: Options,
    /// The current line, reused.
    buf: Vec<u8>,
    /// Lines read so far.
    line: usize,
}

impl<R: BufRead> Iterator for ReaderLines<R> {
    type Item = io::Result<LineReport>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.buf.clear();
            match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(err) => return Some(Err(err)),
            }
            self.line += 1;
            let text = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
            if !is_blank(text) {
                return Some(Ok(LineReport {
                    line: self.line,
                    report: validate_line(text, &self.options, self.line),
                }));
            }
        }
    }
}
