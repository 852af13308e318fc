//! Request values: wire bytes of each operation, the builder rules, and server-side parsing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_types::endpoint::{Endpoint, EndpointKind};
use txc_types::errors::{Reason, ValidationError};
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::NewOrder;
use txc_types::orders::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, PositionSide, Side, Stp,
};
use txc_types::values::{Amount, Market, Price};

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

#[test]
fn wire_bodies_of_each_operation() {
    let full = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("order-1")
        .stop_loss("50000")
        .take_profit("80000")
        .position_side(PositionSide::Long)
        .stp(Stp::CancelBoth)
        .build()
        .unwrap();
    let reduce = CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "1")
        .client_order_id("order-2")
        .reduce_only(true)
        .build()
        .unwrap();
    let trigger = CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.01", "40000")
        .client_order_id("order-42")
        .stop_loss("50000")
        .take_profit("30000")
        .position_side(PositionSide::Long)
        .build()
        .unwrap();
    let plans = SmartPlansQuery::builder().ticker("USDT").build().unwrap();
    insta::assert_snapshot!(
        [
            json(&full),
            json(&reduce),
            json(&trigger),
            json(&plans),
            json(&SmartPlansQuery::new())
        ]
        .join("\n")
    );
}

#[test]
fn an_order_built_without_a_client_order_id_gets_a_generated_one() {
    let build = || {
        CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
            .build()
            .unwrap()
    };
    let (a, b) = (build(), build());
    let (a, b) = (a.fields().client_order_id(), b.fields().client_order_id());
    assert!(a.as_str().starts_with("txc-"), "{a}");
    assert_ne!(a, b, "each order its own");
    // The id is in the body from the start: what is sent is what the caller holds.
    let order = build();
    let body: serde_json::Value = serde_json::from_str(&json(&order)).unwrap();
    assert_eq!(
        body["clientOrderId"],
        order.fields().client_order_id().as_str()
    );
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
        .build()
        .unwrap();
    assert!(trigger.is_trigger() && !order.is_trigger());
}

#[test]
fn endpoints_name_their_paths_and_kinds() {
    assert_eq!(
        CollateralMarketOrder::PATH,
        "/api/v4/order/collateral/market"
    );
    assert_eq!(
        CollateralTriggerMarketOrder::PATH,
        "/api/v4/order/collateral/trigger-market"
    );
    assert_eq!(SmartPlansQuery::PATH, "/api/v4/main-account/smart/plans");
    assert_eq!(CollateralMarketOrder::KIND, EndpointKind::Order);
    assert_eq!(CollateralTriggerMarketOrder::KIND, EndpointKind::Order);
    assert_eq!(SmartPlansQuery::KIND, EndpointKind::Read);
}

#[test]
fn every_bad_value_names_its_field() {
    let cases: Vec<(ValidationError, &str)> = vec![
        (
            CollateralMarketOrder::builder("btc usdt", Side::Buy, "1")
                .build()
                .unwrap_err(),
            "market",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "-1")
                .build()
                .unwrap_err(),
            "amount",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
                .stop_loss("NaN")
                .build()
                .unwrap_err(),
            "stopLoss",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
                .take_profit("1e5")
                .build()
                .unwrap_err(),
            "takeProfit",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
                .client_order_id("a".repeat(65))
                .build()
                .unwrap_err(),
            "clientOrderId",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
                .client_order_id("a/b")
                .build()
                .unwrap_err(),
            "clientOrderId",
        ),
        (
            CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "1", "0x10")
                .build()
                .unwrap_err(),
            "activation_price",
        ),
        (
            SmartPlansQuery::builder()
                .ticker("usdt")
                .build()
                .unwrap_err(),
            "ticker",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
                .stop_loss("1")
                .reduce_only(true)
                .build()
                .unwrap_err(),
            "reduceOnly",
        ),
        (
            CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
                .reduce_only(true)
                .take_profit("1")
                .build()
                .unwrap_err(),
            "reduceOnly",
        ),
    ];
    let rendered: Vec<String> = cases
        .iter()
        .map(|(e, field)| {
            assert_eq!(e.field(), *field, "{e}");
            e.to_string()
        })
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
}

#[test]
fn first_error_wins_and_later_setters_do_not_hide_it() {
    let err = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .stop_loss("bad")
        .take_profit("also bad")
        .client_order_id("fine")
        .build()
        .unwrap_err();
    assert_eq!(err.field(), "stopLoss");
}

#[test]
fn reduce_only_false_with_stop_loss_is_allowed() {
    let o = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .stop_loss("1")
        .reduce_only(false)
        .build()
        .unwrap();
    assert_eq!(o.fields().reduce_only(), Some(false));
}

#[test]
fn decimal_rules() {
    for good in [
        "1",
        "0.01",
        "40000",
        "0.000001",
        "123456789.123456789",
        "10",
    ] {
        assert_eq!(good.parse::<Amount>().unwrap().as_str(), good);
    }
    let long = "1".repeat(1000);
    for bad in [
        "",
        "0",
        "0.0",
        "-1",
        "+1",
        "1e5",
        "NaN",
        "inf",
        "0x10",
        " 1",
        "1 ",
        "1.",
        ".5",
        "01",
        "1.2.3",
        "1,5",
        long.as_str(),
    ] {
        assert!(bad.parse::<Price>().is_err(), "{bad:?}");
    }
    assert_eq!(
        "0".parse::<Amount>().unwrap_err(),
        ValidationError::InvalidField {
            field: "amount",
            reason: Reason::NotPositive
        }
    );
}

#[test]
fn market_and_enum_parsing() {
    let m: Market = "BTC_PERP".parse().unwrap();
    assert_eq!((m.stock(), m.money()), ("BTC", "PERP"));
    for bad in [
        "BTCUSDT",
        "_USDT",
        "BTC_",
        "BTC__USDT",
        "BTC_US_DT",
        "btc_usdt",
        "BTC-USDT",
    ] {
        assert!(bad.parse::<Market>().is_err(), "{bad}");
    }
    for (text, side) in [
        ("long", PositionSide::Long),
        ("Short", PositionSide::Short),
        ("BOTH", PositionSide::Both),
    ] {
        assert_eq!(text.parse::<PositionSide>().unwrap(), side);
    }
    for (text, stp) in [
        ("cancel_both", Stp::CancelBoth),
        ("cn", Stp::CancelNew),
        ("cancel_old", Stp::CancelOld),
        ("no", Stp::No),
    ] {
        assert_eq!(text.parse::<Stp>().unwrap(), stp);
        assert_eq!(json(&stp).trim_matches('"'), stp.as_str());
    }
    assert!("BUY".parse::<Side>().is_err());
}

#[cfg(feature = "decimal")]
#[test]
fn rust_decimal_converts_both_ways() {
    use rust_decimal::Decimal;
    let d: Decimal = "0.0100".parse().unwrap();
    let a = Amount::try_from(d).unwrap();
    assert_eq!(a.as_str(), "0.01");
    assert_eq!(Decimal::try_from(&a).unwrap(), d);
    assert!(Amount::try_from(Decimal::ZERO).is_err());
    assert!(Price::try_from(Decimal::NEGATIVE_ONE).is_err());
}

#[cfg(feature = "decimal")]
mod decimal_builders {
    use proptest::prelude::*;
    use rust_decimal::Decimal;
    use txc_types::orders::{CollateralTriggerMarketOrder, Side};

    proptest! {
        /// Any positive `Decimal` goes on the wire in plain notation, with the same value, under
        /// the field's own name when it is refused.
        #[test]
        fn builders_take_decimals_in_plain_notation(mantissa in 1i64..i64::MAX, scale in 0u32..=28) {
            let d = Decimal::new(mantissa, scale);
            let order = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, d, d)
                .stop_loss(d)
                .build()
                .unwrap();
            let body = serde_json::to_value(&order).unwrap();
            for field in ["amount", "activation_price", "stopLoss"] {
                let text = body[field].as_str().unwrap();
                prop_assert!(text.bytes().all(|b| b.is_ascii_digit() || b == b'.'), "{text}");
                prop_assert_eq!(text.parse::<Decimal>().unwrap(), d);
            }
            let err = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, d, d)
                .take_profit(-d)
                .build()
                .unwrap_err();
            prop_assert_eq!(err.field(), "takeProfit");
        }
    }
}
