//! Talking JSON-RPC to the server: tool calls (through `call_extended_tool` on the fork),
//! resource reads, agent tokens as tool arguments or in resource URIs, and errors mapped to
//! what a reviewer can act on.

use super::http::{self, HttpFailure};
use super::McpBackend;
use crate::api::BackendError;
use crate::percent::encode;
use serde_json::{json, Map, Value};
use switchboard_core::agent_mail::replies::{self, AdapterError};

/// Maps a reply adapter error to a backend error (token requirements are named).
#[must_use]
pub fn adapter_error(err: AdapterError) -> BackendError {
    match err {
        AdapterError::Tool(text) | AdapterError::Rpc { message: text, .. } => {
            match token_agent(&text) {
                Some(agent) => BackendError::TokenRequired { agent },
                None => BackendError::Server(text),
            }
        }
        AdapterError::NotJson(text) | AdapterError::Shape(text) => BackendError::BadReply(text),
    }
}

/// The agent named by a "requires registration_token for agent 'X'" error text.
fn token_agent(text: &str) -> Option<String> {
    if !(text.contains("registration_token") || text.contains("sender_token")) {
        return None;
    }
    let start = text.find("agent '")? + "agent '".len();
    let len = text[start..].find('\'')?;
    Some(text[start..start + len].to_string())
}

impl McpBackend {
    pub(super) async fn rpc(&self, method: &str, params: Value) -> Result<String, BackendError> {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        http::post(
            &self.endpoint,
            self.config.bearer.as_deref(),
            &body.to_string(),
        )
        .await
        .map_err(|failure| match failure {
            HttpFailure::Network => BackendError::Unreachable {
                url: self.root.clone(),
            },
            HttpFailure::Status(401 | 403) => BackendError::Unauthorized {
                token_sent: self.config.bearer.is_some(),
            },
            HttpFailure::Status(code) => {
                BackendError::Server(format!("HTTP {code} from {}", self.endpoint))
            }
        })
    }

    /// Calls a tool (through `call_extended_tool` on the fork when it is not a core tool);
    /// returns the raw reply text.
    pub(super) async fn tool(&self, name: &str, arguments: Value) -> Result<String, BackendError> {
        if self.tools.contains(name) {
            self.rpc("tools/call", json!({"name": name, "arguments": arguments}))
                .await
        } else if self.tools.contains("call_extended_tool") {
            self.rpc(
                "tools/call",
                json!({"name": "call_extended_tool",
                       "arguments": {"tool_name": name, "arguments": arguments}}),
            )
            .await
        } else {
            Err(BackendError::Unsupported(format!("the {name} tool")))
        }
    }

    pub(super) async fn tool_value(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, BackendError> {
        let reply = self.tool(name, arguments).await?;
        replies::reply_payload(&reply).map_err(adapter_error)
    }

    pub(super) async fn resource(&self, uri: &str) -> Result<String, BackendError> {
        self.rpc("resources/read", json!({ "uri": uri })).await
    }

    pub(super) fn token(&self, agent: &str) -> Option<&String> {
        self.config.agent_tokens.get(agent)
    }

    /// Tool arguments for `agent`, with its registration token where the server wants one.
    pub(super) fn agent_args(&self, project: &str, agent: &str, extra: Value) -> Value {
        let mut args = Map::new();
        args.insert("project_key".into(), json!(project));
        args.insert("agent_name".into(), json!(agent));
        if self.capabilities.agent_tokens {
            if let Some(token) = self.token(agent) {
                args.insert("registration_token".into(), json!(token));
            }
        }
        if let Value::Object(extra) = extra {
            args.extend(extra);
        }
        Value::Object(args)
    }

    /// A resource URI query for `agent` (never its token: see [`McpBackend::agent_resource`]).
    pub(super) fn agent_query(&self, project: &str, agent: &str) -> String {
        let mut query = format!("project={}", encode(project));
        if self.capabilities.agent_tokens {
            query.push_str(&format!("&agent={}", encode(agent)));
        }
        query
    }

    /// `agent`'s token, on a server that takes agent tokens.
    pub(super) fn agent_token(&self, agent: &str) -> Option<&String> {
        self.token(agent).filter(|_| self.capabilities.agent_tokens)
    }

    /// Reads a resource as `agent`. Tools take the token as an argument
    /// (`registration_token`, `sender_token`), but `resources/read` has no argument besides
    /// the URI, and servers with agent tokens (upstream ≥ 0.3, the Rust port) take it there
    /// only, as `agent_token` (their templates: `{?project,agent,agent_token}`). So only the
    /// reads no tool can replace come here (outbox, ack-required view, a message outside
    /// the inbox), and the token is cut out of the error text servers echo the URI in.
    pub(super) async fn agent_resource(
        &self,
        uri: &str,
        agent: &str,
    ) -> Result<String, BackendError> {
        let Some(token) = self.agent_token(agent) else {
            return self.resource(uri).await;
        };
        let separator = if uri.contains('?') { '&' } else { '?' };
        let uri = format!("{uri}{separator}agent_token={}", encode(token));
        let reply = self.resource(&uri).await?;
        Ok(without_token(reply, token))
    }
}

/// A resource reply with `token` (raw and percent-encoded) replaced by `<agent token>` in
/// its JSON-RPC error, whose message servers build from the URI. Other replies are data and
/// are returned as they are.
fn without_token(reply: String, token: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(&reply) else {
        return reply;
    };
    let Some(Value::String(message)) = value.pointer_mut("/error/message") else {
        return reply;
    };
    for secret in [token.to_string(), encode(token)] {
        if !secret.is_empty() {
            *message = message.replace(&secret, "<agent token>");
        }
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_errors_name_the_agent() {
        let text = "fetch_inbox requires registration_token for agent 'GreenCastle', unless this \
                    MCP session has already authenticated as that agent.";
        assert_eq!(
            adapter_error(AdapterError::Tool(text.into())),
            BackendError::TokenRequired {
                agent: "GreenCastle".into()
            }
        );
        assert_eq!(
            adapter_error(AdapterError::Tool("boom".into())),
            BackendError::Server("boom".into())
        );
    }

    #[test]
    fn tokens_are_cut_out_of_resource_errors_only() {
        let error = json!({"error": {"message": "uri 'x?agent_token=a%2Fb' and a/b"}});
        assert_eq!(
            without_token(error.to_string(), "a/b"),
            json!({"error": {"message": "uri 'x?agent_token=<agent token>' and <agent token>"}})
                .to_string()
        );
        let data = json!({"result": {"contents": [{"text": "a/b"}]}}).to_string();
        assert_eq!(without_token(data.clone(), "a/b"), data);
        assert_eq!(without_token("not json a/b".into(), "a/b"), "not json a/b");
    }
}
