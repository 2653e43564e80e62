//! A project's agents, with links to each mailbox and to the project's pages (the protocol
//! views, reservations, compose, search).

use super::common::NavBar;
use crate::api::{Agent, Capabilities};
use crate::components::load::{from_backend, Data};
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use crate::routes;
use leptos::prelude::*;

/// The route's project's agents, with what the server offers (the agents and compose views).
pub fn agents_data(here: Here) -> Data<(Capabilities, Vec<Agent>)> {
    from_backend(here, move |backend| {
        let project = here.project.get();
        async move {
            let agents = backend.agents(&project).await?;
            Ok((backend.capabilities(), agents))
        }
    })
}

/// The agent list of a project.
#[component]
pub fn AgentsView() -> impl IntoView {
    let here = Here::new();
    let data = agents_data(here);
    let link = move |page: &str| routes::project_page(here.src.get(), &here.project.get(), page);
    view! {
        <NavBar />
        <section aria-labelledby="agents-title">
            <h2 id="agents-title">{move || format!("Agents of {}", here.project.get())}</h2>
            <p class="links protocol-links">
                <a href=move || link("sessions")>"Sessions"</a>
                " · "
                <a href=move || link("checkpoints")>"Checkpoints"</a>
                " · "
                <a href=move || link("audits")>"Audit reports"</a>
                " · "
                <a href=move || link("tasks")>"Task boards"</a>
            </p>
            <p class="links">
                <a href=move || link("reservations")>"File reservations"</a>
                " · "
                <a href=move || link("compose")>"Compose"</a>
                " · "
                <a href=move || link("search")>"Search"</a>
            </p>
            {move || match data.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok((_, agents)))) => {
                    let (src, project) = (here.src.get(), here.project.get());
                    view! {
                        <table class="agents">
                            <thead><tr><th scope="col">"Agent"</th><th scope="col">"Program"</th><th scope="col">"Task"</th><th scope="col">"Unread"</th><th scope="col">"Mail"</th></tr></thead>
                            <tbody>
                                {agents.into_iter().map(|a| view! {
                                    <tr>
                                        <th scope="row"><a href=routes::agent_page(src, &project, &a.name, "inbox")>{a.name.clone()}</a></th>
                                        <td>{format!("{} · {}", a.program, a.model)}</td>
                                        <td>{a.task.clone()}</td>
                                        <td>{a.unread.map(|n| n.to_string()).unwrap_or_default()}</td>
                                        <td>
                                            <a href=routes::agent_page(src, &project, &a.name, "outbox")>"outbox"</a>
                                            " · "
                                            <a href=routes::agent_page(src, &project, &a.name, "contacts")>"contacts"</a>
                                        </td>
                                    </tr>
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
