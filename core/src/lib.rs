//! Switchboard protocol core.
//!
//! One library for every message family of the Agent Mail coordination protocols:
//! typed validation with JSON-Pointer paths and stable error codes, and the
//! deterministic `doctor-agent-mail-pane-v1` pane normalizer.

#[cfg(feature = "cli")]
pub mod cli;
pub mod pane;
pub mod protocol;
