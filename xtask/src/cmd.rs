//! Spawning child processes (cargo, git) from the workspace root.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

use crate::error::XtaskError;

/// The workspace root: the parent of this crate's manifest directory.
pub(crate) fn workspace_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.parent()
        .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
}

/// A command line to run from the workspace root.
#[derive(Debug, Clone)]
pub(crate) struct Cmd {
    /// The executable to spawn.
    program: String,
    /// How the executable is shown to the user (`cargo` rather than a full path).
    label: String,
    /// Arguments.
    args: Vec<String>,
    /// Extra environment variables.
    envs: Vec<(String, String)>,
}

impl Cmd {
    /// A command running `program`.
    pub(crate) fn new(program: &str) -> Self {
        Self {
            program: program.to_owned(),
            label: program.to_owned(),
            args: Vec::new(),
            envs: Vec::new(),
        }
    }

    /// A command running the cargo that launched xtask (`$CARGO`), or `cargo`.
    pub(crate) fn cargo() -> Self {
        let program = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        Self {
            program,
            label: "cargo".to_owned(),
            args: Vec::new(),
            envs: Vec::new(),
        }
    }

    /// Appends one argument.
    pub(crate) fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Appends several arguments.
    pub(crate) fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable for the child.
    pub(crate) fn env(mut self, key: &str, value: &str) -> Self {
        self.envs.push((key.to_owned(), value.to_owned()));
        self
    }

    /// The command line as a user would type it.
    pub(crate) fn display(&self) -> String {
        let mut parts: Vec<String> = self
            .envs
            .iter()
            .map(|(k, v)| format!("{k}={}", quote(v)))
            .collect();
        parts.push(self.label.clone());
        parts.extend(self.args.iter().map(|a| quote(a)));
        parts.join(" ")
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).current_dir(workspace_root());
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        cmd
    }

    fn check_status(&self, status: ExitStatus) -> Result<(), XtaskError> {
        if status.success() {
            Ok(())
        } else {
            Err(XtaskError::Command {
                command: self.display(),
                status: status.to_string(),
            })
        }
    }

    fn spawn_error(&self) -> impl FnOnce(std::io::Error) -> XtaskError {
        XtaskError::io(format!("could not run `{}`", self.display()))
    }

    /// Prints the command line, runs it with inherited stdio, and fails when it
    /// exits unsuccessfully.
    pub(crate) fn run(&self) -> Result<(), XtaskError> {
        println!("$ {}", self.display());
        let status = self.command().status().map_err(self.spawn_error())?;
        self.check_status(status)
    }

    /// Runs the command and returns its stdout (stderr is passed through);
    /// fails when it exits unsuccessfully.
    pub(crate) fn read(&self) -> Result<String, XtaskError> {
        let output = self
            .command()
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .map_err(self.spawn_error())?;
        self.check_status(output.status)?;
        String::from_utf8(output.stdout)
            .map_err(|e| XtaskError::Parse(format!("`{}` printed non-UTF-8: {e}", self.display())))
    }

    /// Runs the command silently; returns its trimmed stdout when it succeeds
    /// and `None` when it cannot be spawned or fails. Used for probes such as
    /// "is cargo-deny installed?".
    pub(crate) fn probe(&self) -> Option<String> {
        let output = self
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if output.status.success() {
            Some(String::from_utf8_lossy(&output.stdout).trim().to_owned())
        } else {
            None
        }
    }

    /// Runs the command and returns its exit success plus captured stderr
    /// (stdout is passed through; stderr is echoed after the child exits).
    pub(crate) fn run_capturing_stderr(&self) -> Result<(bool, String), XtaskError> {
        println!("$ {}", self.display());
        let output = self
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped())
            .output()
            .map_err(self.spawn_error())?;
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        eprint!("{stderr}");
        Ok((output.status.success(), stderr))
    }

    /// Prints the command line and runs it, echoing its stdout line by line
    /// while handing every line to `on_line`; fails when it exits
    /// unsuccessfully (after all lines were handed over).
    pub(crate) fn run_streaming(&self, on_line: &mut dyn FnMut(&str)) -> Result<(), XtaskError> {
        println!("$ {}", self.display());
        let mut child = self
            .command()
            .stdout(Stdio::piped())
            .spawn()
            .map_err(self.spawn_error())?;
        if let Some(stdout) = child.stdout.take() {
            let mut out = std::io::stdout();
            for line in BufReader::new(stdout).lines() {
                let line = line.map_err(XtaskError::io("reading child output"))?;
                // Echo failures (closed stdout) must not stop us collecting lines.
                let _ = writeln!(out, "{line}");
                on_line(&line);
            }
        }
        let status = child.wait().map_err(self.spawn_error())?;
        self.check_status(status)
    }
}

/// Quotes an argument for display when it contains shell-special characters.
fn quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_quotes_env_and_args() {
        let cmd = Cmd::new("cargo")
            .env("RUSTDOCFLAGS", "-D warnings")
            .args(["doc", "--workspace"])
            .arg("it's");
        assert_eq!(
            cmd.display(),
            r"RUSTDOCFLAGS='-D warnings' cargo doc --workspace 'it'\''s'"
        );
    }
}
