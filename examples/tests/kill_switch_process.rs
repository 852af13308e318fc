//! The kill switch outlives the process that armed it: a child process (this test binary, run
//! again as `child_holds_an_armed_guard`) places a trigger order and holds an armed
//! [`KillSwitch`](txc_blocking::guards::KillSwitch) guard; it is killed with SIGKILL, so
//! nothing re-arms the timer and nothing deletes it; the sandbox cancels the order once the
//! timer runs out — and not before. Once per transport.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::print_stdout
)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use common::eventually;
use txc_core::ClientConfig;
use txc_core::risk::{KillSwitchSchedule, ModeCheck};
use txc_sandbox::{AccountConfig, Sandbox, demo};
use txc_sign::Credentials;
use txc_types::lookups::OrderHistoryQuery;
use txc_types::orders::{CollateralTriggerMarketOrder, OrderStatus, Side};

/// Where the child finds the sandbox, and which transport it uses.
const URL: &str = "TXC_KILL_SWITCH_CHILD_URL";
const TRANSPORT: &str = "TXC_KILL_SWITCH_CHILD_TRANSPORT";
/// A second of a kill-switch timeout on the test's sandbox: the minimum timeout of 5 s lasts
/// one second.
const SECOND: Duration = Duration::from_millis(200);

#[test]
fn the_blocking_guard_s_timer_outlives_its_process() {
    outlives_its_process("blocking");
}

#[test]
fn the_async_guard_s_timer_outlives_its_process() {
    outlives_its_process("async");
}

fn outlives_its_process(transport: &str) {
    // The partner's account, but one whose history records canceled orders (the demo partner is
    // a B2B account, whose history does not), so that the cancel's time can be read back.
    let sandbox = Sandbox::builder()
        .account(
            AccountConfig::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
                .canceled_orders_in_history(true)
                .balance("USDT", "10000"),
        )
        .kill_switch_second(SECOND)
        .start()
        .unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_holds_an_armed_guard",
            "--ignored",
            "--nocapture",
        ])
        .env(URL, sandbox.base_url())
        .env(TRANSPORT, transport)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let order_id: u64 = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix("READY ").map(str::to_owned))
        .expect("the child never got ready")
        .parse()
        .unwrap();
    // SIGKILL: no destructor runs, nothing deletes or re-arms the timer.
    child.kill().unwrap();
    child.wait().unwrap();

    // Not before: the child is gone and its order still open, while the timer is still armed
    // (a timer past its deadline runs out — canceling the order — before it can be listed, so
    // reading the order first and the timer second shows the order open at a moment the timer
    // had not run out).
    let open = sandbox
        .orders()
        .into_iter()
        .any(|o| o.order_id == order_id && o.status == Some(OrderStatus::Open));
    let timers = sandbox.kill_switch_timers(demo::PARTNER_API_KEY);
    assert!(open, "canceled before the timer ran out");
    assert_eq!(
        timers.len(),
        1,
        "the timer ran out too soon after the kill: {timers:?}"
    );
    let expires_at = timers[0].expires_at;

    // After: once the timer runs out, the order is canceled, by the timer, at or after its
    // deadline on the sandbox's clock.
    eventually("the order canceled", || {
        sandbox
            .orders()
            .into_iter()
            .any(|o| o.order_id == order_id && o.status == Some(OrderStatus::Canceled))
    });
    let stats = sandbox.stats();
    assert_eq!(
        (stats.kill_switches_fired, stats.kill_switch_canceled_orders),
        (1, 1)
    );
    assert_eq!(stats.canceled_orders + stats.mass_canceled_orders, 0);
    let client = txc_blocking::ClientBuilder::from(config().base_url(sandbox.base_url()))
        .build()
        .unwrap();
    let query = OrderHistoryQuery::builder()
        .market("BTC_USDT")
        .order_id(order_id)
        .build()
        .unwrap();
    let history = client.order_history(&query).unwrap();
    let canceled = history.orders().next().unwrap();
    assert!(canceled.ftime.to_system_time() >= expires_at - Duration::from_micros(1));
    assert!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).is_empty());
}

fn config() -> ClientConfig {
    ClientConfig::new(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap())
        .retry_policy(common::config::sandbox_retries())
        .position_mode_check(ModeCheck::Learn)
}

/// The child: places a trigger order on `BTC_USDT`, arms a guard for that market re-arming
/// every 50 ms, says `READY <order id>`, and waits to be killed.
#[test]
#[ignore = "run by the_*_guard_s_timer_outlives_its_process as its child process"]
fn child_holds_an_armed_guard() {
    let url = std::env::var(URL).expect("run as the child of a kill-switch test");
    let order = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
        .build()
        .unwrap();
    let schedule = KillSwitchSchedule::new("BTC_USDT", 5)
        .unwrap()
        .rearm_every(Duration::from_millis(50))
        .unwrap();
    let report = |event: txc_core::risk::KillSwitchEvent| eprintln!("{event}");
    let config = config().base_url(url);
    let (order_id, guard): (u64, Box<dyn std::any::Any>) = match std::env::var(TRANSPORT).as_deref()
    {
        Ok("async") => {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            let client = txc_async::ClientBuilder::from(config).build().unwrap();
            let placed = runtime
                .block_on(client.collateral_trigger_market_order(&order))
                .unwrap();
            let guard = runtime
                .block_on(client.arm_kill_switch(schedule, report))
                .unwrap();
            (placed.order_id, Box::new((guard, runtime)))
        }
        _ => {
            let client = txc_blocking::ClientBuilder::from(config).build().unwrap();
            let placed = client.collateral_trigger_market_order(&order).unwrap();
            let guard = client.arm_kill_switch(schedule, report).unwrap();
            (placed.order_id, Box::new(guard))
        }
    };
    println!("READY {order_id}");
    std::io::stdout().flush().unwrap();
    let started = SystemTime::now();
    // Killed long before this ends; the guard lives until then.
    while started.elapsed().unwrap_or_default() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(guard);
    panic!("the child was not killed");
}
