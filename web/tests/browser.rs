//! Component tests of the console, run by wasm-bindgen-test in headless Chromium.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use leptos_router::params::ParamsMap;
use switchboard_core::pane::FilterMode;
use switchboard_web::api::MailRow;
use switchboard_web::components::route::{query_value, route_param};
use switchboard_web::engine::{inspect, inspected, Engine};
use switchboard_web::link::{decode_request_bytes, EngineLink};
use switchboard_web::markdown::{is_safe_url, render};
use switchboard_web::model::{Inspection, TrafficKey, Verdict};
use switchboard_web::percent::encode;
use switchboard_web::routes::{self, Source};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "browser/folder.rs"]
mod folder;

/// A fresh element of the test page.
fn host() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

/// Mounts the app into a fresh element of the test page and returns that element. The
/// engine runs in the page (the test server has no worker script).
fn mount_app() -> web_sys::HtmlElement {
    let host = host();
    let mut engine = Engine::new();
    let link = EngineLink::inline(move |bytes| {
        engine.handle(decode_request_bytes(bytes).expect("a request the page wrote"))
    });
    leptos::mount::mount_to(
        host.clone(),
        move || view! { <switchboard_web::App link /> },
    )
    .forget();
    host
}

/// Mounts the app at `path` (the router reads the location when it starts).
fn mount_app_at(path: &str) -> web_sys::HtmlElement {
    let window = web_sys::window().unwrap();
    window
        .history()
        .unwrap()
        .push_state_with_url(&JsValue::NULL, "", Some(path))
        .unwrap();
    mount_app()
}

/// Lets timers, futures and the reactive system run for `ms` milliseconds.
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Waits until `selector` matches inside `host` (up to 5 s).
async fn wait_for(host: &web_sys::HtmlElement, selector: &str) -> web_sys::Element {
    for _ in 0..100 {
        if let Some(el) = host.query_selector(selector).unwrap() {
            return el;
        }
        sleep(50).await;
    }
    panic!("{selector} did not appear");
}

fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn shell_shows_the_app_name_the_connect_form_and_the_demo_entry() {
    let host = mount_app_at("/");
    wait_for(&host, "label[for=server-url]").await;
    let heading = host.query_selector("h1").unwrap().expect("an h1");
    assert_eq!(heading.text_content().unwrap(), "Switchboard");
    let url = host
        .query_selector("label[for=server-url]")
        .unwrap()
        .expect("a server URL label");
    assert_eq!(url.text_content().unwrap(), "Server URL");
    assert!(host
        .query_selector("form input#server-url[type=url]")
        .unwrap()
        .is_some());
    let demo = host
        .query_selector("a[href='/demo']")
        .unwrap()
        .expect("a demo link");
    assert_eq!(demo.text_content().unwrap(), "Open the demo");
    host.remove();
}

#[wasm_bindgen_test]
async fn the_demo_inbox_renders_only_visible_rows_and_the_pending_count() {
    let host = mount_app_at("/demo/p/pair-lab/a/GreenCastle/inbox");
    wait_for(&host, "li.row").await;
    let pending: u32 = texts(&host, ".pending-count")[0].parse().unwrap();
    assert!(pending > 0, "the demo has pending acknowledgements");
    let shown = host.query_selector_all("li.row").unwrap().length();
    let summary = texts(&host, ".summary")[0].clone();
    let total: u32 = summary
        .split(" · ")
        .nth(1)
        .unwrap()
        .trim_end_matches(" shown")
        .parse()
        .unwrap();
    assert!(
        total > shown,
        "virtualized: {shown} rows in the DOM for {total}"
    );
    assert_eq!(texts(&host, "nav.filters a[aria-current=page]"), ["All"]);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_unacked_filter_keeps_only_rows_waiting_for_an_acknowledgement() {
    let host = mount_app_at("/demo/p/pair-lab/a/GreenCastle/inbox?filter=unacked_only");
    wait_for(&host, "li.row").await;
    let pending = texts(&host, ".pending-count")[0].clone();
    assert_eq!(
        texts(&host, "nav.filters a[aria-current=page]"),
        ["Unacked only"]
    );
    let states = texts(&host, "li.row .ack-state");
    assert!(states.iter().all(|s| s == "ack required"), "{states:?}");
    // The list is virtualized: the summary counts what the filter keeps.
    let summary = texts(&host, ".summary")[0].clone();
    let kept = summary
        .split(" · ")
        .nth(1)
        .unwrap()
        .trim_end_matches(" shown");
    assert_eq!(kept, pending);
    assert!(!states.is_empty() && states.len() <= pending.parse().unwrap());
    host.remove();
}

fn message(subject: &str, body: &str) -> MailRow {
    MailRow {
        id: 1,
        subject: subject.into(),
        from: "BlueLake".into(),
        to: vec!["GreenCastle".into()],
        created_ts: "2026-11-21T00:00:00+00:00".into(),
        importance: "normal".into(),
        body_md: body.into(),
        ..MailRow::default()
    }
}

fn verdict(message: &MailRow) -> Inspection {
    inspect(message, None, false)
}

#[wasm_bindgen_test]
fn the_badge_names_family_type_and_each_issue_path() {
    let valid = message(
        "PROGRESS",
        r#"{"message_type": "PROGRESS_UPDATE", "agent_id": "agent-7f3a", "task_id": "TASK-042",
            "timestamp": "2026-01-15T10:00:00Z", "status": "testing", "progress_percent": 40,
            "current_activity": "Running tests"}"#,
    );
    assert_eq!(verdict(&valid).verdict, Verdict::Valid);
    let invalid = message("PROGRESS", &valid.body_md.replace("40", "140"));
    let host = host();
    let inspection = verdict(&invalid);
    let key = TrafficKey {
        src: Source::Demo,
        project: "p".into(),
    };
    let html = inspected(&inspection, &key, false).0;
    leptos::mount::mount_to(host.clone(), move || view! { <div inner_html=html></div> }).forget();
    let text = host.text_content().unwrap();
    assert!(text.starts_with("Invalid · agent-po"), "{text}");
    assert_eq!(texts(&host, ".issues code"), ["/progress_percent"]);
    assert!(text.contains("(out_of_range)"), "{text}");
    assert_eq!(plain_verdict().verdict, Verdict::Plain);
    host.remove();
}

fn plain_verdict() -> Inspection {
    verdict(&message("hello", "Just **text**, no protocol."))
}

/// Payloads that try to run script or load something through a message body.
const XSS_CORPUS: &[&str] = &[
    "<script>window.__xss = 1</script>",
    "<img src=x onerror=\"window.__xss = 1\">",
    "<svg onload=\"window.__xss = 1\"></svg>",
    "<iframe src=\"javascript:window.__xss=1\"></iframe>",
    "[click](javascript:window.__xss=1)",
    "[click](JaVaScRiPt:window.__xss=1)",
    "[click](  javascript:window.__xss=1)",
    "[click](java\tscript:window.__xss=1)",
    "[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)",
    "[click](vbscript:msgbox(1))",
    "<javascript:window.__xss=1>",
    "![x](javascript:window.__xss=1)",
    "![x](https://tracker.example/pixel.png)",
    "<a href=\"javascript:window.__xss=1\">raw</a>",
    "<div style=\"background:url(javascript:window.__xss=1)\">x</div>",
    "<object data=\"javascript:window.__xss=1\"></object>",
    "<embed src=\"javascript:window.__xss=1\">",
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>",
    "<details open ontoggle=\"window.__xss=1\">",
    "<body onload=\"window.__xss=1\">",
    "<input autofocus onfocus=\"window.__xss=1\">",
    "[x](\"onmouseover=\"window.__xss=1)",
    "[ref]\n\n[ref]: javascript:window.__xss=1",
    "<form action=\"javascript:window.__xss=1\"><button>go</button></form>",
    "<!-- --><script>window.__xss=1</script><!-- -->",
    "```html\n<script>window.__xss=1</script>\n```",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:window.__xss=1\">",
    "<base href=\"javascript:window.__xss=1//\">",
];

/// Elements pulldown-cmark itself produces; anything else came from the message.
const ALLOWED: &[&str] = &[
    "DIV",
    "P",
    "A",
    "STRONG",
    "EM",
    "CODE",
    "PRE",
    "UL",
    "OL",
    "LI",
    "BLOCKQUOTE",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "H6",
    "HR",
    "BR",
    "DEL",
    "TABLE",
    "THEAD",
    "TBODY",
    "TR",
    "TH",
    "TD",
    "INPUT",
];

#[wasm_bindgen_test]
async fn no_payload_of_the_xss_corpus_runs_or_leaves_active_markup() {
    assert!(XSS_CORPUS.len() >= 20);
    let window = web_sys::window().unwrap();
    for payload in XSS_CORPUS {
        let host = host();
        let html = render(payload);
        // As the message view inserts it (`engine::html::message`).
        leptos::mount::mount_to(
            host.clone(),
            move || view! { <div class="body" inner_html=html></div> },
        )
        .forget();
        sleep(20).await;
        let all = host.query_selector_all(".body *").unwrap();
        for i in 0..all.length() {
            let el: web_sys::Element = all.item(i).unwrap().unchecked_into();
            let tag = el.tag_name();
            assert!(
                ALLOWED.contains(&tag.as_str()),
                "{payload}: <{tag}> in the output"
            );
            let names = el.get_attribute_names();
            for j in 0..names.length() {
                let name = names.get(j).as_string().unwrap().to_ascii_lowercase();
                assert!(!name.starts_with("on"), "{payload}: {name} attribute");
                assert!(
                    !matches!(
                        name.as_str(),
                        "src" | "style" | "action" | "formaction" | "srcdoc"
                    ),
                    "{payload}: {name}"
                );
            }
            if tag == "A" {
                let href = el.get_attribute("href").unwrap_or_default();
                assert!(is_safe_url(&href), "{payload}: href {href}");
            }
            if tag == "INPUT" {
                assert_eq!(
                    el.get_attribute("type").as_deref(),
                    Some("checkbox"),
                    "{payload}"
                );
            }
        }
        host.remove();
    }
    sleep(100).await;
    let flag = js_sys::Reflect::get(&window, &JsValue::from_str("__xss")).unwrap();
    assert!(flag.is_undefined(), "a payload ran");
}

/// Ids that stress URL encoding: the characters URLs reserve, escapes that look like
/// escapes (`%2F`, `%25`, `%41`), a lone `%`, `+`, non-ASCII; then strings drawn from
/// them with a fixed LCG.
fn url_stress_ids() -> Vec<String> {
    let pieces = [
        "%", "/", "?", "#", " ", "+", "&", "=", ";", "%2F", "%25", "%41", "%2", "%zz", "a", "Z",
        "0", "-", ".", "ü", "😀", "\\", "\"", "'", "<", ">", "..", "~",
    ];
    let mut ids: Vec<String> = pieces.iter().map(|p| (*p).to_string()).collect();
    ids.push("a%2Fb c?d#e/f%".to_string());
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..600 {
        let mut id = String::new();
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        for _ in 0..(seed >> 60) + 1 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            id.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
        }
        ids.push(id);
    }
    ids
}

#[wasm_bindgen_test]
fn url_components_round_trip_through_the_routers_own_decoding() {
    for id in url_stress_ids() {
        // A path segment: leptos_router's ParamsMap::insert decodes it (decodeURIComponent),
        // and the views take the result as it is.
        let mut params = ParamsMap::new();
        params.insert("thread", encode(&id));
        assert_eq!(route_param(&params, "thread"), id, "path parameter");
        // A query value: read once from the raw query, as the browser's URLSearchParams
        // reads it.
        let search = format!("?filter=thread_only&thread={}&x=1", encode(&id));
        assert_eq!(query_value(&search, "thread").as_deref(), Some(id.as_str()));
        let browser = web_sys::UrlSearchParams::new_with_str(&search).unwrap();
        assert_eq!(
            browser.get("thread").as_deref(),
            Some(id.as_str()),
            "URLSearchParams"
        );
    }
    // On hand-written queries (raw `+`, invalid escapes, repeats) the console's reading
    // agrees with the browser's.
    for search in [
        "?q=a+b",
        "?q=%zz%",
        "?q=1&q=2",
        "?q",
        "?q=%E2%82",
        "?a=1&q=%2B%20+",
    ] {
        let browser = web_sys::UrlSearchParams::new_with_str(search).unwrap();
        assert_eq!(query_value(search, "q"), browser.get("q"), "{search}");
    }
}

#[wasm_bindgen_test]
async fn ids_with_url_characters_open_as_themselves() {
    let thread = "a%2Fb c?d#e/f%";
    let host = mount_app_at(&routes::thread(
        Source::Demo,
        "pair-lab",
        "BlueLake",
        thread,
    ));
    let heading = wait_for(&host, "#thread-title").await;
    assert_eq!(heading.text_content().unwrap(), format!("Thread {thread}"));

    let url = routes::mailbox(
        Source::Demo,
        "pair-lab",
        "BlueLake",
        false,
        FilterMode::ThreadOnly,
        Some(thread),
    );
    let host = mount_app_at(&url);
    let link = wait_for(&host, "p.summary a").await;
    assert_eq!(link.text_content().unwrap(), thread);
    // Following the link keeps the path's encoding in the address bar (a reload opens the
    // same thread).
    link.unchecked_ref::<web_sys::HtmlElement>().click();
    sleep(200).await;
    let location = web_sys::window().unwrap().location();
    assert_eq!(
        location.pathname().unwrap(),
        routes::thread(Source::Demo, "pair-lab", "BlueLake", thread)
    );
}

#[wasm_bindgen_test]
async fn the_sessions_view_folds_the_demo_traffic_in_the_page_engine() {
    let host = mount_app_at("/demo/p/pair-lab/sessions");
    wait_for(&host, "tr.session-row[data-session='pair-104']").await;
    let tampered = texts(&host, "tr.session-row[data-session='pair-104'] .integrity");
    assert_eq!(tampered, ["tampered: tmp/pair_1767104000_tests.py"]);
    let merged = host
        .query_selector("tr.session-row[data-session='pair-105']")
        .unwrap()
        .unwrap();
    assert_eq!(
        merged.get_attribute("data-status").as_deref(),
        Some("merged")
    );
    assert!(texts(&host, ".protocol-nav a")
        .iter()
        .any(|t| t.starts_with("Checkpoints (")));
    host.remove();
}
