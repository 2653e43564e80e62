//! Operator endpoints (`GET /mail/api/unified-inbox`, where the server offers them): every
//! project's and agent's recent mail, without agent tokens.

use crate::api::{BackendError, MailRow, UnifiedRow};
use serde_json::Value;

/// Keeps the unified-inbox messages of one project (by slug or name).
///
/// # Errors
/// A body that is not `{messages: [...]}`.
pub fn unified_for_project(body: &str, project: &str) -> Result<String, BackendError> {
    let mut value: Value =
        serde_json::from_str(body).map_err(|err| BackendError::BadReply(err.to_string()))?;
    let Some(Value::Array(messages)) = value.get_mut("messages") else {
        return Err(BackendError::BadReply(
            "unified inbox without messages".into(),
        ));
    };
    messages.retain(|m| {
        m.get("project_slug").and_then(Value::as_str) == Some(project)
            || m.get("project_name").and_then(Value::as_str) == Some(project)
    });
    Ok(value.to_string())
}

/// The rows of a unified-inbox body.
///
/// # Errors
/// A body that is not `{messages: [...]}`.
pub fn unified_rows(body: &str) -> Result<Vec<UnifiedRow>, BackendError> {
    let value: Value =
        serde_json::from_str(body).map_err(|err| BackendError::BadReply(err.to_string()))?;
    let messages = value
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| BackendError::BadReply("unified inbox without messages".into()))?;
    Ok(messages
        .iter()
        .filter_map(|m| {
            let row = MailRow::from_value(m).ok()?;
            Some(UnifiedRow {
                id: row.id,
                project: m
                    .get("project_slug")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                subject: row.subject,
                from: row.from,
                recipients: row.to,
                created_ts: row.created_ts,
                importance: row.importance,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use switchboard_core::agent_mail::replies;

    #[test]
    fn the_unified_inbox_is_split_by_project_and_recipient() {
        let body = json!({"messages": [
            {"id": 1, "subject": "a", "sender_name": "BlueLake", "recipients": "GreenCastle, RedStone",
             "project_slug": "p1", "created_ts": "2026-11-21 04:46:40.193112", "importance": "high",
             "thread_id": null},
            {"id": 2, "subject": "b", "sender": "RedStone", "recipients": "BlueLake",
             "project_slug": "p2", "created_ts": "2026-11-21 04:47:00.000000", "importance": "normal"}
        ]})
        .to_string();
        let rows = unified_rows(&body).unwrap();
        assert_eq!(rows[0].recipients, ["GreenCastle", "RedStone"]);
        assert_eq!(rows[0].created_ts, "2026-11-21T04:46:40.193112+00:00");
        assert_eq!(rows[1].from, "RedStone");
        let p1 = unified_for_project(&body, "p1").unwrap();
        let inbox = replies::unified_inbox_rows(&p1, Some("RedStone")).unwrap();
        assert!(inbox.contains("\"id\":1"));
        assert!(!inbox.contains("\"id\":2"));
    }
}
