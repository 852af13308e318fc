//! Where the server and the credentials come from: flags, `TXC_*` variables, a profile of the
//! config file, standard input. The secret is never a flag.

use std::collections::BTreeMap;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use txc_blocking::Credentials;
use zeroize::{Zeroize as _, Zeroizing};

use crate::args::GlobalArgs;
use crate::exit::CliError;

/// The server when nothing names one.
pub(crate) const DEFAULT_BASE_URL: &str = "https://whitebit.com";
/// The variable holding the secret.
pub(crate) const ENV_API_SECRET: &str = "TXC_API_SECRET";
/// The profile used when none is named.
const DEFAULT_PROFILE: &str = "default";

/// The config file: `[profiles.NAME]` tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
}

/// One profile. No `Debug`: it may hold the secret, which is wiped when it is dropped.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Profile {
    base_url: Option<String>,
    api_key: Option<String>,
    api_secret: Option<String>,
}

impl Drop for Profile {
    fn drop(&mut self) {
        if let Some(secret) = &mut self.api_secret {
            secret.zeroize();
        }
    }
}

/// The server and, when a command needs them, the credentials.
pub(crate) struct Target {
    /// The base URL.
    pub(crate) base_url: String,
    /// The credentials, if any were configured.
    pub(crate) credentials: Option<Credentials>,
}

/// Reads the configuration in its order of precedence. Nothing is sent.
pub(crate) fn target(global: &GlobalArgs) -> Result<Target, CliError> {
    let profile = profile(global)?.unwrap_or_default();
    let base_url = global
        .base_url
        .clone()
        .or_else(|| profile.base_url.clone())
        .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
    let api_key = global.api_key.clone().or_else(|| profile.api_key.clone());
    let secret = if global.secret_stdin {
        Some(secret_from_stdin()?)
    } else {
        std::env::var(ENV_API_SECRET)
            .ok()
            .map(Zeroizing::new)
            .or_else(|| profile.api_secret.clone().map(Zeroizing::new))
    };
    let credentials = match (api_key, secret) {
        (Some(key), Some(secret)) => Some(
            Credentials::new(key, secret.as_str())
                .map_err(|e| CliError::invalid(format!("unusable credentials: {e}")))?,
        ),
        (None, None) => None,
        (Some(_), None) => {
            return Err(CliError::invalid(
                "an API key but no secret: set TXC_API_SECRET, put api_secret in the profile, \
                 or pass --secret-stdin",
            ));
        }
        (None, Some(_)) => {
            return Err(CliError::invalid(
                "a secret but no API key: set TXC_API_KEY, --api-key or api_key in the profile",
            ));
        }
    };
    Ok(Target {
        base_url,
        credentials,
    })
}

/// The named profile (an error when it cannot be read), else the `default` profile if a
/// config file exists, else none.
fn profile(global: &GlobalArgs) -> Result<Option<Profile>, CliError> {
    let path = match &global.config {
        Some(path) => Some(path.clone()),
        None => default_path(),
    };
    match (&global.profile, path) {
        (Some(name), Some(path)) => read_profile(&path, name).map(Some),
        (Some(name), None) => Err(CliError::invalid(format!(
            "profile {name:?}: no config directory on this system; pass --config PATH"
        ))),
        (None, Some(path)) if path.exists() => {
            let mut file = read_file(&path)?;
            Ok(file.profiles.remove(DEFAULT_PROFILE))
        }
        (None, _) => Ok(None),
    }
}

/// `<config dir>/txc/config.toml`.
fn default_path() -> Option<PathBuf> {
    dirs::config_dir().map(|dir| dir.join("txc").join("config.toml"))
}

fn read_profile(path: &Path, name: &str) -> Result<Profile, CliError> {
    let mut file = read_file(path)?;
    file.profiles.remove(name).ok_or_else(|| {
        CliError::invalid(format!(
            "no profile {name:?} in {} (it has: {})",
            path.display(),
            file.profiles.keys().cloned().collect::<Vec<_>>().join(", ")
        ))
    })
}

/// Reads and parses the config file, refusing one that others may read.
fn read_file(path: &Path) -> Result<ConfigFile, CliError> {
    check_private(path)?;
    let text = std::fs::read_to_string(path)
        .map(Zeroizing::new)
        .map_err(|e| CliError::invalid(format!("cannot read {}: {e}", path.display())))?;
    // toml's error messages quote the offending line, which may hold the secret: say where only.
    toml::from_str(&text).map_err(|e| {
        let at = e
            .span()
            .map(|span| format!(" at byte {}", span.start))
            .unwrap_or_default();
        CliError::invalid(format!(
            "{} is not a valid txc config file{at} (expected [profiles.NAME] tables with \
             base_url, api_key and api_secret)",
            path.display()
        ))
    })
}

/// On Unix, a config file whose mode lets the group or others in is refused: it may hold the
/// secret.
#[cfg(unix)]
fn check_private(path: &Path) -> Result<(), CliError> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(path)
        .map_err(|e| CliError::invalid(format!("cannot read {}: {e}", path.display())))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(CliError::invalid(format!(
            "refusing {}: others may read it (mode {:o}) and it may hold your API secret; \
             run `chmod 600 {}`",
            path.display(),
            mode & 0o777,
            path.display()
        )));
    }
    Ok(())
}

/// Elsewhere the file's ACLs are the user's to keep private.
#[cfg(not(unix))]
fn check_private(_path: &Path) -> Result<(), CliError> {
    Ok(())
}

/// The first line of standard input, without its line ending.
fn secret_from_stdin() -> Result<Zeroizing<String>, CliError> {
    let mut line = Zeroizing::new(String::new());
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| CliError::invalid(format!("cannot read the secret from stdin: {e}")))?;
    let secret = Zeroizing::new(line.trim_end_matches(['\r', '\n']).to_owned());
    if secret.is_empty() {
        return Err(CliError::invalid(
            "--secret-stdin: standard input held no secret",
        ));
    }
    Ok(secret)
}
