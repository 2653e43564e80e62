//! Switchboard review console: a Leptos client-side app that reads and acts on the mail of
//! any MCP Agent Mail server, with a built-in demo when no server is given, and shows the
//! protocols riding on that mail (sessions, checkpoints, audit reports, task boards).
//!
//! Two wasm modules: this one (the UI: views, router, network client, mailbox pane) and the
//! engine worker (`src/bin/engine.rs`: the core's protocol work, Markdown, the demo server),
//! which this one reaches through [`link`] with the types of [`model`].
//!
//! - [`api`]: the `Backend` trait, the MCP client and the demo.
//! - [`views`]: one module per screen; [`components`]: what screens share; [`routes`]: URLs.
//! - [`engine`]: the worker's side; [`ask`] (the questions and their answer types),
//!   [`model`] (the view models) and [`link`] (the transport): the seam between the two.
//! - [`store`]: projects' traffic kept up to date; [`session`]: backends and settings.
//! - [`folder`]: the project folder the evidence views read (the demo's, or a linked one).
//! - [`markdown`]: safe rendering of untrusted message bodies (in the engine);
//!   [`percent`]: URI component encoding; [`words`]: how times, steps, phases and
//!   checkpoints read.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_navigate;
use leptos_router::{path, ParamSegment, StaticSegment};
use routes::SourceSegment;

pub mod api;
pub mod ask;
pub mod clock;
pub mod components;
pub mod engine;
pub mod folder;
pub mod idb;
pub mod link;
pub mod markdown;
pub mod model;
pub mod percent;
pub mod routes;
pub mod session;
pub mod store;
pub mod views;
pub mod words;

use views::{
    agents, audits, checkpoints, compose, conformance, connect, contacts, mailbox, message,
    operator, projects, queue, reservations, search, session as session_view, sessions, tasks,
    thread,
};

/// The whole console: header, router and the session context, over the engine worker (or,
/// given `link`, another engine: component tests run one in the page).
#[component]
pub fn App(
    /// The engine to use instead of the worker.
    #[prop(optional)]
    link: Option<link::EngineLink>,
) -> impl IntoView {
    let link = link.unwrap_or_else(link::EngineLink::worker);
    let session = session::Session::new(link);
    provide_context(session);
    connect::restore_remembered(session);
    components::watch::watch_checkpoints(session);
    view! {
        <Router>
            <header class="app-header">
                <h1 class="app-name">"Switchboard"</h1>
                <p class="tagline">"Review console for MCP Agent Mail"</p>
            </header>
            <Main>
                <Routes fallback=|| view! { <p class="error">"Page not found."</p> }>
                    <Route path=path!("/") view=connect::ConnectScreen />
                    <Route path=path!("/demo/sessions") view=|| view! { <views::DemoShort page="sessions" /> } />
                    <Route path=path!("/demo/checkpoints") view=|| view! { <views::DemoShort page="checkpoints" /> } />
                    <Route path=path!("/demo/audits") view=|| view! { <views::DemoShort page="audits" /> } />
                    <Route path=path!("/demo/tasks") view=|| view! { <views::DemoShort page="tasks" /> } />
                    <Route path=(SourceSegment,) view=projects::ProjectsView />
                    <Route path=(SourceSegment, StaticSegment("operator")) view=operator::OperatorView />
                    <Route path=(SourceSegment, StaticSegment("queue")) view=queue::QueueView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project")) view=agents::AgentsView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("reservations")) view=reservations::ReservationsView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("search")) view=search::SearchView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("compose")) view=compose::ComposeView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("sessions")) view=sessions::SessionsView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("sessions"), ParamSegment("session")) view=session_view::SessionView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("checkpoints")) view=checkpoints::CheckpointsView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("audits")) view=audits::AuditsView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("tasks")) view=tasks::TasksView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("conformance")) view=conformance::ConformanceView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("m"), ParamSegment("id")) view=message::MessageView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("a"), ParamSegment("agent"), StaticSegment("inbox")) view=|| view! { <mailbox::MailboxView outbox=false /> } />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("a"), ParamSegment("agent"), StaticSegment("outbox")) view=|| view! { <mailbox::MailboxView outbox=true /> } />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("a"), ParamSegment("agent"), StaticSegment("contacts")) view=contacts::ContactsView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("a"), ParamSegment("agent"), StaticSegment("thread"), ParamSegment("thread")) view=thread::ThreadView />
                    <Route path=(SourceSegment, StaticSegment("p"), ParamSegment("project"), StaticSegment("a"), ParamSegment("agent"), StaticSegment("m"), ParamSegment("id")) view=message::MessageView />
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
