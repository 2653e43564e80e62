//! The registry's discriminators indexed by the member values that select them, so detection
//! looks each detection member up once instead of trying every type of every family.
//!
//! The index answers exactly what trying each type's discriminator with [`super::fit`]
//! answers (`the_index_agrees_with_fit` checks it over every value the registry names).

use super::{detection_index, KeySet, Members, Probe};
use crate::protocol::registry::{Discriminator, MessageTypeSpec, REGISTRY};
use crate::protocol::same::same;
use std::borrow::Cow;
use std::sync::OnceLock;

/// How the types of one family fit an object.
#[derive(Default)]
pub(super) struct Tally {
    /// The last type that fits.
    pub(super) hit: Option<&'static MessageTypeSpec>,
    /// How many types fit.
    pub(super) hits: usize,
    /// How many types fit by value but lack a shape member.
    pub(super) value_only: usize,
}

/// One type a detection member can select.
struct Entry {
    /// The member's position in [`super::DETECTION_KEYS`].
    key: u32,
    /// What its value must be.
    want: Want,
    /// Its family's position in the registry.
    family: usize,
    ty: &'static MessageTypeSpec,
    /// Shape members, one of which must be present (empty: no condition).
    shape: KeySet,
}

/// What a member's value must be for an [`Entry`] to select its type.
enum Want {
    Text(Cow<'static, str>),
    Bool(bool),
    /// Anything: the member's presence selects the type.
    Present,
}

/// The number of hash buckets of the text entries.
const BUCKETS: usize = 256;

/// The whole index, built once from the registry.
struct Index {
    /// The entries that want a string, grouped by [`bucket`]: bucket `b` is
    /// `text[starts[b]..starts[b + 1]]`.
    text: Vec<Entry>,
    starts: Vec<usize>,
    /// The other entries (a boolean, or presence only).
    other: Vec<Entry>,
    /// The keys the entries of `text` and of `other` read.
    text_keys: KeySet,
    other_keys: KeySet,
}

/// The bucket of string `text` under detection key `key`.
fn bucket(key: u32, text: &str) -> usize {
    let t = text.as_bytes();
    let n = t.len();
    let mut h = key.wrapping_mul(0x9E37_79B1) ^ (n as u32).wrapping_mul(0x85EB_CA6B);
    if let (Some(&a), Some(&b), Some(&c)) = (t.first(), t.get(n / 2), t.last()) {
        h ^= u32::from(a) | u32::from(b) << 8 | u32::from(c) << 16;
        h = h.wrapping_mul(0xC2B2_AE35);
    }
    (h >> 24) as usize % BUCKETS
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(build)
}

fn build() -> Index {
    let key = |k: &str| detection_index(k).expect("a detection key");
    let mut text = Vec::new();
    let mut other = Vec::new();
    for (family, fam) in REGISTRY.iter().enumerate() {
        for ty in fam.types {
            let entry = |key: u32, want: Want, shape: KeySet| Entry {
                key,
                want,
                family,
                ty,
                shape,
            };
            match &ty.discriminator {
                Discriminator::Str {
                    key: k,
                    value,
                    shape,
                } => {
                    let shape = shape.iter().fold(0, |s, k| s | 1 << key(k));
                    text.push(entry(key(k), Want::Text(Cow::Borrowed(value)), shape));
                }
                Discriminator::OneOf { key: k, values } => {
                    let values = distinct(values.iter().map(|v| Cow::Borrowed(*v)));
                    for v in values {
                        text.push(entry(key(k), Want::Text(v), 0));
                    }
                }
                Discriminator::Tool { tool, prefixes } => {
                    let names = std::iter::once(Cow::Borrowed(*tool))
                        .chain(prefixes.iter().map(|p| Cow::Owned(format!("{p}{tool}"))));
                    for name in distinct(names) {
                        text.push(entry(key("name"), Want::Text(name), 0));
                    }
                }
                Discriminator::Bool { key: k, value } => {
                    other.push(entry(key(k), Want::Bool(*value), 0));
                }
                Discriminator::Has { key: k } => other.push(entry(key(k), Want::Present, 0)),
            }
        }
    }
    let text_bucket = |e: &Entry| match &e.want {
        Want::Text(t) => bucket(e.key, t),
        _ => 0,
    };
    text.sort_by_key(text_bucket);
    let starts = (0..=BUCKETS)
        .map(|b| text.partition_point(|e| text_bucket(e) < b))
        .collect();
    let keys = |entries: &[Entry]| entries.iter().fold(0, |s, e| s | 1 << e.key);
    Index {
        text_keys: keys(&text),
        other_keys: keys(&other),
        text,
        starts,
        other,
    }
}

/// The distinct strings of `all` (an entry per string, so a value counts once).
fn distinct(all: impl Iterator<Item = Cow<'static, str>>) -> Vec<Cow<'static, str>> {
    let mut all: Vec<_> = all.collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// Calls `select` with each entry the member `key` with `value` selects, its shape not yet
/// looked at.
fn selected<P: Probe + ?Sized>(index: &Index, key: u32, value: &P, mut select: impl FnMut(&Entry)) {
    let bit = 1 << key;
    if index.text_keys & bit != 0 {
        if let Some(s) = value.as_str() {
            let b = bucket(key, s);
            for e in &index.text[index.starts[b]..index.starts[b + 1]] {
                if e.key == key && matches!(&e.want, Want::Text(t) if same(t, s)) {
                    select(e);
                }
            }
        }
    }
    if index.other_keys & bit != 0 {
        for e in index.other.iter().filter(|e| e.key == key) {
            let fits = match &e.want {
                Want::Bool(b) => value.as_bool() == Some(*b),
                Want::Present => true,
                Want::Text(_) => false,
            };
            if fits {
                select(e);
            }
        }
    }
}

/// How the types of each family (in registry order; only `only` when given) fit the object.
pub(super) fn tally<P: Probe + ?Sized>(obj: &Members<'_, P>, only: Option<usize>) -> [Tally; 4] {
    let index = index();
    let mut tallies: [Tally; 4] = Default::default();
    for (&key, value) in obj.keys[..obj.n].iter().zip(&obj.values) {
        let Some(value) = value else {
            continue;
        };
        selected(index, key, *value, |e| {
            if only.is_some_and(|f| f != e.family) {
                return;
            }
            let t = &mut tallies[e.family];
            if e.shape == 0 || obj.present & e.shape != 0 {
                t.hit = Some(e.ty);
                t.hits += 1;
            } else {
                t.value_only += 1;
            }
        });
    }
    tallies
}

/// What the member `key` with `value` selects in an object with the detection members
/// `present` (in family `only` when given).
pub(super) enum Selection {
    /// Exactly one type selected has its shape there (its family's position in the registry,
    /// and the type); the other types selected, of the same family, lack theirs. Their shape
    /// members (`rivals`) would make the object fit two types.
    One {
        family: usize,
        ty: &'static MessageTypeSpec,
        rivals: KeySet,
    },
    /// Types of one family are selected, none with its shape there yet.
    Shapeless,
    /// No type, or types of several families, or several with their shapes there.
    Unclear,
}

/// What the member `key` with `value` selects ([`Selection`]).
pub(super) fn selection<P: Probe + ?Sized>(
    key: u32,
    value: &P,
    present: KeySet,
    only: Option<usize>,
) -> Selection {
    // The families of the types selected (a bit each), the last type with its shape there.
    let (mut families, mut shaped, mut found, mut rivals) = (0u32, 0, None, 0);
    selected(index(), key, value, |e| {
        if only.is_some_and(|f| f != e.family) {
            return;
        }
        families |= 1 << e.family;
        if e.shape == 0 || present & e.shape != 0 {
            shaped += 1;
            found = Some(e.ty);
        } else {
            rivals |= e.shape;
        }
    });
    if !families.is_power_of_two() {
        return Selection::Unclear;
    }
    match found {
        Some(ty) if shaped == 1 => Selection::One {
            family: families.trailing_zeros() as usize,
            ty,
            rivals,
        },
        Some(_) => Selection::Unclear,
        None => Selection::Shapeless,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ctx::Ctx;
    use crate::protocol::detect::{
        answer_ahead, detect, fit, selects, sole_answer, Ahead, Fit, DETECTION_KEYS,
    };
    use crate::protocol::registry::{FamilyId, FamilySpec};
    use serde_json::{json, Map, Value};

    /// Every string a discriminator names (with the tool prefixes), and a few others.
    fn strings() -> Vec<String> {
        let mut all: Vec<String> = ["", "x", "mcp__", "PAIR_INIT ", "pair_init"]
            .map(String::from)
            .to_vec();
        for fam in REGISTRY {
            for t in fam.types {
                match &t.discriminator {
                    Discriminator::Str { value, .. } => all.push((*value).into()),
                    Discriminator::OneOf { values, .. } => {
                        all.extend(values.iter().map(|v| (*v).into()));
                    }
                    Discriminator::Tool { tool, prefixes } => {
                        all.push((*tool).into());
                        all.extend(prefixes.iter().map(|p| format!("{p}{tool}")));
                        all.extend(prefixes.iter().map(|p| (*p).into()));
                    }
                    Discriminator::Bool { .. } | Discriminator::Has { .. } => {}
                }
            }
        }
        all
    }

    /// `count` objects of one to four detection members, with the family each is tallied for
    /// (`None`: every family); many of their members select some type, with or without its
    /// shape, and the others are any detection key with a boolean or some string.
    fn objects(count: usize) -> Vec<(Map<String, Value>, Option<usize>)> {
        let strings = strings();
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let mut all = Vec::with_capacity(count);
        for _ in 0..count {
            let mut obj = Map::new();
            for _ in 0..1 + next(4) {
                let (key, value) = match next(5) {
                    0 | 1 => {
                        // A member that selects some type, and maybe one of its shape members.
                        let fam = REGISTRY[next(REGISTRY.len())];
                        let t = &fam.types[next(fam.types.len())];
                        let key = t.discriminator.key();
                        if let Discriminator::Str { shape, .. } = t.discriminator {
                            if !shape.is_empty() && next(2) == 0 {
                                obj.insert(shape[next(shape.len())].into(), json!(0));
                            }
                        }
                        let value = match &t.discriminator {
                            Discriminator::Str { value, .. } => json!(value),
                            Discriminator::OneOf { values, .. } => {
                                json!(values[next(values.len())])
                            }
                            Discriminator::Tool { tool, prefixes } => {
                                match next(prefixes.len() + 1) {
                                    0 => json!(tool),
                                    p => json!(format!("{}{tool}", prefixes[p - 1])),
                                }
                            }
                            Discriminator::Bool { value, .. } => json!(value),
                            Discriminator::Has { .. } => json!(null),
                        };
                        (key, value)
                    }
                    k => {
                        let value = match k {
                            2 => json!(next(2) == 0),
                            _ => Value::String(strings[next(strings.len())].clone()),
                        };
                        (DETECTION_KEYS[next(DETECTION_KEYS.len())], value)
                    }
                };
                obj.insert(key.into(), value);
            }
            let only = (next(3) == 0).then(|| next(4));
            all.push((obj, only));
        }
        all
    }

    #[test]
    fn the_index_agrees_with_fit() {
        let mut fits = [0usize; 4];
        for (obj, only) in objects(20_000) {
            let members = Members::new(&obj);
            let tallies = tally(&members, only);
            for (i, fam) in REGISTRY.iter().enumerate() {
                let (mut hits, mut value_only, mut hit) = (0, 0, None);
                if only.is_none_or(|f| f == i) {
                    for t in fam.types {
                        match fit(&t.discriminator, &members) {
                            Fit::Yes => (hits, hit) = (hits + 1, Some(t.name)),
                            Fit::ValueOnly => value_only += 1,
                            Fit::No => {}
                        }
                    }
                }
                fits[if value_only > 0 { 3 } else { hits.min(2) }] += 1;
                let got = &tallies[i];
                let got_hit = (got.hits == 1).then(|| got.hit.map(|t| t.name)).flatten();
                assert_eq!(
                    (got.hits, got.value_only, got_hit),
                    (hits, value_only, (hits == 1).then_some(hit).flatten()),
                    "{} over {obj:?}",
                    fam.id.as_str()
                );
            }
        }
        // Each outcome came up often: no fit, one fit, several fits, fits by value only.
        assert!(fits.iter().all(|&n| n > 300), "{fits:?}");
    }

    /// That [`detect`] answers `obj` (its detection `members`) with `answer`, without an issue.
    fn assert_detected(
        obj: &Map<String, Value>,
        members: &Members<'_, dyn Probe + '_>,
        hint: Option<FamilyId>,
        (family, ty): (&FamilySpec, &MessageTypeSpec),
    ) {
        let ((f, t), issue) = Ctx::verdict().trial(|ctx| detect(ctx, members, hint));
        assert!(!issue, "{obj:?}");
        assert_eq!(
            (f.map(|f| f.id.as_str()), t.map(|t| t.name)),
            (Some(family.id.as_str()), Some(ty.name)),
            "{obj:?}"
        );
    }

    #[test]
    fn the_sole_answer_is_detections() {
        let mut answered = 0;
        for (obj, only) in objects(20_000) {
            let members = Members::new(&obj);
            let hint = only.map(|f| REGISTRY[f].id);
            let gathered = members.keys[..members.n].iter().zip(&members.values);
            let sole = sole_answer(gathered.map(|(k, v)| (*k, v.unwrap())), hint);
            let Some((family, ty)) = sole else {
                continue;
            };
            answered += 1;
            assert_detected(&obj, &members, hint, (family, ty));
        }
        // The shortcut answers for many of them (a fifth of the objects have one member).
        assert!(answered > 2_000, "{answered}");
    }

    #[test]
    fn the_answer_ahead_is_detections() {
        let (mut answered, mut settled, mut waited) = (0, 0, 0);
        for (obj, only) in objects(20_000) {
            let members = Members::new(&obj);
            let hint = only.map(|f| REGISTRY[f].id);
            let gathered: Vec<(u32, &dyn Probe)> = members.keys[..members.n]
                .iter()
                .zip(&members.values)
                .map(|(k, v)| (*k, v.unwrap()))
                .collect();
            // Read ahead as the pass does: from the first member that selects a type, until
            // the answer, or a second member that selects.
            let Some(first) = gathered.iter().position(|(k, _)| selects(*k)) else {
                continue;
            };
            let (key, value) = gathered[first];
            let mut present = gathered[..=first].iter().fold(0, |s, (k, _)| s | 1 << k);
            let mut at = first;
            let answer = loop {
                match answer_ahead(key, value, present, hint) {
                    Ahead::Now(answer) => break Some(answer),
                    Ahead::Never => break None,
                    Ahead::Later => {}
                }
                at += 1;
                match gathered.get(at) {
                    Some((k, _)) if !selects(*k) => present |= 1 << k,
                    _ => break None,
                }
            };
            let Some(answer) = answer else {
                continue;
            };
            answered += 1;
            waited += usize::from(at > first);
            let later = gathered[at + 1..].iter().fold(0, |s, (k, _)| s | 1 << k);
            if later & (answer.unsettling | 1 << key) != 0 {
                continue;
            }
            settled += 1;
            assert_detected(&obj, &members, hint, (answer.family, answer.spec));
        }
        // Over 20,000 objects, 8,575 answer ahead (38 after waiting for a shape member) and
        // 3,296 have no unsettling member later.
        assert!(
            answered > 6_000 && settled > 2_500 && waited > 20,
            "{answered} {settled} {waited}"
        );
    }

    #[test]
    fn the_selecting_keys_are_the_index_entries_keys() {
        let index = index();
        assert_eq!(
            crate::protocol::detect::SELECTING,
            index.text_keys | index.other_keys
        );
    }

    #[test]
    fn text_buckets_hold_few_entries() {
        let index = index();
        let widest = index.starts.windows(2).map(|w| w[1] - w[0]).max();
        assert!(widest <= Some(3), "{widest:?} entries share a bucket");
    }
}
