//! An agent's inbox or outbox, normalized by the core's pane (`switchboard_core::pane`)
//! in the browser: the four filter modes, the pending-ack count, and a virtualized list
//! (fixed row height; only visible rows plus overscan are in the DOM) driven by the
//! keyboard: `j`/`k` move, `Enter` opens, `a` acknowledges, `r` replies, `/` searches. The
//! selection is a message, not a row number: new mail arriving above it leaves it in place.

use super::common::{
    focus_search, moved_selection, run_action, typing_in_field, NavBar, Progress, ProgressNote,
};
use crate::api::{load_mailbox, BackendError, Mailbox};
use crate::components::load::{from_backend, Data};
use crate::components::route::{query_param, Here};
use crate::components::secrets::mask;
use crate::components::status::ErrorNote;
use crate::routes;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use switchboard_core::pane::{self, EventKind, FilterMode, MessageItem, Snapshot};

/// Row height in pixels (the CSS `.row` height).
pub const ROW_HEIGHT: f64 = 44.0;
/// Rows rendered above and below the visible ones.
pub const OVERSCAN: usize = 8;

/// The rows to render for a scroll position: visible rows plus overscan.
#[must_use]
pub fn visible_range(rows: usize, scroll_top: f64, viewport: f64) -> std::ops::Range<usize> {
    let first = (scroll_top.max(0.0) / ROW_HEIGHT).floor() as usize;
    let shown = (viewport.max(ROW_HEIGHT) / ROW_HEIGHT).ceil() as usize;
    let start = first.saturating_sub(OVERSCAN).min(rows);
    let end = (first + shown + OVERSCAN).min(rows);
    start..end
}

/// Runs the pane over a mailbox. `thread_only` without a thread uses the thread the pane
/// selects by itself (the lexically smallest visible one).
///
/// # Errors
/// The pane's hard errors, as text.
pub fn snapshot(
    mailbox: &Mailbox,
    mode: FilterMode,
    thread: Option<&str>,
) -> Result<Snapshot, String> {
    let contract = pane::contract();
    let build = |thread: Option<&str>, mode| {
        pane::build_snapshot_from_rows(
            &contract,
            &mailbox.inbox,
            &mailbox.outbox,
            &mailbox.contacts,
            thread,
            mode,
            &mailbox.acked,
        )
        .map_err(|err| err.to_string())
    };
    if mode == FilterMode::ThreadOnly && thread.is_none() {
        let derived = build(None, FilterMode::All)?.active_thread;
        return build(derived.as_deref(), mode);
    }
    build(thread, mode)
}

/// The filter modes in the order the filter bar shows them.
pub const DISPLAY_ORDER: [FilterMode; 4] = [
    FilterMode::All,
    FilterMode::AckRequired,
    FilterMode::UnackedOnly,
    FilterMode::ThreadOnly,
];

/// Human label of a filter mode.
#[must_use]
pub const fn mode_label(mode: FilterMode) -> &'static str {
    match mode {
        FilterMode::All => "All",
        FilterMode::AckRequired => "Ack required",
        FilterMode::UnackedOnly => "Unacked only",
        FilterMode::ThreadOnly => "Thread only",
    }
}

/// Acknowledges a message through the backend, reporting progress; reloads on success.
pub fn acknowledge(here: Here, id: u64, progress: RwSignal<Progress>) {
    let (project, agent) = (here.project.get_untracked(), here.agent.get_untracked());
    let busy = format!("Acknowledging message {id}…");
    run_action(here, progress, busy, move |backend| async move {
        backend.acknowledge(&project, &agent, id).await?;
        Ok(format!("Message {id} acknowledged."))
    });
}

/// Loads the current route's mailbox (reloads when the route or the session changes).
#[must_use]
pub fn mailbox_resource(here: Here) -> Data<Mailbox> {
    from_backend(here, move |backend| {
        let (project, agent) = (here.project.get(), here.agent.get());
        here.session.reveal.track();
        async move {
            let mut mailbox = load_mailbox(&*backend, &project, &agent).await?;
            let Mailbox {
                inbox,
                outbox,
                contacts,
                ..
            } = &mut mailbox;
            let texts = inbox
                .iter_mut()
                .chain(outbox.iter_mut())
                .map(|m| &mut m.subject);
            let reasons = contacts.iter_mut().map(|c| &mut c.reason);
            mask(here.session, texts.chain(reasons).collect()).await?;
            Ok(mailbox)
        }
    })
}

/// The inbox (or outbox) of the agent in the URL.
#[component]
pub fn MailboxView(
    /// Show the outbox instead of the inbox.
    outbox: bool,
) -> impl IntoView {
    let here = Here::new();
    let (filter, thread) = (query_param("filter"), query_param("thread"));
    let mode = Memo::new(move |_| {
        filter
            .get()
            .and_then(|f| f.parse::<FilterMode>().ok())
            .unwrap_or(FilterMode::All)
    });
    let thread = Memo::new(move |_| thread.get().filter(|t| !t.is_empty()));
    let data = mailbox_resource(here);
    let view_state = Memo::new(move |_| {
        data.get().flatten().map(|loaded| {
            let mailbox = loaded?;
            let snap = snapshot(&mailbox, mode.get(), thread.get().as_deref())
                .map_err(BackendError::Invalid)?;
            Ok((snap, mailbox.notes))
        })
    });
    let rows = Memo::new(move |_| {
        view_state.with(|state| match state {
            Some(Ok((snap, _))) => {
                let mut rows = if outbox {
                    snap.outbox.clone()
                } else {
                    snap.inbox.clone()
                };
                rows.reverse();
                rows
            }
            _ => Vec::new(),
        })
    });
    // The message selected (`None`: none chosen yet, the first row is), and its row in the
    // newest list: new mail arriving above it leaves it on the same message; when it is no
    // longer listed (filtered out), the row it was on, or the last one.
    let selected = RwSignal::new(None::<u64>);
    let at = Memo::new(move |last: Option<&usize>| {
        let count = rows.with(Vec::len);
        selected
            .get()
            .and_then(|id| rows.with(|r| r.iter().position(|row| row.id == id)))
            .unwrap_or_else(|| last.copied().unwrap_or(0).min(count.saturating_sub(1)))
    });
    let select = move |i: usize| {
        if let Some(id) = rows.with_untracked(|r| r.get(i).map(|row| row.id)) {
            selected.set(Some(id));
        }
    };
    let progress = RwSignal::new(Progress::Idle);
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport = RwSignal::new(12.0 * ROW_HEIGHT);
    let list_ref = NodeRef::<leptos::html::Div>::new();

    // Measure the list once it has rows (never taller than the window; an empty list keeps
    // the default height).
    Effect::new(move |_| {
        rows.track();
        if let Some(el) = list_ref.get() {
            let screen = window()
                .inner_height()
                .ok()
                .and_then(|h| h.as_f64())
                .unwrap_or(800.0);
            let height = f64::from(el.client_height()).min(screen);
            if height >= ROW_HEIGHT {
                viewport.set(height);
            }
        }
    });
    // Keep the selection visible.
    Effect::new(move |_| {
        let index = at.get();
        if let Some(el) = list_ref.get_untracked() {
            let top = index as f64 * ROW_HEIGHT;
            let current = f64::from(el.scroll_top());
            let height = f64::from(el.client_height());
            if top < current {
                el.set_scroll_top(top as i32);
            } else if top + ROW_HEIGHT > current + height {
                el.set_scroll_top((top + ROW_HEIGHT - height) as i32);
            }
        }
    });

    let selected_row = move || rows.with(|r| r.get(at.get_untracked()).cloned());
    let navigate = use_navigate();
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in_field(&ev) {
            return;
        }
        let count = rows.with_untracked(Vec::len);
        let (src, project, agent) = (
            here.src.get_untracked(),
            here.project.get_untracked(),
            here.agent.get_untracked(),
        );
        if let Some(to) = moved_selection(&ev, at.get_untracked(), count) {
            select(to);
            return;
        }
        match ev.key().as_str() {
            "Enter" => {
                if let Some(row) = selected_row() {
                    ev.prevent_default();
                    navigate(
                        &routes::message(src, &project, Some(&agent), row.id),
                        Default::default(),
                    );
                }
            }
            "a" if !outbox => {
                if let Some(row) = selected_row() {
                    if row.ack_required && !row.acknowledged {
                        acknowledge(here, row.id, progress);
                    } else {
                        progress.set(Progress::Done(format!(
                            "Message {} needs no acknowledgement.",
                            row.id
                        )));
                    }
                }
            }
            "r" => {
                if let Some(row) = selected_row() {
                    let url = format!(
                        "{}?reply=1",
                        routes::message(src, &project, Some(&agent), row.id)
                    );
                    navigate(&url, Default::default());
                }
            }
            "/" => {
                ev.prevent_default();
                focus_search();
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());

    let filter_link = move |m: FilterMode| {
        let thread = thread
            .get()
            .or_else(|| selected_row().and_then(|row| row.thread_id))
            .or_else(|| {
                view_state.with(|s| {
                    s.as_ref()
                        .and_then(|s| s.as_ref().ok())
                        .and_then(|(snap, _)| snap.active_thread.clone())
                })
            });
        let thread = if m == FilterMode::ThreadOnly {
            thread
        } else {
            None
        };
        routes::mailbox(
            here.src.get(),
            &here.project.get(),
            &here.agent.get(),
            outbox,
            m,
            thread.as_deref(),
        )
    };
    let title = move || {
        format!(
            "{} — {}",
            here.agent.get(),
            if outbox { "Outbox" } else { "Inbox" }
        )
    };

    view! {
        <NavBar />
        <section class="mailbox" aria-labelledby="mailbox-title">
            <h2 id="mailbox-title">{title}</h2>
            <nav class="filters" aria-label="Filter">
                {DISPLAY_ORDER.into_iter().map(|m| view! {
                    <a href=move || filter_link(m) data-filter=m.as_str()
                        aria-current=move || (mode.get() == m).then_some("page")>
                        {mode_label(m)}
                    </a>
                }).collect::<Vec<_>>()}
            </nav>
            <ProgressNote progress />
            {move || match view_state.get() {
                None => view! { <p class="loading">"Loading…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorNote error /> }.into_any(),
                Some(Ok((snap, notes))) => {
                    let gap = snap.events.iter().any(|e| e.event_kind == EventKind::ThreadContinuityGap);
                    let attention = snap.events.iter().filter(|e| e.event_kind == EventKind::ContactAttentionRequired).count();
                    view! {
                        <p class="summary">
                            "Pending acknowledgements: "
                            <strong class="pending-count">{snap.pending_ack_count}</strong>
                            " · " {rows.with(Vec::len)} " shown"
                            {snap.active_thread.clone().map(|t| view! {
                                " · thread "
                                <a href=routes::thread(here.src.get_untracked(), &here.project.get_untracked(), &here.agent.get_untracked(), &t)>{t.clone()}</a>
                            })}
                            {(attention > 0).then(|| view! {
                                " · "
                                <a href=routes::agent_page(here.src.get_untracked(), &here.project.get_untracked(), &here.agent.get_untracked(), "contacts")>
                                    {format!("{attention} contact(s) need attention")}
                                </a>
                            })}
                        </p>
                        {gap.then(|| view! { <p class="warning" role="alert">"Continuity gap: the selected thread has no visible messages here."</p> })}
                        {snap.parse_errors.iter().cloned().chain(notes.iter().map(ToString::to_string)).map(|e| view! { <p class="warning">{e}</p> }).collect_view()}
                    }.into_any()
                }
            }}
            <div class="rows" node_ref=list_ref tabindex="0" role="region" aria-label="Messages"
                on:scroll=move |_| {
                    if let Some(el) = list_ref.get_untracked() {
                        scroll_top.set(f64::from(el.scroll_top()));
                    }
                }>
                <ol class="rows-inner" style:height=move || format!("{}px", rows.with(Vec::len) as f64 * ROW_HEIGHT)>
                    <For
                        each=move || {
                            rows.with(|r| {
                                visible_range(r.len(), scroll_top.get(), viewport.get())
                                    .map(|i| (i, r[i].clone()))
                                    .collect::<Vec<_>>()
                            })
                        }
                        key=|(i, row): &(usize, MessageItem)| (*i, row.id, row.acknowledged)
                        children=move |(i, row)| view! { <Row index=i row outbox here at selected progress /> }
                    />
                </ol>
            </div>
            <p class="hint">"Keys: j/k move · Enter opens · a acknowledges · r replies · / searches"</p>
        </section>
    }
}

/// One message row.
#[component]
fn Row(
    index: usize,
    row: MessageItem,
    outbox: bool,
    here: Here,
    /// The selected row.
    at: Memo<usize>,
    /// The selected message.
    selected: RwSignal<Option<u64>>,
    progress: RwSignal<Progress>,
) -> impl IntoView {
    let id = row.id;
    let href = routes::message(
        here.src.get_untracked(),
        &here.project.get_untracked(),
        Some(&here.agent.get_untracked()),
        id,
    );
    let needs_ack = !outbox && row.ack_required && !row.acknowledged;
    let state = if !row.ack_required {
        ""
    } else if row.acknowledged {
        "acknowledged"
    } else {
        "ack required"
    };
    let thread_link = row.thread_id.clone().map(|t| {
        let href = routes::thread(
            here.src.get_untracked(),
            &here.project.get_untracked(),
            &here.agent.get_untracked(),
            &t,
        );
        view! { <a class="thread" href=href>{t}</a> }
    });
    let who = if outbox {
        format!("to thread {}", row.thread_id.clone().unwrap_or_default())
    } else {
        row.from.clone()
    };
    view! {
        <li class="row" data-id=id style:top=format!("{}px", index as f64 * ROW_HEIGHT)
            class:selected=move || at.get() == index
            class:unacked=needs_ack
            aria-current=move || (at.get() == index).then_some("true")
            on:click=move |_| selected.set(Some(id))>
            <span class="importance" data-importance=row.importance.clone()>{row.importance.clone()}</span>
            <a class="subject" href=href>{row.subject.clone()}</a>
            <span class="from">{if outbox { row.delivery_status.clone() } else { who }}</span>
            {thread_link}
            <time class="ts">{row.created_ts.get(..16).unwrap_or(&row.created_ts).replace('T', " ")}</time>
            <span class="ack-state">{state}</span>
            {needs_ack.then(|| view! {
                <button type="button" class="ack" on:click=move |ev| {
                    ev.stop_propagation();
                    acknowledge(here, id, progress);
                }>"Acknowledge"</button>
            })}
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Contact, MailRow, Mailbox};

    #[test]
    fn only_visible_rows_plus_overscan_are_rendered() {
        assert_eq!(visible_range(100_000, 0.0, 440.0), 0..18);
        let r = visible_range(100_000, 44.0 * 50_000.0, 440.0);
        assert_eq!(r, 49_992..50_018);
        assert_eq!(visible_range(5, 0.0, 440.0), 0..5);
        assert_eq!(visible_range(0, 300.0, 440.0), 0..0);
    }

    #[test]
    fn thread_only_without_a_thread_uses_the_panes_thread() {
        let mailbox = Mailbox {
            inbox: MailRow::rows(pane::SMOKE_INBOX).unwrap(),
            outbox: MailRow::rows(pane::SMOKE_OUTBOX_BEFORE_REPLY).unwrap(),
            contacts: Contact::rows(pane::SMOKE_CONTACTS).unwrap(),
            acked: vec![],
            notes: vec![],
        };
        let snap = snapshot(&mailbox, FilterMode::ThreadOnly, None).unwrap();
        assert_eq!(snap.active_thread.as_deref(), Some("asupersync-28c51.489"));
        assert_eq!(snap.pending_ack_count, 1);
        let unacked = snapshot(&mailbox, FilterMode::UnackedOnly, None).unwrap();
        assert_eq!(unacked.inbox.len(), 1);
    }

    #[test]
    fn snapshots_whose_fingerprints_collide_are_different_views() {
        // The views memoize whole snapshots (`PartialEq` over every field), and the refresh
        // identity tells these apart too; only the reference fingerprint collides.
        let contact = |to: &str, status: &str| Contact {
            to: to.into(),
            status: status.into(),
            reason: "r".into(),
            updated_ts: "t".into(),
            expires_ts: None,
        };
        let mailbox = |contacts: Vec<Contact>| Mailbox {
            inbox: Vec::new(),
            outbox: Vec::new(),
            contacts,
            acked: vec![],
            notes: vec![],
        };
        let one = mailbox(vec![contact("A:approved,B", "pending")]);
        let two = mailbox(vec![contact("A", "approved"), contact("B", "pending")]);
        let (a, b) = (
            snapshot(&one, FilterMode::All, None).unwrap(),
            snapshot(&two, FilterMode::All, None).unwrap(),
        );
        assert_eq!(a.refresh_fingerprint, b.refresh_fingerprint);
        assert_ne!(a, b);
        assert_ne!(a.refresh_identity(), b.refresh_identity());
    }
}
