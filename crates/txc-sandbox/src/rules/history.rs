//! The body of `POST /api/v4/trade-account/order/history` (companion-endpoints §2).
//!
//! Fields: `market`, `orderId` (single-order look-up; no match is an empty response; wins over
//! `clientOrderId`), `clientOrderId` (single-order look-up; no match is 422 code 30
//! `OrderHistory was not found.`), `status` (`ALL`, `FILLED`, `CANCELED`, `PARTIALLY_FILLED`),
//! `startDate`/`endDate` (Unix seconds; default the last month; not before 6 months ago at
//! 00:00 UTC; `endDate` in the future is clamped to now; at most 31 days apart), `limit` (1–500,
//! default 50), `offset` (≥ 0, default 0). In look-up mode `status` and the dates are ignored.
//!
//! Every field's type problems answer together with code 30, in the older docs' wording for
//! this endpoint (`Limit field should be an integer.`); then `market`'s form and existence
//! with code 31; then, in list mode, the date rules with code 30 (their wording is not
//! documented).

use serde_json::{Map, Value};

use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::order_ref::OrderRef;
use super::page::{Page, Paging};
use crate::config::Markets;
use crate::wire::{self, Rejection};

/// One day in seconds.
const DAY: i64 = 86_400;
/// "Now − 1 month": the default `startDate` (a month taken as 30 days: sandbox's choice).
const MONTH: i64 = 30 * DAY;
/// "6 months ago (00:00 UTC)": 183 days back, at midnight (sandbox's choice of 6 months).
const SIX_MONTHS: i64 = 183 * DAY;
/// The longest period between `startDate` and `endDate`.
const MAX_SPAN: i64 = 31 * DAY;
/// `limit` 1–500 (default 50), `offset` ≥ 0.
const PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: 500,
    max_offset: None,
};

/// The `status` filter of list mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HistoryStatus {
    All,
    Filled,
    Canceled,
    PartiallyFilled,
}

/// What a history request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HistoryQuery {
    pub(crate) market: Option<String>,
    /// A single-order look-up, or list mode.
    pub(crate) which: Option<OrderRef>,
    pub(crate) status: HistoryStatus,
    /// Creation times from, to (Unix seconds, inclusive) in list mode.
    pub(crate) period: (i64, i64),
    pub(crate) page: Page,
}

/// Checks a history body at server time `now` (Unix seconds).
pub(crate) fn parse_history(
    map: &Map<String, Value>,
    markets: &Markets,
    now: i64,
) -> Result<HistoryQuery, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let market = fields.text("market", Empty::Kept).flatten();
    let order_id = fields.integer::<i128>("orderId").flatten();
    let client_order_id = fields.text("clientOrderId", Empty::Rejected).flatten();
    let status = match fields.get("status") {
        None => HistoryStatus::All,
        Some(v) => match v.as_str() {
            Some("ALL") => HistoryStatus::All,
            Some("FILLED") => HistoryStatus::Filled,
            Some("CANCELED") => HistoryStatus::Canceled,
            Some("PARTIALLY_FILLED") => HistoryStatus::PartiallyFilled,
            _ => {
                fields.push(
                    "status",
                    "Status field should contain only 'ALL', 'FILLED', 'CANCELED' or 'PARTIALLY_FILLED' values.",
                );
                HistoryStatus::All
            }
        },
    };
    let start = fields.integer::<i64>("startDate").flatten();
    let end = fields.integer::<i64>("endDate").flatten();
    let page = Page::read(&mut fields, PAGING);
    fields.finish(30)?;
    if let Some(name) = &market {
        if !wire::is_market_name(name) {
            return Err(market_name::rejection(market_name::FORMAT_INVALID));
        }
        if markets.get(name).is_none() {
            // Not documented for this endpoint: the order endpoints' message.
            return Err(market_name::rejection(market_name::UNAVAILABLE));
        }
    }
    let which = match (order_id, client_order_id) {
        // A negative id names no order: an empty response, like any other unknown id.
        (Some(id), _) => Some(OrderRef::Id(u64::try_from(id).unwrap_or(u64::MAX))),
        (None, Some(id)) => Some(OrderRef::ClientId(id)),
        (None, None) => None,
    };
    let period = if which.is_some() {
        (i64::MIN, i64::MAX)
    } else {
        period(start, end, now)?
    };
    Ok(HistoryQuery {
        market,
        which,
        status,
        period,
        page,
    })
}

/// The list mode's period, from the docs' rules; the messages are not documented.
fn period(start: Option<i64>, end: Option<i64>, now: i64) -> Result<(i64, i64), Rejection> {
    let end = end.unwrap_or(now).min(now);
    let start = start.unwrap_or(now.saturating_sub(MONTH));
    let earliest = now.saturating_sub(SIX_MONTHS).div_euclid(DAY) * DAY;
    let reject = |field: &str, m: &str| Err(Rejection::validation(30, field, vec![m.to_owned()]));
    if start < earliest {
        return reject(
            "startDate",
            "StartDate should not be earlier than 6 months ago.",
        );
    }
    if start > end {
        return reject("startDate", "StartDate should not be greater than endDate.");
    }
    if end - start > MAX_SPAN {
        return reject(
            "endDate",
            "The period between startDate and endDate should not be greater than 31 days.",
        );
    }
    Ok((start, end))
}
