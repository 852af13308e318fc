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
use crate::origin::Origin;

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
    let (profile, profile_name) = match profile(global)? {
        Some((profile, name)) => (profile, Some(name)),
        None => (Profile::default(), None),
    };
    let from_profile = || {
        profile_name
            .clone()
            .unwrap_or_else(|| "the profile".to_owned())
    };
    let base_url = global
        .base_url
        .clone()
        .or_else(|| profile.base_url.clone())
        .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
    let (api_key, key_from) = match (&global.api_key, &profile.api_key) {
        (Some(key), _) => (Some(key.clone()), flag_or_env("--api-key", "TXC_API_KEY")),
        (None, Some(key)) => (Some(key.clone()), from_profile()),
        (None, None) => (None, String::new()),
    };
    let (secret, secret_from) = if global.secret_stdin {
        (
            Some(secret_from_stdin()?),
            "standard input (--secret-stdin)".to_owned(),
        )
    } else {
        match std::env::var(ENV_API_SECRET) {
            Ok(secret) => (Some(Zeroizing::new(secret)), ENV_API_SECRET.to_owned()),
            Err(_) => (
                profile.api_secret.clone().map(Zeroizing::new),
                from_profile(),
            ),
        }
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
    let credentials_from = match (&credentials, key_from == secret_from) {
        (None, _) => "none configured".to_owned(),
        (Some(_), true) => key_from,
        (Some(_), false) => format!("key from {key_from}, secret from {secret_from}"),
    };
    crate::origin::set(Origin {
        base_url: base_url.clone(),
        credentials: credentials_from,
    });
    Ok(Target {
        base_url,
        credentials,
    })
}

/// `flag` when it is on the command line, else the variable clap read it from.
fn flag_or_env(flag: &str, var: &str) -> String {
    let on_the_line = std::env::args().any(|a| a == flag || a.starts_with(&format!("{flag}=")));
    if on_the_line {
        flag.to_owned()
    } else {
        var.to_owned()
    }
}

/// The named profile (an error when it cannot be read), else the `default` profile if a
/// config file exists, else none; with how to name where it came from.
fn profile(global: &GlobalArgs) -> Result<Option<(Profile, String)>, CliError> {
    let named = |name: &str, path: &Path| format!("profile {name:?} of {}", path.display());
    match (&global.profile, path(global)) {
        (Some(name), Some(path)) => {
            read_profile(&path, name).map(|p| Some((p, named(name, &path))))
        }
        (Some(name), None) => Err(CliError::invalid(format!(
            "profile {name:?}: no config directory on this system; pass --config PATH"
        ))),
        (None, Some(path)) if path.exists() => {
            let mut file = read_file(&path)?;
            Ok(file
                .profiles
                .remove(DEFAULT_PROFILE)
                .map(|p| (p, named(DEFAULT_PROFILE, &path))))
        }
        (None, _) => Ok(None),
    }
}

/// The config file's path: `--config` (or `TXC_CONFIG`), else the default one.
pub(crate) fn path(global: &GlobalArgs) -> Option<PathBuf> {
    global.config.clone().or_else(default_path)
}

/// What `txc config init` writes: every key, commented, with the sandbox as an example.
const TEMPLATE: &str = r#"# txc's config file: one [profiles.NAME] table per account or server. `default` is used
# when no profile is named (--profile NAME, TXC_PROFILE). Flags and TXC_* variables win over
# it. Keep this file private (chmod 600): txc refuses it when others may read it.

[profiles.default]
# base_url = "https://whitebit.com"
# api_key = "your API key"
# api_secret = "your API secret"

# [profiles.sandbox]
# base_url = "http://127.0.0.1:8080"     # `txc sandbox --port 8080` prints its demo key
# api_key = "..."
# api_secret = "..."
"#;

/// `txc config init`: writes [`TEMPLATE`] at the config file's path, private from its first
/// byte, never over an existing file; the path written.
pub(crate) fn init(global: &GlobalArgs) -> Result<PathBuf, CliError> {
    let path = path(global).ok_or_else(|| {
        CliError::invalid("no config directory on this system; pass --config PATH")
    })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::invalid(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&path).map_err(|e| {
        let why = if e.kind() == std::io::ErrorKind::AlreadyExists {
            "it exists (txc never overwrites it)".to_owned()
        } else {
            e.to_string()
        };
        CliError::invalid(format!("cannot write {}: {why}", path.display()))
    })?;
    std::io::Write::write_all(&mut file, TEMPLATE.as_bytes())
        .map_err(|e| CliError::invalid(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
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
