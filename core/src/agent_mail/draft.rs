//! [`Draft`]: a message ready to send over Agent Mail, as `send_message` takes it.

use crate::protocol::builders::pair::PairMessage;
use serde::{Deserialize, Serialize};

/// An Agent Mail message's importance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Importance {
    /// Low.
    Low,
    /// Normal (the servers' default).
    #[default]
    Normal,
    /// High.
    High,
    /// Urgent.
    Urgent,
}

impl Importance {
    /// Every importance, least first.
    pub const ALL: [Importance; 4] = [
        Importance::Low,
        Importance::Normal,
        Importance::High,
        Importance::Urgent,
    ];

    /// The importance a wire name (`low`, `normal`, `high`, `urgent`) names.
    #[must_use]
    pub fn parse(name: &str) -> Option<Importance> {
        Importance::ALL.into_iter().find(|i| i.as_str() == name)
    }

    /// The wire name (`low`, `normal`, `high`, `urgent`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Importance::Low => "low",
            Importance::Normal => "normal",
            Importance::High => "high",
            Importance::Urgent => "urgent",
        }
    }
}

/// A message ready to send: sender, recipients, subject, Markdown body, thread, importance
/// and whether recipients must acknowledge it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Draft {
    /// The sending agent; `None` sends as the human overseer (operator mode).
    pub sender: Option<String>,
    /// The recipients.
    pub to: Vec<String>,
    /// The subject.
    pub subject: String,
    /// The Markdown body.
    pub body_md: String,
    /// The thread to continue, if any.
    pub thread_id: Option<String>,
    /// Its importance.
    pub importance: Importance,
    /// Whether the recipients must acknowledge it.
    pub ack_required: bool,
}

impl Draft {
    /// A Pair message as Agent Mail carries it (subject = type, `body_md` = the body's JSON),
    /// in `thread_id`, sent by its `from`.
    #[must_use]
    pub fn pair(
        message: &PairMessage,
        thread_id: Option<&str>,
        importance: Importance,
        ack_required: bool,
    ) -> Draft {
        Draft {
            sender: Some(message.from.clone()),
            to: vec![message.to.clone()],
            subject: message.subject.to_owned(),
            body_md: message.body_md(),
            thread_id: thread_id.map(str::to_owned),
            importance,
            ack_required,
        }
    }
}
