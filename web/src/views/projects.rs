//! The projects of a source (`/demo` or `/live`), with what the probe found.

use super::common::NavBar;
use crate::components::load::from_backend;
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use crate::routes;
use leptos::prelude::*;

/// The project list.
#[component]
pub fn ProjectsView() -> impl IntoView {
    let here = Here::new();
    let data = from_backend(here, |backend| async move {
        let projects = backend.projects().await?;
        Ok((backend.capabilities(), projects))
    });
    view! {
        <NavBar />
        <section aria-labelledby="projects-title">
            <h2 id="projects-title">"Projects"</h2>
            {move || match data.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok((caps, projects)))) => {
                    let src = here.src.get();
                    view! {
                        <p class="server-info">
                            {format!("Backend: {}", caps.variant.label())}
                            {(!caps.endpoint.is_empty()).then(|| format!(
                                " at {} ({} tools, {} resource templates)",
                                caps.endpoint, caps.tool_count, caps.resource_templates
                            ))}
                        </p>
                        <p><a href=routes::queue(src)>"Open checkpoints on this server"</a>" (every project, oldest first)"</p>
                        {caps.operator.then(|| view! {
                            <p><a href=format!("/{src}/operator")>"Operator mode: all agents' mail"</a></p>
                        })}
                        {projects.is_empty().then(|| view! { <p>"No projects on this server yet."</p> })}
                        <ul class="cards">
                            {projects.into_iter().map(|p| view! {
                                <li>
                                    <a href=routes::project(src, &p.slug)>{p.slug.clone()}</a>
                                    <span class="muted">{p.human_key}</span>
                                </li>
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }
                _ => view! { <p class="loading">"Loading…"</p> }.into_any(),
            }}
        </section>
    }
}
