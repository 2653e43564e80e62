//! The demo's planner: what it answers to a message just sent (a REVISE at checkpoint #1
//! gets a new draft).

use super::world::DemoMessage;
use serde_json::Value;
use switchboard_core::protocol::builders::pair::{contract_draft, DraftArtifacts, PairMessage};
use switchboard_core::protocol::builders::{ArtifactPath, Text};
use switchboard_core::protocol::{self, Options};

/// The demo planner's answer to a message just sent: a REVISE at checkpoint #1
/// (CONTRACT_REVISION_REQUESTED, sent to the planner) gets a new CONTRACT_DRAFT to the
/// builder, with the next version of the draft's spec and tests. `messages` are the
/// project's messages before it.
#[must_use]
pub fn planner_answer(messages: &[DemoMessage], sent: &DemoMessage) -> Option<PairMessage> {
    let carried = |m: &DemoMessage| {
        protocol::validate_body_md(Some(&m.subject), &m.body_md, &Options::default()).1
    };
    let asked = carried(sent)?;
    if asked.get("subject").and_then(Value::as_str) != Some("CONTRACT_REVISION_REQUESTED") {
        return None;
    }
    let draft = messages.iter().rev().find_map(|m| {
        let same = m.project == sent.project && m.thread_id == sent.thread_id;
        let value = carried(m).filter(|_| same)?;
        (value.get("subject").and_then(Value::as_str) == Some("CONTRACT_DRAFT"))
            .then_some((m, value))
    })?;
    let (message, value) = draft;
    let artifact =
        |key: &str| ArtifactPath::new(value.pointer(&format!("/body/artifacts/{key}"))?.as_str()?);
    let revised = DraftArtifacts {
        safety_reasoning: artifact("safety_reasoning")?,
        spec: artifact("spec")?.next_version(),
        tests: artifact("tests")?.next_version(),
    };
    let from = Text::new(&message.from)?;
    let to = Text::new(message.to.first()?)?;
    Some(contract_draft(&from, &to, &revised, None))
}
