//! The command line, as clap parses it.
//!
//! The doc comments here are also the `--help` texts, where a URL is plain text.
#![allow(rustdoc::bare_urls)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// What `--help` says after the options: exit codes, configuration, JSON.
const AFTER_HELP: &str = "\
Configuration (first found wins): --base-url / --api-key flags; TXC_BASE_URL, TXC_API_KEY and
TXC_API_SECRET; a profile of the config file (--profile NAME or TXC_PROFILE; `default` when
none is named) at --config PATH, TXC_CONFIG or <config dir>/txc/config.toml, refused when
others may read it (chmod 600). The secret is never a flag: use TXC_API_SECRET, the config
file, or --secret-stdin. Orders to a server that is not on loopback need --live.

Exit codes:
  0  success
  1  failed: the exchange or the network failed a read (nothing was changed)
  2  invalid input or configuration: nothing was sent
  3  rejected by the exchange (an order refused, a cancel that found no open order)
  4  outcome unknown: the order may exist; the message says how to check (txc resolve ...)
  5  not sent: the connection failed before the request was written, or the client's own
     rate limit had no slot

--json prints exactly one JSON document on standard output: {\"command\": NAME, \"result\": ...}
on success, {\"command\": NAME, \"error\": {\"exit_code\", \"kind\", \"message\", ...}} on failure,
{\"command\": NAME, \"dry_run\": {\"method\", \"url\", \"headers\", \"body\"}} with --dry-run.";

/// txc: WhiteBIT's private v4 collateral orders, look-ups, cancel and smart plans from a
/// shell — signed, paced, never resending an order whose outcome is unknown.
#[derive(Debug, Parser)]
#[command(name = "txc", version, after_help = AFTER_HELP, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Options every command takes.
#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// Print one JSON document instead of a table (its shape: txc --help)
    #[arg(long, global = true)]
    pub(crate) json: bool,
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
    /// Before placing or resolving, measure the exchange's clock (GET /api/v4/public/time) and
    /// correct the nonces by it: for a host whose clock is off
    #[arg(long, global = true)]
    pub(crate) sync_clock: bool,
    /// The account is a B2B account, whose canceled orders the exchange's history omits:
    /// resolving answers "cannot tell" (exit 4) instead of "not placed" when it finds nothing
    #[arg(long, global = true)]
    pub(crate) b2b_account: bool,
    /// Where the journal of orders in flight is kept (default: txc in the user's state directory)
    #[arg(
        long,
        global = true,
        env = "TXC_STATE_DIR",
        value_name = "PATH",
        hide_env_values = true
    )]
    pub(crate) state_dir: Option<PathBuf>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Place a collateral market order (POST /api/v4/order/collateral/market)
    Market(OrderArgs),
    /// Place a collateral trigger market order (POST /api/v4/order/collateral/trigger-market)
    Trigger {
        #[command(flatten)]
        order: OrderArgs,
        /// The price that activates the order
        #[arg(long, value_name = "P")]
        activation_price: String,
    },
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
    /// List the orders in flight or unresolved, from the journal, with the command that
    /// resolves each
    Pending,
    /// The exchange's time (GET /api/v4/public/time; needs no key)
    Time,
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
}

/// Buy or sell.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum SideArg {
    /// Buy
    Buy,
    /// Sell
    Sell,
}

/// A hedge-mode position side.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PositionSideArg {
    /// Long
    Long,
    /// Short
    Short,
    /// Both (one-way mode)
    Both,
}

/// Self-trade prevention.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum StpArg {
    /// None
    No,
    /// Cancel both
    Cb,
    /// Cancel new
    Cn,
    /// Cancel old
    Co,
}

/// What both order commands take.
#[derive(Debug, Args)]
pub(crate) struct OrderArgs {
    /// The market, e.g. BTC_USDT
    pub(crate) market: String,
    /// buy or sell
    pub(crate) side: SideArg,
    /// The amount in the market's stock currency, e.g. 0.01
    pub(crate) amount: String,
    /// Stop-loss price
    #[arg(long, value_name = "P")]
    pub(crate) stop_loss: Option<String>,
    /// Take-profit price
    #[arg(long, value_name = "P")]
    pub(crate) take_profit: Option<String>,
    /// Your id for the order (one is generated when none is given)
    #[arg(long, value_name = "ID")]
    pub(crate) client_order_id: Option<String>,
    /// Position side (hedge mode)
    #[arg(long, value_name = "SIDE")]
    pub(crate) position_side: Option<PositionSideArg>,
    /// Only reduce a position
    #[arg(long)]
    pub(crate) reduce_only: bool,
    /// Self-trade prevention
    #[arg(long, value_name = "MODE")]
    pub(crate) stp: Option<StpArg>,
    /// Place exactly once: on an unknown outcome resolve it, and send again only when it was
    /// not placed
    #[arg(long)]
    pub(crate) once: bool,
}

/// Look-up filters.
#[derive(Debug, Args)]
pub(crate) struct LookupArgs {
    /// Only this market
    #[arg(long, value_name = "M")]
    pub(crate) market: Option<String>,
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
}
