//! The Pair Protocol's message order as data: who may send each message, in which phases,
//! the phase it leads to and the checkpoint it opens or closes.

use super::checkpoint::Checkpoint;
use crate::protocol::registry::families::pair::{Phase, Role};
use serde::Serialize;

/// Who may send a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sender {
    /// Either agent.
    Either,
    /// Only this role.
    Only(Role),
    /// Anyone but the builder (the planner or its human reviewer).
    NotBuilder,
}

/// Whom a message goes to (the seed's **Recipient:** lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recipient {
    /// The sender's partner (the other role).
    Partner,
    /// Only the agent playing this role.
    Only(Role),
    /// The agent whose response is late (TIMEOUT_WARNING: "Partner agent (not responding)").
    Awaited,
    /// Not named by the seed (clarifications go to the orchestrator; audit reports).
    Unnamed,
}

/// One row of the transition table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Transition {
    /// The message type.
    pub message: &'static str,
    /// Who may send it.
    pub sender: Sender,
    /// Whom it goes to.
    pub recipient: Recipient,
    /// The phases it may arrive in (empty: only as a session's first message).
    pub from: &'static [Phase],
    /// The phase after it (`None`: unchanged).
    pub to: Option<Phase>,
    /// The checkpoint it opens.
    pub opens: Option<Checkpoint>,
    /// The checkpoint it closes (with its decision).
    pub closes: Option<Checkpoint>,
}

const BUILDING: &[Phase] = &[
    Phase::ContractFinalized,
    Phase::ContractRevised,
    Phase::ChangeOrderRejected,
    Phase::BuildRejected,
];
/// Every phase but the two terminal ones, with which [`Phase::ALL`] ends.
const OPEN: &[Phase] = Phase::ALL.split_at(Phase::ALL.len() - 2).0;
const BEFORE_CONTRACT: &[Phase] = &[
    Phase::Clarification,
    Phase::ClarificationComplete,
    Phase::ContractGeneration,
];

const fn row(
    message: &'static str,
    sender: Sender,
    recipient: Recipient,
    from: &'static [Phase],
    to: Option<Phase>,
    opens: Option<Checkpoint>,
    closes: Option<Checkpoint>,
) -> Transition {
    Transition {
        message,
        sender,
        recipient,
        from,
        to,
        opens,
        closes,
    }
}

/// The table (`docs/protocol.md` "Pair sessions" prints it).
pub static TRANSITIONS: &[Transition] = &[
    row(
        "PAIR_INIT",
        Sender::Either,
        Recipient::Partner,
        &[],
        Some(Phase::ContractGeneration),
        None,
        None,
    ),
    row(
        "CLARIFICATION_REQUEST",
        Sender::Either,
        Recipient::Unnamed,
        BEFORE_CONTRACT,
        Some(Phase::Clarification),
        None,
        None,
    ),
    row(
        "CLARIFICATION_RESPONSE",
        Sender::Either,
        Recipient::Unnamed,
        &[Phase::Clarification],
        Some(Phase::ClarificationComplete),
        None,
        None,
    ),
    row(
        "CONTRACT_DRAFT",
        Sender::Only(Role::Planner),
        Recipient::Only(Role::Builder),
        BEFORE_CONTRACT,
        Some(Phase::ContractGeneration),
        Some(Checkpoint::ContractReview),
        Some(Checkpoint::ContractReview),
    ),
    row(
        "CONTRACT_REVISION_REQUESTED",
        Sender::NotBuilder,
        Recipient::Only(Role::Planner),
        &[Phase::ContractGeneration],
        Some(Phase::ContractGeneration),
        None,
        Some(Checkpoint::ContractReview),
    ),
    row(
        "CONTRACT_FINAL",
        Sender::Only(Role::Planner),
        Recipient::Only(Role::Builder),
        BEFORE_CONTRACT,
        Some(Phase::ContractFinalized),
        None,
        Some(Checkpoint::ContractReview),
    ),
    row(
        "BUILD_COMPLETE",
        Sender::Only(Role::Builder),
        Recipient::Only(Role::Planner),
        BUILDING,
        Some(Phase::BuildComplete),
        Some(Checkpoint::ImplementationReview),
        None,
    ),
    row(
        "CHANGE_ORDER",
        Sender::Only(Role::Builder),
        Recipient::Only(Role::Planner),
        BUILDING,
        Some(Phase::BuildBlocked),
        Some(Checkpoint::ChangeOrderReview),
        None,
    ),
    row(
        "CHANGE_ORDER_ACCEPTED",
        Sender::Only(Role::Planner),
        Recipient::Only(Role::Builder),
        &[Phase::BuildBlocked],
        Some(Phase::ContractRevised),
        None,
        Some(Checkpoint::ChangeOrderReview),
    ),
    row(
        "CHANGE_ORDER_REJECTED",
        Sender::Only(Role::Planner),
        Recipient::Only(Role::Builder),
        &[Phase::BuildBlocked],
        Some(Phase::ChangeOrderRejected),
        None,
        Some(Checkpoint::ChangeOrderReview),
    ),
    row(
        "BUILD_REJECTED",
        Sender::Only(Role::Planner),
        Recipient::Only(Role::Builder),
        &[Phase::BuildComplete],
        Some(Phase::BuildRejected),
        None,
        Some(Checkpoint::ImplementationReview),
    ),
    row(
        "SESSION_COMPLETE",
        Sender::Only(Role::Planner),
        Recipient::Only(Role::Builder),
        &[Phase::BuildComplete],
        Some(Phase::Merged),
        None,
        Some(Checkpoint::ImplementationReview),
    ),
    row(
        "SESSION_ABORT",
        Sender::Either,
        Recipient::Partner,
        OPEN,
        Some(Phase::Aborted),
        None,
        None,
    ),
    row(
        "TIMEOUT_WARNING",
        Sender::Either,
        Recipient::Awaited,
        OPEN,
        None,
        None,
        None,
    ),
    row(
        "AUDIT_REPORT",
        Sender::NotBuilder,
        Recipient::Unnamed,
        OPEN,
        None,
        None,
        None,
    ),
];

/// The row of a message type.
#[must_use]
pub fn transition(message_type: &str) -> Option<&'static Transition> {
    TRANSITIONS.iter().find(|t| t.message == message_type)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::FamilyId;

    #[test]
    fn every_pair_message_type_has_one_row() {
        for t in FamilyId::Pair.spec().types {
            let rows = TRANSITIONS.iter().filter(|r| r.message == t.name).count();
            assert_eq!(rows, 1, "{}", t.name);
        }
        assert_eq!(TRANSITIONS.len(), FamilyId::Pair.spec().types.len());
    }

    #[test]
    fn open_phases_are_the_non_terminal_ones() {
        let open: Vec<Phase> = Phase::ALL
            .iter()
            .copied()
            .filter(|p| !p.is_terminal())
            .collect();
        assert_eq!(OPEN, open.as_slice());
    }
}
