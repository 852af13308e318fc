//! Many clients at once: 8 threads × 50 orders with nonceWindow and one shared nonce
//! sequence. None lost, none counted twice.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::collections::BTreeSet;

use common::*;
use txc_sandbox::Sandbox;

const THREADS: usize = 8;
const PER_THREAD: usize = 50;

#[test]
fn eight_threads_fifty_orders_each() {
    let sandbox = Sandbox::start().unwrap();

    let ids: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                let sandbox = &sandbox;
                scope.spawn(move || {
                    let agent = agent();
                    (0..PER_THREAD)
                        .map(|_| {
                            // The shared nonce sequence of `common`: one per test binary.
                            let request = small_order(sandbox);
                            let reply = Reply::from_response(agent.run(request).unwrap());
                            assert_eq!(reply.status, 200, "{}", reply.text());
                            reply.json()["orderId"].as_u64().unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });

    let total = THREADS * PER_THREAD;
    let unique: BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!(unique.len(), total, "every answer a distinct order");
    let orders = sandbox.order_records();
    assert_eq!(orders.len(), total);
    let stored: BTreeSet<u64> = orders
        .iter()
        .map(|o| o["orderId"].as_u64().unwrap())
        .collect();
    assert_eq!(stored, unique);
    let stats = sandbox.stats();
    assert_eq!(stats.requests, total as u64);
    assert_eq!(stats.accepted_orders, total as u64);
    assert_eq!(stats.rejections, 0);
    // Each order locks 6.5 margin and pays 0.065 fee.
    assert_eq!(sandbox.positions(PARTNER.0)[0].amount, "0.4");
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("7374"));
}
