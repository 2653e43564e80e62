//! The conformance report: a log mixing the four families, whose expected findings were written
//! from the seeds (`tests/fixtures/conformance/expected.json`: the checks each agent breaks);
//! the baseline of expected failures (new failures and stale entries fail the run); the CLI.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use switchboard_core::agent_mail::read_log;
use switchboard_core::conformance::{self, Baseline, Options, RuleResult, Status};
use switchboard_core::protocol;
use switchboard_core::session::agents::Registry;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/conformance")
        .join(name)
}

fn report(baseline: Option<Baseline>) -> conformance::ConformanceReport {
    let bytes = std::fs::read(fixture("mixed.jsonl")).unwrap();
    let envelopes = read_log(&bytes, &protocol::Options::default()).unwrap();
    let agents = Registry::from_json(&std::fs::read(fixture("agents.json")).unwrap()).unwrap();
    conformance::check(
        &envelopes,
        &Options {
            agents: Some(agents),
            baseline,
            ..Options::default()
        },
    )
}

/// Per agent, the checks whose findings fail its rules.
fn fails(r: &conformance::ConformanceReport) -> BTreeMap<String, BTreeSet<String>> {
    r.agents
        .iter()
        .map(|a| {
            let f = a
                .families
                .iter()
                .flat_map(|f| &f.rules)
                .filter(|c| c.status == Status::Fail)
                .flat_map(|c| c.broken_by.iter().map(|id| (*id).to_owned()))
                .collect();
            (a.agent.clone(), f)
        })
        .collect()
}

/// Per agent, the ids of its failing rules.
fn failing_rules(r: &conformance::ConformanceReport) -> Vec<String> {
    r.agents
        .iter()
        .flat_map(|a| {
            a.families
                .iter()
                .flat_map(|f| &f.rules)
                .filter(|c| c.status == Status::Fail)
                .map(move |c| format!("{}:{}", a.agent, c.id))
        })
        .collect()
}

#[test]
fn the_mixed_log_gets_the_statuses_the_seeds_give() {
    let expected: Value =
        serde_json::from_slice(&std::fs::read(fixture("expected.json")).unwrap()).unwrap();
    let r = report(None);
    let got = fails(&r);
    let want: BTreeMap<String, BTreeSet<String>> = expected["agents"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(agent, e)| {
            let f = e["fail"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            (agent.clone(), f)
        })
        .collect();
    assert_eq!(got, want);
    for a in &r.agents {
        let level = expected["agents"][&a.agent]["level"].as_str().unwrap();
        assert_eq!(a.level.as_str(), level, "{}", a.agent);
        // Every failure names its messages.
        for c in a.families.iter().flat_map(|f| &f.rules) {
            if c.status == Status::Fail {
                assert!(!c.messages.is_empty() && !c.details.is_empty(), "{}", c.id);
            }
        }
    }
    assert!(!r.conforms);
    // Families per agent: `any` and each family the agent sent.
    let bob = r.agents.iter().find(|a| a.agent == "bob").unwrap();
    let families: Vec<&str> = bob.families.iter().map(|f| f.family).collect();
    assert_eq!(families, ["any", "pair"]);
    // The secret is masked in the details.
    let text = serde_json::to_string(&r).unwrap();
    assert!(!text.contains("Tr0ub4dor3xQ"));
}

#[test]
fn a_baseline_keeps_known_gaps_green_and_fails_when_one_is_fixed() {
    let all = failing_rules(&report(None));
    let full = Baseline::from_json(serde_json::to_string(&all).unwrap().as_bytes()).unwrap();
    let r = report(Some(full));
    let b = r.baseline.as_ref().unwrap();
    assert!(r.conforms, "{b:#?}");
    assert_eq!(b.expected.len(), all.len());
    assert!(b.new_failures.is_empty() && b.stale.is_empty());
    // One more entry that passes: stale; one for an agent not in the log: unused.
    let mut more = all.clone();
    more.push("nav-bot:003.overview.roles".into());
    more.push("ghost:any.json".into());
    let r = report(Some(
        Baseline::from_json(serde_json::to_string(&more).unwrap().as_bytes()).unwrap(),
    ));
    let b = r.baseline.as_ref().unwrap();
    assert!(!r.conforms);
    assert_eq!(b.stale.len(), 1);
    assert_eq!(b.stale[0].agent, "nav-bot");
    assert_eq!(b.unused.len(), 1);
    // One failure missing from the list: new.
    let r = report(Some(
        Baseline::from_json(serde_json::to_string(&all[1..]).unwrap().as_bytes()).unwrap(),
    ));
    assert!(!r.conforms);
    assert_eq!(r.baseline.unwrap().new_failures.len(), 1);
    // `*` lists a rule for every agent; a check stands for the rules it breaks; objects work as
    // strings do.
    let wild = br#"{"expected_failures": [{"agent": "*", "rule": "004.common.message-id"}]}"#;
    let r = report(Some(Baseline::from_json(wild).unwrap()));
    assert_eq!(r.baseline.unwrap().expected.len(), 1);
    let by_check =
        br#"{"expected_failures": [{"agent": "*", "check": "droid.common.message-id-uuid"}]}"#;
    let r = report(Some(Baseline::from_json(by_check).unwrap()));
    let expected = r.baseline.unwrap().expected;
    assert!(
        expected.iter().all(|e| e.agent == "frontend-dev"),
        "{expected:?}"
    );
    assert!(!expected.is_empty());
    for (bad, why) in [
        (&b"[\"alice\"]"[..], "entry 0"),
        (b"[\"alice:no.such.check\"]", "no rule or check"),
        (b"{\"alice\": 1}", "not a baseline"),
        (b"alice:any.json", "not JSON"),
    ] {
        let e = Baseline::from_json(bad).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_cli_prints_json_or_a_table_and_exits_by_the_baseline() {
    let log = fixture("mixed.jsonl");
    let agents = fixture("agents.json");
    let base = [
        "conformance",
        log.to_str().unwrap(),
        "--agents",
        agents.to_str().unwrap(),
    ];
    let out = run(&base);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rule = &v["agents"][0]["families"][0]["rules"][0];
    for member in [
        "id", "seed", "section", "level", "quote", "status", "checks", "messages",
    ] {
        assert!(rule.get(member).is_some(), "{member}");
    }
    assert!(v["totals"]["must"]["tested"].as_u64().unwrap() > 0);
    let table = run(&[&base[..], &["--table"]].concat());
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.contains("alice: FAIL") && text.contains("DOES NOT CONFORM — MUST rules tested"),
        "{text}"
    );
    assert_eq!(
        text,
        String::from_utf8(run(&[&base[..], &["--format", "table"]].concat()).stdout).unwrap()
    );
    let junit = run(&[&base[..], &["--format", "junit"]].concat());
    assert_eq!(junit.status.code(), Some(1));
    let parsed = junit_parser::from_reader(std::io::Cursor::new(junit.stdout)).unwrap();
    assert!(parsed
        .suites
        .iter()
        .any(|s| s.name == "alice" && s.failures > 0));
    let markdown = run(&[&base[..], &["--format", "markdown"]].concat());
    assert!(String::from_utf8(markdown.stdout)
        .unwrap()
        .starts_with("## Conformance: does not conform"));
    // A baseline listing every failure: exit 0.
    let all: Vec<String> = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| {
            let agent = a["agent"].as_str().unwrap().to_owned();
            a["families"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|f| f["rules"].as_array().unwrap().clone())
                .filter(|c| c["status"] == "fail")
                .map(move |c| format!("{agent}:{}", c["id"].as_str().unwrap()))
        })
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("baseline.json");
    std::fs::write(&file, serde_json::to_string(&all).unwrap()).unwrap();
    let ok = run(&[&base[..], &["--baseline", file.to_str().unwrap()]].concat());
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    std::fs::write(&file, "{\"not\": \"a baseline\"}").unwrap();
    let bad = run(&[&base[..], &["--baseline", file.to_str().unwrap()]].concat());
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim().lines().count(),
        1
    );
}

#[test]
fn a_messages_directory_adds_the_persistence_check() {
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/factory/broken");
    let out = run(&[
        "conformance",
        broken.to_str().unwrap(),
        "--now",
        "2026-03-01T00:00:00Z",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let agent = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == "agent-5e2b")
        .unwrap();
    let layout = agent["families"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["rules"].as_array().unwrap().clone())
        .find(|c| c["id"] == "002.persistence.layout")
        .unwrap();
    assert_eq!(layout["status"], "fail");
    assert!(layout["messages"][0]["path"].is_string());
}

#[test]
fn plain_mail_counts_for_secrets_and_names() {
    let key = ["AKIA", "Z7QX2M4N6P8R3T5V"].concat();
    let log = serde_json::json!([
        {"id": 1, "from": "alice", "to": ["bob"], "subject": "PAIR_INIT",
         "created_ts": "2026-03-01T10:00:00Z",
         "body_md": "{\"protocol_version\": \"3.1\", \"task\": \"t\", \"my_role\": \"PLANNER\", \"your_role\": \"BUILDER\", \"status\": \"INITIALIZED\"}"},
        // Plain mail: no JSON in the body.
        {"id": 2, "from": "alice", "to": ["bob"], "subject": "fyi",
         "created_ts": "2026-03-01T10:01:00Z", "body_md": format!("the deploy key is {key}, use it")},
        {"id": 3, "from": "carol", "to": ["bob"], "subject": "hello",
         "created_ts": "2026-03-01T10:02:00Z", "body_md": "just saying hi"},
        {"id": 4, "from": "dave", "to": ["bob"], "subject": format!("key {key}"),
         "created_ts": "2026-03-01T10:03:00Z", "body_md": "see subject"},
    ]);
    let envelopes = read_log(
        &serde_json::to_vec(&log).unwrap(),
        &protocol::Options::default(),
    )
    .unwrap();
    let check = |agents: Option<Registry>| {
        conformance::check(
            &envelopes,
            &Options {
                agents,
                ..Options::default()
            },
        )
    };
    let find = |r: &conformance::ConformanceReport, agent: &str, id: &str| -> Option<RuleResult> {
        r.agents
            .iter()
            .find(|a| a.agent == agent)
            .and_then(|a| {
                a.families
                    .iter()
                    .flat_map(|f| &f.rules)
                    .find(|c| c.id == id)
            })
            .cloned()
    };
    let r = check(None);
    let secret = find(&r, "alice", "004.security.secrets").unwrap();
    assert_eq!(secret.status, Status::Fail);
    assert_eq!(secret.messages.len(), 1);
    assert_eq!(secret.messages[0].id, Some(2));
    // Masked in the details.
    assert!(
        !secret.details.concat().contains(&key),
        "{:?}",
        secret.details
    );
    assert!(
        secret.details[0].contains("AKIA…(20 chars)"),
        "{:?}",
        secret.details
    );
    // A sender of plain mail only is in the report when a check fails for it.
    let agents: Vec<&str> = r.agents.iter().map(|a| a.agent.as_str()).collect();
    assert_eq!(agents, ["alice", "dave"]);
    assert_eq!(
        find(&r, "dave", "004.security.secrets").unwrap().status,
        Status::Fail
    );
    // Plain mail counts for nothing but secrets and names.
    assert_eq!(
        find(&r, "dave", "004.overview.json").unwrap().status,
        Status::NotApplicable
    );
    assert!(!r.conforms);

    // Registered names: carol's plain mail is from an unregistered agent.
    let r = check(Some(Registry::new(["alice", "bob", "dave"]).unwrap()));
    assert_eq!(
        find(&r, "carol", "000.error.invalid-agent").unwrap().status,
        Status::Fail
    );
    assert_eq!(
        find(&r, "alice", "000.error.invalid-agent").unwrap().status,
        Status::Pass
    );
}
