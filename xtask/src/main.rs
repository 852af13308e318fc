//! `cargo xtask`: maintenance tasks of the txc workspace.
//!
//! - `cargo xtask ci [job...]` — exactly what CI runs (`fmt`, `clippy`,
//!   `test`, `doc`, `msrv`, `features`, `package`, and `deny` on request).
//! - `cargo xtask bump <patch|minor|major|X.Y.Z>` — new workspace version and
//!   released changelog section.
//! - `cargo xtask release [--execute]` — pre-release checks; with `--execute`,
//!   publishing in dependency order and tagging.
//! - `cargo xtask deps` — dependency counts and the dependency policy.

// Printing progress and reports is this tool's whole job.
#![allow(clippy::print_stdout)]

mod bump;
mod changelog;
mod ci;
mod cmd;
mod date;
mod deps;
mod error;
mod features;
mod git;
mod manifest;
mod metadata;
mod msrv;
mod release;
mod topo;
mod version;

use std::process::ExitCode;

use error::XtaskError;

/// The help text.
const USAGE: &str = "\
cargo xtask <command>

commands:
  ci [job...]                          run CI jobs (default: fmt clippy test doc msrv features package;
                                       also: deny)
  bump <patch|minor|major|X.Y.Z>       bump the workspace version and release the changelog's Unreleased
  release [--execute]                  check a release (dry run); --execute publishes and tags
  deps                                 dependency counts and the dependency policy
  help                                 this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the command named by the first argument.
fn dispatch(args: &[String]) -> Result<(), XtaskError> {
    let Some((command, rest)) = args.split_first() else {
        println!("{USAGE}");
        return Err(XtaskError::Usage("no command given".into()));
    };
    match command.as_str() {
        "ci" => ci::run(rest),
        "bump" => bump::run(rest),
        "release" => release::run(rest),
        "deps" => deps::run(rest),
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => {
            println!("{USAGE}");
            Err(XtaskError::Usage(format!("unknown command `{other}`")))
        }
    }
}
