//! Senders of messages that came without an envelope (a bare Agent-PO, Pair or Pair Claude
//! log, as agents write them to disk), inferred from the protocols' own fields:
//!
//! - **Agent-PO**: the direction of the message type — the task agent (`agent_id`) sends
//!   PLAN_SUBMISSION, PROGRESS_UPDATE, COMPLETION_REPORT and its BLOCKED_NOTIFICATION, the PO
//!   the directives (named `PO` unless an enveloped directive of the task names the PO).
//! - **Pair**: the roles — PAIR_INIT's `my_role` and `to` give the partner's role; a message
//!   only the planner sends goes to the builder and the other way round, so the names in `to`
//!   say who plays which role (per thread, else per log); a message is then the sender role's
//!   (a message either agent sends is the partner's of its recipient). A role whose name never
//!   appears is named `planner` / `builder`.
//! - **Pair Claude**: the tool or command — the navigator's calls are `navigator`'s, the
//!   driver's `driver`'s, the orchestrator's records (PermissionResult, CanUseToolResult)
//!   `orchestrator`'s.
//! - **droid**: `sender_id` (read by the envelope decoder already).
//!
//! Recipients are never inferred: a rule about recipients is not tested where the log does
//! not show them. Every inferred sender is marked (`Envelope::sender_inferred`).

use super::agent_po::from_agent;
use super::pair::rules::{transition, Sender};
use crate::agent_mail::Envelope;
use crate::protocol::registry::families::pair::Role;
use crate::protocol::FamilyId;
use serde_json::Value;
use std::collections::BTreeMap;

/// The name a log without envelopes gives the Product Owner.
pub const PO: &str = "PO";

/// Fills in the senders the envelopes lack, from the messages' own fields.
pub fn attribute(envelopes: &mut [Envelope]) {
    let roles = PairRoles::learn(envelopes);
    let po = po_names(envelopes);
    for env in envelopes.iter_mut().filter(|e| e.from.is_none()) {
        let name = match env.family() {
            Some(FamilyId::AgentPo) => agent_po_sender(env, &po),
            Some(FamilyId::Pair) => roles.sender(env),
            Some(FamilyId::PairClaude) => pair_claude_sender(env),
            _ => None,
        };
        if let Some(name) = name {
            env.from = Some(name);
            env.sender_inferred = true;
        }
    }
}

fn field<'a>(env: &'a Envelope, key: &str) -> Option<&'a str> {
    env.value()
        .and_then(|v| v.get(key))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The PO's mail name per task, from enveloped directives.
fn po_names(envelopes: &[Envelope]) -> BTreeMap<String, String> {
    envelopes
        .iter()
        .filter(|e| e.family() == Some(FamilyId::AgentPo))
        .filter(|e| e.message_type().is_some_and(|t| !from_agent(t)))
        .filter_map(|e| Some((field(e, "task_id")?.to_owned(), e.from.clone()?)))
        .collect()
}

fn agent_po_sender(env: &Envelope, po: &BTreeMap<String, String>) -> Option<String> {
    let kind = env.message_type()?;
    if from_agent(kind) {
        return field(env, "agent_id").map(str::to_owned);
    }
    let named = field(env, "task_id").and_then(|t| po.get(t));
    Some(named.cloned().unwrap_or_else(|| PO.to_owned()))
}

fn pair_claude_sender(env: &Envelope) -> Option<String> {
    let kind = env.message_type()?;
    let base = kind.split('@').next().unwrap_or(kind);
    let name = env
        .value()
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .unwrap_or(base);
    let who = if base == "PermissionResult" || base == "CanUseToolResult" {
        "orchestrator"
    } else if name.contains("navigator") || base == "NavigatorCommand" {
        "navigator"
    } else {
        "driver"
    };
    Some(who.to_owned())
}

/// Who plays which Pair role, per thread (`None`: mail without a thread).
#[derive(Default)]
struct PairRoles {
    by_thread: BTreeMap<Option<String>, [Option<String>; 2]>,
}

const fn slot(role: Role) -> usize {
    match role {
        Role::Planner => 0,
        Role::Builder => 1,
    }
}

impl PairRoles {
    fn learn(envelopes: &[Envelope]) -> PairRoles {
        let mut roles = PairRoles::default();
        for env in envelopes
            .iter()
            .filter(|e| e.family() == Some(FamilyId::Pair))
        {
            let Some(kind) = env.message_type() else {
                continue;
            };
            let names = roles.by_thread.entry(env.thread_id.clone()).or_default();
            let mut learn = |role: Role, name: Option<&String>| {
                if let Some(n) = name {
                    names[slot(role)].get_or_insert_with(|| n.clone());
                }
            };
            let recipient = env.to.first();
            if kind == "PAIR_INIT" {
                if let Some(mine) = sender_role_of_init(env) {
                    learn(mine.other(), recipient);
                    learn(mine, env.from.as_ref());
                }
            } else if let Some(Sender::Only(role)) = transition(kind).map(|t| t.sender) {
                learn(role.other(), recipient);
                learn(role, env.from.as_ref());
            }
        }
        roles
    }

    fn sender(&self, env: &Envelope) -> Option<String> {
        let kind = env.message_type()?;
        let names = self.by_thread.get(&env.thread_id);
        let name = |role: Role| {
            names
                .and_then(|n| n[slot(role)].clone())
                .unwrap_or_else(|| role.wire().to_ascii_lowercase())
        };
        let role = if kind == "PAIR_INIT" {
            sender_role_of_init(env)?
        } else {
            match transition(kind)?.sender {
                Sender::Only(role) => role,
                // Either agent (or the planner's side): the partner of its recipient.
                Sender::Either | Sender::NotBuilder => {
                    let recipient = env.to.first()?;
                    let builder = names.and_then(|n| n[slot(Role::Builder)].as_ref());
                    let planner = names.and_then(|n| n[slot(Role::Planner)].as_ref());
                    if Some(recipient) == builder {
                        Role::Planner
                    } else if Some(recipient) == planner {
                        Role::Builder
                    } else {
                        return None;
                    }
                }
            }
        };
        Some(name(role))
    }
}

fn sender_role_of_init(env: &Envelope) -> Option<Role> {
    env.value()?
        .pointer("/body/my_role")
        .and_then(Value::as_str)
        .and_then(Role::parse)
}
