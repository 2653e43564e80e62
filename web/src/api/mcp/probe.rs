//! The capability probe: finding the MCP path, recognizing the server variant from its tool
//! list, and checking for operator endpoints.

use super::config::ConnectConfig;
use super::http::{self, HttpFailure};
use super::McpBackend;
use crate::api::{BackendError, Capabilities, Variant};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;

/// Recognizes the server variant from a `tools/list` result.
#[must_use]
pub fn detect_variant(tools: &[Value]) -> (Variant, BTreeSet<String>) {
    let names: BTreeSet<String> = tools
        .iter()
        .filter_map(|tool| tool.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    let fetch_takes_token = tools.iter().any(|tool| {
        tool.get("name").and_then(Value::as_str) == Some("fetch_inbox")
            && tool
                .pointer("/inputSchema/properties/registration_token")
                .is_some()
    });
    let variant = if names.contains("call_extended_tool") {
        Variant::Fork
    } else if fetch_takes_token {
        if names.contains("fetch_inbox_events") || names.contains("resolve_pane_identity") {
            Variant::RustPort
        } else {
            Variant::UpstreamTokens
        }
    } else {
        Variant::UpstreamLegacy
    };
    (variant, names)
}

impl McpBackend {
    /// Probes the server: finds the MCP path, lists tools (and resource templates where
    /// offered), recognizes the variant and checks for operator endpoints.
    ///
    /// # Errors
    /// A diagnosed [`BackendError`]: unreachable, CORS, 401, wrong path, bad reply.
    pub async fn connect(config: ConnectConfig) -> Result<Self, BackendError> {
        let (root, candidates) = config.endpoints()?;
        let mut tried = Vec::new();
        for endpoint in candidates {
            let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
            match http::post(&endpoint, config.bearer.as_deref(), &body.to_string()).await {
                Ok(text) => {
                    let reply: Value = match serde_json::from_str(&text) {
                        Ok(value) => value,
                        Err(_) => {
                            tried.push(endpoint);
                            continue;
                        }
                    };
                    let Some(tools) = reply.pointer("/result/tools").and_then(Value::as_array)
                    else {
                        tried.push(endpoint);
                        continue;
                    };
                    let (variant, names) = detect_variant(tools);
                    let list =
                        json!({"jsonrpc": "2.0", "id": 2, "method": "resources/templates/list"});
                    let resource_templates =
                        http::post(&endpoint, config.bearer.as_deref(), &list.to_string())
                            .await
                            .ok()
                            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
                            .and_then(|reply| {
                                reply
                                    .pointer("/result/resourceTemplates")
                                    .and_then(Value::as_array)
                                    .map(Vec::len)
                            })
                            .unwrap_or(0);
                    let operator = http::get(
                        &format!("{root}/mail/api/unified-inbox?limit=1"),
                        config.bearer.as_deref(),
                    )
                    .await
                    .ok()
                    .and_then(|text| serde_json::from_str::<Value>(&text).ok())
                    .is_some_and(|value| value.get("messages").is_some());
                    let capabilities = Capabilities {
                        variant,
                        endpoint: endpoint.clone(),
                        tool_count: names.len(),
                        resource_templates,
                        agent_tokens: matches!(
                            variant,
                            Variant::UpstreamTokens | Variant::RustPort
                        ),
                        operator,
                        overseer_send: operator,
                    };
                    return Ok(Self {
                        config,
                        root,
                        endpoint,
                        tools: names,
                        capabilities,
                        next_id: Cell::new(3),
                        local_acks: RefCell::new(BTreeSet::new()),
                    });
                }
                Err(HttpFailure::Status(401 | 403)) => {
                    return Err(BackendError::Unauthorized {
                        token_sent: config.bearer.is_some(),
                    })
                }
                Err(HttpFailure::Status(_)) => tried.push(endpoint),
                Err(HttpFailure::Network) => {
                    return Err(if http::reachable(&root).await {
                        BackendError::Cors {
                            url: root,
                            origin: http::origin(),
                        }
                    } else {
                        BackendError::Unreachable { url: root }
                    });
                }
            }
        }
        Err(BackendError::WrongPath { tried })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_recognized_from_tools_list() {
        let legacy =
            [json!({"name": "fetch_inbox", "inputSchema": {"properties": {"agent_name": {}}}})];
        assert_eq!(detect_variant(&legacy).0, Variant::UpstreamLegacy);
        let tokens = [json!({"name": "fetch_inbox",
            "inputSchema": {"properties": {"registration_token": {}}}})];
        assert_eq!(detect_variant(&tokens).0, Variant::UpstreamTokens);
        let fork = [json!({"name": "call_extended_tool"})];
        assert_eq!(detect_variant(&fork).0, Variant::Fork);
    }
}
