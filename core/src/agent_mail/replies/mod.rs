//! Replies of real Agent Mail servers, decoded in one place: the payload of any reply and the
//! acknowledgement state (the typed rows the pane and the console read are
//! [`super::MailRow::rows`] and [`super::Contact::rows`]).
//!
//! Real replies are not the reference's tidy payloads:
//! - tool results arrive as a JSON-RPC reply whose `result` holds
//!   `structuredContent` and/or `content[0].text` (the same JSON as a string);
//!   tool errors are `isError: true` with a text, resource errors are JSON-RPC `error`s;
//! - list tools wrap rows as `{"result": [...]}`, and the mcp-mail fork's
//!   `call_extended_tool` adds one more `{"result": ...}` layer;
//! - resources (`resources/read`) return `contents[0].text` holding JSON such as
//!   `{project, agent, count, messages: [...]}`;
//! - `search_messages` gives `ack_required` as `0`/`1` (the pane accepts that as is);
//! - send replies put rows under `deliveries[].payload`, archive copies use `created`
//!   instead of `created_ts`;
//! - `GET /mail/api/unified-inbox` returns `{messages: [...]}` with `sender`/`sender_name`,
//!   no `ack_required`, and naive `YYYY-MM-DD HH:MM:SS.ffffff` UTC timestamps;
//! - read/ack state is only visible through `resource://views/ack-required/{agent}`.
//!
//! - [`payload`]: the payload of any reply ([`reply_payload`]) and the message rows in it;
//! - [`acks`]: acknowledgement state (the ack-required view, acknowledge replies).
//!
//! Every path reads row members through the one row decoder (`agent_mail/members.rs`).

pub mod acks;
pub mod payload;

pub use acks::{acknowledged_message_id, pending_ack_ids};
pub use payload::{reply_payload, AdapterError};
