//! Property tests for the console's parsers of untrusted input, each against an oracle or
//! a model: Markdown from messages (the output, tokenized by html5ever, keeps to an
//! allow-list of tags, attributes and values), server replies, agent-token text,
//! percent-decoding, reservation globs and conflicts.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Value};
use switchboard_core::glob::glob_match;
use switchboard_web::api::mcp::{unified_mail, unified_rows, ConnectConfig};
use switchboard_web::api::{reservation_conflicts, MailRow, Reservation};
use switchboard_web::markdown::{is_safe_url, render};
use switchboard_web::percent::{decode, encode};

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
    "[x](<java\tscript:alert(1)>)",
    "[x](java&#9;script:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](<\u{1}javascript:alert(1)>)",
    "[ref]: <java\nscript:alert(1)>\n",
    "[ref]",
    "<",
    ">",
    "\"",
    "'",
    "&",
    "`",
    "```js\n",
    "```\n",
    "```x\terror\n",
    "```x\u{c}badge valid\n",
    "```x\"onclick=\"y\n",
    "~~~ x style=color:red\n",
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
    "| a | b | c |\n|:--|--:|:-:|\n| x | y | z |\n",
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

/// One HTML tag: its name and its attributes with their values decoded.
type Tag = (String, Vec<(String, String)>);

/// The tags of rendered HTML as a browser tokenizes them (html5ever, the HTML standard's
/// tokenizer: an oracle independent of how the console writes or escapes HTML).
fn tags(html: &str) -> Vec<Tag> {
    use html5ever::tokenizer::{BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer};
    use std::cell::RefCell;

    struct Sink(RefCell<Vec<Tag>>);
    impl TokenSink for Sink {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            if let Token::TagToken(tag) = token {
                let attrs = tag
                    .attrs
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect();
                self.0.borrow_mut().push((tag.name.to_string(), attrs));
            }
            TokenSinkResult::Continue
        }
    }
    let input = BufferQueue::default();
    input.push_back(html.into());
    let tokenizer = Tokenizer::new(Sink(RefCell::new(Vec::new())), Default::default());
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.0.take()
}

/// The scheme a browser reads from an `href`, per the URL standard: leading and trailing
/// C0 controls and spaces stripped, tabs and newlines removed anywhere, then
/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` before a `:`. `None`: a relative URL.
fn browser_scheme(href: &str) -> Option<String> {
    let cleaned: String = href
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (scheme, _) = cleaned.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then(|| scheme.to_ascii_lowercase())
}

/// Whether an attribute value is one the console's Markdown may produce (checked with the
/// tag's attributes as a browser sees them).
fn allowed_value(attr: &str, value: &str) -> Result<(), String> {
    let ok = match attr {
        "href" => browser_scheme(value)
            .is_none_or(|scheme| ["http", "https", "mailto"].contains(&scheme.as_str())),
        // Table alignment only: no other property can be styled from a message.
        "style" => [
            "text-align: left",
            "text-align: center",
            "text-align: right",
        ]
        .contains(&value),
        // One class, `language-…` (a code block's language): a message cannot borrow the
        // console's own classes (`error`, `badge`, …) to dress its text up as the UI's.
        "class" => {
            value.starts_with("language-") && !value.contains(|c: char| c.is_ascii_whitespace())
        }
        "type" => value == "checkbox",
        "disabled" | "checked" => value.is_empty(),
        "start" => !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()),
        "title" => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{attr}={value:?}"))
    }
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

/// Percent-decoding as a model: the text split at `%`, each piece after a `%` starting with
/// two hex digits is one byte, anything else is kept with its `%`; then UTF-8, lossily.
fn decode_model(text: &str) -> String {
    let mut pieces = text.split('%');
    let mut bytes = pieces.next().unwrap_or_default().as_bytes().to_vec();
    for piece in pieces {
        let hex = piece
            .get(..2)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match hex {
            Some(h) => {
                bytes.push(u8::from_str_radix(h, 16).unwrap());
                bytes.extend_from_slice(&piece.as_bytes()[2..]);
            }
            None => {
                bytes.push(b'%');
                bytes.extend_from_slice(piece.as_bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Conflicts as defined: every pair of active reservations (by position) held by different
/// agents, at least one exclusive, whose patterns overlap (equal, or one matches the other
/// by the recursive glob definition), as `(smaller id, larger id)`, sorted.
fn conflicts_model(rows: &[Reservation]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            let overlap = a.path_pattern == b.path_pattern
                || glob_model(a.path_pattern.as_bytes(), b.path_pattern.as_bytes())
                || glob_model(b.path_pattern.as_bytes(), a.path_pattern.as_bytes());
            if !a.released
                && !b.released
                && a.agent != b.agent
                && (a.exclusive || b.exclusive)
                && overlap
            {
                out.push((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    out.sort_unstable();
    out
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
        for (name, attrs) in tags(&html) {
            prop_assert!(TAGS.contains(&name.as_str()), "tag <{}> in {:?} from {:?}", name, html, text);
            for (attr, value) in attrs {
                prop_assert!(ATTRIBUTES.contains(&attr.as_str()), "attribute {} in {:?} from {:?}", attr, html, text);
                if let Err(bad) = allowed_value(&attr, &value) {
                    prop_assert!(false, "{} on <{}> in {:?} from {:?}", bad, name, html, text);
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
    fn decoding_matches_a_model_and_inverts_encoding(text in "(%[0-9a-fA-F]{0,2}|%[g-z]|[%/?# +]|.){0,16}") {
        prop_assert_eq!(decode(&text), decode_model(&text), "{:?}", text);
        // What the console encodes decodes to itself (the router's own decoding of path
        // segments is tested in the browser suite, tests/browser.rs).
        let encoded = encode(&text);
        prop_assert!(encoded.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)));
        prop_assert_eq!(decode(&encoded), text);
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
        let _ = MailRow::from_value(&value);
        for body in [value.to_string(), json!({"messages": [value.clone()]}).to_string(), text] {
            let rows = unified_rows(&body);
            if let Ok(kept) = unified_mail(&body, &project) {
                // One project's mail is some of the unified inbox's messages.
                let rows = rows.unwrap_or_default();
                prop_assert!(kept.iter().all(|m| rows.iter().any(|r| r.id == m.id)));
            }
        }
    }

    #[test]
    fn globs_match_as_defined(pattern in "[ab/*?]{0,8}", text in "[ab/]{0,10}") {
        prop_assert_eq!(glob_match(&pattern, &text), glob_model(pattern.as_bytes(), text.as_bytes()), "{} ~ {}", pattern, text);
    }

    #[test]
    fn conflicts_match_a_model(rows in prop::collection::vec(
        (0u64..6, prop::sample::select(&["A", "B"][..]), "[ab/*?]{0,5}", any::<bool>(), any::<bool>()), 0..7)
    ) {
        let rows: Vec<Reservation> = rows.into_iter().map(|(id, agent, path, exclusive, released)| Reservation {
            id, agent: agent.into(), path_pattern: path, exclusive, reason: String::new(),
            expires_ts: String::new(), released,
        }).collect();
        prop_assert_eq!(reservation_conflicts(&rows), conflicts_model(&rows), "{:?}", rows);
    }
}

#[test]
fn adversarial_globs_stay_fast() {
    // The recursive definition takes exponential time here; the matcher is quadratic.
    let pattern = "**a".repeat(20) + "b";
    let text = "a".repeat(200);
    assert!(!glob_match(&pattern, &text));
}
