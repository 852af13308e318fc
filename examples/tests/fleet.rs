//! The fleet example, smaller: four worker processes (this test binary started again as
//! workers) share one key for two seconds, each as fast as its limiter allows. The sandbox
//! sees no 429 and no nonce rejection, and every order placed exactly once.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::print_stdout
)]

#[path = "../examples/fleet.rs"]
mod fleet;

use std::process::Command;

/// The worker processes: this binary, running only [`worker_process`].
fn worker_command() -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args([
        "--exact",
        "worker_process",
        "--nocapture",
        "--test-threads=1",
    ]);
    command
}

/// Runs a worker when started as one (by [`four_workers_share_a_key_without_collisions`]);
/// otherwise passes at once.
#[test]
fn worker_process() {
    if std::env::var_os(fleet::ENV_WORKER).is_some() {
        fleet::worker_main().unwrap();
    }
}

#[test]
fn four_workers_share_a_key_without_collisions() {
    let report = fleet::run_fleet(worker_command, 4, 2).unwrap();
    println!("{report}");
    assert_eq!(report.answers_429, 0, "{report}");
    assert_eq!(report.nonce_rejections, 0, "{report}");
    assert!(report.failed.iter().all(|f| *f == 0), "{report}");
    let placed: u64 = report.placed.iter().sum();
    assert_eq!(placed, report.accepted_orders, "{report}");
    assert_eq!(
        placed as usize, report.distinct_client_order_ids,
        "{report}"
    );
    assert!(
        report.placed.iter().all(|p| *p > 0),
        "every worker placed: {report}"
    );
    assert!(report.is_clean());
    // The limiter, not the loop, set the pace: a worker's share of the documented 10 000 per
    // 10 s is 2 500, of which 2 s allow a burst of 50 and about 480 more.
    assert!(report.placed.iter().all(|p| *p <= 50 + 500), "{report}");
}
