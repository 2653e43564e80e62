//! Reading a directory of contract files and writing JSON output, shared by `audit` and
//! `fingerprint`.

use serde::Serialize;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Every regular file under `root` (recursively, directory symlinks not followed) as a
/// `/`-separated path relative to `root` and its bytes, in path order.
pub fn read_tree(root: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            let path = entry.path();
            let meta = std::fs::metadata(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let link = entry.file_type().is_ok_and(|t| t.is_symlink());
            if meta.is_dir() {
                if !link {
                    pending.push(path);
                }
            } else if meta.is_file() {
                let bytes = std::fs::read(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                out.push((relative(root, &path)?, bytes));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn relative(root: &Path, path: &Path) -> Result<String, String> {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    parts
        .map(|p| p.join("/"))
        .ok_or_else(|| format!("file name is not UTF-8: {}", path.display()))
}

/// Reads a file, or stdin for `-`.
pub fn read_input(file: &PathBuf) -> io::Result<Vec<u8>> {
    if file.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file)
    }
}

/// How printing ended.
pub enum Printed {
    /// Written.
    Done,
    /// The reader went away (a closed pipe): end quietly.
    Closed,
    /// Any other write failure, with its reason.
    Failed(String),
}

/// Prints `value` as JSON (pretty unless `compact`) and a newline on stdout.
pub fn print_json<T: Serialize>(value: &T, compact: bool) -> Printed {
    let mut out = io::stdout().lock();
    let written = if compact {
        serde_json::to_writer(&mut out, value)
    } else {
        serde_json::to_writer_pretty(&mut out, value)
    }
    .map_err(io::Error::from)
    .and_then(|()| out.write_all(b"\n"))
    .and_then(|()| out.flush());
    match written {
        Ok(()) => Printed::Done,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Printed::Closed,
        Err(e) => Printed::Failed(e.to_string()),
    }
}
