//! Where this run's server and credentials came from, kept once its configuration is read
//! (`config.rs` sets it) so that every error can name them (`exit.rs` reads it).

use std::sync::OnceLock;

/// Where a run's server and credentials came from, as its errors name them.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    /// The base URL the run talks to.
    pub(crate) base_url: String,
    /// Where the key and the secret came from, e.g. `TXC_API_KEY and TXC_API_SECRET` or
    /// `profile "default" of /home/me/.config/txc/config.toml`.
    pub(crate) credentials: String,
}

/// The run's [`Origin`], once its configuration is read.
static ORIGIN: OnceLock<Origin> = OnceLock::new();

/// The server and credential source of this run, if a command read its configuration.
pub(crate) fn origin() -> Option<&'static Origin> {
    ORIGIN.get()
}

/// Keeps `origin` as the run's; the first one read stays (a run reads one configuration).
pub(crate) fn set(origin: Origin) {
    let _ = ORIGIN.set(origin);
}
