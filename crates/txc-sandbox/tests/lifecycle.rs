//! Starting from plain code and from inside tokio runtimes, stopping and restarting the
//! listener on the same port, and dropping with requests in flight.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::*;
use txc_sandbox::{Fault, Route, Sandbox, SandboxError};

/// Waits (bounded) until the sandbox has received `n` exchange requests.
fn wait_for_requests(sandbox: &Sandbox, n: u64) {
    for _ in 0..1000 {
        if sandbox.stats().requests >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the request never arrived");
}

#[test]
fn handle_is_shareable() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<Sandbox>();
    assert_send_sync::<SandboxError>();
    let sandbox = std::sync::Arc::new(Sandbox::start().unwrap());
    let other = std::sync::Arc::clone(&sandbox);
    std::thread::spawn(move || other.set_price("ETH_USDT", "3600").unwrap())
        .join()
        .unwrap();
    assert!(format!("{sandbox:?}").contains(sandbox.base_url()));
}

#[test]
fn starts_inside_a_current_thread_runtime() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let sandbox = Sandbox::start().unwrap();
        assert_eq!(small_market_order(&sandbox).status, 200);
        drop(sandbox);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starts_inside_a_multi_thread_runtime() {
    let sandbox = Sandbox::start().unwrap();
    let url = sandbox.base_url().to_owned();
    let status = tokio::task::spawn_blocking(move || {
        let reply = agent()
            .get(format!("{url}/sandbox/v1/stats"))
            .call()
            .unwrap();
        reply.status().as_u16()
    })
    .await
    .unwrap();
    assert_eq!(status, 200);
    sandbox.set_price("BTC_USDT", "1").unwrap();
    drop(sandbox);
}

#[test]
fn stop_and_restart_on_the_same_port() {
    let sandbox = Sandbox::start().unwrap();
    let addr = sandbox.addr();
    assert_eq!(sandbox.base_url(), format!("http://{addr}"));
    assert_eq!(small_market_order(&sandbox).status, 200);

    sandbox.stop_listener();
    sandbox.stop_listener(); // idempotent
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "refused while stopped"
    );
    sandbox.set_price("BTC_USDT", "66000").unwrap(); // the handle still works

    sandbox.restart_listener().unwrap();
    sandbox.restart_listener().unwrap(); // idempotent
    assert_eq!(sandbox.addr(), addr);
    let reply = small_market_order(&sandbox);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["dealMoney"], "66", "state kept");
    assert_eq!(sandbox.order_records().len(), 2);
}

#[test]
fn stop_listener_drops_open_connections() {
    let sandbox = faulty(
        Route::CollateralMarket,
        Fault::Delay(Duration::from_secs(60)),
        None,
    );
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| agent().run(small_order(&sandbox)));
        wait_for_requests(&sandbox, 1);
        // The order is stored before its answer is held back: wait for that, however slow
        // the host, so the listener stops while the answer is delayed.
        for _ in 0..2000 {
            if !sandbox.order_records().is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        sandbox.stop_listener();
        assert!(
            waiting.join().unwrap().is_err(),
            "the connection was dropped"
        );
    });
    // The request was processed before its answer was lost.
    assert_eq!(sandbox.order_records().len(), 1);
    sandbox.clear_faults();
    sandbox.restart_listener().unwrap();
    assert_eq!(PLANS.send(&sandbox, PARTNER, "").status, 200);
}

#[test]
fn drop_does_not_hang_with_requests_in_flight() {
    let sandbox = faulty(Route::All, Fault::Delay(Duration::from_secs(60)), None);
    let request = signed_request(&sandbox, PARTNER, PLANS_PATH, "");
    let waiting = std::thread::spawn(move || agent().run(request));
    wait_for_requests(&sandbox, 1);
    drop(sandbox);
    assert!(waiting.join().unwrap().is_err());
}

#[test]
fn port_in_use_is_a_bind_error() {
    let first = Sandbox::start().unwrap();
    let second = Sandbox::builder().port(first.addr().port()).start();
    assert!(
        matches!(second, Err(SandboxError::Bind { .. })),
        "{second:?}"
    );
    let error = second.unwrap_err();
    assert!(std::error::Error::source(&error).is_some());
}

#[test]
fn many_sandboxes_side_by_side() {
    let sandboxes: Vec<Sandbox> = (0..4).map(|_| Sandbox::start().unwrap()).collect();
    for sandbox in &sandboxes {
        assert_eq!(small_market_order(sandbox).status, 200);
        assert_eq!(sandbox.order_records().len(), 1);
    }
}
