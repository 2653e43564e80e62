//! The engine over the demo's traffic: every kind of session, the boards, and a checkpoint
//! decided, sent, answered by the demo's planner and decided again — each question asked
//! and answered as it crosses the worker boundary (encoded and decoded).

use super::Engine;
use crate::api::demo::call;
use crate::api::demo::dates::DEMO_NOW_MS;
use crate::api::{CheckpointDecision, MailRow, OpenCheckpoint};
use crate::ask::{self, answer_of, decode, Ask, Refusal};
use crate::model::{Coverage, TrafficKey, TrafficSummary};
use crate::routes::Source;
use switchboard_core::audit;
use switchboard_core::session::agent_po::Status as TaskState;
use switchboard_core::session::pair::checkpoint::{Checkpoint, Decision, DecisionKind};
use switchboard_core::session::pair::{IntegrityStatus, SessionStatus};
use switchboard_core::session::pair_claude::RequestStatus;
use switchboard_core::session::violation::ViolationCode;

/// Asks the engine as the UI does: the answer decoded as the question's type.
pub(super) fn ask<Q: Ask>(engine: &mut Engine, question: Q) -> Result<Q::Answer, Refusal> {
    decode(&engine.handle(question.request())).and_then(answer_of::<Q::Answer>)
}

/// Asks the demo server in the engine as the UI does.
pub(super) fn call<Q: call::DemoAsk>(engine: &mut Engine, call: Q) -> Result<Q::Answer, Refusal> {
    let request = crate::ask::Request::Demo(call.call());
    decode(&engine.handle(request)).and_then(answer_of::<Q::Answer>)
}

/// The engine with the demo's pair-lab (or another project's) traffic loaded, with its
/// registered agents.
pub(super) fn loaded(project: &str) -> (Engine, TrafficKey) {
    let mut engine = Engine::new();
    let key = TrafficKey {
        src: Source::Demo,
        project: project.into(),
    };
    reload(&mut engine, &key, true);
    (engine, key)
}

/// Loads the demo project's traffic (again) into the engine, with the demo's agents.
pub(super) fn reload(engine: &mut Engine, key: &TrafficKey, reset: bool) -> TrafficSummary {
    let agents = call::Agents {
        project: key.project.clone(),
    };
    let agents = call(engine, agents).unwrap();
    load_with_agents(
        engine,
        key,
        reset,
        agents.into_iter().map(|a| a.name).collect(),
    )
}

/// The demo project's mail, as the server lists it.
pub(super) fn demo_rows(engine: &mut Engine, key: &TrafficKey) -> Vec<MailRow> {
    let traffic = call::Traffic {
        project: key.project.clone(),
        since: None,
    };
    call(engine, traffic).unwrap()
}

/// Loads the demo project's traffic into the engine with `agents` as the server's list of
/// registered agents.
pub(super) fn load_with_agents(
    engine: &mut Engine,
    key: &TrafficKey,
    reset: bool,
    agents: Vec<String>,
) -> TrafficSummary {
    let load = ask::Load {
        key: key.clone(),
        rows: demo_rows(engine, key),
        reset,
        coverage: Coverage::Whole,
        newer: false,
        pending: None,
        agents: Some(agents),
    };
    ask(engine, load).unwrap()
}

#[test]
fn the_sessions_view_has_every_kind_of_session() {
    let (mut engine, key) = loaded("pair-lab");
    let sessions = ask::Sessions {
        key: key.clone(),
        now_ms: DEMO_NOW_MS,
        reveal: true,
        all: false,
    };
    let list = ask(&mut engine, sessions).unwrap();
    let rows = super::sessions::rows(engine.traffic(&key).unwrap(), DEMO_NOW_MS);
    assert_eq!(
        list.ids,
        rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        "every row drawn, in the rows' order"
    );
    // The table names each session with its index (the page's keys select by it) and
    // escapes the task that holds markup.
    assert!(list
        .html
        .0
        .contains(r#"data-session="pair-104" data-status="active" data-index=""#));
    assert!(list.html.0.contains("&lt;script&gt;"));
    let find = |id: &str| {
        rows.iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    assert_eq!(
        find("pair-101").checkpoint,
        Some(Checkpoint::ContractReview)
    );
    assert_eq!(
        find("pair-102").checkpoint,
        Some(Checkpoint::ImplementationReview)
    );
    assert_eq!(find("pair-102").integrity.status, IntegrityStatus::Intact);
    assert_eq!(
        find("pair-103").checkpoint,
        Some(Checkpoint::ChangeOrderReview)
    );
    let tampered = find("pair-104");
    assert_eq!(tampered.integrity.status, IntegrityStatus::Tampered);
    assert_eq!(tampered.integrity.files, ["tmp/pair_1767104000_tests.py"]);
    assert_eq!(find("pair-105").status, SessionStatus::Merged);
    assert_eq!(find("pair-106").status, SessionStatus::Aborted);
    let building = find("pair-107");
    let next = building.next.as_ref().expect("a deadline");
    assert!(next.at_ms > DEMO_NOW_MS, "the countdown runs");
    assert_eq!(next.action, "TIMEOUT_WARNING");
    assert!(find("pair-108").task.as_ref().unwrap().contains("<script>"));
    for id in [
        "pair-101", "pair-102", "pair-103", "pair-105", "pair-106", "pair-107",
    ] {
        let session = ask::Session {
            key: key.clone(),
            id: id.into(),
            now_ms: DEMO_NOW_MS,
            reveal: true,
        };
        let page = ask(&mut engine, session).unwrap().expect(id);
        assert!(page.upper.0.contains(r#"class="timeline""#), "{id}");
        let traffic = engine.traffic(&key).unwrap();
        let detail = super::sessions::detail(traffic, id, DEMO_NOW_MS).expect(id);
        assert!(
            detail.violations.is_empty(),
            "{id}: {:?}",
            detail.violations
        );
    }
    // Texts from the mail are escaped in what the engine writes.
    let hostile = ask::Session {
        key: key.clone(),
        id: "pair-108".into(),
        now_ms: DEMO_NOW_MS,
        reveal: true,
    };
    let page = ask(&mut engine, hostile).unwrap().unwrap();
    assert!(page.upper.0.contains("&lt;script&gt;") && !page.upper.0.contains("<script>"));
    let checkpoints = ask::Checkpoints {
        key: key.clone(),
        now_ms: DEMO_NOW_MS,
        reveal: true,
    };
    let cards = ask(&mut engine, checkpoints).unwrap();
    let co = cards.iter().find(|c| c.at.session == "pair-103").unwrap();
    let order = &co.change_order.as_ref().unwrap().0;
    assert!(order.contains(r#"<dd class="evidence">"#) && order.contains("ModuleNotFoundError"));
    assert_eq!(order.matches("<li>").count(), 2, "two attempted fixes");
    let written = ask(
        &mut engine,
        ask::Audits {
            key: key.clone(),
            reveal: true,
        },
    )
    .unwrap();
    assert!(written.0.contains(r#"<strong class="flag scheming">"#));
    let audits = super::audits::in_mail(engine.traffic(&key).unwrap());
    let failed = audits
        .iter()
        .find(|a| a.session.as_deref() == Some("pair-104"))
        .unwrap();
    assert_eq!(
        (failed.status, failed.scheming),
        (audit::Status::Fail, true)
    );
    assert!(failed
        .issues
        .iter()
        .any(|i| i.location.as_deref() == Some("tmp/pair_1767104000_tests.py:9")));
    let passed = audits
        .iter()
        .find(|a| a.session.as_deref() == Some("pair-102"))
        .unwrap();
    assert_eq!(passed.status, audit::Status::Pass, "{passed:?}");
}

#[test]
fn the_boards_show_blocked_and_timed_out_work() {
    for (project, check) in [("po-factory", 0), ("droid-fleet", 1), ("pair-lab", 2)] {
        let (mut engine, key) = loaded(project);
        let written = ask(
            &mut engine,
            ask::TaskBoards {
                key: key.clone(),
                now_ms: DEMO_NOW_MS,
                reveal: true,
            },
        )
        .unwrap();
        let marker = [
            r#"<tr class="po-task blocked at-limit" data-task="TASK-200">"#,
            r#"<tr class="needs-human" data-severity="blocking">"#,
            r#"<li data-status="timed_out">"#,
        ][check];
        assert!(written.0.contains(marker), "{project}: {}", written.0);
        let boards = super::boards::boards(engine.traffic(&key).unwrap(), DEMO_NOW_MS);
        // Every demo agent is registered; only droid-fleet has a sender without the role.
        let wrong_role: Vec<&str> = boards
            .senders
            .iter()
            .map(|v| {
                assert_eq!(v.code, ViolationCode::WrongRole, "{project}: {v:?}");
                v.message.as_str()
            })
            .collect();
        assert!(boards.registered.is_some(), "{project}");
        match check {
            1 => assert!(
                wrong_role.len() == 1 && wrong_role[0].contains("TealHarbor"),
                "{wrong_role:?}"
            ),
            _ => assert!(wrong_role.is_empty(), "{project}: {wrong_role:?}"),
        }
        assert!(written.0.contains("registered agent(s): "), "{project}");
        match check {
            0 => {
                let blocked = &boards.agent_po[0];
                assert_eq!(
                    (blocked.task.as_str(), blocked.phase),
                    ("TASK-200", TaskState::Blocked)
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
                assert_eq!(timed_out.status, RequestStatus::TimedOut);
                assert!(boards
                    .permissions
                    .iter()
                    .any(|p| p.status == RequestStatus::Approved));
                assert!(boards
                    .permissions
                    .iter()
                    .any(|p| p.status == RequestStatus::Denied));
                assert!(boards
                    .reviews
                    .iter()
                    .any(|r| r.status == RequestStatus::Fail));
                assert!(!boards.ack_debt.is_empty());
            }
        }
    }
}

/// Checkpoint #1 of pair-101 as the queue shows it now.
fn contract_review(engine: &mut Engine, key: &TrafficKey) -> OpenCheckpoint {
    let checkpoints = ask::Checkpoints {
        key: key.clone(),
        now_ms: DEMO_NOW_MS,
        reveal: true,
    };
    let cards = ask(engine, checkpoints).unwrap();
    let card = cards.iter().find(|c| c.at.session == "pair-101").unwrap();
    assert_eq!(card.at.checkpoint, Checkpoint::ContractReview);
    card.at.clone()
}

#[test]
fn a_revise_gets_a_new_draft_that_can_be_approved() {
    let (mut engine, key) = loaded("pair-lab");
    let at = contract_review(&mut engine, &key);
    let revise = Decision::parse(
        at.checkpoint,
        "revise: cover currencies with a comma decimal",
    )
    .unwrap();
    assert_eq!(
        revise.literal(),
        "REVISE: cover currencies with a comma decimal"
    );
    let drafts = ask::Drafts {
        key: key.clone(),
        decision: CheckpointDecision::at(&at, &revise),
    };
    let drafts = ask(&mut engine, drafts).unwrap();
    let m = &drafts[0];
    assert_eq!(
        (m.subject.as_str(), m.sender.as_deref(), m.to.as_slice()),
        (
            "CONTRACT_REVISION_REQUESTED",
            Some("BlueLake"),
            &["BlueLake".to_owned()][..]
        )
    );
    assert_eq!(m.thread_id.as_deref(), Some("pair-101"));
    // The demo decides and sends in one call.
    let decide = |decision: CheckpointDecision| call::Decide {
        project: "pair-lab".into(),
        decision,
        now_ms: DEMO_NOW_MS + 1_000,
    };
    let ids = call(&mut engine, decide(CheckpointDecision::at(&at, &revise))).unwrap();
    assert_eq!(ids.len(), 1);
    // The planner answered with a new draft: checkpoint #1 is open again, on a newer
    // message; a decision at the checkpoint as it was is refused.
    let summary = reload(&mut engine, &key, false);
    let reopened = contract_review(&mut engine, &key);
    assert!(summary.open.contains(&reopened));
    assert!(reopened.entry > at.entry);
    let stale = call(&mut engine, decide(CheckpointDecision::at(&at, &revise)));
    assert!(stale.is_err(), "{stale:?}");
    let approve = Decision::new(DecisionKind::Approved, "").unwrap();
    let drafts = ask::Drafts {
        key: key.clone(),
        decision: CheckpointDecision::at(&reopened, &approve),
    };
    let m = &ask(&mut engine, drafts).unwrap()[0];
    assert_eq!(
        (m.subject.as_str(), m.to.as_slice()),
        ("CONTRACT_FINAL", &["GreenCastle".to_owned()][..])
    );
    assert!(
        m.body_md.contains("tmp/pair_1767101000_spec_final_v2.md"),
        "{}",
        m.body_md
    );
    let merge = Decision::new(DecisionKind::MergeApproved, "").unwrap();
    let refused = ask::Drafts {
        key,
        decision: CheckpointDecision::at(&reopened, &merge),
    };
    assert!(ask(&mut engine, refused).is_err());
}

#[test]
fn secrets_in_mail_are_masked_unless_revealed() {
    let (mut engine, key) = loaded("droid-fleet");
    let leaked = demo_rows(&mut engine, &key)
        .iter()
        .find(|r| r.subject == "error_report bd-93")
        .unwrap()
        .clone();
    let traffic = engine.traffic(&key).unwrap();
    let masked = super::fields::inspect(&leaked, Some(traffic), false);
    // The key is the message's one fault.
    assert!(
        !masked.issues.is_empty()
            && masked
                .issues
                .iter()
                .all(|i| i.code == switchboard_core::protocol::IssueCode::SecretInMessage),
        "{:?}",
        masked.issues
    );
    let raw = masked.raw.unwrap();
    assert!(
        !raw.contains("AKIAIOSFODNN7EXAMPLE") && raw.contains("AKIA…(20 chars)"),
        "{raw}"
    );
    assert!(!masked.html.contains("AKIAIOSFODNN7EXAMPLE"));
    assert!(!format!("{:?}", masked.fields).contains("AKIAIOSFODNN7EXAMPLE"));
    let revealed = super::fields::inspect(&leaked, Some(traffic), true);
    assert!(revealed.raw.unwrap().contains("AKIAIOSFODNN7EXAMPLE"));
    // As the message view shows it: badge, masked note, members, raw JSON and body.
    let inspect = |engine: &mut Engine, reveal: bool| {
        let asked = ask::Inspect {
            key: key.clone(),
            message: leaked.clone(),
            reveal,
            full: true,
        };
        ask(engine, asked).unwrap().html.0
    };
    let shown = inspect(&mut engine, false);
    assert!(
        !shown.contains("AKIAIOSFODNN7EXAMPLE")
            && shown.contains("AKIA…(20 chars)")
            && shown.contains(r#"<p class="muted masked">"#)
            && shown.contains(r#"<details class="raw-json">"#)
            && shown.contains(r#"<section class="carried""#),
        "{shown}"
    );
    assert!(inspect(&mut engine, true).contains("AKIAIOSFODNN7EXAMPLE"));
    let subjects = ask::Redact(vec![
        "Staging deploy token ghp_0123456789abcdefghijABCDEFGHIJ012345".into(),
        "Note 3: nothing to hide".into(),
    ]);
    let shown = ask(&mut engine, subjects).unwrap();
    assert!(
        shown[0].as_ref().is_some_and(|s| !s.contains("ghp_0123")),
        "{shown:?}"
    );
    assert_eq!(shown[1], None);
}

#[test]
fn the_boards_list_unregistered_senders_and_recipients() {
    let (mut engine, key) = loaded("droid-fleet");
    // TealHarbor is left out of the registered agents.
    let registered = vec!["CrimsonPeak".into(), "OliveMarsh".into()];
    load_with_agents(&mut engine, &key, true, registered);
    let written = ask(
        &mut engine,
        ask::TaskBoards {
            key: key.clone(),
            now_ms: DEMO_NOW_MS,
            reveal: true,
        },
    )
    .unwrap();
    assert!(written
        .0
        .contains("2 registered agent(s): CrimsonPeak, OliveMarsh."));
    assert!(
        written.0.contains(r#"<li data-code="invalid_agent">"#) && written.0.contains("TealHarbor"),
        "{}",
        written.0
    );
}

#[test]
fn the_queue_lists_every_open_checkpoint_of_the_projects_held_oldest_first() {
    let (mut engine, key) = loaded("pair-lab");
    let traffic = engine.traffic(&key).unwrap();
    let queue = super::sessions::queue(std::iter::once((&key, traffic)), DEMO_NOW_MS);
    let cards = super::sessions::checkpoints(traffic, &key, DEMO_NOW_MS, true);
    assert_eq!(queue.len(), cards.len());
    assert!(queue
        .windows(2)
        .all(|w| w[0].opened_at_ms <= w[1].opened_at_ms));
    // A project not read is left out; the panel names each checkpoint, session and project.
    let unread = TrafficKey {
        src: key.src,
        project: "not-read".into(),
    };
    let html = ask(
        &mut engine,
        ask::Queue {
            keys: vec![unread, key.clone()],
            now_ms: DEMO_NOW_MS,
            reveal: false,
        },
    )
    .unwrap()
    .0;
    assert_eq!(
        html.matches(r#"<li class="queue-item""#).count(),
        queue.len()
    );
    let first = &queue[0];
    assert!(
        html.contains(&format!(
            r#"<li class="queue-item" data-project="pair-lab" data-session="{}">"#,
            first.session.id
        )),
        "{html}"
    );
    assert!(html.contains(&format!(
        "{} open checkpoint(s) in 1 project(s)",
        queue.len()
    )));
}
