//! What the views share: the route's parameters, loading and error states, times and
//! countdowns, checkpoints and integrity, a message's labelled fields, audit reports, a
//! project's traffic (with its progress) and the protocol views' navigation, and the watcher
//! behind the tab title and notifications.

pub mod audit;
pub mod checkpoint;
pub mod fields;
pub mod load;
pub mod route;
pub mod secrets;
pub mod status;
pub mod time;
pub mod traffic;
pub mod watch;
