//! What the UI asks the engine: one type per question, each with the type of its answer
//! ([`Ask::Answer`]). The UI sends a [`Request`] (the question in a closed set) and reads the
//! answer as the question's own type, so there is no reply of another kind to handle. Both
//! modules compile this file; requests and answers cross the worker boundary as postcard
//! bytes ([`crate::link`]).
//!
//! On the wire an answer is `Result<Answer, String>`: the `Err` says why the engine could not
//! answer (the project's traffic is not loaded, the request was not understood, the input
//! was refused) in words for the reviewer. [`Answer`] is the codec's closed set: the engine
//! writes a question's answer through the question ([`encode`]), and the UI reads it back as
//! the question's type ([`decode`], [`answer_of`]); no caller matches on it.

use crate::api::demo::call::{DemoAnswer, DemoAsk, DemoCall};
use crate::api::{BackendError, CheckpointDecision, Draft, MailRow};
use crate::model::{
    AuditRun, CheckpointCard, Coverage, EvidencePage, Fate, FileRead, Html, InspectedMessage,
    ReadPlan, SessionList, SessionPage, TrafficKey, TrafficSummary,
};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::rc::Rc;
use switchboard_core::evidence::path::FolderPath;
use switchboard_core::evidence::trail::TrailLine;

/// A question to the engine, and the type of its answer.
pub trait Ask {
    /// What the engine answers.
    type Answer: 'static;
    /// The question as the engine receives it.
    fn request(self) -> Request;
    /// The answer as it crosses.
    fn wrap(answer: Self::Answer) -> Answer;
}

/// Every question the engine answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// [`Redact`].
    Redact(Redact),
    /// [`Inspect`].
    Inspect(Inspect),
    /// [`Load`].
    Load(Load),
    /// [`Sessions`].
    Sessions(Sessions),
    /// [`Session`].
    Session(Session),
    /// [`Checkpoints`].
    Checkpoints(Checkpoints),
    /// [`Queue`].
    Queue(Queue),
    /// [`Drafts`].
    Drafts(Drafts),
    /// [`Audits`].
    Audits(Audits),
    /// [`RunAudit`].
    RunAudit(RunAudit),
    /// [`TaskBoards`].
    TaskBoards(TaskBoards),
    /// [`Conformance`].
    Conformance(Conformance),
    /// [`EvidenceNeeds`].
    EvidenceNeeds(EvidenceNeeds),
    /// [`Evidence`].
    Evidence(Evidence),
    /// [`CheckpointFate`].
    CheckpointFate(CheckpointFate),
    /// [`ToSign`].
    ToSign(ToSign),
    /// [`Seal`].
    Seal(Seal),
    /// [`Trail`].
    Trail(Trail),
    /// [`KeptDrafts`].
    KeptDrafts(KeptDrafts),
    /// A call to the demo server ([`DemoAsk`]).
    Demo(DemoCall),
}

/// Texts from mail as a view shows them, each secret masked (seed 004, Security 4): the
/// answer holds, in order, each text's masked form where it holds a secret (`None`: none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redact(pub Vec<String>);

/// Validates one message and lays out what it carries; names its session or task when the
/// project's traffic is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inspect {
    /// The project.
    pub key: TrafficKey,
    /// The message.
    pub message: MailRow,
    /// Show its secrets (else masked).
    pub reveal: bool,
    /// With its members and raw JSON (else badge, session and body).
    pub full: bool,
}

/// Adds a page of messages to a project's traffic (`reset`: replaces what was loaded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Load {
    /// The project.
    pub key: TrafficKey,
    /// The messages (any order; a message already loaded gains the recipients and the
    /// acknowledgement given here).
    pub rows: Vec<MailRow>,
    /// Forget what was loaded before.
    pub reset: bool,
    /// How much of the project's mail is held with this page.
    pub coverage: Coverage,
    /// The page is the mail sent after the newest held (a later visit's read): refused as a
    /// mismatch when it does not continue what is held.
    pub newer: bool,
    /// The messages still waiting for an acknowledgement, when known: every other message
    /// held that asks for one is acknowledged.
    pub pending: Option<Vec<u64>>,
    /// The agents registered on the server (`None`: unknown): sessions, boards and the
    /// conformance report then flag mail from or to any other name (`INVALID_AGENT`).
    pub agents: Option<Vec<String>>,
}

/// Every Pair session at `now_ms`, as a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sessions {
    /// The project.
    pub key: TrafficKey,
    /// The time.
    pub now_ms: i64,
    /// Show secrets (else masked).
    pub reveal: bool,
    /// Every row (else the first [`crate::model::sessions::FIRST_ROWS`]).
    pub all: bool,
}

/// One Pair session in full (`None`: no such session).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The project.
    pub key: TrafficKey,
    /// The session id.
    pub id: String,
    /// The time.
    pub now_ms: i64,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// The open human checkpoints across sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoints {
    /// The project.
    pub key: TrafficKey,
    /// The time.
    pub now_ms: i64,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// The open human checkpoints of every project held (the server's queue), oldest first, as
/// HTML.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Queue {
    /// The projects.
    pub keys: Vec<TrafficKey>,
    /// The time.
    pub now_ms: i64,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// The messages a reviewer's decision at an open checkpoint sends, ready to send (refused
/// when that checkpoint is no longer open as the view showed it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drafts {
    /// The project.
    pub key: TrafficKey,
    /// The decision.
    pub decision: CheckpointDecision,
}

/// The audit reports carried in the project's mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Audits {
    /// The project.
    pub key: TrafficKey,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// Audits a diff against a contract, in the browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunAudit {
    /// The project the report's links lead into.
    pub key: TrafficKey,
    /// The diff and the contract.
    pub run: AuditRun,
    /// Show secrets the findings quote (else masked).
    pub reveal: bool,
}

/// The task boards at `now_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskBoards {
    /// The project.
    pub key: TrafficKey,
    /// The time.
    pub now_ms: i64,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// What to read from the folder for a session's evidence (the core's `evidence::needs`):
/// the files its messages name, and directories to list; given their `listings`, the diffs
/// and manifests found in them too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceNeeds {
    /// The project.
    pub key: TrafficKey,
    /// The session.
    pub session: String,
    /// Directories listed so far: the directory and its names.
    pub listings: Vec<(String, Vec<String>)>,
}

/// A session's evidence laid out from what the page read of its folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// The project.
    pub key: TrafficKey,
    /// The session.
    pub session: String,
    /// Each file read, as read.
    pub files: Vec<(FolderPath, FileRead)>,
    /// The directories listed ([`EvidenceNeeds::listings`]).
    pub listings: Vec<(String, Vec<String>)>,
    /// Texts known from earlier reads (a contract's tests as approved), so a changed file can
    /// show the lines that differ.
    pub baselines: Vec<String>,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// What became of a checkpoint a reviewer is deciding, read back from the project's mail
/// (the UI reads the newest mail first): still open, closed by the decision being sent (a
/// send whose reply was lost), or decided elsewhere or timed out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointFate {
    /// The project.
    pub key: TrafficKey,
    /// The session.
    pub session: String,
    /// The message that opened the checkpoint.
    pub opened: Option<u64>,
    /// Its log position, when no message id is known.
    pub entry: usize,
    /// The messages the decision sends.
    pub sent: Vec<Draft>,
}

/// The text a reviewer signs for a record (JSON is written in the engine, so the main module
/// carries no JSON codec for records): the record chained after the project's trail, without
/// its signature. The engine keeps the line until [`Seal`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToSign {
    /// The project.
    pub key: TrafficKey,
    /// The record, unsigned (its `prev` is set by the engine).
    pub line: TrailLine,
}

/// The line [`ToSign`] answered, signed (the signature as hex), as the message that keeps it
/// in the project's mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seal(pub String);

/// A session's records in the project's review trail, each checked, with the trail's export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trail {
    /// The project.
    pub key: TrafficKey,
    /// The session.
    pub session: String,
}

/// The decisions this browser keeps for the project's checkpoints that are no longer open,
/// each with what became of its checkpoint, written as HTML (a Discard button per draft,
/// `data-discard` naming it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptDrafts {
    /// The project.
    pub key: TrafficKey,
    /// Each kept draft: its name in storage (`switchboard.draft|server|project|session|
    /// checkpoint|opened`, parts percent-encoded) and its text.
    pub drafts: Vec<(String, String)>,
}

/// Each agent's conformance to the protocols (the core's conformance report), failing
/// agents first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conformance {
    /// The project.
    pub key: TrafficKey,
    /// Show secrets (else masked).
    pub reveal: bool,
}

/// Declares each question's answer type, its [`Request`] variant and its [`Answer`]
/// variant (both of the question's name).
macro_rules! answers {
    ($($question:ident => $answer:ty;)*) => {
        /// Every answer as it crosses the worker boundary: the answer of the question of the
        /// same name, or the demo server's. Only [`decode`] reads it, into the question's own
        /// answer type.
        // Decoded once and then erased (moved, never stored): its size does not matter.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum Answer {
            $(
                #[doc = concat!("[`", stringify!($question), "`]'s answer.")]
                $question($answer),
            )*
            /// A demo server call's answer ([`DemoAsk`]).
            Demo(Result<DemoAnswer, BackendError>),
        }

        $(
            impl Ask for $question {
                type Answer = $answer;
                fn request(self) -> Request {
                    Request::$question(self)
                }
                fn wrap(answer: $answer) -> Answer {
                    Answer::$question(answer)
                }
            }
        )*

        impl Answer {
            /// The answer as the type its question declares, erased.
            fn erase(self) -> Result<Rc<dyn Any>, Refusal> {
                match self {
                    $(Answer::$question(answer) => Ok(Rc::new(answer)),)*
                    Answer::Demo(Ok(answer)) => Ok(answer.erase()),
                    Answer::Demo(Err(error)) => Err(Refusal::Demo(error)),
                }
            }
        }
    };
}

answers! {
    Redact => Vec<Option<String>>;
    Inspect => InspectedMessage;
    Load => TrafficSummary;
    Sessions => SessionList;
    Session => Option<SessionPage>;
    Checkpoints => Vec<CheckpointCard>;
    Queue => Html;
    Drafts => Vec<Draft>;
    Audits => Html;
    RunAudit => Html;
    TaskBoards => Html;
    Conformance => Html;
    EvidenceNeeds => ReadPlan;
    Evidence => EvidencePage;
    CheckpointFate => Fate;
    ToSign => String;
    Seal => Draft;
    Trail => Html;
    KeptDrafts => Html;
}

/// Why a question has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The engine could not answer (why, for the reviewer).
    Engine(String),
    /// The demo server's error for a call.
    Demo(BackendError),
}

impl From<Refusal> for BackendError {
    #[inline(never)]
    fn from(refusal: Refusal) -> BackendError {
        match refusal {
            Refusal::Engine(why) => BackendError::Engine(why),
            Refusal::Demo(error) => error,
        }
    }
}

/// Question `Q`'s answer as it crosses: `Ok` the answer, `Err` why there is none.
#[must_use]
pub fn encode<Q: Ask>(answer: Result<Q::Answer, String>) -> Vec<u8> {
    write(&answer.map(Q::wrap))
}

/// A demo server call's answer as it crosses.
#[must_use]
pub fn encode_demo<Q: DemoAsk>(answer: Result<Q::Answer, BackendError>) -> Vec<u8> {
    write(&Ok(Answer::Demo(answer.map(Q::wrap))))
}

/// Writes an answer (postcard writes every type of the model).
fn write(answer: &Result<Answer, String>) -> Vec<u8> {
    postcard::to_allocvec(answer).unwrap_or_default()
}

/// Reads an answer (of any question) from what [`encode`] or [`encode_demo`] wrote, erased:
/// [`answer_of`] hands it back as its question's type.
///
/// # Errors
/// The engine's refusal, the demo server's error, or bytes that are not an answer.
pub fn decode(bytes: &[u8]) -> Result<Rc<dyn Any>, Refusal> {
    match postcard::from_bytes::<Result<Answer, String>>(bytes) {
        Ok(Ok(answer)) => answer.erase(),
        Ok(Err(why)) => Err(Refusal::Engine(why)),
        Err(e) => Err(Refusal::Engine(format!(
            "The engine's answer was not understood: {e}"
        ))),
    }
}

/// A decoded answer as the type `T` its question declares.
///
/// # Errors
/// An answer of another type (the engine answers each question with its own type, so only
/// bytes that are no answer to this question get here).
pub fn answer_of<T: 'static>(answer: Rc<dyn Any>) -> Result<T, Refusal> {
    match answer.downcast::<T>().ok().and_then(Rc::into_inner) {
        Some(answer) => Ok(answer),
        None => Err(not_understood()),
    }
}

/// The refusal of an answer of another type than its question's.
#[inline(never)]
fn not_understood() -> Refusal {
    Refusal::Engine("The engine's answer was not understood.".into())
}
