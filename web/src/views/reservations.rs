//! A project's file reservations, with conflicts (active, different holders, overlapping
//! paths, at least one exclusive) flagged. An active reservation can be released (as its
//! holder), e.g. to end a conflict.

use super::common::{run_action, NavBar, Progress, ProgressNote};
use crate::api::reservation_conflicts;
use crate::components::load::from_backend;
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use leptos::prelude::*;

/// The reservations view.
#[component]
pub fn ReservationsView() -> impl IntoView {
    let here = Here::new();
    let data = from_backend(here, move |backend| {
        let project = here.project.get();
        async move { backend.reservations(&project).await }
    });
    let progress = RwSignal::new(Progress::Idle);
    let release = move |agent: String, id: u64| {
        let project = here.project.get_untracked();
        let busy = format!("Releasing reservation {id}…");
        run_action(here, progress, busy, move |backend| async move {
            backend.release_reservation(&project, &agent, id).await?;
            Ok(format!("Reservation {id} released."))
        });
    };
    view! {
        <NavBar />
        <section aria-labelledby="reservations-title">
            <h2 id="reservations-title">{move || format!("File reservations in {}", here.project.get())}</h2>
            <ProgressNote progress />
            {move || match data.get() {
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(rows))) => {
                    let conflicts = reservation_conflicts(&rows);
                    view! {
                        <p class="summary">{format!("{} reservations, {} conflicts", rows.len(), conflicts.len())}</p>
                        <table class="reservations">
                            <thead><tr><th scope="col">"Path"</th><th scope="col">"Holder"</th><th scope="col">"Mode"</th><th scope="col">"Reason"</th><th scope="col">"Expires"</th><th scope="col">"Conflicts"</th><th scope="col">"Action"</th></tr></thead>
                            <tbody>
                                {rows.iter().map(|r| {
                                    let with: Vec<String> = conflicts.iter()
                                        .filter_map(|(a, b)| if *a == r.id { Some(*b) } else if *b == r.id { Some(*a) } else { None })
                                        .filter_map(|other| rows.iter().find(|x| x.id == other))
                                        .map(|x| format!("{} ({})", x.agent, x.path_pattern))
                                        .collect();
                                    let conflict = !with.is_empty();
                                    view! {
                                        <tr class:conflict=conflict class:released=r.released>
                                            <th scope="row"><code>{r.path_pattern.clone()}</code></th>
                                            <td>{r.agent.clone()}</td>
                                            <td>{if r.exclusive { "exclusive" } else { "shared" }}{r.released.then_some(" · released")}</td>
                                            <td>{r.reason.clone()}</td>
                                            <td>{r.expires_ts.clone()}</td>
                                            <td>{conflict.then(|| view! { <strong class="flag">"conflict"</strong> " " })}{with.join(", ")}</td>
                                            <td>{(!r.released).then(|| {
                                                let (agent, id) = (r.agent.clone(), r.id);
                                                let label = format!("Release {} held by {}", r.path_pattern, r.agent);
                                                view! {
                                                    <button type="button" aria-label=label
                                                        disabled=move || matches!(progress.get(), Progress::Busy(_))
                                                        on:click=move |_| release(agent.clone(), id)>"Release"</button>
                                                }
                                            })}</td>
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
