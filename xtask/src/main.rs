//! `cargo xtask`: maintenance tasks of the txc workspace, as thin as possible over cargo, git
//! and the tools CI installs (cargo-hack, cargo-semver-checks, cargo-deny). What stays here is
//! this project's own policy: which jobs CI runs, which crate may depend on what, the static
//! MSRV check, and the changelog's release sections.

// Printing progress and reports is this tool's whole job.
#![allow(clippy::print_stdout)]

mod budgets;
mod bump;
mod changelog;
mod ci;
mod deps;
mod dist;
mod manifest;
mod msrv;
mod release;

use std::process::ExitCode;

use clap::Parser;
use xshell::{Shell, cmd};

/// Maintenance tasks of the txc workspace.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
enum Command {
    /// Run CI jobs (default: fmt clippy test doc msrv features package fuzz; also: deny budgets)
    Ci {
        /// The jobs to run, in this order.
        jobs: Vec<ci::Job>,
    },
    /// Bump the workspace version and release the changelog's Unreleased section
    Bump {
        /// `patch`, `minor`, `major` or an explicit version.
        #[arg(value_name = "patch|minor|major|X.Y.Z")]
        level: String,
    },
    /// Check a release (dry run); --execute publishes and tags
    Release {
        /// Publish with `cargo publish --workspace` and tag, after the checks pass.
        #[arg(long)]
        execute: bool,
    },
    /// Dependency counts, the dependency policy, and the transports' crate counts against their targets
    Deps,
    /// Build txc and lay it out with its man page and shell completions (bin/, share/)
    Dist {
        /// Where (default: target/dist)
        #[arg(long, value_name = "PREFIX")]
        dir: Option<std::path::PathBuf>,
        /// A debug build instead of --release
        #[arg(long)]
        debug: bool,
    },
}

fn main() -> ExitCode {
    let command = Command::parse();
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> anyhow::Result<()> {
    let sh = Shell::new()?;
    // The workspace around the current directory (`cargo xtask` may run in a subdirectory).
    let root = cargo_metadata::MetadataCommand::new()
        .no_deps()
        .exec()?
        .workspace_root;
    sh.change_dir(root);
    match command {
        Command::Ci { jobs } => ci::run(&sh, &jobs),
        Command::Bump { level } => bump::run(&sh, &level),
        Command::Release { execute } => release::run(&sh, execute),
        Command::Deps => {
            deps::run(&sh)?;
            // What a user's fresh project compiles per transport feature set, against the targets.
            budgets::run(&sh, false)
        }
        Command::Dist { dir, debug } => dist::run(&sh, dir, debug),
    }
}

/// Whether `cargo <tool>` is installed.
fn has_cargo_tool(sh: &Shell, tool: &str) -> bool {
    cmd!(sh, "cargo {tool} --version")
        .quiet()
        .ignore_stdout()
        .ignore_stderr()
        .run()
        .is_ok()
}

/// `cargo metadata` of the workspace (all features, every target).
fn metadata(sh: &Shell) -> anyhow::Result<cargo_metadata::Metadata> {
    Ok(cargo_metadata::MetadataCommand::new()
        .current_dir(sh.current_dir())
        .exec()?)
}

/// The workspace members that are published, sorted by name.
fn published(meta: &cargo_metadata::Metadata) -> Vec<&cargo_metadata::Package> {
    let mut members: Vec<_> = meta
        .workspace_packages()
        .into_iter()
        .filter(|p| p.publish.as_ref().is_none_or(|r| !r.is_empty()))
        .collect();
    members.sort_by(|a, b| a.name.cmp(&b.name));
    members
}
