//! The server's queue: every open human checkpoint of the projects read, oldest first — the
//! checkpoint, its session and project (each a link to the project's checkpoints or the
//! session), the task, when it opened, and the session's next timeout step with its countdown.

use super::{countdown, panel, step_words, time};
use crate::model::{Html, Queued};
use crate::routes;
use crate::words::label;
use maud::html;
use std::collections::BTreeSet;

/// The queue at `now_ms`.
#[must_use]
pub fn list(queue: &[Queued], now_ms: i64) -> Html {
    let projects: BTreeSet<&str> = queue.iter().map(|q| q.key.project.as_str()).collect();
    panel(html! {
        @if queue.is_empty() {
            p.summary { "No checkpoint waits for a reviewer in the projects read." }
        } @else {
            p.summary {
                (queue.len()) " open checkpoint(s) in " (projects.len()) " project(s), the oldest first"
            }
        }
        ol.queue {
            @for q in queue {
                @let (src, project, s) = (q.key.src, q.key.project.as_str(), &q.session);
                li.queue-item data-project=(project) data-session=(s.id) {
                    p {
                        @if let Some(c) = s.checkpoint {
                            a.checkpoint href=(routes::project_page(src, project, "checkpoints")) { (label(c)) }
                        }
                        " · " a href=(routes::session(src, project, &s.id)) { (s.id) }
                        " in " a href=(routes::project(src, project)) { (project) }
                    }
                    p.muted {
                        @if let Some(task) = &s.task { (task) " · " }
                        "opened "
                        @match q.opened_at_ms { Some(ms) => (time(ms)), None => "at an unknown time" }
                        @if let Some(step) = &s.next {
                            " · " (countdown(step.at_ms, now_ms)) " "
                            (step_words(step))
                        }
                    }
                }
            }
        }
    })
}
