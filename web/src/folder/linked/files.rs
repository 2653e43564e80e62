//! The files a directory input hands over, by their path inside the folder: pure, so it is
//! tested natively.

use std::collections::BTreeMap;
use switchboard_core::evidence::path::{resolve, FolderPath, Refusal};

/// The folder's name and its files by path, from paths as a directory input writes them
/// (`webkitRelativePath`: `repo/tmp/x.py`, the chosen folder's name first). A path that does
/// not resolve inside the first file's folder is dropped (the browser writes none). The name
/// is `None` when no file is left.
pub(super) fn by_path<T>(
    files: impl IntoIterator<Item = (String, T)>,
) -> (Option<String>, BTreeMap<FolderPath, T>) {
    let mut name: Option<String> = None;
    let mut by_path = BTreeMap::new();
    for (relative, file) in files {
        let Ok(full) = resolve(&relative) else {
            continue;
        };
        let Some((root, inside)) = full.as_str().split_once('/') else {
            continue;
        };
        if name.get_or_insert_with(|| root.to_owned()) != root {
            continue;
        }
        if let Ok(path) = resolve(inside) {
            by_path.insert(path, file);
        }
    }
    (name.filter(|_| !by_path.is_empty()), by_path)
}

/// A folder inside the linked one, as [`super::LinkedFolder::list`] takes it: `None` for the
/// root (`""`, `.`).
///
/// # Errors
/// A path that would leave the folder, in the core's words.
pub(super) fn folder(dir: &str) -> Result<Option<FolderPath>, String> {
    if dir.is_empty() {
        return Ok(None);
    }
    match resolve(dir) {
        Ok(path) => Ok(Some(path)),
        Err(Refusal::Empty { .. }) => Ok(None),
        Err(refusal) => Err(refusal.to_string()),
    }
}

/// The names of the files and folders directly in `dir` (`None`: the root), sorted; `None`
/// when no file lies under `dir`.
pub(super) fn names_in<'a>(
    paths: impl Iterator<Item = &'a FolderPath>,
    dir: Option<&FolderPath>,
) -> Option<Vec<String>> {
    let prefix = dir.map(|d| format!("{d}/")).unwrap_or_default();
    let mut found = dir.is_none();
    let mut names = std::collections::BTreeSet::new();
    for path in paths {
        if let Some(rest) = path.as_str().strip_prefix(&prefix) {
            found = true;
            names.insert(rest.split('/').next().unwrap_or(rest).to_owned());
        }
    }
    found.then(|| names.into_iter().collect())
}

/// Whether some file lies under `path` (which then names a folder, not a file).
pub(super) fn holds_folder<'a>(
    mut paths: impl Iterator<Item = &'a FolderPath>,
    path: &FolderPath,
) -> bool {
    let prefix = format!("{path}/");
    paths.any(|p| p.as_str().starts_with(&prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder_of(paths: &[&str]) -> (Option<String>, BTreeMap<FolderPath, ()>) {
        by_path(paths.iter().map(|p| ((*p).to_owned(), ())))
    }

    fn path(raw: &str) -> FolderPath {
        resolve(raw).unwrap()
    }

    #[test]
    fn paths_drop_the_folders_name_and_stay_inside() {
        let (name, files) = folder_of(&[
            "repo/tmp/pair_1_tests.py",
            "repo/auth.py",
            "repo/../escape.py",
            "repo/a/../b.py",
            "other/c.py",
            "lone.py",
        ]);
        assert_eq!(name.as_deref(), Some("repo"));
        let paths: Vec<&str> = files.keys().map(FolderPath::as_str).collect();
        assert_eq!(paths, ["auth.py", "b.py", "tmp/pair_1_tests.py"]);
        assert_eq!(folder_of(&[]).0, None);
        assert_eq!(folder_of(&["../x", "x/../y"]).0, None);
    }

    #[test]
    fn lists_the_files_and_folders_directly_in_a_folder() {
        let (_, files) = folder_of(&["r/a.py", "r/tmp/b.md", "r/tmp/c.py", "r/tmp/deep/d.py"]);
        let list = |dir: &str| names_in(files.keys(), folder(dir).unwrap().as_ref());
        assert_eq!(list("").unwrap(), ["a.py", "tmp"]);
        assert_eq!(list("./").unwrap(), ["a.py", "tmp"]);
        assert_eq!(list("tmp").unwrap(), ["b.md", "c.py", "deep"]);
        assert_eq!(list("tmp/deep/").unwrap(), ["d.py"]);
        assert_eq!(list("nowhere"), None);
        assert_eq!(list("tm"), None);
        assert!(folder("../outside").unwrap_err().contains("climbs out"));
        assert!(folder("/etc").unwrap_err().contains("absolute"));
    }

    #[test]
    fn a_folder_is_not_a_file() {
        let (_, files) = folder_of(&["r/tmp/b.md"]);
        assert!(holds_folder(files.keys(), &path("tmp")));
        assert!(!holds_folder(files.keys(), &path("tmp/b.md")));
        assert!(!holds_folder(files.keys(), &path("tm")));
    }
}
