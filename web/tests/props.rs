//! Property tests for the console's parsers of untrusted input: Markdown from messages (the
//! output keeps to an allow-list of tags, attributes and link schemes), server replies,
//! agent-token text, URL components and reservation globs. None may panic.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Value};
use switchboard_web::backend::mcp::{
    encode, message_from_value, unified_for_project, unified_rows, ConnectConfig,
};
use switchboard_web::backend::{glob_match, reservation_conflicts, Reservation};
use switchboard_web::markdown::{is_safe_url, render};
use switchboard_web::views::common::decode;

/// Pieces of hostile and ordinary Markdown, joined at random.
const FRAGMENTS: &[&str] = &[
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg/onload=alert(1)>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<iframe src=//evil>",
    "<style>*{}</style>",
    "[link](",
    "![image](",
    "javascript:alert(1)",
    "JaVaScRiPt:",
    "java\tscript:",
    "&#106;avascript:",
    "data:text/html,<b>",
    "vbscript:x",
    "https://a.example/x?q=\"'<>",
    "mailto:a@b",
    " \"title\"",
    ")",
    "]",
    "[ref]: javascript:alert(1)\n",
    "[ref]",
    "<",
    ">",
    "\"",
    "'",
    "&",
    "`",
    "```js\n",
    "```\n",
    "\n",
    "\n\n",
    "**",
    "_",
    "~~",
    "# ",
    "> ",
    "- [ ] ",
    "1. ",
    "| a | b |\n|---|:-:|\n| <b> | c |\n",
    "x",
    " ",
    "\u{0}",
    "é",
];

fn markdown() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(FRAGMENTS), 0..16).prop_map(|p| p.concat()),
        ".{0,48}",
    ]
}

/// Tags pulldown-cmark writes for the options the console enables.
const TAGS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "ul",
    "ol",
    "li",
    "em",
    "strong",
    "del",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "hr",
    "br",
    "input",
];
const ATTRIBUTES: &[&str] = &[
    "href", "title", "start", "style", "type", "disabled", "checked", "class",
];

/// One HTML tag: its name and its attributes with unescaped values.
type Tag = (String, Vec<(String, String)>);

/// The tags of rendered HTML. Attribute values must be in double quotes.
fn tags(html: &str) -> Result<Vec<Tag>, String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let tag_text = &rest[start + 1..];
        let mut end = None;
        let mut quoted = false;
        for (i, c) in tag_text.char_indices() {
            match c {
                '"' => quoted = !quoted,
                '>' if !quoted => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let end = end.ok_or_else(|| format!("unclosed tag in {html:?}"))?;
        let inner = tag_text[..end]
            .trim_start_matches('/')
            .trim_end_matches('/');
        let (name, mut attrs_text) = inner.split_once(' ').unwrap_or((inner, ""));
        let mut attrs = Vec::new();
        while !attrs_text.trim().is_empty() {
            attrs_text = attrs_text.trim_start();
            let name_end = attrs_text.find(['=', ' ']).unwrap_or(attrs_text.len());
            if name_end == 0 {
                return Err(format!("malformed attribute in {html:?}"));
            }
            let attr = attrs_text[..name_end].to_string();
            attrs_text = &attrs_text[name_end..];
            let mut value = String::new();
            if let Some(after) = attrs_text.strip_prefix("=\"") {
                let close = after.find('"').ok_or("unclosed attribute value")?;
                value = after[..close]
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&");
                attrs_text = &after[close + 1..];
            } else if attrs_text.starts_with('=') {
                return Err(format!("unquoted attribute value in {html:?}"));
            }
            attrs.push((attr, value));
        }
        out.push((name.to_string(), attrs));
        rest = &tag_text[end + 1..];
    }
    Ok(out)
}

/// The recursive glob definition, as a model (exponential in the worst case, so only for
/// short inputs).
fn glob_model(p: &[u8], t: &[u8]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some(b'*') if p.get(1) == Some(&b'*') => {
            (0..=t.len()).any(|i| glob_model(&p[2..], &t[i..]))
        }
        Some(b'*') => {
            let limit = t.iter().position(|&c| c == b'/').unwrap_or(t.len());
            (0..=limit).any(|i| glob_model(&p[1..], &t[i..]))
        }
        Some(b'?') => t.first().is_some_and(|&c| c != b'/') && glob_model(&p[1..], &t[1..]),
        Some(&c) => t.first() == Some(&c) && glob_model(&p[1..], &t[1..]),
    }
}

/// Any small JSON value.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(
                        &[
                            "id",
                            "subject",
                            "from",
                            "to",
                            "cc",
                            "body_md",
                            "created_ts",
                            "thread_id",
                            "messages",
                            "project_slug",
                            "project_name",
                            "recipients",
                            "ack_required",
                            "importance",
                            "x",
                        ][..]
                    ),
                    inner
                ),
                0..5
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn rendered_markdown_keeps_to_the_allow_list(text in markdown()) {
        let html = render(&text);
        for (name, attrs) in tags(&html).map_err(TestCaseError::fail)? {
            prop_assert!(TAGS.contains(&name.as_str()), "tag <{}> in {:?} from {:?}", name, html, text);
            for (attr, value) in attrs {
                prop_assert!(ATTRIBUTES.contains(&attr.as_str()), "attribute {} in {:?} from {:?}", attr, html, text);
                if attr == "href" {
                    prop_assert!(is_safe_url(&value), "href {:?} in {:?} from {:?}", value, html, text);
                }
                if attr == "type" {
                    prop_assert_eq!(value.as_str(), "checkbox");
                }
            }
        }
    }

    #[test]
    fn urls_with_a_scheme_are_safe_only_for_http_https_mailto(scheme in "[a-zA-Z][a-zA-Z0-9+.-]{0,9}", rest in "[a-zA-Z0-9._~ -]{0,8}") {
        let url = format!("{scheme}:{rest}");
        let allowed = ["http", "https", "mailto"].contains(&scheme.to_ascii_lowercase().as_str());
        prop_assert_eq!(is_safe_url(&url), allowed, "{}", url);
    }

    #[test]
    fn url_components_round_trip(text in ".{0,24}") {
        let encoded = encode(&text);
        prop_assert!(encoded.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)));
        prop_assert_eq!(decode(&encoded), text);
    }

    #[test]
    fn decoding_never_panics(text in "(%[0-9a-fA-F]{0,2}|.){0,16}") {
        let _ = decode(&text);
    }

    #[test]
    fn agent_tokens_round_trip(tokens in prop::collection::btree_map("[A-Za-z][A-Za-z0-9]{0,8}", "[!-~&&[^=#]][!-~]{0,12}", 0..4)) {
        let text: String = tokens.iter().map(|(agent, token)| format!("  {agent} = {token}\n# note\n\n")).collect();
        prop_assert_eq!(ConnectConfig::parse_agent_tokens(&text), Ok(tokens));
    }

    #[test]
    fn agent_token_text_never_panics(text in ".{0,40}") {
        if let Err(message) = ConnectConfig::parse_agent_tokens(&text) {
            prop_assert!(message.starts_with("Agent tokens, line "), "{}", message);
        }
    }

    #[test]
    fn server_replies_never_panic(value in json_value(), text in ".{0,32}", project in "[a-z]{0,3}") {
        let _ = message_from_value(&value);
        for body in [value.to_string(), json!({"messages": [value.clone()]}).to_string(), text] {
            let _ = unified_rows(&body);
            if let Ok(kept) = unified_for_project(&body, &project) {
                prop_assert!(serde_json::from_str::<Value>(&kept).is_ok());
            }
        }
    }

    #[test]
    fn globs_match_as_defined(pattern in "[ab/*?]{0,8}", text in "[ab/]{0,10}") {
        prop_assert_eq!(glob_match(&pattern, &text), glob_model(pattern.as_bytes(), text.as_bytes()), "{} ~ {}", pattern, text);
    }

    #[test]
    fn conflicts_are_ordered_pairs_of_active_reservations(rows in prop::collection::vec(
        (0u64..6, prop::sample::select(&["A", "B"][..]), "[ab/*]{0,5}", any::<bool>(), any::<bool>()), 0..6)
    ) {
        let rows: Vec<Reservation> = rows.into_iter().map(|(id, agent, path, exclusive, released)| Reservation {
            id, agent: agent.into(), path_pattern: path, exclusive, reason: String::new(),
            expires_ts: String::new(), released,
        }).collect();
        for (a, b) in reservation_conflicts(&rows) {
            prop_assert!(a <= b);
            prop_assert!(rows.iter().any(|r| r.id == a && !r.released) && rows.iter().any(|r| r.id == b && !r.released));
        }
    }
}

#[test]
fn adversarial_globs_stay_fast() {
    // The recursive definition takes exponential time here; the matcher is quadratic.
    let pattern = "**a".repeat(20) + "b";
    let text = "a".repeat(200);
    assert!(!glob_match(&pattern, &text));
}
