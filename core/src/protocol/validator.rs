//! The registry-driven checker: walks a [`serde_json::Value`] against a [`MessageTypeSpec`]
//! without cloning it, allocating paths and messages only when an issue is produced.

use super::issue::{Issue, IssueCode, LazyPath, Path, Severity, MAX_ISSUES};
use super::registry::formats::is_rfc3339;
use super::registry::{CrossCheck, Deviation, MessageTypeSpec, ObjectSpec, Presence, Str, Ty};
use super::same::same;
use super::secrets;
use serde_json::{Map, Value};

/// Validation state: mode flags, collected issues and the declared version seen.
pub(crate) struct Ctx {
    /// Lenient mode: deviations become warnings.
    pub(crate) lenient: bool,
    /// Whether issues (with paths and messages) are collected; `false` is the `is_valid` fast path.
    pub(crate) collect: bool,
    /// Collected issues (at most [`MAX_ISSUES`]).
    issues: Vec<Issue>,
    /// Number of error-severity issues, listed or not.
    pub(crate) errors: usize,
    /// Errors and warnings past [`MAX_ISSUES`], counted but not listed.
    omitted: (usize, usize),
    /// A version string declared by the message (PAIR_INIT `protocol_version`, droid `version`).
    pub(crate) version: Option<String>,
    /// Whether the declared version is recorded (always when collecting).
    record_version: bool,
    /// The secrets found, with their masks: no issue message may repeat one.
    masks: Vec<(String, String)>,
}

impl Ctx {
    /// A fresh context.
    pub(crate) fn new(lenient: bool, collect: bool) -> Self {
        Ctx {
            lenient,
            collect,
            issues: Vec::new(),
            errors: 0,
            omitted: (0, 0),
            version: None,
            record_version: collect,
            masks: Vec::new(),
        }
    }

    /// The verdict-only context of the path from bytes ([`super::fast`]): strict, no issues
    /// collected, the declared version recorded. Strict and lenient mode agree on which
    /// messages have no issue at all, so one context serves both.
    pub(crate) fn verdict() -> Self {
        Ctx {
            record_version: true,
            ..Ctx::new(false, false)
        }
    }

    /// Marks the message as having an error whose issue is never built (the path from bytes
    /// stops caring once it knows a message is not clean).
    pub(crate) fn fail(&mut self) {
        self.errors += 1;
    }

    /// Lists an issue, or counts it once [`MAX_ISSUES`] are listed (paths and messages
    /// of omitted issues are never built).
    fn push(
        &mut self,
        path: LazyPath<'_>,
        code: IssueCode,
        severity: Severity,
        msg: impl FnOnce() -> String,
    ) {
        if self.issues.len() < MAX_ISSUES {
            self.issues.push(Issue {
                path: path.to_path(),
                code,
                message: msg(),
                severity,
            });
        } else if severity == Severity::Error {
            self.omitted.0 += 1;
        } else {
            self.omitted.1 += 1;
        }
    }

    /// The listed issues, followed by one [`IssueCode::TooManyIssues`] issue when some
    /// were omitted.
    pub(crate) fn into_issues(self) -> Vec<Issue> {
        let mut issues = self.issues;
        // A message that echoes a value (`"…" is not one of …`) would repeat a secret in it.
        for (secret, mask) in &self.masks {
            for issue in &mut issues {
                if issue.message.contains(secret.as_str()) {
                    issue.message = issue.message.replace(secret.as_str(), mask);
                }
            }
        }
        let (errors, warnings) = self.omitted;
        if errors + warnings > 0 {
            let severity = if errors > 0 {
                Severity::Error
            } else {
                Severity::Warning
            };
            issues.push(Issue {
                path: Path::root(),
                code: IssueCode::TooManyIssues,
                message: format!(
                    "{} more issues not shown ({errors} errors, {warnings} warnings): a report \
                     lists at most {MAX_ISSUES}",
                    errors + warnings
                ),
                severity,
            });
        }
        issues
    }

    /// Whether the fast path can stop (an error was found and nothing is collected).
    fn done(&self) -> bool {
        !self.collect && self.errors > 0
    }

    /// Records an error.
    pub(crate) fn error(
        &mut self,
        path: LazyPath<'_>,
        code: IssueCode,
        msg: impl FnOnce() -> String,
    ) {
        self.errors += 1;
        if self.collect {
            self.push(path, code, Severity::Error, msg);
        }
    }

    /// Records a documented deviation: an error in strict mode, a warning in lenient mode.
    pub(crate) fn deviation(
        &mut self,
        path: LazyPath<'_>,
        code: IssueCode,
        dev: &Deviation,
        msg: impl FnOnce() -> String,
    ) {
        if !self.lenient {
            return self.error(path, code, msg);
        }
        if self.collect {
            self.push(path, code, Severity::Warning, || {
                format!("{} (accepted in lenient mode: {})", msg(), dev.id)
            });
        }
    }
}

/// Reports the secrets a string holds ([`secrets`]): `name` is the member's name when the
/// string is a member's value (a secret-named member's value is one itself).
pub(crate) fn check_secrets(ctx: &mut Ctx, name: Option<&str>, s: &str, path: LazyPath<'_>) {
    if !secrets::holds_secret(name, s) {
        return;
    }
    if !ctx.collect {
        ctx.error(path, IssueCode::SecretInMessage, String::new);
        return;
    }
    let found = match name {
        Some(name) => secrets::scan_member(name, s),
        None => secrets::scan_text(s),
    };
    for f in found {
        ctx.masks
            .push((s[f.span.clone()].to_owned(), f.masked.clone()));
        ctx.error(path, IssueCode::SecretInMessage, || f.message());
    }
}

/// Scans a value no rule covers for secrets: its strings, each member's string value with the
/// member's name.
pub(crate) fn scan_any(ctx: &mut Ctx, name: Option<&str>, v: &Value, path: LazyPath<'_>) {
    if ctx.done() {
        return;
    }
    match v {
        Value::String(s) => check_secrets(ctx, name, s, path),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                scan_any(ctx, None, item, path.index(i));
            }
        }
        Value::Object(obj) => {
            for (k, item) in obj {
                scan_any(ctx, Some(k), item, path.key(k));
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// The JSON kind of a value, for messages.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A JSON number as validation sees it: its value, and whether it was written as an integer
/// (serde_json's `u64`/`i64` numbers; a float such as `5.0` is an integer only by value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Num {
    /// The value as `f64` (what `serde_json::Number::as_f64` gives).
    pub(crate) value: f64,
    /// Parsed as an integer (no fraction, no exponent, in `i64`/`u64` range).
    pub(crate) integer: bool,
}

impl Num {
    /// The integer value of the number (as JSON Schema's `integer`): any integer, or a float
    /// with no fraction.
    pub(crate) fn as_integer(self) -> Option<f64> {
        (self.integer || (self.value.is_finite() && self.value.fract() == 0.0))
            .then_some(self.value)
    }

    pub(crate) fn of(n: &serde_json::Number) -> Num {
        Num {
            // Without serde_json's arbitrary_precision every number has an f64 value.
            value: n.as_f64().unwrap_or(f64::NAN),
            integer: n.is_i64() || n.is_u64(),
        }
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
pub(crate) fn check_message(
    ctx: &mut Ctx,
    spec: &MessageTypeSpec,
    root: &Map<String, Value>,
    skip: &[&str],
) {
    check_members(ctx, &spec.root, root, LazyPath::Root, skip);
    for check in spec.checks {
        check_cross(ctx, check, root);
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

impl Lookup for Map<String, Value> {
    fn text(&self, object: &str, key: &str) -> Option<&str> {
        let obj = if object.is_empty() {
            Some(self)
        } else {
            self.get(object).and_then(Value::as_object)
        };
        obj?.get(key).and_then(Value::as_str)
    }

    fn integer(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(as_integer)
    }
}

/// Most objects declare at most this many members; larger ones fall back to hashed look-ups.
const SLOTS: usize = 32;

fn check_members(
    ctx: &mut Ctx,
    spec: &ObjectSpec,
    obj: &Map<String, Value>,
    path: LazyPath<'_>,
    skip: &[&str],
) {
    // One pass over the object's members assigns each to its declared field by name (string
    // compares, no hashing); then the fields are checked in registry order.
    let mut slots: [Option<&Value>; SLOTS] = [None; SLOTS];
    let small = spec.fields.len() <= SLOTS;
    // Bit `p`: the member at position `p` is undeclared (scanned for secrets after the fields).
    let mut undeclared = 0u64;
    if small {
        // Members usually come in declaration order: search from just after the last match.
        let n = spec.fields.len();
        let mut next = 0;
        for (p, (k, v)) in obj.iter().enumerate() {
            let found = (next..n)
                .chain(0..next)
                .find(|&i| spec.fields[i].name == k.as_str());
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
            None => match f.presence {
                Presence::Optional => {}
                Presence::Required => ctx.error(here, IssueCode::MissingField, || {
                    format!("missing required field `{}`", f.name)
                }),
                Presence::RequiredStrict(dev) => {
                    ctx.deviation(here, IssueCode::MissingField, dev, || {
                        format!("missing required field `{}`", f.name)
                    })
                }
            },
        }
    }
    // Undeclared members are allowed; their strings may still hold secrets.
    if small && undeclared == 0 && obj.len() <= 64 {
        return;
    }
    for (p, (k, v)) in obj.iter().enumerate() {
        let declared = if small && p < 64 {
            undeclared >> p & 1 == 0
        } else {
            spec.fields.iter().any(|f| f.name == k.as_str())
        };
        if !declared {
            scan_any(ctx, Some(k), v, path.key(k));
        }
    }
}

fn wrong_type(ctx: &mut Ctx, path: LazyPath<'_>, ty: &Ty, found: &'static str) {
    ctx.error(path, IssueCode::WrongType, || {
        format!("expected {}, found {found}", expected(ty))
    });
}

/// The integer value of a JSON number with no fraction (as JSON Schema's `integer`).
fn as_integer(v: &Value) -> Option<f64> {
    Num::of(v.as_number()?).as_integer()
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
pub(crate) fn check_ty(ctx: &mut Ctx, ty: &Ty, v: &Value, path: LazyPath<'_>) {
    let leaf = match v {
        Value::Array(list) => return check_array(ctx, ty, list, path),
        Value::Object(obj) => {
            return match ty {
                Ty::Object(spec) => check_members(ctx, spec, obj, path, &[]),
                Ty::AnyObject | Ty::Any => scan_any(ctx, None, v, path),
                _ => wrong_type(ctx, path, ty, "object"),
            }
        }
        // A declared member's name is never a secret's (a registry test holds it), so its
        // string is scanned as text.
        Value::String(s) if matches!(ty, Ty::Any) => return check_secrets(ctx, None, s, path),
        // A string where a rule wants something else is wrong already; a secret in it is
        // still reported.
        Value::String(s) if !matches!(ty, Ty::Str(_)) => {
            wrong_type(ctx, path, ty, "string");
            if ctx.collect {
                check_secrets(ctx, None, s, path);
            }
            return;
        }
        Value::Null => Leaf::Null,
        Value::Bool(b) => Leaf::Bool(*b),
        Value::Number(n) => Leaf::Num(Num::of(n)),
        Value::String(s) => Leaf::Str(s),
    };
    check_leaf(ctx, ty, leaf, path);
}

fn check_array(ctx: &mut Ctx, ty: &Ty, list: &[Value], path: LazyPath<'_>) {
    match ty {
        Ty::Array { items, min_items } => {
            check_min_items(ctx, *min_items, list.len(), path);
            for (i, item) in list.iter().enumerate() {
                if ctx.done() {
                    return;
                }
                check_ty(ctx, items, item, path.index(i));
            }
        }
        Ty::Any => {
            for (i, item) in list.iter().enumerate() {
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
/// object rules give it `wrong_type`). Inlined into its few callers: the call and the
/// dispatch on the rule cost more than the check for most leaves (callgrind over the
/// benchmark's valid messages: 1.9% fewer instructions, 8% fewer simulated branch misses).
#[inline(always)]
pub(crate) fn check_leaf(ctx: &mut Ctx, ty: &Ty, leaf: Leaf<'_>, path: LazyPath<'_>) {
    match (ty, leaf) {
        (Ty::Any, _) | (Ty::Bool, Leaf::Bool(_)) => {}
        (Ty::Str(rule), Leaf::Str(s)) => check_str(ctx, rule, s, path),
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
/// ([`secrets::pattern_may_hold_secret`]); a string with any other rule that holds one breaks its rule
/// anyway, and is scanned (when issues are collected) only so that the issue echoing it is
/// masked.
fn check_str(ctx: &mut Ctx, rule: &Str, s: &str, path: LazyPath<'_>) {
    let before = (ctx.errors, ctx.issues.len());
    check_str_rule(ctx, rule, s, path);
    let free = match rule {
        Str::Text { .. } => true,
        Str::Pattern(p) => secrets::pattern_may_hold_secret(p.name),
        _ => false,
    };
    if free || (ctx.collect && before != (ctx.errors, ctx.issues.len())) {
        check_secrets(ctx, None, s, path);
    }
}

/// Checks a string against its rule.
fn check_str_rule(ctx: &mut Ctx, rule: &Str, s: &str, path: LazyPath<'_>) {
    match rule {
        Str::Text { non_empty } => {
            if *non_empty && s.is_empty() {
                ctx.error(path, IssueCode::EmptyString, || "must not be empty".into());
            }
        }
        Str::Enum { values, lenient } => {
            if values.iter().any(|v| same(v, s)) {
                return;
            }
            let msg = || format!("\"{s}\" is not one of {}", values.join(", "));
            match lenient.iter().find(|(v, _)| *v == s) {
                Some((_, dev)) => ctx.deviation(path, IssueCode::NotInEnum, dev, msg),
                None => ctx.error(path, IssueCode::NotInEnum, msg),
            }
        }
        Str::Const(c) => {
            if !same(s, c) {
                ctx.error(path, IssueCode::NotInEnum, || {
                    format!("expected \"{c}\", found \"{s}\"")
                });
            }
        }
        Str::DateTime { lenient } => {
            if is_rfc3339(s) {
                return;
            }
            let msg = || format!("\"{s}\" is not an RFC 3339 date-time");
            match lenient {
                Some(dev) if s == "ISO8601" => {
                    ctx.deviation(path, IssueCode::BadTimestamp, dev, msg)
                }
                _ => ctx.error(path, IssueCode::BadTimestamp, msg),
            }
        }
        Str::Pattern(p) => {
            if (p.check)(s) {
                return;
            }
            let msg = || format!("\"{s}\" is not a valid {} ({})", p.name, p.regex);
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
            } else if !s
                .strip_prefix(major)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            {
                ctx.error(path, IssueCode::VersionMismatch, || {
                    format!("version \"{s}\" has a major version other than {major}")
                });
            } else if ctx.record_version {
                ctx.version = Some(s.to_owned());
            }
        }
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
