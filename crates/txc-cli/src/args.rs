//! The command line, as clap parses it.
//!
//! The doc comments here are also the `--help` texts, where a URL or a `<placeholder>` is plain
//! text.
#![allow(rustdoc::bare_urls, rustdoc::invalid_html_tags)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub(crate) use crate::order_args::{OrderArgs, PositionSideArg, SideArg, StpArg};
pub(crate) use crate::shared_args::{MoveArgs, StatusArg, SwitchArg, UnknownMoveArgs};
use crate::trading_args::{
    BulkArgs, CancelBulkArgs, CancelGroupArgs, CancelOcoArgs, LimitArgs, ModifyArgs, OcoArgs,
    PageArgs, StopLimitArgs, TriggerArgs,
};

/// What `--help` says after the options: exit codes, configuration, JSON.
const AFTER_HELP: &str = "\
Configuration (first found wins): --base-url / --api-key flags; TXC_BASE_URL, TXC_API_KEY and
TXC_API_SECRET; a profile of the config file (--profile NAME or TXC_PROFILE; `default` when
none is named) at --config PATH, TXC_CONFIG or <config dir>/txc/config.toml, refused when
others may read it (chmod 600); `txc config path` prints where, `txc config init` writes a
private template there. The secret is never a flag: use TXC_API_SECRET, the config
file, or --secret-stdin. Orders and other changes (close, leverage, hedge mode, cancels, the kill
switch) to a server that is not on loopback need --live.

Exit codes:
  0  success
  1  failed: the exchange or the network failed a read (nothing was changed)
  2  invalid input or configuration: nothing was sent
  3  rejected by the exchange (an order, investment or withdrawal refused, a cancel that found
     no open order)
  4  outcome unknown: the order, investment or withdrawal may exist, the position or flex
     investment may be closed — or the journal holds an unresolved earlier one of the same
     clientOrderId (or kind, plan and amount), and nothing was sent; the message says how to
     check (txc resolve ..., txc close ... --resolve, txc resolve-investment ...,
     txc flex resolve ...)
  5  not sent: the connection failed before the request was written, or the client's own
     rate limit had no slot

--json prints exactly one JSON document on standard output: {\"command\": NAME, \"result\": ...}
on success, {\"command\": NAME, \"error\": {\"exitCode\", \"kind\", \"message\", ...}} on failure —
a command line clap refuses included (exit 2) —, {\"command\": NAME, \"dryRun\": {\"method\",
\"url\", \"headers\", \"body\"}} with --dry-run (the body as sent). Keys are camelCase, the
exchange's casing, in every document; times are the exchange's raw values (tables show them as
RFC 3339 UTC). Tables show position sides as long or short: in one-way mode (hedge mode off) a
position's by the sign of its amount, an order's as one-way (its side alone does not tell which
position it changes); JSON keeps LONG, SHORT and BOTH. cancel-all counts what it canceled from
the open orders before and after (the exchange's answer is empty). `watch` prints one document per event and line: {\"command\": \"watch\",
\"event\": {\"type\", ...}}. A failure names the server and where the credentials came from.
While resolving waits (resolve, resolve-investment, flex resolve, --once), each stage — the
acceptance window, the settling delay, each round of look-ups — is one line on standard error,
with how long is left; so are each wait for the rate limiter (see --max-rate) and watch's
connections and reconnects. --quiet silences them; standard output never has them.

The journal: <state dir>/pending/ (--state-dir, TXC_STATE_DIR), one JSON file per order,
investment, flex investment or flex withdrawal sent and not settled, written before its first
byte and read back by every command that places, invests, withdraws or resolves; format version
3 (files of versions 1 and 2, txc 0.3 and 0.4, are read and rewritten; a later version is
refused). Its fields: the txc-cli crate's README.";

/// txc: WhiteBIT's private v4 collateral orders, look-ups, cancel and smart investments from a
/// shell — signed, paced, never resending an order or investment whose outcome is unknown.
#[derive(Debug, Parser)]
#[command(name = "txc", version, after_help = AFTER_HELP, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Options every command takes: listed under their own heading, after each command's own.
#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
pub(crate) struct GlobalArgs {
    /// Print one JSON document instead of a table (its shape: txc --help)
    #[arg(long, global = true)]
    pub(crate) json: bool,
    /// Print no progress on standard error (resolving's stages, waits, reconnects); errors
    /// are still printed
    #[arg(long, short, global = true)]
    pub(crate) quiet: bool,
    /// Validate and sign, print the request (payload and signature redacted), send nothing
    #[arg(long, global = true)]
    pub(crate) dry_run: bool,
    /// With --dry-run: show the payload and signature headers too
    #[arg(long, global = true, requires = "dry_run")]
    pub(crate) show_signature: bool,
    /// Allow orders to a server that is not on loopback: they are real
    #[arg(long, global = true)]
    pub(crate) live: bool,
    /// The exchange's address, e.g. https://whitebit.com
    #[arg(long, global = true, env = "TXC_BASE_URL", hide_env_values = true)]
    pub(crate) base_url: Option<String>,
    /// The API key (public; the secret is never a flag)
    #[arg(long, global = true, env = "TXC_API_KEY", hide_env_values = true)]
    pub(crate) api_key: Option<String>,
    /// Read the API secret from standard input (its first line)
    #[arg(long, global = true)]
    pub(crate) secret_stdin: bool,
    /// A profile of the config file
    #[arg(long, global = true, env = "TXC_PROFILE", hide_env_values = true)]
    pub(crate) profile: Option<String>,
    /// The config file
    #[arg(
        long,
        global = true,
        env = "TXC_CONFIG",
        value_name = "PATH",
        hide_env_values = true
    )]
    pub(crate) config: Option<PathBuf>,
    /// The settling delay of `resolve` (and `--once`), in seconds: absence is proven by two
    /// rounds of look-ups, after the attempts' window plus this delay and this delay later.
    /// At least 5 (the nonce window; raised by the measured clock skew)
    #[arg(long, global = true, value_name = "SECS", default_value_t = 10)]
    pub(crate) settle_delay: u64,
    /// Gives up the exactly-once guarantee: space resolving's rounds by this many
    /// milliseconds from the last attempt, with no floor (for tests against the sandbox only)
    #[arg(long, global = true, value_name = "MS")]
    pub(crate) unproven_settle_delay: Option<u64>,
    /// Test-only, hidden: gives up the exactly-once guarantee — resolving's acceptance window,
    /// in milliseconds, instead of the documented 10 s after the last attempt. Refused unless
    /// the server is on loopback (a sandbox that creates orders before it answers)
    #[arg(long, global = true, value_name = "MS", hide = true)]
    pub(crate) unproven_acceptance_window: Option<u64>,
    /// Test-only, hidden: the delay of every retry of a failed request and of every reconnect
    /// of `watch`, in milliseconds, instead of the backoff from 1 s. Refused unless the server
    /// is on loopback
    #[arg(long, global = true, value_name = "MS", hide = true)]
    pub(crate) test_backoff: Option<u64>,
    /// Test-only, hidden: at most this many WebSocket tokens a minute instead of the documented
    /// 10, so that `watch` reconnects without waiting for the rate limit. Refused unless the
    /// server is on loopback
    #[arg(long, global = true, value_name = "N", hide = true)]
    pub(crate) test_token_limit: Option<std::num::NonZeroU32>,
    /// At most this many requests a second to each endpoint, below the documented limits
    /// (default: the documented limits): leaves the rest of the key's allowance to other
    /// programs. A request that has to wait says so on standard error
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_rate: Option<u32>,
    /// Before placing or resolving, measure the exchange's clock (GET /api/v4/public/time) and
    /// correct the nonces by it: for a host whose clock is off
    #[arg(long, global = true)]
    pub(crate) sync_clock: bool,
    /// The account is a B2B account, whose canceled orders the exchange's history omits:
    /// resolving answers "cannot tell" (exit 4) instead of "not placed" when it finds nothing
    #[arg(long, global = true)]
    pub(crate) b2b_account: bool,
    /// Whether other writers (processes, people on the website) may invest (or withdraw from
    /// a flex plan) with this key: with `shared`, one investment of the plan and amount found
    /// in an unknown investment's window cannot tell (it may be theirs); `sole` says this txc
    /// is the key's only investor
    #[arg(long, global = true, value_name = "WHO", default_value = "shared")]
    pub(crate) investment_writers: InvestmentWritersArg,
    /// Where the journal of orders in flight is kept (default: txc in the user's state directory)
    #[arg(
        long,
        global = true,
        env = "TXC_STATE_DIR",
        value_name = "PATH",
        hide_env_values = true
    )]
    pub(crate) state_dir: Option<PathBuf>,
    /// How an order's or close's position side is checked before sending: learn the
    /// account's mode (one read per run), declare it, or check nothing
    #[arg(long, global = true, value_name = "MODE", default_value = "learn")]
    pub(crate) position_mode: PositionModeArg,
    /// Whether every order is checked against its market's published rules before sending
    /// (precisions, minimum amount, total bounds; one public read per run): refused before
    /// any I/O when it breaks one, or sent as given
    #[arg(long, global = true, value_name = "CHECK", default_value = "learn")]
    pub(crate) market_rules: MarketRulesArg,
}

/// What `--market-rules` does about the markets' published rules.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum MarketRulesArg {
    /// Read them before the first order and check every order against them
    Learn,
    /// Check nothing: the exchange decides
    Off,
}

/// Who may invest with the key (`--investment-writers`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum InvestmentWritersArg {
    /// Others may too: a single identical investment in the window cannot tell
    Shared,
    /// This txc only: a single identical investment in the window is this one
    Sole,
}

/// What `--position-mode` says about the account's position mode.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PositionModeArg {
    /// Read it before the first order or close
    Learn,
    /// One-way mode (no position side)
    OneWay,
    /// Hedge mode (LONG or SHORT required)
    Hedge,
    /// Check nothing: the exchange decides
    Off,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Place a collateral market order (POST /api/v4/order/collateral/market)
    Market(OrderArgs),
    /// Place a collateral trigger market order (POST /api/v4/order/collateral/trigger-market)
    // ACTIVATION_PRICE is required, but optional to clap (its old flag may stand in for it).
    #[command(override_usage = "txc trigger [OPTIONS] <MARKET> <SIDE> <AMOUNT> <ACTIVATION_PRICE>")]
    Trigger(TriggerArgs),
    /// Place a collateral limit order (POST /api/v4/order/collateral/limit)
    Limit(LimitArgs),
    /// Place a collateral stop-limit order (POST /api/v4/order/collateral/stop-limit)
    #[command(
        override_usage = "txc stop-limit [OPTIONS] <MARKET> <SIDE> <AMOUNT> <PRICE> <ACTIVATION_PRICE>"
    )]
    StopLimit(StopLimitArgs),
    /// Place up to 20 limit orders at once, read as JSON lines
    /// (POST /api/v4/order/collateral/bulk)
    Bulk(BulkArgs),
    /// Place an OCO pair: a take-profit limit order and a stop-limit stop-loss, one canceling
    /// the other (POST /api/v4/order/collateral/oco)
    #[command(
        mut_arg("client_order_id", |a| a.help("Your id for the pair (one is generated when none is given)")),
        mut_arg("once", |a| a.help(
            "Place exactly once: on an unknown outcome resolve it (from the active pairs, then its \
             legs), and send again only when it was not placed"
        ))
    )]
    Oco(OcoArgs),
    /// List the active OCO pairs (POST /api/v4/oco-orders)
    OcoOrders(PageArgs),
    /// Cancel an OCO pair, both legs (POST /api/v4/order/oco-cancel)
    CancelOco(CancelOcoArgs),
    /// Cancel a conditional order: an OCO pair, or an OTO group with its order
    /// (POST /api/v4/order/conditional-cancel)
    CancelConditional(CancelGroupArgs),
    /// Cancel an OTO group, its order included (POST /api/v4/order/oto-cancel)
    CancelOto(CancelGroupArgs),
    /// Change a resting order's amount, total, price or activation price: the exchange
    /// replaces it with a new orderId (POST /api/v4/order/modify)
    Modify(ModifyArgs),
    /// Attach a take-profit and/or a stop-loss to the open position of a market — over the
    /// WebSocket only (collateral_order_tpsl_place has no REST twin): two stop-market legs
    /// sized at whatever the position holds when one fires, canceled when it closes
    Tpsl(crate::tpsl_args::TpslArgs),
    /// List the conditional orders: OCO pairs and OTO groups (POST /api/v4/conditional-orders)
    ConditionalOrders(PageArgs),
    /// Cancel several orders of a market at once (POST /api/v4/order/cancel/bulk)
    CancelBulk(CancelBulkArgs),
    /// Every market's trading rules: precisions, minimum amount, total bounds
    /// (GET /api/v4/public/markets; needs no key)
    Markets,
    /// List the smart investment plans (B2B partner keys only)
    Plans {
        /// Only plans of this ticker, e.g. USDT
        #[arg(long, value_name = "T")]
        ticker: Option<String>,
    },
    /// List or look up open orders (POST /api/v4/orders)
    Orders(LookupArgs),
    /// List or look up finished orders (POST /api/v4/trade-account/order/history)
    History(LookupArgs),
    /// Cancel an open order (POST /api/v4/order/cancel)
    Cancel(CancelArgs),
    /// Find out from proof whether an order whose outcome is unknown was placed: look its
    /// clientOrderId up (open orders, history, conditional orders) at once, and — to prove it
    /// absent — twice after its window and the settling delay. Its attempts come from the
    /// journal (or --nonce)
    Resolve(ResolveArgs),
    /// Invest in a smart plan (B2B partner keys only): reads the plans first and checks the
    /// amount against the plan's status and bounds before investing
    Invest(MoveArgs),
    /// List the investments (POST /api/v4/main-account/smart/investments)
    Investments(InvestmentsArgs),
    /// Close an investment (POST /api/v4/main-account/smart/investment/close)
    CloseInvestment {
        /// The investment's id
        id: String,
    },
    /// List the interest payments (POST /api/v4/main-account/smart/interest-payment-history)
    Interest(InterestArgs),
    /// Find out whether an investment whose outcome is unknown was made: wait until no attempt
    /// can still be accepted, then look for it in the investments list twice. Its attempts come
    /// from the journal (or --nonce)
    ResolveInvestment(ResolveInvestmentArgs),
    /// Flexible lending: the plans offered to every account, investing (create, top up,
    /// reopen), withdrawing, closing, the auto-reinvestment, the investments and the histories
    /// (POST /api/v4/main-account/smart-flex/...)
    Flex(crate::flex_args::FlexArgs),
    /// List the orders, investments and flex investments and withdrawals in flight or
    /// unresolved, from the journal, with why (once resolving could not tell) and the command
    /// that resolves each
    Pending,
    /// Forget an unresolved record of the journal (by its key, the first nonce `txc pending`
    /// lists), once settled by hand: a record resolving cannot settle stays until then, and
    /// stops every command that would send the same order or investment again
    Discard {
        /// The record's key: its first attempt's nonce
        key: u64,
    },
    /// The exchange's time (GET /api/v4/public/time; needs no key)
    Time,
    /// The collateral balance of each asset (POST /api/v4/collateral-account/balance); with
    /// --summary the account summary, with --assets the balance summary per asset
    Balance(BalanceArgs),
    /// List the open positions (POST /api/v4/collateral-account/positions/open); the table's
    /// position is long or short, in one-way mode (hedge mode off) by the sign of the amount
    Positions(MarketFilter),
    /// List position events: openings, closes, liquidations
    /// (POST /api/v4/collateral-account/positions/history)
    PositionHistory(PositionHistoryArgs),
    /// Close a position at the market price (POST /api/v4/collateral-account/position/close);
    /// with --resolve, find out what became of a close whose outcome is unknown
    Close(CloseArgs),
    /// Set the account's leverage: 1, 2, 3, 5, 10, 20, 50 or 100
    /// (POST /api/v4/collateral-account/leverage)
    Leverage {
        /// The leverage
        leverage: u32,
    },
    /// Show whether hedge mode is on, or switch it on or off
    /// (POST /api/v4/collateral-account/hedge-mode[/update])
    HedgeMode {
        /// Switch hedge mode on (a long and a short position per market) or off (one-way
        /// mode: one position per market); refused while positions or orders are open
        switch: Option<SwitchArg>,
    },
    /// Cancel every open order matching the filters (POST /api/v4/order/cancel/all)
    CancelAll(CancelAllArgs),
    /// Set a market's kill-switch timer once (it runs out unless set again, and then the
    /// market's open orders are canceled), delete it, or list the timers
    /// (POST /api/v4/order/kill-switch[/status])
    KillSwitch(KillSwitchArgs),
    /// The closed positions' PnL, one record per position, newest close first
    /// (POST /api/v4/collateral-account/positions/closed-pnl); --all follows the pages
    Pnl(crate::reports_args::PnlArgs),
    /// The funding paid and received by the positions, newest first
    /// (POST /api/v4/collateral-account/funding-history); --all follows the pages
    Funding(crate::reports_args::FundingArgs),
    /// The ADL quantile of each perpetual market with a position, long and short, 0 (safest)
    /// to 4 (POST /api/v4/collateral-account/adl-quantile)
    Adl,
    /// The deals of the order ORDER_ID (POST /api/v4/trade-account/order), or without it the
    /// account's executed deals, collateral markets' included
    /// (POST /api/v4/trade-account/executed-history); --all follows the pages
    Deals(crate::reports_args::DealsArgs),
    /// Print the account's events as they happen: orders of MARKET..., their executions and
    /// deals, the collateral balance, positions, margin calls (and, chosen by option, the ADL
    /// quantiles and the premium index) — over the private WebSocket, reconnecting and
    /// resyncing over REST after every drop (a disconnect is an event too). With --json, one
    /// JSON document per line. Runs until interrupted, or --count updates
    Watch(WatchArgs),
    /// Run the embedded sandbox (a WhiteBIT-compatible exchange on loopback) and print its
    /// address and its demo credentials — public test data, printed on purpose — until
    /// interrupted
    #[cfg(feature = "sandbox")]
    Sandbox {
        /// The port (0: any free one)
        #[arg(long, default_value_t = 8080)]
        port: u16,
    },
    /// Print a shell completion script
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// The config file: where it is read from (`path`), or write a private template there
    /// (`init`). It holds `[profiles.NAME]` tables with base_url, api_key and api_secret; the
    /// `default` profile is used when none is named (--profile, TXC_PROFILE). It must be
    /// private (chmod 600): txc refuses one others may read
    Config {
        /// What to do
        action: ConfigAction,
    },
    /// Print the man page (roff), as `cargo xtask dist` installs it
    #[command(hide = true)]
    Man,
}

/// `txc config`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ConfigAction {
    /// Print the config file's path (--config, TXC_CONFIG, else <config dir>/txc/config.toml)
    Path,
    /// Write a template there, readable by you only (chmod 600); refuses to overwrite a file
    Init,
}

/// `txc watch`.
#[derive(Debug, Args)]
pub(crate) struct WatchArgs {
    /// The markets whose orders and deals to watch, e.g. BTC_USDT
    #[arg(required = true, value_name = "MARKET")]
    pub(crate) markets: Vec<String>,
    /// The collateral assets whose balance to watch
    #[arg(long = "asset", value_name = "T", default_value = "USDT")]
    pub(crate) assets: Vec<String>,
    /// Also watch the account's ADL quantiles (private): of every perpetual market it holds a
    /// position in (--adl), or of one (--adl=BTC_PERP); pushed at once, then every 30 s
    #[arg(long, value_name = "PERP", num_args = 0..=1, require_equals = true)]
    pub(crate) adl: Option<Option<String>>,
    /// Also watch the premium index (public: mark and index price, funding rate, next
    /// funding time) of every perpetual market (--premium-index), or of each one named
    /// (--premium-index=BTC_PERP, repeatable); pushed every 0.5 s
    #[arg(long, value_name = "PERP", num_args = 0..=1, require_equals = true)]
    pub(crate) premium_index: Option<Vec<String>>,
    /// Stop after this many channel updates and resynced changes
    #[arg(long, value_name = "N")]
    pub(crate) count: Option<u64>,
}

/// `--market`, the filter of the look-ups, `position-history`, `positions` and `cancel-all`.
#[derive(Debug, Args)]
pub(crate) struct MarketFilter {
    /// Only this market
    #[arg(long, value_name = "M")]
    pub(crate) market: Option<String>,
}

/// `--limit` and `--offset` of the investments' and interest payments' pages.
#[derive(Debug, Args)]
pub(crate) struct Paging {
    /// At most this many (1 to 100)
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Skip this many
    #[arg(long, value_name = "N")]
    pub(crate) offset: Option<u64>,
}

/// Look-up filters.
#[derive(Debug, Args)]
pub(crate) struct LookupArgs {
    #[command(flatten)]
    pub(crate) filter: MarketFilter,
    /// Only the order with this exchange id
    #[arg(long, value_name = "N")]
    pub(crate) order_id: Option<u64>,
    /// Only the order with this clientOrderId
    #[arg(long, value_name = "ID")]
    pub(crate) client_order_id: Option<String>,
    /// At most this many orders
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Skip this many orders
    #[arg(long, value_name = "N")]
    pub(crate) offset: Option<u64>,
}

/// Which order to cancel: exactly one of its ids.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("target").required(true).args(["order_id", "client_order_id"]))]
pub(crate) struct CancelArgs {
    /// The order's market
    pub(crate) market: String,
    /// The exchange's id of the order
    #[arg(long, value_name = "N")]
    pub(crate) order_id: Option<u64>,
    /// Your id of the order
    #[arg(long, value_name = "ID")]
    pub(crate) client_order_id: Option<String>,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

/// The investments list's filters.
#[derive(Debug, Args)]
pub(crate) struct InvestmentsArgs {
    /// Only the investment with this id
    #[arg(long, value_name = "ID")]
    pub(crate) id: Option<String>,
    /// Only investments in plans of this currency, e.g. USDT
    #[arg(long, value_name = "T")]
    pub(crate) ticker: Option<String>,
    /// Only active or only closed investments
    #[arg(long, value_name = "STATUS")]
    pub(crate) status: Option<StatusArg>,
    #[command(flatten)]
    pub(crate) page: Paging,
}

/// The interest payments' filters.
#[derive(Debug, Args)]
pub(crate) struct InterestArgs {
    /// Only payments of this plan
    #[arg(long, value_name = "ID")]
    pub(crate) plan_id: Option<String>,
    /// Only payments in this currency, e.g. USDT
    #[arg(long, value_name = "T")]
    pub(crate) ticker: Option<String>,
    #[command(flatten)]
    pub(crate) page: Paging,
}

/// An investment whose outcome is unknown, as `txc` printed it.
#[derive(Debug, Args)]
pub(crate) struct ResolveInvestmentArgs {
    #[command(flatten)]
    pub(crate) unknown: UnknownMoveArgs,
    /// The plan's currency, to narrow the look-ups
    #[arg(long, value_name = "T")]
    pub(crate) ticker: Option<String>,
}

/// An order whose outcome is unknown, as `txc` printed it.
#[derive(Debug, Args)]
pub(crate) struct ResolveArgs {
    /// The order's market
    pub(crate) market: String,
    /// The order's clientOrderId
    pub(crate) client_order_id: String,
    /// The nonce (Unix milliseconds) of an attempt to send it, for an order the journal does
    /// not hold (sent from elsewhere); repeat for each attempt
    #[arg(long, value_name = "N")]
    pub(crate) nonce: Vec<u64>,
    /// A trigger order (with --nonce; the journal knows): look among the conditional orders too
    #[arg(long)]
    pub(crate) trigger: bool,
    /// An attempt over the WebSocket, for an order the journal does not hold: when its frame
    /// was written and when its outcome settled, Unix microseconds (WRITTEN:SETTLED, as the
    /// failed command's message gives it); repeat for each attempt
    #[arg(long, value_name = "WRITTEN:SETTLED", value_parser = crate::via_args::ws_attempt)]
    pub(crate) ws_attempt: Vec<(u64, u64)>,
}

/// An order kind cancel-all and the kill switch target.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum OrderClassArg {
    /// Spot orders
    Spot,
    /// Margin orders (on spot markets, e.g. BTC_USDT)
    Margin,
    /// Futures orders (on perpetual markets, e.g. BTC_PERP)
    Futures,
}

/// `txc balance`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("view").args(["summary", "assets"]))]
pub(crate) struct BalanceArgs {
    /// Only this asset, e.g. USDT
    #[arg(long, value_name = "T")]
    pub(crate) ticker: Option<String>,
    /// The account summary: equity, margin, profit, leverage
    #[arg(long)]
    pub(crate) summary: bool,
    /// Each asset's balance, borrowing and availability
    #[arg(long)]
    pub(crate) assets: bool,
}

/// `txc position-history`.
#[derive(Debug, Args)]
pub(crate) struct PositionHistoryArgs {
    #[command(flatten)]
    pub(crate) filter: MarketFilter,
    /// Only this position
    #[arg(long, value_name = "N")]
    pub(crate) position_id: Option<u64>,
    /// From this Unix second
    #[arg(long, value_name = "S")]
    pub(crate) start_date: Option<u64>,
    /// Up to this Unix second (at most a second from now)
    #[arg(long, value_name = "S")]
    pub(crate) end_date: Option<u64>,
    /// At most this many events (1 to 100)
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Skip this many events
    #[arg(long, value_name = "N")]
    pub(crate) offset: Option<u64>,
}

/// `txc close`.
#[derive(Debug, Args)]
pub(crate) struct CloseArgs {
    /// The position's market
    pub(crate) market: String,
    /// The position's id (txc positions)
    pub(crate) position_id: u64,
    /// The position's side (hedge mode)
    #[arg(long, value_name = "SIDE")]
    pub(crate) position_side: Option<PositionSideArg>,
    /// Do not close: find out whether an earlier close whose outcome is unknown closed it
    #[arg(long)]
    pub(crate) resolve: bool,
    /// With --resolve: the nonce (Unix milliseconds) of an attempt of that close; repeat for
    /// each. Without one, the close is taken as sent now
    #[arg(long, value_name = "N", requires = "resolve")]
    pub(crate) nonce: Vec<u64>,
}

/// `txc cancel-all`.
#[derive(Debug, Args)]
pub(crate) struct CancelAllArgs {
    #[command(flatten)]
    pub(crate) filter: MarketFilter,
    /// Only orders of this kind; repeat for several
    #[arg(long = "type", value_name = "KIND")]
    pub(crate) types: Vec<OrderClassArg>,
    /// Only this position side (a perpetual market only)
    #[arg(long, value_name = "SIDE")]
    pub(crate) position_side: Option<PositionSideArg>,
    #[command(flatten)]
    pub(crate) via: crate::via_args::ViaArgs,
}

/// `txc kill-switch`: exactly one of --timeout, --off, --status.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("action").required(true).args(["timeout", "off", "status"]))]
pub(crate) struct KillSwitchArgs {
    /// The market (required to set or delete a timer)
    #[arg(required_unless_present = "status")]
    pub(crate) market: Option<String>,
    /// With --status: only this market's timer (a filter, so a flag; MARKET is still taken)
    #[arg(
        long = "market",
        value_name = "M",
        requires = "status",
        conflicts_with = "market"
    )]
    pub(crate) market_filter: Option<String>,
    /// Set the timer to this many seconds (5 to 600)
    #[arg(long, value_name = "S")]
    pub(crate) timeout: Option<u32>,
    /// Delete the timer
    #[arg(long)]
    pub(crate) off: bool,
    /// List the timers (of --market only, when given)
    #[arg(long)]
    pub(crate) status: bool,
    /// With --timeout: only orders of this kind; repeat for several
    #[arg(long = "type", value_name = "KIND", requires = "timeout")]
    pub(crate) types: Vec<OrderClassArg>,
}
