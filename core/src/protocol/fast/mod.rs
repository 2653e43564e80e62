//! The validation path from bytes that builds no [`serde_json::Value`]: one pass of a small
//! tokenizer ([`scan`]) drives registry-driven checks that detect the family and type as they
//! go and check each member against its rule, keeping nothing but the few members detection
//! and the cross-field rules read.
//!
//! It only answers "is this message clean — valid with no issue at all — and as what?".
//! Anything else (an error, a lenient-mode warning, text the tokenizer leaves to
//! `serde_json`) makes it give up, and [`super::validate_slice`] explains the message with the
//! validator every path shares, over the [`tree`] the same tokenizer reads (or a parsed
//! `Value` where the tree gives up), so reports are the full path's by construction. Strict
//! and lenient mode agree on which messages are clean (a deviation is an error or a warning,
//! an issue either way), so this path runs strict.
//!
//! A pass that fails hands on where the root members it had checked clean end
//! ([`CleanPrefix`]): the tree leaves those unread (the validator has nothing to say about
//! them) unless detection, a cross-field rule or the version reads them, so a message that
//! fails late is not read twice in full.
//!
//! - The tokenizer accepts a subset of the JSON `serde_json` accepts (see [`scan`]); values no
//!   rule covers are still read in full, so a message it answers is one the parser reads.
//! - Members come in any order. Until detection has an answer, the members are held (a
//!   scalar as it was seen, an array or object as where it starts) and checked once it has,
//!   the compound ones read again. More members than are held before the answer, or a later
//!   member that changes the answer, make a second pass check the message as the answer.
//! - An Agent Mail row (`body_md`) is followed into its body, as on the full path.
//! - A declared member written twice is not clean here (a parsed `Value` keeps the last one):
//!   the tree explains it.
//!
//! The pass is split by job: [`pass`] (its state), [`failed`] (what it does once it has
//! failed), [`secrets`] (the secret scan), [`values`] (values and objects against their rules),
//! [`root`] (the root object with detection), [`scan`] (the tokenizer); [`tree`] reads a
//! message that is not clean for the validator.

mod failed;
mod pass;
mod root;
mod scan;
mod secrets;
#[cfg(test)]
mod tests;
mod tree;
mod values;

pub(crate) use tree::with_tree;

use super::detect;
use super::json::Probe;
use super::registry::{FamilyId, FamilySpec, MessageTypeSpec};
use super::Verdict;
pub(crate) use pass::CleanPrefix;
use pass::{Level, Outcome, Seen, State};
use root::{detect_root, pair_body};
use scan::{Read, Scanner, Stop};
use values::object;

/// A message with no issue at all.
#[derive(Debug)]
pub(crate) struct Clean {
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    /// The version the message declares, if it declares one.
    version: Option<String>,
}

impl Clean {
    /// The verdict of a pass that checked the message as `spec`: clean when nothing failed.
    fn of(
        st: &mut State<'_>,
        family: &'static FamilySpec,
        spec: &'static MessageTypeSpec,
    ) -> Option<Clean> {
        (!st.failed()).then(|| Clean {
            family,
            spec,
            version: st.ctx.version.take(),
        })
    }

    /// The verdict the full path gives this message (which has no issue).
    pub(crate) fn into_verdict(self) -> Verdict {
        Verdict {
            valid: true,
            family: Some(self.family.id),
            message_type: Some(self.spec.name),
            version: Some(self.family.version_of(self.version)),
        }
    }
}

/// Checks JSON text as [`super::validate_slice`] would: `Ok` when the message (or the
/// message an Agent Mail row carries) is clean, else what the pass found clean before it
/// failed (for the tree to leave unread, [`with_tree`]).
pub(crate) fn check(text: &str, hint: Option<FamilyId>) -> Result<Clean, Option<CleanPrefix>> {
    run(text, Mode::Detect { hint, row: true })
}

/// Checks JSON text as one message type, without detection ([`super::validate_slice_as`]).
pub(crate) fn check_as(
    text: &str,
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
) -> Option<Clean> {
    run(text, Mode::Fixed(family, spec)).ok()
}

/// JSON bytes as text, read once for the pass and the tree: bytes that are not UTF-8 are not
/// JSON, and the full path says where.
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

/// What one pass checks the root object as.
#[derive(Clone, Copy)]
enum Mode {
    /// Detect the family (or take the hint) and type; `row` when the object may be an Agent
    /// Mail row (not for the message inside one).
    Detect { hint: Option<FamilyId>, row: bool },
    /// This type, without detection.
    Fixed(&'static FamilySpec, &'static MessageTypeSpec),
    /// The Pair body an Agent Mail row carries for this type (named by the row's subject): the
    /// message is `{subject, body}`, `to` comes from the transport.
    PairBody(&'static MessageTypeSpec, Option<FamilyId>),
}

/// Runs passes over `text` until the verdict is known; a message that is not clean gives
/// the members of `text`'s root the pass found clean, if any.
fn run(text: &str, mode: Mode) -> Result<Clean, Option<CleanPrefix>> {
    let mut sc = Scanner::new(text);
    let row = matches!(mode, Mode::Detect { row: true, .. });
    let mut st = State::new(text, row);
    let outcome = match root(&mut sc, &mut st, mode) {
        Ok(outcome) => outcome,
        Err(Stop) => return Err(st.clean_prefix()),
    };
    sc.end().map_err(|Stop| None)?;
    match outcome {
        Outcome::Checked(family, spec) => {
            Clean::of(&mut st, family, spec).ok_or_else(|| st.clean_prefix())
        }
        Outcome::Again(family, spec) => run(text, Mode::Fixed(family, spec)),
        Outcome::Row { body, subject } => match mode {
            Mode::Detect { hint, .. }
                if secrets::row_clean(
                    text,
                    body.as_str().ok_or(None)?,
                    subject.as_ref().and_then(|s| s.as_str()),
                ) =>
            {
                // The carried message's prefix is in its own text: of no use for the row's.
                carried(&body, subject.as_ref(), hint).map_err(|_| None)
            }
            _ => Err(None),
        },
        Outcome::NotBody => match mode {
            Mode::PairBody(_, hint) => run(text, Mode::Detect { hint, row: false }),
            _ => Err(None),
        },
        Outcome::Unclean => Err(None),
    }
}

/// The message an Agent Mail row carries (see `run_carried` on the full path).
fn carried(
    body: &Seen<'_>,
    subject: Option<&Seen<'_>>,
    hint: Option<FamilyId>,
) -> Result<Clean, Option<CleanPrefix>> {
    let json = detect::extract_json(body.as_str().ok_or(None)?).ok_or(None)?;
    let pair = FamilyId::Pair.spec();
    let subject_type = subject
        .and_then(|s| s.as_str())
        .and_then(|s| pair.message_type(s.trim()))
        .filter(|spec| spec.named_by_subject())
        .filter(|_| matches!(hint, None | Some(FamilyId::Pair)));
    let mode = match subject_type {
        Some(spec) => Mode::PairBody(spec, hint),
        None => Mode::Detect { hint, row: false },
    };
    run(json, mode)
}

/// The root object of a pass.
fn root<'a>(sc: &mut Scanner<'a>, st: &mut State<'a>, mode: Mode) -> Read<Outcome<'a>> {
    // Anything but an object is not a message: the full path says why.
    sc.eat(b'{')?;
    sc.enter()?;
    let outcome = match mode {
        Mode::Detect { hint, row } => detect_root(sc, st, hint, row)?,
        Mode::Fixed(family, spec) => {
            st.checks = spec.checks;
            object(sc, st, &spec.root, Level::Root, &[])?;
            st.cross_checks();
            Outcome::Checked(family, spec)
        }
        Mode::PairBody(spec, _) => pair_body(sc, st, spec)?,
    };
    sc.leave();
    Ok(outcome)
}
