//! Reading values and objects against their rules: a value checked as it is read (nothing
//! built, its issues listed at its path), a declared member found by name ([`Walk`]), an
//! object's members in any order.

use super::pass::{Level, Seen, State};
use super::scan::{Read, Scanner, Stop};
use super::secrets;
use crate::protocol::detect::{detection_index, holds, KeySet};
use crate::protocol::issue::LazyPath;
use crate::protocol::registry::{ObjectSpec, Ty};
use crate::protocol::same::same;
use crate::protocol::validator::{
    check_leaf, check_min_items, check_missing, check_string, wrong_type,
};
use std::borrow::Cow;

/// Reads one value and checks it against `ty`, listing its issues at `path`. (Most values
/// are read here, which builds nothing; [`value`] says what a value was, for the few members
/// detection or a cross-field rule reads.)
pub(super) fn check_value<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    ty: &'static Ty,
    level: Level,
    path: LazyPath<'_>,
) -> Read<()> {
    match sc.peek().ok_or(Stop)? {
        b'"' => {
            sc.bump();
            let s = sc.string()?;
            check_string(st.ctx, ty, &s, path);
        }
        b'{' => match ty {
            Ty::Object(spec) => {
                sc.bump();
                sc.enter()?;
                object(sc, st, spec, level, 0, path)?;
                sc.leave();
            }
            Ty::AnyObject | Ty::Any => secrets::any(sc, st, None, path)?,
            _ => {
                wrong_type(st.ctx, path, ty, "object");
                sc.skip_value()?;
            }
        },
        b'[' => match ty {
            Ty::Array { items, min_items } => {
                sc.bump();
                sc.enter()?;
                let mut len = 0;
                while sc.next_item(len == 0)? {
                    check_value(sc, st, items, Level::Deep, path.index(len))?;
                    len += 1;
                }
                sc.leave();
                check_min_items(st.ctx, *min_items, len, path);
            }
            Ty::Any => secrets::any(sc, st, None, path)?,
            _ => {
                wrong_type(st.ctx, path, ty, "array");
                sc.skip_value()?;
            }
        },
        _ => {
            let scalar = sc.scalar()?;
            check_leaf(st.ctx, ty, scalar.leaf(), path);
        }
    }
    Ok(())
}

/// [`check_value`], saying what the value was, a string with its text.
pub(super) fn value<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    ty: &'static Ty,
    level: Level,
    path: LazyPath<'_>,
) -> Read<Seen<'a>> {
    let at = sc.pos();
    match sc.peek().ok_or(Stop)? {
        b'"' => {
            sc.bump();
            let s = sc.string()?;
            check_string(st.ctx, ty, &s, path);
            Ok(Seen::Str(s))
        }
        b'{' => check_value(sc, st, ty, level, path).map(|()| Seen::Object(at)),
        b'[' => check_value(sc, st, ty, level, path).map(|()| Seen::Array(at)),
        _ => {
            let scalar = sc.scalar()?;
            check_leaf(st.ctx, ty, scalar.leaf(), path);
            Ok(Seen::of(scalar))
        }
    }
}

/// Reads a value without checking it (a member held until detection answers): a leaf as it
/// was, an array or object as where it starts, to be read again against its rule.
#[cfg_attr(feature = "speed", inline(always))]
pub(super) fn hold<'a>(sc: &mut Scanner<'a>) -> Read<Seen<'a>> {
    let at = sc.pos();
    match sc.peek().ok_or(Stop)? {
        b'"' => {
            sc.bump();
            sc.string().map(Seen::Str)
        }
        b'{' => sc.skip_value().map(|()| Seen::Object(at)),
        b'[' => sc.skip_value().map(|()| Seen::Array(at)),
        _ => sc.scalar().map(Seen::of),
    }
}

/// The declared members of one object seen so far.
pub(super) struct Walk {
    spec: &'static ObjectSpec,
    /// Bit `i`: field `i` was seen.
    seen: u64,
    /// Where to start looking for the next member (members usually come in declaration order).
    next: usize,
}

/// The most fields an object may declare for this path: the bits of `seen` and of
/// `ObjectSpec::required` (a registry test checks it).
pub(super) const MAX_FIELDS: usize = u64::BITS as usize;

impl Walk {
    pub(super) fn new(spec: &'static ObjectSpec) -> Walk {
        Walk {
            spec,
            seen: 0,
            next: 0,
        }
    }

    /// Reads a member's name, and finds the declared field it names. Members usually come in
    /// declaration order, so the next field's name is tried first, as written.
    #[cfg_attr(feature = "speed", inline(always))]
    pub(super) fn read_name<'a>(
        &mut self,
        sc: &mut Scanner<'a>,
    ) -> Read<(Cow<'a, str>, Option<usize>)> {
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
    #[inline]
    pub(super) fn field(&mut self, key: &str) -> Option<usize> {
        let fields = self.spec.fields;
        let i = match fields.get(self.next) {
            Some(f) if same(f.name, key) => self.next,
            _ => fields.iter().position(|f| same(f.name, key))?,
        };
        self.next = i + 1;
        Some(i)
    }

    /// Marks field `i` seen; a member seen twice gives up (the `Value` parser keeps the last
    /// one, so the full path explains it).
    pub(super) fn see(&mut self, i: usize) -> Read<()> {
        let bit = 1u64 << (i % MAX_FIELDS);
        if self.seen & bit != 0 || i >= MAX_FIELDS {
            return Err(Stop);
        }
        self.seen |= bit;
        Ok(())
    }

    /// Lists the required fields not seen (`path`: the object's).
    pub(super) fn finish(&self, st: &mut State<'_, '_>, path: LazyPath<'_>) {
        let mut missing = self.spec.required() & !self.seen;
        while missing != 0 {
            let f = &self.spec.fields[missing.trailing_zeros() as usize];
            check_missing(st.ctx, f, path.key(f.name));
            missing &= missing - 1;
        }
    }
}

/// Checks one declared member's value (`path`: its object's), keeping it when a cross-field
/// rule reads it; returns it when kept or when `keep`. Inlined into its three callers (the
/// member loop above all): measured paired against the floor, 0.408 -> 0.428 of its
/// throughput over 10 runs.
#[inline(always)]
pub(super) fn member<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    walk: &mut Walk,
    i: usize,
    level: Level,
    keep: bool,
    path: LazyPath<'_>,
) -> Read<Option<Seen<'a>>> {
    walk.see(i)?;
    let f = &walk.spec.fields[i];
    let (object, child) = level.child(f.name);
    let wanted = object.filter(|o| st.wants(o, f.name));
    if !keep && wanted.is_none() {
        check_value(sc, st, &f.ty, child, path.key(f.name))?;
        return Ok(None);
    }
    let seen = value(sc, st, &f.ty, child, path.key(f.name))?;
    if let Some(object) = wanted {
        st.keep(object, f.name, seen.clone())?;
    }
    Ok(Some(seen))
}

/// Checks an object's members (after its `{`, at `path`) against its declared fields; `true`
/// when an undeclared member named in `forbid` (detection keys, by position) is present (the
/// callers forbid no declared member: `unsettling_members_are_undeclared` in `detect`).
pub(super) fn object<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    spec: &'static ObjectSpec,
    level: Level,
    forbid: KeySet,
    path: LazyPath<'_>,
) -> Read<bool> {
    let mut walk = Walk::new(spec);
    let mut forbidden = false;
    let mut first = true;
    while sc.next_member(first)? {
        first = false;
        let (key, found) = walk.read_name(sc)?;
        match found {
            Some(i) => {
                member(sc, st, &mut walk, i, level, false, path)?;
            }
            // An undeclared member: read, not checked, its strings scanned for secrets.
            None => {
                if forbid != 0 {
                    forbidden |= detection_index(&key).is_some_and(|i| holds(forbid, i));
                }
                secrets::any(sc, st, Some(&key), path.key(&key))?;
            }
        }
    }
    walk.finish(st, path);
    Ok(forbidden)
}
