//! Target selection for the txc examples: the embedded sandbox, or the server named by
//! `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET` — the `--live` guard that refuses a
//! server that is not on loopback unless asked, and either transport's client builder for the
//! target. Everything else the examples show themselves.
//!
//! Not published; copy what you need.
//!
//! ```
//! use txc_examples::{check_live, is_loopback};
//! assert!(is_loopback("http://127.0.0.1:8080"));
//! assert!(check_live("https://whitebit.com", false).is_err()); // needs --live
//! assert!(check_live("https://whitebit.com", true).is_ok());
//! ```

use std::fmt;

use txc_sandbox::{Sandbox, SandboxError, demo};
use txc_sign::Credentials;

/// The server's base URL, e.g. `https://whitebit.com`.
pub const ENV_BASE_URL: &str = "TXC_BASE_URL";
/// The public API key.
pub const ENV_API_KEY: &str = "TXC_API_KEY";
/// The API secret (never printed).
pub const ENV_API_SECRET: &str = "TXC_API_SECRET";
/// Allows a server that is not on loopback: its orders are real.
pub const LIVE_FLAG: &str = "--live";

/// Why an example could not start; nothing was sent. `Debug` reads like `Display`, because
/// `main` returning `Err` prints it with `Debug`.
#[non_exhaustive]
pub enum SetupError {
    /// Some, but not all, of the three variables are set; these are missing.
    PartialEnv(Vec<&'static str>),
    /// The server is not on loopback and `--live` was not given.
    LiveRequired(String),
    /// An argument other than `--live`.
    UnknownArgument(String),
    /// Unusable credentials (e.g. a key with spaces).
    Credentials(txc_sign::Error),
    /// The embedded sandbox could not start.
    Sandbox(SandboxError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PartialEnv(missing) => write!(
                f,
                "set {ENV_BASE_URL}, {ENV_API_KEY} and {ENV_API_SECRET} together (missing: {}), \
                 or none of them to use the embedded sandbox",
                missing.join(", ")
            ),
            Self::LiveRequired(url) => write!(
                f,
                "refusing to contact {url}: it is not on loopback and the orders are real; \
                 nothing was sent. Add `-- {LIVE_FLAG}` if you mean it"
            ),
            Self::UnknownArgument(arg) => write!(f, "unknown argument {arg:?}; only {LIVE_FLAG}"),
            Self::Credentials(e) => write!(f, "unusable credentials: {e}"),
            Self::Sandbox(e) => write!(f, "cannot start the embedded sandbox: {e}"),
        }
    }
}

impl fmt::Debug for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for SetupError {}

/// Whether the arguments (after the program name) ask for `--live`; anything else is refused.
pub fn parse_live<S: Into<String>>(args: impl IntoIterator<Item = S>) -> Result<bool, SetupError> {
    let mut live = false;
    for arg in args {
        match arg.into() {
            arg if arg == LIVE_FLAG => live = true,
            other => return Err(SetupError::UnknownArgument(other)),
        }
    }
    Ok(live)
}

/// A server named by the environment. `Debug` never shows the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct Remote {
    /// The base URL.
    pub base_url: String,
    /// The public API key.
    pub api_key: String,
    /// The API secret: pass it to [`Credentials::new`], never print it.
    pub api_secret: String,
}

impl fmt::Debug for Remote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Remote({}, key {}, secret <redacted>)",
            self.base_url, self.api_key
        )
    }
}

/// The server from an environment lookup: `None` (the embedded sandbox) when none of the three
/// variables is set, the server when all are, an error naming the missing ones otherwise.
/// Empty values count as unset.
pub fn remote_from_env(
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Option<Remote>, SetupError> {
    let [base_url, api_key, api_secret] = [ENV_BASE_URL, ENV_API_KEY, ENV_API_SECRET]
        .map(|name| lookup(name).filter(|v| !v.is_empty()));
    match (base_url, api_key, api_secret) {
        (None, None, None) => Ok(None),
        (Some(base_url), Some(api_key), Some(api_secret)) => Ok(Some(Remote {
            base_url,
            api_key,
            api_secret,
        })),
        (b, k, s) => Err(SetupError::PartialEnv(
            [(ENV_BASE_URL, b), (ENV_API_KEY, k), (ENV_API_SECRET, s)]
                .into_iter()
                .filter_map(|(name, value)| value.is_none().then_some(name))
                .collect(),
        )),
    }
}

/// Whether `base_url`'s host is on loopback (`txc-sign`'s, shared with the `txc` command line).
pub use txc_sign::is_loopback;

/// The `--live` guard: loopback is always allowed, any other server only with `live`.
pub fn check_live(base_url: &str, live: bool) -> Result<(), SetupError> {
    if live || is_loopback(base_url) {
        Ok(())
    } else {
        Err(SetupError::LiveRequired(base_url.to_owned()))
    }
}

/// The server an example talks to, with its credentials; on the embedded sandbox it owns the
/// [`Sandbox`] (dropping the target stops it).
pub struct Target {
    /// The base URL, for the builders' `.base_url(..)`.
    pub base_url: String,
    /// The credentials to sign with (cheap to clone).
    pub credentials: Credentials,
    /// The embedded sandbox, if that is the server.
    pub sandbox: Option<Sandbox>,
}

impl Target {
    /// Reads the command line and the environment; starts the embedded sandbox (with its
    /// B2B partner demo key) unless the environment names a server — refused without
    /// `--live` unless on loopback, before any I/O.
    pub fn from_env() -> Result<Self, SetupError> {
        let live = parse_live(std::env::args().skip(1))?;
        let remote = remote_from_env(|name| std::env::var(name).ok())?;
        Self::new(live, remote)
    }

    /// The target for decisions already made: `remote` from [`remote_from_env`].
    pub fn new(live: bool, remote: Option<Remote>) -> Result<Self, SetupError> {
        let Some(remote) = remote else {
            let sandbox = Sandbox::start().map_err(SetupError::Sandbox)?;
            return Ok(Self {
                base_url: sandbox.base_url().to_owned(),
                credentials: Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
                    .map_err(SetupError::Credentials)?,
                sandbox: Some(sandbox),
            });
        };
        check_live(&remote.base_url, live)?;
        Ok(Self {
            credentials: Credentials::new(remote.api_key, remote.api_secret.as_bytes())
                .map_err(SetupError::Credentials)?,
            base_url: remote.base_url,
            sandbox: None,
        })
    }

    /// The blocking client's builder for this target:
    /// `txc_blocking::Client::builder(credentials).base_url(base_url)` — add settings, then
    /// `build()`.
    pub fn blocking(&self) -> txc_blocking::ClientBuilder {
        txc_blocking::Client::builder(self.credentials.clone()).base_url(&self.base_url)
    }

    /// The async client's builder for this target:
    /// `txc_async::Client::builder(credentials).base_url(base_url)` — add settings, then
    /// `build()`.
    pub fn asynchronous(&self) -> txc_async::ClientBuilder {
        txc_async::Client::builder(self.credentials.clone()).base_url(&self.base_url)
    }
}
