//! A project's working tree linked in the browser, read-only: the reviewer picks the folder,
//! the console reads the files a checkpoint needs from it. Files are read in this page (and
//! handed to its engine worker), never sent over the network.
//!
//! Two ways to link, both the browser's own:
//! - the File System Access API (`showDirectoryPicker({mode: "read"})`), where the browser
//!   has it: a directory handle, kept across reloads ([`kept`], IndexedDB), whose read
//!   permission the browser may ask for again ([`LinkedFolder::permission`]);
//! - a directory input (`<input type=file webkitdirectory>`) everywhere else: the browser
//!   hands over the folder's files once; they are kept in memory for this page, so the folder
//!   must be linked again after a reload, and after its files change on disk (the browser
//!   then refuses to read the old ones).
//!
//! Every read walks the folder from its root one name at a time along a [`FolderPath`] (which
//! never holds `..`, a root or a drive), so the console itself never names a file outside the
//! folder. Symbolic links inside it are the browser's business, and these APIs give a page no
//! way to see one or to follow one on its own: a directory handle hands out entries as the
//! browser chose to expose them (the specification leaves symlinks open,
//! WICG/file-system-access issue 113, and Chromium differs by platform; on macOS it lists
//! none), a directory input the files the browser gathered. So a link that the browser
//! resolves reads as the file it points to, and the console cannot tell or flag it; one it
//! does not expose reads as missing.

mod files;
mod handle;
pub mod kept;

use crate::model::evidence::FileRead;
use send_wrapper::SendWrapper;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use switchboard_core::evidence::content::MAX_BYTES;
use switchboard_core::evidence::path::FolderPath;
use wasm_bindgen::JsValue;

pub(crate) use handle::words;
pub use handle::{can_pick, Permission};

/// A linked folder. Clones share it; two links of the same folder are not equal (a folder
/// linked again is read again).
#[derive(Clone)]
pub struct LinkedFolder(SendWrapper<Rc<Linked>>);

struct Linked {
    /// Distinguishes links, so views read again when the folder is linked again.
    id: u64,
    name: String,
    tree: Tree,
}

enum Tree {
    /// A `FileSystemDirectoryHandle`.
    Handle(JsValue),
    /// The files a directory input gave, by their path inside the folder.
    Files(BTreeMap<String, web_sys::File>),
}

impl LinkedFolder {
    fn new(name: String, tree: Tree) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        Self(SendWrapper::new(Rc::new(Linked { id, name, tree })))
    }

    /// Asks the reviewer for a folder with the browser's directory picker, read-only. `None`
    /// when they cancelled.
    ///
    /// # Errors
    /// No picker in this browser ([`can_pick`]), or the browser refused, in its words.
    pub async fn pick() -> Result<Option<LinkedFolder>, String> {
        Ok(handle::pick()
            .await
            .map_err(|e| handle::words(&e))?
            .map(LinkedFolder::from_handle))
    }

    /// The folder a `FileSystemDirectoryHandle` names (picked, kept, or the origin's private
    /// file system in tests).
    #[must_use]
    pub fn from_handle(handle: JsValue) -> LinkedFolder {
        let name = handle::name(&handle);
        LinkedFolder::new(name, Tree::Handle(handle))
    }

    /// The folder a directory input gave (each file's `webkitRelativePath` starts with the
    /// folder's name).
    ///
    /// # Errors
    /// No files: the browser gives none for an empty folder.
    pub fn from_input(list: &web_sys::FileList) -> Result<LinkedFolder, String> {
        let files = (0..list.length()).filter_map(|i| list.item(i));
        // `webkitRelativePath` (web-sys has no binding for it).
        let relative = |file: &web_sys::File| {
            js_sys::Reflect::get(file, &"webkitRelativePath".into())
                .ok()
                .and_then(|p| p.as_string())
                .unwrap_or_else(|| file.name())
        };
        LinkedFolder::from_files(files.map(|file| (relative(&file), file)))
    }

    /// The folder of files given with their paths as a directory input writes them
    /// (`folder/tmp/x.py`): the folder's name, then the path inside it.
    ///
    /// # Errors
    /// No files.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, web_sys::File)>,
    ) -> Result<LinkedFolder, String> {
        let (name, files) = files::by_path(files);
        let name = name.ok_or("The folder holds no files the browser would hand over.")?;
        Ok(LinkedFolder::new(name, Tree::Files(files)))
    }

    /// The folder's name (its last path segment: the browser never tells where it is).
    #[must_use]
    pub fn name(&self) -> String {
        self.0.name.clone()
    }

    /// Whether the files were read once (a directory input): link again after a reload or
    /// after the files change.
    #[must_use]
    pub fn read_once(&self) -> bool {
        matches!(self.0.tree, Tree::Files(_))
    }

    /// Whether the console may read the folder, asking the reviewer when `ask` (which needs
    /// a click: the browser allows the question only in answer to one). A folder read once
    /// is always granted.
    ///
    /// # Errors
    /// The browser's words when it cannot say.
    pub async fn permission(&self, ask: bool) -> Result<Permission, String> {
        match &self.0.tree {
            Tree::Handle(root) => handle::permission(root, ask)
                .await
                .map_err(|e| handle::words(&e)),
            Tree::Files(_) => Ok(Permission::Granted),
        }
    }

    /// The kept form of the link ([`kept`]): the handle itself, or the folder's name for a
    /// folder read once.
    fn kept_value(&self) -> JsValue {
        match &self.0.tree {
            Tree::Handle(root) => root.clone(),
            Tree::Files(_) => JsValue::from_str(&self.0.name),
        }
    }

    /// Reads one file: its bytes, or why not. A file larger than the core's limit is refused
    /// by its size before any byte is read.
    pub async fn read(&self, path: &FolderPath) -> FileRead {
        let file = match &self.0.tree {
            Tree::Handle(root) => match handle::file(root, path).await {
                Ok(file) => file,
                Err(error) if handle::is_not_found(&error) => return FileRead::Missing,
                Err(error) => {
                    return FileRead::Unreadable {
                        reason: handle::words(&error),
                    }
                }
            },
            Tree::Files(files) => match files.get(path.as_str()) {
                Some(file) => file.clone(),
                None if files::holds_folder(files.keys(), path.as_str()) => {
                    return FileRead::Unreadable {
                        reason: format!("{path} is a folder, not a file"),
                    }
                }
                None => return FileRead::Missing,
            },
        };
        read_file(&file).await
    }

    /// The names of the files and folders directly in a folder of it (`""`: its root),
    /// sorted.
    ///
    /// # Errors
    /// A path that would leave the folder, no such folder, or the browser's refusal.
    pub async fn list(&self, dir: &str) -> Result<Vec<String>, String> {
        let dir = files::folder(dir)?;
        match &self.0.tree {
            Tree::Handle(root) => handle::names(root, dir)
                .await
                .map_err(|e| handle::words(&e)),
            Tree::Files(files) => files::names_in(files.keys(), dir)
                .ok_or_else(|| format!("No folder “{}” in the linked folder", dir.unwrap_or(""))),
        }
    }
}

/// A file's bytes, unless it is over the limit.
async fn read_file(file: &web_sys::File) -> FileRead {
    // A file's size is a whole number of bytes (a JS number, exact below 2^53).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let size = file.size() as u64;
    if size > MAX_BYTES {
        return FileRead::TooLarge { size };
    }
    match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
        Ok(buffer) => FileRead::Bytes(js_sys::Uint8Array::new(&buffer).to_vec()),
        Err(error) => FileRead::Unreadable {
            reason: handle::words(&error),
        },
    }
}

impl PartialEq for LinkedFolder {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl fmt::Debug for LinkedFolder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LinkedFolder")
            .field("name", &self.0.name)
            .field("read_once", &self.read_once())
            .finish_non_exhaustive()
    }
}
