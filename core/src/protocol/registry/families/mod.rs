//! The registry's data, one module per family, plus small constructors that keep it terse.

pub mod agent_po;
pub mod droid;
pub mod pair;
pub mod pair_claude;

use super::spec::{Deviation, FieldSpec, ObjectSpec, Pattern, Presence, Str, Ty};

/// A required member.
pub(crate) const fn req(name: &'static str, ty: Ty) -> FieldSpec {
    FieldSpec {
        name,
        presence: Presence::Required,
        ty,
    }
}

/// An optional member.
pub(crate) const fn opt(name: &'static str, ty: Ty) -> FieldSpec {
    FieldSpec {
        name,
        presence: Presence::Optional,
        ty,
    }
}

/// A member required in strict mode only.
pub(crate) const fn strict(name: &'static str, dev: &'static Deviation, ty: Ty) -> FieldSpec {
    FieldSpec {
        name,
        presence: Presence::RequiredStrict(dev),
        ty,
    }
}

/// Free text (may be empty).
pub(crate) const TEXT: Ty = Ty::Str(Str::Text { non_empty: false });
/// Non-empty text.
pub(crate) const NON_EMPTY: Ty = Ty::Str(Str::Text { non_empty: true });
/// A boolean.
pub(crate) const BOOL: Ty = Ty::Bool;
/// Any object.
pub(crate) const ANY_OBJECT: Ty = Ty::AnyObject;
/// Any value.
pub(crate) const ANY: Ty = Ty::Any;
/// A non-negative integer.
pub(crate) const COUNT: Ty = Ty::Int {
    min: Some(0),
    max: None,
};
/// A non-negative number.
pub(crate) const NON_NEG: Ty = Ty::Num {
    min: Some(0.0),
    max: None,
};
/// An array of free text.
pub(crate) const TEXTS: Ty = arr(&TEXT);

/// Exactly this string.
pub(crate) const fn konst(value: &'static str) -> Ty {
    Ty::Str(Str::Const(value))
}

/// One of these strings.
pub(crate) const fn one_of(values: &'static [&'static str]) -> Ty {
    Ty::Str(Str::Enum {
        values,
        lenient: &[],
    })
}

/// A string matching a pattern.
pub(crate) const fn pattern(p: &'static Pattern) -> Ty {
    Ty::Str(Str::Pattern(p))
}

/// An RFC 3339 date-time.
pub(crate) const DATE_TIME: Ty = Ty::Str(Str::DateTime { lenient: None });

/// An integer in `min..=max`.
pub(crate) const fn int(min: i64, max: i64) -> Ty {
    Ty::Int {
        min: Some(min),
        max: Some(max),
    }
}

/// An array of `items`.
pub(crate) const fn arr(items: &'static Ty) -> Ty {
    Ty::Array {
        items,
        min_items: 0,
    }
}

/// A non-empty array of `items`.
pub(crate) const fn arr1(items: &'static Ty) -> Ty {
    Ty::Array {
        items,
        min_items: 1,
    }
}

/// An object with these members.
pub(crate) const fn obj(fields: &'static [FieldSpec]) -> Ty {
    Ty::Object(ObjectSpec::new(fields))
}
