//! The wasm-bindgen binding of `switchboard-core`, the low-level half of the
//! `switchboard-protocol` npm package (the JS layer in `../js/` is the other half).
//!
//! Every export is a thin mapping over one core call, shaped for the JS↔wasm boundary:
//! one string or byte array in, a number out on the common path (a valid message), and a
//! JSON string only when there is more to say (issues, a declared version, a pane snapshot).
//! No JS object is walked from Rust, so `serde-wasm-bindgen`'s blind spots (it ignores
//! `deny_unknown_fields`, turns maps into ES `Map`s) never apply.
//!
//! - [`validate`]: validation, single and JSON Lines, with results packed by [`report`].
//! - [`schema`]: JSON Schema export and the registry tables the JS layer builds on.
//! - [`pane`]: the Agent Mail pane normalizer.
//! - [`typescript`]: the generated TypeScript declarations the package ships.

pub mod pane;
pub mod report;
pub mod schema;
pub mod typescript;
pub mod validate;

#[cfg(feature = "bench")]
mod bench;
