//! The core alone is enough: `examples/embed_hyper.rs` drives `txc-core` over hyper's own
//! HTTP/1 client connection, tested here against the sandbox — an order, a retried read, and
//! an order whose response is lost.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    dead_code,
    unreachable_pub
)]

#[path = "../examples/embed_hyper.rs"]
mod embed_hyper;

use txc_core::{ClientConfig, Error};
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_sign::Credentials;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, Side};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn txc_core_over_hyper_places_retries_and_never_resends_an_unknown_order() {
    let sandbox = Sandbox::start().unwrap();
    let core = ClientConfig::new(
        Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap(),
    )
    .base_url(sandbox.base_url())
    .build()
    .unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();

    let placed = embed_hyper::drive(&core, core.place(&order)).await.unwrap();
    assert_eq!(sandbox.orders()[0].order_id, placed.order_id);

    // A read after a 503 is retried, signed afresh.
    sandbox.inject_fault(Route::SmartPlans, Fault::Unavailable, Some(1));
    let plans = embed_hyper::drive(&core, core.call(&SmartPlansQuery::new()))
        .await
        .unwrap();
    assert!(!plans.is_empty());
    assert_eq!(sandbox.stats().nonce_rejections, 0);

    // The same order again, inside its window: refused before any I/O.
    let requests = sandbox.stats().requests;
    let again = embed_hyper::drive(&core, core.place(&order)).await;
    assert!(
        matches!(again, Err(Error::ClientOrderIdInUse { .. })),
        "{again:?}"
    );
    assert_eq!(sandbox.stats().requests, requests);

    // A lost response: the order's outcome is unknown, and it is not sent again.
    sandbox.inject_fault(Route::CollateralMarket, Fault::DropAfterProcessing, Some(1));
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();
    let error = embed_hyper::drive(&core, core.place(&order))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::OutcomeUnknown(_)), "{error:?}");
    assert_eq!(sandbox.stats().requests, requests + 1);
    assert_eq!(sandbox.orders().len(), 2);
}
