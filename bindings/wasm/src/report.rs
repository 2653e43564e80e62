//! The packed forms that cross the boundary: the options word the JS layer sends, the result
//! code that comes back, and the reports that need more than a code ([`Packed`]); and a
//! report's JSON in the package's shape ([`JsReport`], for the refusals that carry one).
//!
//! Options word: bit 0 lenient; bits 1–3 the family (its registry position + 1, 0 = detect);
//! bits 4–11 a message type of that family (its position + 1, 0 = any type); bit 12 reports
//! packed with their issues' path segments ([`segments`]).
//!
//! Result code: bit 0 set means "simple": valid, no issues and the family's own version, so
//! the JS layer builds the report from the registry tables alone; bits 1–3 and 4–11 name the
//! family and type as above. A code without bit 0 means the report is packed ([`keep`]), in
//! order after the others of the same call, for the JS layer to read ([`with_packed`]).

use crate::packed::{has_own_version, positions, Packed};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::RefCell;
use switchboard_core::protocol::{
    FamilyId, FamilySpec, Issue, IssueCode, IssueLog, MessageTypeSpec, Options, Path, PathSegment,
    Report, Severity, Verdict, REGISTRY,
};

/// What one validation call checks, decoded from the options word.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    /// Detection (or a family hint), as `switchboard validate`.
    Detect(Options),
    /// One message type, without detection (the per-type schema objects).
    Type {
        /// Its family.
        family: &'static FamilySpec,
        /// The type.
        spec: &'static MessageTypeSpec,
        /// Lenient mode.
        lenient: bool,
    },
}

/// Decodes an options word; `None` for a family or type position the registry lacks.
pub fn decode(word: u32) -> Option<Target> {
    let lenient = word & 1 == 1;
    let family = match (word >> 1) & 0b111 {
        0 => None,
        i => Some(*REGISTRY.get(i as usize - 1)?),
    };
    let ty = (word >> 4) & 0xff;
    if word >> 13 != 0 {
        return None;
    }
    match (family, ty) {
        (family, 0) => Some(Target::Detect(Options {
            family: family.map(|f| f.id),
            lenient,
        })),
        (Some(family), i) => Some(Target::Type {
            family,
            spec: family.types.get(i as usize - 1)?,
            lenient,
        }),
        (None, _) => None,
    }
}

/// Whether an options word asks for reports packed with their path segments (the JS layer's
/// `path` is then the segments and `pointer` the JSON Pointer; without, `path` is the JSON
/// Pointer, exactly as `switchboard validate` prints it).
pub fn segments(word: u32) -> bool {
    word >> 12 & 1 == 1
}

/// The result code of a report, its verdict and its issues (bit 0 set when the registry
/// tables say it all).
pub fn encode(verdict: &Verdict, issues: &IssueLog) -> u32 {
    let (family, kind) = positions(verdict);
    let simple =
        verdict.valid && issues.is_empty() && kind != 0 && has_own_version(verdict, family);
    u32::from(simple) | family << 1 | kind << 4
}

thread_local! {
    /// The reports of the current call whose codes were not simple, packed in order; the
    /// buffers are kept from call to call.
    static PACKED: RefCell<Packed> = RefCell::new(Packed::default());
    /// The issues of the report being made, its buffers kept from report to report.
    static LOG: RefCell<IssueLog> = RefCell::new(IssueLog::new());
}

/// Forgets the reports packed (a new call starts).
pub fn clear() {
    PACKED.with(|p| p.borrow_mut().clear());
}

/// The result code of the report `validate` makes, listing its issues in the log it is
/// given ([`keep`]).
pub fn keep_validated(segments: bool, validate: impl FnOnce(&mut IssueLog) -> Verdict) -> u32 {
    LOG.with(|log| {
        let log = &mut log.borrow_mut();
        let verdict = validate(log);
        keep(&verdict, log, segments)
    })
}

/// A report's result code; the report itself is packed ([`Packed::push`]) unless the code
/// says it all.
fn keep(verdict: &Verdict, issues: &IssueLog, segments: bool) -> u32 {
    let code = encode(verdict, issues);
    if code & 1 == 0 {
        PACKED.with(|p| p.borrow_mut().push(verdict, issues, segments));
    }
    code
}

/// [`keep`] for a report made already.
pub fn keep_report(report: &Report, segments: bool) -> u32 {
    keep_validated(segments, |log| {
        log.clear();
        for issue in &report.issues {
            log.push_issue(issue);
        }
        report.verdict()
    })
}

/// Reads the reports the current call packed.
pub fn with_packed<T>(read: impl FnOnce(&Packed) -> T) -> T {
    PACKED.with(|p| read(&p.borrow()))
}

/// A report in the package's camelCase shape.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsReport<'a> {
    valid: bool,
    family: Option<&'static str>,
    message_type: Option<&'static str>,
    version: Option<&'a str>,
    issues: Issues<'a>,
}

impl<'a> JsReport<'a> {
    /// `report` in the package's shape; with `segments`, issue paths as segments.
    pub fn of(report: &'a Report, segments: bool) -> Self {
        JsReport {
            valid: report.valid,
            family: report.family_name(),
            message_type: report.message_type,
            version: report.version.as_deref(),
            issues: Issues {
                issues: &report.issues,
                segments,
            },
        }
    }
}

/// A report's issues in one of the two path forms.
struct Issues<'a> {
    issues: &'a [Issue],
    segments: bool,
}

impl Serialize for Issues<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.issues.len()))?;
        for issue in self.issues {
            if self.segments {
                seq.serialize_element(&SegmentIssue {
                    path: Segments(&issue.path),
                    pointer: &issue.path,
                    code: issue.code,
                    message: &issue.message,
                    severity: issue.severity,
                })?;
            } else {
                seq.serialize_element(issue)?;
            }
        }
        seq.end()
    }
}

/// An issue for Standard Schema: `path` as segments, `pointer` as the JSON Pointer.
#[derive(Serialize)]
struct SegmentIssue<'a> {
    path: Segments<'a>,
    pointer: &'a Path,
    code: IssueCode,
    message: &'a str,
    severity: Severity,
}

/// A path as an array of member names (strings) and indexes (numbers).
struct Segments<'a>(&'a Path);

impl Serialize for Segments<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let segs = self.0.segments();
        let mut seq = s.serialize_seq(Some(segs.len()))?;
        for seg in segs {
            match seg {
                PathSegment::Key(k) => seq.serialize_element(k)?,
                PathSegment::Index(i) => seq.serialize_element(i)?,
            }
        }
        seq.end()
    }
}

/// A report as JS holds it (from `validate*`, or a schema object's issues): the way back into
/// the core's [`Report`], for the functions that take one (`errorReply`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReportIn {
    valid: bool,
    family: Option<String>,
    message_type: Option<String>,
    version: Option<String>,
    issues: Vec<IssueIn>,
}

#[derive(Deserialize)]
struct IssueIn {
    path: PathIn,
    code: String,
    message: String,
    severity: String,
}

/// An issue path: the JSON Pointer string of reports, or the segments of schema issues.
#[derive(Deserialize)]
#[serde(untagged)]
enum PathIn {
    Pointer(String),
    Segments(Vec<SegmentIn>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum SegmentIn {
    Index(usize),
    Key(String),
}

impl PathIn {
    fn into_path(self) -> Result<Path, String> {
        let segments = match self {
            PathIn::Segments(segs) => segs
                .into_iter()
                .map(|s| match s {
                    SegmentIn::Index(i) => PathSegment::Index(i),
                    SegmentIn::Key(k) => PathSegment::Key(k),
                })
                .collect(),
            PathIn::Pointer(p) if p.is_empty() => Vec::new(),
            PathIn::Pointer(p) => {
                let rest = p
                    .strip_prefix('/')
                    .ok_or_else(|| format!("path {p:?} is not a JSON Pointer"))?;
                rest.split('/')
                    .map(|t| match t.parse::<usize>() {
                        Ok(i) if t == i.to_string() => PathSegment::Index(i),
                        _ => PathSegment::Key(t.replace("~1", "/").replace("~0", "~")),
                    })
                    .collect()
            }
        };
        Ok(Path::from_segments(segments))
    }
}

/// Reads a report the package gave JS back into the core's [`Report`] (family, type and issue
/// codes by their registry names).
///
/// # Errors
/// Why the JSON is not such a report.
pub fn report_from_json(json: &str) -> Result<Report, String> {
    let input: ReportIn = serde_json::from_str(json).map_err(|e| format!("not a report: {e}"))?;
    let family = match input.family.as_deref() {
        None => None,
        Some(f) => Some(FamilyId::parse(f).ok_or_else(|| format!("unknown family {f:?}"))?),
    };
    let message_type = match (family, input.message_type.as_deref()) {
        (_, None) => None,
        (Some(f), Some(t)) => Some(
            f.spec()
                .message_type(t)
                .ok_or_else(|| format!("unknown message type {t:?} in {}", f.as_str()))?
                .name,
        ),
        (None, Some(t)) => return Err(format!("message type {t:?} without a family")),
    };
    let issues = input
        .issues
        .into_iter()
        .map(|i| {
            let code = IssueCode::ALL
                .iter()
                .copied()
                .find(|c| c.as_str() == i.code)
                .ok_or_else(|| format!("unknown issue code {:?}", i.code))?;
            let severity = match i.severity.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                other => return Err(format!("unknown severity {other:?}")),
            };
            Ok(Issue {
                path: i.path.into_path()?,
                code,
                message: i.message,
                severity,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Report {
        valid: input.valid,
        family,
        message_type,
        version: input.version.map(Cow::Owned),
        issues,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_core::protocol::{self, FamilyId};

    /// The report as a one-report JSON array in the package's shape.
    fn reports_json(report: &Report, segments: bool) -> String {
        serde_json::to_string(&[JsReport::of(report, segments)]).unwrap()
    }

    #[test]
    fn options_words_decode_to_targets() {
        assert!(matches!(
            decode(0),
            Some(Target::Detect(Options {
                family: None,
                lenient: false
            }))
        ));
        assert!(matches!(
            decode(1 | 3 << 1),
            Some(Target::Detect(Options {
                family: Some(FamilyId::Droid),
                lenient: true
            }))
        ));
        match decode(1 << 1 | 2 << 4) {
            Some(Target::Type {
                family,
                spec,
                lenient: false,
            }) => {
                assert_eq!(family.id, FamilyId::Pair);
                assert_eq!(spec.name, REGISTRY[0].types[1].name);
            }
            other => panic!("{other:?}"),
        }
        assert!(decode(5 << 1).is_none(), "no fifth family");
        assert!(decode(1 << 4).is_none(), "a type needs its family");
        assert!(decode(1 << 1 | 0xff << 4).is_none(), "no 255th pair type");
        assert!(decode(1 << 13).is_none(), "unknown bits");
        assert!(segments(1 << 12) && decode(1 << 12).is_some() && !segments(1 << 1));
    }

    #[test]
    fn a_valid_report_with_the_family_version_is_simple() {
        let msg = serde_json::json!({"type": "request_review"});
        let mut log = IssueLog::new();
        let verdict = protocol::validate_slice_into(
            msg.to_string().as_bytes(),
            &Options::default(),
            &mut log,
        );
        assert!(verdict.valid, "{verdict:?}");
        let code = encode(&verdict, &log);
        assert_eq!(code & 1, 1);
        let fam = REGISTRY[(code >> 1 & 7) as usize - 1];
        assert_eq!(fam.id, FamilyId::PairClaude);
        assert_eq!(
            fam.types[(code >> 4 & 0xff) as usize - 1].name,
            "DriverCommand"
        );
    }

    #[test]
    fn reports_read_as_json_in_both_path_forms() {
        let msg = serde_json::json!({"type": "request_review", "context": 5});
        let report = protocol::validate(&msg, &Options::default());
        assert_eq!(keep_report(&report, false) & 1, 0);
        let pointer = reports_json(&report, false);
        assert_eq!(
            pointer,
            r#"[{"valid":false,"family":"pair-claude","messageType":"DriverCommand","version":"1.0.0","issues":[{"path":"/context","code":"wrong_type","message":"expected a string, found number","severity":"error"}]}]"#
        );
        let segments = reports_json(&report, true);
        assert!(
            segments.contains(r#""path":["context"],"pointer":"/context""#),
            "{segments}"
        );
    }

    #[test]
    fn reports_read_back_as_they_were_written() {
        let msg = serde_json::json!({"to": "b", "subject": "PAIR_INIT", "body": {"items": [{"a/b~": 1}]}});
        let report = protocol::validate(&msg, &Options::default());
        assert!(!report.valid);
        for segments in [false, true] {
            let json = reports_json(&report, segments);
            let one = serde_json::from_str::<Vec<serde_json::Value>>(&json).unwrap()[0].to_string();
            let back = report_from_json(&one).unwrap();
            assert_eq!(back.valid, report.valid);
            assert_eq!(back.family, report.family);
            assert_eq!(back.message_type, report.message_type);
            assert_eq!(back.issues.len(), report.issues.len());
            for (b, r) in back.issues.iter().zip(&report.issues) {
                assert_eq!(
                    (b.path.to_pointer(), b.code, &b.message),
                    (r.path.to_pointer(), r.code, &r.message)
                );
            }
        }
        assert!(report_from_json(r#"{"valid": false, "family": "nope", "messageType": null, "version": null, "issues": []}"#).is_err());
        assert!(report_from_json(r#"{"valid": false, "family": null, "messageType": null, "version": null, "issues": [{"path": "x", "code": "wrong_type", "message": "m", "severity": "error"}]}"#).is_err());
    }

    #[test]
    fn kept_reports_are_packed_until_the_next_call() {
        clear();
        let code = keep_validated(false, |log| {
            protocol::validate_slice_into(b"[", &Options::default(), log)
        });
        assert_eq!(code & 1, 0);
        with_packed(|packed| {
            assert!(packed.text.contains("not JSON"), "{packed:?}");
            assert_eq!(packed.table[2], 0, "not_json");
        });
        clear();
        with_packed(|packed| assert_eq!(*packed, Packed::default()));
    }
}
