//! Secrets in what the console shows (seed 004, Security 4): every text that comes from mail
//! has each secret the core's detectors find replaced by its mask (`AKIA…(20 chars)`), unless
//! the reviewer chose to reveal them. A member's value is judged with its name too
//! (`"password": "hunter22"`), an array item with its array's.

use crate::model::{
    AgentConformance, AuditCard, AuditIssueView, Boards, ChangeOrderView, CheckpointCard,
    CheckpointHistory, DroidColumn, DroidTaskView, ErrorView, Field, FieldValue, GateView,
    PoTaskView, Queued, RequestView, RuleRow, SessionDetail, SessionRow, TimelineItem,
    ViolationView,
};
use serde_json::Value;
use std::borrow::Cow;
use switchboard_core::protocol::secrets::{redact, redact_member};

/// A view model whose mail texts can be masked in place.
pub trait Redact {
    /// Masks every secret in the texts it holds.
    fn redact(&mut self);
}

/// `answer` as the reviewer asked to see it: masked unless `reveal`.
pub fn shown<T: Redact>(mut answer: T, reveal: bool) -> T {
    if !reveal {
        answer.redact();
    }
    answer
}

/// Each text's masked form where it holds a secret (`None`: it holds none).
#[must_use]
pub fn masked(texts: &[String]) -> Vec<Option<String>> {
    texts
        .iter()
        .map(|text| match redact(text) {
            Cow::Owned(masked) => Some(masked),
            Cow::Borrowed(_) => None,
        })
        .collect()
}

/// Replaces `text` by its masked form when it holds a secret (`name`: the member it is the
/// value of); whether it did.
fn mask(text: &mut String, name: Option<&str>) -> bool {
    let masked = match name {
        Some(name) => redact_member(name, text),
        None => redact(text),
    };
    match masked {
        Cow::Owned(masked) => {
            *text = masked;
            true
        }
        Cow::Borrowed(_) => false,
    }
}

impl Redact for String {
    fn redact(&mut self) {
        mask(self, None);
    }
}

impl<T: Redact> Redact for Option<T> {
    fn redact(&mut self) {
        if let Some(inner) = self {
            inner.redact();
        }
    }
}

impl<T: Redact> Redact for Vec<T> {
    fn redact(&mut self) {
        self.iter_mut().for_each(Redact::redact);
    }
}

impl<A: Redact, B: Redact> Redact for (A, B) {
    fn redact(&mut self) {
        self.0.redact();
        self.1.redact();
    }
}

impl<A: Redact, B: Redact, C: Redact> Redact for (A, B, C) {
    fn redact(&mut self) {
        self.0.redact();
        self.1.redact();
        self.2.redact();
    }
}

impl Redact for u64 {
    fn redact(&mut self) {}
}

/// Masks the named fields of a view model.
macro_rules! redact_fields {
    ($($model:ty { $($field:ident),* $(,)? })*) => {$(
        impl Redact for $model {
            fn redact(&mut self) {
                $(self.$field.redact();)*
            }
        }
    )*};
}

redact_fields! {
    SessionRow { task }
    TimelineItem {}
    CheckpointHistory { text }
    ChangeOrderView { failure_mode, evidence, attempted_fixes, requested_changes, reasoning, strategy }
    SessionDetail { row, timeline, checkpoints, change_orders, audits, violations }
    CheckpointCard { session }
    Queued { session }
    AuditIssueView { description, location, code, pattern }
    AuditCard { issues, notes }
    GateView { problems }
    PoTaskView { gates, blocked, progress, violations }
    ViolationView { message, file }
    DroidTaskView { description, summary, blockers }
    DroidColumn { tasks }
    ErrorView { code, message }
    RequestView { subject, comment }
    Boards { agent_po, droid, errors, permissions, reviews, senders }
    RuleRow { details }
    AgentConformance { agent, rules }
}

impl Redact for Field {
    fn redact(&mut self) {
        let name = member_name(&self.path);
        redact_field_value(&mut self.value, name.as_deref());
    }
}

/// The member a JSON Pointer ends at (`None` at the root or an array index).
fn member_name(pointer: &str) -> Option<String> {
    let last = pointer.rsplit('/').next()?;
    (!last.is_empty() && !last.bytes().all(|b| b.is_ascii_digit()))
        .then(|| last.replace("~1", "/").replace("~0", "~"))
}

/// Masks a field's value, judged as the value of member `name`.
fn redact_field_value(value: &mut FieldValue, name: Option<&str>) {
    match value {
        FieldValue::Text(text) | FieldValue::Code(text) | FieldValue::Literal(text) => {
            mask(text, name);
        }
        // An array's items are judged with the array's name.
        FieldValue::List(items) => items
            .iter_mut()
            .for_each(|item| redact_field_value(&mut item.value, name)),
        FieldValue::Group(fields) => fields.redact(),
        FieldValue::Missing => {}
    }
}

/// Masks every string in a JSON value: a member's value with its name, an array's items with
/// the array's; whether any held a secret.
pub fn redact_value(value: &mut Value, name: Option<&str>) -> bool {
    match value {
        Value::String(text) => mask(text, name),
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |any, v| redact_value(v, name) | any),
        Value::Object(members) => members
            .iter_mut()
            .fold(false, |any, (key, v)| redact_value(v, Some(key)) | any),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_masked_by_text_and_by_member_name_and_kept_when_revealed() {
        let mut value = json!({"error": {"context": "boto3 failed with AKIAIOSFODNN7EXAMPLE",
            "db_password": "hunter22", "note": "rotate the password"}, "keys": ["AKIAIOSFODNN7EXAMPLE"]});
        assert!(redact_value(&mut value, None));
        let text = value.to_string();
        assert!(!text.contains("AKIAIOSFODNN7EXAMPLE"), "{text}");
        assert!(!text.contains("hunter22"), "{text}");
        assert!(text.contains("AKIA…(20 chars)") && text.contains("rotate the password"));
        let evidence = "ModuleNotFoundError; token ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let order = || ChangeOrderView {
            id: None,
            requested_at_ms: None,
            failure_mode: "dependency_missing".into(),
            evidence: evidence.into(),
            attempted_fixes: vec![],
            requested_changes: "x".into(),
            outcome: switchboard_core::session::pair::Outcome::Pending,
            decided_at_ms: None,
            reasoning: None,
            strategy: None,
            revision: None,
        };
        assert!(!shown(order(), false).evidence.contains("ghp_0123"));
        assert_eq!(shown(order(), true).evidence, evidence);
    }

    /// A violation quotes what broke the rule, which can be the secret itself.
    #[test]
    fn violation_texts_are_masked_unless_revealed() {
        let quoted = "error.context holds AKIAIOSFODNN7EXAMPLE";
        let violation = || ViolationView {
            code: switchboard_core::session::violation::ViolationCode::InvalidMessage,
            message: quoted.into(),
            id: Some(7),
            file: None,
        };
        let masked = shown(vec![violation()], false);
        assert!(
            !masked[0].message.contains("AKIAIOSFODNN7EXAMPLE"),
            "{masked:?}"
        );
        assert!(masked[0].message.contains("AKIA…(20 chars)"));
        assert_eq!(shown(vec![violation()], true)[0].message, quoted);
    }
}
