//! Property tests: valid values round-trip exactly, invalid ones are rejected, and decoding
//! arbitrary bytes never panics.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use txc_types::investments::InvestmentPlan;
use txc_types::markets::MarketInfo;
use txc_types::orders::{
    BulkOrderResult, CollateralMarketOrder, GroupCancellation, Modified, OcoOrder, Order, Side,
};
use txc_types::values::{Amount, ClientOrderId, Market};

proptest! {
    #[test]
    fn plain_positive_decimals_round_trip(int in "[1-9][0-9]{0,15}", frac in proptest::option::of("[0-9]{1,12}")) {
        let text = match &frac { Some(f) => format!("{int}.{f}"), None => int.clone() };
        let amount: Amount = text.parse().unwrap();
        prop_assert_eq!(amount.as_str(), text.as_str());
        prop_assert_eq!(serde_json::to_string(&amount).unwrap(), format!("\"{text}\""));
    }

    #[test]
    fn anything_with_a_foreign_character_is_rejected(s in ".*[^0-9.].*") {
        prop_assert!(s.parse::<Amount>().is_err());
    }

    #[test]
    fn client_order_ids_follow_the_rule(s in "\\PC{0,80}") {
        let ok = !s.is_empty() && s.len() <= 64
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b));
        prop_assert_eq!(s.parse::<ClientOrderId>().is_ok(), ok);
    }

    #[test]
    fn generated_client_order_ids_are_valid_and_distinct(a in any::<(u64, u64)>(), b in any::<(u64, u64)>()) {
        let (x, y) = (ClientOrderId::generated(a.0, a.1), ClientOrderId::generated(b.0, b.1));
        prop_assert_eq!(x.as_str().parse::<ClientOrderId>(), Ok(x.clone()));
        prop_assert!(x.as_str().len() <= 31);
        prop_assert_eq!(x == y, a == b);
    }

    #[test]
    fn generated_client_order_ids_read_back_as_their_numbers(prefix in any::<u64>(), serial in any::<u64>()) {
        let id = ClientOrderId::generated(prefix, serial);
        let parts: Vec<&str> = id.as_str().split('-').collect();
        prop_assert_eq!(parts.len(), 3);
        prop_assert_eq!(parts[0], "txc");
        prop_assert_eq!(parts[1].len(), 13);
        prop_assert!(id.as_str().bytes().all(|b| !b.is_ascii_uppercase()));
        prop_assert_eq!(u64::from_str_radix(parts[1], 36), Ok(prefix));
        prop_assert_eq!(u64::from_str_radix(parts[2], 36), Ok(serial));
        // No leading zero in the serial but for zero itself.
        prop_assert!(parts[2] == "0" || !parts[2].starts_with('0'));
    }

    #[test]
    fn markets_follow_the_rule(stock in "[A-Z0-9]{1,8}", money in "[A-Z0-9]{1,8}") {
        let m: Market = format!("{stock}_{money}").parse().unwrap();
        prop_assert_eq!(m.stock(), stock.as_str());
        prop_assert_eq!(m.money(), money.as_str());
    }

    #[test]
    fn built_orders_serialize_to_objects_with_required_fields(amount in "[1-9][0-9]{0,6}(\\.[0-9]{1,6})?", buy in any::<bool>()) {
        let side = if buy { Side::Buy } else { Side::Sell };
        let o = CollateralMarketOrder::builder("BTC_USDT", side, amount.as_str()).build().unwrap();
        let v: serde_json::Value = serde_json::to_value(&o).unwrap();
        prop_assert_eq!(v["amount"].as_str(), Some(amount.as_str()));
        prop_assert_eq!(v["side"].as_str(), Some(side.as_str()));
    }

    #[test]
    fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = serde_json::from_slice::<Order>(&bytes);
        let _ = serde_json::from_slice::<Vec<InvestmentPlan>>(&bytes);
    }

    #[test]
    fn decoding_arbitrary_json_never_panics(v in arb_json()) {
        let text = v.to_string();
        let _ = serde_json::from_str::<Order>(&text);
        let _ = serde_json::from_str::<Vec<InvestmentPlan>>(&text);
        let _ = serde_json::from_str::<Vec<BulkOrderResult>>(&text);
        let _ = serde_json::from_str::<OcoOrder>(&text);
        let _ = serde_json::from_str::<Modified>(&text);
        let _ = serde_json::from_str::<Vec<MarketInfo>>(&text);
        let _ = serde_json::from_str::<GroupCancellation>(&text);
    }
}

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let key = prop_oneof![
        Just("orderId".to_owned()),
        Just("oto".to_owned()),
        Just("status".to_owned()),
        Just("timestamp".to_owned()),
        Just("side".to_owned()),
        Just("duration".to_owned()),
        Just("activated".to_owned()),
        Just("reduceOnly".to_owned()),
        Just("result".to_owned()),
        Just("error".to_owned()),
        Just("stop_loss".to_owned()),
        Just("post_only".to_owned()),
        Just("stockPrec".to_owned()),
        "[a-z]{1,6}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
