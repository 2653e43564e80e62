//! The Agent-PO message directory at the CLI's edge: read as a log (`session`, `tasks`,
//! `conformance` given a directory) and written from one (`switchboard export --factory`).

use super::output::{self, read_input, Style};
use crate::agent_mail::read_log;
use crate::factory::{self, FactoryFile, MESSAGES_DIR};
use crate::protocol::Options;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The messages directory a path names: `DIR/.factory/execution/messages` when it exists,
/// else `DIR` itself.
pub fn messages_dir(dir: &Path) -> PathBuf {
    let nested = dir.join(MESSAGES_DIR);
    if nested.is_dir() {
        nested
    } else {
        dir.to_path_buf()
    }
}

/// Every file under `root`, each with its bytes or why they could not be read (a directory
/// that cannot be listed is one such entry); symlinked directories are not followed.
pub fn read_files(root: &Path) -> Vec<FactoryFile> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                out.push(FactoryFile {
                    path: relative(root, &dir),
                    bytes: Err(format!("cannot list: {e}")),
                });
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let link = entry.file_type().is_ok_and(|t| t.is_symlink());
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => {
                    if !link {
                        pending.push(path);
                    }
                }
                Ok(_) => out.push(FactoryFile {
                    path: relative(root, &path),
                    bytes: std::fs::read(&path).map_err(|e| e.to_string()),
                }),
                Err(e) => out.push(FactoryFile {
                    path: relative(root, &path),
                    bytes: Err(e.to_string()),
                }),
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// `path` relative to `root`, `/`-separated (lossy for names that are not UTF-8).
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Write a message log into the Agent-PO layout: `DIR/<agent_id>/TYPE_NNN.json` for what each
/// task agent sent, `DIR/<agent_id>/received/TYPE_NNN.json` for what it received, numbered
/// from 001 per agent, side and type in time order.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "DIR is the messages directory (`.factory/execution/messages`), created when \
missing. Nothing is overwritten: a file already there is an error before anything is written.\n\
Exit status: 0 written, 2 unusable input (unreadable or not a log, an existing file, an \
unwritable directory; reason on stderr)."
)]
pub struct ExportArgs {
    /// The messages directory to write.
    #[arg(long = "factory", value_name = "DIR")]
    dir: PathBuf,
    /// The log (a JSON array or JSON Lines), or `-` for stdin.
    log: PathBuf,
    /// Accept the seeds' documented deviations.
    #[arg(long)]
    lenient: bool,
    /// Print single-line JSON instead of pretty JSON.
    #[arg(long)]
    compact: bool,
}

/// What `export` prints.
#[derive(Serialize)]
struct Exported<'a> {
    /// The files written, relative to DIR.
    written: Vec<&'a str>,
    /// The log entries left out, with why.
    skipped: &'a [factory::Skipped],
}

/// Runs `export`.
pub fn run_export(args: ExportArgs) -> ExitCode {
    let fail = |reason: String| output::fail("export", 2, reason);
    let bytes = match read_input(&args.log) {
        Ok(bytes) => bytes,
        Err(e) => return fail(format!("cannot read {}: {e}", args.log.display())),
    };
    let options = Options {
        family: None,
        lenient: args.lenient,
    };
    let envelopes = match read_log(&bytes, &options) {
        Ok(envelopes) => envelopes,
        Err(e) => return fail(format!("{}: {e}", args.log.display())),
    };
    let layout = factory::layout(&envelopes);
    if let Some((path, _)) = layout
        .files
        .iter()
        .find(|(path, _)| args.dir.join(path).exists())
    {
        return fail(format!(
            "{} exists: export writes a new layout and overwrites nothing",
            args.dir.join(path).display()
        ));
    }
    for (path, bytes) in &layout.files {
        let target = args.dir.join(path);
        let written = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&target, bytes));
        if let Err(e) = written {
            return fail(format!("cannot write {}: {e}", target.display()));
        }
    }
    let report = Exported {
        written: layout.files.iter().map(|(p, _)| p.as_str()).collect(),
        skipped: &layout.skipped,
    };
    output::print_json("export", &report, Style::compact_if(args.compact), 0)
}
