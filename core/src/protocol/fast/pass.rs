//! One pass over a message: what it keeps while reading ([`State`]), what a value was
//! ([`Seen`]), where a value sits for the cross-field rules ([`Level`]), and how it ended
//! ([`Outcome`]).

use super::scan::{Read, Scalar, Stop};
use crate::protocol::ctx::Ctx;
use crate::protocol::json::{Num, Probe};
use crate::protocol::registry::{CrossCheck, FamilySpec, MessageTypeSpec};
use crate::protocol::same::same;
use crate::protocol::validator::{self, Leaf, Lookup};
use std::borrow::Cow;

/// How one pass ended.
pub(super) enum Outcome<'a> {
    /// Checked as this type; the issues are in the pass's state.
    Checked(&'static FamilySpec, &'static MessageTypeSpec),
    /// Detected as this type, but not every member could be checked: check again as it.
    Again(&'static FamilySpec, &'static MessageTypeSpec),
    /// An Agent Mail row: its `body_md` and `subject` members.
    Row {
        body: Seen<'a>,
        subject: Option<Seen<'a>>,
    },
    /// The object has `subject` or `body` members of its own: not a bare Pair body.
    NotBody,
    /// Checked as the type detection answered ahead, but a later member could change that
    /// answer: detect again, member by member.
    Unsettled,
    /// Not one the pass can explain as the full path would: the tree explains it.
    Unexplained,
}

/// What a value was: enough to detect, to check a kept member later, or to feed a
/// cross-field rule.
#[derive(Debug, Clone)]
pub(super) enum Seen<'a> {
    Null,
    Bool(bool),
    Num(Num),
    /// A string, with its text.
    Str(Cow<'a, str>),
    /// An array, and where it starts (to read it again).
    Array(usize),
    /// An object, and where it starts.
    Object(usize),
}

impl<'a> Seen<'a> {
    /// A literal or a number as it was seen.
    pub(super) fn of(scalar: Scalar) -> Seen<'a> {
        match scalar {
            Scalar::Null => Seen::Null,
            Scalar::Bool(b) => Seen::Bool(b),
            Scalar::Num(n) => Seen::Num(n),
        }
    }

    /// The value as a leaf, when it is one.
    pub(super) fn leaf(&self) -> Option<Leaf<'_>> {
        match self {
            Seen::Null => Some(Leaf::Null),
            Seen::Bool(b) => Some(Leaf::Bool(*b)),
            Seen::Num(n) => Some(Leaf::Num(*n)),
            Seen::Str(s) => Some(Leaf::Str(s)),
            Seen::Array(_) | Seen::Object(_) => None,
        }
    }

    /// Where an array or object starts.
    pub(super) fn start(&self) -> Option<usize> {
        match self {
            Seen::Array(at) | Seen::Object(at) => Some(*at),
            _ => None,
        }
    }
}

impl Probe for Seen<'_> {
    fn as_str(&self) -> Option<&str> {
        match self {
            Seen::Str(s) => Some(s),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Seen::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Seen::Str(_) => "string",
            Seen::Array(_) => "array",
            Seen::Object(_) => "object",
            Seen::Null | Seen::Bool(_) | Seen::Num(_) => self.leaf().map_or("value", Leaf::kind),
        }
    }
}

/// How many members the cross-field rules of one type read, at most.
pub(super) const KEPT: usize = 4;

/// The state of one pass.
pub(super) struct State<'c, 'a> {
    /// Lists the issues with their paths, in the mode asked for.
    pub(super) ctx: &'c mut Ctx,
    /// The cross-field rules of the type being checked ([`State::check_rules`]).
    checks: &'static [CrossCheck],
    /// The lengths (modulo 64) of the member names those rules read, one bit each: most
    /// members are not theirs, told apart without comparing names.
    read_lengths: u64,
    /// The members those rules read: `(object, key, value)`, `object` empty for the root.
    pub(super) kept: [Option<(&'static str, &'static str, Seen<'a>)>; KEPT],
    /// The text of the pass, to read a held member again.
    pub(super) text: &'a str,
    /// How many issues were listed before the cross-field rules ran: those are put in the
    /// order the validator lists them in ([`super::order`]); the rules' own come last.
    pub(super) ordered: usize,
}

impl<'c, 'a> State<'c, 'a> {
    pub(super) fn new(text: &'a str, ctx: &'c mut Ctx) -> Self {
        State {
            ctx,
            checks: &[],
            read_lengths: 0,
            kept: [None, None, None, None],
            text,
            ordered: 0,
        }
    }

    /// Takes the cross-field rules of the type the message is checked as.
    pub(super) fn check_rules(&mut self, checks: &'static [CrossCheck]) {
        let bit = |name: &str| 1u64 << (name.len() % 64);
        self.checks = checks;
        self.read_lengths = checks.iter().fold(0, |bits, c| match c {
            CrossCheck::Pairs { text, number, .. } => bits | bit(text) | bit(number),
            CrossCheck::Differ { a, b, .. } => bits | bit(a) | bit(b),
        });
    }

    /// Whether a cross-field rule reads member `key` of `object` (`""` for the root). Most
    /// members are no rule's: answered by their name's length where the member is read.
    #[inline]
    pub(super) fn wants(&self, object: &str, key: &str) -> bool {
        self.read_lengths >> (key.len() % 64) & 1 != 0 && self.rule_reads(object, key)
    }

    /// [`State::wants`] for a member named as long as one a rule reads.
    fn rule_reads(&self, object: &str, key: &str) -> bool {
        self.checks.iter().any(|c| match c {
            CrossCheck::Pairs { text, number, .. } => {
                object.is_empty() && (same(key, text) || same(key, number))
            }
            CrossCheck::Differ {
                object: o, a, b, ..
            } => same(object, o) && (same(key, a) || same(key, b)),
        })
    }

    /// Keeps a member a cross-field rule reads (more than [`KEPT`]: the pass gives up; a
    /// registry test keeps the rules' members under it).
    pub(super) fn keep(
        &mut self,
        object: &'static str,
        key: &'static str,
        value: Seen<'a>,
    ) -> Read<()> {
        let slot = self.kept.iter_mut().find(|k| k.is_none()).ok_or(Stop)?;
        *slot = Some((object, key, value));
        Ok(())
    }

    /// Runs the type's cross-field rules over the kept members.
    pub(super) fn cross_checks(&mut self) {
        self.ordered = self.ctx.listed();
        for check in self.checks {
            let kept = Kept(&self.kept);
            validator::check_cross(self.ctx, check, &kept);
        }
    }
}

/// The kept members, as the cross-field rules read them.
pub(super) struct Kept<'k, 'a>(&'k [Option<(&'static str, &'static str, Seen<'a>)>; KEPT]);

impl<'k, 'a> Kept<'k, 'a> {
    fn get(&self, object: &str, key: &str) -> Option<&'k Seen<'a>> {
        self.0
            .iter()
            .flatten()
            .find(|(o, k, _)| same(o, object) && same(k, key))
            .map(|(_, _, v)| v)
    }
}

impl Lookup for Kept<'_, '_> {
    fn text(&self, object: &str, key: &str) -> Option<&str> {
        self.get(object, key)?.as_str()
    }

    fn integer(&self, key: &str) -> Option<f64> {
        match self.get("", key)? {
            Seen::Num(n) => n.as_integer(),
            _ => None,
        }
    }
}

/// Where a value sits, for the cross-field rules (which read the root's members and the
/// members of the root's object members).
#[derive(Clone, Copy)]
pub(super) enum Level {
    Root,
    Member(&'static str),
    Deep,
}

impl Level {
    /// The object a member `key` of a value at this level is kept under, if rules can read it,
    /// and the member's own level.
    pub(super) fn child(self, key: &'static str) -> (Option<&'static str>, Level) {
        match self {
            Level::Root => (Some(""), Level::Member(key)),
            Level::Member(object) => (Some(object), Level::Deep),
            Level::Deep => (None, Level::Deep),
        }
    }
}
