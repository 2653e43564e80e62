//! Fixture corpus: every seed example (valid, lenient-only, invalid) and one invalid case per
//! rule, each with its exact expected issues (path, code) in strict and lenient mode.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use switchboard_core::protocol::builders::build::BuildOptions;
use switchboard_core::protocol::builders::reply::{
    error_reply, ErrorReply, RejectCode, ReplyError, ReplyOptions,
};
use switchboard_core::protocol::{self, model::Message, FamilyId, Options, Report, Severity};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol")
}

fn read_json(rel: &str) -> Value {
    let text = std::fs::read_to_string(root().join(rel)).expect(rel);
    serde_json::from_str(&text).expect(rel)
}

fn pairs(report: &Report, severity: Severity) -> Vec<(String, String)> {
    report
        .issues
        .iter()
        .filter(|i| i.severity == severity)
        .map(|i| (i.path.to_pointer(), i.code.as_str().to_owned()))
        .collect()
}

fn expected(v: &Value) -> Vec<(String, String)> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p[0].as_str().unwrap().to_owned(),
                        p[1].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn options(hint: Option<&Value>, lenient: bool) -> Options {
    Options {
        family: hint
            .and_then(Value::as_str)
            .map(|f| FamilyId::parse(f).expect(f)),
        lenient,
    }
}

fn list_files(dir: &Path, out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            list_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.insert(rel);
        }
    }
}

#[test]
fn every_fixture_file_matches_its_manifest_entry() {
    let manifest = read_json("manifest.json");
    let entries = manifest.as_array().unwrap();
    let mut listed = BTreeSet::new();
    let mut failures = Vec::new();
    for e in entries {
        let file = e["file"].as_str().unwrap();
        listed.insert(file.to_owned());
        let msg = read_json(file);
        let hint = e.get("family_hint");
        let strict = protocol::validate(&msg, &options(hint, false));
        let lenient = protocol::validate(&msg, &options(hint, true));
        let want_strict = expected(&e["strict_errors"]);
        let want_len_err = expected(&e["lenient_errors"]);
        let want_len_warn = expected(&e["lenient_warnings"]);
        let mut check = |what: &str, got: Vec<(String, String)>, want: &Vec<(String, String)>| {
            if &got != want {
                failures.push(format!("{file} {what}: got {got:?}, want {want:?}"));
            }
        };
        check(
            "strict errors",
            pairs(&strict, Severity::Error),
            &want_strict,
        );
        check(
            "strict warnings",
            pairs(&strict, Severity::Warning),
            &Vec::new(),
        );
        check(
            "lenient errors",
            pairs(&lenient, Severity::Error),
            &want_len_err,
        );
        check(
            "lenient warnings",
            pairs(&lenient, Severity::Warning),
            &want_len_warn,
        );
        assert_eq!(strict.valid, want_strict.is_empty(), "{file}");
        assert_eq!(lenient.valid, want_len_err.is_empty(), "{file}");
        assert_eq!(strict.family_name(), e["family"].as_str(), "{file} family");
        if let Some(t) = e["message_type"].as_str() {
            assert_eq!(strict.message_type, Some(t), "{file} message_type");
        }
        // Directory convention: valid/ strict-valid, lenient/ lenient-only, invalid/ neither.
        let dir = file.split('/').next().unwrap();
        let class = match (strict.valid, lenient.valid) {
            (true, true) => "valid",
            (false, true) => "lenient",
            _ => "invalid",
        };
        assert_eq!(dir, class, "{file} is in the wrong directory");
        if dir != "valid" {
            assert!(
                e["reason"].as_str().is_some_and(|r| !r.is_empty()),
                "{file} needs a reason"
            );
        }
        // The fast path agrees with the full report.
        assert_eq!(
            options(hint, false).is_valid(&msg),
            strict.valid,
            "{file} is_valid"
        );
        assert_eq!(
            options(hint, true).is_valid(&msg),
            lenient.valid,
            "{file} lenient is_valid"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let mut on_disk = BTreeSet::new();
    for d in ["valid", "lenient", "invalid"] {
        list_files(&root().join(d), &mut on_disk);
    }
    on_disk.remove("invalid/cases.json");
    assert_eq!(on_disk, listed, "fixture files and manifest entries differ");
}

#[test]
fn seed_examples_are_all_present() {
    let manifest = read_json("manifest.json");
    let seeds = manifest
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            let s = e["source"].as_str().unwrap();
            s.starts_with("seed ") && !s.contains("(constructed)")
        })
        .count();
    // 11 Pair blocks + shell example, 10 Agent-PO, 11 droid blocks + rejection object.
    assert_eq!(seeds, 12 + 10 + 12);
}

#[test]
fn every_rule_case_reports_exactly_its_issues() {
    let cases = read_json("invalid/cases.json");
    let mut failures = Vec::new();
    for c in cases.as_array().unwrap() {
        let rule = c["rule"].as_str().unwrap();
        let opts = options(
            c.pointer("/options/family"),
            c.pointer("/options/lenient")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        );
        let report = match c.get("raw") {
            Some(raw) => protocol::validate_str(raw.as_str().unwrap(), &opts),
            None => protocol::validate(&c["message"], &opts),
        };
        let got_e = pairs(&report, Severity::Error);
        let got_w = pairs(&report, Severity::Warning);
        let (want_e, want_w) = (expected(&c["errors"]), expected(&c["warnings"]));
        if got_e != want_e || got_w != want_w {
            failures.push(format!(
                "{rule}: errors {got_e:?} (want {want_e:?}), warnings {got_w:?} (want {want_w:?})"
            ));
        }
        assert_eq!(report.valid, want_e.is_empty(), "{rule}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_issue_code_is_exercised_and_documented() {
    let cases = std::fs::read_to_string(root().join("invalid/cases.json")).unwrap();
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md"))
            .expect("docs/protocol.md");
    for code in protocol::IssueCode::ALL {
        assert!(
            cases.contains(&format!("\"{}\"", code.as_str())),
            "no case for {code}"
        );
        assert!(
            docs.contains(&format!("`{}`", code.as_str())),
            "{code} not in docs/protocol.md"
        );
    }
    for dev in protocol::registry::DEVIATIONS {
        let id = format!("`{}`", dev.id);
        assert!(docs.contains(&id), "{id} not in docs/protocol.md");
    }
}

#[test]
fn typed_model_round_trips_every_valid_fixture() {
    let manifest = read_json("manifest.json");
    for e in manifest.as_array().unwrap() {
        let file = e["file"].as_str().unwrap();
        let msg = read_json(file);
        for lenient in [false, true] {
            let opts = options(e.get("family_hint"), lenient);
            match Message::parse(&msg, &opts) {
                Ok(m) => {
                    if !file.starts_with("valid/carried") {
                        assert_eq!(m.to_value(), msg, "{file}");
                        assert_eq!(serde_json::to_value(&m).unwrap(), msg, "{file}");
                    }
                    assert_eq!(Some(m.spec.name), e["message_type"].as_str());
                }
                // A template (lenient) is valid but names no type, so it has no model.
                Err(r) => assert!(!r.valid || r.message_type.is_none(), "{file}"),
            }
        }
    }
}

fn reply_options(family: Option<FamilyId>) -> ReplyOptions {
    ReplyOptions {
        family,
        build: BuildOptions {
            now: switchboard_core::time::Timestamp::parse("2026-01-06T09:00:00Z"),
            random: Some([0x5a; 16]),
            sender: Some("switchboard".into()),
            ..BuildOptions::default()
        },
    }
}

#[test]
fn agent_po_error_reply_is_itself_valid() {
    let mut msg = read_json("valid/agent-po/c02_COMPLETION_REPORT_real_timestamps.json");
    msg.as_object_mut().unwrap().remove("ac_verification");
    let report = protocol::validate(&msg, &Options::default());
    assert!(!report.valid);
    let Ok(ErrorReply::AgentPo { error }) = error_reply(&report, &msg, &reply_options(None)) else {
        panic!("an Agent-PO ERROR")
    };
    let reply = error.to_value();
    assert_eq!(reply["error"]["code"], "INVALID_MESSAGE");
    assert_eq!(reply["error"]["original_message_type"], "COMPLETION_REPORT");
    assert!(reply["error"]["message"]
        .as_str()
        .unwrap()
        .contains("/ac_verification"));
    let check = protocol::validate(&reply, &Options::default());
    assert!(check.valid, "{check:?}");
    assert_eq!(check.message_type, Some("ERROR"));
    // Also for input of no known family, when the receiver speaks Agent-PO.
    let junk = serde_json::json!({"hello": 1});
    let report = protocol::validate(&junk, &Options::default());
    assert!(matches!(
        error_reply(&report, &junk, &reply_options(None)),
        Err(ReplyError::NoErrorReply { family: None })
    ));
    let Ok(ErrorReply::AgentPo { error }) =
        error_reply(&report, &junk, &reply_options(Some(FamilyId::AgentPo)))
    else {
        panic!("an Agent-PO ERROR")
    };
    assert!(protocol::is_valid(&error.to_value()));
}

#[test]
fn droid_error_report_cites_the_original_and_is_valid() {
    let droid = |msg: &serde_json::Value| {
        let report = protocol::validate(msg, &Options::default());
        match error_reply(&report, msg, &reply_options(None)) {
            Ok(ErrorReply::Droid {
                reject,
                error_report,
            }) => (reject, error_report.to_value()),
            other => panic!("a droid reply, got {other:?}"),
        }
    };
    let mut msg = read_json("valid/droid/c01_task_assignment_uuid.json");
    msg["version"] = "2.0.0".into();
    let (reject, reply) = droid(&msg);
    assert_eq!(reply["error"]["code"], "VERSION_MISMATCH");
    let reject = reject.expect("a rejection");
    assert_eq!(reject.error, RejectCode::VersionMismatch);
    assert_eq!(reject.message_id.as_deref(), msg["message_id"].as_str());
    assert_eq!(
        reply["error"]["context"]["original_message_id"],
        msg["message_id"]
    );
    assert_eq!(reply["task_id"], "bd-42");
    assert_eq!(reply["timestamp"], "2026-01-06T09:00:00Z");
    assert_eq!(reply["sender_id"], "switchboard");
    let check = protocol::validate(&reply, &Options::default());
    assert!(check.valid, "{check:?}");
    assert_eq!(check.message_type, Some("error_report"));

    let mut unknown = msg.clone();
    unknown["version"] = "1.0.0".into();
    unknown["type"] = "prd_completion".into();
    let (reject, r) = droid(&unknown);
    assert_eq!(r["error"]["code"], "UNKNOWN_MESSAGE_TYPE");
    assert_eq!(reject, None, "an unknown type gets only the error_report");
    assert!(protocol::is_valid(&r));

    let mut bad = msg.clone();
    bad["version"] = "1.0.0".into();
    bad["priority"] = "asap".into();
    bad["task_id"] = "no spaces allowed".into();
    let (reject, r) = droid(&bad);
    assert_eq!(r["error"]["code"], "INVALID_FORMAT");
    assert_eq!(reject.map(|r| r.error), Some(RejectCode::InvalidFormat));
    assert_eq!(r["task_id"], "unknown");
    assert!(protocol::is_valid(&r));
}

#[test]
fn report_serializes_to_the_documented_shape() {
    let report = protocol::validate_str(
        r#"{"to":"bob","subject":"PAIR_INIT","body":{"protocol_version":"3.1","task":"t","my_role":"PLANNER","your_role":"BUILDER"}}"#,
        &Options::default(),
    );
    let v = serde_json::to_value(&report).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "valid": false, "family": "pair", "message_type": "PAIR_INIT", "version": "3.1",
            "issues": [{"path": "/body/status", "code": "missing_field",
                        "message": "missing required field `status`", "severity": "error"}]
        })
    );
    let errs: Vec<_> =
        protocol::iter_errors(&serde_json::json!({"x": 1}), &Options::default()).collect();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code.as_str(), "unknown_family");
}
