//! Switchboard review console: a Leptos client-side app that reads and acts on the mail of
//! any MCP Agent Mail server, with a built-in demo when no server is given.
//!
//! - [`backend`]: the `Backend` trait, the MCP client and the demo.
//! - [`views`]: one module per screen; [`routes`]: the URL of every view.
//! - [`markdown`]: safe rendering of untrusted message bodies.
//! - [`session`]: the connected backends and connection settings.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_navigate;
use leptos_router::path;

pub mod backend;
pub mod markdown;
pub mod routes;
pub mod session;
pub mod views;

use views::{
    agents, compose, connect, contacts, mailbox, message, operator, projects, reservations, search,
    thread,
};

/// The whole console: header, router and the session context.
#[component]
pub fn App() -> impl IntoView {
    let session = session::Session::new();
    provide_context(session);
    connect::restore_remembered(session);
    view! {
        <Router>
            <header class="app-header">
                <h1 class="app-name">"Switchboard"</h1>
                <p class="tagline">"Review console for MCP Agent Mail"</p>
            </header>
            <Main>
                <Routes fallback=|| view! { <p class="error">"Page not found."</p> }>
                    <Route path=path!("/") view=connect::ConnectScreen />
                    <Route path=path!("/:src") view=projects::ProjectsView />
                    <Route path=path!("/:src/operator") view=operator::OperatorView />
                    <Route path=path!("/:src/p/:project") view=agents::AgentsView />
                    <Route path=path!("/:src/p/:project/reservations") view=reservations::ReservationsView />
                    <Route path=path!("/:src/p/:project/search") view=search::SearchView />
                    <Route path=path!("/:src/p/:project/compose") view=compose::ComposeView />
                    <Route path=path!("/:src/p/:project/m/:id") view=message::MessageView />
                    <Route path=path!("/:src/p/:project/a/:agent/inbox") view=|| view! { <mailbox::MailboxView outbox=false /> } />
                    <Route path=path!("/:src/p/:project/a/:agent/outbox") view=|| view! { <mailbox::MailboxView outbox=true /> } />
                    <Route path=path!("/:src/p/:project/a/:agent/contacts") view=contacts::ContactsView />
                    <Route path=path!("/:src/p/:project/a/:agent/thread/:thread") view=thread::ThreadView />
                    <Route path=path!("/:src/p/:project/a/:agent/m/:id") view=message::MessageView />
                </Routes>
            </Main>
        </Router>
    }
}

/// The page's main region, where same-origin links are followed with their encoding kept
/// ([`views::common::follow_link_exactly`]; it needs the router, hence a component of its own).
#[component]
fn Main(children: Children) -> impl IntoView {
    let navigate = use_navigate();
    let follow = move |path: &str| navigate(path, Default::default());
    view! {
        <main on:click=move |ev| views::common::follow_link_exactly(&ev, &follow)>
            {children()}
        </main>
    }
}
