//! One pass over a message: what it keeps while reading ([`State`]), what a value was
//! ([`Seen`]), where a value sits for the cross-field rules ([`Level`]), and how it ended
//! ([`Outcome`]).

use crate::protocol::ctx::Ctx;
use crate::protocol::detect;
use crate::protocol::json::{Num, Probe};
use crate::protocol::registry::{CrossCheck, FamilySpec, MessageTypeSpec};
use crate::protocol::same::same;
use crate::protocol::validator::{self, Leaf, Lookup};
use std::borrow::Cow;

/// How one pass ended.
pub(super) enum Outcome<'a> {
    /// Checked as this type; the verdict is in the pass's state.
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
    /// Not clean.
    Unclean,
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

impl Seen<'_> {
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

/// Whether `text` holds `body_md` or a `\u` escape (which could spell it): one SIMD search for
/// `_` and `\` (`str::contains` twice took 8% of an invalid message's time in wasm).
pub(super) fn may_name_body_md(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr2_iter(b'_', b'\\', b).any(|i| match b[i] {
        b'\\' => b.get(i + 1) == Some(&b'u'),
        _ => i >= 4 && &b[i - 4..i] == b"body" && b.get(i + 1..i + 3) == Some(b"md"),
    })
}

/// The root members a pass that failed had checked clean: those whose value starts before
/// `before`, checked as `spec`. Explaining the message as `spec`, the validator would find
/// nothing in them, so the tree leaves them unread where nothing else reads them
/// ([`CleanPrefix::unread`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CleanPrefix {
    pub(crate) spec: &'static MessageTypeSpec,
    pub(crate) before: usize,
    /// The root member whose value holds the type's version rule (the report says the version
    /// declared), if any.
    version: Option<&'static str>,
}

impl CleanPrefix {
    /// Whether root member `name`, its value starting at `at`, may be left unread: it was
    /// checked clean, and neither detection, a cross-field rule nor the version read it.
    #[inline]
    pub(crate) fn unread(&self, name: &str, at: usize) -> bool {
        at < self.before
            && detect::detection_index(name).is_none()
            && self.version.is_none_or(|v| v != name)
            && !self.spec.checks.iter().any(|c| c.reads_root_member(name))
    }
}

/// How many members the cross-field rules of one type read, at most.
pub(super) const KEPT: usize = 4;

/// The state of one pass.
pub(super) struct State<'a> {
    /// Strict, verdict only; counts the errors.
    pub(super) ctx: Ctx,
    /// The cross-field rules of the type being checked.
    pub(super) checks: &'static [CrossCheck],
    /// The members those rules read: `(object, key, value)`, `object` empty for the root.
    pub(super) kept: [Option<(&'static str, &'static str, Seen<'a>)>; KEPT],
    /// Whether the pass may stop at the first failure: `Some(false)` while the object may
    /// still turn out to be an Agent Mail row (whose own members do not count), `None` until
    /// a failure asks.
    pub(super) may_stop: Option<bool>,
    /// The text of the pass, to tell whether it can hold a row at all.
    pub(super) text: &'a str,
    /// Whether the pass reads an object that may be an Agent Mail row.
    pub(super) row: bool,
    /// The type the root's members are checked as in order, once detection answered (and
    /// held every member before its answer).
    pub(super) checked_as: Option<&'static MessageTypeSpec>,
    /// While nothing failed: where the root members checked clean as `checked_as` end.
    pub(super) clean_end: usize,
}

impl<'a> State<'a> {
    pub(super) fn new(text: &'a str, row: bool) -> Self {
        State {
            ctx: Ctx::verdict(),
            checks: &[],
            kept: [None, None, None, None],
            may_stop: None,
            text,
            row,
            checked_as: None,
            clean_end: 0,
        }
    }

    /// Marks the root members up to `pos` checked clean, while nothing failed.
    #[inline]
    pub(super) fn clean_to(&mut self, pos: usize) {
        if !self.failed() && self.checked_as.is_some() {
            self.clean_end = pos;
        }
    }

    /// After a failure: the root members the pass found clean before it.
    pub(super) fn clean_prefix(&self) -> Option<CleanPrefix> {
        let spec = self
            .checked_as
            .filter(|_| self.failed() && self.clean_end > 0)?;
        Some(CleanPrefix {
            spec,
            before: self.clean_end,
            version: spec.root.version_field().map(|f| f.name),
        })
    }

    pub(super) fn failed(&self) -> bool {
        self.ctx.errors > 0
    }

    /// After a failure: whether the pass can stop now. It cannot while the object may be an
    /// Agent Mail row, whose `body_md` may come later: when the text has no `body_md` (nor a
    /// `\u` escape that could spell it), it cannot be one.
    pub(super) fn may_stop(&mut self) -> bool {
        let row = self.row;
        let text = self.text;
        *self
            .may_stop
            .get_or_insert_with(|| !row || !may_name_body_md(text))
    }

    /// Whether a cross-field rule reads member `key` of `object` (`""` for the root). Most
    /// types have no such rule: answered where the member is read.
    #[inline]
    pub(super) fn wants(&self, object: &str, key: &str) -> bool {
        !self.checks.is_empty() && self.rule_reads(object, key)
    }

    /// [`State::wants`] for a type with cross-field rules.
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

    pub(super) fn keep(&mut self, object: &'static str, key: &'static str, value: Seen<'a>) {
        match self.kept.iter_mut().find(|k| k.is_none()) {
            Some(slot) => *slot = Some((object, key, value)),
            // A registry test keeps the rules' members under KEPT; never guess past it.
            None => self.ctx.fail(),
        }
    }

    /// Runs the type's cross-field rules over the kept members.
    pub(super) fn cross_checks(&mut self) {
        for check in self.checks {
            let kept = Kept(&self.kept);
            validator::check_cross(&mut self.ctx, check, &kept);
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
