//! Agent Mail traffic, decoded in one place. Each mail message (id, thread, sender,
//! recipients, time, acknowledgement) is read by one row decoder (`agent_mail/members.rs`)
//! whether it arrives as bytes or parsed; sessions, task boards and checkpoints are folds over
//! [`Envelope`]s.
//!
//! - [`MailRow`]: the server's row, typed ([`MailRow::rows`] of any reply); [`Contact`]: a
//!   contact row ([`Contact::rows`]).
//! - [`Envelope`]: a row (or a bare protocol message) and the protocol message it carries,
//!   validated once: [`Envelope::decode`] (a `Value`), [`Envelope::decode_slice`] (bytes),
//!   [`Envelope::from_row`] (a decoded [`MailRow`]).
//! - [`Draft`]: a message ready to send (what `send_message` takes).
//! - [`read_log`]: a whole log, as a JSON array or JSON Lines.
//! - [`replies`]: real servers' replies (JSON-RPC envelopes, tool results, resources) decoded
//!   into payloads and acknowledgement state; typed rows are [`MailRow::rows`] and
//!   [`Contact::rows`].

mod contact;
mod draft;
mod envelope;
mod log;
mod mail_row;
mod members;
mod raw;
pub mod replies;

pub use contact::Contact;
pub use draft::{Draft, Importance};
pub use envelope::{Carried, Envelope, InvalidMessage, ProtocolMessage};
pub use log::{read_log, LogError};
pub use mail_row::MailRow;
pub use members::normalize_timestamp;
pub(crate) use members::{ack_flag, FlagError};
pub(crate) use raw::{Key, RawRow, Row, Scalar, Skip, SkipVisitor};
