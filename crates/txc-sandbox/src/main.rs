//! `txc-sandbox`: runs the WhiteBIT-compatible loopback exchange until Ctrl-C.
//!
//! Prints the base URL and the demo credentials, then serves. `--help` lists the flags.

use std::io::Write as _;
use std::net::IpAddr;
use std::process::ExitCode;

use clap::Parser;
use txc_sandbox::{Sandbox, demo};

/// Printed after the flags by `--help`.
const AFTER_HELP: &str = "\
Serves POST /api/v4/order/collateral/market, /api/v4/order/collateral/trigger-market,
/api/v4/main-account/smart/plans, /api/v4/orders, /api/v4/trade-account/order/history and
/api/v4/order/cancel, the positions, risk controls and smart investments, flexible lending
under /api/v4/main-account/smart-flex/, and the control API under /sandbox/v1/ (price,
balance, orders, stats, accounts/{apiKey}, reset). Markets: BTC_USDT, ETH_USDT, BTC_PERP.
Stops on Ctrl-C.";

/// txc-sandbox — a WhiteBIT-compatible exchange on loopback, for testing API clients
#[derive(Debug, Parser)]
#[command(name = "txc-sandbox", version, after_help = AFTER_HELP)]
struct Options {
    /// Port to listen on; 0 picks a free one
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    port: u16,
    /// Address to listen on (no TLS and public demo secrets: keep it on loopback)
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    host: IpAddr,
    /// Sets a market's starting price, e.g. --price BTC_USDT=64000; may be repeated
    #[arg(long, value_name = "MARKET=PRICE", value_parser = market_price)]
    price: Vec<(String, String)>,
    /// Requests per key per 10 s for each order operation
    #[arg(long, value_name = "N", default_value_t = txc_sandbox::DEFAULT_ORDER_RATE_LIMIT)]
    order_rate_limit: u32,
    /// Requests per key per 10 s for smart plans
    #[arg(long, value_name = "N", default_value_t = txc_sandbox::DEFAULT_PLANS_RATE_LIMIT)]
    plans_rate_limit: u32,
    /// Requests per key per 10 s for each order look-up (open orders, order history)
    #[arg(long, value_name = "N", default_value_t = txc_sandbox::DEFAULT_LOOKUP_RATE_LIMIT)]
    lookup_rate_limit: u32,
    /// Requests per key per 10 s for order cancellation
    #[arg(long, value_name = "N", default_value_t = txc_sandbox::DEFAULT_CANCEL_RATE_LIMIT)]
    cancel_rate_limit: u32,
    /// Largest request body accepted, in bytes
    #[arg(long, value_name = "N", default_value_t = txc_sandbox::DEFAULT_MAX_BODY_BYTES)]
    max_body_bytes: usize,
    /// How long a day of flexible lending lasts, in milliseconds: earnings accrue at the end
    /// of each (shorten it to watch them accrue)
    #[arg(long, value_name = "MS", default_value_t = 86_400_000)]
    flex_day_ms: u64,
    /// Run the sandbox's clock this many milliseconds ahead of the host's (negative: behind),
    /// to try a client whose clock is off
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    clock_offset_ms: i64,
}

/// Parses `MARKET=PRICE`; the market and price themselves are checked when the sandbox starts.
fn market_price(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(market, price)| (market.to_owned(), price.to_owned()))
        .ok_or_else(|| format!("{text:?} is not MARKET=PRICE"))
}

fn main() -> ExitCode {
    // Usage errors exit with 2, `--help` and `--version` with 0 (clap's conventions).
    let options = Options::parse();
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut message = e.to_string();
            let mut source = std::error::Error::source(e.as_ref());
            while let Some(s) = source {
                message.push_str(&format!(": {s}"));
                source = s.source();
            }
            let _ = writeln!(std::io::stderr(), "error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: Options) -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::builder()
        .port(options.port)
        .host(options.host)
        .rate_limits(options.order_rate_limit, options.plans_rate_limit)
        .lookup_rate_limits(options.lookup_rate_limit, options.cancel_rate_limit)
        .max_body_bytes(options.max_body_bytes)
        .clock_offset_ms(options.clock_offset_ms)
        .flex_accrual_interval(std::time::Duration::from_millis(options.flex_day_ms))
        .start()?;
    for (market, price) in &options.price {
        sandbox.set_price(market, price)?;
    }
    let url = sandbox.base_url();
    let mut out = std::io::stdout().lock();
    writeln!(out, "txc-sandbox listening on {url}")?;
    writeln!(out, "control API: {url}/sandbox/v1/")?;
    writeln!(out, "demo credentials (public, for the sandbox only):")?;
    let accounts = [
        (
            "partner ",
            demo::PARTNER_API_KEY,
            demo::PARTNER_API_SECRET,
            "B2B partner (canceled orders not in the history), one-way mode, 10000 USDT",
        ),
        (
            "regular ",
            demo::REGULAR_API_KEY,
            demo::REGULAR_API_SECRET,
            "hedge mode, 10000 USDT, smart plans answer 403, flex lending open",
        ),
        (
            "disabled",
            demo::DISABLED_API_KEY,
            demo::DISABLED_API_SECRET,
            "disabled key, answers code 2",
        ),
    ];
    for (name, key, secret, what) in accounts {
        writeln!(out, "  {name}  key {key}  secret {secret}  ({what})")?;
    }
    writeln!(out, "demo flex plans (/api/v4/main-account/smart-flex/):")?;
    for plan in sandbox.flex_plan_records() {
        let field = |key: &str| plan.get(key).cloned().unwrap_or_default();
        let text = |key: &str| field(key).as_str().unwrap_or_default().to_owned();
        let status = match field("status").as_i64() {
            Some(1) => "active".to_owned(),
            Some(4) => "paused".to_owned(),
            other => format!("status {}", other.unwrap_or_default()),
        };
        let private = if field("privateTo").is_array() {
            ", private to the partner"
        } else {
            ""
        };
        writeln!(
            out,
            "  {}  {} {}–{}, {} a year, {status}{private}",
            text("id"),
            text("ticker"),
            text("minInvestment"),
            text("maxInvestment"),
            text("maxRate"),
        )?;
    }
    if !sandbox.addr().ip().is_loopback() {
        writeln!(
            std::io::stderr(),
            "warning: listening beyond loopback; the demo secrets are public"
        )?;
    }
    writeln!(out, "press Ctrl-C to stop")?;
    out.flush()?;
    drop(out);
    wait_for_stop()?;
    drop(sandbox);
    Ok(())
}

/// Blocks until Ctrl-C (or SIGTERM on Unix).
fn wait_for_stop() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        #[cfg(unix)]
        {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
            tokio::select! {
                r = tokio::signal::ctrl_c() => r,
                _ = term.recv() => Ok(()),
            }
        }
        #[cfg(not(unix))]
        {
            tokio::signal::ctrl_c().await
        }
    })
}
