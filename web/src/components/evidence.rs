//! The evidence at a checkpoint, read from the project's folder: the artifacts (spec and
//! safety reasoning rendered, tests and code with line numbers, each file's SHA-256, or why a
//! file is not shown), the contract's integrity computed from the files with the changed
//! lines, the audit beside its diff, the change order beside the contract. The page reads
//! the bytes ([`crate::folder`]); the engine lays them out and writes them as HTML
//! (`ask::EvidenceNeeds`, `ask::Evidence`), as it renders Markdown. No folder: the panel says
//! what it would show and how to link one.

use super::load::{fetch, load};
use super::route::Here;
use super::status::ErrorNote;
use crate::api::BackendError;
use crate::ask::{Evidence, EvidenceNeeds};
use crate::folder::Folder;
use crate::link::EngineLink;
use crate::model::evidence::FileRead;
use crate::model::{EvidencePage, TrafficKey};
use crate::words::title;
use leptos::prelude::*;
use switchboard_core::evidence::record::{Concern, Shown as ShownArtifact};
use switchboard_core::fingerprint::{Fingerprints, Sha256Digest};
use switchboard_core::session::pair::checkpoint::Checkpoint;

/// What the reviewer was shown, for the decision and its record (`None` until the folder
/// was read, or found missing: no decision is sent before).
pub type Reviewed = RwSignal<Option<Seen>>;

/// What the evidence panel showed.
#[derive(Clone, Default)]
pub struct Seen {
    /// The fingerprints of the test files shown (APPROVED sends them).
    pub fingerprints: Option<Fingerprints>,
    /// Every artifact shown, with its SHA-256 (the review record).
    pub shown: Vec<ShownArtifact>,
    /// The texts of the test files shown, kept when approved (a later check shows the lines
    /// that changed since).
    pub tests: Vec<(Sha256Digest, String)>,
    /// The folder's files were read (the panel computed the contract's integrity).
    pub read: bool,
    /// What the files show (or their absence) that an approval would override.
    pub concerns: Vec<Concern>,
}

/// What an approval overrides when the folder's files were not read.
fn unread(why: &str) -> Seen {
    Seen {
        concerns: vec![Concern::MissingEvidence(why.to_owned())],
        ..Seen::default()
    }
}

/// What the panel loaded.
#[derive(Clone)]
enum Loaded {
    /// No folder is linked to the project.
    NoFolder,
    /// The evidence from the named folder, as HTML.
    Read(String, String),
}

/// Reads `session`'s evidence from `folder`: what to read, the directories to list, the
/// files, laid out by the engine.
async fn read_evidence(
    link: EngineLink,
    folder: &Folder,
    key: TrafficKey,
    session: String,
    reveal: bool,
) -> Result<(EvidencePage, Vec<(Sha256Digest, String)>), String> {
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
    // The texts of the tests shown, kept if they are approved.
    let tests = view
        .reviewed
        .iter()
        .filter_map(|(path, digest)| {
            match files.iter().find(|(p, _)| p.as_str() == path.as_str()) {
                Some((_, FileRead::Bytes(bytes))) => {
                    String::from_utf8(bytes.clone()).ok().map(|t| (*digest, t))
                }
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
        let folder = super::folder::of_project(key.src, &key.project, here.session.link());
        let (link, key, session) = (link.clone(), key.clone(), session.clone());
        fetch(async move {
            let Some(folder) = folder else {
                reviewed.try_set(Some(unread(
                    "no project folder is linked: nothing was read",
                )));
                return Some(Ok(Loaded::NoFolder));
            };
            let read = read_evidence(link, &folder, key, session, reveal).await;
            let (seen, loaded) = match read {
                Ok((page, tests)) => (
                    Seen {
                        fingerprints: Some(page.reviewed).filter(|f| !f.is_empty()),
                        shown: page.shown,
                        tests,
                        read: true,
                        concerns: page.concerns,
                    },
                    Ok(Loaded::Read(folder.name(), page.html)),
                ),
                Err(why) => (unread(&why), Err(BackendError::Engine(why))),
            };
            reviewed.try_set(Some(seen));
            Some(loaded)
        })
    });
    view! {
        <section class="evidence-panel" aria-label="Evidence from the project's folder">
            <h4>"Evidence"</h4>
            {move || match data.get() {
                None => view! { <p class="muted" role="status">"Reading the project's folder…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(error))) => view! { <ErrorNote error /> }.into_any(),
                Some(Some(Ok(Loaded::NoFolder))) => no_folder(checkpoint).into_any(),
                Some(Some(Ok(Loaded::Read(name, html)))) => view! {
                    <p class="muted folder-name">{format!("Read from {name}.")}</p>
                    // Written by the engine: every text escaped, Markdown safely rendered.
                    <div class="evidence-body" inner_html=html></div>
                }.into_any(),
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
