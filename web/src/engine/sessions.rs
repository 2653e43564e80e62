//! Pair sessions, the checkpoint queue and checkpoint decisions, mapped from the core's
//! session views (`PairSession::view`, `PairSession::decide`).

use super::audits;
use super::concerns;
use super::fields::{self, issue_view};
use super::html::{self, panel};
use super::secrets::shown;
use super::traffic::Traffic;
use crate::api::{CheckpointDecision, Draft, OpenCheckpoint};
use crate::model::{
    ChangeOrderView, CheckpointCard, CheckpointHistory, ContractView, IntegrityView, Queued,
    SessionDetail, SessionRow, Step, TimelineItem, TrafficKey, ViolationView, WaitingView,
};
use switchboard_core::agent_mail::Carried;
use switchboard_core::session::pair::timeout::Due;
use switchboard_core::session::pair::{
    ChangeOrder, IntegrityStatus, Outcome, PairSession, SessionStatus,
};
use switchboard_core::session::violation::Violation;
use switchboard_core::time::Timestamp;

/// A timeout step (or a PO's block) as the model shows it.
#[must_use]
pub fn step(due: &Due) -> Step {
    Step {
        action: due.action.to_owned(),
        at_ms: due.at.0,
        from: due.from.clone(),
        to: due.to.clone(),
        warning: due.warning,
        message: due
            .message
            .as_ref()
            .and_then(|m| serde_json::to_string_pretty(m).ok()),
    }
}

/// A violation as the model shows it.
#[must_use]
pub fn violation(v: &Violation) -> ViolationView {
    ViolationView {
        code: v.code,
        message: v.message.clone(),
        id: v.id,
        file: v.file.clone(),
    }
}

fn change_order(order: &ChangeOrder) -> ChangeOrderView {
    ChangeOrderView {
        id: order.id,
        requested_at_ms: order.requested_at.map(|t| t.0),
        failure_mode: order.request.failure_mode.clone(),
        evidence: order.request.evidence.clone(),
        attempted_fixes: order.request.attempted_fixes.clone(),
        requested_changes: order.request.requested_changes.clone(),
        outcome: order.outcome,
        decided_at_ms: order.decided_at.map(|t| t.0),
        reasoning: order.reasoning.clone(),
        strategy: order.suggested_strategy.clone(),
        revision: order.contract_revision,
    }
}

fn row(session: &PairSession, now: Timestamp) -> SessionRow {
    let view = session.view(now);
    SessionRow {
        id: session.id.clone(),
        thread_id: session.thread_id.clone(),
        task: session.task.clone(),
        planner: session.planner.clone(),
        builder: session.builder.clone(),
        phase: session.phase,
        status: view.status,
        checkpoint: view.open_checkpoint,
        integrity: IntegrityView {
            status: session.integrity.status,
            files: session.integrity.files.clone(),
        },
        change_orders: session.change_orders.len(),
        pending_change_orders: session
            .change_orders
            .iter()
            .filter(|o| o.outcome == Outcome::Pending)
            .count(),
        violations: session.violations.len(),
        messages: session.timeline.len(),
        last_at_ms: last_at(session),
        next: view.next_action.as_ref().map(step),
        overdue: view.due.last().map(step),
        reading: false,
    }
}

/// A session whose messages are still arriving: who and when as far as read, no verdict.
fn reading_row(session: &PairSession, now: Timestamp) -> SessionRow {
    SessionRow {
        phase: None,
        status: SessionStatus::Active,
        checkpoint: None,
        integrity: IntegrityView {
            status: IntegrityStatus::Unknown,
            files: Vec::new(),
        },
        change_orders: 0,
        pending_change_orders: 0,
        violations: 0,
        next: None,
        overdue: None,
        reading: true,
        ..row(session, now)
    }
}

/// When the session's last message (as held) was sent.
fn last_at(session: &PairSession) -> Option<i64> {
    session
        .timeline
        .iter()
        .filter_map(|t| t.at)
        .max()
        .map(|t| t.0)
}

/// The session's row: in full when it is held in full, else as still being read.
fn row_of(traffic: &Traffic, session: &PairSession, now: Timestamp) -> SessionRow {
    if traffic.whole(session) {
        row(session, now)
    } else {
        reading_row(session, now)
    }
}

/// Every session: open checkpoints first, then other active sessions, then ended ones,
/// then those still being read; the most recent first within each.
#[must_use]
pub fn rows(traffic: &Traffic, now_ms: i64) -> Vec<SessionRow> {
    let now = Timestamp(now_ms);
    let mut rows: Vec<SessionRow> = traffic
        .book
        .pair
        .sessions()
        .iter()
        .map(|s| row_of(traffic, s, now))
        .collect();
    let rank = |r: &SessionRow| match (r.reading, r.checkpoint.is_some(), r.status) {
        (true, _, _) => 3,
        (false, true, _) => 0,
        (false, false, SessionStatus::Active) => 1,
        _ => 2,
    };
    rows.sort_by(|a, b| {
        rank(a)
            .cmp(&rank(b))
            .then(b.last_at_ms.cmp(&a.last_at_ms))
            .then(a.id.cmp(&b.id))
    });
    rows
}

fn session<'a>(traffic: &'a Traffic, id: &str) -> Option<&'a PairSession> {
    traffic.book.pair.get(id)
}

/// One session in full (a session still being read: its row, nothing more).
#[must_use]
pub fn detail(traffic: &Traffic, id: &str, now_ms: i64) -> Option<SessionDetail> {
    let s = session(traffic, id)?;
    if !traffic.whole(s) {
        return Some(SessionDetail {
            row: reading_row(s, Timestamp(now_ms)),
            timeline: Vec::new(),
            checkpoints: Vec::new(),
            change_orders: Vec::new(),
            contract: None,
            integrity_changes: Vec::new(),
            waiting: None,
            due: Vec::new(),
            audits: Vec::new(),
            violations: Vec::new(),
        });
    }
    let now = Timestamp(now_ms);
    let view = s.view(now);
    let timeline = s
        .timeline
        .iter()
        .map(|t| TimelineItem {
            id: t.id,
            at_ms: t.at.map(|a| a.0),
            from: t.from.clone(),
            message_type: t.message_type.map(str::to_owned),
            phase: t.phase,
            violation: t
                .violation
                .and(s.violations.iter().find(|v| v.entry == t.entry))
                .map(violation),
            issues: match traffic.envelope(t.entry).map(|e| &e.carried) {
                Some(Carried::Invalid(invalid)) => {
                    invalid.report.issues.iter().map(issue_view).collect()
                }
                _ => Vec::new(),
            },
        })
        .collect();
    Some(SessionDetail {
        row: row(s, now),
        timeline,
        checkpoints: s
            .checkpoints
            .iter()
            .map(|c| CheckpointHistory {
                checkpoint: c.checkpoint,
                opened_at_ms: c.opened_at.map(|t| t.0),
                closed_at_ms: c.closed_at.map(|t| t.0),
                decision: c.decision,
                text: c.text.clone(),
            })
            .collect(),
        change_orders: s.change_orders.iter().map(change_order).collect(),
        contract: s.contract.as_ref().map(|c| ContractView {
            revision: c.revision,
            spec: c.artifacts.as_ref().map(|a| a.spec.as_str().to_owned()),
            tests: c.artifacts.as_ref().map(|a| a.tests.as_str().to_owned()),
            fingerprints: c
                .fingerprints
                .iter()
                .flat_map(|f| f.iter())
                .map(|(path, digest)| (path.to_string(), format!("sha256:{digest}")))
                .collect(),
        }),
        integrity_changes: s
            .integrity
            .changes
            .iter()
            .map(ToString::to_string)
            .collect(),
        waiting: view.waiting.as_ref().map(|w| WaitingView {
            response_to: w.response_to.to_owned(),
            expected: w.expected.to_owned(),
            from: w.from.clone(),
            since_ms: w.since.0,
            deadline_ms: w.deadline.0,
            warnings_sent: w.warnings_sent,
        }),
        due: view.due.iter().map(step).collect(),
        audits: audits::of_session(traffic, s),
        violations: s.violations.iter().map(violation).collect(),
    })
}

/// The open checkpoints of `key`'s project, the oldest first, each with what the reviewer
/// needs to decide; its texts masked unless `reveal`.
#[must_use]
pub fn checkpoints(
    traffic: &Traffic,
    key: &TrafficKey,
    now_ms: i64,
    reveal: bool,
) -> Vec<CheckpointCard> {
    let now = Timestamp(now_ms);
    let mut cards: Vec<CheckpointCard> = traffic
        .book
        .pair
        .sessions()
        .iter()
        .filter(|s| traffic.whole(s))
        .filter_map(|s| {
            let open = s.open_checkpoint()?;
            let record = s.checkpoints.last()?;
            let opening = traffic.envelope(record.opened_entry);
            let body = opening
                .and_then(|e| e.value())
                .and_then(|v| v.get("body"))
                .map(|body| shown(fields::fields(body, "/body", &[]), reveal))
                .unwrap_or_default();
            let audits = audits::of_session(traffic, s);
            Some(CheckpointCard {
                concerns: concerns::of_mail(s, &audits, opening),
                at: OpenCheckpoint {
                    session: s.id.clone(),
                    checkpoint: open,
                    entry: record.opened_entry,
                },
                session: row(s, now),
                opened_at_ms: record.opened_at.map(|t| t.0),
                opened_by: opening.and_then(|e| e.id),
                fields: panel(html::message::fields(&body)),
                change_order: s
                    .change_orders
                    .iter()
                    .rev()
                    .find(|o| o.outcome == Outcome::Pending)
                    .map(|o| {
                        let order = shown(change_order(o), reveal);
                        panel(html::audit::change_order(&order))
                    }),
                audits: {
                    let cards = shown(audits, reveal);
                    panel(html::audit::list(&cards, key))
                },
            })
        })
        .map(|card| shown(card, reveal))
        .collect();
    cards.sort_by_key(|c| (c.opened_at_ms, c.session.id.clone()));
    cards
}

/// The open checkpoints of `projects` (those held), oldest first: the server's queue.
#[must_use]
pub fn queue<'a>(
    projects: impl Iterator<Item = (&'a TrafficKey, &'a Traffic)>,
    now_ms: i64,
) -> Vec<Queued> {
    let now = Timestamp(now_ms);
    let mut queue: Vec<Queued> = projects
        .flat_map(|(key, traffic)| {
            traffic
                .book
                .pair
                .sessions()
                .iter()
                .filter(|s| traffic.whole(s) && s.open_checkpoint().is_some())
                .map(move |s| Queued {
                    key: key.clone(),
                    session: row(s, now),
                    opened_at_ms: s.checkpoints.last().and_then(|c| c.opened_at).map(|t| t.0),
                })
        })
        .collect();
    // Oldest first; a checkpoint whose opening time is unknown last.
    let opened = |q: &Queued| q.opened_at_ms.unwrap_or(i64::MAX);
    queue.sort_by(|a, b| {
        (opened(a), &a.key, &a.session.id).cmp(&(opened(b), &b.key, &b.session.id))
    });
    queue
}

/// The drafts a decision at an open checkpoint sends, as the core builds them
/// (`PairSession::drafts`: in the session's thread, valid by construction); refused when the
/// checkpoint is no longer open as the view showed it (decided meanwhile, or opened again by
/// a newer message).
///
/// # Errors
/// No such session, a checkpoint no longer open as shown, or the core's refusal, in words.
pub fn drafts(traffic: &Traffic, decision: &CheckpointDecision) -> Result<Vec<Draft>, String> {
    let s = session(traffic, &decision.session)
        .ok_or_else(|| format!("No session {} in this project.", decision.session))?;
    let opened = s.open_checkpoint().and(s.checkpoints.last());
    if opened.is_none_or(|record| record.opened_entry != decision.opened) {
        return Err(format!(
            "Checkpoint #{} of {} is no longer open as shown: it was decided, or a newer \
             message opened it again.",
            decision.decide.checkpoint.number(),
            decision.session
        ));
    }
    s.drafts(&decision.decide).map_err(|e| e.to_string())
}
