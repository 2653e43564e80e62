//! What the views share: the route's parameters, loading and error states, times and
//! countdowns, a contract's integrity, panels the engine wrote, a
//! checkpoint's evidence from the project's folder, drafts kept per checkpoint, the review trail, the
//! project's linked folder, a project's traffic (with its progress) and the protocol views' navigation, and the watcher
//! behind the tab title and notifications.

pub mod checkpoint;
pub mod drafts;
pub mod evidence;
pub mod folder;
pub mod html;
pub mod load;
pub mod review;
pub mod route;
pub mod secrets;
pub mod status;
pub mod time;
pub mod traffic;
pub mod watch;
