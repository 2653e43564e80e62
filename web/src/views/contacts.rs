//! An agent's contacts, as the pane normalizes them, with attention flags for every contact
//! that is not `approved` (the pane's `contact_attention_required` events).

use super::common::NavBar;
use super::mailbox::{mailbox_resource, snapshot};
use crate::api::{BackendError, Stream};
use crate::components::route::Here;
use crate::components::status::ErrorNote;
use leptos::prelude::*;
use switchboard_core::pane::FilterMode;

/// The contacts view.
#[component]
pub fn ContactsView() -> impl IntoView {
    let here = Here::new();
    let data = mailbox_resource(here);
    let state = Memo::new(move |_| {
        data.get().flatten().map(|loaded| {
            let mailbox = loaded?;
            let snap = snapshot(&mailbox, FilterMode::All, None).map_err(BackendError::Invalid)?;
            Ok((snap, mailbox.notes))
        })
    });
    view! {
        <NavBar />
        <section aria-labelledby="contacts-title">
            <h2 id="contacts-title">{move || format!("Contacts of {}", here.agent.get())}</h2>
            {move || match state.get() {
                None => view! { <p class="loading">"Loading…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorNote error /> }.into_any(),
                Some(Ok((snap, notes))) => view! {
                    {notes.into_iter().filter(|n| n.stream == Stream::Contacts).map(|n| view! { <p class="warning">{n.to_string()}</p> }).collect_view()}
                    {snap.contacts.is_empty().then(|| view! { <p>"No contacts."</p> })}
                    <table class="contacts">
                        <thead><tr><th scope="col">"Peer"</th><th scope="col">"Status"</th><th scope="col">"Reason"</th><th scope="col">"Updated"</th><th scope="col">"Expires"</th></tr></thead>
                        <tbody>
                            {snap.contacts.iter().map(|c| {
                                let attention = c.status != "approved";
                                view! {
                                    <tr class:attention=attention>
                                        <th scope="row">{c.peer.clone()}</th>
                                        <td>{c.status.clone()}{attention.then(|| view! { " " <strong class="flag">"needs attention"</strong> })}</td>
                                        <td>{c.reason.clone()}</td>
                                        <td>{c.updated_ts.clone()}</td>
                                        <td>{c.expires_ts.clone().unwrap_or_default()}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            }}
        </section>
    }
}
