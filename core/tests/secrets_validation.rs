//! `secret_in_message` in validation: both paths (from bytes and from a `Value`) give the same
//! report for messages carrying secrets anywhere (a rule's free text, an undeclared member, an
//! object no rule covers, an array item, an Agent Mail row's subject and prose), and no report
//! repeats a secret.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::path::Path;
use switchboard_core::protocol::registry::{ObjectSpec, Str, Ty, REGISTRY};
use switchboard_core::protocol::secrets::{holds_secret, is_secret_name};
use switchboard_core::protocol::{self, IssueCode, Options, Report};

/// Secrets built at run time (no literal token in the repository).
fn secrets() -> Vec<String> {
    let alnum = "Q7vX2mK9pL4sT8wZ1bN6cR3dF5gH0jYa".repeat(4);
    vec![
        format!("AKIA{}", &alnum[..16].to_ascii_uppercase()),
        format!("ghp_{}", &alnum[..36]),
        format!("xoxb-2{}-{}", "1234567890", &alnum[..24]),
        format!("postgres://svc:{}@db.internal/app", &alnum[..12]),
        format!("deploy failed: sk_live_{} rejected", &alnum[..24]),
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
            &alnum[..64]
        ),
    ]
}

/// Strings that are not secrets, however they look.
const NEAR_MISSES: &[&str] = &[
    "Rotate the AWS access key and update the password policy",
    "set GITHUB_TOKEN in the workflow secrets",
    "3f786850e387550fdab836ed7e6dc881de23001b",
    "550e8400-e29b-41d4-a716-446655440000",
    "<redacted>",
    "****",
    "postgres://user:****@localhost/db",
];

fn fixtures() -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol/valid");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else {
                out.push(serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap());
            }
        }
    }
    out
}

/// Both paths' reports of the bytes, which must agree.
fn both(bytes: &[u8]) -> Report {
    let fast = protocol::validate_slice(bytes, &Options::default());
    let full = protocol::validate_slice_via_value(bytes, &Options::default());
    assert_eq!(fast, full, "{}", String::from_utf8_lossy(bytes));
    full
}

/// Every object in a value, by JSON Pointer.
fn objects(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            out.push(at.clone());
            for (k, x) in o {
                objects(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                objects(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Every string in a value, by JSON Pointer.
fn strings(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                strings(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                strings(x, format!("{at}/{i}"), out);
            }
        }
        Value::String(_) => out.push(at),
        _ => {}
    }
}

fn assert_no_repeat(report: &Report, secret: &str) {
    let text = serde_json::to_string(report).unwrap();
    for piece in secret.split_whitespace().filter(|p| p.len() >= 12) {
        assert!(
            !text.contains(piece),
            "the report repeats {piece:?}: {text}"
        );
    }
}

#[test]
fn a_secret_anywhere_is_reported_on_both_paths_and_never_repeated() {
    let mut checked = 0;
    for base in fixtures() {
        let mut at = Vec::new();
        objects(&base, String::new(), &mut at);
        let mut texts = Vec::new();
        strings(&base, String::new(), &mut texts);
        for (n, secret) in secrets().iter().enumerate() {
            // A new member in some object (undeclared, or in an object no rule covers).
            let mut v = base.clone();
            let obj = v
                .pointer_mut(&at[n % at.len()])
                .unwrap()
                .as_object_mut()
                .unwrap();
            obj.insert("note".into(), json!(secret));
            let report = both(&serde_json::to_vec(&v).unwrap());
            assert!(!report.valid, "{v}");
            assert!(report
                .issues
                .iter()
                .any(|i| i.code == IssueCode::SecretInMessage));
            assert_no_repeat(&report, secret);
            // The secret appended to an existing string (an id, an enum, free text …).
            let mut v = base.clone();
            let target = &texts[(n * 7) % texts.len()];
            if let Some(Value::String(s)) = v.pointer_mut(target) {
                s.push(' ');
                s.push_str(secret);
            }
            let report = both(&serde_json::to_vec_pretty(&v).unwrap());
            assert!(!report.valid, "{target}: {v}");
            assert_no_repeat(&report, secret);
            checked += 1;
        }
    }
    assert!(checked > 250, "{checked}");
}

#[test]
fn near_misses_leave_valid_messages_valid_on_both_paths() {
    for base in fixtures() {
        let mut at = Vec::new();
        objects(&base, String::new(), &mut at);
        for (n, text) in NEAR_MISSES.iter().enumerate() {
            let mut v = base.clone();
            let obj = v
                .pointer_mut(&at[n % at.len()])
                .unwrap()
                .as_object_mut()
                .unwrap();
            obj.insert("note".into(), json!(text));
            obj.insert("password_policy".into(), json!(text));
            let report = both(&serde_json::to_vec(&v).unwrap());
            assert!(report.valid, "{v}: {report:?}");
        }
    }
}

#[test]
fn a_row_reports_its_subject_its_prose_and_its_message() {
    let key = &secrets()[0];
    let pass = "Tr0ub4dor3xQ";
    let body = json!({"phase": "BUILD_BLOCKED", "change_order": {"status": "CHANGE_ORDER_REQUIRED",
        "failure_mode": "dependency_missing", "evidence": format!("boto3 denied {key}"),
        "attempted_fixes": ["retried"], "requested_changes": "none"}, "status": "AWAITING_MEDIATION"});
    let row = json!({"id": 7, "subject": "CHANGE_ORDER", "from": "bob", "to": ["alice"],
        "created_ts": "2026-01-15T10:00:00Z",
        "body_md": format!("Blocked.\n```json\n{body}\n```\nuse DEPLOY_PASSWORD={pass} meanwhile")});
    let report = both(&serde_json::to_vec(&row).unwrap());
    let at: Vec<(String, &str)> = report
        .issues
        .iter()
        .map(|i| (i.path.to_pointer(), i.code.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            ("/body_md".to_owned(), "secret_in_message"),
            (
                "/body/change_order/evidence".to_owned(),
                "secret_in_message"
            )
        ]
    );
    assert_no_repeat(&report, key);
    assert!(!serde_json::to_string(&report).unwrap().contains(pass));
    // A plain mail (no JSON) with a secret: reported beside no_protocol_message.
    let plain = json!({"subject": format!("key {key}"), "body_md": "see subject"});
    let report = both(&serde_json::to_vec(&plain).unwrap());
    assert_eq!(report.issues[0].path.to_pointer(), "/subject");
    assert_eq!(report.issues[0].code, IssueCode::SecretInMessage);
}

#[test]
fn an_echoing_issue_masks_the_secret() {
    let key = &secrets()[0];
    let msg = json!({"message_type": "PROGRESS_UPDATE", "agent_id": "agent-7f3a",
        "task_id": "TASK-042", "timestamp": "2026-01-15T10:00:00Z", "status": key,
        "progress_percent": 40, "current_activity": "Running tests"});
    let report = both(&serde_json::to_vec(&msg).unwrap());
    let codes: Vec<&str> = report.issues.iter().map(|i| i.code.as_str()).collect();
    assert_eq!(codes, ["not_in_enum", "secret_in_message"]);
    assert!(report.issues[0].message.contains("AKIA…(20 chars)"));
    assert_no_repeat(&report, key);
}

/// Whether a rule admits a string (directly or as array items).
fn admits_strings(ty: &Ty) -> bool {
    match ty {
        Ty::Str(_) | Ty::Any => true,
        Ty::Array { items, .. } => admits_strings(items),
        _ => false,
    }
}

/// Every declared member name whose rule admits a string, in a rule tree, and every enum or
/// constant value.
fn walk(ty: &Ty, names: &mut Vec<&'static str>, values: &mut Vec<&'static str>) {
    match ty {
        Ty::Object(spec) => {
            for f in spec.fields {
                if admits_strings(&f.ty) {
                    names.push(f.name);
                }
                walk(&f.ty, names, values);
            }
        }
        Ty::Array { items, .. } => walk(items, names, values),
        Ty::Str(Str::Enum { values: v, lenient }) => {
            values.extend(v.iter());
            values.extend(lenient.iter().map(|(v, _)| *v));
        }
        Ty::Str(Str::Const(c)) => values.push(c),
        _ => {}
    }
}

/// The path from bytes scans declared members' strings without their names, and skips enum
/// values that match: right only while no declared name of a string is a secret's and no enum
/// value holds one.
#[test]
fn no_declared_name_is_a_secret_and_no_enum_value_holds_one() {
    let (mut names, mut values) = (Vec::new(), Vec::new());
    for family in REGISTRY {
        for t in family.types {
            walk(
                &Ty::Object(ObjectSpec::new(t.root.fields)),
                &mut names,
                &mut values,
            );
        }
    }
    assert!(names.len() > 100 && values.len() > 50);
    for n in names {
        assert!(!is_secret_name(n), "{n}");
    }
    for v in values {
        assert!(!holds_secret(None, v), "{v}");
    }
}

fn injected() -> impl Strategy<Value = (usize, usize, String, String)> {
    let names = prop_oneof![
        Just("note".to_owned()),
        Just("password".to_owned()),
        Just("api_key".to_owned()),
        Just("token_count".to_owned()),
        Just("clientSecret".to_owned()),
    ];
    let mut pool: Vec<String> = secrets();
    pool.extend(NEAR_MISSES.iter().map(|s| (*s).to_owned()));
    pool.extend(["hunter22x", "x", "", "a b c"].map(str::to_owned));
    (
        0usize..1000,
        0usize..1000,
        names,
        proptest::sample::select(pool),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// A member (name and string) added to a random object of a random valid fixture, written
    /// compact or pretty, maybe with its characters escaped: the two paths agree, and a
    /// secret-bearing message is invalid.
    #[test]
    fn both_paths_agree_on_injected_members((f, o, name, value) in injected(), pretty in any::<bool>(), escape in any::<bool>()) {
        let bases = fixtures();
        let mut v = bases[f % bases.len()].clone();
        let mut at = Vec::new();
        objects(&v, String::new(), &mut at);
        let target = at[o % at.len()].clone();
        let obj: &mut Map<String, Value> = v.pointer_mut(&target).unwrap().as_object_mut().unwrap();
        obj.insert(name.clone(), json!(value));
        let mut text = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { v.to_string() };
        if escape {
            text = text.replace('A', "\\u0041").replace('/', "\\/");
        }
        let report = both(text.as_bytes());
        if holds_secret(Some(&name), &value) {
            prop_assert!(!report.valid);
        }
    }
}
