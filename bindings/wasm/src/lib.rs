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
//! - [`session`], [`gate`], [`contract`]: sessions and task boards of a message log, checkpoint
//!   decisions, Agent-PO gates, fingerprints and audits; each returns one JSON text,
//!   `{ok}` or `{error}` ([`reply`]), that the JS layer unwraps or throws.
//! - [`build`]: messages built from their own fields, and each family's error reply.
//! - [`conformance`]: the conformance report of a message log, per agent and check.
//! - [`typescript`]: the generated TypeScript declarations the package ships.
//!
//! ## Adding a core function to the package
//!
//! 1. **Export** (here): one `#[wasm_bindgen(js_name = camelCaseName)]` function in the file of
//!    its area (`src/session.rs`, `src/contract.rs`, …, declared above), taking JSON text or
//!    bytes and plain numbers, calling the core once and returning its result as JSON text
//!    ([`reply::reply`]: `{ok}`, or `{error}` with a code from a `From<CoreError> for
//!    CallError` in [`reply`]; a small `#[serde(rename_all = "camelCase")]` struct only where
//!    the core's type is not the shape JS should see). Nothing else: no rule of the protocol
//!    lives here.
//! 2. **Types**: the result's TypeScript in [`typescript`] (generated from the core's data where
//!    it has any), then `SWITCHBOARD_BLESS=1 cargo test -p switchboard-wasm --test typescript`
//!    rewrites `js/types.d.ts`.
//! 3. **JS**: in `js/api.js` one function (`const x = (input) => unwrap(glue.x(…))`, which
//!    returns the value or throws a `SwitchboardError`) and its name in the object `createApi`
//!    returns.
//! 4. **Declaration**: `export declare function x(…)` with its TSDoc in `js/index.d.ts`. That
//!    file is the package's one export list: `assemble.mjs` generates the entries' exports from
//!    it and fails the build unless `createApi` returns exactly what it declares.
//! 5. **Test**: a case in `tests/js/api.test.mjs`; `scripts/npm-package.sh` and
//!    `node --test bindings/wasm/tests/js/` run it from the packed tarball.

#[cfg(feature = "full")]
pub mod build;
#[cfg(feature = "full")]
pub mod conformance;
#[cfg(feature = "full")]
pub mod contract;
#[cfg(feature = "full")]
pub mod gate;
pub mod packed;
#[cfg(feature = "full")]
pub mod pane;
#[cfg(feature = "full")]
pub mod records;
pub mod reply;
pub mod report;
pub mod schema;
#[cfg(feature = "full")]
pub mod session;
pub mod typescript;
pub mod validate;

#[cfg(feature = "bench")]
mod bench;
