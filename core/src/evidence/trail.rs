//! A project's review trail: its review records ([`ReviewRecord`]) as JSON Lines, each line
//! holding the SHA-256 of the line before it (one hash chain per project) and signed with its
//! reviewer's Ed25519 key, whose public half is in the line. The console keeps the trail in
//! the project's Agent Mail, as messages the trail's own agent ([`TRAIL_AGENT`]) sends itself
//! (no working agent receives them; Agent Mail keeps them in its Git-backed archive), so every
//! browser connected to the server reads the same trail. [`verify`] checks a trail: the chain,
//! the signatures, and that each APPROVED record's fingerprints are those of the
//! CONTRACT_FINAL it sent (`switchboard records verify`, and the npm package's
//! `verifyRecords`).
//!
//! What is signed is the line without its signature, as [`TrailLine::signed_bytes`] writes it
//! (serde's field order; a re-formatted line is read back to the same bytes). A chain cannot
//! tell a trail whose last records were cut off: give the head the console shows (`--head`).

use super::needs::Role;
use super::record::{Outcome, ReviewRecord};
use crate::agent_mail::{Draft, Importance};
use crate::fingerprint::{ContractPath, Fingerprints, Sha256Digest};
use crate::session::pair::checkpoint::DecisionKind;
use ed25519_dalek::{Signature, VerifyingKey};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The agent whose mailbox holds the trail: it sends each record to itself. Agent Mail 0.2.1
/// takes only names from its adjective and noun lists (any other is silently replaced by a
/// random one); the console refuses to write the trail as an agent of that name that another
/// program registered.
pub const TRAIL_AGENT: &str = "QuietLantern";

/// The program the trail's agent is registered with.
pub const TRAIL_PROGRAM: &str = "switchboard";

/// The subject of a trail message: this, then the session, checkpoint and decision.
pub const SUBJECT: &str = "Switchboard review record";

/// One line of a trail: a record, the digest of the line before it, the reviewer's public
/// key and signature (both as lowercase hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrailLine {
    /// The record.
    pub record: ReviewRecord,
    /// The SHA-256 of the project's previous line (`None`: the first).
    pub prev: Option<Sha256Digest>,
    /// The reviewer's Ed25519 public key (32 bytes, raw, as 64 hex digits).
    pub public_key: String,
    /// The Ed25519 signature of [`TrailLine::signed_bytes`] (64 bytes, as 128 hex digits).
    pub signature: String,
}

/// What is signed: the line without its signature.
#[derive(Serialize)]
struct Signed<'a> {
    record: &'a ReviewRecord,
    prev: &'a Option<Sha256Digest>,
    public_key: &'a str,
}

impl TrailLine {
    /// An unsigned line for `record` after the line whose digest is `prev`.
    #[must_use]
    pub fn new(record: ReviewRecord, prev: Option<Sha256Digest>, public_key: String) -> TrailLine {
        TrailLine {
            record,
            prev,
            public_key,
            signature: String::new(),
        }
    }

    /// The text the reviewer signs (its UTF-8 bytes): the line without its signature.
    #[must_use]
    pub fn signed_text(&self) -> String {
        let signed = Signed {
            record: &self.record,
            prev: &self.prev,
            public_key: &self.public_key,
        };
        serde_json::to_string(&signed).unwrap_or_default()
    }

    /// The bytes the reviewer signs ([`TrailLine::signed_text`]).
    #[must_use]
    pub fn signed_bytes(&self) -> Vec<u8> {
        self.signed_text().into_bytes()
    }

    /// The line as it is kept (one JSON object, no line break inside).
    #[must_use]
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The SHA-256 of [`TrailLine::line`]: what the next line's `prev` holds.
    #[must_use]
    pub fn digest(&self) -> Sha256Digest {
        Sha256Digest::of(self.line().as_bytes())
    }

    /// Reads a line.
    ///
    /// # Errors
    /// The text is not a trail line, in serde's words.
    pub fn parse(line: &str) -> Result<TrailLine, String> {
        serde_json::from_str(line).map_err(|e| e.to_string())
    }

    /// Whether the signature is the public key's over the signed bytes.
    ///
    /// # Errors
    /// The key or signature is not hex of the right length, the key is no Ed25519 point, or
    /// the signature does not verify; in words.
    pub fn check_signature(&self) -> Result<(), String> {
        let key = hex_bytes::<32>(&self.public_key)
            .ok_or("the public key is not 64 lowercase hex digits")?;
        let signature = hex_bytes::<64>(&self.signature)
            .ok_or("the signature is not 128 lowercase hex digits")?;
        let key = VerifyingKey::from_bytes(&key)
            .map_err(|_| "the public key is not an Ed25519 key".to_owned())?;
        key.verify_strict(&self.signed_bytes(), &Signature::from_bytes(&signature))
            .map_err(|_| "the signature does not match the record".to_owned())
    }

    /// The message that keeps the line in the project's mail: from the trail's agent to
    /// itself, in the session's thread of trail messages.
    #[must_use]
    pub fn draft(&self) -> Draft {
        let r = &self.record;
        let what = match &r.outcome {
            Outcome::TimedOut { .. } => "timed out".to_owned(),
            Outcome::Override { .. } => format!("{} (override)", r.decision),
            Outcome::Decided => r.decision.clone(),
        };
        Draft {
            sender: Some(TRAIL_AGENT.to_owned()),
            to: vec![TRAIL_AGENT.to_owned()],
            subject: cut(&format!(
                "{SUBJECT}: {} #{} {what}",
                r.session,
                r.checkpoint.number()
            )),
            body_md: self.line(),
            thread_id: None,
            importance: Importance::Low,
            ack_required: false,
        }
    }
}

/// A subject short enough for every server (Agent Mail cuts at 200 characters).
fn cut(subject: &str) -> String {
    subject.chars().take(160).collect()
}

/// Whether a message is a trail line: sent by the trail's agent, under its subject.
#[must_use]
pub fn is_trail_message(from: &str, subject: &str) -> bool {
    from == TRAIL_AGENT && subject.starts_with(SUBJECT)
}

/// Lowercase hex of bytes (a key or signature as a line holds it).
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// The bytes of `N`-byte lowercase hex, as [`hex`] writes them. Only that form reads: the
/// line keeps the text it was signed with, so an uppercased digit is an edit, not the same line.
fn hex_bytes<const N: usize>(hex: &str) -> Option<[u8; N]> {
    let digits = hex.as_bytes();
    if digits.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        out[i] = lower_hex_digit(pair[0])? << 4 | lower_hex_digit(pair[1])?;
    }
    Some(out)
}

/// The value of one lowercase hex digit.
fn lower_hex_digit(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        _ => None,
    }
}

/// What is wrong with a line of a trail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    /// The line is not a trail line.
    NotARecord,
    /// Its `prev` is not the digest of the line before it (a line edited, removed or
    /// reordered before it).
    ChainBroken,
    /// Its signature does not verify (the line was edited after signing).
    BadSignature,
    /// An APPROVED record whose tests' fingerprints are not those its CONTRACT_FINAL carried.
    FingerprintsDiffer,
    /// A record of another project than the trail's first.
    OtherProject,
    /// The trail does not end at the head given.
    HeadMismatch,
}

impl ProblemCode {
    /// Its name as it serializes (`chain_broken`, …).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ProblemCode::NotARecord => "not_a_record",
            ProblemCode::ChainBroken => "chain_broken",
            ProblemCode::BadSignature => "bad_signature",
            ProblemCode::FingerprintsDiffer => "fingerprints_differ",
            ProblemCode::OtherProject => "other_project",
            ProblemCode::HeadMismatch => "head_mismatch",
        }
    }
}

/// A problem, at a line (1-based; 0: the trail as a whole).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The line.
    pub line: usize,
    /// What kind.
    pub code: ProblemCode,
    /// In words.
    pub message: String,
}

/// A trail checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verification {
    /// No problem found.
    pub valid: bool,
    /// Lines read (blank lines are skipped).
    pub records: usize,
    /// The digest of the last line: what the next record will chain to.
    pub head: Option<Sha256Digest>,
    /// Every problem, in line order.
    pub problems: Vec<Problem>,
}

/// Checks a trail (JSON Lines, in chain order): every line parses, chains to the one before,
/// is signed by the key it names, and an APPROVED record's fingerprints are its
/// CONTRACT_FINAL's; all of one project; and, with `head`, that the trail ends there.
#[must_use]
pub fn verify(text: &str, head: Option<Sha256Digest>) -> Verification {
    let mut problems = Vec::new();
    let mut prev: Option<Sha256Digest> = None;
    let mut project: Option<String> = None;
    let mut records = 0;
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    for (index, text) in lines {
        records += 1;
        let line = index + 1;
        let mut problem = |code, message: String| {
            problems.push(Problem {
                line,
                code,
                message,
            });
        };
        let parsed = match TrailLine::parse(text) {
            Ok(parsed) => parsed,
            Err(why) => {
                problem(
                    ProblemCode::NotARecord,
                    format!("not a review record: {why}"),
                );
                prev = Some(Sha256Digest::of(text.as_bytes()));
                continue;
            }
        };
        if parsed.prev != prev {
            let expected = prev.map_or("none (the first record)".to_owned(), |d| d.to_string());
            problem(
                ProblemCode::ChainBroken,
                format!(
                    "names {} as the previous record's SHA-256, not {expected}: a record before \
                     it was edited, removed or reordered",
                    parsed.prev.map_or("none".to_owned(), |d| d.to_string())
                ),
            );
        }
        if let Err(why) = parsed.check_signature() {
            problem(ProblemCode::BadSignature, why);
        }
        if let Err(why) = approved_fingerprints(&parsed.record) {
            problem(ProblemCode::FingerprintsDiffer, why);
        }
        match &project {
            None => project = Some(parsed.record.project.clone()),
            Some(first) if *first != parsed.record.project => problem(
                ProblemCode::OtherProject,
                format!(
                    "a record of project {}, in the trail of {first}",
                    parsed.record.project
                ),
            ),
            Some(_) => {}
        }
        prev = Some(parsed.digest());
    }
    if let Some(expected) = head.filter(|h| Some(*h) != prev) {
        problems.push(Problem {
            line: 0,
            code: ProblemCode::HeadMismatch,
            message: format!(
                "the trail ends at {}, not at the head {expected}: records were cut off or added",
                prev.map_or("no record".to_owned(), |d| d.to_string())
            ),
        });
    }
    Verification {
        valid: problems.is_empty(),
        records,
        head: prev,
        problems,
    }
}

/// An APPROVED record sent a CONTRACT_FINAL whose `test_fingerprints` are exactly the tests
/// the record shows read. A record that read no test (approved over missing evidence, an
/// override) has nothing to compare.
fn approved_fingerprints(record: &ReviewRecord) -> Result<(), String> {
    if !record
        .decision
        .trim()
        .eq_ignore_ascii_case(DecisionKind::Approved.keyword())
    {
        return Ok(());
    }
    let mut shown = Fingerprints::default();
    for artifact in record.artifacts.iter().filter(|a| a.role == Role::Tests) {
        if let (Some(digest), Ok(path)) =
            (artifact.sha256, ContractPath::parse(artifact.path.as_str()))
        {
            let _ = shown.insert_digest(path, digest);
        }
    }
    if shown.is_empty() && matches!(record.outcome, Outcome::Override { .. }) {
        return Ok(());
    }
    let final_ = record
        .sent
        .iter()
        .find(|s| s.subject == "CONTRACT_FINAL")
        .ok_or("an APPROVED record that sent no CONTRACT_FINAL")?;
    let body: serde_json::Value = serde_json::from_str(&final_.body_md)
        .map_err(|e| format!("its CONTRACT_FINAL's body is not JSON: {e}"))?;
    let carried = match body.get("test_fingerprints") {
        Some(value) => Fingerprints::from_value(value)
            .map_err(|e| format!("its CONTRACT_FINAL's test_fingerprints: {e}"))?,
        None => Fingerprints::default(),
    };
    if carried == shown {
        return Ok(());
    }
    let list = |f: &Fingerprints| {
        let items: Vec<String> = f.iter().map(|(p, d)| format!("{p} {d}")).collect();
        if items.is_empty() {
            "none".to_owned()
        } else {
            items.join(", ")
        }
    };
    Err(format!(
        "the tests shown ({}) are not those its CONTRACT_FINAL carried ({})",
        list(&shown),
        list(&carried)
    ))
}

#[cfg(test)]
#[path = "trail_tests.rs"]
mod tests;
