//! The built-in demo: several projects and agents with hundreds of messages in every
//! protocol family, carried in Agent Mail `body_md` like real traffic — some deliberately
//! invalid — and curated sessions and tasks for the protocol views. Generated
//! deterministically and kept in memory by the demo server, which runs in the engine
//! worker; the UI reaches it through `crate::link::demo::DemoBackend`.
//!
//! - [`call`]: the server's calls, each with its answer type.
//! - [`world`]: projects, agents, contacts, reservations; [`dates`]: the demo's clock.
//! - [`gen`]: the generator; [`traffic`]: the everyday traffic; [`scenarios`]: the curated
//!   part; [`scale`]: the synthetic 1k/10k/100k inboxes.
//! - [`server`]: the in-memory server answering the calls; [`planner`]: its planner's answers.
//! - [`folder`]: the virtual project folder its Pair sessions' artifacts are read from.

pub mod call;
pub mod dates;
pub mod folder;
pub mod gen;
pub mod planner;
pub mod scale;
pub mod scenarios;
pub mod server;
pub mod traffic;
pub mod world;

#[cfg(test)]
mod tests;
