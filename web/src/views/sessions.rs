//! Every Pair Protocol session in the project's traffic: phase, planner and builder, the
//! open checkpoint, change orders, the contract's integrity (naming the tampered files),
//! and a live countdown to the next timeout with what happens when it expires (the table as
//! the engine writes it: `engine::html::sessions`). The keys `j`/`k` move the selection and
//! `Enter` opens the session. The selection is a session, not a row number: rows that arrive
//! above it (the mail read page by page, new mail) leave it on the session it was on.

use super::common::{moved_selection, typing_in_field, NavBar};
use crate::ask;
use crate::components::html::EngineHtml;
use crate::components::route::Here;
use crate::components::time::REFRESH_MS;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::routes;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use wasm_bindgen::JsCast;

/// The sessions view.
#[component]
pub fn SessionsView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let now = here.clock();
    let all = RwSignal::new(false);
    let data = engine_resource(here, state, move || ask::Sessions {
        key: key.get(),
        now_ms: now.get() / REFRESH_MS * REFRESH_MS,
        reveal: here.session.reveal.get(),
        all: all.get(),
    });
    let ids = Memo::new(move |_| match data.get() {
        Some(Some(Ok(list))) => list.ids,
        _ => Vec::<String>::new(),
    });
    // The session selected (`None`: none chosen yet, the first row is), and its row in the
    // newest answer (the first row when it is no longer listed).
    let selected = RwSignal::new(None::<String>);
    let row = Memo::new(move |_| {
        selected.with(|s| {
            let at = s
                .as_ref()
                .and_then(|s| ids.with(|ids| ids.iter().position(|id| id == s)));
            at.unwrap_or(0)
        })
    });
    let select = move |i: usize| {
        if let Some(id) = ids.with_untracked(|ids| ids.get(i).cloned()) {
            selected.set(Some(id));
        }
    };
    // The engine's table carries no selection: mark the selected row whenever the table is
    // drawn again (a new answer) or the selection moves.
    let table = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let (i, _) = (row.get(), data.get());
        // After the frame's rendering: a new answer's table is in the page by then.
        request_animation_frame(move || {
            if let Some(table) = table.get_untracked() {
                mark_selected(&table, i);
            }
        });
    });
    let navigate = use_navigate();
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in_field(&ev) {
            return;
        }
        if let Some(to) = moved_selection(&ev, row.get_untracked(), ids.with_untracked(Vec::len)) {
            select(to);
            return;
        }
        if ev.key() != "Enter" {
            return;
        }
        if let Some(id) = ids.with_untracked(|ids| ids.get(row.get_untracked()).cloned()) {
            ev.prevent_default();
            let (src, project) = (here.src.get_untracked(), here.project.get_untracked());
            navigate(&routes::session(src, &project, &id), Default::default());
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <NavBar />
        <section class="sessions" aria-labelledby="sessions-title">
            <h2 id="sessions-title">{move || format!("Sessions in {}", here.project.get())}</h2>
            <ProtocolNav here current="sessions" />
            <TrafficNote state />
            <div node_ref=table on:click=move |ev| {
                if let Some(i) = clicked_row(&ev) {
                    select(i);
                }
            }>
                {answer(data, move |list| {
                    let (total, shown) = (list.total, list.ids.len());
                    view! {
                        <EngineHtml html=list.html now />
                        {(shown < total).then(|| view! {
                            <p><button type="button" class="secondary" on:click=move |_| all.set(true)>
                                {format!("Show all {total} sessions ({shown} shown)")}
                            </button></p>
                        })}
                        <p class="hint">"Keys: j/k move · Enter opens the session"</p>
                    }.into_any()
                })}
            </div>
        </section>
    }
}

/// Marks row `selected` of the table below `table` (`selected` class, `aria-current`).
fn mark_selected(table: &web_sys::Element, selected: usize) {
    let rows = table.get_elements_by_class_name("session-row");
    for i in 0..rows.length() {
        let Some(row) = rows.item(i) else {
            continue;
        };
        let class = row.get_attribute("class").unwrap_or_default();
        let base = class.replace(" selected", "");
        if i as usize == selected {
            let _ = row.set_attribute("class", &format!("{base} selected"));
            let _ = row.set_attribute("aria-current", "true");
        } else {
            let _ = row.set_attribute("class", &base);
            let _ = row.remove_attribute("aria-current");
        }
    }
}

/// The index of the session row a click landed in.
fn clicked_row(ev: &leptos::ev::MouseEvent) -> Option<usize> {
    let target: web_sys::Element = ev.target()?.dyn_into().ok()?;
    target
        .closest("tr.session-row")
        .ok()??
        .get_attribute("data-index")?
        .parse()
        .ok()
}
