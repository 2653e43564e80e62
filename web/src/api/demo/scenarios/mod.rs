//! The curated part of the demo, dated just before the demo's now: a Pair session waiting at
//! each human checkpoint, a tampered contract, a merged and an aborted session, one waiting
//! for the builder (a live countdown), a session whose names and evidence are hostile
//! markup, Pair Claude permission requests (one timed out), a blocked Agent-PO task, a task
//! waiting within its GO timeout, a droid task with a blocking error report and a reservation
//! conflict. Pair messages are written by the core's builders and travel as Agent Mail does
//! it: subject = type, `body_md` = the body's JSON. Audit reports are the core's audit of the
//! diffs below against the contracts below, which the demo also hands to the audit view;
//! they travel as a whole JSON body under a subject that names no Pair type (a subject
//! `AUDIT_REPORT` would make the body read as a Pair body).
//!
//! - [`plan`]: the messages to store and the shapes sessions share; [`fixtures`]: the
//!   contracts and diffs; [`audits`]: the audit reports of them.
//! - [`pair`]: the Pair sessions; [`hostile`]: the hostile one; [`tasks`]: Pair Claude,
//!   Agent-PO and droid traffic; [`secrets`]: mail that leaks secrets.

pub mod audits;
pub mod fixtures;
pub mod hostile;
pub mod pair;
pub mod plan;
pub mod secrets;
pub mod tasks;

use super::dates::DEMO_NOW_MS;
use super::gen::Gen;
use plan::Plan;
use switchboard_core::time::Timestamp;

/// Adds the scenarios, in time order, dated before the demo's now.
pub fn add(gen: &mut Gen) {
    let mut plan = Plan::default();
    pair::pair_sessions(&mut plan);
    hostile::hostile_session(&mut plan);
    tasks::pair_claude(&mut plan);
    let clock =
        |minutes: u64| Timestamp(DEMO_NOW_MS - i64::try_from(minutes).unwrap_or(0) * 60_000);
    tasks::agent_po(&mut plan, &clock);
    tasks::droid(&mut plan, &clock);
    secrets::leaked(&mut plan, &clock);
    plan.0.sort_by_key(|p| std::cmp::Reverse(p.seconds));
    for p in plan.0 {
        gen.at(p.seconds);
        gen.store(
            p.project,
            &p.from,
            &[&p.to],
            p.subject,
            p.body_md,
            if p.ack { "high" } else { "normal" },
            p.ack,
            Some(p.thread),
        );
    }
}
