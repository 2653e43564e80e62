//! The validation path from bytes that builds no [`serde_json::Value`]: one pass of a small
//! tokenizer ([`scan`]) drives registry-driven checks that detect the family and type as they
//! go and check each member against its rule, listing each issue at its path with the
//! validator's own checks (the leaf rules, missing members, array lengths, the cross-field
//! rules, the secret scan), keeping nothing but the few members detection and the
//! cross-field rules read.
//!
//! It reads members in the order they are written; the validator lists issues in registry
//! order. The pass's issues are put in that order once it is done ([`order`]), before the
//! first `MAX_ISSUES` are kept, so its report is the full path's.
//!
//! Where it cannot say exactly what the full path says, it gives up, and
//! [`super::validate_slice`] explains the message with the validator every path shares, over
//! the [`tree`] the same tokenizer reads (or a parsed `Value` where the tree gives up): text
//! the tokenizer leaves to `serde_json`, a declared member written twice (a parsed `Value`
//! keeps the last one), an object detection has no clean answer for (an unknown family, a
//! lenient or conflicting discriminator), an Agent Mail row whose carried message or own
//! members have issues, more issues than it lists.
//!
//! - The tokenizer accepts a subset of the JSON `serde_json` accepts (see [`scan`]); values no
//!   rule covers are still read in full, so a message it answers is one the parser reads.
//! - Members come in any order. Detection's answer is first read ahead: the members up to the
//!   first that selects a type (most messages open with it, or with a few plain members); when
//!   that member settles the type, the object is checked as it in one pass, as when the type
//!   is given, unless a member that could change the answer turns up (then the pass starts
//!   again, detecting member by member). Otherwise, until detection has an answer, the members
//!   are held (a scalar as it was seen, an array or object as where it starts) and checked once
//!   it has, the compound ones read again. More members than are held before the answer, or a
//!   later member that changes the answer, make a second pass check the message as the answer.
//! - An Agent Mail row (`body_md`) is followed into its body, as on the full path.
//!
//! The pass is split by job: [`pass`] (its state), [`secrets`] (the secret scan), [`values`]
//! (values and objects against their rules), [`root`] (the root object with detection),
//! [`order`] (the validator's order of issues), [`scan`] (the tokenizer); [`tree`] reads a
//! message the pass gives up on, for the validator.

mod order;
mod pass;
mod root;
mod scan;
mod secrets;
#[cfg(test)]
mod tests;
mod tree;
mod values;

pub(crate) use tree::with_tree;

use super::ctx::Ctx;
use super::detect;
use super::issue_log::LoggedIssue;
use super::json::Probe;
use super::registry::{FamilyId, FamilySpec, MessageTypeSpec};
use super::Options;
use pass::{Outcome, Seen, State};
use root::{checked_as, detect_root, pair_body, read_ahead};
use scan::{Read, Scanner};

/// The type a message was checked as.
pub(crate) type Found = (&'static FamilySpec, &'static MessageTypeSpec);

/// Validates JSON text as [`super::validate_slice`] does, listing the issues into `ctx`: the
/// type it checked the message as, or `None` where the pass cannot say what the full path
/// says (the tree, or a parsed `Value`, then explains the message).
pub(crate) fn check(text: &str, options: &Options, ctx: &mut Ctx) -> Option<Found> {
    ctx.list_past_limit();
    let mode = Mode::Detect {
        hint: options.family,
        row: true,
        ahead: true,
    };
    run(text, mode, ctx)
}

/// Validates JSON text as one message type, without detection ([`super::validate_slice_as`]).
pub(crate) fn check_as(
    text: &str,
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    ctx: &mut Ctx,
) -> Option<Found> {
    ctx.list_past_limit();
    run(text, Mode::Fixed(family, spec), ctx)
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
    /// Mail row (not for the message inside one); `ahead` to try reading detection's answer
    /// ahead first (the object then checked as that type in one pass).
    Detect {
        hint: Option<FamilyId>,
        row: bool,
        ahead: bool,
    },
    /// This type, without detection.
    Fixed(&'static FamilySpec, &'static MessageTypeSpec),
    /// The Pair body an Agent Mail row carries for this type (named by the row's subject): the
    /// message is `{subject, body}`, `to` comes from the transport.
    PairBody(&'static MessageTypeSpec, Option<FamilyId>),
}

/// Runs passes over `text` until the message is explained (or cannot be here), listing the
/// issues into `ctx`; a pass whose issues are not the message's is forgotten before the next.
fn run(text: &str, mode: Mode, ctx: &mut Ctx) -> Option<Found> {
    let mut sc = Scanner::new(text);
    let mut st = State::new(text, ctx);
    let outcome = root(&mut sc, &mut st, mode).and_then(|outcome| sc.end().map(|()| outcome));
    let ordered = st.ordered;
    let ctx = st.ctx;
    let next = match outcome {
        Ok(Outcome::Checked(family, spec)) => {
            let place = |issue: LoggedIssue<'_>| order::place(&spec.root, issue.segments());
            let in_order = !ctx.omitted_any() && ctx.log_mut().reorder(ordered, place).is_some();
            ctx.keep_first_issues();
            return in_order.then_some((family, spec));
        }
        Ok(Outcome::Again(family, spec)) => Mode::Fixed(family, spec),
        Ok(Outcome::Row { body, subject }) => {
            let subject = subject.as_ref().and_then(|s| s.as_str());
            return match mode {
                Mode::Detect { hint, .. } if secrets::row_clean(text, body.as_str()?, subject) => {
                    ctx.restart();
                    carried(&body, subject, hint, ctx)
                }
                _ => None,
            };
        }
        Ok(Outcome::NotBody) => match mode {
            Mode::PairBody(_, hint) => Mode::Detect {
                hint,
                row: false,
                ahead: true,
            },
            _ => return None,
        },
        Ok(Outcome::Unsettled) => match mode {
            Mode::Detect { hint, row, .. } => Mode::Detect {
                hint,
                row,
                ahead: false,
            },
            _ => return None,
        },
        Ok(Outcome::Unexplained) | Err(_) => return None,
    };
    ctx.restart();
    run(text, next, ctx)
}

/// The message an Agent Mail row carries (see `run_carried` on the full path).
fn carried(
    body: &Seen<'_>,
    subject: Option<&str>,
    hint: Option<FamilyId>,
    ctx: &mut Ctx,
) -> Option<Found> {
    let json = detect::extract_json(body.as_str()?)?;
    let pair = FamilyId::Pair.spec();
    let subject_type = subject
        .and_then(|s| pair.message_type(s.trim()))
        .filter(|spec| spec.named_by_subject())
        .filter(|_| matches!(hint, None | Some(FamilyId::Pair)));
    let mode = match subject_type {
        Some(spec) => Mode::PairBody(spec, hint),
        None => Mode::Detect {
            hint,
            row: false,
            ahead: true,
        },
    };
    run(json, mode, ctx)
}

/// The root object of a pass.
fn root<'a>(sc: &mut Scanner<'a>, st: &mut State<'_, 'a>, mode: Mode) -> Read<Outcome<'a>> {
    // Anything but an object is not a message: the full path says why.
    sc.eat(b'{')?;
    sc.enter()?;
    let outcome = match mode {
        Mode::Detect { hint, row, ahead } => {
            match ahead
                .then(|| read_ahead(Scanner::at(st.text, sc.pos()), hint))
                .flatten()
            {
                Some(a) => checked_as(sc, st, (a.family, a.spec), a.unsettling)?,
                None => detect_root(sc, st, hint, row)?,
            }
        }
        Mode::Fixed(family, spec) => checked_as(sc, st, (family, spec), 0)?,
        Mode::PairBody(spec, _) => pair_body(sc, st, spec)?,
    };
    sc.leave();
    Ok(outcome)
}
