//! The bodies of the collateral account's reports: the closed positions' PnL (`POST
//! /api/v4/collateral-account/positions/closed-pnl`) and the funding history (`POST
//! /api/v4/collateral-account/funding-history`). The ADL quantiles take no fields.
//!
//! **Closed PnL:** `startDate`/`endDate` (Unix seconds, on the close time) by the position
//! history's rule, `startDate ≤ endDate ≤ now + 1 s`; `limit` 1–100 (default 50), `offset`
//! ≥ 0 (default 0), `offset + limit ≤ 10 000`. Every problem together, code 30 — "invalid
//! pagination … or a date filter that violates …" — in the position history's (older docs')
//! wording; the sum's message is not documented.
//!
//! **Funding history:** `market` first (31, "the `market` filter is unknown or not available
//! for collateral trading", with the open orders' messages), then `limit` 1–100 (default 100)
//! and `offset` ≥ 0 (30, "`limit` outside 1–100 or negative `offset`", Laravel's wording as
//! on the conditional orders, whose codes are worded alike). A collateral market that is not
//! perpetual is a market like another: it has no funding, so its history is empty.

use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::market_rule::MarketRule;
use super::open_orders::market;
use super::page::{Page, Paging};
use super::positions::date_window;
use crate::config::Markets;
use crate::wire::Rejection;

/// The most records `offset + limit` may reach.
const MAX_REACH: usize = 10_000;

/// A closed-PnL request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClosedPnlQuery {
    /// `startDate` and `endDate`, Unix seconds, on the close time.
    pub(crate) period: (Option<u64>, Option<u64>),
    pub(crate) page: Page,
}

/// `limit` 1–100 (default 50), `offset` ≥ 0 — and the sum at most [`MAX_REACH`].
const CLOSED_PNL_PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: 100,
    max_offset: None,
};

/// Checks a closed-PnL body at `now_s` (the sandbox's Unix second).
pub(crate) fn parse_closed_pnl(
    map: &Map<String, Value>,
    now_s: u64,
) -> Result<ClosedPnlQuery, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let period = date_window(&mut fields, now_s);
    let page = Page::read(&mut fields, CLOSED_PNL_PAGING);
    if page.offset.saturating_add(page.limit) > MAX_REACH {
        fields.push(
            "offset",
            "The sum of offset and limit should not be greater than 10000.",
        );
    }
    fields.finish(30)?;
    Ok(ClosedPnlQuery { period, page })
}

/// A funding-history request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FundingHistoryQuery {
    pub(crate) market: Option<String>,
    pub(crate) page: Page,
}

/// `limit` 1–100 (default 100), `offset` ≥ 0.
const FUNDING_PAGING: Paging = Paging {
    default_limit: 100,
    max_limit: 100,
    max_offset: None,
};

/// Checks a funding-history body: `market` first (31), then the page (30).
impl MarketRule for FundingHistoryQuery {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let market = market(map, markets)?;
        let mut fields = Fields::new(map, Wording::Laravel);
        let page = Page::read(&mut fields, FUNDING_PAGING);
        fields.finish(30)?;
        Ok(FundingHistoryQuery { market, page })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::config::MarketConfig;
    use crate::rules::values::object;

    const NOW: u64 = 1_778_100_000;

    fn closed(body: Value) -> Result<ClosedPnlQuery, BTreeMap<String, Vec<String>>> {
        parse_closed_pnl(&object(body), NOW).map_err(|r| r.errors)
    }

    #[test]
    fn closed_pnl_takes_the_spec_example_and_its_defaults() {
        let example =
            json!({"startDate": 1_778_000_000, "endDate": 1_778_100_000, "limit": 50, "offset": 0});
        let query = closed(example).unwrap();
        assert_eq!(query.period, (Some(1_778_000_000), Some(1_778_100_000)));
        assert_eq!((query.page.limit, query.page.offset), (50, 0));
        let defaults = closed(json!({})).unwrap();
        assert_eq!(defaults.period, (None, None));
        assert_eq!((defaults.page.limit, defaults.page.offset), (50, 0));
    }

    #[test]
    fn closed_pnl_refuses_each_bound_at_its_edge() {
        // The sum's edge: 9 900 + 100 is the last reachable page.
        assert!(closed(json!({"offset": 9_900, "limit": 100})).is_ok());
        let past = closed(json!({"offset": 9_901, "limit": 100})).unwrap_err();
        assert_eq!(
            past["offset"],
            ["The sum of offset and limit should not be greater than 10000."]
        );
        assert!(
            closed(json!({"limit": 101}))
                .unwrap_err()
                .contains_key("limit")
        );
        assert!(
            closed(json!({"limit": 0}))
                .unwrap_err()
                .contains_key("limit")
        );
        assert!(
            closed(json!({"offset": -1}))
                .unwrap_err()
                .contains_key("offset")
        );
        // startDate ≤ endDate ≤ now + 1 s.
        assert!(closed(json!({"endDate": NOW + 1})).is_ok());
        assert!(
            closed(json!({"endDate": NOW + 2}))
                .unwrap_err()
                .contains_key("endDate")
        );
        let reversed = closed(json!({"startDate": NOW, "endDate": NOW - 1})).unwrap_err();
        assert_eq!(
            reversed["startDate"],
            ["StartDate should not be greater than endDate."]
        );
        let rejection = parse_closed_pnl(&object(json!({"limit": "x"})), NOW).unwrap_err();
        assert_eq!((rejection.status.as_u16(), rejection.code), (422, 30));
    }

    #[test]
    fn funding_history_checks_the_market_then_the_page() {
        let markets = Markets::new(&[
            MarketConfig::new("BTC_PERP", "65000").validate().unwrap(),
            MarketConfig::new("BTC_USDT", "65000").validate().unwrap(),
        ]);
        let parse = |body: Value| FundingHistoryQuery::parse(&object(body), &markets);
        let example = parse(json!({"market": "BTC_PERP", "limit": 100, "offset": 0})).unwrap();
        assert_eq!(example.market.as_deref(), Some("BTC_PERP"));
        assert_eq!((example.page.limit, example.page.offset), (100, 0));
        assert_eq!(parse(json!({})).unwrap().page.limit, 100);
        assert!(parse(json!({"market": "BTC_USDT"})).is_ok());
        for bad in [json!("ETH_PERP"), json!("btc-perp"), json!(7)] {
            let rejection = parse(json!({ "market": bad })).unwrap_err();
            assert_eq!(rejection.code, 31, "{bad}");
        }
        // The market first, then the page.
        assert_eq!(
            parse(json!({"market": "NOPE_PERP", "limit": 0}))
                .unwrap_err()
                .code,
            31
        );
        for page in [
            json!({"limit": 0}),
            json!({"limit": 101}),
            json!({"offset": -1}),
        ] {
            assert_eq!(parse(page.clone()).unwrap_err().code, 30, "{page}");
        }
        assert!(parse(json!({"offset": 1_000_000_000})).is_ok());
    }
}
