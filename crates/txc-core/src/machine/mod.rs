//! The protocol a transport drives: ask a [`Machine`] for its next [`Step`] with the time —
//! wait, send, or finish — and hand it each response; a [`Wake`] may end a wait early. One
//! endpoint's [`Call`] across its attempts (each an [`AttemptRecord`]) is the machine every
//! other is built from; [`ClientConfig`] — the one configuration both transports' builders
//! wrap — makes the [`ClientCore`] where each machine starts. A paged list is read page by page
//! by a [`ListRead`], each page a [`NextPage`] machine.

mod attempt;
mod call;
mod client_core;
mod client_flex;
mod client_trading;
mod concurrently;
mod config;
mod list_read;
mod protocol;
mod settings;
pub(crate) mod trace;
mod wake;

pub use attempt::AttemptRecord;
pub use call::Call;
pub use client_core::{ClientCore, DEFAULT_MAX_RESPONSE_BYTES, MAX_NONCE_LEAD_MS};
pub(crate) use concurrently::Concurrently;
pub use config::{
    ClientConfig, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, DEFAULT_USER_AGENT, HttpSettings,
};
pub use list_read::{ListRead, NextPage};
pub use protocol::{Machine, Step};
pub use wake::{Signal, Wake, Woken};
