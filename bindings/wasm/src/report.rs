//! The packed forms that cross the boundary: the options word the JS layer sends, the result
//! code that comes back, and the JSON of the reports that need more than a code.
//!
//! Options word: bit 0 lenient; bits 1–3 the family (its registry position + 1, 0 = detect);
//! bits 4–11 a message type of that family (its position + 1, 0 = any type).
//!
//! Result code: bit 0 set means "simple": valid, no issues and the family's own version, so
//! the JS layer builds the report from the registry tables alone; bits 1–3 and 4–11 name the
//! family and type as above. A code without bit 0 means the report waits in [`take_reports`].

use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use std::cell::RefCell;
use switchboard_core::protocol::{
    FamilySpec, Issue, IssueCode, MessageTypeSpec, Options, Path, PathSegment, Report, Severity,
    REGISTRY,
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
    if word >> 12 != 0 {
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

/// The result code of a report (bit 0 set when the registry tables say it all).
pub fn encode(report: &Report) -> u32 {
    let family = REGISTRY.iter().position(|f| Some(f.id) == report.family);
    let fam_bits = family.map_or(0, |i| i as u32 + 1);
    let type_bits = family
        .and_then(|i| {
            let name = report.message_type?;
            REGISTRY[i].types.iter().position(|t| t.name == name)
        })
        .map_or(0, |i| i as u32 + 1);
    let simple = report.valid
        && report.issues.is_empty()
        && type_bits != 0
        && family.is_some_and(|i| report.version.as_deref() == Some(REGISTRY[i].version));
    u32::from(simple) | fam_bits << 1 | type_bits << 4
}

thread_local! {
    /// Reports whose codes were not simple, in order, until the JS layer takes them.
    static PENDING: RefCell<Vec<Report>> = const { RefCell::new(Vec::new()) };
}

/// Drops the reports not taken yet (a new call starts).
pub fn clear() {
    PENDING.with(|p| p.borrow_mut().clear());
}

/// Packs a report: its code, and the report itself kept for [`take_reports`] unless simple.
pub fn keep(report: Report) -> u32 {
    let code = encode(&report);
    if code & 1 == 0 {
        PENDING.with(|p| p.borrow_mut().push(report));
    }
    code
}

/// The kept reports as one JSON array, in order, and forgets them. With `segments` each
/// issue's `path` is its segments (strings and numbers) and `pointer` the JSON Pointer; without,
/// `path` is the JSON Pointer, exactly as `switchboard validate` prints it.
pub fn take_reports(segments: bool) -> String {
    let reports = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
    reports_json(&reports, segments)
}

/// The JSON array of `reports` in the package's shape (see [`take_reports`]).
pub fn reports_json(reports: &[Report], segments: bool) -> String {
    let shaped: Vec<JsReport<'_>> = reports.iter().map(|r| JsReport::of(r, segments)).collect();
    // Serializing these borrowed, string-keyed structs cannot fail.
    serde_json::to_string(&shaped).unwrap_or_else(|_| String::from("[]"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_core::protocol::{self, FamilyId};

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
        assert!(decode(1 << 12).is_none(), "unknown bits");
    }

    #[test]
    fn a_valid_report_with_the_family_version_is_simple() {
        let msg = serde_json::json!({"type": "request_review"});
        let report = protocol::validate(&msg, &Options::default());
        assert!(report.valid, "{report:?}");
        let code = encode(&report);
        assert_eq!(code & 1, 1);
        let fam = REGISTRY[(code >> 1 & 7) as usize - 1];
        assert_eq!(fam.id, FamilyId::PairClaude);
        assert_eq!(
            fam.types[(code >> 4 & 0xff) as usize - 1].name,
            "DriverCommand"
        );
    }

    #[test]
    fn reports_with_issues_wait_as_json_in_both_path_forms() {
        let msg = serde_json::json!({"type": "request_review", "context": 5});
        let report = protocol::validate(&msg, &Options::default());
        assert_eq!(encode(&report) & 1, 0);
        let pointer = reports_json(std::slice::from_ref(&report), false);
        assert_eq!(
            pointer,
            r#"[{"valid":false,"family":"pair-claude","messageType":"DriverCommand","version":"1.0.0","issues":[{"path":"/context","code":"wrong_type","message":"expected a string, found number","severity":"error"}]}]"#
        );
        let segments = reports_json(std::slice::from_ref(&report), true);
        assert!(
            segments.contains(r#""path":["context"],"pointer":"/context""#),
            "{segments}"
        );
    }

    #[test]
    fn kept_reports_are_taken_once() {
        clear();
        let bad = protocol::validate_str("[", &Options::default());
        assert_eq!(keep(bad) & 1, 0);
        let taken = take_reports(false);
        assert!(taken.contains("not_json"), "{taken}");
        assert_eq!(take_reports(false), "[]");
    }
}
