//! The path from bytes (`validate_slice`, which builds no `Value` for a clean message) against
//! the reference path (`validate_slice_via_value`: parse into a `Value`, then `validate`):
//! the same report — verdict, family, type, version, every issue's path, code and message —
//! on the fixture corpus and on generated messages written out in every form (member order,
//! compact or pretty, escaped names), mutated (members removed, duplicated or retyped, numbers
//! and strings the tokenizer treats specially, nesting past the parser's depth limit, byte
//! edits), carried in Agent Mail rows, and as JSON Lines (in memory and streamed).

mod protocol_common;

use proptest::prelude::*;
use protocol_common::{arb_json, arb_message, edit};
use serde_json::{Map, Value};
use std::io::BufReader;
use std::path::Path;
use switchboard_core::protocol::{self, FamilyId, Options, REGISTRY};

/// A string value holding this prefix is written as the raw JSON text after it (numbers and
/// strings a `Value` cannot hold as written, nesting past the depth limit).
const RAW: &str = "\u{0}raw:";
/// An object member named with this prefix is written under the name after it: a second
/// member of that name (a `Value` cannot hold duplicate members).
const DUP: &str = "\u{0}dup:";

/// How a message is written out.
#[derive(Debug, Clone)]
struct Form {
    /// Indented, one member per line.
    pretty: bool,
    /// Member names start with a `\u` escape.
    escape_names: bool,
    /// Members are shuffled with this seed (0: as generated, which is registry order).
    shuffle: u64,
}

fn arb_form() -> impl Strategy<Value = Form> {
    (
        any::<bool>(),
        prop::bool::weighted(0.2),
        prop_oneof![Just(0u64), any::<u64>()],
    )
        .prop_map(|(pretty, escape_names, shuffle)| Form {
            pretty,
            escape_names,
            shuffle,
        })
}

fn render(v: &Value, form: &Form) -> String {
    let mut out = String::new();
    let mut seed = form.shuffle;
    write(v, form, 0, &mut seed, &mut out);
    out
}

fn write(v: &Value, form: &Form, depth: usize, seed: &mut u64, out: &mut String) {
    let newline = |out: &mut String, depth: usize| {
        if form.pretty {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
    };
    match v {
        Value::String(s) if s.starts_with(RAW) => out.push_str(&s[RAW.len()..]),
        Value::Object(m) => {
            let mut members: Vec<(&String, &Value)> = m.iter().collect();
            if *seed != 0 {
                for i in (1..members.len()).rev() {
                    *seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    members.swap(i, (*seed >> 33) as usize % (i + 1));
                }
            }
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                let name = k.strip_prefix(DUP).unwrap_or(k);
                match name.chars().next() {
                    Some(c) if form.escape_names && c.is_ascii() => {
                        out.push_str(&format!("\"\\u{:04x}", c as u32));
                        let rest = Value::String(name[1..].to_owned()).to_string();
                        out.push_str(&rest[1..]);
                    }
                    _ => out.push_str(&Value::String(name.to_owned()).to_string()),
                }
                out.push_str(if form.pretty { ": " } else { ":" });
                write(v, form, depth + 1, seed, out);
            }
            newline(out, depth);
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write(item, form, depth + 1, seed, out);
            }
            if !items.is_empty() {
                newline(out, depth);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A value a mutation puts in place of another.
fn replacement() -> impl Strategy<Value = Value> {
    let raw = |text: &str| Value::String(format!("{RAW}{text}"));
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![
            Just(-1i64),
            Just(0),
            Just(3),
            Just(100),
            Just(101),
            any::<i64>()
        ]
        .prop_map(Value::from),
        prop_oneof![Just(5.5f64), Just(-0.5), Just(1e300)].prop_map(Value::from),
        prop::sample::select(vec![
            "5.0",
            "1e2",
            "-0",
            "1e400",
            "-1e400",
            "18446744073709551616",
            "-9223372036854775809",
            "1E-7",
            "0.0",
        ])
        .prop_map(raw),
        prop::sample::select(vec![
            "",
            " ",
            "ISO8601",
            "2026-01-15T10:00:00Z",
            "2026-02-30T10:00:00Z",
            "PAIR_INIT",
            "task_assignment",
            "PROGRESS_UPDATE",
            "request_review",
            "navigatorApprove",
            "<message_type>",
            "msg-uuid-v4",
            "agent-123e4567-e89b-12d3-a456-426614174000",
            "1.0.0",
            "2.0.0",
            "3.1",
            "4.0",
            "urgent",
            "high",
            "BUILDER",
            "PLANNER",
        ])
        .prop_map(|s| Value::String(s.to_owned())),
        prop::sample::select(vec![
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "\"\\u00e9\\n\\\"\"",
            "\"\\/\"",
            "\"\u{e9}\"",
        ])
        .prop_map(raw),
        (120usize..135).prop_map(move |depth| raw(&format!(
            "{}{}",
            "[".repeat(depth),
            "]".repeat(depth)
        ))),
        Just(Value::Array(vec![])),
        Just(Value::Object(Map::new())),
    ]
}

/// One change to a message: what to do at the node with this (wrapping) index.
#[derive(Debug, Clone)]
enum Mutation {
    /// Remove the node (a member or an item).
    Remove(usize),
    /// Put a value in its place.
    Replace(usize, Value),
    /// Write one member of an object twice, the second time with this value.
    Duplicate(usize, Value),
    /// Add an undeclared member to an object.
    Extra(usize, String, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    let name = prop::sample::select(vec![
        "x_extra",
        "type",
        "subject",
        "body",
        "body_md",
        "message_type",
        "name",
        "allowed",
        "sender_id",
        "details",
        "history",
        "arguments",
        "version",
        "behavior",
    ]);
    prop_oneof![
        at.prop_map(Mutation::Remove),
        (at, replacement()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        (at, replacement()).prop_map(|(i, v)| Mutation::Duplicate(i, v)),
        (at, name, replacement()).prop_map(|(i, k, v)| Mutation::Extra(i, k.to_owned(), v)),
    ]
}

fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(count).sum(),
        Value::Object(m) => m.values().map(count).sum(),
        _ => 0,
    }
}

/// Applies a mutation at the `target`-th node (pre-order); `true` once applied.
fn apply_at(v: &mut Value, target: &mut usize, m: &Mutation) -> bool {
    if *target == 0 {
        match (m, &mut *v) {
            (Mutation::Replace(_, new), _) => *v = new.clone(),
            (Mutation::Duplicate(_, new), Value::Object(members)) => {
                if let Some(k) = members.keys().next().cloned() {
                    members.insert(format!("{DUP}{k}"), new.clone());
                }
            }
            (Mutation::Extra(_, k, new), Value::Object(members)) => {
                members.insert(k.clone(), new.clone());
            }
            _ => *v = Value::Null,
        }
        return true;
    }
    *target -= 1;
    match v {
        Value::Array(items) => {
            for i in 0..items.len() {
                if *target == 0 && matches!(m, Mutation::Remove(_)) {
                    items.remove(i);
                    return true;
                }
                if apply_at(&mut items[i], target, m) {
                    return true;
                }
            }
            false
        }
        Value::Object(members) => {
            let keys: Vec<String> = members.keys().cloned().collect();
            for k in keys {
                if *target == 0 && matches!(m, Mutation::Remove(_)) {
                    members.shift_remove(&k);
                    return true;
                }
                if apply_at(members.get_mut(&k).expect("member"), target, m) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

fn mutate(v: &mut Value, m: &Mutation) {
    let (Mutation::Remove(at)
    | Mutation::Replace(at, _)
    | Mutation::Duplicate(at, _)
    | Mutation::Extra(at, _, _)) = m;
    let mut target = at % count(v);
    apply_at(v, &mut target, m);
}

fn arb_options() -> impl Strategy<Value = Options> {
    let family = prop_oneof![
        4 => Just(None),
        1 => prop::sample::select(FamilyId::ALL.to_vec()).prop_map(Some),
    ];
    (family, any::<bool>()).prop_map(|(family, lenient)| Options { family, lenient })
}

/// The two paths agree on `bytes` under `options`, and `validate_slice_as` agrees with the
/// reference for the type the reference detected.
fn agree(bytes: &[u8], options: &Options) -> Result<(), TestCaseError> {
    let fast = protocol::validate_slice(bytes, options);
    let reference = protocol::validate_slice_via_value(bytes, options);
    prop_assert_eq!(&fast, &reference, "{}", String::from_utf8_lossy(bytes));
    if let (Some(family), Some(name)) = (reference.family, reference.message_type) {
        let family = family.spec();
        let spec = family.message_type(name).expect("a registry type");
        let as_type = protocol::validate_slice_as(bytes, family, spec, options.lenient);
        let reference = match serde_json::from_slice::<Value>(bytes) {
            Ok(v) => protocol::validate_as(&v, family, spec, options.lenient),
            Err(_) => as_type.clone(),
        };
        prop_assert_eq!(as_type, reference);
    }
    Ok(())
}

/// A row of `fetch_inbox` carrying `body` in `body_md`, with the row members in some order.
fn row(subject: &str, body: String, extra: bool, body_first: bool) -> Value {
    let mut m = Map::new();
    if body_first {
        m.insert("body_md".into(), Value::String(body.clone()));
    }
    m.insert("id".into(), Value::from(77));
    m.insert("subject".into(), Value::String(subject.to_owned()));
    m.insert("from".into(), Value::String("BlueLake".into()));
    if extra {
        // Members a real row may have that look like protocol members.
        m.insert("to".into(), serde_json::json!(["GreenCastle"]));
        m.insert("importance".into(), Value::String("high".into()));
        m.insert("ack_required".into(), Value::Bool(true));
    }
    if !body_first {
        m.insert("body_md".into(), Value::String(body));
    }
    Value::Object(m)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn generated_messages_in_every_form(
        (_, msg) in arb_message(),
        form in arb_form(),
        options in arb_options(),
    ) {
        agree(render(&msg, &form).as_bytes(), &options)?;
    }

    #[test]
    fn mutated_messages(
        (_, mut msg) in arb_message(),
        mutations in prop::collection::vec(mutation(), 1..3),
        edits in prop::collection::vec(edit(), 0..2),
        form in arb_form(),
        options in arb_options(),
    ) {
        for m in &mutations {
            mutate(&mut msg, m);
        }
        let mut bytes = render(&msg, &form).into_bytes();
        for e in &edits {
            e.apply(&mut bytes);
        }
        agree(&bytes, &options)?;
    }

    #[test]
    fn arbitrary_json(v in arb_json(), form in arb_form(), options in arb_options()) {
        agree(render(&v, &form).as_bytes(), &options)?;
    }

    #[test]
    fn carried_in_agent_mail_rows(
        (t, mut inner) in arb_message(),
        mutations in prop::collection::vec(mutation(), 0..2),
        inner_form in arb_form(),
        fenced in any::<bool>(),
        subject in prop_oneof![
            Just(String::from("Stand-up notes")),
            Just(String::from("PAIR_INIT")),
            Just(String::from("  CHANGE_ORDER ")),
            Just(String::from("AUDIT_REPORT")),
            Just(String::new()),
        ],
        own_subject in any::<bool>(),
        (extra, body_first) in (any::<bool>(), any::<bool>()),
        row_form in arb_form(),
        options in arb_options(),
    ) {
        for m in &mutations {
            mutate(&mut inner, m);
        }
        // The message's own type as the row's subject: a Pair body validates as {subject, body}.
        let subject = if own_subject { t.name.to_owned() } else { subject };
        let body = match (&inner, own_subject) {
            (Value::Object(m), true) if m.contains_key("body") => m["body"].clone(),
            _ => inner,
        };
        let text = render(&body, &inner_form);
        let body_md = if fenced { format!("Please review.\n```json\n{text}\n```\n") } else { text };
        let row = row(&subject, body_md, extra, body_first);
        agree(render(&row, &row_form).as_bytes(), &options)?;
    }

    #[test]
    fn json_lines_in_memory_and_streamed(
        messages in prop::collection::vec((arb_message(), prop::collection::vec(mutation(), 0..2)), 1..6),
        separators in prop::collection::vec(prop::sample::select(vec!["\n", "\r\n", "\n\n", "\n  \n", "\n\t"]), 6),
        trailing in any::<bool>(),
        edits in prop::collection::vec(edit(), 0..2),
        capacity in 1usize..64,
        options in arb_options(),
    ) {
        let mut text = Vec::new();
        for (i, ((_, msg), mutations)) in messages.iter().enumerate() {
            let mut msg = msg.clone();
            for m in mutations {
                mutate(&mut msg, m);
            }
            if i > 0 {
                text.extend_from_slice(separators[i].as_bytes());
            }
            text.extend_from_slice(render(&msg, &Form { pretty: false, escape_names: false, shuffle: i as u64 }).as_bytes());
        }
        if trailing {
            text.push(b'\n');
        }
        for e in &edits {
            e.apply(&mut text);
        }
        let lines: Vec<_> = protocol::validate_lines(&text, &options).collect();
        // Each report is the reference's for its line, numbered by input line (the line put
        // after as many newlines, so that a `not_json` issue names the same line).
        let all: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        for l in &lines {
            let placed = [b"\n".repeat(l.line - 1).as_slice(), all[l.line - 1]].concat();
            prop_assert_eq!(&l.report, &protocol::validate_slice_via_value(&placed, &options));
        }
        let blank = |t: &&[u8]| t.iter().all(u8::is_ascii_whitespace);
        prop_assert_eq!(lines.len(), all.iter().filter(|t| !blank(t)).count());
        // Streamed through a reader whose buffer is smaller than a line: the same reports.
        let streamed: Vec<_> = protocol::validate_reader(BufReader::with_capacity(capacity, &text[..]), options)
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(streamed, lines);
    }
}

/// Every file of the fixture corpus (pretty-printed, as committed) and every rule case, in
/// both modes and with each family hint.
#[test]
fn the_fixture_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol");
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n != "manifest.json") {
                inputs.push(std::fs::read(&path).unwrap());
            }
        }
    }
    let cases: Vec<Value> =
        serde_json::from_slice(&std::fs::read(root.join("invalid/cases.json")).unwrap()).unwrap();
    for case in &cases {
        match case.get("raw").and_then(Value::as_str) {
            Some(raw) => inputs.push(raw.as_bytes().to_vec()),
            None => inputs.push(serde_json::to_vec(&case["message"]).unwrap()),
        }
    }
    assert!(inputs.len() > 120, "{} inputs", inputs.len());
    let hints = std::iter::once(None).chain(REGISTRY.iter().map(|f| Some(f.id)));
    let mut clean = 0;
    for family in hints {
        for lenient in [false, true] {
            let options = Options { family, lenient };
            for bytes in &inputs {
                agree(bytes, &options).unwrap();
                let report = protocol::validate_slice(bytes, &options);
                clean += usize::from(report.valid && report.issues.is_empty());
            }
        }
    }
    assert!(clean > 100, "{clean} clean reports");
}

/// Inputs where the order and repetition of members matter: the last of two members of one
/// name counts (as in a parsed `Value`), detection members come late or escaped, compound
/// members come before the type is known.
#[test]
fn repeated_late_and_escaped_members() {
    let task = r#""version":"1.0.0","timestamp":"2025-12-25T12:00:00Z","sender_id":"o","message_id":"123e4567-e89b-12d3-a456-426614174000","type":"task_assignment","task_id":"bd-1","description":"d","specification":{"acceptance_criteria":["a"]},"file_patterns":["x"]"#;
    let inputs = [
        // The priority table reads the last `priority`.
        format!(r#"{{{task},"priority":"low","priority_value":3,"priority":"urgent"}}"#),
        format!(r#"{{{task},"priority":"urgent","priority_value":3,"priority":"low"}}"#),
        format!(r#"{{{task},"priority":"low","priority_value":0,"priority_value":3}}"#),
        // Two versions, two types, the type first or last.
        format!(r#"{{"version":"1.9.0",{task},"priority":"low","priority_value":3}}"#),
        format!(r#"{{{task},"type":"status_update","priority":"low","priority_value":3}}"#),
        format!(r#"{{"specification":{{"acceptance_criteria":["a"]}},"priority":"low","priority_value":3,{task}}}"#),
        // Escaped member names, detection members among them.
        format!(r#"{{{task},"priorit\u0079":"low","\u0070riority_value":3}}"#),
        r#"{"t\u0079pe":"request_review","context":"x"}"#.to_owned(),
        r#"{"type":"request_review","type":"request_guidance"}"#.to_owned(),
        r#"{"message_type":"BLOCKED_NOTIFICATION","agent_id":"agent-1","task_id":"TASK-1","timestamp":"2026-01-15T10:00:00Z","reason":"r","details":{"issue":"i"}}"#.to_owned(),
        r#"{"details":{"issue":"i"},"message_type":"BLOCKED_NOTIFICATION","agent_id":"agent-1","task_id":"TASK-1","timestamp":"2026-01-15T10:00:00Z","reason":"r","history":{}}"#.to_owned(),
        // Rows: body_md twice, escaped, or a row in a row.
        r#"{"subject":"x","body_md":"{\"type\":\"request_review\"}","body_md":"plain"}"#.to_owned(),
        r#"{"subject":"x","body_md":"plain","body_md":"{\"type\":\"request_review\"}"}"#.to_owned(),
        r#"{"subject":"x","body\u005fmd":"{\"type\":\"request_review\"}"}"#.to_owned(),
        r#"{"subject":"x","body_md":"{\"body_md\":\"{}\"}"}"#.to_owned(),
        r#"{"subject":"PAIR_INIT","body_md":"{\"protocol_version\":\"3.1\",\"task\":\"t\",\"my_role\":\"PLANNER\",\"your_role\":\"PLANNER\",\"status\":\"INITIALIZED\"}"}"#.to_owned(),
        r#"{"subject":"PAIR_INIT","body_md":"{\"protocol_version\":\"3.1\",\"task\":\"t\",\"my_role\":\"PLANNER\",\"your_role\":\"BUILDER\",\"status\":\"INITIALIZED\",\"your_role\":\"PLANNER\"}"}"#.to_owned(),
        r#"{"subject":"PAIR_INIT","to":["a"],"body_md":"{\"to\":\"b\",\"subject\":\"PAIR_INIT\",\"body\":{\"protocol_version\":\"3.1\",\"task\":\"t\",\"my_role\":\"PLANNER\",\"your_role\":\"BUILDER\",\"status\":\"INITIALIZED\"}}"}"#.to_owned(),
    ];
    for input in &inputs {
        for lenient in [false, true] {
            agree(
                input.as_bytes(),
                &Options {
                    family: None,
                    lenient,
                },
            )
            .unwrap();
        }
    }
}
