//! The conditional orders list: its wire body, page rules, and the docs' example answer.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_types::endpoint::{Endpoint, EndpointKind};
use txc_types::errors::{Reason, ValidationError};
use txc_types::lookups::{ConditionalOrder, ConditionalOrders, ConditionalOrdersQuery};

#[test]
fn path_kind_and_wire_bodies() {
    assert_eq!(ConditionalOrdersQuery::PATH, "/api/v4/conditional-orders");
    assert_eq!(ConditionalOrdersQuery::KIND, EndpointKind::Read);
    assert_eq!(
        serde_json::to_string(&ConditionalOrdersQuery::new()).unwrap(),
        "{}"
    );
    let page = ConditionalOrdersQuery::page("BTC_PERP".parse().unwrap(), 200);
    assert_eq!(
        serde_json::to_string(&page).unwrap(),
        r#"{"market":"BTC_PERP","limit":100,"offset":200}"#
    );
    for (limit, ok) in [(0, false), (1, true), (100, true), (101, false)] {
        let built = ConditionalOrdersQuery::builder().limit(limit).build();
        assert_eq!(built.is_ok(), ok, "limit {limit}");
        if let Err(e) = built {
            assert!(matches!(
                e,
                ValidationError::InvalidField {
                    field: "limit",
                    reason: Reason::OutOfRange { min: 1, max: 100 }
                }
            ));
        }
    }
    let err = ConditionalOrdersQuery::builder()
        .market("btc usdt")
        .build()
        .unwrap_err();
    assert_eq!(err.field(), "market");
}

#[test]
fn the_documented_answer_decodes_each_record_by_its_type() {
    let text = include_str!("fixtures/conditional_orders_documented.json");
    let page: ConditionalOrders = serde_json::from_str(text).unwrap();
    assert_eq!(
        (page.limit, page.offset, page.total),
        (Some(100), Some(0), Some(2))
    );
    let [ConditionalOrder::Oco(oco), ConditionalOrder::Oto(oto)] = &page.records[..] else {
        panic!("{:?}", page.records)
    };
    assert_eq!(oco.id, 117_703_764_513);
    let legs: Vec<u64> = page.records[0].orders().map(|o| o.order_id).collect();
    assert_eq!(legs, [117_703_764_514, 117_703_764_515]);
    assert_eq!(oto.id, 29_457_221);
    assert_eq!(oto.stop_loss_price.as_ref().unwrap().as_str(), "30000");
    assert_eq!(
        oto.conditional_order.client_order_id.as_deref(),
        Some("customId11")
    );
    assert_eq!(oto.conditional_order.timestamp.as_str(), "1594605801.49815");
    assert_eq!(oto.extra["type"], "oto");
}

#[test]
fn a_record_that_cannot_be_read_is_kept_not_dropped() {
    let text = r#"{"limit":100,"offset":0,"total":3,"records":[
        {"id":1,"type":"oto","conditionalOrder":{"orderId":"not a number"}},
        {"id":2,"type":"bracket"},
        {"id":3,"type":"oto","conditionalOrder":{"orderId":7,"clientOrderId":"x","market":"BTC_USDT",
         "side":"buy","type":"stop market","timestamp":1,"dealMoney":"0","dealStock":"0",
         "amount":"1","left":"1"}}]}"#;
    let page: ConditionalOrders = serde_json::from_str(text).unwrap();
    assert!(matches!(&page.records[0], ConditionalOrder::Other(o) if o["id"] == 1));
    assert!(matches!(&page.records[1], ConditionalOrder::Other(o) if o["type"] == "bracket"));
    assert!(
        matches!(&page.records[2], ConditionalOrder::Oto(g) if g.conditional_order.order_id == 7)
    );
    // PHP's `{}` for an empty list.
    let empty: ConditionalOrders =
        serde_json::from_str(r#"{"limit":100,"offset":0,"total":0,"records":{}}"#).unwrap();
    assert!(empty.records.is_empty());
    // Without its records a page says nothing.
    assert!(serde_json::from_str::<ConditionalOrders>(r#"{"total":0}"#).is_err());
}
