//! `txc-sandbox`: runs the WhiteBIT-compatible loopback exchange until Ctrl-C.
//!
//! Prints the base URL and the demo credentials, then serves. `--help` lists the flags.

use std::io::Write as _;
use std::net::IpAddr;
use std::process::ExitCode;

use txc_sandbox::{Sandbox, SandboxBuilder, demo};

const HELP: &str = "\
txc-sandbox — a WhiteBIT-compatible exchange on loopback, for testing API clients

USAGE:
    txc-sandbox [OPTIONS]

OPTIONS:
    --port <PORT>               Port to listen on; 0 picks a free one [default: 8080]
    --host <IP>                 Address to listen on [default: 127.0.0.1]
                                (no TLS and public demo secrets: keep it on loopback)
    --price <MARKET=PRICE>      Sets a market's starting price, e.g. --price BTC_USDT=64000;
                                may be repeated
    --order-rate-limit <N>      Requests per key per 10 s for each order operation
                                [default: 10000]
    --plans-rate-limit <N>      Requests per key per 10 s for smart plans [default: 1000]
    --lookup-rate-limit <N>     Requests per key per 10 s for each order look-up (open
                                orders, order history) [default: 12000]
    --cancel-rate-limit <N>     Requests per key per 10 s for order cancellation
                                [default: 10000]
    --max-body-bytes <N>        Largest request body accepted, in bytes [default: 65536]
    -h, --help                  Prints this help
    -V, --version               Prints the version

Serves POST /api/v4/order/collateral/market, /api/v4/order/collateral/trigger-market,
/api/v4/main-account/smart/plans, /api/v4/orders, /api/v4/trade-account/order/history and
/api/v4/order/cancel, and the control API under /sandbox/v1/ (price, balance, orders, stats,
accounts/{apiKey}, reset). Markets: BTC_USDT, ETH_USDT, BTC_PERP.
Stops on Ctrl-C.
";

/// The parsed command line.
struct Options {
    builder: SandboxBuilder,
    prices: Vec<(String, String)>,
}

enum Parsed {
    Run(Box<Options>),
    Help,
    Version,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help) => return print(HELP),
        Ok(Parsed::Version) => {
            return print(&format!("txc-sandbox {}\n", env!("CARGO_PKG_VERSION")));
        }
        Err(message) => {
            let _ = writeln!(
                std::io::stderr(),
                "error: {message}\n\nRun `txc-sandbox --help` for the flags."
            );
            return ExitCode::from(2);
        }
    };
    match run(*options) {
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

fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn parse(args: &[String]) -> Result<Parsed, String> {
    let mut builder = Sandbox::builder().port(8080);
    let mut prices = Vec::new();
    let mut order_limit = txc_sandbox::DEFAULT_ORDER_RATE_LIMIT;
    let mut plans_limit = txc_sandbox::DEFAULT_PLANS_RATE_LIMIT;
    let mut lookup_limit = txc_sandbox::DEFAULT_LOOKUP_RATE_LIMIT;
    let mut cancel_limit = txc_sandbox::DEFAULT_CANCEL_RATE_LIMIT;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| rest.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag {
            "-h" | "--help" => return Ok(Parsed::Help),
            "-V" | "--version" => return Ok(Parsed::Version),
            "--port" => builder = builder.port(number(&value(flag)?, flag)?),
            "--host" => {
                let text = value(flag)?;
                let ip: IpAddr = text
                    .parse()
                    .map_err(|_| format!("--host {text:?} is not an IP address"))?;
                builder = builder.host(ip);
            }
            "--price" => {
                let text = value(flag)?;
                let (market, price) = text
                    .split_once('=')
                    .ok_or_else(|| format!("--price {text:?} is not MARKET=PRICE"))?;
                prices.push((market.to_owned(), price.to_owned()));
            }
            "--order-rate-limit" => order_limit = number(&value(flag)?, flag)?,
            "--plans-rate-limit" => plans_limit = number(&value(flag)?, flag)?,
            "--lookup-rate-limit" => lookup_limit = number(&value(flag)?, flag)?,
            "--cancel-rate-limit" => cancel_limit = number(&value(flag)?, flag)?,
            "--max-body-bytes" => builder = builder.max_body_bytes(number(&value(flag)?, flag)?),
            other => return Err(format!("unknown flag {other:?}")),
        }
    }
    let builder = builder
        .rate_limits(order_limit, plans_limit)
        .lookup_rate_limits(lookup_limit, cancel_limit);
    Ok(Parsed::Run(Box::new(Options { builder, prices })))
}

fn number<T: std::str::FromStr>(text: &str, flag: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag} {text:?} is not a valid number"))
}

fn run(options: Options) -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = options.builder.start()?;
    for (market, price) in &options.prices {
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
            "B2B partner, one-way mode, 10000 USDT",
        ),
        (
            "regular ",
            demo::REGULAR_API_KEY,
            demo::REGULAR_API_SECRET,
            "hedge mode, 10000 USDT, plans answer 403",
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
