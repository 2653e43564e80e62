//! A read-only panel the engine wrote (`engine::html`: every text escaped), inserted as it
//! is; the countdowns it holds tick with the source's clock.

use crate::model::Html;
use crate::words::countdown;
use leptos::prelude::*;

/// The panel `html`; given `now`, its countdowns (`.countdown` with `data-at`) tick with it.
#[component]
pub fn EngineHtml(
    /// The panel.
    html: Html,
    /// The source's clock.
    #[prop(optional)]
    now: Option<ReadSignal<i64>>,
) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    if let Some(now) = now {
        Effect::new(move |_| {
            let now_ms = now.get();
            if let Some(panel) = node.get() {
                tick(&panel, now_ms);
            }
        });
    }
    view! { <div class="engine-html" node_ref=node inner_html=html.0></div> }
}

/// Sets every countdown below `panel` to `now_ms`.
fn tick(panel: &web_sys::Element, now_ms: i64) {
    let countdowns = panel.get_elements_by_class_name("countdown");
    for i in 0..countdowns.length() {
        let Some(element) = countdowns.item(i) else {
            continue;
        };
        let Some(at_ms) = element
            .get_attribute("data-at")
            .and_then(|at| at.parse::<i64>().ok())
        else {
            continue;
        };
        element.set_text_content(Some(&countdown(at_ms, now_ms)));
        let class = if now_ms > at_ms {
            "countdown overdue"
        } else {
            "countdown"
        };
        let _ = element.set_attribute("class", class);
    }
}
