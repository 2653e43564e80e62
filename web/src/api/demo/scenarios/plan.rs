//! The scenarios' plan: the messages to store, each dated minutes before the demo's now,
//! and the shapes the curated sessions share (a contract up to CONTRACT_FINAL, an Agent-PO
//! exchange).

use serde_json::Value;
use switchboard_core::fingerprint::Fingerprints;
use switchboard_core::protocol::builders::pair::{
    contract_draft, contract_final, pair_init, ContractArtifacts, DraftArtifacts, PairMessage,
};
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::registry::families::pair::Role;

/// The planner of the curated Pair sessions.
pub const PLANNER: &str = "BlueLake";
/// Their builder.
pub const BUILDER: &str = "GreenCastle";

/// Demo text (never blank).
#[must_use]
pub fn t(s: &str) -> Text {
    Text::new(s).expect("demo texts are not blank")
}

/// A demo artifact path (always of the Pair form).
#[must_use]
pub fn a(s: String) -> ArtifactPath {
    ArtifactPath::new(&s).expect("demo artifacts have the Pair form")
}

/// A message body as pretty JSON.
#[must_use]
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// One message to store: minutes before now, project, sender, recipient, subject, body,
/// thread, whether an acknowledgement is asked.
pub struct Planned {
    /// Seconds before now.
    pub seconds: u64,
    /// Project index.
    pub project: usize,
    /// Sender.
    pub from: String,
    /// Recipient.
    pub to: String,
    /// Subject.
    pub subject: String,
    /// Body.
    pub body_md: String,
    /// Thread.
    pub thread: String,
    /// Whether an acknowledgement is asked.
    pub ack: bool,
}

/// The messages to store, in any order.
#[derive(Default)]
pub struct Plan(pub Vec<Planned>);

impl Plan {
    /// A Pair message `minutes` before now, in `thread`.
    pub fn pair(&mut self, minutes: u64, thread: &str, message: &PairMessage) {
        let ack = matches!(message.subject, "CONTRACT_FINAL" | "BUILD_COMPLETE");
        self.0.push(Planned {
            seconds: minutes * 60,
            project: 0,
            from: message.from.clone(),
            to: message.to.clone(),
            subject: message.subject.to_owned(),
            body_md: message.body_md(),
            thread: thread.to_owned(),
            ack,
        });
    }

    /// Any message `minutes` before now.
    #[allow(clippy::too_many_arguments)]
    pub fn raw(
        &mut self,
        minutes: u64,
        project: usize,
        from: &str,
        to: &str,
        subject: String,
        body_md: String,
        thread: &str,
    ) {
        self.0.push(Planned {
            seconds: minutes * 60,
            project,
            from: from.to_owned(),
            to: to.to_owned(),
            subject,
            body_md,
            thread: thread.to_owned(),
            ack: false,
        });
    }

    /// An Agent-PO task's exchange in its thread (project 1): each step `(minutes ago, sent
    /// by the agent, message)`, the subject `TASK-ID MESSAGE_TYPE`.
    pub fn task_exchange(
        &mut self,
        task: &str,
        agent: &str,
        po: &str,
        steps: impl IntoIterator<Item = (u64, bool, Value)>,
    ) {
        for (minutes, from_agent, value) in steps {
            let kind = value["message_type"].as_str().unwrap_or("MESSAGE");
            let (from, to) = if from_agent { (agent, po) } else { (po, agent) };
            let subject = format!("{task} {kind}");
            self.raw(minutes, 1, from, to, subject, pretty(&value), task);
        }
    }

    /// A session up to CONTRACT_FINAL: PAIR_INIT, CONTRACT_DRAFT, CONTRACT_FINAL at `start`,
    /// `start - 5` and `start - 10` minutes before now; its contract.
    pub fn contracted(
        &mut self,
        start: u64,
        thread: &str,
        stamp: u64,
        task: &str,
        fingerprints: Option<&Fingerprints>,
    ) -> ContractArtifacts {
        let (p, b) = (t(PLANNER), t(BUILDER));
        let draft = DraftArtifacts {
            safety_reasoning: a(format!("tmp/pair_{stamp}_safety_reasoning.md")),
            spec: a(format!("tmp/pair_{stamp}_spec_draft.md")),
            tests: a(format!("tmp/pair_{stamp}_tests.py")),
        };
        let contract = ContractArtifacts {
            spec: draft.spec.finalized(),
            tests: draft.tests.clone(),
        };
        self.pair(start, thread, &pair_init(&p, &b, &t(task), Role::Planner));
        self.pair(
            start - 5,
            thread,
            &contract_draft(&p, &b, &draft, fingerprints),
        );
        self.pair(
            start - 10,
            thread,
            &contract_final(&p, &b, &contract, fingerprints),
        );
        contract
    }
}
