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
use txc_sign::{Credentials, NonceSequence, Signer, decode};
use txc_types::{CollateralMarketOrder, Side};

const THREADS: usize = 8;
const PER_THREAD: usize = 50;

#[test]
fn eight_threads_fifty_orders_each() {
    let sandbox = Sandbox::start().unwrap();
    let signer = Signer::new(
        Credentials::new(PARTNER.0, PARTNER.1).unwrap(),
        sandbox.base_url(),
    )
    .unwrap();
    let nonces = NonceSequence::new();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap();

    let ids: Vec<u64> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                let (signer, nonces, order) = (signer.clone(), nonces.clone(), order.clone());
                scope.spawn(move || {
                    let agent = agent();
                    (0..PER_THREAD)
                        .map(|_| {
                            let request = signer
                                .sign(&order, nonces.next(now_ms()), true)
                                .unwrap()
                                .into_http()
                                .unwrap();
                            let reply = Reply::from_response(agent.run(request).unwrap());
                            let placed =
                                decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap();
                            placed.order_id.unwrap()
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
    let orders = sandbox.orders();
    assert_eq!(orders.len(), total);
    let stored: BTreeSet<u64> = orders.iter().map(|o| o.order_id.unwrap()).collect();
    assert_eq!(stored, unique);
    let stats = sandbox.stats();
    assert_eq!(stats.requests, total as u64);
    assert_eq!(stats.accepted_orders, total as u64);
    assert_eq!(stats.rejections, 0);
    // Each order locks 6.5 margin and pays 0.065 fee.
    assert_eq!(sandbox.positions(PARTNER.0)[0].amount, "0.4");
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("7374"));
}
