//! What the reviewer typed on the connect screen: the server URL, the bearer token, agent
//! tokens and a project, and the MCP endpoints to try from them.

use crate::api::BackendError;
use std::collections::BTreeMap;

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
    fn agent_tokens_parse_one_per_line() {
        let tokens =
            ConnectConfig::parse_agent_tokens("BlueLake=abc\n\n# x\nGreenCastle = def").unwrap();
        assert_eq!(tokens.get("GreenCastle").map(String::as_str), Some("def"));
        assert!(ConnectConfig::parse_agent_tokens("nonsense").is_err());
    }
}
