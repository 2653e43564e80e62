use super::server::DemoServer;
use super::world::DEMO_NOW_MS;
use super::*;
use crate::engine::Engine;
use crate::model::{Request, Response, TrafficKey};

fn call(server: &mut DemoServer, call: DemoCall) -> Result<DemoReply, BackendError> {
    server.handle(call)
}

fn text(server: &mut DemoServer, c: DemoCall) -> String {
    match call(server, c).unwrap() {
        DemoReply::Text(t) => t,
        other => panic!("{other:?}"),
    }
}

fn message(server: &mut DemoServer, project: &str, id: u64) -> Result<MailRow, BackendError> {
    match call(
        server,
        DemoCall::Message {
            project: project.into(),
            agent: None,
            id,
        },
    )? {
        DemoReply::Message(m) => Ok(m),
        other => panic!("{other:?}"),
    }
}

fn inbox(project: &str, agent: &str) -> DemoCall {
    DemoCall::Inbox {
        project: project.into(),
        agent: agent.into(),
    }
}

#[test]
fn the_demo_is_deterministic_and_large() {
    let (mut a, mut b) = (DemoServer::new(), DemoServer::new());
    let inbox_a = text(&mut a, inbox("pair-lab", "BlueLake"));
    assert_eq!(inbox_a, text(&mut b, inbox("pair-lab", "BlueLake")));
    let DemoReply::Projects(projects) = call(&mut a, DemoCall::Projects).unwrap() else {
        panic!()
    };
    assert_eq!(projects.len(), 4);
    let DemoReply::Rows(rows) = call(
        &mut a,
        DemoCall::Traffic {
            project: "pair-lab".into(),
            since: None,
        },
    )
    .unwrap() else {
        panic!()
    };
    assert!(rows.len() >= 200, "{}", rows.len());
}

#[test]
fn acknowledging_and_releasing_change_the_state_once() {
    let mut demo = DemoServer::new();
    let m = message(&mut demo, "pair-lab", 4).unwrap();
    let ack = |who: &str| DemoCall::Acknowledge {
        project: "pair-lab".into(),
        agent: who.into(),
        id: 4,
    };
    assert!(
        call(&mut demo, ack("GreenCastle")).is_err(),
        "not its inbox"
    );
    call(&mut demo, ack("BlueLake")).unwrap();
    let DemoReply::Ids(ids) = call(
        &mut demo,
        DemoCall::Acked {
            project: "pair-lab".into(),
            agent: "BlueLake".into(),
        },
    )
    .unwrap() else {
        panic!()
    };
    assert!(ids.contains(&m.id));
    let release = |who: &str| DemoCall::Release {
        project: "pair-lab".into(),
        agent: who.into(),
        id: 2,
    };
    assert!(call(&mut demo, release("BlueLake")).is_err());
    assert!(call(&mut demo, release("AmberFox")).is_ok());
    assert!(call(&mut demo, release("AmberFox")).is_err());
}

#[test]
fn replies_stay_in_the_thread_and_are_dated_now() {
    let mut demo = DemoServer::new();
    let reply = |body: &str| DemoCall::Reply {
        project: "pair-lab".into(),
        agent: "GreenCastle".into(),
        id: 1,
        body_md: body.into(),
        now_ms: DEMO_NOW_MS + 60_000,
    };
    let DemoReply::Id(id) = call(&mut demo, reply("Looks good")).unwrap() else {
        panic!()
    };
    let m = message(&mut demo, "pair-lab", id).unwrap();
    assert_eq!(m.thread_id.as_deref(), Some("pair-000"));
    assert_eq!(m.to, ["BlueLake"]);
    assert!(m.subject.starts_with("Re: "));
    assert!(
        m.created_ts.starts_with("2026-11-12T09:01:00"),
        "{}",
        m.created_ts
    );
    assert!(call(&mut demo, reply("  ")).is_err());
}

#[test]
fn every_family_has_valid_and_broken_messages() {
    use std::collections::BTreeMap;
    use switchboard_core::protocol::{validate, Options};
    let generated = super::traffic::generate();
    let mut tally: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for m in &generated.messages {
        let row = serde_json::json!({"subject": m.subject, "body_md": m.body_md});
        let report = validate(&row, &Options::default());
        let family = report.family_name().unwrap_or("other");
        let entry = tally.entry(family).or_default();
        if report.valid {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    for family in ["pair", "agent-po", "droid", "pair-claude"] {
        let (valid, invalid) = tally.get(family).copied().unwrap_or_default();
        assert!(valid > 0 && invalid > 0, "{family}: {tally:?}");
    }
    // The everyday traffic ends before the curated scenarios start.
    let first_scenario = generated
        .messages
        .iter()
        .find(|m| m.thread_id.as_deref() == Some("pair-105"))
        .unwrap();
    let everyday = generated
        .messages
        .iter()
        .take_while(|m| m.id < first_scenario.id)
        .map(|m| m.created_ts.as_str())
        .max()
        .unwrap();
    assert!(everyday < first_scenario.created_ts.as_str());
    let times: Vec<&str> = generated
        .messages
        .iter()
        .skip_while(|m| m.id < first_scenario.id)
        .map(|m| m.created_ts.as_str())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "scenarios in time order"
    );
}

#[test]
fn scale_inboxes_are_synthesized_on_demand() {
    let rows = scale::scale_rows("Load10k", 10_000);
    let snap = switchboard_core::pane::build_snapshot(
        &switchboard_core::pane::contract(),
        &rows,
        "[]",
        "[]",
        None,
        switchboard_core::pane::FilterMode::All,
        &[],
    )
    .unwrap();
    assert!(snap.parse_errors.is_empty(), "{:?}", snap.parse_errors);
    assert_eq!(snap.inbox.len(), 10_000);
    assert_eq!(snap.pending_ack_count, 1_000);
    let m = DemoBackend::scale_message(Some("Load10k"), scale::SCALE_BASE + 42).unwrap();
    assert_eq!(m.subject, "Load message 42");
    assert!(DemoBackend::scale_message(Some("Load1k"), scale::SCALE_BASE + 5_000).is_err());
    assert!(DemoBackend::scale_agent("Nobody").is_err());
}

#[test]
fn timestamps_sort_lexically_in_time_order() {
    use super::world::timestamp;
    assert!(timestamp(59) < timestamp(60));
    assert!(timestamp(86_399) < timestamp(86_400));
    assert_eq!(&timestamp(0)[..19], "2026-11-10T00:00:00");
}

/// The engine with the demo's pair-lab (or another project's) traffic loaded.
fn loaded(project: &str) -> (Engine, TrafficKey) {
    let mut engine = Engine::new();
    let Response::Demo(Ok(DemoReply::Rows(rows))) =
        engine.handle(Request::Demo(DemoCall::Traffic {
            project: project.into(),
            since: None,
        }))
    else {
        panic!("traffic")
    };
    let key = TrafficKey {
        src: "demo".into(),
        project: project.into(),
    };
    engine.handle(Request::Load {
        key: key.clone(),
        rows,
        reset: true,
    });
    (engine, key)
}

#[test]
fn the_sessions_view_has_every_kind_of_session() {
    let (mut engine, key) = loaded("pair-lab");
    let Response::Sessions(rows) = engine.handle(Request::Sessions {
        key: key.clone(),
        now_ms: DEMO_NOW_MS,
    }) else {
        panic!()
    };
    let find = |id: &str| {
        rows.iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    assert_eq!(find("pair-101").checkpoint.as_ref().unwrap().number, 1);
    assert_eq!(find("pair-102").checkpoint.as_ref().unwrap().number, 2);
    assert_eq!(find("pair-102").integrity.status, "intact");
    assert_eq!(find("pair-103").checkpoint.as_ref().unwrap().number, 3);
    let tampered = find("pair-104");
    assert_eq!(tampered.integrity.status, "tampered");
    assert_eq!(tampered.integrity.files, ["tmp/pair_1767104000_tests.py"]);
    assert_eq!(find("pair-105").status, "merged");
    assert_eq!(find("pair-106").status, "aborted");
    let building = find("pair-107");
    let next = building.next.as_ref().expect("a deadline");
    assert!(next.at_ms > DEMO_NOW_MS, "the countdown runs");
    assert_eq!(next.action, "TIMEOUT_WARNING");
    assert!(find("pair-108").task.as_ref().unwrap().contains("<script>"));
    for id in [
        "pair-101", "pair-102", "pair-103", "pair-105", "pair-106", "pair-107",
    ] {
        let Response::Session(Some(detail)) = engine.handle(Request::Session {
            key: key.clone(),
            id: id.into(),
            now_ms: DEMO_NOW_MS,
        }) else {
            panic!("{id}")
        };
        assert!(
            detail.violations.is_empty(),
            "{id}: {:?}",
            detail.violations
        );
    }
    let Response::Checkpoints(cards) = engine.handle(Request::Checkpoints {
        key: key.clone(),
        now_ms: DEMO_NOW_MS,
    }) else {
        panic!()
    };
    let co = cards.iter().find(|c| c.session.id == "pair-103").unwrap();
    let order = co.change_order.as_ref().unwrap();
    assert!(order.evidence.contains("ModuleNotFoundError"));
    assert_eq!(order.attempted_fixes.len(), 2);
    let Response::Audits(audits) = engine.handle(Request::Audits(key)) else {
        panic!()
    };
    let failed = audits
        .iter()
        .find(|a| a.session.as_deref() == Some("pair-104"))
        .unwrap();
    assert_eq!((failed.status.as_str(), failed.scheming), ("FAIL", true));
    assert!(failed
        .issues
        .iter()
        .any(|i| i.location.as_deref() == Some("tmp/pair_1767104000_tests.py:9")));
    let passed = audits
        .iter()
        .find(|a| a.session.as_deref() == Some("pair-102"))
        .unwrap();
    assert_eq!(passed.status, "PASS", "{passed:?}");
}

#[test]
fn the_boards_show_blocked_and_timed_out_work() {
    for (project, check) in [("po-factory", 0), ("droid-fleet", 1), ("pair-lab", 2)] {
        let (mut engine, key) = loaded(project);
        let Response::Boards(boards) = engine.handle(Request::Boards {
            key,
            now_ms: DEMO_NOW_MS,
        }) else {
            panic!()
        };
        match check {
            0 => {
                let blocked = &boards.agent_po[0];
                assert_eq!(
                    (blocked.task.as_str(), blocked.status.as_str()),
                    ("TASK-200", "blocked")
                );
                assert_eq!(blocked.fix_retries, (2, 2));
                let live = boards
                    .agent_po
                    .iter()
                    .find(|t| t.task == "TASK-201")
                    .unwrap();
                assert!(live.next.as_ref().is_some_and(|n| n.at_ms > DEMO_NOW_MS));
            }
            1 => {
                let first = &boards.errors[0];
                assert!(
                    first.needs_human && first.severity == "blocking",
                    "{first:?}"
                );
                assert!(!boards.conflicts.is_empty());
            }
            _ => {
                let timed_out = boards
                    .permissions
                    .iter()
                    .find(|p| p.subject.as_deref() == Some("perm-901"))
                    .unwrap();
                assert_eq!(timed_out.status, "timed_out");
                assert!(boards.permissions.iter().any(|p| p.status == "approved"));
                assert!(boards.permissions.iter().any(|p| p.status == "denied"));
                assert!(boards.reviews.iter().any(|r| r.status == "fail"));
                assert!(!boards.ack_debt.is_empty());
            }
        }
    }
}

#[test]
fn a_revise_gets_a_new_draft_that_can_be_approved() {
    let (mut engine, key) = loaded("pair-lab");
    let decide = |engine: &mut Engine, text: &str| {
        let Response::Decision(preview) = engine.handle(Request::Decide {
            key: key.clone(),
            session: "pair-101".into(),
            text: text.into(),
        }) else {
            panic!()
        };
        preview
    };
    let revise = decide(&mut engine, "revise: cover currencies with a comma decimal");
    assert_eq!(
        revise.literal.as_deref(),
        Some("REVISE: cover currencies with a comma decimal")
    );
    let m = &revise.messages[0];
    assert!(m.valid, "{:?}", m.issues);
    assert_eq!(
        (m.subject.as_str(), m.from.as_str(), m.to.as_str()),
        ("CONTRACT_REVISION_REQUESTED", "BlueLake", "BlueLake")
    );
    let send = |engine: &mut Engine, m: &crate::model::Outgoing, now: i64| {
        let Response::Demo(Ok(DemoReply::Id(_))) = engine.handle(Request::Demo(DemoCall::Send {
            project: "pair-lab".into(),
            draft: m.draft(),
            now_ms: now,
        })) else {
            panic!("sent")
        };
    };
    send(&mut engine, m, DEMO_NOW_MS + 1_000);
    // The planner answered with a new draft: checkpoint #1 is open again.
    let Response::Demo(Ok(DemoReply::Rows(rows))) =
        engine.handle(Request::Demo(DemoCall::Traffic {
            project: "pair-lab".into(),
            since: None,
        }))
    else {
        panic!()
    };
    let Response::Loaded(summary) = engine.handle(Request::Load {
        key: key.clone(),
        rows,
        reset: false,
    }) else {
        panic!()
    };
    assert!(summary
        .open
        .iter()
        .any(|o| o.session == "pair-101" && o.checkpoint.number == 1));
    let approve = decide(&mut engine, "APPROVED");
    let m = &approve.messages[0];
    assert_eq!(
        (m.subject.as_str(), m.to.as_str()),
        ("CONTRACT_FINAL", "GreenCastle")
    );
    assert!(
        m.body_md.contains("tmp/pair_1767101000_spec_draft_v2.md")
            || m.body_md.contains("spec_final_v2"),
        "{}",
        m.body_md
    );
    assert!(m.valid);
    assert!(decide(&mut engine, "MERGE APPROVED").error.is_some());
}
