//! Switchboard protocol core.
//!
//! One library for every message family of the Agent Mail coordination protocols:
//! typed validation with JSON-Pointer paths and stable error codes, and the
//! deterministic `doctor-agent-mail-pane-v1` pane normalizer.

pub mod agent_mail;
pub mod audit;
#[cfg(feature = "cli")]
pub mod cli;
pub mod conformance;
pub mod evidence;
pub mod factory;
pub mod fingerprint;
pub mod glob;
mod names;
pub mod pane;
pub mod protocol;
pub mod session;
pub mod syntax;
pub mod time;
