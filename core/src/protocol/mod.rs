//! The protocol core: every seed message family modeled as data, validated and explained.
//!
//! ```
//! use switchboard_core::protocol::{self, Options};
//! use serde_json::json;
//!
//! let msg = json!({"message_type": "PROGRESS_UPDATE", "agent_id": "agent-7f3a",
//!     "task_id": "TASK-042", "timestamp": "2026-01-15T10:00:00Z", "status": "testing",
//!     "progress_percent": 140, "current_activity": "Running tests"});
//! let report = protocol::validate(&msg, &Options::default());
//! assert!(!report.valid);
//! assert_eq!(report.family_name(), Some("agent-po"));
//! assert_eq!(report.issues[0].path.to_pointer(), "/progress_percent");
//! assert_eq!(report.issues[0].code.as_str(), "out_of_range");
//! assert!(!protocol::is_valid(&msg));
//! ```
//!
//! Entry points, as in the `jsonschema` crate: [`is_valid`] (boolean fast path), [`validate`]
//! (full [`Report`]), [`iter_errors`] (error issues), [`validate_str`] / [`validate_slice`]
//! for raw bytes ([`validate_slice_into`]: the issues in an [`IssueLog`] kept from message to
//! message, without an allocation each), and [`validate_lines`] for JSON Lines. A report lists at most
//! [`MAX_ISSUES`] issues, then one `too_many_issues` issue counting the rest. Rules live in
//! [`registry`]; [`export`] writes them as JSON Schema 2020-12 and TypeScript; [`model`] is the
//! typed view of a valid message; [`builders`] writes protocol messages (replies, checkpoint decisions,
//! directives).

pub mod builders;
mod ctx;
mod detect;
pub mod export;
mod fast;
pub mod issue;
mod issue_log;
mod json;
mod lines;
pub mod model;
pub mod registry;
mod same;
pub mod secrets;
mod validator;

pub use issue::{Issue, IssueCode, Path, PathSegment, SegmentRef, Severity, MAX_ISSUES};
pub use issue_log::{IssueLog, LoggedIssue};
pub use lines::{validate_lines, validate_reader, LineReport, ReaderLines};
pub use registry::{FamilyId, FamilySpec, MessageTypeSpec, REGISTRY};

use ctx::Ctx;
use issue::LazyPath;
use json::{Json, Node};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Validation options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// An explicit family; skips family detection.
    pub family: Option<FamilyId>,
    /// Lenient mode: the seeds' documented deviations become warnings.
    pub lenient: bool,
}

impl Options {
    /// Strict mode with family detection (the default).
    pub fn strict() -> Self {
        Options::default()
    }

    /// Lenient mode with family detection.
    pub fn lenient() -> Self {
        Options {
            family: None,
            lenient: true,
        }
    }

    /// The same options with an explicit family.
    pub fn with_family(self, family: FamilyId) -> Self {
        Options {
            family: Some(family),
            ..self
        }
    }
}

impl Serialize for FamilyId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for FamilyId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FamilyId, D::Error> {
        let name = <Cow<'de, str>>::deserialize(d)?;
        FamilyId::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("no family {name:?}")))
    }
}

/// The result of validating one message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// No error-severity issue.
    pub valid: bool,
    /// The detected (or hinted) family (also when the message type is unknown).
    pub family: Option<FamilyId>,
    /// The registry name of the detected message type.
    pub message_type: Option<&'static str>,
    /// The version the message declares, else the family version modeled (borrowed from the
    /// registry when they are the same, so a report usually allocates nothing for it).
    pub version: Option<Cow<'static, str>>,
    /// Every issue found, errors and warnings.
    pub issues: Vec<Issue>,
}

impl Report {
    /// The family name, if detected.
    pub fn family_name(&self) -> Option<&'static str> {
        self.family.map(FamilyId::as_str)
    }

    /// A report of input that could not be parsed, with this reason.
    pub(crate) fn unparsed(reason: String) -> Report {
        Verdict::UNPARSED.with_issues(vec![Issue {
            path: Path::root(),
            code: IssueCode::NotJson,
            message: reason,
            severity: Severity::Error,
        }])
    }

    /// The report without its issues.
    pub fn verdict(&self) -> Verdict {
        Verdict {
            valid: self.valid,
            family: self.family,
            message_type: self.message_type,
            version: self.version.clone(),
        }
    }

    /// The error-severity issues.
    pub fn errors(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.severity == Severity::Error)
    }
}

/// A [`Report`] without its issues: what [`validate_slice_into`] returns, the issues listed in
/// the [`IssueLog`] it was given.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// No error-severity issue.
    pub valid: bool,
    /// The detected (or hinted) family (also when the message type is unknown).
    pub family: Option<FamilyId>,
    /// The registry name of the detected message type.
    pub message_type: Option<&'static str>,
    /// The version the message declares, else the family version modeled.
    pub version: Option<Cow<'static, str>>,
}

impl Verdict {
    /// The verdict on input that is not JSON.
    const UNPARSED: Verdict = Verdict {
        valid: false,
        family: None,
        message_type: None,
        version: None,
    };

    /// The report of this verdict with these issues.
    pub fn with_issues(self, issues: Vec<Issue>) -> Report {
        Report {
            valid: self.valid,
            family: self.family,
            message_type: self.message_type,
            version: self.version,
            issues,
        }
    }
}

/// Lists the `not_json` issue of input that is not JSON at all: the reason names the position as
/// serde_json does, with the line counted from `first_line` (the input line the parsed bytes
/// start on).
fn not_json(err: &serde_json::Error, first_line: usize, log: &mut IssueLog) -> Verdict {
    let text = err.to_string();
    let position = format!(" at line {} column {}", err.line(), err.column());
    let reason = match text.strip_suffix(&position) {
        Some(bare) if err.line() > 0 => format!(
            "not JSON: {bare} at line {} column {}",
            first_line + err.line() - 1,
            err.column()
        ),
        _ => format!("not JSON: {text}"),
    };
    log.clear();
    log.push_root(IssueCode::NotJson, Severity::Error, reason.as_str());
    Verdict::UNPARSED
}

/// What a run found: the context, the detected type, and the carried message (when the input
/// was an Agent Mail row whose `body_md` held the message).
pub(crate) struct Outcome {
    pub(crate) ctx: Ctx,
    pub(crate) family: Option<&'static FamilySpec>,
    pub(crate) found: Option<&'static MessageTypeSpec>,
    pub(crate) carried: Option<Value>,
}

impl Outcome {
    /// A run that found no message to check (the context says why).
    fn failed(ctx: Ctx) -> Outcome {
        Outcome {
            ctx,
            family: None,
            found: None,
            carried: None,
        }
    }
}

/// Runs detection and validation.
pub(crate) fn run(value: &Value, options: &Options, collect: bool) -> Outcome {
    run_with(Ctx::new(options.lenient, collect), value, options)
}

/// [`run`] with this context.
fn run_with(ctx: Ctx, value: &Value, options: &Options) -> Outcome {
    match value.as_object().map(|obj| (obj, obj.get("body_md"))) {
        Some((obj, Some(body))) => run_carried(ctx, obj, body, options),
        _ => run_bare(ctx, value, options),
    }
}

/// Runs detection and validation on a value that is not an Agent Mail row.
fn run_bare<'v, J: Json<'v>>(mut ctx: Ctx, value: J, options: &Options) -> Outcome {
    let Node::Object(obj) = value.node() else {
        ctx.error(LazyPath::Root, IssueCode::WrongType, || {
            format!("expected a message object, found {}", value.kind())
        });
        validator::scan_any(&mut ctx, None, value, LazyPath::Root);
        return Outcome::failed(ctx);
    };
    let (family, found) = detect::detect(&mut ctx, &detect::Members::new(obj), options.family);
    match found {
        Some(spec) => validator::check_message(&mut ctx, spec, obj, &[]),
        // Not a known message: still, no secret in it goes unreported.
        None => validator::scan_any(&mut ctx, None, value, LazyPath::Root),
    }
    Outcome {
        ctx,
        family,
        found,
        carried: None,
    }
}

/// Validates the protocol message carried in an Agent Mail row's `body_md`.
fn run_carried(mut ctx: Ctx, row: &Map<String, Value>, body: &Value, options: &Options) -> Outcome {
    let at = LazyPath::Root;
    let at = at.key("body_md");
    let Some(text) = body.as_str() else {
        ctx.error(at, IssueCode::WrongType, || {
            format!("Agent Mail body_md must be a string, found {}", body.kind())
        });
        return Outcome::failed(ctx);
    };
    // The row's own members: no secret in them either (its body and a text subject are read
    // with the message).
    for (k, v) in row {
        if !(k == "body_md" || (k == "subject" && v.is_string())) {
            validator::scan_any(&mut ctx, Some(k), v, LazyPath::Root.key(k));
        }
    }
    let subject = row.get("subject").and_then(Value::as_str);
    run_carried_text(ctx, subject, text, options)
}

/// Validates the message in an Agent Mail `body_md` text, the row's subject beside it.
fn run_carried_text(mut ctx: Ctx, subject: Option<&str>, text: &str, options: &Options) -> Outcome {
    let at = LazyPath::Root;
    let at = at.key("body_md");
    let root = LazyPath::Root;
    if let Some(subject) = subject {
        ctx::check_secrets(&mut ctx, None, subject, root.key("subject"));
    }
    let Some(json) = detect::extract_json(text) else {
        ctx::check_secrets(&mut ctx, None, text, at);
        let why = "body_md holds no JSON message (neither a JSON body nor a ```json fenced block)";
        ctx.error(at, IssueCode::NoProtocolMessage, why);
        return Outcome::failed(ctx);
    };
    for prose in secrets::around(text, json) {
        ctx::check_secrets(&mut ctx, None, prose, at);
    }
    let parsed: Value = match serde_json::from_str(json) {
        Ok(v) => v,
        Err(e) => {
            ctx.error(at, IssueCode::NotJson, || format!("body_md JSON: {e}"));
            return Outcome::failed(ctx);
        }
    };
    let Value::Object(inner) = parsed else {
        ctx.error(at, IssueCode::WrongType, || {
            format!(
                "the carried message must be a JSON object, found {}",
                parsed.kind()
            )
        });
        return Outcome::failed(ctx);
    };
    let pair = FamilyId::Pair.spec();
    // Only a type whose message is `{subject, body}` takes its type from the subject: an
    // AUDIT_REPORT mailed under that subject is the report itself (`audit_report.json`),
    // recognised by its members below.
    let subject_type = subject
        .and_then(|s| pair.message_type(s.trim()))
        .filter(|spec| spec.named_by_subject())
        .filter(|_| matches!(options.family, None | Some(FamilyId::Pair)))
        .filter(|_| !inner.contains_key("subject") && !inner.contains_key("body"));
    if let Some(spec) = subject_type {
        // A Pair body with the type in the Agent Mail subject: the carried message is
        // `{subject, body}`; `to` is supplied by the transport.
        let mut msg = Map::new();
        msg.insert("subject".into(), Value::String(spec.name.into()));
        msg.insert("body".into(), Value::Object(inner));
        validator::check_message(&mut ctx, spec, &msg, &["to"]);
        return Outcome {
            ctx,
            family: Some(pair),
            found: Some(spec),
            carried: Some(Value::Object(msg)),
        };
    }
    let (family, found) = if inner.contains_key("body_md") {
        let why = "an Agent Mail row inside body_md is not a protocol message";
        ctx.error(LazyPath::Root, IssueCode::UnknownFamily, why);
        (None, None)
    } else {
        detect::detect(&mut ctx, &detect::Members::new(&inner), options.family)
    };
    let inner = Value::Object(inner);
    match (found, &inner) {
        (Some(spec), Value::Object(obj)) => validator::check_message(&mut ctx, spec, obj, &[]),
        _ => validator::scan_any(&mut ctx, None, &inner, LazyPath::Root),
    }
    Outcome {
        ctx,
        family,
        found,
        carried: Some(inner),
    }
}

/// The verdict of a run; its issues go to `log`.
fn finish(mut out: Outcome, log: &mut IssueLog) -> Verdict {
    verdict(&mut out.ctx, out.family, out.found, log)
}

/// The verdict of a run that detected `family` and `found`; the issues of `ctx` go to `log`
/// (which takes its buffers back).
fn verdict(
    ctx: &mut Ctx,
    family: Option<&'static FamilySpec>,
    found: Option<&'static MessageTypeSpec>,
    log: &mut IssueLog,
) -> Verdict {
    let version = ctx.version.take();
    ctx.hand_log_to(log);
    Verdict {
        valid: ctx.errors == 0,
        family: family.map(|f| f.id),
        message_type: found.map(|t| t.name),
        version: family.map(|f| f.version_of(version)),
    }
}

/// The report of a run.
fn report(out: Outcome) -> Report {
    reported(|log| finish(out, log))
}

/// The report of a validation that lists its issues in a log (a fresh one, copied out).
fn reported(validate: impl FnOnce(&mut IssueLog) -> Verdict) -> Report {
    let mut log = IssueLog::new();
    let verdict = validate(&mut log);
    verdict.with_issues(log.to_issues())
}

/// A context that lists issues into `log`, taking its buffers.
fn logging(lenient: bool, log: &mut IssueLog) -> Ctx {
    Ctx::logging(lenient, true, std::mem::take(log))
}

/// Validates a message (or an Agent Mail row carrying one) and reports every issue.
pub fn validate(value: &Value, options: &Options) -> Report {
    report(run(value, options, true))
}

/// Validates the protocol message an Agent Mail row carries, from the row's `subject` and its
/// `body_md` text: the same report and carried message as [`validate_carried`] gives for the
/// whole row, without the row's JSON.
pub fn validate_body_md(
    subject: Option<&str>,
    body_md: &str,
    options: &Options,
) -> (Report, Option<Value>) {
    let mut out = run_carried_text(Ctx::new(options.lenient, true), subject, body_md, options);
    let carried = out.carried.take();
    (report(out), carried)
}

/// Validates like [`validate`] and also returns the protocol message itself: the message
/// carried in an Agent Mail row's `body_md` (a Pair body as `{subject, body}`), else `None`
/// (the input is the message).
pub fn validate_carried(value: &Value, options: &Options) -> (Report, Option<Value>) {
    let mut out = run(value, options, true);
    let carried = out.carried.take();
    (report(out), carried)
}

/// The protocol message `value` is, or carries in an Agent Mail row's `body_md`, when it is
/// valid (what a gate or session step reads); otherwise its report.
///
/// # Errors
/// The report of a message that is not valid.
pub fn valid_message(value: Value, options: &Options) -> Result<Value, Report> {
    let (report, carried) = validate_carried(&value, options);
    if report.valid {
        Ok(carried.unwrap_or(value))
    } else {
        Err(report)
    }
}

/// Whether a message is valid in strict mode with family detection (fast path: no issues built).
pub fn is_valid(value: &Value) -> bool {
    Options::default().is_valid(value)
}

impl Options {
    /// Whether a message is valid under these options (fast path: no issues built).
    pub fn is_valid(&self, value: &Value) -> bool {
        run(value, self, false).ctx.errors == 0
    }
}

/// The error-severity issues of a message (collected, then yielded in order).
pub fn iter_errors(value: &Value, options: &Options) -> impl Iterator<Item = Issue> {
    validate(value, options)
        .issues
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
}

/// Validates JSON text; text that is not JSON gives a single `not_json` issue.
pub fn validate_str(text: &str, options: &Options) -> Report {
    validate_slice(text.as_bytes(), options)
}

/// Validates JSON bytes; bytes that are not JSON give a single `not_json` issue.
///
/// Most messages, valid or not, are checked in one pass over the bytes that builds no
/// `Value` and lists the issues as the validator does; the rest (see the `fast` module) are
/// explained by the validator over the bytes' tree or [`validate_slice_via_value`], so the
/// report is the same either way.
pub fn validate_slice(bytes: &[u8], options: &Options) -> Report {
    validate_line(bytes, options, 1)
}

/// [`validate_slice`] with the issues listed in `log` (emptied first): a caller that validates
/// many messages keeps one log, and listing an issue allocates nothing once its buffers have
/// grown.
pub fn validate_slice_into(bytes: &[u8], options: &Options, log: &mut IssueLog) -> Verdict {
    validate_line_into(bytes, options, 1, log)
}

/// [`validate_slice`] for bytes that start on input line `line` (named by a `not_json` issue).
fn validate_line(bytes: &[u8], options: &Options, line: usize) -> Report {
    reported(|log| validate_line_into(bytes, options, line, log))
}

/// [`validate_line`] with the issues listed in `log`.
fn validate_line_into(bytes: &[u8], options: &Options, line: usize, log: &mut IssueLog) -> Verdict {
    let Some(text) = fast::utf8(bytes) else {
        return via_value(bytes, options, line, log);
    };
    by_pass(options.lenient, log, |ctx| fast::check(text, options, ctx))
        .unwrap_or_else(|| explain(text, options, line, log))
}

/// The verdict of the pass from bytes (`pass`, listing into a context that takes `log`'s
/// buffers), or `None` where it gives up: its issues forgotten, the buffers back in `log`.
fn by_pass(
    lenient: bool,
    log: &mut IssueLog,
    pass: impl FnOnce(&mut Ctx) -> Option<fast::Found>,
) -> Option<Verdict> {
    let mut ctx = logging(lenient, log);
    let Some((family, found)) = pass(&mut ctx) else {
        ctx.restart();
        ctx.hand_log_to(log);
        return None;
    };
    Some(verdict(&mut ctx, Some(family), Some(found), log))
}

/// The verdict on bytes the path from bytes cannot explain: the validator over the tree the
/// same tokenizer reads (no `Value`), or over a parsed `Value` where there is no tree or it is
/// an Agent Mail row (whose carried message is parsed from its `body_md`).
fn explain(text: &str, options: &Options, line: usize, log: &mut IssueLog) -> Verdict {
    let explained = fast::with_tree(text, |tree| {
        let tree = tree.filter(|tree| !tree.is_row())?;
        Some(finish(
            run_bare(logging(options.lenient, log), tree, options),
            log,
        ))
    });
    explained.unwrap_or_else(|| via_value(text.as_bytes(), options, line, log))
}

/// Validates JSON bytes by parsing them into a `Value` first, then [`validate`]: the reference
/// that [`validate_slice`] agrees with (and falls back to where its pass gives up).
pub fn validate_slice_via_value(bytes: &[u8], options: &Options) -> Report {
    reported(|log| via_value(bytes, options, 1, log))
}

fn via_value(bytes: &[u8], options: &Options, line: usize, log: &mut IssueLog) -> Verdict {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => finish(run_with(logging(options.lenient, log), &v, options), log),
        Err(e) => not_json(&e, line, log),
    }
}

/// Validates a message as the given message type of `family`, without detection: the
/// discriminator is checked like any other member, and an Agent Mail row is not unwrapped.
/// This is what a per-type schema (`switchboard schema FAMILY/TYPE`) checks, with codes and paths.
pub fn validate_as(
    value: &Value,
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    lenient: bool,
) -> Report {
    reported(|log| check_as(value, family, spec, lenient, log))
}

/// [`validate_as`] over any parsed JSON, the issues listed in `log`.
fn check_as<'v, J: Json<'v>>(
    value: J,
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    lenient: bool,
    log: &mut IssueLog,
) -> Verdict {
    let mut ctx = logging(lenient, log);
    match value.node() {
        Node::Object(obj) => validator::check_message(&mut ctx, spec, obj, &[]),
        _ => ctx.error(LazyPath::Root, IssueCode::WrongType, || {
            format!("expected a message object, found {}", value.kind())
        }),
    }
    let out = Outcome {
        ctx,
        family: Some(family),
        found: Some(spec),
        carried: None,
    };
    finish(out, log)
}

/// [`validate_as`] for JSON bytes; bytes that are not JSON give a single `not_json` issue.
pub fn validate_slice_as(
    bytes: &[u8],
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    lenient: bool,
) -> Report {
    reported(|log| validate_slice_as_into(bytes, family, spec, lenient, log))
}

/// [`validate_slice_as`] with the issues listed in `log` (as [`validate_slice_into`]).
pub fn validate_slice_as_into(
    bytes: &[u8],
    family: &'static FamilySpec,
    spec: &'static MessageTypeSpec,
    lenient: bool,
    log: &mut IssueLog,
) -> Verdict {
    let text = fast::utf8(bytes);
    if let Some(text) = text {
        let pass = |ctx: &mut Ctx| fast::check_as(text, family, spec, ctx);
        if let Some(verdict) = by_pass(lenient, log, pass) {
            return verdict;
        }
    }
    let checked = text.and_then(|text| {
        fast::with_tree(text, |tree| {
            Some(check_as(tree?, family, spec, lenient, log))
        })
    });
    checked.unwrap_or_else(|| match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => check_as(&v, family, spec, lenient, log),
        Err(e) => not_json(&e, 1, log),
    })
}
