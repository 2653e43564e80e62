//! The validation path from bytes that builds no [`serde_json::Value`]: one pass of a small
//! tokenizer ([`scan`]) drives registry-driven checks that detect the family and type as they
//! go and check each member against its rule, keeping nothing but the few members detection
//! and the cross-field rules read.
//!
//! It only answers "is this message clean — valid with no issue at all — and as what?".
//! Anything else (an error, a lenient-mode warning, text the tokenizer leaves to
//! `serde_json`) makes it give up, and [`super::validate_slice`] explains the message
//! on the full path (parse into a `Value`, then [`super::validate`]), so reports are the full
//! path's by construction. Strict and lenient mode agree on which messages are clean (a
//! deviation is an error or a warning, an issue either way), so this path runs strict.
//!
//! - The tokenizer accepts a subset of the JSON `serde_json` accepts (see [`scan`]); values no
//!   rule covers are still read in full, so a message it answers is one the parser reads.
//! - Members come in any order. Until detection has an answer, the members are held (a
//!   scalar as it was seen, an array or object as where it starts) and checked once it has,
//!   the compound ones read again. More members than are held before the answer, or a later
//!   member that changes the answer, make a second pass check the message as the answer.
//! - An Agent Mail row (`body_md`) is followed into its body, as on the full path.
//! - A member written twice counts once, with its last value, as in a parsed `Value`: a pass
//!   that is not clean runs again skipping the earlier ones ([`replaced`]), when there are any.

mod replaced;
mod scan;

use super::detect::{self, Members, Probe};
use super::issue::LazyPath;
use super::registry::{
    CrossCheck, FamilyId, FamilySpec, MessageTypeSpec, ObjectSpec, Presence, Ty,
};
use super::same::same;
use super::validator::{self, check_leaf, check_min_items, Ctx, Leaf, Lookup, Num};
use super::Report;
use scan::{Read, Scalar, Scanner, Stop};
use std::borrow::Cow;

/// A message with no issue at all.
#[derive(Debug)]
pub(crate) struct Clean {
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    /// The version the message declares, if it declares one.
    version: Option<String>,
}

impl Clean {
    /// The report the full path gives this message.
    pub(crate) fn into_report(self) -> Report {
        Report {
            valid: true,
            family: Some(self.family.id),
            message_type: Some(self.spec.name),
            version: Some(self.family.version_of(self.version)),
            issues: Vec::new(),
        }
    }
}

/// Checks JSON bytes as [`super::validate_slice`] would: `Some` when the message (or the
/// message an Agent Mail row carries) is clean.
pub(crate) fn check(bytes: &[u8], hint: Option<FamilyId>) -> Option<Clean> {
    run(utf8(bytes)?, Mode::Detect { hint, row: true })
}

/// Checks JSON bytes as one message type, without detection ([`super::validate_slice_as`]).
pub(crate) fn check_as(
    bytes: &[u8],
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
) -> Option<Clean> {
    run(utf8(bytes)?, Mode::Fixed(family, spec))
}

/// The bytes as text: bytes that are not UTF-8 are not JSON, and the full path says where.
fn utf8(bytes: &[u8]) -> Option<&str> {
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

/// How one pass ended.
enum Outcome<'a> {
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

/// Runs passes over `text` until the verdict is known; when that is not clean and a member is
/// written twice, runs them again skipping the members later ones replace.
fn run(text: &str, mode: Mode) -> Option<Clean> {
    run_skipping(text, mode, &[]).or_else(|| {
        let replaced = replaced::replaced(text).filter(|r| !r.is_empty())?;
        run_skipping(text, mode, &replaced)
    })
}

/// Runs passes over `text`, skipping the members that start at `replaced` (sorted offsets).
fn run_skipping(text: &str, mode: Mode, replaced: &[usize]) -> Option<Clean> {
    let mut sc = Scanner::new(text);
    let mut st = State::new(text, mode, replaced);
    let outcome = root(&mut sc, &mut st, mode).ok()?;
    sc.end().ok()?;
    match outcome {
        Outcome::Checked(family, spec) => st.verdict(family, spec),
        Outcome::Again(family, spec) => run_skipping(text, Mode::Fixed(family, spec), replaced),
        Outcome::Row { body, subject } => match mode {
            Mode::Detect { hint, .. } => carried(&body, subject.as_ref(), hint),
            _ => None,
        },
        Outcome::NotBody => match mode {
            Mode::PairBody(_, hint) => {
                run_skipping(text, Mode::Detect { hint, row: false }, replaced)
            }
            _ => None,
        },
        Outcome::Unclean => None,
    }
}

/// The message an Agent Mail row carries (see `run_carried` on the full path).
fn carried(body: &Seen<'_>, subject: Option<&Seen<'_>>, hint: Option<FamilyId>) -> Option<Clean> {
    let json = detect::extract_json(body.as_str()?)?;
    let pair = FamilyId::Pair.spec();
    let subject_type = subject
        .and_then(|s| s.as_str())
        .and_then(|s| pair.message_type(s.trim()))
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

/// What a value was: enough to detect, to check a kept member later, or to feed a
/// cross-field rule.
#[derive(Debug, Clone)]
enum Seen<'a> {
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
    fn leaf(&self) -> Option<Leaf<'_>> {
        match self {
            Seen::Null => Some(Leaf::Null),
            Seen::Bool(b) => Some(Leaf::Bool(*b)),
            Seen::Num(n) => Some(Leaf::Num(*n)),
            Seen::Str(s) => Some(Leaf::Str(s)),
            Seen::Array(_) | Seen::Object(_) => None,
        }
    }

    /// Where an array or object starts.
    fn start(&self) -> Option<usize> {
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
const KEPT: usize = 4;

/// The state of one pass.
struct State<'a> {
    /// Strict, verdict only; counts the errors.
    ctx: Ctx,
    /// The cross-field rules of the type being checked.
    checks: &'static [CrossCheck],
    /// The members those rules read: `(object, key, value)`, `object` empty for the root.
    kept: [Option<(&'static str, &'static str, Seen<'a>)>; KEPT],
    /// Whether the pass may stop at the first failure: `Some(false)` while the object may
    /// still turn out to be an Agent Mail row (whose own members do not count), `None` until
    /// a failure asks.
    may_stop: Option<bool>,
    /// The text of the pass, to tell whether it can hold a row at all.
    text: &'a str,
    /// Whether the pass reads an object that may be an Agent Mail row.
    row: bool,
    /// Where the members a later member replaces start (see [`replaced`]), sorted.
    replaced: &'a [usize],
}

impl<'a> State<'a> {
    fn new(text: &'a str, mode: Mode, replaced: &'a [usize]) -> Self {
        State {
            ctx: Ctx::verdict(),
            checks: &[],
            kept: [None, None, None, None],
            may_stop: None,
            text,
            row: matches!(mode, Mode::Detect { row: true, .. }),
            replaced,
        }
    }

    fn failed(&self) -> bool {
        self.ctx.errors > 0
    }

    /// After a failure: whether the pass can stop now. It cannot while the object may be an
    /// Agent Mail row, whose `body_md` may come later: when the text has no `body_md` (nor a
    /// `\u` escape that could spell it), it cannot be one.
    fn may_stop(&mut self) -> bool {
        let row = self.row;
        let text = self.text;
        *self
            .may_stop
            .get_or_insert_with(|| !row || !(text.contains("body_md") || text.contains("\\u")))
    }

    /// Whether a cross-field rule reads member `key` of `object` (`""` for the root).
    fn wants(&self, object: &str, key: &str) -> bool {
        self.checks.iter().any(|c| match c {
            CrossCheck::Pairs { text, number, .. } => {
                object.is_empty() && (key == *text || key == *number)
            }
            CrossCheck::Differ {
                object: o, a, b, ..
            } => object == *o && (key == *a || key == *b),
        })
    }

    fn keep(&mut self, object: &'static str, key: &'static str, value: Seen<'a>) {
        match self.kept.iter_mut().find(|k| k.is_none()) {
            Some(slot) => *slot = Some((object, key, value)),
            // A registry test keeps the rules' members under KEPT; never guess past it.
            None => self.ctx.fail(),
        }
    }

    /// Runs the type's cross-field rules over the kept members.
    fn cross_checks(&mut self) {
        for check in self.checks {
            let kept = Kept(&self.kept);
            validator::check_cross(&mut self.ctx, check, &kept);
        }
    }

    fn verdict(
        &mut self,
        family: &'static FamilySpec,
        spec: &'static MessageTypeSpec,
    ) -> Option<Clean> {
        (!self.failed()).then(|| Clean {
            family,
            spec,
            version: self.ctx.version.take(),
        })
    }
}

/// The kept members, as the cross-field rules read them.
struct Kept<'k, 'a>(&'k [Option<(&'static str, &'static str, Seen<'a>)>; KEPT]);

impl<'k, 'a> Kept<'k, 'a> {
    fn get(&self, object: &str, key: &str) -> Option<&'k Seen<'a>> {
        self.0
            .iter()
            .flatten()
            .find(|(o, k, _)| *o == object && *k == key)
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
enum Level {
    Root,
    Member(&'static str),
    Deep,
}

impl Level {
    /// The object a member `key` of a value at this level is kept under, if rules can read it,
    /// and the member's own level.
    fn child(self, key: &'static str) -> (Option<&'static str>, Level) {
        match self {
            Level::Root => (Some(""), Level::Member(key)),
            Level::Member(object) => (Some(object), Level::Deep),
            Level::Deep => (None, Level::Deep),
        }
    }
}

/// Any value: what a value no rule covers is checked against (it must still be JSON the
/// `Value` parser accepts).
static ANY: Ty = Ty::Any;

/// Once a pass has failed, it stops, or (for a possible row) reads the rest exactly without
/// checking it: the rule a value is checked against (`None`: stop).
fn rule(st: &mut State<'_>, ty: &'static Ty) -> Option<&'static Ty> {
    match st.failed() {
        false => Some(ty),
        true if st.may_stop() => None,
        true => Some(&ANY),
    }
}

/// Reads one value and checks it against `ty`. (Most values are read here, which builds
/// nothing; [`value`] says what a value was, for the few members detection or a cross-field
/// rule reads.)
fn check_value<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'a>,
    ty: &'static Ty,
    level: Level,
) -> Read<()> {
    let ty = rule(st, ty).ok_or(Stop)?;
    match sc.peek().ok_or(Stop)? {
        b'"' => {
            sc.bump();
            if matches!(ty, Ty::Any) {
                return sc.skip_string();
            }
            let s = sc.string()?;
            check_leaf(&mut st.ctx, ty, Leaf::Str(&s), LazyPath::Root);
        }
        b'{' => {
            sc.bump();
            sc.enter()?;
            match ty {
                Ty::Object(spec) => {
                    object(sc, st, spec, level, &[])?;
                }
                Ty::AnyObject | Ty::Any => sc.skip_members()?,
                _ => {
                    st.ctx.fail();
                    sc.skip_members()?;
                }
            }
            sc.leave();
        }
        b'[' => {
            sc.bump();
            sc.enter()?;
            let (items, min_items) = match ty {
                Ty::Array { items, min_items } => (*items, Some(*min_items)),
                Ty::Any => (&ANY, None),
                _ => {
                    st.ctx.fail();
                    (&ANY, None)
                }
            };
            let mut len = 0;
            while sc.next_item(len == 0)? {
                match items {
                    Ty::Any if !st.failed() => sc.skip_value()?,
                    _ => check_value(sc, st, items, Level::Deep)?,
                }
                len += 1;
            }
            if let (Some(min), false) = (min_items, st.failed()) {
                check_min_items(&mut st.ctx, min, len, LazyPath::Root);
            }
            sc.leave();
        }
        _ => {
            let scalar = sc.scalar()?;
            check_leaf(&mut st.ctx, ty, scalar.leaf(), LazyPath::Root);
        }
    }
    Ok(())
}

/// [`check_value`], saying what the value was, a string with its text.
fn value<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'a>,
    ty: &'static Ty,
    level: Level,
) -> Read<Seen<'a>> {
    let at = sc.pos();
    match sc.peek().ok_or(Stop)? {
        b'"' => {
            let ty = rule(st, ty).ok_or(Stop)?;
            sc.bump();
            let s = sc.string()?;
            check_leaf(&mut st.ctx, ty, Leaf::Str(&s), LazyPath::Root);
            Ok(Seen::Str(s))
        }
        b'{' => check_value(sc, st, ty, level).map(|()| Seen::Object(at)),
        b'[' => check_value(sc, st, ty, level).map(|()| Seen::Array(at)),
        _ => {
            let ty = rule(st, ty).ok_or(Stop)?;
            let scalar = sc.scalar()?;
            check_leaf(&mut st.ctx, ty, scalar.leaf(), LazyPath::Root);
            Ok(match scalar {
                Scalar::Null => Seen::Null,
                Scalar::Bool(b) => Seen::Bool(b),
                Scalar::Num(n) => Seen::Num(n),
            })
        }
    }
}

/// At a member's name: skips the member when a later one replaces it, and says so.
#[inline]
fn skip_replaced<'a>(sc: &mut Scanner<'a>, st: &mut State<'a>) -> Read<bool> {
    if st.replaced.is_empty() || st.replaced.binary_search(&sc.pos()).is_err() {
        return Ok(false);
    }
    sc.name()?;
    sc.skip_value()?;
    Ok(true)
}

/// The declared members of one object seen so far.
struct Walk {
    spec: &'static ObjectSpec,
    /// Bit `i`: field `i` was seen.
    seen: u64,
    /// Where to start looking for the next member (members usually come in declaration order).
    next: usize,
}

/// The most fields an object may declare for this path (a registry test checks it).
const MAX_FIELDS: usize = 64;

impl Walk {
    fn new(spec: &'static ObjectSpec) -> Walk {
        Walk {
            spec,
            seen: 0,
            next: 0,
        }
    }

    /// Reads a member's name, and finds the declared field it names. Members usually come in
    /// declaration order, so the next field's name is tried first, as written.
    fn read_name<'a>(&mut self, sc: &mut Scanner<'a>) -> Read<(Cow<'a, str>, Option<usize>)> {
        if let Some(f) = self.spec.fields.get(self.next) {
            if sc.name_is(f.name) {
                self.next += 1;
                return Ok((Cow::Borrowed(f.name), Some(self.next - 1)));
            }
        }
        let key = sc.name()?;
        let i = self.field(&key);
        Ok((key, i))
    }

    /// The declared field named `key`.
    fn field(&mut self, key: &str) -> Option<usize> {
        let fields = self.spec.fields;
        let i = match fields.get(self.next) {
            Some(f) if same(f.name, key) => self.next,
            _ => fields.iter().position(|f| same(f.name, key))?,
        };
        self.next = i + 1;
        Some(i)
    }

    /// Marks field `i` seen; a member seen twice fails (the `Value` parser keeps the last one,
    /// so the full path decides).
    fn see(&mut self, st: &mut State<'_>, i: usize) {
        let bit = 1u64 << (i % MAX_FIELDS);
        if self.seen & bit != 0 || i >= MAX_FIELDS {
            st.ctx.fail();
        }
        self.seen |= bit;
    }

    /// Fails for a required field not seen (except those in `skip`).
    fn finish(&self, st: &mut State<'_>, skip: &[&str]) {
        for (i, f) in self.spec.fields.iter().enumerate() {
            let seen = i < MAX_FIELDS && self.seen & (1u64 << i) != 0;
            if !seen && !matches!(f.presence, Presence::Optional) && !skip.contains(&f.name) {
                st.ctx.fail();
            }
        }
    }
}

/// Checks one declared member's value, keeping it when a cross-field rule reads it; returns
/// it when kept or when `keep`. Inlined into its three callers (the member loop above all):
/// measured paired against the floor, 0.408 -> 0.428 of its throughput over 10 runs.
#[inline(always)]
fn member<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'a>,
    walk: &mut Walk,
    i: usize,
    level: Level,
    keep: bool,
) -> Read<Option<Seen<'a>>> {
    walk.see(st, i);
    let f = &walk.spec.fields[i];
    let (object, child) = level.child(f.name);
    let wanted = object.filter(|o| st.wants(o, f.name));
    if !keep && wanted.is_none() {
        check_value(sc, st, &f.ty, child)?;
        return Ok(None);
    }
    let seen = value(sc, st, &f.ty, child)?;
    if let Some(object) = wanted {
        st.keep(object, f.name, seen.clone());
    }
    Ok(Some(seen))
}

/// Checks an object's members (after its `{`) against its declared fields; `true` when a
/// member named in `forbid` is present.
fn object<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'a>,
    spec: &'static ObjectSpec,
    level: Level,
    forbid: &[&str],
) -> Read<bool> {
    let mut walk = Walk::new(spec);
    let mut forbidden = false;
    let mut first = true;
    while sc.next_member(first)? {
        first = false;
        if skip_replaced(sc, st)? {
            continue;
        }
        let (key, found) = walk.read_name(sc)?;
        forbidden |= forbid.contains(&key.as_ref());
        match found {
            Some(i) if !st.failed() => {
                member(sc, st, &mut walk, i, level, false)?;
            }
            // An undeclared member: read, not checked.
            None if !st.failed() => sc.skip_value()?,
            // After a failure: the pass stops here when it may.
            _ => check_value(sc, st, &ANY, Level::Deep)?,
        }
    }
    walk.finish(st, &[]);
    Ok(forbidden)
}

/// Members gathered by name: the detection members (named by their position in
/// `DETECTION_KEYS`), or the members before detection had an answer.
struct Gathered<'a, K, const N: usize> {
    members: [Option<(K, Seen<'a>)>; N],
    n: usize,
    /// More than `N` members, or one name twice.
    spilled: bool,
}

impl<'a, K: PartialEq, const N: usize> Gathered<'a, K, N> {
    fn new() -> Self {
        Gathered {
            members: std::array::from_fn(|_| None),
            n: 0,
            spilled: false,
        }
    }

    /// Adds a member; one named like a member already there spills (a name seen twice is
    /// the full path's to judge: the `Value` keeps the last).
    fn push(&mut self, key: K, value: Seen<'a>) {
        if self.iter().any(|(k, _)| *k == key) {
            self.spilled = true;
            return;
        }
        self.append(key, value);
    }

    /// Adds a member without looking for its name among the others (the members held until
    /// detection answers: a name seen twice fails when they are checked, see [`Walk::see`]).
    fn append(&mut self, key: K, value: Seen<'a>) {
        if self.n == N {
            self.spilled = true;
            return;
        }
        self.members[self.n] = Some((key, value));
        self.n += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &(K, Seen<'a>)> {
        self.members[..self.n].iter().flatten()
    }

    fn get(&self, key: &K) -> Option<&Seen<'a>> {
        self.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// The detection members of an object, by position in `DETECTION_KEYS`.
type Probes<'a> = Gathered<'a, u32, PROBES>;

/// The detection members that make an object an Agent Mail row, and name what it carries.
const BODY_MD: u32 = detect::key_position("body_md");
const SUBJECT: u32 = detect::key_position("subject");

/// The members of the root object before detection had an answer.
type Held<'a> = Gathered<'a, Cow<'a, str>, HELD>;

/// How many detection members are kept (an object with more is left to the full path).
const PROBES: usize = 6;

/// How many members before the discriminator are kept for checking once it is known.
const HELD: usize = 6;

/// Detection's answer over the gathered members, when it has one without issue.
fn detect_type(
    probes: &Probes<'_>,
    hint: Option<FamilyId>,
) -> Option<(&'static FamilySpec, &'static MessageTypeSpec)> {
    let members = Members::gather(probes.iter().map(|(k, v)| (*k, v as &dyn Probe)));
    let mut ctx = Ctx::new(false, false);
    let (family, found) = detect::detect(&mut ctx, &members, hint);
    if ctx.errors > 0 {
        return None;
    }
    Some((family?, found?))
}

/// The type detection answered while reading the root object, and its root members seen.
struct Guess {
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    walk: Walk,
    /// No detection member that could change the answer came after it.
    settled: bool,
    /// More members came before the answer than were held: they are unchecked.
    unchecked: bool,
}

impl Guess {
    /// Takes detection's answer and checks the members held until then against it: a leaf
    /// as it was seen, an array or object read again from where it starts.
    fn new<'a>(
        st: &mut State<'a>,
        (family, spec): (&'static FamilySpec, &'static MessageTypeSpec),
        held: &Held<'a>,
    ) -> Read<Guess> {
        st.checks = spec.checks;
        let mut g = Guess {
            family,
            spec,
            walk: Walk::new(&spec.root),
            settled: true,
            unchecked: held.spilled,
        };
        for (key, seen) in held.iter() {
            let Some(i) = g.walk.field(key) else { continue };
            let Some(leaf) = seen.leaf() else {
                let mut again = Scanner::at(st.text, seen.start().ok_or(Stop)?);
                member(&mut again, st, &mut g.walk, i, Level::Root, false)?;
                continue;
            };
            g.walk.see(st, i);
            let f = &spec.root.fields[i];
            check_leaf(&mut st.ctx, &f.ty, leaf, LazyPath::Root);
            if st.wants("", f.name) {
                st.keep("", f.name, seen.clone());
            }
        }
        Ok(g)
    }
}

/// The root object with detection (after its `{`): members are checked against detection's
/// answer as soon as it has one.
fn detect_root<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'a>,
    hint: Option<FamilyId>,
    row: bool,
) -> Read<Outcome<'a>> {
    let mut probes = Probes::new();
    let mut held = Held::new();
    let mut guess: Option<Guess> = None;
    let mut first = true;
    while sc.next_member(first)? {
        first = false;
        if skip_replaced(sc, st)? {
            continue;
        }
        let (key, field) = match guess.as_mut() {
            Some(g) => g.walk.read_name(sc)?,
            None => (sc.name()?, None),
        };
        let index = detect::detection_index(&key);
        let detection = index.is_some();
        if let Some(g) = guess.as_mut() {
            let kept = match field {
                Some(i) if !st.failed() => member(sc, st, &mut g.walk, i, Level::Root, detection)?,
                _ if detection => Some(value(sc, st, &ANY, Level::Deep)?),
                _ => {
                    check_value(sc, st, &ANY, Level::Deep)?;
                    None
                }
            };
            if let (Some(index), Some(seen)) = (index, kept) {
                if !detect::keeps_answer(g.family.id, &key) {
                    g.settled = false;
                }
                probes.push(index, seen);
            }
            continue;
        }
        let seen = value(sc, st, &ANY, Level::Deep)?;
        if let Some(index) = index {
            probes.push(index, seen.clone());
        }
        let decides = index.is_some_and(detect::decides_type);
        held.append(key, seen);
        if decides {
            if let Some(answer) = detect_type(&probes, hint) {
                guess = Some(Guess::new(st, answer, &held)?);
            }
        }
    }
    if probes.spilled {
        return Ok(Outcome::Unclean);
    }
    if let Some(body) = probes.get(&BODY_MD) {
        if !row {
            // A row inside a row is no protocol message (`unknown_family`).
            return Ok(Outcome::Unclean);
        }
        return Ok(Outcome::Row {
            body: body.clone(),
            subject: probes.get(&SUBJECT).cloned(),
        });
    }
    let Some(g) = guess else {
        return Ok(
            detect_type(&probes, hint).map_or(Outcome::Unclean, |(f, s)| Outcome::Again(f, s))
        );
    };
    if !g.settled {
        // Later detection members may change the answer.
        match detect_type(&probes, hint) {
            None => return Ok(Outcome::Unclean),
            Some((f, s)) if !std::ptr::eq(s, g.spec) => return Ok(Outcome::Again(f, s)),
            Some(_) => {}
        }
    }
    if g.unchecked {
        return Ok(Outcome::Again(g.family, g.spec));
    }
    g.walk.finish(st, &[]);
    st.cross_checks();
    Ok(Outcome::Checked(g.family, g.spec))
}

/// A Pair body carried in an Agent Mail row whose subject names the type (after its `{`):
/// checked as the `body` of `{subject, body}` (`to` comes from the transport and is not
/// checked).
fn pair_body<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'a>,
    spec: &'static MessageTypeSpec,
) -> Read<Outcome<'a>> {
    st.checks = spec.checks;
    let mut body = None;
    for f in spec.root.fields {
        match (f.name, &f.ty) {
            ("to", _) => {}
            ("subject", ty) => {
                check_leaf(&mut st.ctx, ty, Leaf::Str(spec.name), LazyPath::Root);
                if st.wants("", f.name) {
                    st.keep("", f.name, Seen::Str(Cow::Borrowed(spec.name)));
                }
            }
            ("body", Ty::Object(obj)) => body = Some(obj),
            // `{subject, body}` has no other member.
            _ => {
                if !matches!(f.presence, Presence::Optional) {
                    st.ctx.fail();
                }
            }
        }
    }
    let Some(obj) = body.filter(|_| !st.failed()) else {
        return Ok(Outcome::Unclean);
    };
    if object(sc, st, obj, Level::Member("body"), &["subject", "body"])? {
        return Ok(Outcome::NotBody);
    }
    st.cross_checks();
    Ok(Outcome::Checked(FamilyId::Pair.spec(), spec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::registry::REGISTRY;

    /// Counts the version rules in a type's tree, and whether one sits inside an array.
    fn versions(ty: &Ty, in_array: bool) -> (usize, bool) {
        match ty {
            Ty::Str(crate::protocol::registry::Str::Version { .. }) => (1, in_array),
            Ty::Array { items, .. } => versions(items, true),
            Ty::Object(spec) => spec.fields.iter().fold((0, false), |(n, a), f| {
                let (m, b) = versions(&f.ty, in_array);
                (n + m, a || b)
            }),
            _ => (0, false),
        }
    }

    fn widest(ty: &Ty) -> usize {
        match ty {
            Ty::Array { items, .. } => widest(items),
            Ty::Object(spec) => spec
                .fields
                .iter()
                .map(|f| widest(&f.ty))
                .fold(spec.fields.len(), usize::max),
            _ => 0,
        }
    }

    #[test]
    fn the_registry_fits_this_path() {
        for fam in REGISTRY {
            for t in fam.types {
                // The declared version is one member, so the order members are checked in
                // (document order here, registry order on the full path) cannot change it.
                let root = Ty::Object(ObjectSpec {
                    fields: t.root.fields,
                });
                let (n, in_array) = versions(&root, false);
                assert!(n <= 1 && !in_array, "{}: {n} version rules", t.name);
                assert!(widest(&root) <= MAX_FIELDS, "{}", t.name);
                let read: usize = t
                    .checks
                    .iter()
                    .map(|c| match c {
                        CrossCheck::Pairs { .. } | CrossCheck::Differ { .. } => 2,
                    })
                    .sum();
                assert!(read <= KEPT, "{}", t.name);
            }
        }
    }

    /// A message that writes a member twice is answered here as its last value decides, at
    /// the root (the discriminator too), in a nested object and in a carried message.
    #[test]
    fn repeated_members_are_answered_here() {
        let task = r#""version":"1.0.0","timestamp":"2025-12-25T12:00:00Z","sender_id":"o","message_id":"123e4567-e89b-12d3-a456-426614174000","task_id":"bd-1","description":"d","file_patterns":["x"],"priority":"low","priority_value":3"#;
        let spec = r#""specification":{"acceptance_criteria":["a"]}"#;
        let clean = [
            format!(r#"{{"type":true,{task},{spec},"type":"task_assignment"}}"#),
            format!(r#"{{"type":"status_update",{task},{spec},"type":"task_assignment"}}"#),
            format!(r#"{{"type":"task_assignment","task_id":7,{task},{spec}}}"#),
            format!(
                r#"{{"type":"task_assignment",{task},"specification":{{"acceptance_criteria":0,"acceptance_criteria":["a"]}}}}"#
            ),
            format!(r#"{{"type":"task_assignment",{task},"specification":1,{spec}}}"#),
            format!(
                r#"{{"subject":"x","body_md":1,"body_md":"{{\"type\":\"task_assignment\",\"task_id\":7,{}}}"}}"#,
                format!("{task},{spec}").replace('"', "\\\"")
            ),
        ];
        for text in &clean {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let full = crate::protocol::validate(&value, &crate::protocol::Options::default());
            assert!(full.valid && full.issues.is_empty(), "{text}: {full:?}");
            let fast = check(text.as_bytes(), None).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(fast.into_report(), full, "{text}");
        }
        // The last value is the one that counts.
        let unclean = format!(r#"{{"type":"task_assignment",{task},{spec},"task_id":7}}"#);
        assert!(check(unclean.as_bytes(), None).is_none());
    }

    /// Every strictly valid fixture, as committed and compacted, is answered here (not by the
    /// full path), as the type the full path detects.
    #[test]
    fn valid_fixtures_are_clean_on_this_path() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol/valid");
        let mut stack = vec![root];
        let mut checked = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let pretty = std::fs::read(&path).unwrap();
                let value: serde_json::Value = serde_json::from_slice(&pretty).unwrap();
                let full = crate::protocol::validate(&value, &crate::protocol::Options::default());
                for bytes in [pretty, serde_json::to_vec(&value).unwrap()] {
                    let clean = check(&bytes, None).unwrap_or_else(|| panic!("{}", path.display()));
                    assert_eq!(clean.into_report(), full, "{}", path.display());
                    checked += 1;
                }
            }
        }
        assert!(checked > 60, "{checked}");
    }
}
