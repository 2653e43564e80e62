//! Command input and output, in one place for every subcommand: a file or stdin is read
//! here ([`read_input`]); stdout is buffered and flushed here,
//! and a failed write becomes an exit status instead of a panic (`println!` panics on a
//! closed or full stdout; Rust ignores SIGPIPE, so a closed pipe is an `EPIPE` error).
//!
//! - A broken pipe (the reader went away, e.g. `switchboard schema | head -c1`) ends quietly
//!   with [`EXIT_BROKEN_PIPE`], as a shell reports a command killed by SIGPIPE.
//! - Any other write error (e.g. `ENOSPC` on `/dev/full`) is one line on stderr and
//!   [`EXIT_OUTPUT_FAILED`].
//!
//! ```ignore
//! output::stdout("schema", |out| output::json(out, &value, Style::Pretty))?;
//! ```

use serde::Serialize;
use std::fmt::Display;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// Exit status when stdout could not be written (`EX_IOERR` of `sysexits.h`).
pub const EXIT_OUTPUT_FAILED: u8 = 74;

/// Exit status when the reader of stdout went away: 128 + SIGPIPE.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// The size of the stdout and input buffers: a write or read system call per 64 KiB.
const BUFFER: usize = 64 * 1024;

/// How [`json`] lays a value out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// One line.
    Compact,
    /// Indented, for people.
    Pretty,
}

impl Style {
    /// `Compact` when `compact` is set, else `Pretty`.
    pub fn compact_if(compact: bool) -> Self {
        if compact {
            Style::Compact
        } else {
            Style::Pretty
        }
    }
}

/// Runs `write` against a buffered stdout, then flushes it.
///
/// # Errors
/// The exit status to end the command with: [`EXIT_BROKEN_PIPE`] (nothing printed) when
/// the reader went away, else [`EXIT_OUTPUT_FAILED`] after one line on stderr naming
/// `command` and the error.
pub fn stdout(
    command: &str,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), ExitCode> {
    let mut out = BufWriter::with_capacity(BUFFER, io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|err| match err.kind() {
            io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_BROKEN_PIPE),
            _ => fail(
                command,
                EXIT_OUTPUT_FAILED,
                format_args!("cannot write output: {err}"),
            ),
        })
}

/// Writes `value` as JSON followed by a newline.
///
/// # Errors
/// The write error (a value that cannot be serialized is `InvalidData`).
pub fn json(out: &mut dyn Write, value: &impl Serialize, style: Style) -> io::Result<()> {
    match style {
        Style::Compact => serde_json::to_writer(&mut *out, value)?,
        Style::Pretty => serde_json::to_writer_pretty(&mut *out, value)?,
    }
    out.write_all(b"\n")
}

/// Prints `switchboard <command>: <message>` as one line on stderr (a failure to write
/// stderr is ignored: there is nowhere left to report it).
pub fn error(command: &str, message: impl Display) {
    let _ = writeln!(io::stderr().lock(), "switchboard {command}: {message}");
}

/// Prints the one-line error and returns the exit status `code`.
pub fn fail(command: &str, code: u8, message: impl Display) -> ExitCode {
    error(command, message);
    ExitCode::from(code)
}

/// Prints `value` as JSON and returns `code`, or the exit status of a failed write.
pub fn print_json(command: &str, value: &impl Serialize, style: Style, code: u8) -> ExitCode {
    match stdout(command, |out| json(out, value, style)) {
        Ok(()) => ExitCode::from(code),
        Err(status) => status,
    }
}

/// Whether `path` names stdin (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a file, or stdin for `-`.
///
/// # Errors
/// The read error.
pub fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    if is_stdin(path) {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}

/// Opens a file, or stdin for `-`, to be read in pieces (one line at a time, for JSON Lines).
///
/// # Errors
/// The open error.
pub fn open_input(path: &Path) -> io::Result<Box<dyn BufRead>> {
    if is_stdin(path) {
        Ok(Box::new(BufReader::with_capacity(
            BUFFER,
            io::stdin().lock(),
        )))
    } else {
        Ok(Box::new(BufReader::with_capacity(
            BUFFER,
            std::fs::File::open(path)?,
        )))
    }
}
