//! The project's review trail, kept in its mail (the core's `evidence::trail`): the next
//! record's place in the chain, a signed record as the message that keeps it, what became of
//! a checkpoint being decided (read back from the mail before a decision is sent, and after a
//! send whose reply was lost), and a session's records as the session view lists them.

use super::traffic::Traffic;
use crate::api::Draft;
use crate::model::{Fate, Html};
use crate::words::when;
use serde_json::Value;
use switchboard_core::evidence::trail::{verify, TrailLine, Verification};
use switchboard_core::fingerprint::Sha256Digest;
use switchboard_core::session::pair::checkpoint::DecisionKind;
use switchboard_core::session::pair::{CheckpointRecord, PairSession};

/// The trail's lines as the mail holds them, in chain order (message id), each once (a
/// record written twice by a retry counts once).
#[must_use]
pub fn text(traffic: &Traffic) -> String {
    let mut seen = std::collections::HashSet::new();
    traffic
        .trail()
        .filter(|line| seen.insert(Sha256Digest::of(line.as_bytes())))
        .fold(String::new(), |mut out, line| {
            out.push_str(line.trim_end());
            out.push('\n');
            out
        })
}

/// The trail checked.
#[must_use]
pub fn checked(traffic: &Traffic) -> (String, Verification) {
    let text = text(traffic);
    let verification = verify(&text, None);
    (text, verification)
}

/// Where the next record goes: the digest of the trail's last line.
#[must_use]
pub fn head(traffic: &Traffic) -> Option<Sha256Digest> {
    checked(traffic).1.head
}

/// `line` chained after the project's trail (its `prev` set to the trail's head).
#[must_use]
pub fn chained(traffic: &Traffic, mut line: TrailLine) -> TrailLine {
    line.prev = head(traffic);
    line
}

/// Whether `env`'s message is `draft` as sent: same sender, subject and body.
fn is_draft(env: &switchboard_core::agent_mail::Envelope, draft: &Draft) -> bool {
    let body: Option<Value> = serde_json::from_str(&draft.body_md).ok();
    env.from == draft.sender
        && env.subject.as_deref() == Some(draft.subject.as_str())
        && env.value().and_then(|v| v.get("body")) == body.as_ref()
}

/// What became of the checkpoint of `session` opened by message `opened` (else the log
/// entry `entry`): still open, closed by one of `sent` (a send whose reply was lost), or
/// closed otherwise — by whom (with the reviewer the trail names), what, when; a checkpoint
/// ended by the builder is a timeout, never a reviewer's decision.
///
/// # Errors
/// No such session.
pub fn fate(
    traffic: &Traffic,
    session: &str,
    opened: Option<u64>,
    entry: usize,
    sent: &[Draft],
) -> Result<Fate, String> {
    let s = traffic
        .book
        .pair
        .get(session)
        .ok_or_else(|| format!("No session {session} in this project."))?;
    let entry = opened.and_then(|id| traffic.entry_of(id)).unwrap_or(entry);
    let Some(record) = s.checkpoints.iter().rev().find(|c| c.opened_entry == entry) else {
        return Ok(Fate::Closed(format!(
            "The checkpoint of {session} this decision was for is no longer in the session."
        )));
    };
    let Some(closed) = record.closed_entry else {
        return Ok(Fate::Open);
    };
    let env = traffic.envelope(closed);
    if let Some((env, id)) = env.and_then(|e| Some((e, e.id?))) {
        if sent.iter().any(|d| is_draft(env, d)) {
            return Ok(Fate::Sent(id));
        }
    }
    let from = env
        .and_then(|e| e.from.clone())
        .unwrap_or_else(|| "?".into());
    let id = env.and_then(|e| e.id);
    let at = record.closed_at.map(|t| format!(" at {}", when(t.0)));
    let message = env
        .and_then(|e| e.subject.clone())
        .map(|subject| match id {
            Some(id) => format!("{subject} (message {id})"),
            None => subject,
        })
        .unwrap_or_default();
    let checkpoint = format!("Checkpoint #{} of {session}", record.checkpoint.number());
    let at = at.unwrap_or_default();
    if ended_by_builder(s, record, &from) {
        return Ok(Fate::Closed(format!(
            "{checkpoint} timed out: {from} sent {message}{at}. No reviewer decided it; nothing was sent."
        )));
    }
    let decision = record.decision.map_or("?", DecisionKind::keyword);
    let reviewer = id
        .and_then(|id| reviewer_of(traffic, id))
        .map(|r| format!(" (reviewer {r})"))
        .unwrap_or_default();
    Ok(Fate::Closed(format!(
        "{checkpoint} was decided elsewhere: {decision}, sent by {from}{reviewer} as {message}{at}. \
         Your decision was not sent; its text is kept below."
    )))
}

/// The drafts kept for checkpoints no longer open (the others are skipped), each with what
/// became of its checkpoint, as HTML.
#[must_use]
pub fn kept(traffic: &Traffic, drafts: &[(String, String)]) -> Html {
    let closed: Vec<(&str, String, u8, &str, String)> = drafts
        .iter()
        .filter_map(|(name, text)| {
            // `…|session|checkpoint|opened`, the session percent-encoded.
            let mut parts = name.rsplitn(4, '|');
            let opened: u64 = parts.next()?.parse().ok()?;
            let checkpoint: u8 = parts.next()?.parse().ok()?;
            let session = crate::percent::decode(parts.next()?);
            let words = match fate(traffic, &session, Some(opened), usize::MAX, &[]) {
                Ok(Fate::Open) => return None,
                Ok(Fate::Closed(words)) | Err(words) => words,
                Ok(Fate::Sent(_)) => "Its checkpoint is no longer open.".to_owned(),
            };
            Some((name.as_str(), session, checkpoint, text.as_str(), words))
        })
        .collect();
    super::html::trail::kept(&closed)
}

/// The reviewer the trail names for the decision sent as message `id`.
fn reviewer_of(traffic: &Traffic, id: u64) -> Option<String> {
    traffic
        .trail()
        .filter_map(|line| TrailLine::parse(line).ok())
        .find(|line| line.record.sent.iter().any(|s| s.server_id == Some(id)))
        .map(|line| line.record.reviewer)
}

/// Whether a checkpoint closed by a message from `from` timed out: the session was aborted
/// by someone other than the planner (the console decides as the planner), i.e. the builder
/// after its warnings.
fn ended_by_builder(s: &PairSession, record: &CheckpointRecord, from: &str) -> bool {
    record.decision == Some(DecisionKind::Abort) && s.planner.as_deref() != Some(from)
}

/// A checkpoint of the session that timed out: the builder ended it (number, in words).
pub struct TimedOut {
    /// The checkpoint's number.
    pub checkpoint: u8,
    /// What ended it, in words.
    pub words: String,
}

/// The session's checkpoints the builder ended (a timeout, never a reviewer's decision).
fn timed_out(traffic: &Traffic, session: &str) -> Vec<TimedOut> {
    let Some(s) = traffic.book.pair.get(session) else {
        return Vec::new();
    };
    s.checkpoints
        .iter()
        .filter_map(|c| {
            let env = traffic.envelope(c.closed_entry?)?;
            let from = env.from.clone()?;
            ended_by_builder(s, c, &from).then(|| TimedOut {
                checkpoint: c.checkpoint.number(),
                words: format!(
                    "{from} sent {}{}{}",
                    env.subject.clone().unwrap_or_default(),
                    env.id
                        .map(|id| format!(" (message {id})"))
                        .unwrap_or_default(),
                    c.closed_at
                        .map(|t| format!(" at {}", when(t.0)))
                        .unwrap_or_default()
                ),
            })
        })
        .collect()
}

/// A session's records, each checked, its checkpoints that timed out, the project trail's
/// verdict and its export.
#[must_use]
pub fn page(traffic: &Traffic, project: &str, session: &str) -> Html {
    let (text, verification) = checked(traffic);
    let timeouts = timed_out(traffic, session);
    super::html::trail::records(&text, &verification, &timeouts, project, session)
}
