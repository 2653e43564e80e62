//! The evidence at a checkpoint, read from the project's folder: the artifacts (spec and
//! safety reasoning rendered, tests and code with line numbers, each file's SHA-256, or why a
//! file is not shown), the contract's integrity computed from the files with the changed
//! lines, the audit beside its diff, the change order beside the contract. The page reads
//! the bytes ([`crate::folder`]); the engine lays them out (`ask::EvidenceNeeds`,
//! `ask::Evidence`). No folder: the panel says what it would show and how to link one.

use super::checkpoint::title;
use super::diff::{audit, file_diff};
use super::load::{fetch, load};
use super::route::Here;
use super::status::ErrorNote;
use crate::api::BackendError;
use crate::ask::{Evidence, EvidenceNeeds};
use crate::folder::Folder;
use crate::link::EngineLink;
use crate::model::evidence::{ArtifactView, ChangeOrderEvidence, FileRead, Shown};
use crate::model::{EvidenceView, TrafficKey};
use leptos::prelude::*;
use switchboard_core::evidence::integrity::{FileState, Integrity, Verdict};
use switchboard_core::evidence::record::Shown as ShownArtifact;
use switchboard_core::evidence::Role;
use switchboard_core::fingerprint::Fingerprints;
use switchboard_core::session::pair::checkpoint::Checkpoint;

/// What the reviewer was shown, for the decision and its record.
#[derive(Clone, Copy)]
pub struct Reviewed {
    /// The fingerprints of the test files shown (APPROVED sends them).
    pub fingerprints: RwSignal<Option<Fingerprints>>,
    /// Every artifact shown, with its SHA-256 (the review record).
    pub shown: RwSignal<Vec<ShownArtifact>>,
    /// The texts of the test files shown, kept when approved (a later check shows the lines
    /// that changed since).
    pub tests: RwSignal<Vec<String>>,
    /// The folder was read (or there is none, or reading failed): a decision may be sent.
    pub ready: RwSignal<bool>,
}

impl Reviewed {
    /// Nothing shown yet.
    #[must_use]
    pub fn new() -> Reviewed {
        Reviewed {
            fingerprints: RwSignal::new(None),
            shown: RwSignal::new(Vec::new()),
            tests: RwSignal::new(Vec::new()),
            ready: RwSignal::new(false),
        }
    }
}

impl Default for Reviewed {
    fn default() -> Self {
        Self::new()
    }
}

/// What the panel loaded.
#[derive(Clone)]
enum Loaded {
    /// No folder is linked to the project.
    NoFolder,
    /// The evidence from the named folder, and the test texts read.
    Read(String, Box<EvidenceView>, Vec<String>),
}

/// Reads `session`'s evidence from `folder`: what to read, the directories to list, the
/// files, laid out by the engine.
async fn read_evidence(
    link: EngineLink,
    folder: &Folder,
    key: TrafficKey,
    session: String,
    reveal: bool,
) -> Result<(EvidenceView, Vec<String>), String> {
    let needs = |listings| EvidenceNeeds {
        key: key.clone(),
        session: session.clone(),
        listings,
    };
    let first = link.ask(needs(Vec::new())).await?;
    let mut listings = Vec::new();
    for dir in &first.dirs {
        // A directory that does not exist holds nothing the review needs.
        if let Ok(names) = folder.list(dir).await {
            listings.push((dir.clone(), names));
        }
    }
    let plan = if listings.is_empty() {
        first
    } else {
        link.ask(needs(listings.clone())).await?
    };
    let mut files = Vec::with_capacity(plan.paths.len());
    for path in plan.paths {
        let read = folder.read(&path).await;
        files.push((path, read));
    }
    let baselines = super::review::baselines(key.src, &key.project);
    let view = link
        .ask(Evidence {
            key,
            session,
            files: files.clone(),
            listings,
            baselines,
            reveal,
        })
        .await?;
    let tests = view
        .artifacts
        .iter()
        .filter(|a| a.role == Role::Tests)
        .filter_map(|a| {
            let path = a.path.as_ref()?;
            match files.iter().find(|(p, _)| p == path) {
                Some((_, FileRead::Bytes(bytes))) => String::from_utf8(bytes.clone()).ok(),
                _ => None,
            }
        })
        .collect();
    Ok((view, tests))
}

/// The evidence section of a checkpoint card.
#[component]
pub fn EvidencePanel(
    /// The route.
    here: Here,
    /// The project.
    key: TrafficKey,
    /// The session.
    session: String,
    /// The open checkpoint.
    checkpoint: Checkpoint,
    /// What the reviewer was shown, kept for the decision.
    reviewed: Reviewed,
) -> impl IntoView {
    let link = here.session.link();
    let data = load(move || {
        let reveal = here.session.reveal.get();
        let folder = crate::folder::of_project(key.src, &key.project, here.session.link());
        let (link, key, session) = (link.clone(), key.clone(), session.clone());
        fetch(async move {
            let Some(folder) = folder else {
                return Some(Ok(Loaded::NoFolder));
            };
            let read = read_evidence(link, &folder, key, session, reveal).await;
            Some(
                read.map(|(view, tests)| Loaded::Read(folder.name(), Box::new(view), tests))
                    .map_err(BackendError::Engine),
            )
        })
    });
    Effect::new(move |_| {
        let loaded = data.get();
        reviewed.ready.set(loaded.is_some());
        if let Some(Some(Ok(Loaded::Read(_, view, tests)))) = loaded {
            let shown = view
                .artifacts
                .iter()
                .filter_map(|a| {
                    Some(ShownArtifact {
                        path: a.path.clone()?,
                        role: a.role,
                        sha256: a.sha256,
                    })
                })
                .collect();
            reviewed.shown.set(shown);
            reviewed
                .fingerprints
                .set(Some(view.reviewed.clone()).filter(|f| !f.is_empty()));
            reviewed.tests.set(tests);
        }
    });
    view! {
        <section class="evidence-panel" aria-label="Evidence from the project's folder">
            <h4>"Evidence"</h4>
            {move || match data.get() {
                None => view! { <p class="muted" role="status">"Reading the project's folder…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(Loaded::NoFolder))) => no_folder(checkpoint).into_any(),
                Some(Some(Ok(Loaded::Read(name, view, _)))) => evidence(name, *view).into_any(),
            }}
        </section>
    }
}

/// What the panel would show at `checkpoint`, and how to link a folder.
fn no_folder(checkpoint: Checkpoint) -> impl IntoView {
    let would = match checkpoint {
        Checkpoint::ContractReview => {
            "the spec and safety reasoning rendered, the tests with line numbers and each file's \
             SHA-256; APPROVED then sends CONTRACT_FINAL with the fingerprints of exactly the tests you read"
        }
        Checkpoint::ImplementationReview => {
            "the contract's integrity computed from the files (each changed file named, with the \
             lines that differ), the implementation files, and the audit's findings beside the diff"
        }
        Checkpoint::ChangeOrderReview => {
            "the change order beside the contract: the tests it names, and the dependency it asks \
             for checked against the folder's manifests"
        }
    };
    view! {
        <p class="no-folder muted">
            {format!("No project folder is linked. Linked, checkpoint #{} ({}) shows here {would}. ", checkpoint.number(), title(checkpoint))}
            "Link the agents' working tree with “Link folder” in the project's header; its files are read in this browser only, never sent anywhere."
        </p>
    }
}

fn evidence(folder: String, view: EvidenceView) -> impl IntoView {
    let EvidenceView {
        artifacts,
        violations,
        integrity: checked,
        audit: audited,
        change_order,
        ..
    } = view;
    view! {
        <p class="muted folder-name">{format!("Read from {folder}.")}</p>
        {violations.into_iter().map(|v| view! {
            <p class="error violation" data-code=v.code.as_str()>{format!("{}: {}", v.code.as_str(), v.message)}</p>
        }).collect_view()}
        {checked.map(integrity)}
        {artifacts.into_iter().map(artifact).collect_view()}
        {change_order.map(change_order_view)}
        {audited.map(audit)}
    }
}

/// One artifact: its role, path and SHA-256, and its content or why it is not shown.
fn artifact(a: ArtifactView) -> impl IntoView {
    let path = a
        .path
        .as_ref()
        .map_or_else(|| a.written.clone(), ToString::to_string);
    let data_path = path.clone();
    let changed = matches!((a.sha256, a.baseline), (Some(now), Some(then)) if now != then);
    let body = match a.shown {
        Shown::Markdown(html) => {
            view! { <div class="markdown artifact-text" inner_html=html></div> }.into_any()
        }
        Shown::Code(lines) => code(lines).into_any(),
        Shown::InAudit => view! { <p class="muted">"Shown with the audit below."</p> }.into_any(),
        Shown::Nothing => ().into_any(),
    };
    view! {
        <details class="artifact" data-role=role_key(a.role) data-path=data_path open=!matches!(a.role, Role::AuditReport | Role::AuditDiff | Role::Manifest)>
            <summary>
                <strong>{capitalized(a.role.label())}</strong> " " <code>{path}</code>
                {a.message.map(|id| format!(" (named by message {id})"))}
            </summary>
            <p class="sha">
                "SHA-256 " <code>{a.sha256.map_or_else(|| "not read".to_owned(), |d| d.to_string())}</code>
                {changed.then(|| view! { " " <strong class="error">"differs from the contract's fingerprint"</strong> })}
            </p>
            {a.note.map(|n| view! { <p class="warning file-note">{n}</p> })}
            {body}
        </details>
    }
}

fn role_key(role: Role) -> &'static str {
    match role {
        Role::SafetyReasoning => "safety_reasoning",
        Role::Spec => "spec",
        Role::Tests => "tests",
        Role::Fingerprinted => "fingerprinted",
        Role::Implementation => "implementation",
        Role::NamedByChangeOrder => "named_by_change_order",
        Role::NextVersion => "next_version",
        Role::AuditReport => "audit_report",
        Role::AuditDiff => "audit_diff",
        Role::Manifest => "manifest",
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Code with line numbers (from 1, or from each line's own number).
fn code(lines: Vec<String>) -> impl IntoView {
    numbered(
        lines
            .into_iter()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .collect(),
    )
}

fn numbered(lines: Vec<(usize, String)>) -> impl IntoView {
    view! {
        <table class="code-lines">
            {lines.into_iter().map(|(n, text)| view! {
                <tr data-line=n><td class="ln">{n}</td><td class="text"><code>{text}</code></td></tr>
            }).collect_view()}
        </table>
    }
}

/// The contract's integrity as computed from the folder.
fn integrity(integrity: Integrity) -> impl IntoView {
    let verdict = match integrity.verdict {
        Verdict::Intact => "intact: every fingerprinted file has its baseline digest",
        Verdict::Tampered => "tampered",
        Verdict::Incomplete => "not known: a fingerprinted file could not be read",
        Verdict::NoBaseline => "no baseline: the contract carries no fingerprints to compare with",
    };
    let key = match integrity.verdict {
        Verdict::Intact => "intact",
        Verdict::Tampered => "tampered",
        Verdict::Incomplete => "incomplete",
        Verdict::NoBaseline => "no_baseline",
    };
    let tampered: Vec<String> = integrity.tampered().map(|f| f.path.to_string()).collect();
    view! {
        <div class="evidence-integrity" data-verdict=key>
            <p>
                "Contract integrity (computed from the folder): "
                <strong class:error=!tampered.is_empty()>{verdict}</strong>
                {(!tampered.is_empty()).then(|| format!(": {}", tampered.join(", ")))}
            </p>
            <ul class="plain">
                {integrity.files.into_iter().map(|f| {
                    let state = match f.state {
                        FileState::Same => "as fingerprinted",
                        FileState::Modified => "modified since the contract",
                        FileState::Missing => "missing from the folder",
                        FileState::NotRead => "not read",
                    };
                    view! {
                        <li class="integrity-file" data-state=state>
                            <code>{f.path.to_string()}</code> {format!(": {state}")}
                            {f.changes.map(|changes| view! {
                                <p class="muted">"What changed since the baseline:"</p>
                                {file_diff(changes, &[])}
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </div>
    }
}

/// The change order's named tests and requested dependency.
fn change_order_view(order: ChangeOrderEvidence) -> impl IntoView {
    view! {
        <section class="evidence-change-order">
            <h5>"The change order beside the contract"</h5>
            {order.tests.into_iter().map(|t| view! {
                <div class="named-test">
                    <p><code>{t.file.clone()}</code>{t.test.map(|n| view! { " · test " <code>{n}</code> })}</p>
                    {t.note.map(|n| view! { <p class="warning">{n}</p> })}
                    {(!t.lines.is_empty()).then(|| numbered(t.lines))}
                </div>
            }).collect_view()}
            <p class="muted">
                {if order.manifests.is_empty() {
                    "No dependency manifest (requirements*.txt, pyproject.toml, package.json, Cargo.toml) at the folder's root.".to_owned()
                } else {
                    format!("Manifests read: {}.", order.manifests.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
                }}
            </p>
            <ul class="plain">
                {order.dependencies.into_iter().map(|d| {
                    let declared = !d.declared.is_empty();
                    view! {
                        <li class="dependency" data-declared=declared.to_string()>
                            "Asks for " <code>{d.requested.written.clone()}</code> ": "
                            {if declared {
                                d.declared.iter().map(|at| format!("declared in {} line {} ({})", at.manifest, at.line, at.written)).collect::<Vec<_>>().join("; ")
                            } else {
                                "not declared in the folder's manifests".to_owned()
                            }}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
