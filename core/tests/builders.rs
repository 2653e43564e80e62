//! The generic builder against the registry: for every message type, a valid message drawn
//! from the registry's own rules is rebuilt from any split of its members between the fields
//! and the options (the constants and the discriminator left out or not), exactly; a member
//! given both ways, a required member with neither, a bad value, a wrong sender or a time that
//! is not a time is refused with a structured error naming it.

mod protocol_common;

use proptest::prelude::*;
use protocol_common::arb_object;
use serde_json::{json, Map, Value};
use switchboard_core::protocol::builders::build::{
    build, keys, lookup, uuid_v4, BuildError, BuildOptions, Source,
};
use switchboard_core::protocol::registry::{FamilyId, Str, Ty};
use switchboard_core::protocol::{validate, validate_as, IssueCode, Options};
use switchboard_core::time::Timestamp;

/// A key and a message of its type that validates strictly.
fn keyed_message() -> impl Strategy<Value = (String, Value)> {
    prop::sample::select(keys()).prop_flat_map(|key| {
        let (_, spec) = lookup(&key).expect("a registry key");
        (Just(key), arb_object(&spec.root))
    })
}

/// Whether the key is a Pair type sent as `to`, `subject` and `body` (all but AUDIT_REPORT,
/// the planner's bare `audit_report.json`).
fn enveloped(key: &str) -> bool {
    let (family, spec) = lookup(key).unwrap();
    family.id == FamilyId::Pair && spec.root.fields.iter().any(|f| f.name == "body")
}

/// Sets one option.
type Setter = fn(&mut BuildOptions, String);

/// Moves a member from the message into the options, or leaves it (per `moves`).
fn split(key: &str, message: &Value, moves: &[bool]) -> (Value, BuildOptions) {
    let (family, spec) = lookup(key).unwrap();
    let mut fields = message.as_object().cloned().unwrap_or_default();
    let mut options = BuildOptions::default();
    let take = |i: usize| moves.get(i).copied().unwrap_or(false);
    let text =
        |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_owned);
    match family.id {
        FamilyId::Droid | FamilyId::AgentPo => {
            if take(0) {
                let at = text(&fields, "timestamp").and_then(|t| Timestamp::parse(&t));
                if at.is_some_and(|t| Some(t.to_rfc3339()) == text(&fields, "timestamp")) {
                    options.now = at;
                    fields.remove("timestamp");
                }
            }
            let members: &[(&str, Setter)] = if family.id == FamilyId::Droid {
                &[("sender_id", |o, v| o.sender = Some(v))]
            } else {
                &[
                    ("agent_id", |o, v| o.agent_id = Some(v)),
                    ("task_id", |o, v| o.task_id = Some(v)),
                ]
            };
            for (i, (member, set)) in members.iter().enumerate() {
                if take(1 + i) {
                    if let Some(v) = text(&fields, member) {
                        set(&mut options, v);
                        fields.remove(*member);
                    }
                }
            }
            if family.id == FamilyId::Droid
                && take(3)
                && text(&fields, "version").as_deref() == Some("1.0.0")
            {
                fields.remove("version");
            }
        }
        FamilyId::Pair if enveloped(key) => {
            options.to = text(&fields, "to");
            fields = fields
                .get("body")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
        }
        FamilyId::Pair | FamilyId::PairClaude => {}
    }
    // Constants and the discriminator may be left to the builder.
    let root = if family.id == FamilyId::Pair {
        match &spec
            .root
            .fields
            .iter()
            .find(|f| f.name == "body")
            .map(|f| &f.ty)
        {
            Some(Ty::Object(body)) => body,
            _ => &spec.root,
        }
    } else {
        &spec.root
    };
    for (i, f) in root.fields.iter().enumerate() {
        let constant = matches!(f.ty, Ty::Str(Str::Const(_)) | Ty::BoolConst(_));
        if constant && take(4 + i) {
            fields.remove(f.name);
        }
    }
    (Value::Object(fields), options)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn every_type_is_rebuilt_from_any_split((key, mut message) in keyed_message(), moves in prop::collection::vec(any::<bool>(), 40)) {
        let (family, spec) = lookup(&key).unwrap();
        if enveloped(&key) {
            // A Pair message is built from its body: the transport form has nothing else.
            if let Some(m) = message.as_object_mut() {
                m.retain(|k, _| matches!(k.as_str(), "to" | "subject" | "body"));
            }
        }
        prop_assume!(validate_as(&message, family, spec, false).valid);
        let (fields, options) = split(&key, &message, &moves);
        let built = build(&key, &fields, &options);
        let built = match built {
            Ok(m) => m,
            Err(e) => return Err(TestCaseError::fail(format!("{key}: {e}"))),
        };
        prop_assert_eq!(built.to_value(), message.clone());
        prop_assert_eq!(built.spec.name, spec.name);
    }

    #[test]
    fn a_droid_message_id_is_a_uuid_v4(random in any::<[u8; 16]>()) {
        let options = BuildOptions {
            now: Timestamp::parse("2026-01-06T09:00:00Z"),
            random: Some(random),
            sender: Some("orchestrator".into()),
            ..BuildOptions::default()
        };
        let fields = json!({"task_id": "bd-42", "update_type": "progress", "status_summary": "ok", "blockers": []});
        let m = build("droid/status_update", &fields, &options).unwrap().to_value();
        let id = format!("msg-{}", uuid_v4(random));
        prop_assert_eq!(m["message_id"].as_str(), Some(id.as_str()));
        let v = uuid_v4(random);
        prop_assert_eq!(v.as_bytes()[14], b'4');
        prop_assert!(matches!(v.as_bytes()[19], b'8' | b'9' | b'a' | b'b'));
        let report = validate(&m, &Options::default());
        prop_assert!(report.valid && report.issues.is_empty(), "{:?}", report.issues);
        prop_assert_eq!(report.message_type, Some("status_update"));
    }
}

fn droid_options() -> BuildOptions {
    BuildOptions {
        now: Timestamp::parse("2026-01-06T09:00:00Z"),
        random: Some([1; 16]),
        sender: Some("orchestrator".into()),
        ..BuildOptions::default()
    }
}

#[test]
fn bad_input_is_refused_with_what_is_wrong() {
    let fields = json!({"task_id": "bd-42", "update_type": "progress", "status_summary": "ok", "blockers": []});
    // A member given both ways.
    let mut twice = fields.clone();
    twice["sender_id"] = json!("someone");
    assert_eq!(
        build("droid/status_update", &twice, &droid_options()).unwrap_err(),
        BuildError::Conflict {
            member: "sender_id",
            option: Source::Sender
        }
    );
    // A required member derived from an option not given.
    let no_sender = BuildOptions {
        sender: None,
        ..droid_options()
    };
    assert_eq!(
        build("droid/status_update", &fields, &no_sender).unwrap_err(),
        BuildError::MissingOption {
            member: "sender_id",
            option: Source::Sender
        }
    );
    // A missing required field: the report names it.
    let mut missing = fields.clone();
    missing.as_object_mut().unwrap().remove("status_summary");
    let Err(BuildError::Invalid { report, .. }) =
        build("droid/status_update", &missing, &droid_options())
    else {
        panic!("invalid")
    };
    assert!(report
        .errors()
        .any(|i| i.path.to_pointer() == "/status_summary" && i.code == IssueCode::MissingField));
    // A wrong sender: an Agent-PO agent id that is not `agent-…`.
    let po = BuildOptions {
        now: Timestamp::parse("2026-01-06T09:00:00Z"),
        agent_id: Some("Bob".into()),
        task_id: Some("TASK-042".into()),
        ..BuildOptions::default()
    };
    let progress =
        json!({"status": "implementing", "progress_percent": 50, "current_activity": "x"});
    let Err(BuildError::Invalid { report, .. }) = build("agent-po/PROGRESS_UPDATE", &progress, &po)
    else {
        panic!("invalid")
    };
    assert!(
        report.errors().any(|i| i.path.to_pointer() == "/agent_id"),
        "{:?}",
        report.issues
    );
    // A time that is not a time.
    let mut late = progress.clone();
    late["timestamp"] = json!("yesterday at noon");
    let no_now = BuildOptions {
        now: None,
        ..po.clone()
    };
    let po_ok = BuildOptions {
        agent_id: Some("agent-7f3a".into()),
        ..no_now
    };
    let Err(BuildError::Invalid { report, .. }) = build("agent-po/PROGRESS_UPDATE", &late, &po_ok)
    else {
        panic!("invalid")
    };
    assert!(
        report.errors().any(|i| i.path.to_pointer() == "/timestamp"),
        "{:?}",
        report.issues
    );
    let options: Result<BuildOptions, _> = serde_json::from_value(json!({"now": "yesterday"}));
    assert!(options.unwrap_err().to_string().contains("not a time"));
    // Unknown keys and fields that are no object.
    assert!(matches!(
        build("droid/prd", &fields, &droid_options()),
        Err(BuildError::UnknownKey { .. })
    ));
    assert_eq!(
        build("droid/status_update", &json!([1]), &droid_options()).unwrap_err(),
        BuildError::NotAnObject { found: "an array" }
    );
}

#[test]
fn a_pair_message_is_to_subject_and_body() {
    let options = BuildOptions {
        to: Some("bob".into()),
        ..BuildOptions::default()
    };
    let body =
        json!({"artifacts": {"spec": "tmp/pair_1_spec_final.md", "tests": "tmp/pair_1_tests.py"}});
    let m = build("pair/CONTRACT_FINAL", &body, &options)
        .unwrap()
        .to_value();
    assert_eq!(
        m,
        json!({"to": "bob", "subject": "CONTRACT_FINAL", "body": {"artifacts": body["artifacts"],
            "phase": "CONTRACT_FINALIZED", "contract_immutable": true, "status": "READY_FOR_BUILD"}})
    );
}

#[test]
fn an_audit_report_is_built_bare() {
    let fields = json!({"status": "FAIL", "severity": "MAJOR", "scheming_detected": true,
        "issues": [{"type": "integrity", "severity": "MAJOR", "description": "test file edited"}]});
    let built = build("pair/AUDIT_REPORT", &fields, &BuildOptions::default()).unwrap();
    assert_eq!(built.to_value(), fields);
    assert_eq!(built.spec.name, "AUDIT_REPORT");
    let Err(BuildError::Invalid { report, .. }) = build(
        "pair/AUDIT_REPORT",
        &json!({"status": "FAIL", "severity": "MAJOR", "scheming_detected": true}),
        &BuildOptions::default(),
    ) else {
        panic!("invalid")
    };
    assert!(report
        .errors()
        .any(|i| i.path.to_pointer() == "/issues" && i.code == IssueCode::MissingField));
}
