//! The state of one validation: the issues collected (paths and messages built only for the
//! issues a report lists), the error count the verdict reads, the declared version, and the
//! secrets found (so that no issue message repeats one).

use super::issue::{IssueCode, LazyPath, Severity, MAX_ISSUES};
use super::issue_log::{write_pieces, IssueLog, Message};
use super::registry::Deviation;
use super::secrets;
use std::borrow::Cow;

/// Validation state: mode flags, collected issues and the declared version seen.
pub(crate) struct Ctx {
    /// Lenient mode: deviations become warnings.
    pub(crate) lenient: bool,
    /// Whether issues (with paths and messages) are collected; `false` is the `is_valid` fast path.
    pub(crate) collect: bool,
    /// Collected issues (at most `limit`).
    log: IssueLog,
    /// How many issues are listed before the rest are only counted: [`MAX_ISSUES`], or more
    /// for a pass that puts its issues in order before it keeps the first [`MAX_ISSUES`]
    /// ([`Ctx::list_past_limit`]).
    limit: usize,
    /// Number of error-severity issues, listed or not.
    pub(crate) errors: usize,
    /// Errors and warnings past the limit, counted but not listed.
    omitted: (usize, usize),
    /// A version string declared by the message (PAIR_INIT `protocol_version`, droid `version`).
    /// (Borrowed from the registry when it is a family's modeled version: no allocation.)
    pub(crate) version: Option<Cow<'static, str>>,
    /// Whether the declared version is recorded (always when collecting).
    pub(crate) record_version: bool,
    /// The secrets found, with their masks: no issue message may repeat one.
    masks: Vec<(String, String)>,
}

impl Ctx {
    /// A fresh context.
    pub(crate) fn new(lenient: bool, collect: bool) -> Self {
        Ctx::logging(lenient, collect, IssueLog::new())
    }

    /// A fresh context that lists issues into `log` (emptied first, its buffers kept).
    pub(crate) fn logging(lenient: bool, collect: bool, mut log: IssueLog) -> Self {
        log.clear();
        Ctx {
            lenient,
            collect,
            log,
            errors: 0,
            limit: MAX_ISSUES,
            omitted: (0, 0),
            version: None,
            record_version: collect,
            masks: Vec::new(),
        }
    }

    /// A context that only counts errors, strictly (on the path from bytes, [`super::fast`]:
    /// detection's trial answers, the secrets of an Agent Mail row's own members).
    pub(crate) fn verdict() -> Self {
        Ctx::new(false, false)
    }

    /// Lists an issue, or counts it once the limit is listed (paths and messages
    /// of omitted issues are never built). Out of line: the checks that call it stay small
    /// on the path where nothing is wrong.
    #[cold]
    #[inline(never)]
    fn push(&mut self, path: LazyPath<'_>, code: IssueCode, severity: Severity, msg: impl Message) {
        if self.log.len() < self.limit {
            self.log.push(path, code, severity, msg);
        } else if severity == Severity::Error {
            self.omitted.0 += 1;
        } else {
            self.omitted.1 += 1;
        }
    }

    /// How many issues are listed.
    pub(crate) fn listed(&self) -> usize {
        self.log.len()
    }

    /// A context that lists four times [`MAX_ISSUES`] before it only counts: for a pass that
    /// finds issues in another order than the report lists them, puts them in order, then
    /// keeps the first ([`Ctx::keep_first_issues`]).
    pub(crate) fn list_past_limit(&mut self) {
        self.limit = 4 * MAX_ISSUES;
    }

    /// Runs `f` as a strict check that lists nothing, and says whether it found an issue;
    /// what it found is not counted.
    pub(crate) fn trial<T>(&mut self, f: impl FnOnce(&mut Ctx) -> T) -> (T, bool) {
        let saved = (self.lenient, self.collect, self.errors);
        (self.lenient, self.collect) = (false, false);
        let out = f(self);
        let found = self.errors > saved.2;
        (self.lenient, self.collect, self.errors) = saved;
        (out, found)
    }

    /// Forgets what was found (a pass that checked the message as another type starts again),
    /// keeping the mode, the limit and the log's buffers.
    pub(crate) fn restart(&mut self) {
        self.log.clear();
        self.errors = 0;
        self.omitted = (0, 0);
        self.version = None;
        self.masks.clear();
    }

    /// Whether some issues were only counted (past the limit).
    pub(crate) fn omitted_any(&self) -> bool {
        self.omitted != (0, 0)
    }

    /// Keeps the first [`MAX_ISSUES`] issues listed, counting the rest as omitted.
    pub(crate) fn keep_first_issues(&mut self) {
        if self.log.len() <= MAX_ISSUES {
            return;
        }
        for severity in self.log.truncate(MAX_ISSUES) {
            match severity {
                Severity::Error => self.omitted.0 += 1,
                Severity::Warning => self.omitted.1 += 1,
            }
        }
    }

    /// The issues listed so far, to be put in order.
    pub(crate) fn log_mut(&mut self) -> &mut IssueLog {
        &mut self.log
    }

    /// Hands the listed issues, followed by one [`IssueCode::TooManyIssues`] issue when some
    /// were omitted, to `log`, whose buffers this context took: the two logs change places
    /// (nothing moved but their three vectors' handles, nothing dropped).
    pub(crate) fn hand_log_to(&mut self, log: &mut IssueLog) {
        if !self.masks.is_empty() || self.omitted != (0, 0) {
            self.mask_and_count();
        }
        std::mem::swap(log, &mut self.log);
    }

    /// Masks the secrets found in the listed messages, and lists the issue counting those
    /// omitted.
    #[cold]
    fn mask_and_count(&mut self) {
        let log = &mut self.log;
        // A message that echoes a value (`"…" is not one of …`) would repeat a secret in it.
        for (secret, mask) in &self.masks {
            log.mask(secret, mask);
        }
        let (errors, warnings) = self.omitted;
        if errors + warnings > 0 {
            let severity = if errors > 0 {
                Severity::Error
            } else {
                Severity::Warning
            };
            log.push_root(IssueCode::TooManyIssues, severity, || {
                format!(
                    "{} more issues not shown ({errors} errors, {warnings} warnings): a report \
                     lists at most {MAX_ISSUES}",
                    errors + warnings
                )
            });
        }
    }

    /// Whether the fast path can stop (an error was found and nothing is collected).
    pub(crate) fn done(&self) -> bool {
        !self.collect && self.errors > 0
    }

    /// Records an error.
    pub(crate) fn error(&mut self, path: LazyPath<'_>, code: IssueCode, msg: impl Message) {
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
        msg: impl Message,
    ) {
        if !self.lenient {
            return self.error(path, code, msg);
        }
        if self.collect {
            self.push(path, code, Severity::Warning, Deviated(msg, dev.id));
        }
    }
}

/// Reports the secrets a string holds ([`secrets`]): `name` is the member's name when the
/// string is a member's value (a secret-named member's value is one itself).
#[inline(always)]
pub(crate) fn check_secrets(ctx: &mut Ctx, name: Option<&str>, s: &str, path: LazyPath<'_>) {
    if secrets::holds_secret(name, s) {
        report_secrets(ctx, name, s, path);
    }
}

/// Reports the secrets of a string that holds some.
#[cold]
#[inline(never)]
fn report_secrets(ctx: &mut Ctx, name: Option<&str>, s: &str, path: LazyPath<'_>) {
    if !ctx.collect {
        ctx.error(path, IssueCode::SecretInMessage, "");
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

/// A lenient-mode warning's message: the error's, then the deviation that accepts it.
struct Deviated<M>(M, &'static str);

impl<M: Message> Message for Deviated<M> {
    fn write_to(self, out: &mut String) {
        self.0.write_to(out);
        write_pieces(out, &[" (accepted in lenient mode: ", self.1, ")"]);
    }
}
