//! One message as the message and thread views show it: the core's verdict, its issues, the
//! carried message as labelled values, the body as safe HTML, and where it belongs.

use super::Html;
use serde::{Deserialize, Serialize};
use switchboard_core::protocol::registry::families::pair::Phase;
use switchboard_core::protocol::{FamilyId, IssueCode, Severity};

/// A validation issue, or a rule a message broke.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssueView {
    /// JSON Pointer into the message (empty: the whole message).
    pub path: String,
    /// The issue code.
    pub code: IssueCode,
    /// What is wrong.
    pub message: String,
    /// An error (the message is invalid) or a warning.
    pub severity: Severity,
}

/// A value of a message, labelled for reading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The member's name, for people (`Attempted fixes`).
    pub label: String,
    /// JSON Pointer to it.
    pub path: String,
    /// The value.
    pub value: FieldValue,
    /// Validation issues about it.
    pub issues: Vec<IssueView>,
}

/// A value in a [`Field`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FieldValue {
    /// Text.
    Text(String),
    /// A file or artifact path, an id or a code.
    Code(String),
    /// A number, boolean or null, as written.
    Literal(String),
    /// A required member that is absent.
    Missing,
    /// An array's items.
    List(Vec<Field>),
    /// An object's members.
    Group(Vec<Field>),
}

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// No protocol message: plain Markdown.
    Plain,
    /// A valid protocol message.
    Valid,
    /// An invalid or unrecognized one.
    Invalid,
}

/// Where a message belongs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Belongs {
    /// A Pair session, and the phase after this message.
    Session {
        /// The session id.
        id: String,
        /// The phase after the message.
        phase: Option<Phase>,
    },
    /// An Agent-PO task (`agent/task`) or a droid task.
    Task(String),
}

/// One message, inspected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inspection {
    /// Plain, valid or invalid.
    pub verdict: Verdict,
    /// The family.
    pub family: Option<FamilyId>,
    /// The message type.
    pub message_type: Option<String>,
    /// The version it declares or the family's.
    pub version: Option<String>,
    /// Every validation issue.
    pub issues: Vec<IssueView>,
    /// The carried message as labelled values, each issue beside its field.
    pub fields: Vec<Field>,
    /// The carried message as pretty JSON.
    pub raw: Option<String>,
    /// The body rendered as safe HTML.
    pub html: String,
    /// Its session or task, when the project's traffic is loaded.
    pub belongs: Option<Belongs>,
    /// Secrets were masked in what it shows (fields, raw JSON, body).
    pub masked: bool,
}

/// A message as the engine laid it out ([`Inspection`] written as HTML), and whether it is a
/// Pair message whose session is not known yet (the project's traffic is not read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InspectedMessage {
    /// Badge, session or task, members, raw JSON, body.
    pub html: Html,
    /// Reading the project's traffic would place it in its session.
    pub wants_traffic: bool,
}
