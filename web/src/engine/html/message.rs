//! What a message carries, as the message and thread views show it: the validation badge
//! (family, version and type, each issue with its path), a note when secrets were masked,
//! the session (and the phase after it) or task it belongs to, its members as labelled
//! values with each issue beside its member, the raw JSON one click away, and the body as
//! the Markdown renderer wrote it. Also the labelled values alone (a checkpoint's opening
//! message).

use super::{markdown, panel};
use crate::model::{Belongs, Field, FieldValue, Html, Inspection, IssueView, TrafficKey, Verdict};
use crate::routes;
use maud::{html, Markup};
use switchboard_core::protocol::{FamilyId, Severity};

/// The inspection of a message of `key`'s project; `full` adds its members and raw JSON (the
/// thread view shows badge and body only).
#[must_use]
pub fn inspected(inspection: &Inspection, key: &TrafficKey, full: bool) -> Html {
    panel(html! {
        (badge(inspection))
        @if inspection.masked {
            p.muted.masked { "Secrets in this message are masked: \"Reveal secrets\" shows them." }
        }
        @if let Some(belongs) = &inspection.belongs { (belongs_to(belongs, key)) }
        @if full && !inspection.fields.is_empty() {
            section.carried aria-label="Carried message" { (fields(&inspection.fields)) }
        }
        @if let Some(raw) = inspection.raw.as_ref().filter(|_| full) {
            details.raw-json { summary { "Raw JSON" } pre.raw { (raw) } }
        }
        div.body { (markdown(&inspection.html)) }
    })
}

/// The validation badge.
fn badge(inspection: &Inspection) -> Markup {
    let family = inspection.family.map_or("unknown family", FamilyId::as_str);
    let kind = inspection.message_type.as_deref().unwrap_or("unknown type");
    let described = match &inspection.version {
        Some(version) => format!("{family} {version} · {kind}"),
        None => format!("{family} · {kind}"),
    };
    html! {
        @match inspection.verdict {
            Verdict::Plain => p.badge.plain { "Plain message (no protocol payload)" },
            Verdict::Valid => p.badge.valid { "Valid · " (described) },
            Verdict::Invalid => div.badge.invalid {
                p { "Invalid · " (described) }
                (issues(&inspection.issues))
            },
        }
    }
}

/// Where the message belongs: its session and the phase after it, or its task.
fn belongs_to(belongs: &Belongs, key: &TrafficKey) -> Markup {
    html! {
        @match belongs {
            Belongs::Session { id, phase } => p.belongs {
                "Session " a href=(routes::session(key.src, &key.project, id)) { (id) }
                @if let Some(p) = phase { " · phase after this message: " span.phase { (p.as_str()) } }
            },
            Belongs::Task(task) => p.belongs {
                "Task " a href=(routes::project_page(key.src, &key.project, "tasks")) { (task) }
            },
        }
    }
}

/// A list of issues: pointer, message, code.
fn issues(issues: &[IssueView]) -> Markup {
    html! {
        @if !issues.is_empty() {
            ul.issues {
                @for issue in issues {
                    li.warning-issue[issue.severity == Severity::Warning] {
                        code { @if issue.path.is_empty() { "(root)" } @else { (issue.path) } }
                        " " (issue.message) " " span.code { "(" (issue.code) ")" }
                    }
                }
            }
        }
    }
}

/// Labelled values, each issue beside the value it concerns.
#[must_use]
pub fn fields(fields: &[Field]) -> Markup {
    html! {
        dl.fields {
            @for f in fields {
                dt { (f.label) }
                dd.has-issues[!f.issues.is_empty()] data-path=(f.path) {
                    (value(&f.value)) (issues(&f.issues))
                }
            }
        }
    }
}

fn value(v: &FieldValue) -> Markup {
    html! {
        @match v {
            FieldValue::Text(text) => span.text { (text) },
            FieldValue::Code(code) => code { (code) },
            FieldValue::Literal(text) => span.literal { (text) },
            FieldValue::Missing => em.missing { "(missing)" },
            FieldValue::List(items) if items.is_empty() => em.empty { "(none)" },
            FieldValue::List(items) => ol.field-list {
                @for f in items { li data-path=(f.path) { (value(&f.value)) (issues(&f.issues)) } }
            },
            FieldValue::Group(group) => (fields(group)),
        }
    }
}
