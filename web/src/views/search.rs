//! Full-text search in a project (`?q=` in the URL).

use super::common::NavBar;
use crate::components::load::from_backend;
use crate::components::route::{query_param, Here};
use crate::components::secrets::mask;
use crate::components::status::ErrorNote;
use crate::routes;
use leptos::prelude::*;

/// The search results view.
#[component]
pub fn SearchView() -> impl IntoView {
    let here = Here::new();
    let query = query_param("q");
    let q = Memo::new(move |_| query.get().unwrap_or_default());
    let data = from_backend(here, move |backend| {
        let (project, q) = (here.project.get(), q.get());
        here.session.reveal.track();
        async move {
            if q.trim().is_empty() {
                return Ok(Vec::new());
            }
            let mut hits = backend.search(&project, &q).await?;
            mask(
                here.session,
                hits.iter_mut().map(|h| &mut h.subject).collect(),
            )
            .await?;
            Ok(hits)
        }
    });
    view! {
        <NavBar />
        <section aria-labelledby="search-title">
            <h2 id="search-title">{move || format!("Search: {}", q.get())}</h2>
            {move || match data.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(hits))) => {
                    let (src, project) = (here.src.get(), here.project.get());
                    view! {
                        <p class="summary">{format!("{} results", hits.len())}</p>
                        <ol class="results">
                            {hits.into_iter().map(|hit| view! {
                                <li>
                                    <a href=routes::message(src, &project, None, hit.id)>{hit.subject.clone()}</a>
                                    <span class="from">{hit.from}</span>
                                    <time>{hit.created_ts}</time>
                                    {hit.thread_id.map(|t| view! { <span class="thread">{t}</span> })}
                                </li>
                            }).collect_view()}
                        </ol>
                    }.into_any()
                }
                _ => view! { <p class="loading">"Searching…"</p> }.into_any(),
            }}
        </section>
    }
}
