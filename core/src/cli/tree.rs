//! Reading a directory of contract files, shared by `audit`, `fingerprint` and `session`.

use std::path::Path;

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
