//! A message's values as labelled fields (lists as lists, paths and ids as code), each
//! validation issue beside the field it concerns. Every value is text in the DOM.

use crate::model::{Field, FieldValue, IssueView};
use leptos::prelude::*;
use switchboard_core::protocol::Severity;

/// A list of issues: pointer, message, code.
#[component]
pub fn Issues(
    /// The issues.
    issues: Vec<IssueView>,
) -> impl IntoView {
    (!issues.is_empty()).then(|| {
        view! {
            <ul class="issues">
                {issues.into_iter().map(|issue| {
                    let path = if issue.path.is_empty() { "(root)".to_string() } else { issue.path };
                    view! {
                        <li class:warning-issue=issue.severity == Severity::Warning>
                            <code>{path}</code> " " {issue.message} " "
                            <span class="code">{format!("({})", issue.code)}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    })
}

/// Labelled fields.
#[component]
pub fn Fields(
    /// The fields.
    fields: Vec<Field>,
) -> impl IntoView {
    list(fields)
}

fn list(fields: Vec<Field>) -> AnyView {
    view! {
        <dl class="fields">
            {fields.into_iter().map(|f| {
                let flagged = !f.issues.is_empty();
                view! {
                    <dt>{f.label}</dt>
                    <dd data-path=f.path class:has-issues=flagged>
                        {value(f.value)}
                        <Issues issues=f.issues />
                    </dd>
                }
            }).collect_view()}
        </dl>
    }
    .into_any()
}

fn value(v: FieldValue) -> AnyView {
    match v {
        FieldValue::Text(text) => view! { <span class="text">{text}</span> }.into_any(),
        FieldValue::Code(code) => view! { <code>{code}</code> }.into_any(),
        FieldValue::Literal(text) => view! { <span class="literal">{text}</span> }.into_any(),
        FieldValue::Missing => view! { <em class="missing">"(missing)"</em> }.into_any(),
        FieldValue::List(items) if items.is_empty() => {
            view! { <em class="empty">"(none)"</em> }.into_any()
        }
        FieldValue::List(items) => view! {
            <ol class="field-list">
                {items.into_iter().map(|f| view! {
                    <li data-path=f.path>{value(f.value)}<Issues issues=f.issues /></li>
                }).collect_view()}
            </ol>
        }
        .into_any(),
        FieldValue::Group(fields) => list(fields),
    }
}
