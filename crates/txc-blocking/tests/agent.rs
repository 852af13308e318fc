//! The ureq agent hands error statuses through to the decoder: the exchange's error answers
//! arrive as typed API errors, with the default agent and with one brought by the caller.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_blocking::{
    ApiErrorClass, Client, CollateralMarketOrder, Credentials, Delivery, Error, Side,
    SmartPlansQuery, TransportErrorKind,
};
use txc_sandbox::{Sandbox, demo};

fn too_small() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001")
        .build()
        .unwrap()
}

#[test]
fn default_agent_passes_403_through() {
    let sandbox = Sandbox::start().unwrap();
    let client =
        Client::builder(Credentials::new(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET).unwrap())
            .base_url(sandbox.base_url())
            .build()
            .unwrap();

    let error = client.smart_plans(&SmartPlansQuery::new()).unwrap_err();
    let api = error.api().unwrap();
    assert_eq!((api.status, api.class), (403, ApiErrorClass::Permission));
    assert!(api.message.contains("permission"), "{}", api.message);
}

#[test]
fn own_agent_passes_422_through() {
    let sandbox = Sandbox::start().unwrap();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let client =
        Client::builder(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap())
            .base_url(sandbox.base_url())
            .http(agent)
            .build()
            .unwrap();

    let error = client.collateral_market_order(&too_small()).unwrap_err();
    let api = error.api().unwrap();
    assert_eq!(
        (api.status, api.code, api.class),
        (422, Some(32), ApiErrorClass::Validation)
    );
    assert!(!api.field_errors("amount").is_empty());
    assert!(sandbox.orders().is_empty());
}

#[test]
fn announced_length_over_the_cap_is_refused() {
    let sandbox = Sandbox::start().unwrap();
    let client =
        Client::builder(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap())
            .base_url(sandbox.base_url())
            .max_response_bytes(16)
            .build()
            .unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap();
    let error = client.collateral_market_order(&order).unwrap_err();
    let Error::Transport(transport) = &error else {
        panic!("expected a transport error, got {error:?}");
    };
    assert_eq!(
        (transport.kind, transport.delivery),
        (TransportErrorKind::ResponseTooLarge, Delivery::MaybeSent)
    );
    assert!(error.outcome_unknown());
    assert_eq!(sandbox.orders().len(), 1, "placed once, not resent");
}
