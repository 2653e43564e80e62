//! Deterministic family and message-type detection, and Agent Mail carrier unwrapping.
//!
//! A family claims an object when one of its types' discriminators matches or one of its marker
//! members is present. Exactly one claiming family is required: none is `unknown_family`, several
//! is `ambiguous_family` naming the candidates. An explicit family hint skips the claim step.

mod index;

use super::ctx::Ctx;
use super::issue::{IssueCode, LazyPath};
use super::json::{Json, Object, Probe};
use super::registry::formats;
use super::registry::{Discriminator, FamilyId, FamilySpec, MessageTypeSpec, REGISTRY};
use super::same::same;
use index::{Selection, Tally};
use serde_json::Value;

/// How a discriminator relates to an object.
#[derive(PartialEq, Eq)]
enum Fit {
    /// It matches.
    Yes,
    /// The discriminator value matches but no shape member is present.
    ValueOnly,
    /// It does not match.
    No,
}

/// Every member name detection looks at (discriminators, shapes, markers, type keys,
/// `body_md`); a unit test checks the registry uses no other.
pub(crate) const DETECTION_KEYS: &[&str] = &[
    "body_md",
    "subject",
    "body",
    "scheming_detected",
    "message_type",
    "details",
    "suggested_action",
    "history",
    "next_steps",
    "type",
    "sender_id",
    "message_id",
    "name",
    "arguments",
    "allowed",
    "behavior",
    "driverTranscript",
];

/// Where a name sits in [`KEY_SLOTS`]: a hash of its length and three of its bytes that no two
/// [`DETECTION_KEYS`] share (building the table checks it), so a look-up compares one name.
const fn slot(k: &[u8]) -> usize {
    if k.len() < 2 {
        return 0;
    }
    (k.len() + k[0] as usize + k[1] as usize + 2 * k[k.len() - 1] as usize) % SLOTS
}

/// The size of [`KEY_SLOTS`].
const SLOTS: usize = 32;

/// Per [`slot`], the position in [`DETECTION_KEYS`] of the key there (`u8::MAX`: none).
const KEY_SLOTS: [u8; SLOTS] = {
    let mut slots = [u8::MAX; SLOTS];
    let mut i = 0;
    while i < DETECTION_KEYS.len() {
        let s = slot(DETECTION_KEYS[i].as_bytes());
        assert!(
            slots[s] == u8::MAX,
            "two detection keys share a slot: change `slot`"
        );
        slots[s] = i as u8;
        i += 1;
    }
    slots
};

/// The position of `k` in [`DETECTION_KEYS`].
#[inline]
pub(crate) fn detection_index(k: &str) -> Option<u32> {
    let i = KEY_SLOTS[slot(k.as_bytes())];
    same(DETECTION_KEYS.get(usize::from(i))?, k).then_some(u32::from(i))
}

/// The position of `k` in [`DETECTION_KEYS`], for a name known to be there (a constant).
pub(crate) const fn key_position(k: &str) -> u32 {
    let mut i = 0;
    while i < DETECTION_KEYS.len() {
        let d = DETECTION_KEYS[i].as_bytes();
        let k = k.as_bytes();
        if d.len() == k.len() {
            let mut j = 0;
            while j < d.len() && d[j] == k[j] {
                j += 1;
            }
            if j == d.len() {
                return i as u32;
            }
        }
        i += 1;
    }
    panic!("not a detection key")
}

/// A set of [`DETECTION_KEYS`], one bit per position.
pub(crate) type KeySet = u32;

/// Whether `set` holds the detection key at `index` in [`DETECTION_KEYS`].
#[inline]
pub(crate) fn holds(set: KeySet, index: u32) -> bool {
    set.checked_shr(index).is_some_and(|rest| rest & 1 != 0)
}

/// The set of these keys (each one of [`DETECTION_KEYS`]; a build error otherwise).
const fn key_set(keys: &[&str]) -> KeySet {
    let mut set = 0;
    let mut i = 0;
    while i < keys.len() {
        set |= 1 << key_position(keys[i]);
        i += 1;
    }
    set
}

/// The markers of each family, in registry order.
const MARKERS: [KeySet; 4] = {
    let mut markers = [0; 4];
    let mut f = 0;
    while f < REGISTRY.len() {
        markers[f] = key_set(REGISTRY[f].markers);
        f += 1;
    }
    markers
};

/// The detection keys some type's discriminator reads: the members that select types.
const SELECTING: KeySet = {
    let mut set = 0;
    let mut f = 0;
    while f < REGISTRY.len() {
        let types = REGISTRY[f].types;
        let mut t = 0;
        while t < types.len() {
            set |= 1 << key_position(types[t].discriminator.key());
            t += 1;
        }
        f += 1;
    }
    set
};

/// The object's detection-relevant members, gathered in one pass without hashing.
pub(crate) struct Members<'v, P: ?Sized = Value> {
    /// Their positions in [`DETECTION_KEYS`].
    keys: [u32; DETECTION_KEYS.len()],
    values: [Option<&'v P>; DETECTION_KEYS.len()],
    n: usize,
    /// Which of [`DETECTION_KEYS`] are there.
    present: KeySet,
}

impl<'v> Members<'v, dyn Probe + 'v> {
    /// Gathers the members of `obj` that detection looks at. (Detection reads its values
    /// through `dyn Probe`, so that every path shares one copy of it in the wasm module.)
    pub(crate) fn new<O: Object<'v>>(obj: O) -> Self {
        Members::gather(
            obj.members()
                .filter_map(|(k, v)| Some((detection_index(k)?, v.probe()))),
        )
    }
}

impl<'v, P: Probe + ?Sized> Members<'v, P> {
    /// Gathers the members detection looks at from `(position in DETECTION_KEYS, value)`
    /// pairs, whose positions must be distinct.
    pub(crate) fn gather(members: impl IntoIterator<Item = (u32, &'v P)>) -> Self {
        let mut m = Members {
            keys: [0; DETECTION_KEYS.len()],
            values: [None; DETECTION_KEYS.len()],
            n: 0,
            present: 0,
        };
        for (i, v) in members {
            if m.n == m.keys.len() {
                break;
            }
            m.keys[m.n] = i;
            m.values[m.n] = Some(v);
            m.n += 1;
            m.present |= 1 << i;
        }
        m
    }

    /// A gathered member by name.
    pub(crate) fn get(&self, key: &str) -> Option<&'v P> {
        // Only DETECTION_KEYS are gathered; `detection_keys_cover_the_registry` guarantees the
        // registry asks for no other member.
        let i = detection_index(key)?;
        let at = self.keys[..self.n].iter().position(|&k| k == i)?;
        self.values[at]
    }

    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// The detection keys that can decide a message type (a discriminator or shape member): all
/// but the Agent Mail body and the [`INERT_MARKERS`]. `decides_type_covers_the_discriminators`
/// checks it against the registry.
const DECIDING: KeySet = {
    let mut set: KeySet = (1 << DETECTION_KEYS.len()) - 1;
    set &= !(1 << key_position("body_md"));
    let mut i = 0;
    while i < INERT_MARKERS.len() {
        set &= !(1 << key_position(INERT_MARKERS[i].0));
        i += 1;
    }
    set
};

/// Whether the detection key at `index` in [`DETECTION_KEYS`] can decide a message type: after
/// such a member, detection may have an answer.
#[inline]
pub(crate) fn decides_type(index: u32) -> bool {
    holds(DECIDING, index)
}

/// Detection's answer without tallying every member, when one member settles it: of
/// `members`, exactly one can decide a type (the others are family markers or the Agent Mail
/// body), of the types it selects exactly one has its shape there (the others, of the same
/// family, fit by value only), and (without `hint`) no other family's marker is present. Then
/// [`detect`] gives the same answer without an issue; `None` says only that this shortcut does
/// not apply.
pub(crate) fn sole_answer<'v>(
    members: impl Iterator<Item = (u32, &'v dyn Probe)>,
    hint: Option<FamilyId>,
) -> Option<(&'static FamilySpec, &'static MessageTypeSpec)> {
    let mut present: KeySet = 0;
    let mut decider = None;
    for (key, value) in members {
        present |= 1 << key;
        if decides_type(key) {
            if decider.is_some() {
                return None;
            }
            decider = Some((key, value));
        }
    }
    let (key, value) = decider?;
    let Selection::One { family, ty, .. } =
        index::selection(key, value, present, hint.map(|id| id as usize))
    else {
        return None;
    };
    let claimed_elsewhere = hint.is_none() && present & other_markers(family) != 0;
    (!claimed_elsewhere).then_some((REGISTRY[family], ty))
}

/// The markers of every family but the one at `family` in the registry: members that claim an
/// object for another family.
fn other_markers(family: usize) -> KeySet {
    MARKERS
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != family)
        .fold(0, |set, (_, m)| set | m)
}

/// Detection's answer read ahead from an object's first members: `key` (with `value`) is the
/// first member that selects a type by its value ([`selects`]), `present` the detection members
/// read so far, with it. It answers ([`Ahead::Now`]) when `key` selects exactly one type whose
/// shape is there (the others it selects, of the same family, lack theirs) and no member read
/// could change the answer; it names the detection members that would change it if they came
/// later ([`Answer::unsettling`]): no type declares one (`unsettling_members_are_undeclared`).
/// [`Ahead::Later`]: the types selected wait for a shape member. For every object whose other
/// detection members are none of those, [`detect`] gives the same answer without an issue
/// (`index` tests check it).
pub(crate) fn answer_ahead(
    key: u32,
    value: &dyn Probe,
    present: KeySet,
    hint: Option<FamilyId>,
) -> Ahead {
    match index::selection(key, value, present, hint.map(|id| id as usize)) {
        Selection::One { family, ty, rivals } => {
            let unsettling = unsettling(family, key, hint) | rivals;
            if present & unsettling != 0 {
                return Ahead::Never;
            }
            Ahead::Now(Answer {
                family: REGISTRY[family],
                spec: ty,
                unsettling,
            })
        }
        // What else is read before a shape member comes is judged when it comes.
        Selection::Shapeless => Ahead::Later,
        Selection::Unclear => Ahead::Never,
    }
}

/// The detection members that would change an answer of family `family` (its position in the
/// registry) read from member `key`: another member that selects a type may add a type (or a
/// family) that fits; another family's marker claims the object for that family too (unless
/// the family is given); `body_md` makes it an Agent Mail row. Not `key` itself: it is a
/// declared member of the type, and the pass stops at a second one.
fn unsettling(family: usize, key: u32, hint: Option<FamilyId>) -> KeySet {
    let mut set = SELECTING | 1 << key_position("body_md");
    if hint.is_none() {
        set |= other_markers(family);
    }
    set & !(1 << key)
}

/// Detection's answer read ahead ([`answer_ahead`]).
pub(crate) enum Ahead {
    /// The answer.
    Now(Answer),
    /// No answer yet: the types selected wait for a shape member.
    Later,
    /// No answer read ahead: detection decides member by member.
    Never,
}

/// An answer read ahead: the type, and what would change it.
pub(crate) struct Answer {
    pub(crate) family: &'static FamilySpec,
    pub(crate) spec: &'static MessageTypeSpec,
    /// The detection members that would change the answer (positions in [`DETECTION_KEYS`]).
    pub(crate) unsettling: KeySet,
}

/// Whether the detection key at `index` selects message types by its value (it is some type's
/// discriminator key).
#[inline]
pub(crate) fn selects(index: u32) -> bool {
    holds(SELECTING, index)
}

/// Family markers that nothing else reads: no type's discriminator or shape member, no other
/// family's detection member. Once an object has a type, one more of its own family's such
/// markers cannot change detection's answer (`inert_markers_are_inert` checks the list).
const INERT_MARKERS: &[(&str, FamilyId)] = &[
    ("body", FamilyId::Pair),
    ("sender_id", FamilyId::Droid),
    ("message_id", FamilyId::Droid),
    ("arguments", FamilyId::PairClaude),
];

/// Whether detection's answer `family` for an object stays the same when the object also has
/// a member named `k`.
pub(crate) fn keeps_answer(family: FamilyId, k: &str) -> bool {
    INERT_MARKERS.iter().any(|(m, f)| *f == family && *m == k)
}

/// How a discriminator relates to an object (what [`index`] answers for every type at once;
/// used to name the candidates of an ambiguous message).
fn fit<P: Probe + ?Sized>(d: &Discriminator, obj: &Members<'_, P>) -> Fit {
    let yes = |b: bool| if b { Fit::Yes } else { Fit::No };
    let text = |key| obj.get(key).and_then(P::as_str);
    match d {
        Discriminator::Str { key, value, shape } => match text(key) {
            Some(text) if text == *value => {
                if shape.is_empty() || shape.iter().any(|k| obj.has(k)) {
                    Fit::Yes
                } else {
                    Fit::ValueOnly
                }
            }
            _ => Fit::No,
        },
        Discriminator::OneOf { key, values } => yes(text(key).is_some_and(|s| values.contains(&s))),
        Discriminator::Bool { key, value } => {
            yes(obj.get(key).and_then(P::as_bool) == Some(*value))
        }
        Discriminator::Tool { tool, prefixes } => yes(text("name").is_some_and(|n| {
            n == *tool || prefixes.iter().any(|p| n.strip_prefix(p) == Some(*tool))
        })),
        Discriminator::Has { key } => yes(obj.has(key)),
    }
}

/// Picks the family (honouring `hint`) and message type of an object, recording why when it
/// cannot. Each type's discriminator is tried once.
pub(crate) fn detect<P: Probe + ?Sized>(
    ctx: &mut Ctx,
    members: &Members<'_, P>,
    hint: Option<FamilyId>,
) -> (
    Option<&'static FamilySpec>,
    Option<&'static MessageTypeSpec>,
) {
    let mut tallies = index::tally(members, hint.map(|id| id as usize));
    let (fam, found) = match hint {
        Some(id) => (id.spec(), std::mem::take(&mut tallies[id as usize])),
        None => {
            let claims = |(i, t): &(usize, &Tally)| {
                t.hits > 0 || t.value_only > 0 || members.present & MARKERS[*i] != 0
            };
            let mut claimed = tallies.iter().enumerate().filter(claims);
            match (claimed.next(), claimed.next()) {
                (Some((i, _)), None) => (REGISTRY[i], std::mem::take(&mut tallies[i])),
                (Some(_), Some(_)) => {
                    ctx.error(LazyPath::Root, IssueCode::AmbiguousFamily, || {
                        let names: Vec<&str> = tallies
                            .iter()
                            .enumerate()
                            .filter(claims)
                            .map(|(i, _)| REGISTRY[i].id.as_str())
                            .collect();
                        format!(
                            "the message could belong to {}; pass an explicit family",
                            names.join(" or ")
                        )
                    });
                    return (None, None);
                }
                (None, _) => {
                    ctx.error(LazyPath::Root, IssueCode::UnknownFamily, || {
                        "no known protocol family recognises this message (looked for Pair \
                         `subject`+`body`, Agent-PO `message_type`, droid `type`/`sender_id`/\
                         `message_id`, Pair Claude `name`+`arguments`/`type`/`allowed`)"
                            .into()
                    });
                    return (None, None);
                }
            }
        }
    };
    (Some(fam), pick_type(ctx, fam, &found, members))
}

fn pick_type<P: Probe + ?Sized>(
    ctx: &mut Ctx,
    fam: &'static FamilySpec,
    s: &Tally,
    obj: &Members<'_, P>,
) -> Option<&'static MessageTypeSpec> {
    if s.hits == 1 {
        return s.hit;
    }
    if s.hits > 1 || s.value_only > 0 {
        ctx.error(LazyPath::Root, IssueCode::AmbiguousMessageType, || {
            let names: Vec<&str> = fam
                .types
                .iter()
                .filter(|t| fit(&t.discriminator, obj) != Fit::No)
                .map(|t| t.name)
                .collect();
            format!(
                "the message fits {} message types ({}); their shape members tell them apart",
                if s.hits > 1 { "several" } else { "none of the" },
                names.join(", ")
            )
        });
        return None;
    }
    match fam.type_keys.iter().find(|k| obj.has(k)) {
        Some(key)
            if obj
                .get(key)
                .and_then(P::as_str)
                .is_some_and(formats::is_placeholder) =>
        {
            // A seed template: its type is a placeholder, so there is no type to check.
            ctx.deviation(
                LazyPath::Root.key(key),
                IssueCode::UnknownMessageType,
                &formats::SEED_TEMPLATE,
                || format!("{key} is a template placeholder, not a message type"),
            );
        }
        Some(key) => ctx.error(
            LazyPath::Root.key(key),
            IssueCode::UnknownMessageType,
            || {
                // Strings are quoted (cut at 80 chars); other values are named by kind only,
                // so an arbitrarily deep value is never serialized here.
                let shown = match obj.get(key) {
                    Some(v) => match v.as_str() {
                        Some(v) => format!("{:?}", v.chars().take(80).collect::<String>()),
                        None => format!("a {}", v.kind()),
                    },
                    None => String::new(),
                };
                format!("{key} {shown} names no {} message type", fam.id.as_str())
            },
        ),
        None => {
            let key = fam.type_keys.first().copied().unwrap_or("type");
            ctx.error(LazyPath::Root.key(key), IssueCode::MissingField, || {
                format!("missing required field `{key}` naming the message type")
            });
        }
    }
    None
}

/// The JSON text inside an Agent Mail `body_md`: the whole body when it is a JSON object or
/// array, else the first ```json fenced block.
pub(crate) fn extract_json(body: &str) -> Option<&str> {
    let t = body.trim();
    if t.starts_with('{') || t.starts_with('[') {
        return Some(t);
    }
    let start = body.find("```json")?;
    let rest = &body[start + "```json".len()..];
    let nl = rest.find('\n')?;
    if !rest[..nl].trim().is_empty() {
        return None;
    }
    let content = &rest[nl + 1..];
    let end = content.find("```")?;
    Some(content[..end].trim())
}

#[cfg(test)]
mod tests {
    use super::{decides_type, detection_index, holds, unsettling, DETECTION_KEYS, INERT_MARKERS};
    use crate::protocol::registry::{FamilyId, Ty};

    #[test]
    fn detection_indexes_follow_the_list() {
        assert!(DETECTION_KEYS.len() <= 32, "a KeySet holds 32 keys");
        for (i, k) in DETECTION_KEYS.iter().enumerate() {
            assert_eq!(detection_index(k), Some(i as u32), "{k}");
        }
        for other in ["", "t", "nope", "task_id", "typ", "bodies", "Subject"] {
            assert_eq!(detection_index(other), None, "{other}");
        }
        // Against the list itself: every key with each byte changed, cut or lengthened, so
        // names that share a slot with a key are looked up too.
        let model = |k: &str| {
            DETECTION_KEYS
                .iter()
                .position(|d| *d == k)
                .map(|i| i as u32)
        };
        for key in DETECTION_KEYS {
            let mut near = vec![format!("{key}s"), format!("_{key}"), key[1..].to_owned()];
            for i in 0..key.len() {
                for c in [b'a', b'e', b'_', b'Z'] {
                    let mut b = key.as_bytes().to_vec();
                    b[i] = c;
                    near.push(String::from_utf8(b).unwrap());
                }
            }
            for k in &near {
                assert_eq!(detection_index(k), model(k), "{k}");
            }
        }
    }
    use crate::protocol::registry::{Discriminator, REGISTRY};

    #[test]
    fn registry_is_in_family_order() {
        for (i, fam) in REGISTRY.iter().enumerate() {
            assert_eq!(fam.id as usize, i, "{}", fam.id.as_str());
        }
    }

    #[test]
    fn inert_markers_are_inert() {
        for (marker, family) in INERT_MARKERS {
            assert!(family.spec().markers.contains(marker), "{marker}");
            for fam in REGISTRY {
                assert!(
                    fam.id == *family || !fam.detection_keys.contains(marker),
                    "{marker} is read by {}",
                    fam.id.as_str()
                );
                for t in fam.types {
                    assert_ne!(t.discriminator.key(), *marker, "{}", t.name);
                    if let Discriminator::Str { shape, .. } = t.discriminator {
                        assert!(!shape.contains(marker), "{}", t.name);
                    }
                }
            }
        }
    }

    /// The pass checking a type answered ahead looks for the members that would change the
    /// answer among the undeclared ones only: no type declares one, and each declares its own
    /// discriminator key (the pass stops at a declared member seen twice). So does the pass
    /// checking a bare Pair body for `subject` and `body` members: no body declares them.
    #[test]
    fn unsettling_members_are_undeclared() {
        for t in FamilyId::Pair.spec().types {
            if let Some(body) = t.root.fields.iter().find(|f| f.name == "body") {
                if let Ty::Object(obj) = &body.ty {
                    let own = |name| obj.fields.iter().any(|f| f.name == name);
                    assert!(!own("subject") && !own("body"), "{}", t.name);
                }
            }
        }
        for (family, fam) in REGISTRY.iter().enumerate() {
            for t in fam.types {
                let key = t.discriminator.key();
                assert!(
                    t.root.fields.iter().any(|f| f.name == key),
                    "{key} of {}",
                    t.name
                );
                // With the shape members of the types its value selects too (they lack theirs
                // when it is answered).
                let rivals = fam
                    .types
                    .iter()
                    .filter(|u| u.name != t.name)
                    .filter_map(|u| match (&t.discriminator, &u.discriminator) {
                        (
                            Discriminator::Str { key, value, .. },
                            Discriminator::Str {
                                key: k,
                                value: v,
                                shape,
                                ..
                            },
                        ) if key == k && value == v => Some(*shape),
                        _ => None,
                    })
                    .flatten()
                    .fold(0, |set, k| set | 1 << detection_index(k).unwrap());
                assert!(
                    t.name != "BLOCKED_NOTIFICATION@po" || rivals != 0,
                    "the two BLOCKED_NOTIFICATIONs are each other's rivals"
                );
                let set = unsettling(family, detection_index(key).unwrap(), None) | rivals;
                for f in t.root.fields {
                    let i = detection_index(f.name);
                    assert!(
                        i.is_none_or(|i| !holds(set, i)),
                        "{} declares {}",
                        t.name,
                        f.name
                    );
                }
            }
        }
    }

    #[test]
    fn decides_type_covers_the_discriminators() {
        for fam in REGISTRY {
            for t in fam.types {
                let decides = |k: &str| detection_index(k).is_some_and(decides_type);
                let key = t.discriminator.key();
                assert!(decides(key), "{key} of {}", t.name);
                if let Discriminator::Str { shape, .. } = t.discriminator {
                    for k in shape {
                        assert!(decides(k), "{k} of {}", t.name);
                    }
                }
            }
        }
    }

    #[test]
    fn detection_keys_cover_the_registry() {
        for fam in REGISTRY {
            let mut keys: Vec<&str> = fam.markers.to_vec();
            keys.extend(fam.type_keys);
            for t in fam.types {
                keys.push(t.discriminator.key());
                if let crate::protocol::registry::Discriminator::Str { shape, .. } = t.discriminator
                {
                    keys.extend(shape);
                }
            }
            for k in keys {
                assert!(
                    DETECTION_KEYS.contains(&k),
                    "{k} missing from DETECTION_KEYS"
                );
            }
            // The prefilter in `scan` must see every member that can make the family claim.
            let claiming = fam
                .markers
                .iter()
                .copied()
                .chain(fam.types.iter().map(|t| t.discriminator.key()));
            for k in claiming {
                let name = fam.id.as_str();
                assert!(
                    fam.detection_keys.contains(&k),
                    "{k} missing from {name}'s detection_keys"
                );
            }
        }
    }
}
