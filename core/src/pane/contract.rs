//! The canonical contract and its validation (reference rules and error texts).

use super::model::{Contract, PaneError};

/// The only supported contract version.
pub const CONTRACT_VERSION: &str = "doctor-agent-mail-pane-v1";

const MESSAGE_FIELDS: [&str; 6] = [
    "ack_required",
    "created_ts",
    "from",
    "id",
    "importance",
    "subject",
];
const CONTACT_FIELDS: [&str; 4] = ["reason", "status", "to", "updated_ts"];
const FILTER_MODES: [&str; 4] = ["ack_required", "all", "thread_only", "unacked_only"];
const EVENT_TAXONOMY: [&str; 8] = [
    "ack_transition",
    "command_invoked",
    "contact_attention_required",
    "delivery_failure",
    "parse_failure",
    "snapshot_built",
    "thread_continuity_gap",
    "thread_view_updated",
];

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|value| (*value).to_string()).collect()
}

/// Returns the canonical `doctor-agent-mail-pane-v1` contract.
#[must_use]
pub fn contract() -> Contract {
    Contract {
        contract_version: CONTRACT_VERSION.to_string(),
        fetch_inbox_command:
            "mcp_agent_mail.fetch_inbox(project_key, agent_name, include_bodies=true, limit=50)"
                .to_string(),
        fetch_outbox_command:
            "mcp_agent_mail.search_messages(project_key, query=\"from:<agent_name>\", limit=50)"
                .to_string(),
        list_contacts_command: "mcp_agent_mail.list_contacts(project_key, agent_name)".to_string(),
        acknowledge_command:
            "mcp_agent_mail.acknowledge_message(project_key, agent_name, message_id)".to_string(),
        reply_command:
            "mcp_agent_mail.reply_message(project_key, message_id, sender_name, body_md)"
                .to_string(),
        required_message_fields: strings(&MESSAGE_FIELDS),
        required_contact_fields: strings(&CONTACT_FIELDS),
        thread_filter_modes: strings(&FILTER_MODES),
        event_taxonomy: strings(&EVENT_TAXONOMY),
    }
}

fn lexical_set(values: &[String], context: &str) -> Result<(), String> {
    if values.is_empty() {
        return Err(format!("{context} must be non-empty"));
    }
    if values.iter().any(|value| value.trim().is_empty()) {
        return Err(format!("{context} must not contain empty values"));
    }
    let mut deduped = values.to_vec();
    deduped.sort();
    deduped.dedup();
    if deduped.len() != values.len() {
        return Err(format!("{context} must be unique"));
    }
    if deduped != values {
        return Err(format!("{context} must be lexically sorted"));
    }
    Ok(())
}

fn require_members(values: &[String], required: &[&str], context: &str) -> Result<(), String> {
    match required
        .iter()
        .find(|member| !values.iter().any(|value| value == *member))
    {
        Some(missing) => Err(format!("{context} missing {missing}")),
        None => Ok(()),
    }
}

fn check(contract: &Contract) -> Result<(), String> {
    if contract.contract_version != CONTRACT_VERSION {
        return Err(format!(
            "unexpected contract_version {}",
            contract.contract_version
        ));
    }
    for (key, value) in [
        ("fetch_inbox_command", &contract.fetch_inbox_command),
        ("fetch_outbox_command", &contract.fetch_outbox_command),
        ("list_contacts_command", &contract.list_contacts_command),
        ("acknowledge_command", &contract.acknowledge_command),
        ("reply_command", &contract.reply_command),
    ] {
        if value.trim().is_empty() {
            return Err(format!("{key} must be non-empty"));
        }
    }
    for (values, required, context) in [
        (
            &contract.required_message_fields,
            &MESSAGE_FIELDS[..],
            "required_message_fields",
        ),
        (
            &contract.required_contact_fields,
            &CONTACT_FIELDS[..],
            "required_contact_fields",
        ),
        (
            &contract.thread_filter_modes,
            &FILTER_MODES[..],
            "thread_filter_modes",
        ),
        (
            &contract.event_taxonomy,
            &EVENT_TAXONOMY[..],
            "event_taxonomy",
        ),
    ] {
        lexical_set(values, context)?;
        require_members(values, required, context)?;
    }
    Ok(())
}

/// Validates a contract with the reference's rules, in the reference's order:
/// version, the five non-blank commands, then for each list (message fields,
/// contact fields, filter modes, event taxonomy): non-empty, no blank entries,
/// unique, lexically sorted, and containing the required members (extras allowed).
///
/// # Errors
/// [`PaneError::Contract`] with the reference's text, e.g. `event_taxonomy must be unique`.
pub fn validate_contract(contract: &Contract) -> Result<(), PaneError> {
    check(contract).map_err(PaneError::Contract)
}
