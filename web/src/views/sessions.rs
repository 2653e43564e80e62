//! Every Pair Protocol session in the project's traffic: phase, planner and builder, the
//! open checkpoint, change orders, the contract's integrity (naming the tampered files),
//! and a live countdown to the next timeout with what happens when it expires. The keys
//! `j`/`k` move the selection and `Enter` opens the session.

use super::common::{move_selection, typing_in_field, NavBar};
use crate::ask;
use crate::components::checkpoint::integrity;
use crate::components::route::Here;
use crate::components::time::{Countdown, REFRESH_MS};
use crate::components::traffic::{answer, engine_resource, use_traffic, ProtocolNav, TrafficNote};
use crate::model::SessionRow;
use crate::routes::{self, Source};
use crate::words::{label, phase, step_text};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use switchboard_core::session::pair::{IntegrityStatus, SessionStatus};

/// Rows drawn before "Show all" (the list is sorted: open checkpoints and active sessions
/// first).
pub const FIRST_ROWS: usize = 200;

/// The sessions view.
#[component]
pub fn SessionsView() -> impl IntoView {
    let here = Here::new();
    let (key, state) = use_traffic(here);
    let now = here.clock();
    let data = engine_resource(here, state, move || ask::Sessions {
        key: key.get(),
        now_ms: now.get() / REFRESH_MS * REFRESH_MS,
        reveal: here.session.reveal.get(),
    });
    let selected = RwSignal::new(0_usize);
    let all = RwSignal::new(false);

    let ids = Memo::new(move |_| match data.get() {
        Some(Some(Ok(rows))) => {
            let shown = if all.get() { usize::MAX } else { FIRST_ROWS };
            rows.into_iter().take(shown).map(|r| r.id).collect()
        }
        _ => Vec::<String>::new(),
    });
    let navigate = use_navigate();
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in_field(&ev) {
            return;
        }
        if move_selection(&ev, selected, ids.with_untracked(Vec::len)) {
            return;
        }
        if ev.key() != "Enter" {
            return;
        }
        if let Some(id) = ids.with_untracked(|ids| ids.get(selected.get_untracked()).cloned()) {
            ev.prevent_default();
            let (src, project) = (here.src.get_untracked(), here.project.get_untracked());
            navigate(&routes::session(src, &project, &id), Default::default());
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <NavBar />
        <section class="sessions" aria-labelledby="sessions-title">
            <h2 id="sessions-title">{move || format!("Sessions in {}", here.project.get())}</h2>
            <ProtocolNav here current="sessions" />
            <TrafficNote state />
            {answer(data, move |rows| {
                let (src, project) = (here.src.get_untracked(), here.project.get_untracked());
                let total = rows.len();
                let shown = if all.get() { total } else { total.min(FIRST_ROWS) };
                view! {
                    <p class="summary">{format!("{total} Pair sessions")}</p>
                    {rows.is_empty().then(|| view! { <p class="muted">"No Pair Protocol session in this project's mail."</p> })}
                    <table class="sessions-table">
                        <thead><tr>
                            <th scope="col">"Session"</th><th scope="col">"Phase"</th>
                            <th scope="col">"Planner · builder"</th><th scope="col">"Checkpoint"</th>
                            <th scope="col">"Change orders"</th><th scope="col">"Contract"</th>
                            <th scope="col">"Next timeout"</th>
                        </tr></thead>
                        <tbody>
                            {rows.into_iter().take(shown).enumerate().map(|(i, row)| view! {
                                <Row row i selected now src project=project.clone() />
                            }).collect_view()}
                        </tbody>
                    </table>
                    {(shown < total).then(|| view! {
                        <p><button type="button" class="secondary" on:click=move |_| all.set(true)>
                            {format!("Show all {total} sessions ({shown} shown)")}
                        </button></p>
                    })}
                    <p class="hint">"Keys: j/k move · Enter opens the session"</p>
                }.into_any()
            })}
        </section>
    }
}

/// One session's row.
#[component]
fn Row(
    row: SessionRow,
    i: usize,
    selected: RwSignal<usize>,
    now: ReadSignal<i64>,
    src: Source,
    project: String,
) -> impl IntoView {
    let href = routes::session(src, &project, &row.id);
    let tampered = row.integrity.status == IntegrityStatus::Tampered;
    view! {
        <tr class="session-row" data-session=row.id.clone() data-status=row.status.as_str()
            class:selected=move || selected.get() == i class:tampered=tampered class:reading=row.reading
            aria-current=move || (selected.get() == i).then_some("true")
            on:click=move |_| selected.set(i)>
            <th scope="row">
                <a href=href>{row.id.clone()}</a>
                {row.task.clone().map(|t| view! { <div class="muted task">{t}</div> })}
            </th>
            <td><span class=if row.reading { "reading" } else { "phase" }>
                    {if row.reading { "still reading" } else { phase(row.phase) }}</span>
                {(row.status != SessionStatus::Active).then(|| view! { " " <span class="status">{row.status.as_str()}</span> })}
                {(row.violations > 0).then(|| view! { <div class="flag">{format!("{} violation(s)", row.violations)}</div> })}
            </td>
            <td>{row.planner.clone().unwrap_or_else(|| "?".into())} " · " {row.builder.clone().unwrap_or_else(|| "?".into())}</td>
            <td>{row.checkpoint.map(|c| view! {
                <strong class="checkpoint">{label(c)}</strong>
            })}</td>
            <td>{(row.change_orders > 0).then(|| format!("{} ({} pending)", row.change_orders, row.pending_change_orders))}</td>
            <td class="integrity" data-integrity=row.integrity.status.as_str()>
                {(!row.reading).then(|| integrity(row.integrity.clone()))}
            </td>
            <td>{match (row.next, row.overdue) {
                (Some(step), _) => view! {
                    <Countdown at_ms=step.at_ms now />
                    <div class="muted">{step_text(&step.action, step.warning, step.from.as_deref())}</div>
                }.into_any(),
                (None, Some(step)) => view! {
                    <span class="flag">{step_text(&step.action, step.warning, step.from.as_deref()).replacen("then ", "", 1)}</span>
                    " " <Countdown at_ms=step.at_ms now />
                }.into_any(),
                (None, None) => ().into_any(),
            }}</td>
        </tr>
    }
}
