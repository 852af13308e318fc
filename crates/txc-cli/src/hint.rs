//! The commands `txc` prints for the user to run next (`txc resolve …` after an unknown
//! outcome, `txc pending`'s "resolve with"): with the options that make them work as printed —
//! the server (`--base-url`), and the profile, config file, journal and account options this
//! run was given — so that a printed command does not depend on the shell's variables.

use std::sync::OnceLock;

use crate::args::GlobalArgs;

/// The options of this run a printed command repeats, set once at start.
static CARRIED: OnceLock<String> = OnceLock::new();

/// Remembers the options of `global` a printed command must repeat.
pub(crate) fn remember(global: &GlobalArgs) {
    let mut carried = String::new();
    let mut push = |flag: &str, value: Option<String>| {
        carried.push(' ');
        carried.push_str(flag);
        if let Some(value) = value {
            carried.push(' ');
            carried.push_str(&quoted(&value));
        }
    };
    if let Some(profile) = &global.profile {
        push("--profile", Some(profile.clone()));
    }
    if let Some(config) = &global.config {
        push("--config", Some(config.display().to_string()));
    }
    if let Some(dir) = &global.state_dir {
        push("--state-dir", Some(dir.display().to_string()));
    }
    if global.b2b_account {
        push("--b2b-account", None);
    }
    let _ = CARRIED.set(carried);
}

/// `command` (a `txc …` line) for the server at `base_url`, with this run's options.
pub(crate) fn runnable(command: &str, base_url: &str) -> String {
    let carried = CARRIED.get().map_or("", String::as_str);
    format!("{command} --base-url {}{carried}", quoted(base_url))
}

/// `text` as one shell word: as it is when it is plain, else in single quotes.
pub(crate) fn quoted(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=@,+%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_the_shell_would_split_or_expand_them() {
        assert_eq!(quoted("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
        assert_eq!(quoted("/tmp/my state"), "'/tmp/my state'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted("$HOME"), "'$HOME'");
        assert_eq!(quoted(""), "''");
    }
}
