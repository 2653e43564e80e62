//! The project folder the evidence views read through: the demo's virtual folder (served by
//! the demo server in the engine) or, for a live project, the folder the reviewer linked.
//! The page only reads bytes and lists directories; which files a session needs, and what
//! they are, is the core's, in the engine (`ask::EvidenceNeeds`, `ask::Evidence`).

pub mod linked;
pub mod links;

use crate::link::{demo, EngineLink};
use crate::model::evidence::FileRead;
use switchboard_core::evidence::path::FolderPath;

/// A project's folder, as the evidence views read it.
#[derive(Clone)]
pub enum Folder {
    /// The demo's virtual folder of a demo project.
    Demo(DemoFolder),
    /// The working tree the reviewer linked for a live project.
    Linked(linked::LinkedFolder),
}

/// The demo's virtual folder of one project, reached through the engine.
#[derive(Clone)]
pub struct DemoFolder {
    /// The engine holding the demo server.
    pub link: EngineLink,
    /// The demo project.
    pub project: String,
}

impl Folder {
    /// The folder's name, as the page says it.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Folder::Demo(d) => format!("the demo's folder of {}", d.project),
            Folder::Linked(f) => f.name(),
        }
    }

    /// One file's bytes, or why there are none.
    pub async fn read(&self, path: &FolderPath) -> FileRead {
        match self {
            Folder::Demo(d) => demo::read_file(&d.link, &d.project, path).await,
            Folder::Linked(f) => f.read(path).await,
        }
    }

    /// The names in a directory (`""`: the folder's root), files and directories.
    ///
    /// # Errors
    /// No such directory, or the folder refused the listing, in words.
    pub async fn list(&self, dir: &str) -> Result<Vec<String>, String> {
        match self {
            Folder::Demo(d) => demo::list_dir(&d.link, &d.project, dir).await,
            Folder::Linked(f) => f.list(dir).await,
        }
    }
}
