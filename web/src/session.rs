//! The console's session: which backends exist (the demo, created on first use; a live
//! server, after connecting), the engine link, the projects' traffic, a revision counter
//! that views watch to reload after an action, the linked project folders, and whether the
//! reviewer asked for desktop notifications. Connection settings stay in memory, or in
//! sessionStorage when the user ticks "remember" — never in localStorage, URLs or logs.

use crate::api::mcp::ConnectConfig;
use crate::api::{Backend, BackendError};
use crate::folder::links::FolderLinks;
use crate::link::demo::DemoBackend;
use crate::link::EngineLink;
use crate::model::TrafficKey;
use crate::routes::Source;
use crate::store::TrafficStore;
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The sessionStorage key for remembered connection settings.
const STORAGE_KEY: &str = "switchboard.connection";

/// Shared session state, provided as context by [`crate::App`].
#[derive(Clone, Copy)]
pub struct Session {
    demo: StoredValue<Option<Rc<dyn Backend>>, LocalStorage>,
    live: StoredValue<Option<Rc<dyn Backend>>, LocalStorage>,
    link: StoredValue<EngineLink, LocalStorage>,
    /// Bumped after every action and connection, so views reload their data.
    pub revision: RwSignal<u64>,
    /// The projects' traffic.
    pub traffic: TrafficStore,
    /// The reviewer asked for a desktop notification when a checkpoint opens.
    pub notify: RwSignal<bool>,
    /// The reviewer chose to see the secrets in mail (else every view masks them).
    pub reveal: RwSignal<bool>,
    /// The project folders linked in this page.
    pub folders: FolderLinks,
}

impl Session {
    /// An empty session (no live connection yet) over an engine link.
    #[must_use]
    pub fn new(link: EngineLink) -> Self {
        Self {
            demo: StoredValue::new_local(None),
            live: StoredValue::new_local(None),
            link: StoredValue::new_local(link),
            revision: RwSignal::new(0),
            traffic: TrafficStore::new(),
            notify: RwSignal::new(false),
            reveal: RwSignal::new(false),
            folders: FolderLinks::new(),
        }
    }

    /// The engine link.
    #[must_use]
    pub fn link(&self) -> EngineLink {
        self.link.get_value()
    }

    /// The session provided by the app.
    ///
    /// # Panics
    /// Outside [`crate::App`] (a programming error).
    #[must_use]
    pub fn get() -> Self {
        use_context::<Self>().expect("Session is provided by App")
    }

    /// The backend of a source: the demo (created on first use) or the connected server.
    ///
    /// # Errors
    /// The server before connecting.
    pub fn backend(&self, src: Source) -> Result<Rc<dyn Backend>, BackendError> {
        match src {
            Source::Demo => {
                if self.demo.with_value(Option::is_none) {
                    let demo: Rc<dyn Backend> = Rc::new(DemoBackend::new(self.link()));
                    self.demo.set_value(Some(demo));
                }
                self.demo
                    .get_value()
                    .ok_or_else(|| BackendError::Invalid("no demo".into()))
            }
            Source::Live => self.live.get_value().ok_or(BackendError::NotConnected),
        }
    }

    /// Reads a project's traffic into the engine, or asks for its newer mail
    /// ([`TrafficStore::refresh`]).
    pub fn refresh_traffic(&self, key: TrafficKey) {
        self.traffic
            .refresh(self.backend(key.src), self.link(), key);
    }

    /// Installs a connected backend and notifies the views.
    pub fn set_live(&self, backend: Rc<dyn Backend>) {
        self.live.set_value(Some(backend));
        self.bump();
    }

    /// The connected server's MCP endpoint (tracked: changes on connecting and on
    /// [`Self::disconnect`]).
    #[must_use]
    pub fn live_endpoint(&self) -> Option<String> {
        self.revision.track();
        self.live
            .with_value(|live| live.as_ref().map(|b| b.capabilities().endpoint))
    }

    /// Leaves the connected server: its settings are forgotten (also from sessionStorage),
    /// and its projects' traffic, in this page and kept in this browser.
    pub fn disconnect(&self) {
        if let Some(server) = self.live_endpoint() {
            self.live.set_value(None);
            forget();
            self.traffic.forget_live();
            leptos::task::spawn_local(async move {
                let _ = crate::store::kept::forget_server(&server).await;
            });
            self.bump();
        }
    }

    /// Tells views to reload.
    pub fn bump(&self) {
        self.revision.update(|r| *r += 1);
    }
}

/// Saves connection settings in sessionStorage (only when the user asked to remember).
pub fn remember(config: &ConnectConfig) {
    let value = serde_json::json!({
        "server": config.server,
        "bearer": config.bearer,
        "agent_tokens": config.agent_tokens,
        "project": config.project,
    });
    if let Some(storage) = session_storage() {
        let _ = storage.set_item(STORAGE_KEY, &value.to_string());
    }
}

/// Removes remembered settings.
pub fn forget() {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(STORAGE_KEY);
    }
}

/// Remembered connection settings, if any.
#[must_use]
pub fn remembered() -> Option<ConnectConfig> {
    let text = session_storage()?.get_item(STORAGE_KEY).ok()??;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let text_of = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_string);
    let agent_tokens: BTreeMap<String, String> = value
        .get("agent_tokens")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    Some(ConnectConfig {
        server: text_of("server")?,
        bearer: text_of("bearer"),
        agent_tokens,
        project: text_of("project"),
    })
}

fn session_storage() -> Option<web_sys::Storage> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()?.session_storage().ok()?
    } else {
        None
    }
}
