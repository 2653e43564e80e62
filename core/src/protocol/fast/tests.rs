//! The fast path against the registry and the full path.

use super::check;
use super::pass::KEPT;
use super::values::MAX_FIELDS;
use crate::protocol::registry::{CrossCheck, ObjectSpec, Str, Ty, REGISTRY};
use crate::protocol::Options;

/// Counts the version rules in a type's tree, and whether one sits inside an array.
fn versions(ty: &Ty, in_array: bool) -> (usize, bool) {
    match ty {
        Ty::Str(Str::Version { .. }) => (1, in_array),
        Ty::Array { items, .. } => versions(items, true),
        Ty::Object(spec) => spec.fields.iter().fold((0, false), |(n, a), f| {
            let (m, b) = versions(&f.ty, in_array);
            (n + m, a || b)
        }),
        _ => (0, false),
    }
}

fn widest(ty: &Ty) -> usize {
    match ty {
        Ty::Array { items, .. } => widest(items),
        Ty::Object(spec) => spec
            .fields
            .iter()
            .map(|f| widest(&f.ty))
            .fold(spec.fields.len(), usize::max),
        _ => 0,
    }
}

#[test]
fn the_registry_fits_this_path() {
    for fam in REGISTRY {
        for t in fam.types {
            // The declared version is one member, so the order members are checked in
            // (document order here, registry order on the full path) cannot change it.
            let root = Ty::Object(ObjectSpec::new(t.root.fields));
            let (n, in_array) = versions(&root, false);
            assert!(n <= 1 && !in_array, "{}: {n} version rules", t.name);
            assert!(widest(&root) <= MAX_FIELDS, "{}", t.name);
            let read: usize = t
                .checks
                .iter()
                .map(|c| match c {
                    CrossCheck::Pairs { .. } | CrossCheck::Differ { .. } => 2,
                })
                .sum();
            assert!(read <= KEPT, "{}", t.name);
        }
    }
}

/// A message that writes a member twice is judged by its last value, at the root (the
/// discriminator too), in a nested object and in a carried message: answered by this pass, or
/// explained by the tree; never clean here when the last value is not.
#[test]
fn repeated_members_count_with_their_last_value() {
    let task = r#""version":"1.0.0","timestamp":"2025-12-25T12:00:00Z","sender_id":"o","message_id":"123e4567-e89b-12d3-a456-426614174000","task_id":"bd-1","description":"d","file_patterns":["x"],"priority":"low","priority_value":3"#;
    let spec = r#""specification":{"acceptance_criteria":["a"]}"#;
    let clean = [
        format!(r#"{{"type":true,{task},{spec},"type":"task_assignment"}}"#),
        format!(r#"{{"type":"status_update",{task},{spec},"type":"task_assignment"}}"#),
        format!(r#"{{"type":"task_assignment","task_id":7,{task},{spec}}}"#),
        format!(
            r#"{{"type":"task_assignment",{task},"specification":{{"acceptance_criteria":0,"acceptance_criteria":["a"]}}}}"#
        ),
        format!(r#"{{"type":"task_assignment",{task},"specification":1,{spec}}}"#),
        format!(
            r#"{{"subject":"x","body_md":1,"body_md":"{{\"type\":\"task_assignment\",\"task_id\":7,{}}}"}}"#,
            format!("{task},{spec}").replace('"', "\\\"")
        ),
    ];
    for text in &clean {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let full = crate::protocol::validate(&value, &crate::protocol::Options::default());
        assert!(full.valid && full.issues.is_empty(), "{text}: {full:?}");
        // Answered by this pass, or (a declared member written twice) explained by the tree.
        let bytes = crate::protocol::validate_slice(text.as_bytes(), &Default::default());
        assert_eq!(bytes, full, "{text}");
    }
    // The last value is the one that counts.
    let unclean = format!(r#"{{"type":"task_assignment",{task},{spec},"task_id":7}}"#);
    assert!(check(&unclean, None).is_err());
}

/// Every strictly valid fixture, as committed and compacted, is answered here (not by the
/// full path), as the type the full path detects.
#[test]
fn valid_fixtures_are_clean_on_this_path() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol/valid");
    let mut stack = vec![root];
    let mut checked = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let pretty = std::fs::read(&path).unwrap();
            let value: serde_json::Value = serde_json::from_slice(&pretty).unwrap();
            let full = crate::protocol::validate(&value, &crate::protocol::Options::default());
            for bytes in [pretty, serde_json::to_vec(&value).unwrap()] {
                let text = std::str::from_utf8(&bytes).unwrap();
                let clean = check(text, None).unwrap_or_else(|_| panic!("{}", path.display()));
                assert_eq!(
                    clean.into_verdict().with_issues(Vec::new()),
                    full,
                    "{}",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "{checked}");
}

proptest::proptest! {
    /// The SIMD search says what `str::contains` says, on text made of the pieces that matter.
    #[test]
    fn body_md_is_found_as_contains_finds_it(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec!["body", "_", "md", "\\", "u", "body_md", "x", "é", "\"", "_md"]),
            0..24,
        )
    ) {
        let text: String = pieces.concat();
        let model = text.contains("body_md") || text.contains("\\u");
        proptest::prop_assert_eq!(super::pass::may_name_body_md(&text), model, "{:?}", text);
    }
}

/// A message that fails after members the pass found clean: the tree leaves those unread (an
/// array among them), and the report is the full path's — also when the member comes again
/// after the failure, when a later member changes the type detected, and in lenient mode.
#[test]
fn members_found_clean_before_a_failure_are_not_read_again() {
    let task = r#""version":"1.0.0","timestamp":"2025-12-25T12:00:00Z","sender_id":"o","message_id":"123e4567-e89b-12d3-a456-426614174000","task_id":"bd-1","description":"d","file_patterns":["x","y"]"#;
    let spec = r#""specification":{"acceptance_criteria":["a"]}"#;
    let cases = [
        format!(r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec}}}"#),
        format!(r#"{{"type":"task_assignment",{task},"priority":"low","priority_value":1,{spec}}}"#),
        format!(r#"{{"type":"task_assignment",{task},{spec}}}"#),
        format!(
            r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec},"file_patterns":7}}"#
        ),
        format!(
            r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec},"message_type":"PROGRESS_UPDATE"}}"#
        ),
        format!(r#"{{"type":"task_assignment",{task},"priority":"critical","priority_value":3,{spec}}}"#),
        // A version of its own, recorded in the report.
        format!(r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec}}}"#)
            .replace("1.0.0", "1.5.0"),
        // The version again after the failure: the last one counts.
        format!(r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec},"version":"x"}}"#)
            .replace("1.0.0", "1.5.0"),
    ];
    let after_patterns = |text: &str| text.find(r#""y"]"#).unwrap() + 4;
    for text in &cases {
        let prefix = check(text, None).expect_err(text).expect(text);
        assert!(prefix.before >= after_patterns(text), "{text}: {prefix:?}");
        for options in [Options::default(), Options::lenient()] {
            let bytes = crate::protocol::validate_slice(text.as_bytes(), &options);
            let full = crate::protocol::validate_slice_via_value(text.as_bytes(), &options);
            assert_eq!(bytes, full, "{text}");
            assert!(!full.issues.is_empty(), "{text}");
        }
    }
    // A version inside a member found clean: that member is read.
    let pair = r#"{"to":"bob","subject":"PAIR_INIT","body":{"protocol_version":"3.7","task":"t","my_role":"PLANNER","your_role":"BUILDER","status":"INITIALIZED"},"to":5}"#;
    let prefix = check(pair, None).expect_err(pair).expect(pair);
    assert!(
        prefix.before > pair.find("INITIALIZED").unwrap(),
        "{prefix:?}"
    );
    let bytes = crate::protocol::validate_slice(pair.as_bytes(), &Options::default());
    assert_eq!(bytes.version.as_deref(), Some("3.7"));
    assert_eq!(
        bytes,
        crate::protocol::validate_slice_via_value(pair.as_bytes(), &Options::default())
    );
}
