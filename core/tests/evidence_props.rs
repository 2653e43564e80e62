//! Artifact path resolution never yields a path outside the linked folder: checked on
//! generated paths against a model built on `std::path` (POSIX components, with `\` read as a
//! separator), and on arbitrary text.

use proptest::prelude::*;
use std::path::{Component, Path};
use switchboard_core::evidence::path::{resolve, Refusal};

/// Where a path lands, by `std::path`: `Some(names below the root)`, or `None` when it
/// starts at a root or climbs above the folder.
fn model(rest: &str) -> Option<Vec<String>> {
    let unix = rest.replace('\\', "/");
    let mut names: Vec<String> = Vec::new();
    for component in Path::new(&unix).components() {
        match component {
            Component::RootDir | Component::Prefix(_) => return None,
            Component::CurDir => {}
            Component::ParentDir => {
                names.pop()?;
            }
            Component::Normal(name) => names.push(name.to_string_lossy().into_owned()),
        }
    }
    Some(names)
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_owned()),
        Just(".".to_owned()),
        Just(String::new()),
        Just("...".to_owned()),
        Just("pair_1_..".to_owned()),
        Just("tmp".to_owned()),
        Just("a b".to_owned()),
        "[a-z_]{1,6}(\\.[a-z]{1,3})?",
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("/"), Just("\\"), Just("//")]
}

fn relative_path() -> impl Strategy<Value = String> {
    prop::collection::vec((segment(), separator()), 1..8).prop_map(|parts| {
        let mut out = String::new();
        for (i, (seg, sep)) in parts.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(seg);
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A relative path, with or without `$PROJECT_ROOT/`, lands where `std::path` says, and is
    /// refused exactly when `std::path` climbs above the root (or names nothing).
    #[test]
    fn relative_paths_agree_with_std_path(path in relative_path(), rooted in any::<bool>(), lead in separator()) {
        let raw = if rooted { format!("$PROJECT_ROOT{lead}{path}") } else { path.clone() };
        // Under `$PROJECT_ROOT`, extra separators after it still start at the project root.
        let expected = if rooted { model(path.trim_start_matches(['/', '\\'])) } else { model(&path) };
        match resolve(&raw) {
            Ok(p) => {
                let names = expected.expect("std::path stays inside");
                prop_assert_eq!(p.as_str(), names.join("/"));
            }
            Err(Refusal::Climbs { .. }) => prop_assert_eq!(expected, None),
            // Only a path that is not under `$PROJECT_ROOT` can start at a root.
            Err(Refusal::Absolute { .. }) if !rooted => prop_assert_eq!(expected, None),
            Err(Refusal::Empty { .. }) => prop_assert_eq!(expected, Some(Vec::new())),
            Err(other) => prop_assert!(false, "unexpected refusal {other:?} of {raw:?}"),
        }
    }

    /// Anything a message could hold: a resolved path is a run of plain names below the root.
    #[test]
    fn no_text_resolves_outside(raw in any::<String>(), prefix in prop_oneof![
        Just(""), Just("/"), Just("\\"), Just("$PROJECT_ROOT/"), Just("${PROJECT_ROOT}"), Just("$HOME/"),
        Just("~/"), Just("C:"), Just("file://"), Just("../"), Just("%PROJECT_ROOT%"), Just("tmp/pair_1_/../.."),
    ]) {
        let raw = format!("{prefix}{raw}");
        if let Ok(p) = resolve(&raw) {
            let s = p.as_str();
            prop_assert!(!s.is_empty());
            prop_assert!(!s.contains('\\') && !s.chars().any(char::is_control));
            for name in s.split('/') {
                prop_assert!(!name.is_empty() && name != "." && name != "..", "{raw:?} -> {s:?}");
            }
            let joined = format!("/folder/{s}");
            let landed = model(&joined[1..]).expect("a plain run of names stays inside");
            prop_assert_eq!(landed.first().map(String::as_str), Some("folder"));
        }
    }
}

#[test]
fn refusals_name_the_path() {
    for raw in [
        "/etc/passwd",
        "../x",
        "C:\\x",
        "~/.ssh",
        "$HOME/x",
        "file:///x",
    ] {
        let refusal = resolve(raw).unwrap_err();
        assert_eq!(refusal.path(), raw);
        assert!(refusal.leaves_folder());
        assert!(refusal.to_string().contains(&format!("{raw:?}")));
    }
}
