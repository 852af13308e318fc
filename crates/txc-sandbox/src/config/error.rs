//! [`SandboxError`]: why starting or driving a sandbox failed.

use std::net::SocketAddr;

/// Why starting or driving a [`crate::Sandbox`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// The listening socket could not be bound (port taken, address not local, …).
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The server's thread or runtime could not be started.
    #[error("cannot start the sandbox server")]
    Startup(#[source] std::io::Error),
    /// The builder's configuration is unusable (a bad decimal, a duplicate key, …).
    #[error("invalid configuration of {what}: {reason}")]
    Config {
        /// What is misconfigured, e.g. `market BTC_USDT`.
        what: String,
        /// Why.
        reason: String,
    },
    /// No market of that name is configured.
    #[error("unknown market {0:?}")]
    UnknownMarket(String),
    /// No account with that API key is configured.
    #[error("unknown account {0:?}")]
    UnknownAccount(String),
    /// A value passed to a control method is unusable.
    #[error("invalid {field} {value:?}: {reason}")]
    InvalidValue {
        /// Which argument, e.g. `price`.
        field: &'static str,
        /// The value given.
        value: String,
        /// Why it is rejected.
        reason: &'static str,
    },
}
