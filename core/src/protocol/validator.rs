//! The registry-driven checker: walks a [`serde_json::Value`] against a [`MessageTypeSpec`]
//! without cloning it, allocating paths and messages only when an issue is produced.

use super::formats::is_rfc3339;
use super::issue::{Issue, IssueCode, LazyPath, Path, Severity, MAX_ISSUES};
use super::registry::{CrossCheck, Deviation, MessageTypeSpec, ObjectSpec, Presence, Str, Ty};
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
        }
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
    if small {
        // Members usually come in declaration order: search from just after the last match.
        let n = spec.fields.len();
        let mut next = 0;
        for (k, v) in obj {
            let found = (next..n)
                .chain(0..next)
                .find(|&i| spec.fields[i].name == k.as_str());
            if let Some(i) = found {
                slots[i] = Some(v);
                next = i + 1;
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
}

fn wrong_type(ctx: &mut Ctx, path: LazyPath<'_>, expected: &str, v: &Value) {
    ctx.error(path, IssueCode::WrongType, || {
        format!("expected {expected}, found {}", kind(v))
    });
}

/// The integer value of a JSON number with no fraction (as JSON Schema's `integer`).
fn as_integer(v: &Value) -> Option<f64> {
    let n = v.as_number()?;
    if n.is_i64() || n.is_u64() {
        return n.as_f64();
    }
    n.as_f64().filter(|f| f.is_finite() && f.fract() == 0.0)
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
    match ty {
        Ty::Str(rule) => match v.as_str() {
            Some(s) => check_str(ctx, rule, s, path),
            None => wrong_type(ctx, path, "a string", v),
        },
        Ty::Int { min, max } => match as_integer(v) {
            Some(x) => check_range(ctx, path, x, min.map(|m| m as f64), max.map(|m| m as f64)),
            None => wrong_type(ctx, path, "an integer", v),
        },
        Ty::Num { min, max } => match v.as_f64() {
            Some(x) => check_range(ctx, path, x, *min, *max),
            None => wrong_type(ctx, path, "a number", v),
        },
        Ty::Bool => {
            if !v.is_boolean() {
                wrong_type(ctx, path, "a boolean", v);
            }
        }
        Ty::BoolConst(want) => match v.as_bool() {
            Some(b) if b == *want => {}
            Some(_) => ctx.error(path, IssueCode::NotInEnum, || format!("expected {want}")),
            None => wrong_type(ctx, path, "a boolean", v),
        },
        Ty::Array { items, min_items } => match v.as_array() {
            Some(list) => {
                if list.len() < *min_items {
                    ctx.error(path, IssueCode::OutOfRange, || {
                        format!(
                            "expected at least {min_items} item(s), found {}",
                            list.len()
                        )
                    });
                }
                for (i, item) in list.iter().enumerate() {
                    if ctx.done() {
                        return;
                    }
                    check_ty(ctx, items, item, path.index(i));
                }
            }
            None => wrong_type(ctx, path, "an array", v),
        },
        Ty::Object(spec) => match v.as_object() {
            Some(obj) => check_members(ctx, spec, obj, path, &[]),
            None => wrong_type(ctx, path, "an object", v),
        },
        Ty::AnyObject => {
            if !v.is_object() {
                wrong_type(ctx, path, "an object", v);
            }
        }
        Ty::Any => {}
    }
}

/// Checks a string against its rule.
fn check_str(ctx: &mut Ctx, rule: &Str, s: &str, path: LazyPath<'_>) {
    match rule {
        Str::Text { non_empty } => {
            if *non_empty && s.is_empty() {
                ctx.error(path, IssueCode::EmptyString, || "must not be empty".into());
            }
        }
        Str::Enum { values, lenient } => {
            if values.contains(&s) {
                return;
            }
            let msg = || format!("\"{s}\" is not one of {}", values.join(", "));
            match lenient.iter().find(|(v, _)| *v == s) {
                Some((_, dev)) => ctx.deviation(path, IssueCode::NotInEnum, dev, msg),
                None => ctx.error(path, IssueCode::NotInEnum, msg),
            }
        }
        Str::Const(c) => {
            if s != *c {
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
            let well_formed = s.split('.').count() == *parts
                && s.split('.')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
            if !well_formed {
                ctx.error(path, IssueCode::BadPattern, || {
                    format!("\"{s}\" is not a {parts}-part dotted version")
                });
            } else if s.split('.').next() != Some(major) {
                ctx.error(path, IssueCode::VersionMismatch, || {
                    format!("version \"{s}\" has a major version other than {major}")
                });
            } else if ctx.collect {
                ctx.version = Some(s.to_owned());
            }
        }
    }
}

fn check_cross(ctx: &mut Ctx, check: &CrossCheck, root: &Map<String, Value>) {
    match check {
        CrossCheck::Pairs {
            text,
            number,
            pairs,
        } => {
            let (Some(t), Some(n)) = (
                root.get(*text).and_then(Value::as_str),
                root.get(*number).and_then(as_integer),
            ) else {
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
            let obj = if object.is_empty() {
                Some(root)
            } else {
                root.get(*object).and_then(Value::as_object)
            };
            let Some(obj) = obj else { return };
            let (Some(x), Some(y)) = (
                obj.get(*a).and_then(Value::as_str),
                obj.get(*b).and_then(Value::as_str),
            ) else {
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
