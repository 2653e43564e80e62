//! Operator mode: recent mail of every project and agent in one list, where the server offers
//! `/mail/api/unified-inbox` (no per-agent tokens needed); each recipient links to its inbox.

use super::common::NavBar;
use crate::components::load::from_backend;
use crate::components::route::Here;
use crate::components::secrets::mask;
use crate::components::status::ErrorNote;
use crate::routes;
use leptos::prelude::*;

/// The operator's unified inbox.
#[component]
pub fn OperatorView() -> impl IntoView {
    let here = Here::new();
    let data = from_backend(here, move |backend| {
        here.session.reveal.track();
        async move {
            let mut rows = backend.unified_inbox().await?;
            mask(
                here.session,
                rows.iter_mut().map(|r| &mut r.subject).collect(),
            )
            .await?;
            Ok(rows)
        }
    });
    view! {
        <NavBar />
        <section aria-labelledby="operator-title">
            <h2 id="operator-title">"All mail (operator)"</h2>
            {move || match data.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(rows))) => {
                    let src = here.src.get();
                    view! {
                        <p class="summary">{format!("{} recent messages", rows.len())}</p>
                        <table class="operator">
                            <thead><tr><th scope="col">"Subject"</th><th scope="col">"Project"</th><th scope="col">"From"</th><th scope="col">"To"</th><th scope="col">"Sent"</th></tr></thead>
                            <tbody>
                                {rows.into_iter().map(|row| {
                                    let to = row.recipients.iter().map(|agent| view! {
                                        <a href=routes::agent_page(src, &row.project, agent, "inbox")>{agent.clone()}</a>
                                        " "
                                    }).collect_view();
                                    view! {
                                        <tr data-importance=row.importance.clone()>
                                            <th scope="row"><a href=routes::message(src, &row.project, None, row.id)>{row.subject.clone()}</a></th>
                                            <td><a href=routes::project(src, &row.project)>{row.project.clone()}</a></td>
                                            <td>{row.from.clone()}</td>
                                            <td>{to}</td>
                                            <td><time>{row.created_ts.clone()}</time></td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any()
                }
                _ => view! { <p class="loading">"Loading…"</p> }.into_any(),
            }}
        </section>
    }
}
