//! The error type shared by every xtask command.

use std::fmt;

/// Everything that can make an xtask command fail.
#[derive(Debug)]
pub(crate) enum XtaskError {
    /// The command line could not be understood.
    Usage(String),
    /// An I/O operation (reading a file, spawning a process) failed.
    Io {
        /// What was being attempted.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A child process ran but exited unsuccessfully.
    Command {
        /// The command line, as displayed to the user.
        command: String,
        /// How it exited.
        status: String,
    },
    /// A manifest, changelog, version or JSON document could not be understood
    /// or edited.
    Parse(String),
    /// A check ran and found problems (already printed in detail).
    Check(String),
}

impl XtaskError {
    /// Returns a closure turning an [`std::io::Error`] into [`XtaskError::Io`]
    /// with the given context, for use with `map_err`.
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let context = context.into();
        move |source| Self::Io { context, source }
    }
}

impl fmt::Display for XtaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(msg) => write!(f, "usage: {msg}"),
            Self::Io { context, source } => write!(f, "{context}: {source}"),
            Self::Command { command, status } => write!(f, "`{command}` failed ({status})"),
            Self::Parse(msg) => write!(f, "{msg}"),
            Self::Check(msg) => write!(f, "check failed: {msg}"),
        }
    }
}

impl std::error::Error for XtaskError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
