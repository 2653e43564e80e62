//! The task boards, mapped from the core's `Book::boards`: Agent-PO tasks with their limits
//! and gate results, droid tasks by status with error reports and reservation conflicts,
//! Pair Claude permission and review requests, and acknowledgement debt.

use super::sessions::{step, violation};
use super::traffic::Traffic;
use crate::model::{
    AckDebtView, Boards, ConflictView, DroidColumn, DroidTaskView, ErrorView, GateView, PoTaskView,
    RequestView,
};
use switchboard_core::session::agent_po::Status as TaskState;
use switchboard_core::time::Timestamp;

/// The boards at `now_ms`. Agent-PO tasks: blocked first, then those at a limit. While the
/// mail is still arriving, the tasks as far as read without verdicts.
#[must_use]
pub fn boards(traffic: &Traffic, now_ms: i64) -> Boards {
    let boards = read_boards(traffic, now_ms);
    if !traffic.reading() {
        return boards;
    }
    Boards {
        agent_po: boards
            .agent_po
            .into_iter()
            .map(|t| PoTaskView {
                violations: Vec::new(),
                gates: t
                    .gates
                    .into_iter()
                    .map(|g| GateView {
                        problems: Vec::new(),
                        ..g
                    })
                    .collect(),
                ..t
            })
            .collect(),
        ack_debt: Vec::new(),
        senders: Vec::new(),
        reading: true,
        ..boards
    }
}

fn read_boards(traffic: &Traffic, now_ms: i64) -> Boards {
    let b = traffic.book.boards(Timestamp(now_ms));
    let mut agent_po: Vec<PoTaskView> = b
        .agent_po
        .iter()
        .map(|t| PoTaskView {
            id: t.session_id.clone(),
            task: t.task.to_owned(),
            agent: t
                .roles
                .get("agent")
                .copied()
                .flatten()
                .unwrap_or_default()
                .to_owned(),
            po: t.roles.get("po").copied().flatten().map(str::to_owned),
            phase: t.phase,
            status: t.status.to_owned(),
            plan_revisions: (t.plan_revisions.current, t.plan_revisions.max),
            fix_retries: (t.fix_retries.current, t.fix_retries.max),
            at_limit: t.at_limit,
            gates: t
                .gates
                .iter()
                .map(|g| GateView {
                    directive: g.directive.to_owned(),
                    at_ms: g.at.map(|a| a.0),
                    problems: g.problems.clone(),
                })
                .collect(),
            blocked: t.blocked.map(|b| (b.by.to_owned(), b.reason.clone())),
            progress: t.progress.cloned(),
            violations: t.violations.iter().map(violation).collect(),
            next: t.next_action.as_ref().map(step),
        })
        .collect();
    agent_po.sort_by_key(|t| (t.phase != TaskState::Blocked, !t.at_limit));
    Boards {
        agent_po,
        droid: b
            .droid
            .by_status
            .iter()
            .map(|(s, tasks)| DroidColumn {
                status: *s,
                tasks: tasks
                    .iter()
                    .map(|row| DroidTaskView {
                        task_id: row.task.task_id.clone(),
                        description: row.task.description.clone(),
                        priority: row.task.priority.clone(),
                        assignees: row.task.assignees.clone(),
                        percentage: row.task.percentage,
                        summary: row.task.summary.clone(),
                        blockers: row.task.blockers.clone(),
                        waiting_on: row.waiting_on.clone(),
                        overdue: row.overdue,
                        errors: row.task.errors.len(),
                    })
                    .collect(),
            })
            .collect(),
        errors: b
            .droid
            .errors
            .iter()
            .map(|e| ErrorView {
                task_id: e.task_id.to_owned(),
                severity: e.error.severity.clone(),
                code: e.error.code.clone(),
                message: e.error.message.clone(),
                needs_human: e.error.needs_human_intervention,
                sender: e.error.sender.clone(),
                at_ms: e.error.at.map(|a| a.0),
            })
            .collect(),
        conflicts: b
            .droid
            .conflicts
            .iter()
            .map(|c| ConflictView {
                holders: c.holders.clone(),
                modes: c.modes.clone(),
                patterns: c.patterns.clone(),
            })
            .collect(),
        permissions: b
            .pair_claude
            .permissions
            .iter()
            .map(|p| RequestView {
                subject: p.request.request_id.clone(),
                tool: Some(p.request.tool_name.clone()),
                requested_at_ms: p.request.requested_at.map(|a| a.0),
                status: p.status,
                comment: p.request.comment.clone(),
            })
            .collect(),
        reviews: b
            .pair_claude
            .reviews
            .iter()
            .map(|r| RequestView {
                subject: r.context.clone(),
                tool: None,
                requested_at_ms: r.requested_at.map(|a| a.0),
                status: r.status,
                comment: r.comment.clone(),
            })
            .collect(),
        ack_debt: b
            .ack_debt
            .iter()
            .map(|d| AckDebtView {
                agent: d.agent.clone(),
                waiting: d.waiting,
                oldest_age_ms: d.oldest_age_ms,
            })
            .collect(),
        registered: b
            .agents
            .registered
            .as_ref()
            .map(|names| names.iter().map(|&n| n.to_owned()).collect()),
        senders: b.agents.violations.iter().map(violation).collect(),
        reading: false,
    }
}
