//! One module per screen of the console; [`common`] holds what they share.

pub mod agents;
pub mod common;
pub mod compose;
pub mod connect;
pub mod contacts;
pub mod mailbox;
pub mod message;
pub mod operator;
pub mod projects;
pub mod reservations;
pub mod search;
pub mod thread;
