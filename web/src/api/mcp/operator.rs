//! Operator endpoints (`GET /mail/api/unified-inbox`, where the server offers them): every
//! project's and agent's recent mail, without agent tokens, decoded once into typed rows.

use crate::api::{BackendError, MailRow, UnifiedRow};
use serde_json::Value;

/// One message of a unified inbox and the project it belongs to.
struct UnifiedMessage {
    slug: String,
    name: String,
    row: MailRow,
}

/// The messages of a unified-inbox body (rows that are no message are left out).
fn unified_messages(body: &str) -> Result<Vec<UnifiedMessage>, BackendError> {
    let value: Value =
        serde_json::from_str(body).map_err(|err| BackendError::BadReply(err.to_string()))?;
    let messages = value
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| BackendError::BadReply("unified inbox without messages".into()))?;
    let text = |m: &Value, key: &str| {
        m.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    Ok(messages
        .iter()
        .filter_map(|m| {
            Some(UnifiedMessage {
                slug: text(m, "project_slug"),
                name: text(m, "project_name"),
                row: MailRow::from_value(m).ok()?,
            })
        })
        .collect())
}

/// The rows of a unified-inbox body.
///
/// # Errors
/// A body that is not `{messages: [...]}`.
pub fn unified_rows(body: &str) -> Result<Vec<UnifiedRow>, BackendError> {
    Ok(unified_messages(body)?
        .into_iter()
        .map(|m| UnifiedRow {
            id: m.row.id,
            project: m.slug,
            subject: m.row.subject,
            from: m.row.from,
            recipients: m.row.to,
            created_ts: m.row.created_ts,
            importance: m.row.importance,
        })
        .collect())
}

/// The messages of one project (by slug or name) in a unified-inbox body.
///
/// # Errors
/// A body that is not `{messages: [...]}`.
pub fn unified_mail(body: &str, project: &str) -> Result<Vec<MailRow>, BackendError> {
    Ok(unified_messages(body)?
        .into_iter()
        .filter(|m| m.slug == project || m.name == project)
        .map(|m| m.row)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        let p1 = unified_mail(&body, "p1").unwrap();
        assert_eq!(p1.len(), 1);
        assert_eq!((p1[0].id, p1[0].ack_required), (1, false));
        assert_eq!(p1[0].to, ["GreenCastle", "RedStone"]);
    }
}
