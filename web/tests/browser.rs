//! Component tests of the console, run by wasm-bindgen-test in headless Chromium.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app into a fresh element of the test page and returns that element.
fn mount_app() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(host.clone(), switchboard_web::App).forget();
    host
}

#[wasm_bindgen_test]
fn shell_shows_the_app_name_the_connect_form_and_the_demo_entry() {
    let host = mount_app();
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
}
