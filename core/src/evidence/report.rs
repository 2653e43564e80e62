//! An audit report as the reviewer is shown it, from wherever it came: an `AUDIT_REPORT` in
//! the mail, the session's `audit_report.json` in the folder, or the core's audit run in the
//! browser. Reports from mail and files are read leniently: a value outside the model (the
//! seed's examples write `"severity": "NONE"`) reads as absent, a location that is not
//! `file:line` keeps its text.

use crate::audit::{AuditReport, Code, IssueType, Severity, Side, Status};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An audit report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// PASS or FAIL.
    pub status: Option<Status>,
    /// The worst severity.
    pub severity: Option<Severity>,
    /// An integrity pattern fired.
    pub scheming_detected: bool,
    /// Every finding.
    pub issues: Vec<ReportedFinding>,
    /// What was audited.
    pub notes: Vec<String>,
}

/// One finding of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportedFinding {
    /// integrity, safety or quality.
    pub kind: Option<IssueType>,
    /// How bad.
    pub severity: Option<Severity>,
    /// What was found.
    pub description: String,
    /// `file:line` as written.
    pub location: Option<String>,
    /// The file of `location`.
    pub file: Option<String>,
    /// The line of `location`.
    pub line: Option<usize>,
    /// Which side of a diff the line counts on (new when not said).
    pub side: Side,
    /// The machine code.
    pub code: Option<Code>,
    /// The pattern that fired.
    pub pattern: Option<String>,
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn typed<T: for<'de> Deserialize<'de>>(v: &Value, key: &str) -> Option<T> {
    v.get(key).and_then(|x| T::deserialize(x).ok())
}

impl Report {
    /// Reads a report's JSON (the `audit_report.json` model).
    #[must_use]
    pub fn from_value(v: &Value) -> Report {
        Report {
            status: typed(v, "status"),
            severity: typed(v, "severity"),
            scheming_detected: v.get("scheming_detected") == Some(&Value::Bool(true)),
            issues: v
                .get("issues")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|i| {
                    let location = text(i, "location");
                    let (file, line) = location.as_deref().map_or((None, None), split_location);
                    ReportedFinding {
                        kind: typed(i, "type"),
                        severity: typed(i, "severity"),
                        description: text(i, "description").unwrap_or_default(),
                        location,
                        file,
                        line,
                        side: typed(i, "side").unwrap_or(Side::New),
                        code: typed(i, "code"),
                        pattern: text(i, "pattern"),
                    }
                })
                .collect(),
            notes: v
                .get("notes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        }
    }

    /// Reads a report file's text.
    ///
    /// # Errors
    /// The text is not JSON, or not an object.
    pub fn from_json(text: &str) -> Result<Report, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if !value.is_object() {
            return Err("not a JSON object".into());
        }
        Ok(Report::from_value(&value))
    }

    /// The core's own audit, as shown.
    #[must_use]
    pub fn of(report: &AuditReport) -> Report {
        Report {
            status: Some(report.status),
            severity: Some(report.severity),
            scheming_detected: report.scheming_detected,
            issues: report
                .issues
                .iter()
                .map(|f| ReportedFinding {
                    kind: Some(f.kind),
                    severity: Some(f.severity),
                    description: f.description.clone(),
                    location: Some(f.location.to_string()),
                    file: Some(f.location.path.clone()),
                    line: Some(f.location.line),
                    side: f.side,
                    code: Some(f.code),
                    pattern: Some(f.pattern.to_owned()),
                })
                .collect(),
            notes: report.notes.clone(),
        }
    }
}

/// `file:line` split; a location without a numeric line is a file only.
fn split_location(location: &str) -> (Option<String>, Option<usize>) {
    match location.rsplit_once(':') {
        Some((file, line)) if !file.is_empty() => match line.parse::<usize>() {
            Ok(n) => (Some(file.to_owned()), Some(n)),
            Err(_) => (Some(location.to_owned()), None),
        },
        _ => (Some(location.to_owned()).filter(|l| !l.is_empty()), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_leniently() {
        let r = Report::from_json(
            r#"{"status":"PASS","severity":"NONE","scheming_detected":false,
               "issues":[{"type":"integrity","severity":"CRITICAL","description":"d",
                          "location":"src/a.py:12","code":"SCHEMING_DETECTED","pattern":"env-gaming"},
                         {"type":"odd","severity":"MAJOR","description":"e","location":"somewhere"}],
               "notes":["n"]}"#,
        )
        .unwrap();
        assert_eq!(r.status, Some(Status::Pass));
        assert_eq!(r.severity, None);
        assert_eq!(r.issues[0].file.as_deref(), Some("src/a.py"));
        assert_eq!(r.issues[0].line, Some(12));
        assert_eq!(r.issues[0].code, Some(Code::SchemingDetected));
        assert_eq!(r.issues[1].kind, None);
        assert_eq!(
            (r.issues[1].file.as_deref(), r.issues[1].line),
            (Some("somewhere"), None)
        );
        assert!(Report::from_json("[1]").is_err());
        assert!(Report::from_json("{").unwrap_err().starts_with("not JSON"));
    }
}
