//! The reads of issue 38 against the exchange's spec — the closed positions' PnL, the
//! funding history, the ADL quantiles, the executed deals and the deals of one order: every
//! documented answer decodes (snapshots pin what to), the builders make the spec's request
//! examples, every body they make conforms to the spec's request schema, and every bound is
//! refused before a request exists, exactly at its edge.
//!
//! The fixtures are the spec's examples and its request schemas' facts, copied into the
//! repository. The executed history has no example in the spec: its two fixtures are the
//! `ExecutedDeal` schema's fields, each given the value the spec's deals-of-an-order example
//! has for it, in both documented shapes (a flat list, and an object keyed by market).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, UNIX_EPOCH};

use common::{assert_conforms, conforms, schemas};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;
use txc_types::endpoint::{ENDPOINT_PATHS, Endpoint, EndpointKind, RateLimit};
use txc_types::errors::{Reason, ValidationError};
use txc_types::events::DealRole;
use txc_types::lookups::{
    ExecutedDeals, ExecutedHistoryQuery, OrderDeals, OrderDealsQuery, OrderHistoryQuery,
};
use txc_types::orders::{PositionSide, Side};
use txc_types::paging::{OffsetCap, PageCursor, Paged};
use txc_types::positions::{
    AdlQuantile, AdlQuantileQuery, ClosedPnlQuery, ClosedPosition, FundingHistory,
    FundingHistoryQuery, MarketAdlQuantile,
};

fn decode<T: DeserializeOwned>(name: &str, text: &str) -> T {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn body<T: serde::Serialize>(request: &T) -> Value {
    serde_json::to_value(request).unwrap()
}

#[test]
fn documented_answers_decode() {
    let closed: Vec<ClosedPosition> = decode(
        "closed-pnl",
        include_str!("fixtures/closed_pnl_documented.json"),
    );
    assert_eq!(closed.len(), 2);
    assert!(closed.iter().all(|p| p.extra.is_empty()), "{closed:?}");
    assert_eq!(
        (closed[0].side, closed[1].side),
        (Some(PositionSide::Long), Some(PositionSide::Both))
    );
    insta::assert_debug_snapshot!("closed_pnl_documented", closed);

    let funding: FundingHistory = decode(
        "funding-history",
        include_str!("fixtures/funding_history_documented.json"),
    );
    assert_eq!((funding.limit, funding.offset), (Some(100), Some(0)));
    assert!(funding.extra.is_empty() && funding.records.iter().all(|r| r.extra.is_empty()));
    assert_eq!(
        funding.records.iter().map(|r| r.side()).collect::<Vec<_>>(),
        [Some(PositionSide::Long), Some(PositionSide::Short)]
    );
    insta::assert_debug_snapshot!("funding_history_documented", funding);

    let adl: Vec<MarketAdlQuantile> = decode(
        "adl-quantile",
        include_str!("fixtures/adl_quantile_documented.json"),
    );
    let quantiles: Vec<_> = adl
        .iter()
        .map(|q| {
            (
                q.market.as_str(),
                q.long.map(AdlQuantile::get),
                q.short.map(AdlQuantile::get),
            )
        })
        .collect();
    assert_eq!(
        quantiles,
        [("BTC_PERP", Some(0), None), ("ETH_PERP", Some(2), Some(1))]
    );
    insta::assert_debug_snapshot!("adl_quantile_documented", adl);

    let deals: OrderDeals = decode(
        "order deals",
        include_str!("fixtures/order_deals_documented.json"),
    );
    let deal = &deals.records[0];
    assert_eq!(
        (deal.id, deal.deal_order_id, deal.role, deal.rpi),
        (
            149156519,
            Some(3134995325),
            Some(DealRole::Taker),
            Some(true)
        )
    );
    assert!(deal.extra.is_empty(), "{:?}", deal.extra);
    insta::assert_debug_snapshot!("order_deals_documented", deals);

    let grouped: ExecutedDeals = decode(
        "executed history",
        include_str!("fixtures/executed_history_grouped.json"),
    );
    let flat: ExecutedDeals = decode(
        "executed history",
        include_str!("fixtures/executed_history_flat.json"),
    );
    let deal = &grouped.deals[0];
    assert_eq!(
        (
            deal.market.as_ref().map(|m| m.as_str()),
            deal.side,
            deal.order_id
        ),
        (Some("BTC_USDT"), Some(Side::Buy), Some(3134995325))
    );
    assert!(deal.extra.is_empty(), "{:?}", deal.extra);
    // The flat list (a market-filtered query) is the same deal without its market, which
    // the query gives it.
    assert_eq!(flat.deals[0].market, None);
    let query = ExecutedHistoryQuery::builder()
        .market("BTC_USDT")
        .build()
        .unwrap();
    assert_eq!(query.records(flat), grouped.deals.clone());
    // Written back in the exchange's shape, it reads back the same.
    let again: ExecutedDeals = decode("written", &serde_json::to_string(&grouped).unwrap());
    assert_eq!(again, grouped);
    insta::assert_debug_snapshot!("executed_history_grouped", grouped);
}

#[test]
fn empty_and_not_found_answers_are_empty_lists() {
    for text in ["[]", "{}"] {
        let deals: ExecutedDeals = decode("empty", text);
        assert!(deals.deals.is_empty(), "{text}");
    }
    let errors = BTreeMap::from([(
        "orderHistory".to_owned(),
        vec!["OrderHistory was not found.".to_owned()],
    )]);
    let none = ExecutedHistoryQuery::error_outcome(422, Some(30), &errors).unwrap();
    assert!(none.deals.is_empty());
    assert!(ExecutedHistoryQuery::error_outcome(422, Some(31), &errors).is_none());
    assert!(ExecutedHistoryQuery::error_outcome(500, Some(30), &errors).is_none());
    // The order history reads the same error the same way, as before.
    assert!(
        OrderHistoryQuery::error_outcome(422, Some(30), &errors)
            .unwrap()
            .is_empty()
    );
    // An ADL quantile outside 0 to 4 is kept, not read.
    let odd: MarketAdlQuantile = decode("adl", r#"{"market":"BTC_PERP","long":5,"short":"3"}"#);
    assert_eq!((odd.long, odd.short.map(AdlQuantile::get)), (None, Some(3)));
    assert_eq!(odd.extra["long"], 5);
    // A deal without a price is not a deal.
    assert!(serde_json::from_str::<ExecutedDeals>(r#"[{"id":1,"time":1,"amount":"1"}]"#).is_err());
}

#[test]
fn the_builders_make_the_specs_request_examples() {
    let closed = ClosedPnlQuery::builder()
        .start_date(1_778_000_000)
        .end_date(1_778_100_000)
        .limit(50)
        .offset(0)
        .build()
        .unwrap();
    let funding = FundingHistoryQuery::builder()
        .market("BTC_PERP")
        .limit(100)
        .offset(0)
        .build()
        .unwrap();
    for (path, request, documented) in [
        (
            ClosedPnlQuery::PATH,
            body(&closed),
            include_str!("fixtures/request_closed_pnl_documented.json"),
        ),
        (
            FundingHistoryQuery::PATH,
            body(&funding),
            include_str!("fixtures/request_funding_history_documented.json"),
        ),
        (
            AdlQuantileQuery::PATH,
            body(&AdlQuantileQuery),
            include_str!("fixtures/request_adl_quantile_documented.json"),
        ),
    ] {
        let documented: Value = decode(path, documented);
        conforms(&schemas()[path], &documented, path).unwrap();
        assert_eq!(request, documented, "{path}");
    }
}

#[test]
fn every_body_the_builders_make_conforms_to_the_schema() {
    assert_conforms(&ClosedPnlQuery::new());
    assert_conforms(
        &ClosedPnlQuery::builder()
            .start_date(1)
            .end_date(2)
            .limit(100)
            .offset(9_900)
            .build()
            .unwrap(),
    );
    assert_conforms(&FundingHistoryQuery::new());
    assert_conforms(&FundingHistoryQuery::of_market("ETH_PERP").unwrap());
    assert_conforms(&AdlQuantileQuery);
    assert_conforms(&ExecutedHistoryQuery::new());
    assert_conforms(
        &ExecutedHistoryQuery::builder()
            .market("BTC_PERP")
            .client_order_id("order-1")
            .start_date(1_593_233_939)
            .end_date(1_593_233_939)
            .limit(500)
            .offset(1_000_000)
            .build()
            .unwrap(),
    );
    assert_conforms(&OrderDealsQuery::new(3134995325));
    assert_conforms(
        &OrderDealsQuery::builder()
            .order_id(1)
            .limit(1)
            .offset(0)
            .build()
            .unwrap(),
    );
    // What a cursor sends: the limit made explicit.
    assert_conforms(
        PageCursor::new(ClosedPnlQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
    assert_conforms(
        PageCursor::new(FundingHistoryQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
    assert_conforms(
        PageCursor::new(ExecutedHistoryQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
    assert_conforms(
        PageCursor::new(OrderDealsQuery::new(9))
            .next_query()
            .unwrap()
            .unwrap(),
    );
}

#[test]
fn paths_kinds_limits_and_wire_bodies() {
    fn row<E: Endpoint>(request: &E) -> String {
        assert_eq!(E::KIND, EndpointKind::Read, "{}", E::PATH);
        assert_eq!(
            E::RATE_LIMIT,
            Some(RateLimit::new(12_000, 10)),
            "{}",
            E::PATH
        );
        assert_eq!(ENDPOINT_PATHS.iter().filter(|p| **p == E::PATH).count(), 1);
        assert!(schemas()[E::PATH].is_object(), "{} has a schema", E::PATH);
        format!("{} {}", E::PATH, serde_json::to_string(request).unwrap())
    }
    let rows = [
        row(&ClosedPnlQuery::builder().limit(100).build().unwrap()),
        row(&FundingHistoryQuery::of_market("BTC_PERP").unwrap()),
        row(&AdlQuantileQuery),
        row(&ExecutedHistoryQuery::builder()
            .market("BTC_USDT")
            .client_order_id("customId11")
            .build()
            .unwrap()),
        row(&OrderDealsQuery::new(3134995325)),
    ];
    insta::assert_snapshot!(rows.join("\n"));
    assert_eq!(ClosedPnlQuery::offset_cap(), OffsetCap::Window(10_000));
    assert_eq!(FundingHistoryQuery::offset_cap(), OffsetCap::Unbounded);
    assert_eq!(
        (
            ClosedPnlQuery::max_limit(),
            <ClosedPnlQuery as Paged>::DEFAULT_LIMIT
        ),
        (100, Some(50))
    );
    assert_eq!(
        (
            ExecutedHistoryQuery::max_limit(),
            <ExecutedHistoryQuery as Paged>::DEFAULT_LIMIT
        ),
        (500, Some(50))
    );
}

#[test]
fn dates_are_refused_before_a_request_exists_or_when_signed() {
    let field = |e: ValidationError| e.field();
    let backwards = ClosedPnlQuery::builder().start_date(2).end_date(1).build();
    assert_eq!(field(backwards.unwrap_err()), "endDate");
    let backwards = ExecutedHistoryQuery::builder()
        .start_date(2)
        .end_date(1)
        .build();
    assert_eq!(field(backwards.unwrap_err()), "endDate");
    // `endDate ≤ now + 1 s` against the exchange's time when signed; without an end, the
    // start.
    let at = UNIX_EPOCH + Duration::from_secs(1_000);
    let end = |s| ClosedPnlQuery::builder().end_date(s).build().unwrap();
    assert!(end(1_001).check_at(at).is_ok());
    assert_eq!(field(end(1_002).check_at(at).unwrap_err()), "endDate");
    let start = ClosedPnlQuery::builder().start_date(1_002).build().unwrap();
    assert_eq!(field(start.check_at(at).unwrap_err()), "startDate");
    assert_eq!(
        field(OrderDealsQuery::builder().order_id(0).build().unwrap_err()),
        "orderId"
    );
}

proptest! {
    /// The closed PnL's page: `limit` 1 to 100, `offset + limit ≤ 10 000` (the limit left
    /// out counting as 50); anything else is refused naming the field, never a panic.
    #[test]
    fn the_closed_pnl_page_is_checked_at_its_edges(
        limit in proptest::option::of(0u64..=120),
        offset in proptest::option::of(prop_oneof![0u64..=200, 9_800u64..=10_100, any::<u64>()]),
    ) {
        let mut builder = ClosedPnlQuery::builder();
        if let Some(limit) = limit { builder = builder.limit(limit); }
        if let Some(offset) = offset { builder = builder.offset(offset); }
        let effective = limit.unwrap_or(50);
        let limit_ok = limit.is_none_or(|l| (1..=100).contains(&l));
        let window_ok = offset.unwrap_or(0).checked_add(effective).is_some_and(|end| end <= 10_000);
        match builder.build() {
            Ok(q) => {
                prop_assert!(limit_ok && window_ok);
                prop_assert_eq!((q.limit(), q.offset()), (limit, offset));
                assert_conforms(&q);
            }
            Err(e) if !limit_ok => prop_assert_eq!(e, ValidationError::InvalidField {
                field: "limit", reason: Reason::OutOfRange { min: 1, max: 100 },
            }),
            Err(e) => {
                prop_assert!(!window_ok);
                prop_assert_eq!(e.field(), "offset");
            }
        }
    }

    /// The other pages: `limit` within each endpoint's bounds, any offset, dates in order,
    /// a positive order id.
    #[test]
    fn the_other_pages_are_checked_at_their_edges(
        limit in 0u64..=600,
        offset in any::<u64>(),
        dates in (any::<u64>(), any::<u64>()),
        order_id in prop_oneof![Just(0u64), any::<u64>()],
    ) {
        let funding = FundingHistoryQuery::builder().limit(limit).offset(offset).build();
        prop_assert_eq!(funding.is_ok(), (1..=100).contains(&limit));
        let (start, end) = dates;
        let executed = ExecutedHistoryQuery::builder()
            .limit(limit).offset(offset).start_date(start).end_date(end).build();
        match executed {
            Ok(q) => {
                prop_assert!((1..=500).contains(&limit) && start <= end);
                assert_conforms(&q);
            }
            Err(e) => prop_assert_eq!(e.field(), if (1..=500).contains(&limit) { "endDate" } else { "limit" }),
        }
        let deals = OrderDealsQuery::builder().order_id(order_id).limit(limit).offset(offset).build();
        match deals {
            Ok(q) => {
                prop_assert!(limit >= 1 && order_id > 0);
                assert_conforms(&q);
            }
            Err(e) => prop_assert_eq!(e.field(), if limit == 0 { "limit" } else { "orderId" }),
        }
    }
}
