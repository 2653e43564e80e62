//! The files a directory input hands over, by their path inside the folder, and the folder
//! paths a listing takes: pure, so it is tested natively.
//!
//! The paths here are already clean (the browser's relative paths, the core's resolved
//! directories); anything else is refused, not resolved, so that the page never walks a `..`.

use std::collections::BTreeMap;

/// The names of a clean `/`-separated path: `None` when a name is empty, `.` or `..`, or
/// holds a `\` or a control character (what the core's `evidence::path::resolve` never
/// yields).
fn clean_names(path: &str) -> Option<Vec<&str>> {
    path.split('/')
        .map(|name| {
            let bad = matches!(name, "" | "." | "..")
                || name.chars().any(|c| c == '\\' || c.is_control());
            (!bad).then_some(name)
        })
        .collect()
}

/// The folder's name and its files by path, from paths as a directory input writes them
/// (`webkitRelativePath`: `repo/tmp/x.py`, the chosen folder's name first). A path that is
/// not clean, or not inside the first file's folder, is dropped (the browser writes none).
/// The name is `None` when no file is left.
pub(super) fn by_path<T>(
    files: impl IntoIterator<Item = (String, T)>,
) -> (Option<String>, BTreeMap<String, T>) {
    let mut name: Option<String> = None;
    let mut by_path = BTreeMap::new();
    for (relative, file) in files {
        let Some((root, inside)) = clean_names(&relative)
            .filter(|names| names.len() > 1)
            .and_then(|_| relative.split_once('/'))
        else {
            continue;
        };
        if name.get_or_insert_with(|| root.to_owned()) == root {
            by_path.insert(inside.to_owned(), file);
        }
    }
    (name.filter(|_| !by_path.is_empty()), by_path)
}

/// A folder inside the linked one, as [`super::LinkedFolder::list`] takes it: `None` for the
/// root (`""`).
///
/// # Errors
/// A path that is not a clean path inside the folder.
pub(super) fn folder(dir: &str) -> Result<Option<&str>, String> {
    match dir {
        "" => Ok(None),
        dir if clean_names(dir).is_some() => Ok(Some(dir)),
        dir => Err(format!("“{dir}” is not a folder inside the linked folder")),
    }
}

/// The names of the files and folders directly in `dir` (`None`: the root), sorted; `None`
/// when no file lies under `dir`.
pub(super) fn names_in<'a>(
    paths: impl Iterator<Item = &'a String>,
    dir: Option<&str>,
) -> Option<Vec<String>> {
    let prefix = dir.map(|d| format!("{d}/")).unwrap_or_default();
    let mut found = dir.is_none();
    let mut names = std::collections::BTreeSet::new();
    for path in paths {
        if let Some(rest) = path.strip_prefix(&prefix) {
            found = true;
            names.insert(rest.split('/').next().unwrap_or(rest).to_owned());
        }
    }
    found.then(|| names.into_iter().collect())
}

/// Whether some file lies under `path` (which then names a folder, not a file).
pub(super) fn holds_folder<'a>(mut paths: impl Iterator<Item = &'a String>, path: &str) -> bool {
    let prefix = format!("{path}/");
    paths.any(|p| p.starts_with(&prefix))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    fn folder_of(paths: &[&str]) -> (Option<String>, BTreeMap<String, ()>) {
        by_path(paths.iter().map(|p| ((*p).to_owned(), ())))
    }

    #[test]
    fn paths_drop_the_folders_name_and_stay_inside() {
        let (name, files) = folder_of(&[
            "repo/tmp/pair_1_tests.py",
            "repo/auth.py",
            "repo/../escape.py",
            "repo/a/./b.py",
            "repo//c.py",
            "repo/a\\..\\..\\d.py",
            "other/e.py",
            "lone.py",
        ]);
        assert_eq!(name.as_deref(), Some("repo"));
        let paths: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(paths, ["auth.py", "tmp/pair_1_tests.py"]);
        assert_eq!(folder_of(&[]).0, None);
        assert_eq!(folder_of(&["../x", "x/../y", "/x/y"]).0, None);
    }

    #[test]
    fn lists_the_files_and_folders_directly_in_a_folder() {
        let (_, files) = folder_of(&["r/a.py", "r/tmp/b.md", "r/tmp/c.py", "r/tmp/deep/d.py"]);
        let list = |dir: &str| names_in(files.keys(), folder(dir).unwrap());
        assert_eq!(list("").unwrap(), ["a.py", "tmp"]);
        assert_eq!(list("tmp").unwrap(), ["b.md", "c.py", "deep"]);
        assert_eq!(list("tmp/deep").unwrap(), ["d.py"]);
        assert_eq!(list("nowhere"), None);
        assert_eq!(list("tm"), None);
        for outside in ["../outside", "/etc", "tmp/../..", "a\\b", "tmp/", "./tmp"] {
            assert!(
                folder(outside).unwrap_err().contains("not a folder inside"),
                "{outside}"
            );
        }
    }

    proptest::proptest! {
        /// Whatever paths the browser or a caller hands over, the folder keeps only clean
        /// paths under the chosen folder, and a listing walks only clean names.
        #[test]
        fn nothing_outside_the_folder_is_kept_or_listed(
            paths in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(
                        vec!["repo", "a", "..", ".", "", "b\\..", "c\u{0}", "~", "C:"],
                    ),
                    0..5,
                ).prop_map(|names| names.join("/")),
                0..8,
            ),
            dir in r"[a./\\]{0,6}",
        ) {
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            let (name, files) = folder_of(&paths);
            for path in files.keys() {
                proptest::prop_assert!(clean_names(path).is_some(), "{path:?}");
            }
            proptest::prop_assert!(name.as_deref().is_none_or(|n| clean_names(n).is_some()));
            if let Ok(Some(dir)) = folder(&dir) {
                let clean = |n: &str| !matches!(n, "" | "." | "..") && !n.contains('\\');
                proptest::prop_assert!(dir.split('/').all(clean));
            }
        }
    }

    #[test]
    fn a_folder_is_not_a_file() {
        let (_, files) = folder_of(&["r/tmp/b.md"]);
        assert!(holds_folder(files.keys(), "tmp"));
        assert!(!holds_folder(files.keys(), "tmp/b.md"));
        assert!(!holds_folder(files.keys(), "tm"));
    }
}
