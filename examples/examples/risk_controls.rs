//! Positions and risk controls with the blocking client: set the leverage, open a position
//! with a market order, read it, close it — and a kill switch that outlives the process that
//! armed it.
//!
//! ```text
//! cargo run -p txc-examples --example risk_controls
//! ```
//!
//! A second process (this example, started again) places a trigger order and holds an armed
//! [`KillSwitch`](txc_blocking::guards::KillSwitch) guard, which re-arms the market's timer
//! while it lives. The first process kills it (SIGKILL on Unix: no clean-up runs), so nothing
//! re-arms the timer; when it runs out the exchange cancels the trigger order. Runs against
//! the embedded sandbox (about ten seconds: the shortest timer is five), or the server named by
//! `TXC_BASE_URL`, `TXC_API_KEY` and `TXC_API_SECRET` (a non-loopback one only with
//! `-- --live`: the orders are real).

#![allow(clippy::print_stdout)]

use std::error::Error;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use txc_blocking::Client;
use txc_blocking::guards::KillSwitchSchedule;
use txc_blocking::lookups::OpenOrdersQuery;
use txc_blocking::orders::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, KillSwitchStatusQuery, OrderClass, Side,
};
use txc_blocking::positions::{ClosePosition, OpenPositionsQuery, SetLeverage};
use txc_examples::{ENV_API_KEY, ENV_API_SECRET, ENV_BASE_URL, LIVE_FLAG, Target};
use txc_sandbox::demo;

/// Set in the second process.
const CHILD: &str = "TXC_RISK_CONTROLS_CHILD";
const MARKET: &str = "BTC_USDT";
/// The kill switch's timeout, in seconds: the shortest the exchange takes.
const TIMEOUT_SECS: u32 = 5;

fn main() -> Result<(), Box<dyn Error>> {
    let target = Target::from_env()?;
    let client = target.blocking().build()?;
    if std::env::var_os(CHILD).is_some() {
        return hold_a_kill_switch(&client);
    }

    // The leverage can change while nothing is open.
    let leverage = client.set_leverage(&SetLeverage::new(5)?)?;
    println!("leverage set to {}", leverage.leverage);

    // A market order opens a position; read it back.
    let order = CollateralMarketOrder::builder(MARKET, Side::Buy, "0.001").build()?;
    let filled = client.collateral_market_order(&order)?;
    println!(
        "market order {} filled: {} {}",
        filled.order_id, filled.deal_stock, MARKET
    );
    let positions = client.open_positions(&OpenPositionsQuery::of_market(MARKET)?)?;
    let Some(position) = positions.first() else {
        return Err("the order opened no position".into());
    };
    let shown = |d: &Option<txc_blocking::values::ExactDecimal>| {
        d.as_ref().map_or("-".to_owned(), ToString::to_string)
    };
    println!(
        "position {}: {} at {}, margin {}",
        position.position_id,
        shown(&position.amount),
        shown(&position.base_price),
        shown(&position.margin)
    );
    // Now the exchange refuses to change the leverage (its code 113, classified).
    if let Err(refused) = client.set_leverage(&SetLeverage::new(10)?) {
        let class = refused
            .api()
            .map(|a| a.class.to_string())
            .unwrap_or_default();
        println!("leverage change refused while the position is open: {class}");
    }

    // Another process arms the kill switch and places a trigger order.
    let mut child = child_process(&target)?;
    let stdout = child.stdout.take().ok_or("no child output")?;
    let line = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.starts_with("READY "))
        .ok_or("the other process failed")?;
    let trigger_id: u64 = line.trim_start_matches("READY ").parse()?;
    println!("another process armed the kill switch and placed trigger order {trigger_id}");

    // Close the position: a market order the other way, placed by the exchange.
    client.close_position(&ClosePosition::new(MARKET, position.position_id)?)?;
    let left = client.open_positions(&OpenPositionsQuery::of_market(MARKET)?)?;
    println!("position closed; {} open on {MARKET}", left.len());

    // The process that armed the timer is gone: nothing re-arms it.
    child.kill()?;
    child.wait()?;
    let killed = Instant::now();
    let timers = client.kill_switch_status(&KillSwitchStatusQuery::of_market(MARKET)?)?;
    println!(
        "the other process was killed; {} timer(s) still armed on {MARKET}",
        timers.len()
    );
    let open = OpenOrdersQuery::builder()
        .market(MARKET)
        .order_id(trigger_id)
        .build()?;
    while !client.open_orders(&open)?.is_empty() {
        if killed.elapsed() > Duration::from_secs(u64::from(TIMEOUT_SECS) * 3) {
            return Err("the kill switch never canceled the trigger order".into());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    println!(
        "the timer ran out: trigger order {trigger_id} canceled by the exchange {:.1} s after \
         the process died",
        killed.elapsed().as_secs_f64()
    );
    Ok(())
}

/// This example again, as the process that holds the kill switch, on the same server.
fn child_process(target: &Target) -> Result<std::process::Child, Box<dyn Error>> {
    let mut command = Command::new(std::env::current_exe()?);
    command.env(CHILD, "1").stdout(Stdio::piped());
    if target.sandbox.is_some() {
        command
            .env(ENV_BASE_URL, &target.base_url)
            .env(ENV_API_KEY, demo::PARTNER_API_KEY)
            .env(ENV_API_SECRET, demo::PARTNER_API_SECRET);
    }
    if std::env::args().any(|a| a == LIVE_FLAG) {
        command.arg(LIVE_FLAG);
    }
    Ok(command.spawn()?)
}

/// The second process: places a trigger order, keeps the market's kill switch armed, says so,
/// and waits to be killed.
fn hold_a_kill_switch(client: &Client) -> Result<(), Box<dyn Error>> {
    // Buy once the price reaches 80000 (the sandbox is at 65000): it rests.
    let order =
        CollateralTriggerMarketOrder::builder(MARKET, Side::Buy, "0.001", "80000").build()?;
    let schedule = KillSwitchSchedule::new(MARKET, TIMEOUT_SECS)?.types([OrderClass::Margin])?;
    // Failures to re-arm are reported, never silent.
    let _guard = client.arm_kill_switch(schedule, |event| eprintln!("{event}"))?;
    let resting = client.collateral_trigger_market_order(&order)?;
    println!("READY {}", resting.order_id);
    std::io::stdout().flush()?;
    loop {
        std::thread::sleep(Duration::from_secs(60));
    }
}
