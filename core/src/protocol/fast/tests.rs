//! The fast path against the registry and the full path.

use super::check;
use super::pass::KEPT;
use super::values::MAX_FIELDS;
use crate::protocol::ctx::Ctx;
use crate::protocol::issue_log::IssueLog;
use crate::protocol::registry::{CrossCheck, ObjectSpec, Str, Ty, REGISTRY};
use crate::protocol::{validate_slice, validate_slice_via_value, Options, Report};

/// The report this pass gives, when it explains the message itself.
fn explained_here(text: &str, options: &Options) -> Option<Report> {
    let mut log = IssueLog::new();
    let mut ctx = Ctx::new(options.lenient, true);
    let (family, found) = check(text, options, &mut ctx)?;
    let verdict = crate::protocol::verdict(&mut ctx, Some(family), Some(found), &mut log);
    Some(verdict.with_issues(log.to_issues()))
}

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
    // The last value is the one that counts: explained by the tree.
    let unclean = format!(r#"{{"type":"task_assignment",{task},{spec},"task_id":7}}"#);
    assert!(explained_here(&unclean, &Options::default()).is_none());
    let bytes = validate_slice(unclean.as_bytes(), &Options::default());
    assert_eq!(
        bytes,
        validate_slice_via_value(unclean.as_bytes(), &Options::default())
    );
    assert!(!bytes.valid);
}

/// Every strictly valid fixture, as committed and compacted, is answered here (not by the
/// tree), as the type the full path detects.
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
                let here = explained_here(text, &Options::default());
                assert_eq!(here.as_ref(), Some(&full), "{}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "{checked}");
}

/// Messages with issues after, before and among members that have none, missing members, a
/// member of the wrong kind, a short array, cross-field rules, versions of their own, a
/// member written after another type's discriminator: explained by this pass (not by the
/// tree), with the full path's report in both modes, issues in the full path's order.
#[test]
fn messages_with_issues_are_explained_in_the_full_paths_order() {
    let task = r#""version":"1.0.0","timestamp":"2025-12-25T12:00:00Z","sender_id":"o","message_id":"123e4567-e89b-12d3-a456-426614174000","task_id":"bd-1","description":"d","file_patterns":["x","y"]"#;
    let spec = r#""specification":{"acceptance_criteria":["a"]}"#;
    let cases = [
        format!(r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec}}}"#),
        format!(r#"{{"type":"task_assignment",{task},"priority":"low","priority_value":1,{spec}}}"#),
        format!(r#"{{"type":"task_assignment",{task},{spec}}}"#),
        format!(r#"{{"priority_value":"3",{spec},"type":"task_assignment",{task},"priority":7}}"#),
        format!(r#"{{"type":"task_assignment",{task},"priority":"critical","priority_value":3,"specification":{{"acceptance_criteria":[]}}}}"#),
        format!(r#"{{"type":"task_assignment",{task},"priority":"low","priority_value":3,"specification":[1]}}"#)
            .replace(r#"["x","y"]"#, r#"[1,{"a":2},"z"]"#),
        format!(r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec}}}"#)
            .replace("1.0.0", "1.5.0"),
        format!(r#"{{"type":"task_assignment",{task},"priority":"urgent!","priority_value":3,{spec}}}"#)
            .replace("1.0.0", "2.5.0")
            .replace(r#""sender_id":"o""#, r#""sender_id":"","extra":{"k":[true]}"#),
        r#"{"to":"bob","subject":"PAIR_INIT","body":{"protocol_version":"3.7","task":"t","my_role":"PLANNER","your_role":"PLANNER","status":"INITIALIZED","extra":1}}"#.to_string(),
        r#"{"subject":"PAIR_INIT","body":{"task":5,"my_role":"PLANNER","status":"x"},"to":["b"]}"#.to_string(),
    ];
    // Issues found before one the report lists first: 40 (sorted here), and more than a
    // report lists, in the registry's order (the first 100 kept here) and not (150 issues out
    // of order: the tree explains them, see `IssueLog::reorder`).
    let rest = task
        .replace(r#","file_patterns":["x","y"]"#, "")
        .replace(r#""sender_id":"o""#, r#""sender_id":"""#);
    let ones = |n: usize| vec!["1"; n].join(",");
    let written_before = |n: usize| {
        format!(
            r#"{{"file_patterns":[{}],"type":"task_assignment",{rest},"priority":"low","priority_value":1,{spec}}}"#,
            ones(n)
        )
    };
    let in_order = format!(
        r#"{{"type":"task_assignment",{rest},"file_patterns":[{}],"priority":"low","priority_value":1,{spec}}}"#,
        ones(150)
    );
    let out_of_order = written_before(150);
    for text in cases.iter().chain([&written_before(40), &in_order]) {
        for options in [Options::default(), Options::lenient()] {
            let full = validate_slice_via_value(text.as_bytes(), &options);
            assert!(!full.issues.is_empty(), "{text}");
            let here = explained_here(text, &options).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(here, full, "{text}");
            assert_eq!(validate_slice(text.as_bytes(), &options), full, "{text}");
        }
    }
    assert!(explained_here(&out_of_order, &Options::default()).is_none());
    let full = validate_slice_via_value(out_of_order.as_bytes(), &Options::default());
    assert_eq!(full.issues.len(), 101);
    assert_eq!(
        validate_slice(out_of_order.as_bytes(), &Options::default()),
        full
    );
}

/// The invalid fixtures, in both modes: the pass explains all but those it gives up on, each
/// with the full path's report.
#[test]
fn invalid_fixtures_are_explained_on_this_path() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/protocol/invalid/cases.json");
    let cases: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let (mut here, mut all) = (0, 0);
    for case in &cases {
        let text = case["message"].to_string();
        for options in [Options::default(), Options::lenient()] {
            all += 1;
            let full = validate_slice_via_value(text.as_bytes(), &options);
            if let Some(report) = explained_here(&text, &options) {
                assert_eq!(report, full, "{text}");
                here += 1;
            }
        }
    }
    // 108 of 138 on 2026-11-29: the rest have no message to check (not JSON, not an object,
    // an unknown family or type, conflicting or missing discriminators, a row of prose).
    assert!(here >= 100, "{here} of {all}");
}

/// A member after the type read ahead that could change detection's answer (another type's
/// discriminator, another family's marker, an Agent Mail body) sends the pass back to detect
/// member by member: each message gets the full path's report, in both modes.
#[test]
fn members_that_unsettle_the_answer_read_ahead_give_the_full_paths_report() {
    let task = r#""version":"1.0.0","timestamp":"2025-12-25T12:00:00Z","sender_id":"o","message_id":"123e4567-e89b-12d3-a456-426614174000","task_id":"bd-1","description":"d","file_patterns":["x"],"priority":"low","priority_value":3,"specification":{"acceptance_criteria":["a"]}"#;
    let droid = format!(r#"{{"type":"task_assignment",{task}}}"#);
    let error = r#"{"message_type":"ERROR","error":{"code":"INVALID_MESSAGE","message":"m","original_message_type":"FEEDBACK"},"action":"a"}"#;
    let pair = r#"{"to":"bob","subject":"PAIR_INIT","body":{"protocol_version":"3.7","task":"t","my_role":"PLANNER","your_role":"BUILDER","status":"INITIALIZED"}}"#;
    let with =
        |message: &str, member: &str| format!("{},{member}}}", &message[..message.len() - 1]);
    let mut cases = vec![droid.clone(), error.to_string(), pair.to_string()];
    for member in [
        r#""message_type":"ERROR""#,
        r#""name":"x""#,
        r#""allowed":true"#,
        r#""body_md":"x""#,
        r#""scheming_detected":false"#,
        r#""type":"status_update""#,
    ] {
        cases.extend([
            with(&droid, member),
            with(error, member),
            with(pair, member),
        ]);
    }
    cases.push(with(error, r#""sender_id":"o""#));
    cases.push(with(pair, r#""message_id":"m""#));
    // The three messages alone are answered by the type read ahead.
    assert_full_reports(&cases, &cases[..3]);
}

/// An Agent-PO `BLOCKED_NOTIFICATION` names two types, told apart by their shape members: the
/// type is read ahead up to the first shape member; a shape member of the other type later
/// (the message then fits both), or none at all, gives the full path's report.
#[test]
fn a_type_read_ahead_up_to_its_shape_member_gives_the_full_paths_report() {
    let head = r#""message_type":"BLOCKED_NOTIFICATION","agent_id":"agent-xxx","task_id":"TASK-XXX","timestamp":"2026-01-15T10:00:00Z","reason":"r""#;
    let agent = r#""details":{"issue":"i"}"#;
    let po = r#""history":{"attempt_1":"test failure"}"#;
    let mut cases = Vec::new();
    for (own, other) in [(agent, po), (po, agent), (agent, r#""next_steps":{}"#)] {
        cases.extend([
            format!("{{{head},{own}}}"),
            format!("{{{own},{head}}}"),
            format!("{{{head},{own},{other}}}"),
            format!("{{{own},{head},{other}}}"),
            format!("{{{head},{other},{own}}}"),
        ]);
    }
    cases.push(format!("{{{head}}}"));
    // Each type alone, its shape member before or after `message_type`, is answered here.
    let alone = [0, 1, 5, 6].map(|i| cases[i].clone());
    assert_full_reports(&cases, &alone);
}

/// Each of `cases` gets the full path's report, in both modes, here when the pass explains it;
/// each of `valid` is explained here, valid and without issues.
fn assert_full_reports(cases: &[String], valid: &[String]) {
    for text in cases {
        for options in [Options::default(), Options::lenient()] {
            let full = validate_slice_via_value(text.as_bytes(), &options);
            assert_eq!(validate_slice(text.as_bytes(), &options), full, "{text}");
            if let Some(here) = explained_here(text, &options) {
                assert_eq!(here, full, "{text}");
            }
        }
    }
    for text in valid {
        let report = explained_here(text, &Options::default()).unwrap();
        assert!(
            report.valid && report.issues.is_empty(),
            "{text}: {report:?}"
        );
    }
}
