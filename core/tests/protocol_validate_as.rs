//! `validate_as` (one given type, no detection) agrees with detection on every message whose
//! type detection finds, and `validate_lines` is `validate_slice` per non-blank line, numbered by input line.

use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use switchboard_core::protocol::{self, FamilyId, IssueCode, Options, REGISTRY};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "json") {
            out.push(path);
        }
    }
}

#[test]
fn validate_as_the_detected_type_gives_the_detected_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    let mut compared = 0;
    for file in files {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        // Agent Mail rows are unwrapped by detection only.
        if value.get("body_md").is_some() || !value.is_object() {
            continue;
        }
        for options in [Options::strict(), Options::lenient()] {
            let detected = protocol::validate(&value, &options);
            let (Some(family), Some(name)) = (detected.family, detected.message_type) else {
                continue;
            };
            let spec = family.spec().message_type(name).unwrap();
            let forced = protocol::validate_as(&value, family.spec(), spec, options.lenient);
            assert_eq!(forced, detected, "{}", file.display());
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn validate_as_checks_the_discriminator_like_any_member() {
    let pair = FamilyId::Pair.spec();
    let init = pair.message_type("PAIR_INIT").unwrap();
    let msg = json!({"to": "b", "subject": "CONTRACT_DRAFT", "body": {}});
    let report = protocol::validate_as(&msg, pair, init, false);
    assert_eq!(report.message_type, Some("PAIR_INIT"));
    assert_eq!(report.issues[0].path.to_pointer(), "/subject");
    assert_eq!(report.issues[0].code, IssueCode::NotInEnum);
    let not_object = protocol::validate_as(&json!([1]), pair, init, false);
    assert_eq!(not_object.issues[0].code, IssueCode::WrongType);
    let not_json = protocol::validate_slice_as(b"{", pair, init, false);
    assert_eq!(not_json.issues[0].code, IssueCode::NotJson);
    assert_eq!(not_json.family, None);
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        " {0,3}\t?\r?".prop_map(|s| s),
        Just(r#"{"type": "request_review"}"#.to_owned()),
        Just(r#"{"type": "request_review", "context": 5}"#.to_owned()),
        Just(r#"{"message_type": "PROGRESS_UPDATE"}"#.to_owned()),
        "[ -~]{0,12}",
    ]
}

proptest! {
    #[test]
    fn validate_lines_is_validate_slice_per_non_blank_line(
        lines in prop::collection::vec(line(), 0..12),
        lenient in any::<bool>(),
        family in prop::option::of(0..REGISTRY.len()),
    ) {
        let options = Options { family: family.map(|i| REGISTRY[i].id), lenient };
        let text = lines.join("\n");
        let got: Vec<_> = protocol::validate_lines(text.as_bytes(), &options)
            .map(|l| (l.line, l.report.valid, l.report.family, l.report.message_type, l.report.issues.len()))
            .collect();
        let want: Vec<_> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.bytes().all(|b| b.is_ascii_whitespace()))
            .map(|(i, l)| {
                let r = protocol::validate_slice(l.as_bytes(), &options);
                (i + 1, r.valid, r.family, r.message_type, r.issues.len())
            })
            .collect();
        prop_assert_eq!(got, want);
    }
}
