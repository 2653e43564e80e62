//! Who plays which role: PAIR_INIT, roles learned from the messages only one role sends, the
//! sender a message type requires, and who is awaited after a message.

use super::rules::{Recipient, Sender, Transition};
use super::timeout::{rule_after, Awaited, Wait};
use super::PairSession;
use crate::agent_mail::Envelope;
use crate::protocol::registry::families::pair::{Phase, Role};
use crate::session::violation::{Violation, ViolationCode};

impl PairSession {
    pub(super) fn init(&mut self, env: &Envelope, my_role: Role, task: &str) -> Option<Violation> {
        let recipient = env.to.first().cloned();
        if self.phase.is_some() || self.planner.is_some() || self.builder.is_some() {
            // Both agents may run /pair: a second PAIR_INIT that agrees on the roles is the
            // partner's answer; one that disagrees is a conflict.
            let agrees = env
                .from
                .as_deref()
                .is_none_or(|from| self.role_of(from).is_none_or(|r| r == my_role));
            if !agrees {
                return Some(Violation::at(
                    ViolationCode::RoleConflict,
                    env,
                    format!(
                        "PAIR_INIT claims {} for {}, which the session gave the other role",
                        my_role.wire(),
                        env.from.as_deref().unwrap_or("?")
                    ),
                ));
            }
            if self.phase != Some(Phase::ContractGeneration) || !self.checkpoints.is_empty() {
                return Some(Violation::at(
                    ViolationCode::OutOfOrder,
                    env,
                    "PAIR_INIT after the session had started".into(),
                ));
            }
            self.end_wait(env);
            return None;
        }
        self.task = Some(task.to_owned());
        self.set_role(my_role, env.from.clone());
        self.set_role(my_role.other(), recipient);
        self.phase = Some(Phase::ContractGeneration);
        self.wait = if env.acknowledged {
            None
        } else {
            self.wait_for("PAIR_INIT", env)
        };
        None
    }

    fn set_role(&mut self, role: Role, agent: Option<String>) {
        let slot = match role {
            Role::Planner => &mut self.planner,
            Role::Builder => &mut self.builder,
        };
        if slot.is_none() {
            *slot = agent;
        }
    }

    /// Learns the roles from a message only one role sends (a log without PAIR_INIT).
    pub(super) fn infer_roles(&mut self, env: &Envelope, rule: &Transition) {
        if let Sender::Only(role) = rule.sender {
            if self.agent(role).is_none()
                && env
                    .from
                    .as_deref()
                    .is_none_or(|f| self.role_of(f).is_none())
            {
                self.set_role(role, env.from.clone());
            }
            let recipient = env.to.first().cloned();
            if self.agent(role.other()).is_none()
                && recipient
                    .as_deref()
                    .is_some_and(|r| self.role_of(r).is_none())
            {
                self.set_role(role.other(), recipient);
            }
        }
    }

    pub(super) fn check_sender(&self, env: &Envelope, rule: &Transition) -> Option<Violation> {
        let from = env.from.as_deref()?;
        let sender = self.role_of(from);
        let ok = match rule.sender {
            Sender::Either => true,
            Sender::Only(role) => self.agent(role).is_none_or(|a| a == from),
            Sender::NotBuilder => sender != Some(Role::Builder),
        };
        (!ok).then(|| {
            let expected = match rule.sender {
                Sender::Only(role) => format!(
                    "the {} ({})",
                    role.wire().to_ascii_lowercase(),
                    self.agent(role).unwrap_or("?")
                ),
                _ => "the planner's side".to_owned(),
            };
            Violation::at(
                ViolationCode::WrongRole,
                env,
                format!("{} must come from {expected}, not {from}", rule.message),
            )
        })
    }

    /// Whether `env` goes to the agent the table names as the message's recipient; unknown
    /// recipients (none in the mail) and roles not yet known are not judged.
    pub(super) fn check_recipient(&self, env: &Envelope, rule: &Transition) -> Option<Violation> {
        let from = env.from.as_deref();
        let expected: Option<&str> = match rule.recipient {
            Recipient::Only(role) => self.agent(role),
            Recipient::Partner => from
                .and_then(|f| self.role_of(f))
                .and_then(|r| self.agent(r.other())),
            // TIMEOUT_WARNING is checked against the wait; the others are not named.
            Recipient::Awaited | Recipient::Unnamed => return None,
        };
        if env.to.is_empty() {
            return None;
        }
        let wrong: Vec<&str> = env
            .to
            .iter()
            .map(String::as_str)
            .filter(|t| match expected {
                Some(e) => *t != e,
                // The partner is not known yet: at least not the sender itself.
                None => rule.recipient == Recipient::Partner && Some(*t) == from,
            })
            .collect();
        if wrong.is_empty() {
            return None;
        }
        let named = match rule.recipient {
            Recipient::Only(role) => format!("the {}", role.wire().to_ascii_lowercase()),
            _ => "the partner".to_owned(),
        };
        Some(Violation::at(
            ViolationCode::WrongRecipient,
            env,
            format!(
                "{} went to {}, not {named}{}",
                rule.message,
                wrong.join(", "),
                expected.map(|e| format!(" ({e})")).unwrap_or_default()
            ),
        ))
    }

    /// A wait for the response to `message_type` sent in `env`, when the table has a rule and
    /// the message has a time.
    pub(super) fn wait_for(&self, message_type: &str, env: &Envelope) -> Option<Wait> {
        let rule = rule_after(message_type)?;
        let since = env.at?;
        let (role, to, from) = match rule.awaited {
            Awaited::Recipient => {
                let to = env.to.first().cloned();
                (
                    to.as_deref().and_then(|t| self.role_of(t)),
                    to,
                    env.from.clone(),
                )
            }
            Awaited::Planner => (
                Some(Role::Planner),
                self.planner.clone(),
                self.builder.clone(),
            ),
            Awaited::Builder => (
                Some(Role::Builder),
                self.builder.clone(),
                self.planner.clone(),
            ),
        };
        Some(Wait {
            rule,
            entry: env.index,
            since,
            from,
            to,
            role,
            warnings: Vec::new(),
            warning_entries: Vec::new(),
            judged: message_type != "PAIR_INIT" || env.ack_required,
        })
    }
}
