//! The evidence a reviewer judges at a checkpoint, read from the project's folder: what the
//! page read of a file (the bytes, or why there are none), handed to the engine, which turns
//! it into the core's `evidence::content::Content` and the views' models.

use serde::{Deserialize, Serialize};

/// A file as the page read it from the linked folder (or the demo's virtual folder). The page
/// only reads bytes; what they are (text, binary, lossy) and their SHA-256 are the core's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileRead {
    /// The file's bytes.
    Bytes(Vec<u8>),
    /// Not read: larger than the core's limit (`evidence::content::MAX_BYTES`), known by its
    /// size before reading.
    TooLarge {
        /// Its size in bytes.
        size: u64,
    },
    /// No such file in the folder.
    Missing,
    /// The folder refused the read (permission revoked, a directory, …), in the browser's words.
    Unreadable {
        /// Why.
        reason: String,
    },
}
