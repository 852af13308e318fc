//! The bodies of the two deal reads: the executed history (`POST
//! /api/v4/trade-account/executed-history`) and one order's deals (`POST
//! /api/v4/trade-account/order`).
//!
//! **Executed history:** `market`, `clientOrderId` (a single order's deals: every order of
//! the account that carried it), `startDate`/`endDate` (Unix seconds, on the deal's time;
//! ignored with `clientOrderId`, as the order history's look-up mode ignores them), `limit`
//! 1–500 (default 50), `offset` ≥ 0. Every field's type problems together with code 30 in the
//! spec example's wording (`Limit field should be an integer.`), then `market`'s form and
//! existence with code 31 (`Market field format is invalid.`, the example's). The spec gives
//! no rule for the dates: a reversed window matches nothing.
//!
//! **An order's deals:** `orderId` required (an integer), `limit` ≥ 1 (default 50, no
//! maximum), `offset` ≥ 0: "30 — a missing or malformed `orderId`, or invalid pagination",
//! in the same wording. An id no order of the account has is no error (an empty page).

use serde_json::{Map, Value};

use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::page::{Page, Paging};
use crate::config::Markets;
use crate::wire::{self, Rejection};

/// An executed-history request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExecutedHistoryQuery {
    pub(crate) market: Option<String>,
    pub(crate) client_order_id: Option<String>,
    /// `startDate` and `endDate`, Unix seconds, on the deal's time.
    pub(crate) period: (Option<u64>, Option<u64>),
    pub(crate) page: Page,
}

/// `limit` 1–500 (default 50), `offset` ≥ 0.
const HISTORY_PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: 500,
    max_offset: None,
};

/// Checks an executed-history body.
pub(crate) fn parse_executed_history(
    map: &Map<String, Value>,
    markets: &Markets,
) -> Result<ExecutedHistoryQuery, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let market = fields.text("market", Empty::Kept).flatten();
    let client_order_id = fields.text("clientOrderId", Empty::Rejected).flatten();
    let start = fields.integer::<u64>("startDate").flatten();
    let end = fields.integer::<u64>("endDate").flatten();
    let page = Page::read(&mut fields, HISTORY_PAGING);
    fields.finish(30)?;
    if let Some(name) = &market {
        if !wire::is_market_name(name) {
            return Err(market_name::rejection(market_name::FORMAT_INVALID));
        }
        if markets.get(name).is_none() {
            return Err(market_name::rejection(market_name::UNAVAILABLE));
        }
    }
    Ok(ExecutedHistoryQuery {
        market,
        client_order_id,
        period: (start, end),
        page,
    })
}

/// An order-deals request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OrderDealsQuery {
    /// The order; `None` for an id no order can have (zero or negative).
    pub(crate) order_id: Option<u64>,
    pub(crate) page: Page,
}

/// `limit` ≥ 1 (default 50, no maximum), `offset` ≥ 0.
const DEALS_PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: u32::MAX as i128,
    max_offset: None,
};

/// Checks an order-deals body.
pub(crate) fn parse_order_deals(map: &Map<String, Value>) -> Result<OrderDealsQuery, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let order_id = match fields.integer::<i128>("orderId") {
        None => {
            fields.required("orderId");
            None
        }
        Some(id) => id,
    };
    let page = Page::read(&mut fields, DEALS_PAGING);
    fields.finish(30)?;
    Ok(OrderDealsQuery {
        order_id: order_id
            .and_then(|id| u64::try_from(id).ok())
            .filter(|id| *id > 0),
        page,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::config::MarketConfig;
    use crate::rules::values::object;

    fn markets() -> Markets {
        Markets::new(&[MarketConfig::new("BTC_USDT", "65000").validate().unwrap()])
    }

    fn history(body: Value) -> Result<ExecutedHistoryQuery, Rejection> {
        parse_executed_history(&object(body), &markets())
    }

    fn errors(rejection: Rejection) -> (i64, BTreeMap<String, Vec<String>>) {
        (rejection.code, rejection.errors)
    }

    #[test]
    fn the_executed_history_answers_the_spec_examples_errors() {
        // The spec's first example: both paging fields at once, code 30.
        let (code, found) = errors(history(json!({"limit": "x", "offset": "y"})).unwrap_err());
        assert_eq!(code, 30);
        assert_eq!(found["limit"], ["Limit field should be an integer."]);
        assert_eq!(found["offset"], ["Offset field should be an integer."]);
        // The second: a malformed market, code 31.
        let (code, found) = errors(history(json!({"market": "btc-usdt"})).unwrap_err());
        assert_eq!(code, 31);
        assert_eq!(found["market"], ["Market field format is invalid."]);
        assert_eq!(
            history(json!({"market": "NOPE_USDT"})).unwrap_err().code,
            31
        );
        // Types before the market.
        assert_eq!(
            history(json!({"market": "x", "limit": 0}))
                .unwrap_err()
                .code,
            30
        );
        assert_eq!(history(json!({"limit": 501})).unwrap_err().code, 30);
        assert_eq!(history(json!({"clientOrderId": ""})).unwrap_err().code, 30);
        let query =
            history(json!({"market": "BTC_USDT", "limit": 500, "startDate": 1, "endDate": 2}))
                .unwrap();
        assert_eq!(query.page.limit, 500);
        assert_eq!(query.period, (Some(1), Some(2)));
        assert_eq!(history(json!({})).unwrap().page.limit, 50);
    }

    #[test]
    fn an_order_s_deals_need_an_order_id() {
        let (code, found) = errors(parse_order_deals(&object(json!({}))).unwrap_err());
        assert_eq!(code, 30);
        assert_eq!(found["orderId"], ["OrderId field is required."]);
        let (_, found) = errors(parse_order_deals(&object(json!({"orderId": "x"}))).unwrap_err());
        assert_eq!(found["orderId"], ["OrderId field should be an integer."]);
        let query = parse_order_deals(&object(json!({"orderId": 3_134_995_325_u64}))).unwrap();
        assert_eq!(query.order_id, Some(3_134_995_325));
        assert_eq!((query.page.limit, query.page.offset), (50, 0));
        // No maximum limit; an id no order has is no error.
        assert_eq!(
            parse_order_deals(&object(json!({"orderId": 1, "limit": 100_000})))
                .unwrap()
                .page
                .limit,
            100_000
        );
        assert_eq!(
            parse_order_deals(&object(json!({"orderId": -4})))
                .unwrap()
                .order_id,
            None
        );
        for page in [
            json!({"orderId": 1, "limit": 0}),
            json!({"orderId": 1, "offset": -1}),
        ] {
            assert_eq!(
                parse_order_deals(&object(page.clone())).unwrap_err().code,
                30,
                "{page}"
            );
        }
    }
}
