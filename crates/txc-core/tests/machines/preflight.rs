//! The position-mode check before an order: the mode is read by one call of a key at a time;
//! the others made meanwhile go unchecked instead of each reading it, and a read that ends
//! without the mode gives the right to read back.

use std::time::SystemTime;

use txc_core::decode::Response;
use txc_core::risk::ModeCheck;
use txc_core::{ClientConfig, ClientCore, Machine, Step};
use txc_sign::Credentials;
use txc_types::endpoint::Endpoint;
use txc_types::orders::{CollateralMarketOrder, Side};
use txc_types::positions::HedgeModeQuery;

use crate::exchange::start;

/// A core of its own key (the mode is shared by every client of a key in the process).
fn core(key: &str) -> ClientCore {
    ClientConfig::new(Credentials::new(key, "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .position_mode_check(ModeCheck::Learn)
        .no_rate_limit()
        .build()
        .unwrap()
}

fn order(cid: &str) -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id(cid)
        .build()
        .unwrap()
}

/// The path of the request `machine` sends next.
fn sends<M: Machine>(machine: &mut M, now: SystemTime) -> String {
    match machine.next(now) {
        Step::Send(request) => request.uri().path().to_owned(),
        Step::Wait(d) => panic!("waits {d:?}"),
        Step::Done(_) => panic!("done"),
    }
}

#[test]
fn the_mode_is_read_by_one_call_at_a_time() {
    let core = core("preflight-one-reader");
    let (a, b, c) = (order("a"), order("b"), order("c"));
    let mut first = core.preflight(&a, core.place(&a));
    let mut second = core.preflight(&b, core.place(&b));
    assert_eq!(sends(&mut first, start()), HedgeModeQuery::PATH);
    // Made while the first reads: unchecked, no second read.
    assert_eq!(sends(&mut second, start()), CollateralMarketOrder::PATH);
    first.receive(Ok(Response::new(200, br#"{"hedgeMode":false}"#)));
    assert_eq!(sends(&mut first, start()), CollateralMarketOrder::PATH);
    // Known now: checked without a read.
    let mut third = core.preflight(&c, core.place(&c));
    assert_eq!(sends(&mut third, start()), CollateralMarketOrder::PATH);
}

#[test]
fn a_read_that_ends_without_the_mode_gives_the_right_back() {
    let core = core("preflight-reader-gone");
    let (a, b, c) = (order("a"), order("b"), order("c"));
    // Dropped in the middle of its read (a dropped future): the next call reads.
    let mut first = core.preflight(&a, core.place(&a));
    assert_eq!(sends(&mut first, start()), HedgeModeQuery::PATH);
    drop(first);
    let mut second = core.preflight(&b, core.place(&b));
    assert_eq!(sends(&mut second, start()), HedgeModeQuery::PATH);
    // Refused (not retried): the order goes unchecked, and the next call reads again.
    second.receive(Ok(Response::new(
        403,
        br#"{"code":0,"message":"This endpoint is not allowed for this key"}"#,
    )));
    assert_eq!(sends(&mut second, start()), CollateralMarketOrder::PATH);
    let mut third = core.preflight(&c, core.place(&c));
    assert_eq!(sends(&mut third, start()), HedgeModeQuery::PATH);
}
