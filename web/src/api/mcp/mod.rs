//! The real backend: a stateless JSON-RPC-over-HTTP client for any MCP Agent Mail server
//! (Python upstream ≤ 0.2 and ≥ 0.3, the Rust port, the `mcp-mail` fork).
//!
//! Replies are unwrapped with the core's pane adapters (`structuredContent`,
//! `content[0].text`, the fork's extra `{"result": …}`; `isError` becomes a tool error).
//! Every request carries an `AbortSignal` whose controller is aborted when the reactive
//! owner that started it is cleaned up (navigating away cancels in-flight fetches).
//! Tokens live only in this struct (and in sessionStorage when the user asks): never in
//! URLs or logs.

use super::{
    Agent, Backend, BackendError, BackendFuture, Capabilities, Draft, Message, Project,
    Reservation, SearchHit, UnifiedRow, Variant,
};
use serde_json::{json, Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use switchboard_core::pane::adapters::{self, AdapterError};

/// What the user typed on the connect screen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConnectConfig {
    /// Server URL (root, or the MCP endpoint itself).
    pub server: String,
    /// Server-wide bearer token (`HTTP_BEARER_TOKEN`), if any.
    pub bearer: Option<String>,
    /// Per-agent registration tokens, by agent name.
    pub agent_tokens: BTreeMap<String, String>,
    /// Project to open first, if any.
    pub project: Option<String>,
}

impl ConnectConfig {
    /// Parses `Agent=token` lines (blank lines and `#` comments ignored).
    ///
    /// # Errors
    /// The first line that is not `name=token`.
    pub fn parse_agent_tokens(text: &str) -> Result<BTreeMap<String, String>, String> {
        let mut out = BTreeMap::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.split_once('=') {
                Some((name, token)) if !name.trim().is_empty() && !token.trim().is_empty() => {
                    out.insert(name.trim().to_string(), token.trim().to_string());
                }
                _ => {
                    return Err(format!(
                        "Agent tokens, line {}: write one \"AgentName=token\" per line.",
                        index + 1
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The server root (scheme, host, port; no MCP path) and the endpoints to try.
    ///
    /// # Errors
    /// A URL that is not `http://` or `https://`.
    pub fn endpoints(&self) -> Result<(String, Vec<String>), BackendError> {
        let url = self.server.trim().trim_end_matches('/');
        if !(url.starts_with("http://") || url.starts_with("https://")) || url.contains(' ') {
            return Err(BackendError::Invalid(
                "The server URL must start with http:// or https://, e.g. http://127.0.0.1:8765."
                    .into(),
            ));
        }
        for suffix in ["/mcp", "/api"] {
            if let Some(root) = url.strip_suffix(suffix) {
                return Ok((root.to_string(), vec![format!("{url}/")]));
            }
        }
        Ok((
            url.to_string(),
            vec![format!("{url}/mcp/"), format!("{url}/api/")],
        ))
    }
}

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

fn str_field(value: &Value, key: &str) -> String {
    match value.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn flag(value: &Value, key: &str) -> bool {
    match value.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_u64() == Some(1),
        _ => false,
    }
}

/// A message object (resource or tool row) as a [`Message`].
///
/// # Errors
/// A row without a numeric id.
pub fn message_from_value(value: &Value) -> Result<Message, BackendError> {
    let id = value
        .get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| BackendError::BadReply("a message without a numeric id".into()))?;
    let mut to = Vec::new();
    for key in ["to", "cc"] {
        if let Some(Value::Array(names)) = value.get(key) {
            to.extend(names.iter().filter_map(Value::as_str).map(str::to_string));
        }
    }
    let thread_id = match value.get("thread_id") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let from = match str_field(value, "from") {
        from if from.is_empty() => str_field(value, "sender_name"),
        from => from,
    };
    Ok(Message {
        id,
        subject: str_field(value, "subject"),
        from,
        to,
        created_ts: match str_field(value, "created_ts") {
            ts if ts.is_empty() => str_field(value, "created"),
            ts => ts,
        },
        importance: str_field(value, "importance"),
        ack_required: flag(value, "ack_required"),
        thread_id,
        body_md: str_field(value, "body_md"),
    })
}

/// One HTTP failure, before diagnosis.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
enum HttpFailure {
    /// `fetch` rejected: unreachable, or blocked by CORS.
    Network,
    /// A non-2xx status.
    Status(u16),
}

/// The real backend (see the module docs).
pub struct McpBackend {
    config: ConnectConfig,
    root: String,
    endpoint: String,
    tools: BTreeSet<String>,
    capabilities: Capabilities,
    next_id: Cell<u64>,
    /// Acknowledgements made in this session (for servers without ack views).
    local_acks: RefCell<BTreeSet<(String, String, u64)>>,
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

    /// The connection settings (for "remember me").
    #[must_use]
    pub fn config(&self) -> &ConnectConfig {
        &self.config
    }

    async fn rpc(&self, method: &str, params: Value) -> Result<String, BackendError> {
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
    async fn tool(&self, name: &str, arguments: Value) -> Result<String, BackendError> {
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

    async fn tool_value(&self, name: &str, arguments: Value) -> Result<Value, BackendError> {
        let reply = self.tool(name, arguments).await?;
        adapters::reply_payload(&reply).map_err(adapter_error)
    }

    async fn resource(&self, uri: &str) -> Result<String, BackendError> {
        self.rpc("resources/read", json!({ "uri": uri })).await
    }

    fn token(&self, agent: &str) -> Option<&String> {
        self.config.agent_tokens.get(agent)
    }

    /// Tool arguments for `agent`, with its registration token where the server wants one.
    fn agent_args(&self, project: &str, agent: &str, extra: Value) -> Value {
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
    fn agent_query(&self, project: &str, agent: &str) -> String {
        let mut query = format!("project={}", encode(project));
        if self.capabilities.agent_tokens {
            query.push_str(&format!("&agent={}", encode(agent)));
        }
        query
    }

    /// `agent`'s token, on a server that takes agent tokens.
    fn agent_token(&self, agent: &str) -> Option<&String> {
        self.token(agent).filter(|_| self.capabilities.agent_tokens)
    }

    /// Reads a resource as `agent`. Tools take the token as an argument
    /// (`registration_token`, `sender_token`), but `resources/read` has no argument besides
    /// the URI, and servers with agent tokens (upstream ≥ 0.3, the Rust port) take it there
    /// only, as `agent_token` (their templates: `{?project,agent,agent_token}`). So only the
    /// reads no tool can replace come here (outbox, ack-required view, a message outside
    /// the inbox), and the token is cut out of the error text servers echo the URI in.
    async fn agent_resource(&self, uri: &str, agent: &str) -> Result<String, BackendError> {
        let Some(token) = self.agent_token(agent) else {
            return self.resource(uri).await;
        };
        let separator = if uri.contains('?') { '&' } else { '?' };
        let uri = format!("{uri}{separator}agent_token={}", encode(token));
        let reply = self.resource(&uri).await?;
        Ok(without_token(reply, token))
    }

    /// The message `id` from `agent`'s inbox (`fetch_inbox` with bodies).
    async fn inbox_message(
        &self,
        project: &str,
        agent: &str,
        id: u64,
    ) -> Result<Message, BackendError> {
        let reply = self.fetch_inbox(project, agent, true).await?;
        let payload = adapters::reply_payload(&reply).map_err(adapter_error)?;
        payload
            .as_array()
            .and_then(|rows| {
                rows.iter()
                    .find(|row| row.get("id").and_then(Value::as_u64) == Some(id))
            })
            .ok_or_else(|| BackendError::NotFound(format!("message {id}")))
            .and_then(message_from_value)
    }

    async fn agent_names(&self, project: &str) -> Result<Vec<String>, BackendError> {
        Ok(self
            .agents_list(project)
            .await?
            .into_iter()
            .map(|a| a.name)
            .collect())
    }

    async fn agents_list(&self, project: &str) -> Result<Vec<Agent>, BackendError> {
        let reply = self
            .resource(&format!("resource://agents/{}", encode(project)))
            .await?;
        let payload = adapters::reply_payload(&reply).map_err(adapter_error)?;
        let rows = payload
            .get("agents")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Ok(rows
            .iter()
            .map(|row| Agent {
                name: str_field(row, "name"),
                program: str_field(row, "program"),
                model: str_field(row, "model"),
                task: str_field(row, "task_description"),
                unread: row.get("unread_count").and_then(Value::as_u64),
            })
            .filter(|a| !a.name.is_empty())
            .collect())
    }

    /// The body of `GET /mail/api/unified-inbox` (operator mode).
    async fn unified_body(&self) -> Result<String, BackendError> {
        if !self.capabilities.operator {
            return Err(BackendError::Unsupported(
                "operator mode (GET /mail/api/unified-inbox)".into(),
            ));
        }
        let url = format!("{}/mail/api/unified-inbox?limit=1000", self.root);
        http::get(&url, self.config.bearer.as_deref())
            .await
            .map_err(|_| BackendError::Server(format!("{url} did not answer")))
    }

    async fn fetch_inbox(
        &self,
        project: &str,
        agent: &str,
        bodies: bool,
    ) -> Result<String, BackendError> {
        self.tool(
            "fetch_inbox",
            self.agent_args(
                project,
                agent,
                json!({"include_bodies": bodies, "limit": 1000}),
            ),
        )
        .await
    }
}

/// Percent-encodes a URI component (RFC 3986 unreserved characters kept).
#[must_use]
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
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

impl Backend for McpBackend {
    fn capabilities(&self) -> Capabilities {
        self.capabilities.clone()
    }

    fn projects(&self) -> BackendFuture<'_, Vec<Project>> {
        Box::pin(async move {
            let reply = self.resource("resource://projects").await;
            let rows = match reply.map(|r| adapters::reply_payload(&r).map_err(adapter_error)) {
                Ok(Ok(Value::Array(rows))) => rows,
                Ok(Ok(_)) => return Err(BackendError::BadReply("projects: not a list".into())),
                Ok(Err(err)) | Err(err) => match &self.config.project {
                    Some(project) => vec![json!({"slug": project, "human_key": project})],
                    None => return Err(err),
                },
            };
            Ok(rows
                .iter()
                .map(|row| Project {
                    slug: str_field(row, "slug"),
                    human_key: str_field(row, "human_key"),
                })
                .filter(|p| !p.slug.is_empty())
                .collect())
        })
    }

    fn agents(&self, project: &str) -> BackendFuture<'_, Vec<Agent>> {
        let project = project.to_string();
        Box::pin(async move { self.agents_list(&project).await })
    }

    fn inbox(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            // Operator mode: without this agent's token, read its mail from the unified
            // inbox (server-wide, no agent token needed).
            if self.capabilities.agent_tokens
                && self.token(&agent).is_none()
                && self.capabilities.operator
            {
                let body = self.unified_body().await?;
                let body = unified_for_project(&body, &project)?;
                return adapters::unified_inbox_rows(&body, Some(&agent)).map_err(adapter_error);
            }
            let reply = self.fetch_inbox(&project, &agent, false).await?;
            adapters::inbox_rows(&reply).map_err(adapter_error)
        })
    }

    fn outbox(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let uri = format!(
                "resource://outbox/{}?{}",
                encode(&agent),
                self.agent_query(&project, &agent)
            );
            if let Ok(rows) = self
                .agent_resource(&uri, &agent)
                .await
                .and_then(|reply| adapters::outbox_rows(&reply, None).map_err(adapter_error))
            {
                return Ok(rows);
            }
            // Servers whose outbox resource fails (0.2.x): collect the agent's messages from
            // the other agents' inboxes.
            let mut seen = BTreeSet::new();
            let mut rows = Vec::new();
            for other in self.agent_names(&project).await? {
                if other == agent {
                    continue;
                }
                let Ok(reply) = self.fetch_inbox(&project, &other, false).await else {
                    continue;
                };
                let Ok(text) = adapters::outbox_rows(&reply, Some(&agent)) else {
                    continue;
                };
                let Ok(Value::Array(batch)) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                for row in batch {
                    let id = row.get("id").and_then(Value::as_u64);
                    if id.is_some_and(|id| seen.insert(id)) {
                        rows.push(row);
                    }
                }
            }
            Ok(Value::Array(rows).to_string())
        })
    }

    fn contacts(&self, project: &str, agent: &str) -> BackendFuture<'_, String> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            if !self.tools.contains("list_contacts") && self.capabilities.variant == Variant::Fork {
                return Err(BackendError::Unsupported(
                    "contacts (the fork has none)".into(),
                ));
            }
            let reply = self
                .tool(
                    "list_contacts",
                    self.agent_args(&project, &agent, json!({})),
                )
                .await?;
            adapters::contact_rows(&reply).map_err(adapter_error)
        })
    }

    fn acked(&self, project: &str, agent: &str, inbox_rows: &str) -> BackendFuture<'_, Vec<u64>> {
        let (project, agent, inbox_rows) = (
            project.to_string(),
            agent.to_string(),
            inbox_rows.to_string(),
        );
        Box::pin(async move {
            let local: Vec<u64> = self
                .local_acks
                .borrow()
                .iter()
                .filter(|(p, a, _)| *p == project && *a == agent)
                .map(|(_, _, id)| *id)
                .collect();
            let uri = format!(
                "resource://views/ack-required/{}?{}",
                encode(&agent),
                self.agent_query(&project, &agent)
            );
            let reply = self.agent_resource(&uri, &agent).await?;
            let mut ids = adapters::acknowledged_ids(&inbox_rows, &reply).map_err(adapter_error)?;
            ids.extend(local);
            ids.sort_unstable();
            ids.dedup();
            Ok(ids)
        })
    }

    fn message(&self, project: &str, agent: Option<&str>, id: u64) -> BackendFuture<'_, Message> {
        let (project, agent) = (project.to_string(), agent.map(str::to_string));
        Box::pin(async move {
            // With an agent token, the inbox first: fetch_inbox takes it as an argument.
            let tokened = agent.as_deref().filter(|a| self.agent_token(a).is_some());
            if let Some(agent) = tokened {
                if let Ok(message) = self.inbox_message(&project, agent, id).await {
                    return Ok(message);
                }
            }
            let resource = match &agent {
                Some(agent) => {
                    let query = self.agent_query(&project, agent);
                    self.agent_resource(&format!("resource://message/{id}?{query}"), agent)
                        .await
                }
                None => {
                    let query = format!("project={}", encode(&project));
                    self.resource(&format!("resource://message/{id}?{query}"))
                        .await
                }
            }
            .and_then(|reply| adapters::reply_payload(&reply).map_err(adapter_error));
            match (resource, &agent) {
                (Ok(value), _) => message_from_value(&value),
                (Err(err), Some(_)) if tokened.is_some() => Err(err),
                (Err(_), Some(agent)) => self.inbox_message(&project, agent, id).await,
                (Err(err), None) => Err(err),
            }
        })
    }

    fn acknowledge(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let args = self.agent_args(&project, &agent, json!({ "message_id": id }));
            let value = self.tool_value("acknowledge_message", args).await?;
            if value.get("acknowledged").and_then(Value::as_bool) == Some(false) {
                return Err(BackendError::Server(format!(
                    "message {id} was not acknowledged"
                )));
            }
            self.local_acks.borrow_mut().insert((project, agent, id));
            Ok(())
        })
    }

    fn mark_read(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let args = self.agent_args(&project, &agent, json!({ "message_id": id }));
            self.tool_value("mark_message_read", args).await.map(|_| ())
        })
    }

    fn reply(&self, project: &str, agent: &str, id: u64, body_md: &str) -> BackendFuture<'_, u64> {
        let (project, agent, body) = (project.to_string(), agent.to_string(), body_md.to_string());
        Box::pin(async move {
            if body.trim().is_empty() {
                return Err(BackendError::Invalid("The reply is empty.".into()));
            }
            let mut args = json!({"project_key": project, "message_id": id,
                                  "sender_name": agent, "body_md": body});
            if self.capabilities.agent_tokens {
                if let Some(token) = self.token(&agent) {
                    args["sender_token"] = json!(token);
                }
            }
            let value = self.tool_value("reply_message", args).await?;
            value
                .get("id")
                .and_then(Value::as_u64)
                .ok_or_else(|| BackendError::BadReply("reply without an id".into()))
        })
    }

    fn send(&self, project: &str, draft: Draft) -> BackendFuture<'_, u64> {
        let project = project.to_string();
        Box::pin(async move {
            if draft.to.is_empty() || draft.subject.trim().is_empty() {
                return Err(BackendError::Invalid(
                    "A message needs at least one recipient and a subject.".into(),
                ));
            }
            let Some(sender) = draft.sender.clone() else {
                if !self.capabilities.overseer_send {
                    return Err(BackendError::Unsupported(
                        "sending as the human overseer".into(),
                    ));
                }
                let body = json!({"recipients": draft.to, "subject": draft.subject,
                                  "body_md": draft.body_md, "thread_id": draft.thread_id});
                let url = format!("{}/mail/{}/overseer/send", self.root, encode(&project));
                let text = http::post(&url, self.config.bearer.as_deref(), &body.to_string())
                    .await
                    .map_err(|_| BackendError::Server("the overseer send was refused".into()))?;
                let value: Value = serde_json::from_str(&text)
                    .map_err(|err| BackendError::BadReply(err.to_string()))?;
                return value
                    .get("message_id")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| BackendError::BadReply("overseer send without an id".into()));
            };
            let mut args = json!({"project_key": project, "sender_name": sender,
                                  "to": draft.to, "subject": draft.subject,
                                  "body_md": draft.body_md, "importance": draft.importance,
                                  "ack_required": draft.ack_required});
            if let Some(thread) = &draft.thread_id {
                args["thread_id"] = json!(thread);
            }
            if self.capabilities.agent_tokens {
                if let Some(token) = self.token(&sender) {
                    args["sender_token"] = json!(token);
                }
            }
            let reply = self.tool("send_message", args).await?;
            let rows = adapters::outbox_rows(&reply, None).map_err(adapter_error)?;
            serde_json::from_str::<Value>(&rows)
                .ok()
                .and_then(|rows| rows.pointer("/0/id").and_then(Value::as_u64))
                .ok_or_else(|| BackendError::BadReply("send without an id".into()))
        })
    }

    fn search(&self, project: &str, query: &str) -> BackendFuture<'_, Vec<SearchHit>> {
        let (project, query) = (project.to_string(), query.to_string());
        Box::pin(async move {
            let tool = if self.tools.contains("search_mailbox") {
                "search_mailbox"
            } else {
                "search_messages"
            };
            let value = self
                .tool_value(
                    tool,
                    json!({"project_key": project, "query": query, "limit": 50}),
                )
                .await?;
            let rows = match value {
                Value::Array(rows) => rows,
                Value::Object(mut map) => {
                    match map.remove("messages").or_else(|| map.remove("results")) {
                        Some(Value::Array(rows)) => rows,
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            };
            Ok(rows
                .iter()
                .filter_map(|row| message_from_value(row).ok())
                .map(|m| SearchHit {
                    id: m.id,
                    subject: m.subject,
                    from: m.from,
                    created_ts: m.created_ts,
                    thread_id: m.thread_id,
                })
                .collect())
        })
    }

    fn unified_inbox(&self) -> BackendFuture<'_, Vec<UnifiedRow>> {
        Box::pin(async move { unified_rows(&self.unified_body().await?) })
    }

    fn reservations(&self, project: &str) -> BackendFuture<'_, Vec<Reservation>> {
        let project = project.to_string();
        Box::pin(async move {
            let uri = format!(
                "resource://file_reservations/{}?active_only=false",
                encode(&project)
            );
            let reply = self.resource(&uri).await?;
            let payload = adapters::reply_payload(&reply).map_err(adapter_error)?;
            let rows = payload.as_array().cloned().unwrap_or_default();
            Ok(rows
                .iter()
                .filter_map(|row| {
                    Some(Reservation {
                        id: row.get("id")?.as_u64()?,
                        agent: str_field(row, "agent"),
                        path_pattern: str_field(row, "path_pattern"),
                        exclusive: flag(row, "exclusive"),
                        reason: str_field(row, "reason"),
                        expires_ts: str_field(row, "expires_ts"),
                        released: !matches!(row.get("released_ts"), None | Some(Value::Null)),
                    })
                })
                .collect())
        })
    }

    fn release_reservation(&self, project: &str, agent: &str, id: u64) -> BackendFuture<'_, ()> {
        let (project, agent) = (project.to_string(), agent.to_string());
        Box::pin(async move {
            let args = self.agent_args(&project, &agent, json!({ "file_reservation_ids": [id] }));
            let value = self.tool_value("release_file_reservations", args).await?;
            // `{released: <count>, released_at}`: zero means it was not active, or not agent's.
            match value.get("released").and_then(Value::as_u64) {
                Some(0) => Err(BackendError::Server(format!(
                    "reservation {id} is not an active reservation of {agent}"
                ))),
                Some(_) => Ok(()),
                None => Err(BackendError::BadReply(
                    "release_file_reservations did not say how many it released".into(),
                )),
            }
        })
    }
}

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
            let from = match str_field(m, "sender_name") {
                name if name.is_empty() => str_field(m, "sender"),
                name => name,
            };
            Some(UnifiedRow {
                id: m.get("id")?.as_u64()?,
                project: str_field(m, "project_slug"),
                subject: str_field(m, "subject"),
                from,
                recipients: str_field(m, "recipients")
                    .split(',')
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .map(str::to_string)
                    .collect(),
                created_ts: adapters::normalize_timestamp(&str_field(m, "created_ts")),
                importance: str_field(m, "importance"),
            })
        })
        .collect())
}

/// The browser side of HTTP: `fetch` through gloo-net, cancelled on reactive cleanup.
#[cfg(target_arch = "wasm32")]
mod http {
    use super::HttpFailure;
    use gloo_net::http::Request;
    use leptos::prelude::on_cleanup;
    use send_wrapper::SendWrapper;
    use web_sys::{AbortController, RequestMode};

    /// A controller whose signal aborts the request when the current owner is cleaned up.
    fn controller() -> Option<web_sys::AbortSignal> {
        let controller = AbortController::new().ok()?;
        let signal = controller.signal();
        let controller = SendWrapper::new(controller);
        on_cleanup(move || controller.abort());
        Some(signal)
    }

    async fn send(
        builder: gloo_net::http::RequestBuilder,
        body: Option<&str>,
    ) -> Result<String, HttpFailure> {
        let signal = controller();
        let builder = builder.abort_signal(signal.as_ref());
        let request = match body {
            Some(body) => builder.body(body.to_string()),
            None => builder.build(),
        }
        .map_err(|_| HttpFailure::Network)?;
        let response = request.send().await.map_err(|_| HttpFailure::Network)?;
        if !response.ok() {
            return Err(HttpFailure::Status(response.status()));
        }
        response.text().await.map_err(|_| HttpFailure::Network)
    }

    /// POSTs JSON; returns the body text of a 2xx reply.
    pub(super) async fn post(
        url: &str,
        bearer: Option<&str>,
        body: &str,
    ) -> Result<String, HttpFailure> {
        let mut builder = Request::post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(token) = bearer {
            builder = builder.header("authorization", &format!("Bearer {token}"));
        }
        send(builder, Some(body)).await
    }

    /// GETs a URL; returns the body text of a 2xx reply.
    pub(super) async fn get(url: &str, bearer: Option<&str>) -> Result<String, HttpFailure> {
        let mut builder = Request::get(url);
        if let Some(token) = bearer {
            builder = builder.header("authorization", &format!("Bearer {token}"));
        }
        send(builder, None).await
    }

    /// Whether anything answers at `root` (an opaque `no-cors` request succeeds even when
    /// CORS would block a real one).
    pub(super) async fn reachable(root: &str) -> bool {
        let builder = Request::get(&format!("{root}/health/liveness")).mode(RequestMode::NoCors);
        match builder.build() {
            Ok(request) => request.send().await.is_ok(),
            Err(_) => false,
        }
    }

    /// This console's origin (`window.location.origin`).
    pub(super) fn origin() -> String {
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default()
    }
}

/// Native builds (clippy, unit tests) have no `fetch`: every request fails as unreachable,
/// except in unit tests, where POSTs go to a scripted server ([`http::fake`]).
#[cfg(not(target_arch = "wasm32"))]
mod http {
    use super::HttpFailure;

    pub(super) async fn post(
        _url: &str,
        _bearer: Option<&str>,
        _body: &str,
    ) -> Result<String, HttpFailure> {
        #[cfg(test)]
        return fake::post(_body);
        #[cfg(not(test))]
        Err(HttpFailure::Network)
    }

    pub(super) async fn get(_: &str, _: Option<&str>) -> Result<String, HttpFailure> {
        Err(HttpFailure::Network)
    }
    pub(super) async fn reachable(_: &str) -> bool {
        false
    }
    pub(super) fn origin() -> String {
        String::new()
    }

    /// A scripted MCP server for unit tests: records every JSON-RPC body and answers with
    /// the script's reply text.
    #[cfg(test)]
    pub(super) mod fake {
        use super::HttpFailure;
        use std::cell::RefCell;

        type Script = Box<dyn Fn(&serde_json::Value) -> String>;

        thread_local! {
            static SCRIPT: RefCell<Option<Script>> = RefCell::new(None);
            static SENT: RefCell<Vec<serde_json::Value>> = const { RefCell::new(Vec::new()) };
        }

        /// Answers every following request of this thread with `script(request)`.
        pub(in super::super) fn serve(script: impl Fn(&serde_json::Value) -> String + 'static) {
            SCRIPT.with(|s| *s.borrow_mut() = Some(Box::new(script)));
            SENT.with(|s| s.borrow_mut().clear());
        }

        /// The requests sent since [`serve`].
        pub(in super::super) fn sent() -> Vec<serde_json::Value> {
            SENT.with(|s| s.borrow().clone())
        }

        pub(super) fn post(body: &str) -> Result<String, HttpFailure> {
            let request: serde_json::Value =
                serde_json::from_str(body).map_err(|_| HttpFailure::Status(400))?;
            SENT.with(|s| s.borrow_mut().push(request.clone()));
            SCRIPT
                .with(|s| s.borrow().as_ref().map(|script| script(&request)))
                .ok_or(HttpFailure::Network)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_try_both_paths_unless_one_is_given() {
        let config = |server: &str| ConnectConfig {
            server: server.into(),
            ..ConnectConfig::default()
        };
        let (root, tried) = config("http://127.0.0.1:8765/").endpoints().unwrap();
        assert_eq!(root, "http://127.0.0.1:8765");
        assert_eq!(
            tried,
            ["http://127.0.0.1:8765/mcp/", "http://127.0.0.1:8765/api/"]
        );
        let (root, tried) = config("http://h:1/api").endpoints().unwrap();
        assert_eq!(
            (root.as_str(), tried),
            ("http://h:1", vec!["http://h:1/api/".to_string()])
        );
        assert!(config("ftp://h").endpoints().is_err());
    }

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
        let inbox = adapters::unified_inbox_rows(&p1, Some("RedStone")).unwrap();
        assert!(inbox.contains("\"id\":1"));
        assert!(!inbox.contains("\"id\":2"));
    }

    fn backend(variant: Variant, agent_tokens: bool) -> McpBackend {
        let mut config = ConnectConfig::default();
        config
            .agent_tokens
            .insert("BlueLake".into(), "t0k/=".into());
        McpBackend {
            config,
            root: "http://h".into(),
            endpoint: "http://h/mcp/".into(),
            tools: BTreeSet::new(),
            capabilities: Capabilities {
                variant,
                endpoint: "http://h/mcp/".into(),
                tool_count: 0,
                resource_templates: 0,
                agent_tokens,
                operator: false,
                overseer_send: false,
            },
            next_id: Cell::new(1),
            local_acks: RefCell::new(BTreeSet::new()),
        }
    }

    #[test]
    fn agent_tokens_go_only_to_servers_that_take_them() {
        let tokens = backend(Variant::UpstreamTokens, true);
        let args = tokens.agent_args("p", "BlueLake", json!({"message_id": 1}));
        assert_eq!(args["registration_token"], "t0k/=");
        assert_eq!(args["message_id"], 1);
        assert_eq!(
            tokens.agent_query("p", "BlueLake"),
            "project=p&agent=BlueLake"
        );
        assert!(tokens
            .agent_args("p", "GreenCastle", json!({}))
            .get("registration_token")
            .is_none());
        let legacy = backend(Variant::UpstreamLegacy, false);
        assert!(legacy
            .agent_args("p", "BlueLake", json!({}))
            .get("registration_token")
            .is_none());
        assert_eq!(legacy.agent_query("p", "BlueLake"), "project=p");
    }

    /// Polls a backend future once (the scripted server answers at once).
    fn block<T>(future: BackendFuture<'_, T>) -> Result<T, BackendError> {
        let mut future = future;
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("the scripted server answers at once"),
        }
    }

    fn tool_reply(id: &Value, payload: Value) -> String {
        json!({"jsonrpc": "2.0", "id": id, "result": {"structuredContent": {"result": payload}}})
            .to_string()
    }

    /// A token server whose inbox holds message 5; resources fail, echoing their URI.
    fn token_server(request: &Value) -> String {
        let id = &request["id"];
        match request["method"].as_str() {
            Some("tools/call") => tool_reply(
                id,
                json!([{"id": 5, "subject": "s", "from": "GreenCastle", "body_md": "hi",
                        "created_ts": "2026-01-01T00:00:00+00:00", "importance": "normal",
                        "ack_required": false}]),
            ),
            _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": 0, "message": format!(
                "Error reading resource from template '{}': not found",
                request["params"]["uri"].as_str().unwrap_or_default())}})
            .to_string(),
        }
    }

    fn token_backend() -> McpBackend {
        let mut backend = backend(Variant::UpstreamTokens, true);
        backend.tools = ["fetch_inbox".to_string()].into();
        backend
    }

    #[test]
    fn a_message_in_the_inbox_is_read_with_the_token_as_a_tool_argument() {
        http::fake::serve(token_server);
        let message = block(token_backend().message("p", Some("BlueLake"), 5)).unwrap();
        assert_eq!(message.body_md, "hi");
        let sent = http::fake::sent();
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(sent[0]["params"]["name"], "fetch_inbox");
        assert_eq!(
            sent[0]["params"]["arguments"]["registration_token"],
            "t0k/="
        );
        assert!(!sent[0].to_string().contains("agent_token"));
    }

    #[test]
    fn a_token_in_a_resource_uri_never_reaches_an_error_text() {
        // Message 9 is not in the inbox: the message resource is the only way, and servers
        // take the token there only as agent_token in the URI (docs/console.md).
        http::fake::serve(token_server);
        let err = block(token_backend().message("p", Some("BlueLake"), 9)).unwrap_err();
        let sent = http::fake::sent();
        let uri = sent[1]["params"]["uri"].as_str().unwrap();
        assert_eq!(
            uri,
            "resource://message/9?project=p&agent=BlueLake&agent_token=t0k%2F%3D"
        );
        let text = err.to_string();
        assert!(text.contains("agent_token=<agent token>"), "{text}");
        assert!(!text.contains("t0k"), "{text}");
        // Servers without agent tokens never get one, in a URI or an argument.
        http::fake::serve(token_server);
        let mut legacy = backend(Variant::UpstreamLegacy, false);
        legacy.tools = ["fetch_inbox".to_string()].into();
        block(legacy.message("p", Some("BlueLake"), 5)).unwrap();
        assert!(http::fake::sent()
            .iter()
            .all(|r| !r.to_string().contains("t0k")));
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

    #[test]
    fn agent_tokens_parse_one_per_line() {
        let tokens =
            ConnectConfig::parse_agent_tokens("BlueLake=abc\n\n# x\nGreenCastle = def").unwrap();
        assert_eq!(tokens.get("GreenCastle").map(String::as_str), Some("def"));
        assert!(ConnectConfig::parse_agent_tokens("nonsense").is_err());
    }

    #[test]
    fn messages_accept_int_flags_and_numeric_threads() {
        let m = message_from_value(&json!({"id": 3, "subject": "s", "from": "A",
            "ack_required": 1, "thread_id": 1, "to": ["B"], "cc": ["C"]}))
        .unwrap();
        assert!(m.ack_required);
        assert_eq!(m.thread_id.as_deref(), Some("1"));
        assert_eq!(m.to, ["B", "C"]);
        assert!(message_from_value(&json!({"id": "3"})).is_err());
        assert_eq!(encode("a b/ü"), "a%20b%2F%C3%BC");
    }
}
