//! Several processes sharing one API key, with no coordination: the embedded sandbox and four
//! worker processes, each placing collateral market orders as fast as its client's rate
//! limiter allows for a few seconds.
//!
//! ```text
//! cargo run -p txc-examples --example fleet [-- --workers N --seconds S]
//! ```
//!
//! Each worker's client is `fleet_worker(i of n)`: its window-mode nonces are congruent to
//! `i` modulo `n`, so no two workers can send the same nonce, and its rate limits are the
//! documented ones divided by `n`, so the fleet together stays within the key's limit. At the
//! end the example prints what every worker placed and the sandbox's own counters: orders
//! accepted, 429 answers and nonce rejections — both zero — and fails if any order was placed
//! twice or lost.
//!
//! The workers are this same program, started again with `TXC_FLEET_*` variables.

// Printing the report is this program's output.
#![allow(clippy::print_stdout)]

use std::collections::BTreeSet;
use std::error::Error;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::settings::FleetWorker;
use txc_blocking::values::ClientOrderId;
use txc_blocking::{Client, Credentials};
use txc_sandbox::{Sandbox, demo};

/// `i/n`: this process is worker `i` of `n`.
pub(crate) const ENV_WORKER: &str = "TXC_FLEET_WORKER";
/// The sandbox's base URL, for a worker.
const ENV_BASE_URL: &str = "TXC_FLEET_BASE_URL";
/// How long a worker places orders, in seconds.
const ENV_SECONDS: &str = "TXC_FLEET_SECONDS";
/// The line a worker ends its output with.
const REPORT: &str = "fleet-worker-report";

#[allow(dead_code)] // The fleet test includes this file for `run_fleet` and `worker_main`.
fn main() -> ExitCode {
    if std::env::var_os(ENV_WORKER).is_some() {
        return match worker_main() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("worker: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match parse_args().and_then(|(workers, seconds)| {
        let exe = std::env::current_exe()?;
        run_fleet(|| Command::new(&exe), workers, seconds)
    }) {
        Ok(report) => {
            println!("{report}");
            if report.is_clean() {
                ExitCode::SUCCESS
            } else {
                eprintln!("the fleet was not clean: see the counts above");
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--workers N` (default 4) and `--seconds S` (default 5).
fn parse_args() -> Result<(u32, u64), Box<dyn Error>> {
    let (mut workers, mut seconds) = (4, 5);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--workers" => workers = value.parse()?,
            "--seconds" => seconds = value.parse()?,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    Ok((workers, seconds))
}

/// What a fleet run did, from the workers' reports and the sandbox's counters.
#[derive(Debug)]
pub(crate) struct FleetReport {
    pub(crate) workers: u32,
    pub(crate) seconds: u64,
    /// Orders each worker was told were placed.
    pub(crate) placed: Vec<u64>,
    /// Calls that ended in an error, per worker.
    pub(crate) failed: Vec<u64>,
    pub(crate) accepted_orders: u64,
    pub(crate) distinct_client_order_ids: usize,
    pub(crate) answers_429: u64,
    pub(crate) nonce_rejections: u64,
}

impl FleetReport {
    /// Every order placed once, none lost, no 429 and no nonce rejection.
    pub(crate) fn is_clean(&self) -> bool {
        let placed: u64 = self.placed.iter().sum();
        self.failed.iter().all(|f| *f == 0)
            && placed == self.accepted_orders
            && usize::try_from(placed).is_ok_and(|p| p == self.distinct_client_order_ids)
            && self.answers_429 == 0
            && self.nonce_rejections == 0
    }
}

impl std::fmt::Display for FleetReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let placed: u64 = self.placed.iter().sum();
        writeln!(f, "{} workers, {} s, one key", self.workers, self.seconds)?;
        for (i, (p, e)) in self.placed.iter().zip(&self.failed).enumerate() {
            writeln!(f, "  worker {i}: {p} orders placed, {e} failed")?;
        }
        writeln!(
            f,
            "placed: {placed} ({:.0} per second for the key)",
            placed as f64 / self.seconds.max(1) as f64
        )?;
        writeln!(
            f,
            "sandbox: {} orders accepted, {} distinct clientOrderIds",
            self.accepted_orders, self.distinct_client_order_ids
        )?;
        write!(
            f,
            "sandbox: {} answers 429, {} nonce rejections",
            self.answers_429, self.nonce_rejections
        )
    }
}

/// Starts the sandbox and `workers` worker processes made by `command` (with the
/// `TXC_FLEET_*` variables added), waits for them, and reports.
pub(crate) fn run_fleet(
    command: impl Fn() -> Command,
    workers: u32,
    seconds: u64,
) -> Result<FleetReport, Box<dyn Error>> {
    let sandbox = Sandbox::start()?;
    // Enough margin for every order the fleet can place.
    sandbox.set_balance(demo::PARTNER_API_KEY, "USDT", "1000000000")?;
    let children = (0..workers)
        .map(|i| {
            command()
                .env(ENV_WORKER, format!("{i}/{workers}"))
                .env(ENV_BASE_URL, sandbox.base_url())
                .env(ENV_SECONDS, seconds.to_string())
                .stdout(Stdio::piped())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut placed = Vec::new();
    let mut failed = Vec::new();
    for child in children {
        let output = child.wait_with_output()?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let report = stdout
            .lines()
            .find_map(|line| line.split_once(REPORT).map(|(_, numbers)| numbers))
            .ok_or_else(|| format!("a worker ended without a report ({})", output.status))?;
        let numbers: Vec<u64> = report
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        let [p, e] = numbers[..] else {
            return Err(format!("unreadable report {report:?}").into());
        };
        placed.push(p);
        failed.push(e);
    }
    let stats = sandbox.stats();
    let ids: BTreeSet<ClientOrderId> = sandbox
        .orders()
        .into_iter()
        .filter_map(|o| o.client_order_id)
        .collect();
    let answers_429 = stats.rate_limited
        + stats
            .rejections_by_message
            .get("Too many requests.")
            .copied()
            .unwrap_or_default();
    Ok(FleetReport {
        workers,
        seconds,
        placed,
        failed,
        accepted_orders: stats.accepted_orders,
        distinct_client_order_ids: ids.len(),
        answers_429,
        nonce_rejections: stats.nonce_rejections,
    })
}

/// One worker: places orders until its time is up, then prints its report line.
pub(crate) fn worker_main() -> Result<(), Box<dyn Error>> {
    let spec = std::env::var(ENV_WORKER)?;
    let (i, n) = spec.split_once('/').ok_or("TXC_FLEET_WORKER is i/n")?;
    let worker = FleetWorker::new(i.parse()?, n.parse()?)?;
    let base_url = std::env::var(ENV_BASE_URL)?;
    let seconds: u64 = std::env::var(ENV_SECONDS)?.parse()?;
    let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
    let client = Client::builder(credentials)
        .base_url(base_url)
        .fleet_worker(worker)
        .build()?;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut placed, mut failed) = (0u64, 0u64);
    while Instant::now() < deadline {
        // Each order is built with a clientOrderId of its own.
        let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001").build()?;
        match client.collateral_market_order(&order) {
            Ok(_) => placed += 1,
            Err(e) => {
                failed += 1;
                eprintln!("worker {spec}: {e}");
            }
        }
    }
    println!("{REPORT} {placed} {failed}");
    Ok(())
}
