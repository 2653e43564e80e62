//! Every panel written from models whose texts are hostile: each text a model can hold (a
//! name, a task, a path, a file's line, a decision's text, an id that becomes a link) is
//! replaced by markup, quotes and a `javascript:` URL, and the panel, tokenized as a browser
//! tokenizes it (html5ever), must show that text as text and hold no element, attribute or
//! URL scheme from it. The models are the demo's, as the engine computes them.

use super::{
    audit, boards, conformance, evidence, message, queue, session, sessions as session_list, trail,
};
use crate::api::demo::dates::DEMO_NOW_MS;
use crate::ask;
use crate::engine::evidence_tests::read_folder;
use crate::engine::tests::{demo_rows, loaded};
use crate::engine::trail::TimedOut;
use crate::engine::{
    audits, boards as board_model, conformance as conformance_model, evidence as evidence_model,
    fields as inspect_model, sessions,
};
use crate::model::Verdict;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use switchboard_core::evidence::record::ReviewRecord;
use switchboard_core::evidence::trail::{verify, TrailLine};

/// Markup, an event handler in both kinds of quotes, and a script URL.
const MARKUP: &str = r#"<script>alert(1)</script><img src=x onerror="alert(2)"><b onclick='alert(3)'>bold</b> "q" 'q' javascript:alert(4)"#;
/// A whole text that a browser would follow as a script if it became a link.
const SCRIPT_URL: &str = "javascript:alert(5)";

/// `model` with every text it can hold replaced by `text`. Texts are grouped by where they
/// sit (array positions aside); a group whose replacement the model's type refuses (an enum
/// name, a digest, a date) is kept. The rendered Markdown of an artifact is not a text but
/// the renderer's output, and stays as it is.
fn hostile<T: Serialize + DeserializeOwned>(model: &T, text: &str) -> T {
    fn shapes(value: &Value, shape: String, out: &mut BTreeMap<String, usize>) {
        match value {
            Value::String(_) if !shape.contains("/Markdown") => *out.entry(shape).or_default() += 1,
            Value::Array(items) => items
                .iter()
                .for_each(|v| shapes(v, format!("{shape}/*"), out)),
            Value::Object(map) => map
                .iter()
                .for_each(|(k, v)| shapes(v, format!("{shape}/{k}"), out)),
            _ => {}
        }
    }
    fn replace(value: &mut Value, shape: &str, at: String, text: &str) {
        match value {
            Value::String(s) if at == shape => *s = text.to_owned(),
            Value::Array(items) => items
                .iter_mut()
                .for_each(|v| replace(v, shape, format!("{at}/*"), text)),
            Value::Object(map) => map
                .iter_mut()
                .for_each(|(k, v)| replace(v, shape, format!("{at}/{k}"), text)),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(model).unwrap();
    let mut found = BTreeMap::new();
    shapes(&value, String::new(), &mut found);
    for shape in found.keys() {
        let mut tried = value.clone();
        replace(&mut tried, shape, String::new(), text);
        if serde_json::from_value::<T>(tried.clone()).is_ok() {
            value = tried;
        }
    }
    serde_json::from_value(value).unwrap()
}

/// A start tag: its name and its attributes with their values decoded.
type Tag = (String, Vec<(String, String)>);

/// A panel's start tags and text, as a browser's tokenizer reads them.
fn tokens(html: &str) -> (Vec<Tag>, String) {
    use html5ever::tokenizer::{
        BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
    };
    use std::cell::RefCell;

    #[derive(Default)]
    struct Sink {
        tags: RefCell<Vec<Tag>>,
        text: RefCell<String>,
    }
    impl TokenSink for Sink {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            match token {
                Token::TagToken(tag) if tag.kind == TagKind::StartTag => {
                    let attrs = tag
                        .attrs
                        .iter()
                        .map(|a| (a.name.local.to_string(), a.value.to_string()))
                        .collect();
                    self.tags.borrow_mut().push((tag.name.to_string(), attrs));
                }
                Token::CharacterTokens(text) => self.text.borrow_mut().push_str(&text),
                _ => {}
            }
            TokenSinkResult::Continue
        }
    }
    let input = BufferQueue::default();
    input.push_back(html.into());
    let tokenizer = Tokenizer::new(Sink::default(), Default::default());
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    (tokenizer.sink.tags.take(), tokenizer.sink.text.take())
}

/// The scheme a browser reads from an `href` (`None`: a relative URL).
fn scheme(href: &str) -> Option<String> {
    let cleaned: String = href
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (scheme, _) = cleaned.split_once(':')?;
    (!scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then(|| scheme.to_ascii_lowercase())
}

/// `html`, written from a model holding `text`, shows it as text: no element, handler or
/// script URL came in with it.
fn text_only(panel: &str, html: &str, text: &str) {
    let (tags, shown) = tokens(html);
    for (name, attrs) in &tags {
        assert!(
            !["script", "img", "b", "iframe", "svg"].contains(&name.as_str()),
            "{panel}: a <{name}> element in {html}"
        );
        for (attr, value) in attrs {
            assert!(
                !attr.starts_with("on"),
                "{panel}: {attr}={value:?} on <{name}>"
            );
            // The trail's export: a download of our own JSON Lines, percent-encoded.
            let export = name == "a"
                && attrs.iter().any(|(a, _)| a == "download")
                && value.starts_with("data:application/x-ndjson;charset=utf-8,")
                && !value.contains(['<', '"', '\'', ' ']);
            if (attr == "href" || attr == "src") && !export {
                assert!(
                    scheme(value).is_none_or(|s| ["http", "https", "mailto"].contains(&s.as_str())),
                    "{panel}: {attr}={value:?} on <{name}>"
                );
            }
        }
    }
    assert!(
        shown.contains(text),
        "{panel}: {text:?} is not shown as text in {html}"
    );
}

/// Writes each panel from hostile models with each hostile text.
fn each_text(panel: &str, write: impl Fn(&str) -> String) {
    for text in [MARKUP, SCRIPT_URL] {
        text_only(panel, &write(text), text);
    }
}

#[test]
fn sessions_and_change_orders_show_hostile_texts_as_text() {
    let (engine, key) = loaded("pair-lab");
    let traffic = engine.traffic(&key).unwrap();
    let rows = sessions::rows(traffic, DEMO_NOW_MS);
    assert!(rows.len() >= 8, "the demo's sessions");
    for row in &rows {
        let queued = crate::model::Queued {
            key: key.clone(),
            session: row.clone(),
            opened_at_ms: Some(DEMO_NOW_MS),
        };
        each_text(&format!("the queue's {}", row.id), |text| {
            queue::list(&[hostile(&queued, text)], DEMO_NOW_MS).0
        });
        each_text(&format!("the row of {}", row.id), |text| {
            session_list::list(&[hostile(row, text)], 1, &key, DEMO_NOW_MS).0
        });
        let detail = sessions::detail(traffic, &row.id, DEMO_NOW_MS).unwrap();
        each_text(&format!("session {}", row.id), |text| {
            let page = session::page(&hostile(&detail, text), &key, DEMO_NOW_MS);
            page.upper.0 + &page.lower.0
        });
        for order in &detail.change_orders {
            each_text("change order", |text| {
                audit::change_order(&hostile(order, text)).into_string()
            });
        }
    }
}

#[test]
fn audit_reports_show_hostile_texts_as_text() {
    let (engine, key) = loaded("pair-lab");
    let cards = audits::in_mail(engine.traffic(&key).unwrap());
    assert!(!cards.is_empty());
    each_text("audit reports", |text| {
        audit::in_mail(&hostile(&cards, text), &key).0
    });
    each_text("audit run", |text| {
        audit::result(&hostile(&cards[0], text), &key).0
    });
}

#[test]
fn task_boards_show_hostile_texts_as_text() {
    for project in ["po-factory", "droid-fleet", "pair-lab"] {
        let (engine, key) = loaded(project);
        let model = board_model::boards(engine.traffic(&key).unwrap(), DEMO_NOW_MS);
        each_text(&format!("boards of {project}"), |text| {
            boards::boards(&hostile(&model, text), &key, DEMO_NOW_MS).0
        });
    }
}

#[test]
fn conformance_shows_hostile_texts_as_text() {
    for project in ["droid-fleet", "pair-lab"] {
        let (engine, key) = loaded(project);
        let model = conformance_model::report(engine.traffic(&key).unwrap());
        each_text(&format!("conformance of {project}"), |text| {
            conformance::report(&hostile(&model, text), &key, false).0
        });
    }
}

#[test]
fn evidence_and_review_records_show_hostile_texts_as_text() {
    let (mut engine, key) = loaded("pair-lab");
    for id in ["pair-101", "pair-102", "pair-103", "pair-104", "pair-108"] {
        let (files, listings) = read_folder(&mut engine, &key, id);
        let asked = ask::Evidence {
            key: key.clone(),
            session: id.into(),
            files,
            listings,
            baselines: Vec::new(),
            reveal: true,
        };
        let view = evidence_model::detail(engine.traffic(&key).unwrap(), &asked).unwrap();
        each_text(&format!("evidence of {id}"), |text| {
            evidence::evidence(&hostile(&view, text))
        });
    }
    let record: ReviewRecord = serde_json::from_value(serde_json::json!({
        "reviewer": "Ada", "project": "pair-lab", "session": "pair-101",
        "checkpoint": "contract_review",
        "outcome": {"override": {"concerns": [{"failing_tests": "SOME_FAIL"}], "reason": "ok"}},
        "decision": "APPROVED", "decided_at_ms": DEMO_NOW_MS, "decided_at": "now",
        "artifacts": [{"path": "tmp/spec.md", "role": "spec", "sha256": null}],
        "sent": [{"from": "BlueLake", "to": "GreenCastle", "subject": "CONTRACT_FINAL",
                  "thread_id": "pair-101", "body_md": "{}", "server_id": 7}],
    }))
    .unwrap();
    let line = TrailLine::new(record, None, "ab".repeat(32));
    each_text("review trail", |text| {
        let line = hostile(&line, text);
        let trail = line.line();
        let timeouts = [TimedOut {
            checkpoint: 2,
            words: text.to_owned(),
        }];
        let (project, session) = (&line.record.project, &line.record.session);
        trail::records(&trail, &verify(&trail, None), &timeouts, project, session).0
    });
    each_text("kept decisions", |text| {
        let drafts = [(text, text.to_owned(), 1, text, text.to_owned())];
        trail::kept(&drafts).0
    });
}

#[test]
fn messages_show_hostile_texts_as_text() {
    for project in ["pair-lab", "droid-fleet"] {
        let (mut engine, key) = loaded(project);
        let rows = demo_rows(&mut engine, &key);
        let traffic = engine.traffic(&key).unwrap();
        // One message of each family and verdict is enough: the panel's texts are the same.
        let mut seen = std::collections::BTreeSet::new();
        for row in &rows {
            let inspection = inspect_model::inspect(row, Some(traffic), true);
            let kind = (
                inspection.family,
                inspection.verdict,
                inspection.belongs.is_some(),
            );
            // A plain message holds no text but its rendered body.
            if inspection.verdict == Verdict::Plain || !seen.insert(format!("{kind:?}")) {
                continue;
            }
            each_text(&format!("message {}", row.id), |text| {
                // The body is the Markdown renderer's output, not a text: kept as it is.
                let mut shown = hostile(&inspection, text);
                shown.html = inspection.html.clone();
                message::inspected(&shown, &key, true).0
            });
        }
        assert!(seen.len() >= 2, "{project}: {seen:?}");
    }
}
