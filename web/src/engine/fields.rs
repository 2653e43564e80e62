//! A message laid out for reading: the core's validation report, the carried message's
//! members as labelled values (lists as lists, paths as code) with each issue beside the
//! member it points at, the body as safe HTML, and the session or task it belongs to.

use super::secrets;
use super::traffic::Traffic;
use crate::api::MailRow;
use crate::model::{Belongs, Field, FieldValue, Inspection, IssueView, Verdict};
use serde_json::Value;
use std::borrow::Cow;
use switchboard_core::protocol::secrets::redact;
use switchboard_core::protocol::{self, FamilyId, Issue, IssueCode, Options};

/// An issue as the model shows it.
#[must_use]
pub fn issue_view(issue: &Issue) -> IssueView {
    IssueView {
        path: issue.path.to_pointer(),
        code: issue.code,
        message: issue.message.clone(),
        severity: issue.severity,
    }
}

/// Inspects one message; `traffic` (its project's, when loaded) tells its session or task;
/// its secrets are masked in what it shows unless `reveal`.
#[must_use]
pub fn inspect(message: &MailRow, traffic: Option<&Traffic>, reveal: bool) -> Inspection {
    let subject = Some(message.subject.as_str()).filter(|s| !s.is_empty());
    let (report, carried) =
        protocol::validate_body_md(subject, &message.body_md, &Options::default());
    let plain = report
        .issues
        .iter()
        .any(|i| i.code == IssueCode::NoProtocolMessage);
    let issues: Vec<IssueView> = report.issues.iter().map(issue_view).collect();
    let verdict = match (plain, report.valid) {
        (true, _) => Verdict::Plain,
        (false, true) => Verdict::Valid,
        (false, false) => Verdict::Invalid,
    };
    let carried = carried.filter(|_| !plain);
    let belongs = belongs(message.id, report.family, carried.as_ref(), traffic);
    let mut shown = carried;
    let mut body = Cow::Borrowed(message.body_md.as_str());
    let mut masked = false;
    if !reveal {
        if let Some(value) = &mut shown {
            masked = secrets::redact_value(value, None);
        }
        body = redact(&message.body_md);
        masked |= matches!(body, Cow::Owned(_));
    }
    Inspection {
        verdict,
        family: report.family,
        message_type: report.message_type.map(str::to_owned),
        version: report.version.as_deref().map(str::to_owned),
        fields: shown
            .as_ref()
            .map(|v| fields(v, "", &issues))
            .unwrap_or_default(),
        raw: shown
            .as_ref()
            .and_then(|v| serde_json::to_string_pretty(v).ok()),
        html: crate::markdown::render(&body),
        belongs,
        issues,
        masked,
    }
}

fn belongs(
    id: u64,
    family: Option<FamilyId>,
    carried: Option<&Value>,
    traffic: Option<&Traffic>,
) -> Option<Belongs> {
    let text = |key: &str| carried?.get(key)?.as_str().map(str::to_owned);
    match family? {
        FamilyId::Pair => {
            let traffic = traffic?;
            traffic.book.pair.sessions().iter().find_map(|s| {
                let item = s.timeline.iter().find(|t| t.id == Some(id))?;
                Some(Belongs::Session {
                    id: s.id.clone(),
                    phase: item.phase,
                })
            })
        }
        FamilyId::AgentPo => Some(Belongs::Task(format!(
            "{}/{}",
            text("agent_id")?,
            text("task_id")?
        ))),
        FamilyId::Droid => text("task_id").map(Belongs::Task),
        FamilyId::PairClaude => None,
    }
}

/// `attempted_fixes` → `Attempted fixes`, `toolName` → `Tool name` (ASCII letters change case;
/// others are kept as written).
#[must_use]
pub fn label(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        match c {
            '_' | '-' => out.push(' '),
            c if c.is_ascii_uppercase() && i > 0 => {
                out.push(' ');
                out.push(c.to_ascii_lowercase());
            }
            c if i == 0 => out.push(c.to_ascii_uppercase()),
            c => out.push(c),
        }
    }
    out
}

fn pointer_key(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Whether a string reads as a path or identifier rather than prose.
fn code_like(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 200
        && !text.contains(char::is_whitespace)
        && (text.contains('/') || text.contains('.') || text.starts_with("tmp/pair_"))
}

fn value_of(value: &Value, path: &str, issues: &[IssueView]) -> FieldValue {
    match value {
        Value::String(s) if code_like(s) => FieldValue::Code(s.clone()),
        Value::String(s) => FieldValue::Text(s.clone()),
        Value::Array(items) => FieldValue::List(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let path = format!("{path}/{i}");
                    Field {
                        label: format!("#{}", i + 1),
                        value: value_of(item, &path, issues),
                        issues: at(issues, &path),
                        path,
                    }
                })
                .collect(),
        ),
        Value::Object(_) => FieldValue::Group(fields(value, path, issues)),
        other => FieldValue::Literal(other.to_string()),
    }
}

fn at(issues: &[IssueView], path: &str) -> Vec<IssueView> {
    issues.iter().filter(|i| i.path == path).cloned().collect()
}

/// The members of an object at `path`, and the members its issues say are missing.
#[must_use]
pub fn fields(value: &Value, path: &str, issues: &[IssueView]) -> Vec<Field> {
    let Value::Object(members) = value else {
        return Vec::new();
    };
    let mut out: Vec<Field> = members
        .iter()
        .map(|(key, v)| {
            let path = format!("{path}/{}", pointer_key(key));
            Field {
                label: label(key),
                value: value_of(v, &path, issues),
                issues: at(issues, &path),
                path,
            }
        })
        .collect();
    for issue in issues {
        let Some(key) = issue.path.strip_prefix(&format!("{path}/")) else {
            continue;
        };
        let missing = !key.contains('/')
            && !out.iter().any(|f| f.path == issue.path)
            && issue.code == IssueCode::MissingField;
        if missing {
            out.push(Field {
                label: label(&key.replace("~1", "/").replace("~0", "~")),
                path: issue.path.clone(),
                value: FieldValue::Missing,
                issues: at(issues, &issue.path),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_sit_beside_their_fields_and_missing_members_are_shown() {
        let body = r#"{"phase":"BUILD_BLOCKED","change_order":{"status":"CHANGE_ORDER_REQUIRED","failure_mode":"dependency_missing","attempted_fixes":["a","b"],"requested_changes":"x"},"status":"AWAITING_MEDIATION"}"#;
        let message = MailRow {
            id: 9,
            subject: "CHANGE_ORDER".into(),
            from: "B".into(),
            body_md: body.into(),
            ..MailRow::default()
        };
        let seen = inspect(&message, None, true);
        assert_eq!(seen.verdict, Verdict::Invalid);
        assert_eq!(seen.message_type.as_deref(), Some("CHANGE_ORDER"));
        let body = seen.fields.iter().find(|f| f.label == "Body").unwrap();
        let FieldValue::Group(members) = &body.value else {
            panic!("body is a group")
        };
        let order = members.iter().find(|f| f.label == "Change order").unwrap();
        let FieldValue::Group(order) = &order.value else {
            panic!("change_order is a group")
        };
        let evidence = order.iter().find(|f| f.label == "Evidence").unwrap();
        assert_eq!(evidence.value, FieldValue::Missing);
        assert_eq!(evidence.issues[0].code, IssueCode::MissingField);
        let fixes = order.iter().find(|f| f.label == "Attempted fixes").unwrap();
        assert!(matches!(&fixes.value, FieldValue::List(items) if items.len() == 2));
        assert!(seen.raw.unwrap().contains("dependency_missing"));
        assert_eq!(label("toolName"), "Tool name");
    }

    #[test]
    fn plain_mail_has_no_fields_and_renders_safely() {
        let message = MailRow {
            id: 1,
            subject: "hi".into(),
            body_md: "<script>x()</script> **b**".into(),
            ..MailRow::default()
        };
        let seen = inspect(&message, None, true);
        assert_eq!(seen.verdict, Verdict::Plain);
        assert!(seen.fields.is_empty() && seen.raw.is_none());
        assert!(seen.html.contains("&lt;script&gt;"), "{}", seen.html);
    }
}
