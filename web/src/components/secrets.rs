//! Secrets in the texts the main module shows straight from a server (subjects, contact
//! reasons): masked by the engine (the core's detectors run there, not in this module),
//! unless the reviewer revealed them. What the engine lays out itself (a message's fields,
//! raw JSON and body, the protocol views) it masks on its own.

use crate::api::BackendError;
use crate::ask::Redact;
use crate::session::Session;
use leptos::prelude::GetUntracked;

/// Masks, in place, every secret in `texts`, unless the reviewer revealed them (read
/// untracked: the caller tracks `session.reveal`).
///
/// # Errors
/// The engine could not check them (nothing is shown unchecked).
pub async fn mask(session: Session, texts: Vec<&mut String>) -> Result<(), BackendError> {
    if session.reveal.get_untracked() || texts.is_empty() {
        return Ok(());
    }
    let asked = Redact(texts.iter().map(|t| (*t).clone()).collect());
    let masked = session
        .link()
        .ask(asked)
        .await
        .map_err(BackendError::Engine)?;
    for (text, masked) in texts.into_iter().zip(masked) {
        if let Some(masked) = masked {
            *text = masked;
        }
    }
    Ok(())
}
