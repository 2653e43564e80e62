//! The root object with detection: its type read ahead and the object checked as it
//! ([`read_ahead`], [`checked_as`]), or members held until detection answers, then checked
//! against the type it names ([`Guess`]); and the Pair body an Agent Mail row carries.

use super::pass::{Level, Outcome, Seen, State};
use super::scan::{Read, Scanner, Stop};
use super::secrets;
use super::values::{hold, member, object, Walk};
use crate::protocol::ctx::Ctx;
use crate::protocol::detect::{self, Ahead, Answer, KeySet, Members};
use crate::protocol::issue::LazyPath;
use crate::protocol::json::Probe;
use crate::protocol::registry::{FamilyId, FamilySpec, MessageTypeSpec, Presence, Ty};
use crate::protocol::validator::{check_leaf, check_string};
use std::borrow::Cow;

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
    #[inline]
    fn push(&mut self, key: K, value: Seen<'a>) {
        if self.iter().any(|(k, _)| *k == key) {
            self.spilled = true;
            return;
        }
        self.append(key, value);
    }

    /// Adds a member without looking for its name among the others (the members held until
    /// detection answers: a name seen twice fails when they are checked, see [`Walk::see`]).
    #[inline]
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

/// Detection's answer over the gathered members, when it has one without issue (in strict
/// mode: a lenient form is an issue too). Its issues are not the message's (later members may
/// change the answer): found on trial ([`Ctx::trial`]).
#[inline]
fn detect_type(
    ctx: &mut Ctx,
    probes: &Probes<'_>,
    hint: Option<FamilyId>,
) -> Option<(&'static FamilySpec, &'static MessageTypeSpec)> {
    let members = || probes.iter().map(|(k, v)| (*k, v as &dyn Probe));
    if let Some(answer) = detect::sole_answer(members(), hint) {
        return Some(answer);
    }
    let members = Members::gather(members());
    let ((family, found), issue) = ctx.trial(|ctx| detect::detect(ctx, &members, hint));
    if issue {
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
        st: &mut State<'_, 'a>,
        (family, spec): (&'static FamilySpec, &'static MessageTypeSpec),
        held: &Held<'a>,
    ) -> Read<Guess> {
        st.check_rules(spec.checks);
        let mut g = Guess {
            family,
            spec,
            walk: Walk::new(&spec.root),
            settled: true,
            unchecked: held.spilled,
        };
        let root = LazyPath::Root;
        for (key, seen) in held.iter() {
            let Some(i) = g.walk.field(key) else {
                secrets::held(st, key, seen, root.key(key))?;
                continue;
            };
            let Some(leaf) = seen.leaf() else {
                let at = seen.start().ok_or(Stop)?;
                let mut again = Scanner::at(st.text, at);
                member(&mut again, st, &mut g.walk, i, Level::Root, false, root)?;
                continue;
            };
            g.walk.see(i)?;
            let f = &spec.root.fields[i];
            check_leaf(st.ctx, &f.ty, leaf, root.key(f.name));
            if st.wants("", f.name) {
                st.keep("", f.name, seen.clone())?;
            }
        }
        Ok(g)
    }
}

/// Detection's answer read ahead from a root object's members (`sc`: a copy of the pass's
/// scanner after the object's `{`) from the first that selects a type, and when the types it
/// selects wait for a shape member, up to that ([`detect::answer_ahead`]); the other values
/// skipped.
pub(super) fn read_ahead(mut sc: Scanner<'_>, hint: Option<FamilyId>) -> Option<Answer> {
    let mut present: KeySet = 0;
    let mut selecting: Option<(u32, Seen<'_>)> = None;
    let mut first = true;
    while sc.next_member(first).ok()? {
        first = false;
        let key = sc.name().ok()?;
        let Some(index) = detect::detection_index(&key) else {
            sc.skip_value().ok()?;
            continue;
        };
        present |= 1 << index;
        if detect::selects(index) {
            if selecting.is_some() {
                // A second member that selects: detection weighs both.
                return None;
            }
            selecting = Some((index, hold(&mut sc).ok()?));
        } else {
            sc.skip_value().ok()?;
        }
        if let Some((key, value)) = &selecting {
            match detect::answer_ahead(*key, value, present, hint) {
                Ahead::Now(answer) => return Some(answer),
                Ahead::Later => {}
                Ahead::Never => return None,
            }
        }
    }
    None
}

/// The root object (after its `{`) checked as `spec`: the type given, or the one detection
/// answered ahead, then `Unsettled` when an undeclared member in `unsettling` (a member that
/// could change that answer; none for a type given) is there.
pub(super) fn checked_as<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    (family, spec): (&'static FamilySpec, &'static MessageTypeSpec),
    unsettling: KeySet,
) -> Read<Outcome<'a>> {
    st.check_rules(spec.checks);
    if object(sc, st, &spec.root, Level::Root, unsettling, LazyPath::Root)? {
        return Ok(Outcome::Unsettled);
    }
    st.cross_checks();
    Ok(Outcome::Checked(family, spec))
}

/// The root object with detection (after its `{`): members are checked against detection's
/// answer as soon as it has one.
pub(super) fn detect_root<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    hint: Option<FamilyId>,
    row: bool,
) -> Read<Outcome<'a>> {
    let mut probes = Probes::new();
    let mut held = Held::new();
    let mut guess: Option<Guess> = None;
    let mut first = true;
    let root = LazyPath::Root;
    while sc.next_member(first)? {
        first = false;
        let (key, field) = match guess.as_mut() {
            Some(g) => g.walk.read_name(sc)?,
            None => (sc.name()?, None),
        };
        let index = detect::detection_index(&key);
        let detection = index.is_some();
        if let Some(g) = guess.as_mut() {
            let kept = match field {
                Some(i) => member(sc, st, &mut g.walk, i, Level::Root, detection, root)?,
                None if detection => {
                    let seen = hold(sc)?;
                    secrets::held(st, &key, &seen, root.key(&key))?;
                    Some(seen)
                }
                None => {
                    secrets::any(sc, st, Some(&key), root.key(&key))?;
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
        let seen = hold(sc)?;
        if let Some(index) = index {
            probes.push(index, seen.clone());
        }
        let decides = index.is_some_and(detect::decides_type);
        held.append(key, seen);
        if decides {
            if let Some(answer) = detect_type(st.ctx, &probes, hint) {
                guess = Some(Guess::new(st, answer, &held)?);
            }
        }
    }
    if probes.spilled {
        return Ok(Outcome::Unexplained);
    }
    if let Some(body) = probes.get(&BODY_MD) {
        if !row {
            // A row inside a row is no protocol message (`unknown_family`).
            return Ok(Outcome::Unexplained);
        }
        return Ok(Outcome::Row {
            body: body.clone(),
            subject: probes.get(&SUBJECT).cloned(),
        });
    }
    let Some(g) = guess else {
        return Ok(detect_type(st.ctx, &probes, hint)
            .map_or(Outcome::Unexplained, |(f, s)| Outcome::Again(f, s)));
    };
    if !g.settled || st.ctx.errors > 0 || st.ctx.listed() > 0 {
        // Later detection members may change the answer, or (in a message with issues,
        // lenient warnings too) add an issue of detection's own.
        match detect_type(st.ctx, &probes, hint) {
            None => return Ok(Outcome::Unexplained),
            Some((f, s)) if !std::ptr::eq(s, g.spec) => return Ok(Outcome::Again(f, s)),
            Some(_) => {}
        }
    }
    if g.unchecked {
        return Ok(Outcome::Again(g.family, g.spec));
    }
    g.walk.finish(st, root);
    st.cross_checks();
    Ok(Outcome::Checked(g.family, g.spec))
}

/// A Pair body carried in an Agent Mail row whose subject names the type (after its `{`):
/// checked as the `body` of `{subject, body}` (`to` comes from the transport and is not
/// checked).
pub(super) fn pair_body<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    spec: &'static MessageTypeSpec,
) -> Read<Outcome<'a>> {
    st.check_rules(spec.checks);
    let root = LazyPath::Root;
    let mut body = None;
    for f in spec.root.fields {
        match (f.name, &f.ty) {
            ("to", _) => {}
            ("subject", ty) => {
                check_string(st.ctx, ty, spec.name, root.key(f.name));
                if st.wants("", f.name) {
                    st.keep("", f.name, Seen::Str(Cow::Borrowed(spec.name)))?;
                }
            }
            ("body", Ty::Object(obj)) => body = Some(obj),
            // `{subject, body}` has no other member.
            _ if matches!(f.presence, Presence::Optional) => {}
            _ => return Ok(Outcome::Unexplained),
        }
    }
    let Some(obj) = body else {
        return Ok(Outcome::Unexplained);
    };
    let forbid = 1 << detect::key_position("subject") | 1 << detect::key_position("body");
    if object(sc, st, obj, Level::Member("body"), forbid, root.key("body"))? {
        return Ok(Outcome::NotBody);
    }
    st.cross_checks();
    Ok(Outcome::Checked(FamilyId::Pair.spec(), spec))
}
