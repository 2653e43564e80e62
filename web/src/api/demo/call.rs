//! The demo server's calls: one per [`Backend`](crate::api::Backend) method, plus the
//! contracts its sessions were audited with, each with the type of its answer
//! ([`DemoAsk::Answer`]). The demo server runs in the engine worker; these calls reach it
//! as the engine's requests (`crate::ask`).

use crate::api::{
    Agent, BackendError, CheckpointDecision, Contact, Draft, MailRow, Project, Reservation,
    SearchHit, UnifiedRow,
};
use crate::model::evidence::FileRead;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::rc::Rc;
use switchboard_core::evidence::path::FolderPath;

/// A call to the demo server, and the type of its answer.
pub trait DemoAsk {
    /// What the demo server answers when the call succeeds.
    type Answer: 'static;
    /// The call in the closed set the server receives.
    fn call(self) -> DemoCall;
    /// The answer as it crosses.
    fn wrap(answer: Self::Answer) -> DemoAnswer;
}

/// Declares the calls: a struct each (its fields), its answer, and the [`DemoCall`] variant
/// of the same name.
macro_rules! calls {
    ($(
        $(#[$doc:meta])*
        $name:ident { $($(#[$field_doc:meta])* $field:ident: $ty:ty),* $(,)? } -> $answer:ty;
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
            pub struct $name { $($(#[$field_doc])* pub $field: $ty),* }

            impl DemoAsk for $name {
                type Answer = $answer;
                fn call(self) -> DemoCall {
                    DemoCall::$name(self)
                }
                fn wrap(answer: $answer) -> DemoAnswer {
                    DemoAnswer::$name(answer)
                }
            }
        )*

        /// Every call the demo server answers.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        pub enum DemoCall {
            $($(#[$doc])* $name($name),)*
        }

        /// Every successful answer of the demo server, as it crosses: the answer of the call
        /// of the same name.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        pub enum DemoAnswer {
            $(
                #[doc = concat!("[`", stringify!($name), "`]'s answer.")]
                $name($answer),
            )*
        }

        impl DemoAnswer {
            /// The answer as the type its call declares, erased.
            #[must_use]
            pub fn erase(self) -> Rc<dyn Any> {
                match self {
                    $(DemoAnswer::$name(answer) => Rc::new(answer),)*
                }
            }
        }
    };
}

calls! {
    /// The projects ([`Backend::projects`](crate::api::Backend::projects)).
    Projects {} -> Vec<Project>;
    /// A project's agents.
    Agents {
        /// Project.
        project: String,
    } -> Vec<Agent>;
    /// An agent's inbox rows.
    Inbox {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    } -> Vec<MailRow>;
    /// An agent's outbox rows.
    Outbox {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    } -> Vec<MailRow>;
    /// An agent's contacts.
    Contacts {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    } -> Vec<Contact>;
    /// The ids an agent acknowledged.
    Acked {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
    } -> Vec<u64>;
    /// One message with its body.
    Message {
        /// Project.
        project: String,
        /// Whose view.
        agent: Option<String>,
        /// Message id.
        id: u64,
    } -> MailRow;
    /// Acknowledges a message.
    Acknowledge {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
        /// Message id.
        id: u64,
    } -> ();
    /// Marks a message read.
    MarkRead {
        /// Project.
        project: String,
        /// Agent.
        agent: String,
        /// Message id.
        id: u64,
    } -> ();
    /// Replies in a message's thread, at the demo's time `now_ms`; the new message's id.
    Reply {
        /// Project.
        project: String,
        /// Replying agent.
        agent: String,
        /// Message replied to.
        id: u64,
        /// Body.
        body_md: String,
        /// The demo's time.
        now_ms: i64,
    } -> u64;
    /// Sends a new message at the demo's time `now_ms`; its id.
    Send {
        /// Project.
        project: String,
        /// The message.
        draft: Draft,
        /// The demo's time.
        now_ms: i64,
    } -> u64;
    /// Decides at an open checkpoint and sends the messages the decision implies, at the
    /// demo's time `now_ms`, in one call; their ids.
    Decide {
        /// Project.
        project: String,
        /// The decision.
        decision: CheckpointDecision,
        /// The demo's time.
        now_ms: i64,
    } -> Vec<u64>;
    /// Full-text search.
    Search {
        /// Project.
        project: String,
        /// Query.
        query: String,
    } -> Vec<SearchHit>;
    /// A project's file reservations.
    Reservations {
        /// Project.
        project: String,
    } -> Vec<Reservation>;
    /// Releases a reservation as its holder.
    Release {
        /// Project.
        project: String,
        /// Holder.
        agent: String,
        /// Reservation id.
        id: u64,
    } -> ();
    /// The operator's unified inbox.
    Unified {} -> Vec<UnifiedRow>;
    /// A project's traffic, newer than `since` when given.
    Traffic {
        /// Project.
        project: String,
        /// Only messages sent after this `created_ts`.
        since: Option<String>,
    } -> Vec<MailRow>;
    /// The contract files and the builder's diff a demo session was audited with, if any.
    Contract {
        /// The session's thread.
        thread: String,
    } -> Option<(Vec<(String, String)>, String)>;
    /// A file of the demo's virtual project folder ([`crate::api::demo::folder`]).
    ReadFile {
        /// Project.
        project: String,
        /// The file, from the folder's root.
        path: FolderPath,
    } -> FileRead;
    /// The names in a directory of the demo's folder (`""`: its root), or why there are none.
    ListDir {
        /// Project.
        project: String,
        /// The directory, from the folder's root.
        dir: String,
    } -> Result<Vec<String>, String>;
}

/// What the server answers a call: its answer, or the error a server would give.
pub type DemoResult<Q> = Result<<Q as DemoAsk>::Answer, BackendError>;
