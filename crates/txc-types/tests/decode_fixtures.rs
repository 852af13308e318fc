//! Every answer shape in the wire contract decodes; snapshots pin what each decodes to.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_types::investments::{InvestmentPlan, PlanStatus};
use txc_types::orders::{
    ActivationCondition, Order, OrderStatus, OrderType, PositionSide, Side, Stp,
};
use txc_types::values::ExactDecimal;

fn order(name: &str, text: &str) -> Order {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn order_fixtures_decode_and_match_snapshots() {
    let fixtures = [
        (
            "order_documented",
            include_str!("fixtures/order_documented.json"),
        ),
        (
            "order_older_capture",
            include_str!("fixtures/order_older_capture.json"),
        ),
        (
            "order_oto_null",
            include_str!("fixtures/order_oto_null.json"),
        ),
        (
            "order_unknown_values",
            include_str!("fixtures/order_unknown_values.json"),
        ),
        (
            "trigger_order_documented",
            include_str!("fixtures/trigger_order_documented.json"),
        ),
        (
            "trigger_order_older_capture",
            include_str!("fixtures/trigger_order_older_capture.json"),
        ),
    ];
    for (name, text) in fixtures {
        insta::assert_debug_snapshot!(name, order(name, text));
    }
}

#[test]
fn documented_order_fields() {
    let o = order("documented", include_str!("fixtures/order_documented.json"));
    assert_eq!(o.order_id, 4_180_284_841);
    assert_eq!(
        o.client_order_id.as_ref().map(|id| id.as_str()),
        Some("order1987111")
    );
    assert_eq!(o.side, Side::Sell);
    assert_eq!(o.order_type, OrderType::Market);
    assert_eq!(o.timestamp.as_str(), "1595792396.165973");
    assert_eq!(o.timestamp.subsec_nanos(), 165_973_000);
    assert_eq!(o.status, Some(OrderStatus::Filled));
    assert_eq!(o.stp, Some(Stp::No));
    assert_eq!(o.position_side, Some(PositionSide::Long));
    assert_eq!(o.reduce_only, Some(false));
    let oto = o.oto.unwrap();
    assert_eq!(
        (oto.oto_id, oto.stop_loss.as_ref().map(ExactDecimal::as_str)),
        (29_457_221, Some("50000"))
    );
    assert!(o.extra.is_empty());
}

#[test]
fn older_capture_keeps_fees_and_blank_client_order_id_is_none() {
    let o = order("older", include_str!("fixtures/order_older_capture.json"));
    assert_eq!(o.order_type, OrderType::MarginMarket);
    assert_eq!(
        o.taker_fee.as_ref().map(ExactDecimal::as_str),
        Some("0.001")
    );
    assert_eq!(o.client_order_id, None);
    assert_eq!(o.status, None);
    assert_eq!(o.oto, None);
}

#[test]
fn every_spelling_decodes_and_what_fits_none_is_kept() {
    let o = order(
        "unknown",
        include_str!("fixtures/order_unknown_values.json"),
    );
    assert_eq!(o.order_id, 4_180_284_843, "string ids are accepted");
    assert_eq!(o.timestamp.as_str(), "1595792398.25", "string times too");
    assert_eq!(
        o.deal_money.as_str(),
        "0",
        "numbers where strings are documented"
    );
    assert_eq!(
        o.amount.as_str(),
        "0.0100000000000000000001",
        "a JSON number keeps every digit"
    );
    assert_eq!(o.status, Some(OrderStatus::Unknown("SOMETHING_NEW".into())));
    assert_eq!(o.order_type, OrderType::Unknown("iceberg market".into()));
    assert_eq!(o.oto, None, "PHP's [] for an empty object is absent");
    assert_eq!(o.reduce_only, Some(true), "1 is true");
    // Values that fit no spelling stay in `extra`, never dropped.
    assert_eq!(o.stp, None);
    assert_eq!(o.extra["stp"], "cancel_everything");
    assert_eq!(o.position_side, None);
    assert_eq!(o.extra["positionSide"], "SIDEWAYS");
    assert_eq!(o.deal_fee, None);
    assert_eq!(o.extra["dealFee"]["asset"], "USDT");
    assert_eq!(o.extra["futureField"]["nested"][2], 3);
    assert!(o.extra.contains_key("anotherOne"));
}

#[test]
fn trigger_order_fields() {
    let o = order(
        "trigger",
        include_str!("fixtures/trigger_order_documented.json"),
    );
    assert_eq!(o.order_type, OrderType::StopMarket);
    assert_eq!(
        o.activation_price.as_ref().map(ExactDecimal::as_str),
        Some("40000")
    );
    assert_eq!(o.activated, Some(false));
    assert_eq!(o.activation_condition, Some(ActivationCondition::Lte));
    let old = order(
        "old trigger",
        include_str!("fixtures/trigger_order_older_capture.json"),
    );
    assert_eq!(old.order_type, OrderType::TriggerMarginMarket);
}

#[test]
fn order_round_trips_through_its_serializer() {
    for text in [
        include_str!("fixtures/order_documented.json"),
        include_str!("fixtures/trigger_order_documented.json"),
        include_str!("fixtures/order_unknown_values.json"),
        include_str!("fixtures/order_older_capture.json"),
    ] {
        let o = order("round trip", text);
        let again: Order = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(o, again);
    }
}

#[test]
fn plan_fixtures_decode_and_match_snapshots() {
    let documented: Vec<InvestmentPlan> =
        serde_json::from_str(include_str!("fixtures/plans_documented.json")).unwrap();
    insta::assert_debug_snapshot!("plans_documented", documented);
    let all: Vec<InvestmentPlan> =
        serde_json::from_str(include_str!("fixtures/plans_all_statuses.json")).unwrap();
    insta::assert_debug_snapshot!("plans_all_statuses", all);
    let statuses: Vec<_> = all.iter().map(|p| p.status).collect();
    assert_eq!(
        statuses,
        [
            PlanStatus::Active,
            PlanStatus::NoCoinsLeft,
            PlanStatus::Inactive,
            PlanStatus::Pause,
            PlanStatus::Unknown(9),
        ]
    );
    assert_eq!(all[2].duration_minutes, 20_160, "duration as a string");
    assert_eq!(
        all[0].duration(),
        std::time::Duration::from_secs(14_400 * 60)
    );
    assert_eq!(
        all[4].percent.as_str(),
        "1.5",
        "a number where a string is documented"
    );
    assert_eq!(all[4].extra["brandNew"], true);
    assert_eq!(all[4].extra["label"][0], "x");
}

#[test]
fn wrong_shapes_are_errors_not_panics() {
    let documented: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/order_documented.json")).unwrap();
    let without = |field: &str| {
        let mut v = documented.clone();
        v.as_object_mut().unwrap().remove(field);
        v.to_string()
    };
    let with = |field: &str, value: serde_json::Value| {
        let mut v = documented.clone();
        v[field] = value;
        v.to_string()
    };
    for bad in [
        String::new(),
        "[]".into(),
        "null".into(),
        "\"x\"".into(),
        "{".into(),
        "<html>".into(),
        r#"{"code":0,"message":"Too many requests."}"#.into(),
        without("orderId"),
        without("market"),
        with("orderId", serde_json::json!(-1)),
        with("orderId", serde_json::json!({})),
        with("orderId", serde_json::json!(1.5)),
        with("side", serde_json::json!("short-ish")),
        with("timestamp", serde_json::json!(-5)),
    ] {
        let err = serde_json::from_str::<Order>(&bad).unwrap_err();
        assert!(!err.to_string().is_empty(), "{bad:?}");
    }
    let err = serde_json::from_str::<Order>(&with("side", serde_json::json!("up"))).unwrap_err();
    assert!(err.to_string().contains("`side`"), "{err}");
    assert!(serde_json::from_str::<Vec<InvestmentPlan>>("{\"id\":1}").is_err());
}
