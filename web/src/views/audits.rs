//! Audit reports: those carried in the project's mail (status, severity, the scheming flag,
//! each finding with its `file:line`), and an audit run in the browser by the core from a
//! pasted diff against a session's contract.
//!
//! The contract's files are not in the mail (messages name the spec and tests artifacts,
//! and carry at most their fingerprints), so the reviewer supplies them: pasted, or read
//! from disk (a file picker, several files or a folder at once; paths are taken relative to
//! the folder picked). The demo hands over the contract and diff its sessions were audited
//! with. Accepted change orders' dependencies go in "Approved dependencies".

use super::common::NavBar;
use crate::ask::{self, Audits};
use crate::components::html::EngineHtml;
use crate::components::route::{query_param, Here};
use crate::components::status::Problem;
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::link::demo::contract;
use crate::model::{AuditRun, Html, TrafficKey};
use crate::routes::Source;
use leptos::prelude::*;

/// The audits view.
#[component]
pub fn AuditsView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let data = engine_resource(here, state, move || Audits {
        key: key.get(),
        reveal: here.session.reveal.get(),
    });
    view! {
        <NavBar />
        <section class="audits" aria-labelledby="audits-title">
            <h2 id="audits-title">{move || format!("Audit reports in {}", here.project.get())}</h2>
            <ProtocolNav here current="audits" />
            <TrafficNote state />
            {answer(data, move |html| view! { <EngineHtml html /> }.into_any())}
        </section>
        <RunAudit here />
    }
}

/// The form that audits a pasted diff against a contract, in the browser.
#[component]
fn RunAudit(here: Here) -> impl IntoView {
    let session = RwSignal::new(query_param("session").get_untracked().unwrap_or_default());
    let files: RwSignal<Vec<(RwSignal<String>, RwSignal<String>)>> = RwSignal::new(Vec::new());
    let diff = RwSignal::new(String::new());
    let approved = RwSignal::new(String::new());
    let result: RwSignal<Option<Result<Html, String>>> = RwSignal::new(None);
    let note = RwSignal::new(String::new());
    let add_file = move |path: String, text: String| {
        files.update(|f| f.push((RwSignal::new(path), RwSignal::new(text))));
    };
    let load_demo = move |_| {
        let link = here.session.link();
        let thread = session.get_untracked();
        leptos::task::spawn_local(async move {
            match contract(&link, &thread).await {
                Ok(Some((contract, patch))) => {
                    files.set(Vec::new());
                    for (path, text) in contract {
                        add_file(path, text);
                    }
                    diff.set(patch);
                    note.set(format!("Loaded the demo's contract and diff for {thread}."));
                }
                Ok(None) => note.set(format!(
                    "The demo has no contract for {thread:?}; try pair-102, pair-104 or pair-108."
                )),
                Err(e) => note.set(e.to_string()),
            }
        });
    };
    let run = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let run = AuditRun {
            session: Some(session.get_untracked()).filter(|s| !s.trim().is_empty()),
            contract: files
                .get_untracked()
                .iter()
                .map(|(p, t)| (p.get_untracked().trim().to_string(), t.get_untracked()))
                .filter(|(p, _)| !p.is_empty())
                .collect(),
            diff: diff.get_untracked(),
            approved: approved
                .get_untracked()
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        };
        let request = ask::RunAudit {
            key: TrafficKey {
                src: here.src.get_untracked(),
                project: here.project.get_untracked(),
            },
            run,
            reveal: here.session.reveal.get_untracked(),
        };
        let link = here.session.link();
        result.set(None);
        leptos::task::spawn_local(async move {
            result.set(Some(link.ask(request).await));
        });
    };
    let pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(list) = input.files() else { return };
        for i in 0..list.length() {
            let Some(file) = list.get(i) else { continue };
            let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
                .ok()
                .and_then(|v| v.as_string())
                .filter(|p| !p.is_empty());
            // A folder pick gives `folder/tests/x.py`: the contract path is below the folder.
            let path = relative
                .map(|p| {
                    p.split_once('/')
                        .map_or(p.clone(), |(_, rest)| rest.to_string())
                })
                .unwrap_or_else(|| file.name());
            leptos::task::spawn_local(async move {
                if let Ok(text) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    add_file(path, text.as_string().unwrap_or_default());
                }
            });
        }
    };
    view! {
        <section class="run-audit" aria-labelledby="run-audit-title">
            <h2 id="run-audit-title">"Run an audit"</h2>
            <p class="muted">"The core's audit of a builder's diff against the contract's files, in this browser. Nothing is sent."</p>
            <form class="audit-form" on:submit=run>
                <label for="audit-session">"Session (its id or thread)"</label>
                <input id="audit-session" type="text" bind:value=session />
                {move || (here.src.get() == Source::Demo).then(|| view! {
                    <button type="button" class="secondary" on:click=load_demo>"Load the demo's contract and diff for this session"</button>
                })}
                <fieldset class="contract-files">
                    <legend>"Contract files (spec and tests, with their repository paths)"</legend>
                    {move || files.get().into_iter().enumerate().map(|(i, (path, text))| view! {
                        <div class="contract-file">
                            <label for=format!("contract-path-{i}")>{format!("Path of file {}", i + 1)}</label>
                            <input id=format!("contract-path-{i}") type="text" bind:value=path />
                            <label for=format!("contract-text-{i}")>{format!("Text of file {}", i + 1)}</label>
                            <textarea id=format!("contract-text-{i}") rows="4" bind:value=text></textarea>
                            <button type="button" class="secondary" on:click=move |_| files.update(|f| { f.remove(i); })>
                                {format!("Remove file {}", i + 1)}
                            </button>
                        </div>
                    }).collect_view()}
                    <button type="button" class="secondary" on:click=move |_| add_file(String::new(), String::new())>"Add a file"</button>
                    <label for="contract-pick">"Add files from disk"</label>
                    <input id="contract-pick" type="file" multiple on:change=pick />
                    <label for="contract-folder">"Add a folder from disk (paths below it)"</label>
                    <input id="contract-folder" type="file" multiple prop:webkitdirectory=true on:change=pick />
                </fieldset>
                <label for="audit-diff">"Diff (git diff or unified diff)"</label>
                <textarea id="audit-diff" rows="10" spellcheck="false" bind:value=diff></textarea>
                <label for="audit-approved">"Approved dependencies (comma-separated)"</label>
                <input id="audit-approved" type="text" bind:value=approved />
                <button type="submit">"Run the audit"</button>
            </form>
            <p class="muted" role="status">{move || note.get()}</p>
            {move || match result.get() {
                None => ().into_any(),
                Some(Err(text)) => view! { <Problem text /> }.into_any(),
                Some(Ok(html)) => view! {
                    <div class="audit-result">
                        <h3>"Result"</h3>
                        <EngineHtml html />
                    </div>
                }.into_any(),
            }}
        </section>
    }
}
