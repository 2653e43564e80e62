//! The registry-driven checker: walks a JSON value ([`Json`]: a parsed `Value`, or the tree the
//! path from bytes reads) against a [`MessageTypeSpec`] without cloning it, allocating paths and
//! messages only when an issue is produced.

use super::ctx::{check_secrets, Ctx};
use super::issue::{IssueCode, LazyPath};
use super::issue_log::{write_pieces, Message};
use super::json::{Json, Node, Num, Object};
use super::registry::declared_version;
use super::registry::formats::is_rfc3339;
use super::registry::{CrossCheck, FieldSpec, MessageTypeSpec, ObjectSpec, Presence, Str, Ty};
use super::same::same;
use super::secrets;
use std::marker::PhantomData;

/// Scans a value no rule covers for secrets: its strings, each member's string value with the
/// member's name.
pub(crate) fn scan_any<'v, J: Json<'v>>(
    ctx: &mut Ctx,
    name: Option<&str>,
    v: J,
    path: LazyPath<'_>,
) {
    if ctx.done() {
        return;
    }
    match v.node() {
        Node::Str(s) => check_secrets(ctx, name, s, path),
        Node::Array(items) => {
            for (i, item) in items.enumerate() {
                scan_any(ctx, None, item, path.index(i));
            }
        }
        Node::Object(obj) => {
            for (k, item) in obj.members() {
                scan_any(ctx, Some(k), item, path.key(k));
            }
        }
        Node::Null | Node::Bool(_) | Node::Num(_) => {}
    }
}

/// A JSON value that is neither an array nor an object: what the leaf rules check.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Leaf<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Num(Num),
    /// A string.
    Str(&'a str),
}

impl Leaf<'_> {
    /// The JSON kind, for messages.
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Leaf::Null => "null",
            Leaf::Bool(_) => "boolean",
            Leaf::Num(_) => "number",
            Leaf::Str(_) => "string",
        }
    }
}

/// What a rule expects, for `wrong_type` messages.
fn expected(ty: &Ty) -> &'static str {
    match ty {
        Ty::Str(_) => "a string",
        Ty::Int { .. } => "an integer",
        Ty::Num { .. } => "a number",
        Ty::Bool | Ty::BoolConst(_) => "a boolean",
        Ty::Array { .. } => "an array",
        Ty::Object(_) | Ty::AnyObject => "an object",
        Ty::Any => "any value",
    }
}

/// Checks a whole message of type `spec`; `skip` names root members not checked (transport-supplied).
pub(crate) fn check_message<'v, O: Object<'v>>(
    ctx: &mut Ctx,
    spec: &MessageTypeSpec,
    root: O,
    skip: &[&str],
) {
    check_members(ctx, &spec.root, root, LazyPath::Root, skip);
    let root = Parsed(root, PhantomData);
    for check in spec.checks {
        check_cross(ctx, check, &root);
    }
}

/// Where the cross-field rules read their members: the parsed message, or the members the
/// path from bytes kept.
pub(crate) trait Lookup {
    /// The string member `key` of the root (`object` empty) or of the root's object member
    /// `object`; `None` when absent or not a string.
    fn text(&self, object: &str, key: &str) -> Option<&str>;
    /// The integer value of the root member `key` (see [`Num::as_integer`]).
    fn integer(&self, key: &str) -> Option<f64>;
}

/// A parsed message's root object, as the cross-field rules read it.
struct Parsed<'v, O>(O, PhantomData<&'v ()>);

impl<'v, O: Object<'v>> Lookup for Parsed<'v, O> {
    fn text(&self, object: &str, key: &str) -> Option<&str> {
        let member = if object.is_empty() {
            self.0.get(key)
        } else {
            match self.0.get(object)?.node() {
                Node::Object(obj) => obj.get(key),
                _ => None,
            }
        };
        match member?.node() {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    fn integer(&self, key: &str) -> Option<f64> {
        match self.0.get(key)?.node() {
            Node::Num(n) => n.as_integer(),
            _ => None,
        }
    }
}

/// Most objects declare at most this many members; larger ones fall back to hashed look-ups.
const SLOTS: usize = 32;

fn check_members<'v, O: Object<'v>>(
    ctx: &mut Ctx,
    spec: &ObjectSpec,
    obj: O,
    path: LazyPath<'_>,
    skip: &[&str],
) {
    // One pass over the object's members assigns each to its declared field by name (string
    // compares, no hashing); then the fields are checked in registry order.
    let mut slots: [Option<O::Value>; SLOTS] = [None; SLOTS];
    let small = spec.fields.len() <= SLOTS;
    // Bit `p`: the member at position `p` is undeclared (scanned for secrets after the fields).
    let mut undeclared = 0u64;
    if small {
        // Members usually come in declaration order: search from just after the last match.
        let n = spec.fields.len();
        let mut next = 0;
        for (p, (k, v)) in obj.members().enumerate() {
            let found = (next..n)
                .chain(0..next)
                .find(|&i| same(spec.fields[i].name, k));
            match found {
                Some(i) => {
                    slots[i] = Some(v);
                    next = i + 1;
                }
                None if p < 64 => undeclared |= 1 << p,
                None => {}
            }
        }
    }
    for (i, f) in spec.fields.iter().enumerate() {
        if ctx.done() {
            return;
        }
        if skip.contains(&f.name) {
            continue;
        }
        let here = path.key(f.name);
        let member = if small { slots[i] } else { obj.get(f.name) };
        match member {
            Some(v) => check_ty(ctx, &f.ty, v, here),
            None => check_missing(ctx, f, here),
        }
    }
    // Undeclared members are allowed; their strings may still hold secrets.
    if small && undeclared == 0 && obj.len() <= 64 {
        return;
    }
    for (p, (k, v)) in obj.members().enumerate() {
        let declared = if small && p < 64 {
            undeclared >> p & 1 == 0
        } else {
            spec.fields.iter().any(|f| same(f.name, k))
        };
        if !declared {
            scan_any(ctx, Some(k), v, path.key(k));
        }
    }
}

/// Reports a declared field the object lacks (`path` is the field's), unless it is optional.
pub(crate) fn check_missing(ctx: &mut Ctx, f: &FieldSpec, path: LazyPath<'_>) {
    let message = ["missing required field `", f.name, "`"];
    match f.presence {
        Presence::Optional => {}
        Presence::Required => ctx.error(path, IssueCode::MissingField, message),
        Presence::RequiredStrict(dev) => {
            ctx.deviation(path, IssueCode::MissingField, dev, message);
        }
    }
}

/// Reports a value of this JSON kind where a rule wants another.
pub(crate) fn wrong_type(ctx: &mut Ctx, path: LazyPath<'_>, ty: &Ty, found: &'static str) {
    let message = ["expected ", expected(ty), ", found ", found];
    ctx.error(path, IssueCode::WrongType, message);
}

fn check_range(ctx: &mut Ctx, path: LazyPath<'_>, x: f64, min: Option<f64>, max: Option<f64>) {
    let below = min.is_some_and(|m| x < m);
    let above = max.is_some_and(|m| x > m);
    if below || above {
        ctx.error(path, IssueCode::OutOfRange, || match (min, max) {
            (Some(lo), Some(hi)) => format!("{x} is outside {lo}..={hi}"),
            (Some(lo), None) => format!("{x} is below the minimum {lo}"),
            (_, Some(hi)) => format!("{x} is above the maximum {hi}"),
            (None, None) => String::new(),
        });
    }
}

/// Checks one value against a rule.
pub(crate) fn check_ty<'v, J: Json<'v>>(ctx: &mut Ctx, ty: &Ty, v: J, path: LazyPath<'_>) {
    let leaf = match v.node() {
        Node::Array(list) => return check_array::<J>(ctx, ty, list, path),
        Node::Object(obj) => {
            return match ty {
                Ty::Object(spec) => check_members(ctx, spec, obj, path, &[]),
                Ty::AnyObject | Ty::Any => scan_any(ctx, None, v, path),
                _ => wrong_type(ctx, path, ty, "object"),
            }
        }
        Node::Null => Leaf::Null,
        Node::Bool(b) => Leaf::Bool(b),
        Node::Num(n) => Leaf::Num(n),
        Node::Str(s) => Leaf::Str(s),
    };
    check_leaf(ctx, ty, leaf, path);
}

/// Checks a string value against a rule.
#[inline(always)]
pub(crate) fn check_string(ctx: &mut Ctx, ty: &Ty, s: &str, path: LazyPath<'_>) {
    match ty {
        Ty::Str(rule) => check_str(ctx, rule, s, path),
        // A declared member's name is never a secret's (a registry test holds it), so its
        // string is scanned as text.
        Ty::Any => check_secrets(ctx, None, s, path),
        _ => string_of_wrong_type(ctx, ty, s, path),
    }
}

/// A string where a rule wants something else: wrong already; a secret in it is still
/// reported.
#[cold]
#[inline(never)]
fn string_of_wrong_type(ctx: &mut Ctx, ty: &Ty, s: &str, path: LazyPath<'_>) {
    wrong_type(ctx, path, ty, "string");
    if ctx.collect {
        check_secrets(ctx, None, s, path);
    }
}

fn check_array<'v, J: Json<'v>>(ctx: &mut Ctx, ty: &Ty, list: J::Array, path: LazyPath<'_>) {
    match ty {
        Ty::Array { items, min_items } => {
            check_min_items(ctx, *min_items, list.len(), path);
            for (i, item) in list.enumerate() {
                if ctx.done() {
                    return;
                }
                check_ty(ctx, items, item, path.index(i));
            }
        }
        Ty::Any => {
            for (i, item) in list.enumerate() {
                scan_any(ctx, None, item, path.index(i));
            }
        }
        _ => wrong_type(ctx, path, ty, "array"),
    }
}

/// Checks the length of an array against its rule's minimum.
pub(crate) fn check_min_items(ctx: &mut Ctx, min_items: usize, len: usize, path: LazyPath<'_>) {
    if len < min_items {
        ctx.error(path, IssueCode::OutOfRange, || {
            format!("expected at least {min_items} item(s), found {len}")
        });
    }
}

/// Checks a value that is neither an array nor an object against a rule (the array and
/// object rules give it `wrong_type`; a string goes to [`check_string`]). Inlined into its few
/// callers: the call and the dispatch on the rule cost more than the check for most leaves
/// (callgrind over the benchmark's valid messages: 1.9% fewer instructions, 8% fewer
/// simulated branch misses).
#[inline(always)]
pub(crate) fn check_leaf(ctx: &mut Ctx, ty: &Ty, leaf: Leaf<'_>, path: LazyPath<'_>) {
    match (ty, leaf) {
        (_, Leaf::Str(s)) => check_string(ctx, ty, s, path),
        (Ty::Any, _) | (Ty::Bool, Leaf::Bool(_)) => {}
        (Ty::Int { min, max }, Leaf::Num(n)) if n.as_integer().is_some() => {
            let x = n.value;
            check_range(ctx, path, x, min.map(|m| m as f64), max.map(|m| m as f64));
        }
        (Ty::Num { min, max }, Leaf::Num(n)) => check_range(ctx, path, n.value, *min, *max),
        (Ty::BoolConst(want), Leaf::Bool(b)) => {
            if b != *want {
                ctx.error(path, IssueCode::NotInEnum, || format!("expected {want}"));
            }
        }
        _ => wrong_type(ctx, path, ty, leaf.kind()),
    }
}

/// Checks a string against its rule.
///
/// Free text and patterned ids can carry a secret and still follow their rule, so they are
/// scanned ([`check_secrets`]), except ids of a pattern whose alphabet holds none
/// ([`secrets::pattern_may_hold_secret`]); a string with any other rule that holds one breaks
/// its rule anyway, and is scanned (when issues are collected) only so that the issue echoing
/// it is masked.
#[cfg_attr(feature = "speed", inline(always))]
fn check_str(ctx: &mut Ctx, rule: &Str, s: &str, path: LazyPath<'_>) {
    if !str_fits(rule, s) {
        return str_breaks(ctx, rule, s, path);
    }
    match rule {
        Str::Version { .. } if ctx.record_version => ctx.version = Some(declared_version(s)),
        _ if may_hold_secret(rule) => check_secrets(ctx, None, s, path),
        _ => {}
    }
}

/// Whether a string that follows `rule` may still hold a secret: free text, and ids of a
/// pattern whose alphabet can hold one.
#[inline(always)]
fn may_hold_secret(rule: &Str) -> bool {
    match rule {
        Str::Text { .. } => true,
        Str::Pattern(p) => secrets::pattern_may_hold_secret(p.name),
        _ => false,
    }
}

/// Whether a string follows its rule (strictly: a lenient form does not).
#[inline(always)]
fn str_fits(rule: &Str, s: &str) -> bool {
    match rule {
        Str::Text { non_empty } => !*non_empty || !s.is_empty(),
        Str::Enum { values, .. } => values.iter().any(|v| same(v, s)),
        Str::Const(c) => same(s, c),
        Str::DateTime { .. } => is_rfc3339(s),
        Str::Pattern(p) => (p.check)(s),
        Str::Version { major, parts } => {
            dotted_parts(s) == Some(*parts)
                && s.strip_prefix(major)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        }
    }
}

/// Reports a string that does not follow its rule ([`str_fits`]): why (an error, or a warning
/// for a lenient form in lenient mode), and the secrets it holds.
#[cold]
#[inline(never)]
fn str_breaks(ctx: &mut Ctx, rule: &Str, s: &str, path: LazyPath<'_>) {
    let before = (ctx.errors, ctx.listed());
    match rule {
        Str::Text { .. } => ctx.error(path, IssueCode::EmptyString, "must not be empty"),
        Str::Enum { values, lenient } => {
            let msg = NotOneOf { value: s, values };
            match lenient.iter().find(|(v, _)| *v == s) {
                Some((_, dev)) => ctx.deviation(path, IssueCode::NotInEnum, dev, msg),
                None => ctx.error(path, IssueCode::NotInEnum, msg),
            }
        }
        Str::Const(c) => ctx.error(
            path,
            IssueCode::NotInEnum,
            ["expected \"", c, "\", found \"", s, "\""],
        ),
        Str::DateTime { lenient } => {
            let msg = ["\"", s, "\" is not an RFC 3339 date-time"];
            match lenient {
                Some(dev) if s == "ISO8601" => {
                    ctx.deviation(path, IssueCode::BadTimestamp, dev, msg)
                }
                _ => ctx.error(path, IssueCode::BadTimestamp, msg),
            }
        }
        Str::Pattern(p) => {
            let msg = ["\"", s, "\" is not a valid ", p.name, " (", p.regex, ")"];
            match p.lenient {
                Some((dev, wider)) if wider(s) => ctx.deviation(path, p.code, dev, msg),
                _ => ctx.error(path, p.code, msg),
            }
        }
        Str::Version { major, parts } => {
            if dotted_parts(s) != Some(*parts) {
                ctx.error(path, IssueCode::BadPattern, || {
                    format!("\"{s}\" is not a {parts}-part dotted version")
                });
            } else {
                ctx.error(path, IssueCode::VersionMismatch, || {
                    format!("version \"{s}\" has a major version other than {major}")
                });
            }
        }
    }
    if may_hold_secret(rule) || (ctx.collect && before != (ctx.errors, ctx.listed())) {
        check_secrets(ctx, None, s, path);
    }
}

/// How many dot-separated parts `s` has, when each is a non-empty run of ASCII digits.
fn dotted_parts(s: &str) -> Option<usize> {
    let (mut parts, mut digits) = (1, 0);
    for b in s.bytes() {
        match b {
            b'0'..=b'9' => digits += 1,
            b'.' if digits > 0 => (parts, digits) = (parts + 1, 0),
            _ => return None,
        }
    }
    (digits > 0).then_some(parts)
}

/// The message of a string that is not one of an enum's values.
struct NotOneOf<'a> {
    value: &'a str,
    values: &'a [&'a str],
}

impl Message for NotOneOf<'_> {
    fn write_to(self, out: &mut String) {
        write_pieces(out, &["\"", self.value, "\" is not one of "]);
        for (i, v) in self.values.iter().enumerate() {
            write_pieces(out, &[if i == 0 { "" } else { ", " }, v]);
        }
    }
}

/// Checks one cross-field rule against the members `root` gives.
pub(crate) fn check_cross(ctx: &mut Ctx, check: &CrossCheck, root: &impl Lookup) {
    match check {
        CrossCheck::Pairs {
            text,
            number,
            pairs,
        } => {
            let (Some(t), Some(n)) = (root.text("", text), root.integer(number)) else {
                return;
            };
            let Some((_, want)) = pairs.iter().find(|(k, _)| *k == t) else {
                return;
            };
            // A value outside the table is already out of range or mistyped; do not pile on.
            if !pairs.iter().any(|(_, v)| n == *v as f64) {
                return;
            }
            if n != *want as f64 {
                ctx.error(
                    LazyPath::Root.key(number),
                    IssueCode::InconsistentFields,
                    || format!("{number} {n} does not match {text} \"{t}\" (expected {want})"),
                );
            }
        }
        CrossCheck::Differ {
            object,
            a,
            b,
            values,
        } => {
            let (Some(x), Some(y)) = (root.text(object, a), root.text(object, b)) else {
                return;
            };
            if x == y && values.contains(&x) {
                let parent = LazyPath::Root;
                let scope = if object.is_empty() {
                    parent
                } else {
                    parent.key(object)
                };
                ctx.error(scope.key(b), IssueCode::InconsistentFields, || {
                    format!("{b} must differ from {a} (both \"{x}\")")
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::dotted_parts;

    #[test]
    fn dotted_parts_counts_runs_of_digits() {
        for (s, want) in [
            ("1.0.0", Some(3)),
            ("20.0", Some(2)),
            ("7", Some(1)),
            ("10.200.3000.4", Some(4)),
            ("", None),
            (".1", None),
            ("1.", None),
            ("1..0", None),
            ("1.0.x", None),
            ("v1.0", None),
            ("1.0 ", None),
            ("١.٠", None),
        ] {
            assert_eq!(dotted_parts(s), want, "{s:?}");
        }
        // Against splitting on dots: every string of up to six of these characters.
        let model = |s: &str| {
            let parts: Vec<&str> = s.split('.').collect();
            let digits = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
            parts.iter().all(digits).then_some(parts.len())
        };
        let mut strings = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..6 {
            last = last
                .iter()
                .flat_map(|s| ["0", "7", ".", "x"].map(|c| format!("{s}{c}")))
                .collect();
            strings.extend(last.iter().cloned());
        }
        assert!(strings.len() > 5000);
        for s in &strings {
            assert_eq!(dotted_parts(s), model(s), "{s:?}");
        }
    }
}
