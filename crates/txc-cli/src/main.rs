//! `txc`: the command line of txc for WhiteBIT's private v4 API — collateral market and
//! trigger market orders, open orders, order history, cancel, resolving an order whose outcome
//! is unknown (from a journal of orders in flight), smart investments (plans, investing —
//! exactly once with `--once` —, the investments, closing one, interest payments, resolving an
//! investment), the account's reports (pnl, funding, adl, deals) and the server time — and
//! `txc sandbox`, the embedded WhiteBIT-compatible exchange, so that every command works
//! offline.
//!
//! **What it is for:** operators placing a manual order, partners listing plans from a shell,
//! bot authors trying a request (`--dry-run` signs it and prints it) before writing code. It
//! is a thin layer over `txc-blocking`: the same validation before any I/O, the same signing,
//! pacing and status-first rules; an order is never sent again after a failure that leaves its
//! outcome unknown — the exit code is 4 and the message gives the `txc resolve` command that
//! finds out.
//!
//! **What it is not for:** scripting high-frequency trading (each command is one process and
//! one client), or anything beyond the operations above.
//!
//! ```text
//! txc sandbox --port 8080            # in one terminal: prints the export line below
//! export TXC_BASE_URL=http://127.0.0.1:8080 TXC_API_KEY=… TXC_API_SECRET=…
//! txc market BTC_USDT buy 0.01 --stop-loss 50000
//! txc --json orders --market BTC_USDT | jq '.result[].orderId'
//! txc --json watch BTC_USDT          # one JSON document per event, as they happen
//! ```
//!
//! Configuration, `--json` shapes and exit codes: `txc --help`. The `sandbox` feature (on by
//! default) brings the embedded sandbox and with it tokio; `cargo install --path
//! crates/txc-cli --no-default-features` builds a `txc` that compiles no tokio.

mod args;
mod commands;
mod config;
mod exit;
mod journal;
mod output;
mod progress;
mod reports;
mod reports_output;
mod risk;
mod risk_output;
mod run;
#[cfg(feature = "sandbox")]
mod sandbox;
mod table;
mod watch;

use std::process::ExitCode;

use clap::{CommandFactory as _, Parser as _};

use crate::args::{Cli, Command};
use crate::exit::{CliError, Exit};

fn main() -> ExitCode {
    // Usage errors exit with 2 (clap's convention, and ours for invalid input).
    let cli = Cli::parse();
    let global = &cli.global;
    let (name, result) = match &cli.command {
        Command::Market(args) => ("market", commands::market(global, args)),
        Command::Trigger {
            order,
            activation_price,
        } => (
            "trigger",
            commands::trigger(global, order, activation_price),
        ),
        Command::Plans { ticker } => ("plans", commands::plans(global, ticker.as_deref())),
        Command::Orders(args) => ("orders", commands::orders(global, args)),
        Command::History(args) => ("history", commands::history(global, args)),
        Command::Cancel(args) => ("cancel", commands::cancel(global, args)),
        Command::Resolve(args) => ("resolve", commands::resolve(global, args)),
        Command::Invest(args) => ("invest", commands::invest(global, args)),
        Command::Investments(args) => ("investments", commands::investments(global, args)),
        Command::CloseInvestment { id } => {
            ("close-investment", commands::close_investment(global, id))
        }
        Command::Interest(args) => ("interest", commands::interest(global, args)),
        Command::ResolveInvestment(args) => (
            "resolve-investment",
            commands::resolve_investment(global, args),
        ),
        Command::Pending => ("pending", commands::pending(global)),
        Command::Discard { key } => ("discard", commands::discard(global, *key)),
        Command::Time => ("time", commands::time(global)),
        Command::Balance(args) => ("balance", risk::balance(global, args)),
        Command::Positions(filter) => (
            "positions",
            risk::positions(global, filter.market.as_deref()),
        ),
        Command::PositionHistory(args) => {
            ("position-history", risk::position_history(global, args))
        }
        Command::Close(args) => ("close", risk::close(global, args)),
        Command::Leverage { leverage } => ("leverage", risk::leverage(global, *leverage)),
        Command::HedgeMode { switch } => ("hedge-mode", risk::hedge_mode(global, *switch)),
        Command::CancelAll(args) => ("cancel-all", risk::cancel_all(global, args)),
        Command::KillSwitch(args) => ("kill-switch", risk::kill_switch(global, args)),
        Command::Pnl(args) => ("pnl", reports::pnl(global, args)),
        Command::Funding(args) => ("funding", reports::funding(global, args)),
        Command::Adl => ("adl", reports::adl(global)),
        Command::Deals(args) => ("deals", reports::deals(global, args)),
        Command::Watch(args) => return finish("watch", watch::run(global, args), global.json),
        #[cfg(feature = "sandbox")]
        Command::Sandbox { port } => {
            return finish("sandbox", sandbox::run(*port, global.json), global.json);
        }
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(*shell, &mut command, "txc", &mut std::io::stdout());
            return Exit::Success.code();
        }
    };
    match result {
        Ok(outcome) => {
            output::success(name, &outcome, global.json, global.show_signature);
            Exit::Success.code()
        }
        Err(error) => finish(name, Err(error), global.json),
    }
}

/// The exit code of a run, printing its failure.
fn finish(name: &str, result: Result<(), CliError>, json: bool) -> ExitCode {
    match result {
        Ok(()) => Exit::Success.code(),
        Err(error) => {
            output::failure(name, &error, json);
            error.exit().code()
        }
    }
}
