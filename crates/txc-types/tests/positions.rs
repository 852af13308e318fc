//! The positions and risk-control requests: paths, kinds, documented limits and wire bodies;
//! every bound checked before a request exists, exactly at the documented edges; and the
//! answers read by the crate's one leniency rule.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::{Duration, UNIX_EPOCH};

use proptest::prelude::*;
use txc_types::endpoint::{ENDPOINT_PATHS, Endpoint, EndpointKind, RateLimit};
use txc_types::errors::{Reason, ValidationError};
use txc_types::orders::{
    CancelAllOrders, CancelOrder, CancelOrders, KillSwitchAnswer, KillSwitchStatusQuery,
    OrderClass, PositionSide, SetKillSwitch,
};
use txc_types::positions::{
    AccountSummaryQuery, BalanceSummaryQuery, ClosePosition, CollateralBalance,
    CollateralBalanceQuery, HedgeModeQuery, Leverage, OpenPositionsQuery, Position,
    PositionHistoryQuery, PositionMode, SetHedgeMode, SetLeverage,
};

fn row<E: Endpoint>(endpoint: &E) -> String {
    let limit = E::RATE_LIMIT.map_or("none".to_owned(), |l| {
        format!("{}/{}s", l.requests, l.window_secs)
    });
    format!(
        "{} {:?} {limit} {}",
        E::PATH,
        E::KIND,
        serde_json::to_string(endpoint).unwrap()
    )
}

#[test]
fn paths_kinds_limits_and_wire_bodies() {
    let bulk = CancelOrders::new(vec![
        CancelOrder::by_order_id("BTC_USDT", 4326248250).unwrap(),
        CancelOrder::by_client_order_id("ETH_USDT", "my-client-id").unwrap(),
    ])
    .unwrap();
    let all = CancelAllOrders::builder()
        .market("BTC_PERP")
        .types([OrderClass::Futures, OrderClass::Margin, OrderClass::Futures])
        .position_side(PositionSide::Short)
        .build()
        .unwrap();
    let rows = [
        row(&CollateralBalanceQuery::of_ticker("BTC").unwrap()),
        row(&BalanceSummaryQuery::new()),
        row(&AccountSummaryQuery),
        row(&OpenPositionsQuery::of_market("BTC_USDT").unwrap()),
        row(&PositionHistoryQuery::builder()
            .market("BTC_USDT")
            .position_id(1)
            .start_date(1_650_400_000)
            .end_date(1_650_500_000)
            .limit(100)
            .offset(0)
            .build()
            .unwrap()),
        row(&ClosePosition::new("BTC_USDT", 123)
            .unwrap()
            .position_side(PositionSide::Long)),
        row(&SetLeverage::new(5).unwrap()),
        row(&HedgeModeQuery),
        row(&SetHedgeMode::new(PositionMode::Hedge)),
        row(&all),
        row(&bulk),
        row(&SetKillSwitch::arm("BTC_USDT", 60)
            .unwrap()
            .types([OrderClass::Spot, OrderClass::Margin])
            .unwrap()),
        row(&SetKillSwitch::disarm("BTC_USDT").unwrap()),
        row(&KillSwitchStatusQuery::of_market("BTC_USDT").unwrap()),
    ];
    insta::assert_snapshot!(rows.join("\n"));
    // Every path is one of the endpoints named up front, once.
    for path in [
        ClosePosition::PATH,
        CancelOrders::PATH,
        SetKillSwitch::PATH,
        PositionHistoryQuery::PATH,
    ] {
        assert_eq!(ENDPOINT_PATHS.iter().filter(|p| **p == path).count(), 1);
    }
    // What changes something: a trade (never resent blindly) or idempotent (resent safely).
    assert_eq!(ClosePosition::KIND, EndpointKind::Order);
    assert_eq!(CancelAllOrders::KIND, EndpointKind::Order);
    assert_eq!(SetKillSwitch::KIND, EndpointKind::Idempotent);
    assert_eq!(SetLeverage::RATE_LIMIT, Some(RateLimit::new(1_000, 10)));
}

#[test]
fn builders_refuse_combinations_the_exchange_refuses() {
    let field = |e: ValidationError| e.field();
    assert_eq!(field(CancelOrders::new(Vec::new()).unwrap_err()), "orders");
    let spot_side = CancelAllOrders::builder()
        .position_side(PositionSide::Long)
        .build();
    assert_eq!(field(spot_side.unwrap_err()), "positionSide");
    let no_types = CancelAllOrders::builder().types([]).build();
    assert_eq!(field(no_types.unwrap_err()), "type");
    let no_types = SetKillSwitch::arm("BTC_USDT", 5).unwrap().types([]);
    assert_eq!(field(no_types.unwrap_err()), "types");
    assert_eq!(field(ClosePosition::new("btc", 1).unwrap_err()), "market");
    assert_eq!(
        field(
            PositionHistoryQuery::builder()
                .limit(0)
                .build()
                .unwrap_err()
        ),
        "limit"
    );
    assert_eq!(
        field(
            PositionHistoryQuery::builder()
                .start_date(10)
                .end_date(9)
                .build()
                .unwrap_err()
        ),
        "endDate"
    );
    // The window's end is checked against the exchange's time when signed: a second ahead
    // is allowed, more is not; without an end, the start is checked.
    let at = UNIX_EPOCH + Duration::from_secs(1_000);
    let end = |s| PositionHistoryQuery::builder().end_date(s).build().unwrap();
    assert!(end(1_001).check_at(at).is_ok());
    assert_eq!(field(end(1_002).check_at(at).unwrap_err()), "endDate");
    let start = PositionHistoryQuery::builder()
        .start_date(1_002)
        .build()
        .unwrap();
    assert_eq!(field(start.check_at(at).unwrap_err()), "startDate");
}

proptest! {
    /// The leverage is exactly one of the documented values.
    #[test]
    fn leverage_is_one_of_the_documented_values(n in 0u32..200) {
        let documented = [1, 2, 3, 5, 10, 20, 50, 100].contains(&n);
        prop_assert_eq!(Leverage::new(n).is_ok(), documented);
        prop_assert_eq!(SetLeverage::new(n).map(|s| s.leverage().get()).ok(), documented.then_some(n));
    }

    /// The timeout is 5 to 600 seconds, sent as a string.
    #[test]
    fn the_kill_switch_timeout_is_5_to_600_seconds(secs in 0u32..1_000) {
        match SetKillSwitch::arm("BTC_USDT", secs) {
            Ok(arm) => {
                prop_assert!((5..=600).contains(&secs));
                let body = serde_json::to_value(&arm).unwrap();
                let text = secs.to_string();
                prop_assert_eq!(body["timeout"].as_str(), Some(text.as_str()));
            }
            Err(e) => {
                prop_assert!(!(5..=600).contains(&secs));
                prop_assert_eq!(e, ValidationError::InvalidField {
                    field: "timeout",
                    reason: Reason::OutOfRange { min: 5, max: 600 },
                });
            }
        }
    }

    /// A bulk cancel takes 1 to 100 orders.
    #[test]
    fn a_bulk_cancel_takes_1_to_100_orders(n in 0usize..150) {
        let orders = (0..n as u64).map(|i| CancelOrder::by_order_id("BTC_USDT", i).unwrap()).collect();
        prop_assert_eq!(CancelOrders::new(orders).is_ok(), (1..=100).contains(&n));
    }
}

#[test]
fn answers_keep_what_they_cannot_read() {
    // A position whose figures come as numbers, a null amount (a position not completely
    // opened), an unknown liquidation state and a new field.
    let p: Position = serde_json::from_str(
        r#"{"positionId":"527","market":"BTC_USDT","amount":null,"basePrice":45658.349,
            "liquidationState":"auto_deleverage","tpsl":[],"leverage":"10"}"#,
    )
    .unwrap();
    assert_eq!(p.position_id, 527);
    assert_eq!(p.amount, None);
    assert_eq!(p.base_price.unwrap().as_str(), "45658.349");
    assert_eq!(p.tpsl, None);
    assert_eq!(p.extra["liquidationState"], "auto_deleverage");
    assert_eq!(p.extra["leverage"], "10");
    assert!(serde_json::from_str::<Position>(r#"{"market":"BTC_USDT"}"#).is_err());
    // An empty balance in PHP's spelling.
    let empty: CollateralBalance = serde_json::from_str("[]").unwrap();
    assert!(empty.balances.is_empty());
    // A timer with a kind this version does not know keeps the list.
    let KillSwitchAnswer::Armed(timer) = serde_json::from_str(
        r#"{"market":"BTC_USDT","startTime":1,"cancellationTime":61,"types":["options"]}"#,
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!(timer.types, None);
    assert_eq!(timer.extra["types"], serde_json::json!(["options"]));
    assert_eq!(timer.timeout(), Duration::from_secs(60));
    assert!(serde_json::from_str::<KillSwitchAnswer>("[1]").is_err());
}
