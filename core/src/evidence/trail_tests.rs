use super::*;
use crate::evidence::path::resolve;
use crate::evidence::record::{Concern, Sent, Shown};
use crate::session::pair::checkpoint::Checkpoint;
use ed25519_dalek::{Signer, SigningKey};

const TESTS: &str = "tmp/pair_1_tests.py";

fn key() -> SigningKey {
    SigningKey::from_bytes(&[7; 32])
}

fn record(session: &str, decision: &str, tests: &[u8], final_fingerprint: &[u8]) -> ReviewRecord {
    let body = serde_json::json!({
        "phase": "CONTRACT_FINALIZED",
        "test_fingerprints": { TESTS: format!("sha256:{}", Sha256Digest::of(final_fingerprint)) },
    });
    ReviewRecord {
        reviewer: "Ada".into(),
        project: "pair-lab".into(),
        session: session.into(),
        checkpoint: Checkpoint::ContractReview,
        decision: decision.into(),
        outcome: Outcome::Decided,
        decided_at_ms: 1_767_100_000_000,
        decided_at: "2025-12-30 13:06:40".into(),
        artifacts: vec![Shown {
            path: resolve(TESTS).unwrap(),
            role: Role::Tests,
            sha256: Some(Sha256Digest::of(tests)),
        }],
        sent: vec![Sent {
            from: "BlueLake".into(),
            to: "GreenCastle".into(),
            subject: "CONTRACT_FINAL".into(),
            thread_id: Some(session.into()),
            body_md: body.to_string(),
            server_id: Some(42),
        }],
    }
}

/// Signs records into a chain, as the console does.
fn chain(records: Vec<ReviewRecord>) -> Vec<String> {
    let key = key();
    let public = hex(key.verifying_key().as_bytes());
    let mut prev = None;
    records
        .into_iter()
        .map(|record| {
            let mut line = TrailLine::new(record, prev, public.clone());
            line.signature = hex(&key.sign(&line.signed_bytes()).to_bytes());
            prev = Some(line.digest());
            line.line()
        })
        .collect()
}

fn three() -> Vec<String> {
    chain(vec![
        record("pair-1", "APPROVED", b"assert 1\n", b"assert 1\n"),
        record("pair-2", "REVISE: more tests", b"assert 2\n", b"other\n"),
        record("pair-3", "APPROVED", b"assert 3\n", b"assert 3\n"),
    ])
}

fn codes(text: &str) -> Vec<(usize, ProblemCode)> {
    verify(text, None)
        .problems
        .iter()
        .map(|p| (p.line, p.code))
        .collect()
}

#[test]
fn a_signed_chain_verifies_and_names_its_head() {
    let lines = three();
    let text = lines.join("\n") + "\n";
    let checked = verify(&text, None);
    assert!(checked.valid, "{:?}", checked.problems);
    assert_eq!(checked.records, 3);
    let last = TrailLine::parse(&lines[2]).unwrap();
    assert_eq!(checked.head, Some(last.digest()));
    assert!(verify(&text, Some(last.digest())).valid);
}

#[test]
fn an_edited_record_fails_its_signature_and_breaks_the_chain_after_it() {
    let mut lines = three();
    lines[1] = lines[1].replace("REVISE: more tests", "REVISE: fewer tests");
    assert_eq!(
        codes(&lines.join("\n")),
        vec![
            (2, ProblemCode::BadSignature),
            (3, ProblemCode::ChainBroken)
        ]
    );
    // A signature or key in uppercase hex is an edit too (the line keeps the text it holds).
    for field in ["signature", "public_key"] {
        let mut lines = three();
        let mut value: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
        let upper = value[field].as_str().unwrap().to_uppercase();
        value[field] = upper.into();
        lines[2] = serde_json::to_string(&value).unwrap();
        assert_eq!(
            codes(&lines.join("\n")),
            vec![(3, ProblemCode::BadSignature)],
            "{field}"
        );
    }
    // Re-formatting is no edit: the same record reads back to the same bytes.
    let mut lines = three();
    let value: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    lines[1] = serde_json::to_string(&value).unwrap();
    assert!(verify(&lines.join("\n"), None).valid);
}

#[test]
fn a_removed_or_reordered_record_breaks_the_chain() {
    let lines = three();
    let removed = [lines[0].clone(), lines[2].clone()].join("\n");
    assert_eq!(codes(&removed), vec![(2, ProblemCode::ChainBroken)]);
    let reordered = [lines[1].clone(), lines[0].clone(), lines[2].clone()].join("\n");
    assert_eq!(
        codes(&reordered),
        vec![
            (1, ProblemCode::ChainBroken),
            (2, ProblemCode::ChainBroken),
            (3, ProblemCode::ChainBroken)
        ]
    );
    // The last record cut off: only the head tells.
    let head = TrailLine::parse(&lines[2]).unwrap().digest();
    let cut = lines[..2].join("\n");
    assert!(verify(&cut, None).valid);
    let checked = verify(&cut, Some(head));
    assert_eq!(checked.problems[0].code, ProblemCode::HeadMismatch);
}

#[test]
fn an_approval_must_send_the_fingerprints_of_the_tests_shown() {
    let lines = chain(vec![record("pair-1", "APPROVED", b"shown\n", b"other\n")]);
    let checked = verify(&lines[0], None);
    assert_eq!(checked.problems[0].code, ProblemCode::FingerprintsDiffer);
    assert!(checked.problems[0].message.contains(TESTS));
    // An override that read no test has nothing to compare.
    let mut blind = record("pair-1", "APPROVED", b"", b"other\n");
    blind.artifacts.clear();
    blind.outcome = Outcome::Override {
        concerns: vec![Concern::MissingEvidence("no folder linked".into())],
        reason: "read in the PR".into(),
    };
    assert!(verify(&chain(vec![blind])[0], None).valid);
}

#[test]
fn other_keys_other_projects_and_junk_are_reported() {
    let mut lines = three();
    let mut forged = TrailLine::parse(&lines[1]).unwrap();
    let other = SigningKey::from_bytes(&[9; 32]);
    forged.signature = hex(&other.sign(&forged.signed_bytes()).to_bytes());
    lines[1] = forged.line();
    assert_eq!(
        codes(&lines.join("\n")),
        vec![
            (2, ProblemCode::BadSignature),
            (3, ProblemCode::ChainBroken)
        ]
    );
    let mut elsewhere = record("pair-9", "ABORT", b"", b"");
    elsewhere.project = "other".into();
    let text = chain(vec![record("pair-1", "ABORT", b"", b""), elsewhere]).join("\n");
    assert_eq!(codes(&text), vec![(2, ProblemCode::OtherProject)]);
    assert_eq!(codes("not json"), vec![(1, ProblemCode::NotARecord)]);
}

#[test]
fn a_trail_message_is_the_trail_agent_writing_to_itself() {
    let line = TrailLine::parse(&three()[0]).unwrap();
    let draft = line.draft();
    assert_eq!(draft.sender.as_deref(), Some(TRAIL_AGENT));
    assert_eq!(draft.to, vec![TRAIL_AGENT.to_owned()]);
    assert_eq!(
        draft.subject,
        "Switchboard review record: pair-1 #1 APPROVED"
    );
    assert!(is_trail_message(TRAIL_AGENT, &draft.subject));
    assert!(!is_trail_message("BlueLake", &draft.subject));
    assert_eq!(TrailLine::parse(&draft.body_md).unwrap(), line);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// One edit of a trail's text: replace, insert or delete the character at a position.
    #[derive(Debug, Clone)]
    enum Edit {
        Replace(usize, char),
        Insert(usize, char),
        Delete(usize),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        // Characters that matter to JSON, hex and the records' words.
        let ch = proptest::sample::select(vec![
            '0', '1', 'a', 'f', 'A', 'Z', 'e', '{', '}', '[', ']', ':', ',', '"', ' ', '\n', '\\',
            '-', '.', 'é',
        ]);
        prop_oneof![
            (any::<usize>(), ch.clone()).prop_map(|(at, c)| Edit::Replace(at, c)),
            (any::<usize>(), ch).prop_map(|(at, c)| Edit::Insert(at, c)),
            any::<usize>().prop_map(Edit::Delete),
        ]
    }

    fn apply(text: &str, edit: &Edit) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        match *edit {
            Edit::Replace(at, c) => {
                let at = at % chars.len();
                chars[at] = c;
            }
            Edit::Insert(at, c) => chars.insert(at % (chars.len() + 1), c),
            Edit::Delete(at) => {
                chars.remove(at % chars.len());
            }
        }
        chars.into_iter().collect()
    }

    /// The records a trail's text holds, where every line reads as one.
    fn records(text: &str) -> Option<Vec<TrailLine>> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| TrailLine::parse(l).ok())
            .collect()
    }

    /// The signed trail the edits start from (signed once: signing is slow in debug builds).
    fn original() -> &'static str {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        TEXT.get_or_init(|| three().join("\n"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// No edit of a signed trail that changes what one of its records says, or their
        /// order, verifies: an edit passes only when every record reads back the same.
        #[test]
        fn an_edited_trail_verifies_only_when_its_records_read_the_same(
            edits in proptest::collection::vec(edit(), 1..4)
        ) {
            let mut text = original().to_owned();
            for e in &edits {
                text = apply(&text, e);
            }
            let checked = verify(&text, None);
            if checked.valid {
                prop_assert_eq!(records(&text), records(original()), "{}", text);
            }
        }

        /// Any text gives a verdict, with the lines it could not read named, and never panics.
        #[test]
        fn any_text_gives_a_verdict(text in "(\\PC|\n){0,300}") {
            let checked = verify(&text, None);
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            prop_assert_eq!(checked.records, lines);
            prop_assert_eq!(checked.valid, checked.problems.is_empty());
            for line in text.lines() {
                let _ = TrailLine::parse(line);
            }
        }
    }
}
