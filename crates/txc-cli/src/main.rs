//! `txc`: the command line of txc for WhiteBIT's private v4 API — collateral market and
//! trigger market orders, open orders, order history, cancel, resolving an order whose outcome
//! is unknown (from a journal of orders in flight), smart investments (plans, investing —
//! exactly once with `--once` —, the investments, closing one, interest payments, resolving an
//! investment), flexible lending (`txc flex`: the plans, investing, withdrawing — exactly once
//! with `--once` —, closing, the auto-reinvestment, the investments and both histories,
//! resolving an investment or withdrawal), the account's reports (pnl, funding, adl, deals) and
//! the server time — and `txc sandbox`, the embedded WhiteBIT-compatible exchange, so that
//! every command works offline.
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
//! txc trigger BTC_USDT buy 0.01 90000  # the activation price, positional
//! txc --json orders --market BTC_USDT | jq '.result[].orderId'
//! txc --json watch BTC_USDT          # one JSON document per event, as they happen
//! ```
//!
//! Configuration, `--json` shapes and exit codes: `txc --help`. The `sandbox` feature (on by
//! default) brings the embedded sandbox and with it tokio; `cargo install --path
//! crates/txc-cli --no-default-features` builds a `txc` that compiles no tokio.

mod args;
mod cancel_count;
mod commands;
mod config;
mod exit;
mod flex_args;
mod flex_outcome;
mod flex_output;
mod hint;
mod journal;
mod order_args;
mod origin;
mod output;
mod placing;
mod progress;
mod report_outcome;
mod reports;
mod reports_args;
mod reports_output;
mod risk;
mod risk_output;
mod run;
#[cfg(feature = "sandbox")]
mod sandbox;
mod shared_args;
mod socket_output;
mod table;
mod test_timing;
mod tpsl;
mod tpsl_args;
mod trading;
mod trading_args;
mod trading_output;
mod via;
mod via_args;
mod watch;

use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

use crate::args::{Cli, Command, ConfigAction};
use crate::exit::{CliError, Exit};
use crate::run::Outcome;

fn main() -> ExitCode {
    let cli = match parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    let global = &cli.global;
    progress::set_quiet(global.quiet);
    hint::remember(global);
    let (name, result) = match &cli.command {
        Command::Market(args) => ("market", commands::market(global, args)),
        Command::Trigger(args) => ("trigger", commands::trigger(global, args)),
        Command::Limit(args) => ("limit", trading::limit(global, args)),
        Command::StopLimit(args) => ("stop-limit", trading::stop_limit(global, args)),
        Command::Bulk(args) => ("bulk", trading::bulk(global, args)),
        Command::Oco(args) => ("oco", trading::oco(global, args)),
        Command::OcoOrders(args) => ("oco-orders", trading::oco_orders(global, args)),
        Command::CancelOco(args) => ("cancel-oco", trading::cancel_oco(global, args)),
        Command::CancelConditional(args) => (
            "cancel-conditional",
            trading::cancel_conditional(global, args),
        ),
        Command::CancelOto(args) => ("cancel-oto", trading::cancel_oto(global, args)),
        Command::Modify(args) => ("modify", trading::modify(global, args)),
        Command::Tpsl(args) => ("tpsl", tpsl::tpsl(global, args)),
        Command::ConditionalOrders(args) => (
            "conditional-orders",
            trading::conditional_orders(global, args),
        ),
        Command::CancelBulk(args) => ("cancel-bulk", trading::cancel_bulk(global, args)),
        Command::Markets => ("markets", trading::markets(global)),
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
        Command::Flex(args) => commands::flex(global, args),
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
            clap_complete::generate(*shell, &mut command(), "txc", &mut std::io::stdout());
            return Exit::Success.code();
        }
        Command::Man => {
            let rendered = clap_mangen::Man::new(command()).render(&mut std::io::stdout());
            return finish(
                "man",
                rendered.map_err(|e| CliError::invalid(format!("writing the man page: {e}"))),
                global.json,
            );
        }
        Command::Config { action } => ("config", config_command(global, *action)),
    };
    match result {
        Ok(outcome) => {
            output::success(name, &outcome, global.json, global.show_signature);
            Exit::Success.code()
        }
        Err(error) => finish(name, Err(error), global.json),
    }
}

/// The command line as clap parses it: every command's values may start with `-`, so that
/// `txc market BTC_USDT buy -1` reaches the amount's validation (an invalid amount, nothing
/// sent) rather than being taken for an option; typos get clap's suggestions.
pub(crate) fn command() -> clap::Command {
    let mut command = negative_values(Cli::command());
    // Propagates the global options into every command, so that each can hide its own.
    command.build();
    let command = command.mut_subcommands(hide_order_options);
    command.mut_subcommands(|sub| {
        let shown = LOCAL_COMMANDS
            .iter()
            .find(|(name, _)| *name == sub.get_name())
            .map(|(_, shown)| *shown);
        match shown {
            Some(shown) => sub.mut_args(|arg| {
                let offered = !arg.is_global_set() || shown.contains(&arg.get_id().as_str());
                let hidden = !offered || arg.is_hide_set();
                arg.hide(hidden)
            }),
            None => sub,
        }
    })
}

/// The commands that talk to no exchange, and the only global options their help offers:
/// the others do not apply there.
const LOCAL_COMMANDS: [(&str, &[&str]); 4] = [
    ("sandbox", &["json", "quiet"]),
    ("completions", &[]),
    ("config", &["json", "config"]),
    ("man", &[]),
];

/// The global options that apply only to commands that place or change orders.
const ORDER_OPTIONS: [&str; 1] = ["market_rules"];

/// The commands that place or change orders: the only ones whose help offers [`ORDER_OPTIONS`].
const ORDER_COMMANDS: [&str; 7] = [
    "market",
    "trigger",
    "limit",
    "stop-limit",
    "bulk",
    "oco",
    "modify",
];

/// `sub` and its own subcommands with [`ORDER_OPTIONS`] hidden from their help unless they
/// place or change orders (they are still accepted, as every global option is).
fn hide_order_options(sub: clap::Command) -> clap::Command {
    let sub = if ORDER_COMMANDS.contains(&sub.get_name()) {
        sub
    } else {
        sub.mut_args(|arg| {
            if ORDER_OPTIONS.contains(&arg.get_id().as_str()) {
                arg.hide(true)
            } else {
                arg
            }
        })
    };
    sub.mut_subcommands(hide_order_options)
}

/// `command` and its subcommands with every value allowed to be a negative number.
fn negative_values(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| {
            if arg.is_positional() || arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(negative_values)
}

/// Parses `args` (the program's name first).
fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut command = command();
    let matches = command.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
}

/// A command line clap refused (or `--help`, `--version`): clap's own text, or with `--json`
/// anywhere on the line the one JSON error document every failure prints; exit 2.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let json = std::env::args().any(|a| a == "--json");
    let informational = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if informational || !json {
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let name = std::env::args()
        .skip(1)
        .find(|a| command().find_subcommand(a).is_some());
    output::failure(
        name.as_deref().unwrap_or("txc"),
        &CliError::invalid(usage_message(error)),
        true,
    );
    Exit::Invalid.code()
}

/// clap's message without its `error: ` prefix and trailing blank lines.
fn usage_message(error: &clap::Error) -> String {
    let text = error.render().to_string();
    text.trim_start_matches("error: ").trim_end().to_owned()
}

/// `txc config path|init`.
fn config_command(global: &args::GlobalArgs, action: ConfigAction) -> Result<Outcome, CliError> {
    match action {
        ConfigAction::Path => config::path(global)
            .map(|path| Outcome::Config {
                path,
                written: false,
            })
            .ok_or_else(|| {
                CliError::invalid("no config directory on this system; pass --config PATH")
            }),
        ConfigAction::Init => config::init(global).map(|path| Outcome::Config {
            path,
            written: true,
        }),
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
