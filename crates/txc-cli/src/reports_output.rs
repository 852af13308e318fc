//! What the report commands print, beside [`crate::output`] (which hands their outcomes
//! here): a table with times as RFC 3339 dates in UTC, or the `result` of the `--json`
//! document — the records as the exchange writes them (times as its Unix seconds).
#![allow(clippy::print_stdout)]

use serde_json::Value;
use txc_blocking::values::Timestamp;

use crate::report_outcome::ReportOutcome;
use crate::table::{optional, table};

/// A time of the exchange's as an RFC 3339 date in UTC (`2026-11-29T10:48:20Z`, with the
/// fraction it has); empty when there is none.
pub(crate) fn date(time: Option<&Timestamp>) -> String {
    time.map(crate::table::utc).unwrap_or_default()
}

/// The `result` of a `--json` document: the records, every page's with `--all`.
pub(crate) fn result(outcome: &ReportOutcome) -> Value {
    let value = match outcome {
        ReportOutcome::ClosedPnl(records) => serde_json::to_value(records),
        ReportOutcome::Funding(records) => serde_json::to_value(records),
        ReportOutcome::Adl(records) => serde_json::to_value(records),
        ReportOutcome::Deals(records) => serde_json::to_value(records),
    };
    value.unwrap_or_default()
}

/// Prints an outcome as a table.
pub(crate) fn print(outcome: &ReportOutcome) {
    match outcome {
        ReportOutcome::ClosedPnl(records) => {
            let header = [
                "position",
                "market",
                "side",
                "closed",
                "entry",
                "exit",
                "gross",
                "fees",
                "funding",
                "net",
                "opened",
                "closed at",
            ];
            table(&header, records, |p| {
                vec![
                    p.position_id.to_string(),
                    p.market.to_string(),
                    p.side.map_or_else(String::new, |s| s.as_str().to_owned()),
                    optional(p.closed_size.as_ref()),
                    optional(p.avg_entry_price.as_ref()),
                    optional(p.avg_exit_price.as_ref()),
                    optional(p.gross_pnl.as_ref()),
                    optional(p.total_trade_fee.as_ref()),
                    optional(p.total_funding.as_ref()),
                    optional(p.net_pnl.as_ref()),
                    date(p.open_date.as_ref()),
                    date(p.close_date.as_ref()),
                ]
            });
        }
        ReportOutcome::Funding(records) => {
            let header = ["time", "market", "rate", "position", "price", "payment"];
            table(&header, records, |f| {
                vec![
                    date(f.funding_time.as_ref()),
                    f.market.to_string(),
                    optional(f.funding_rate.as_ref()),
                    optional(f.position_amount.as_ref()),
                    optional(f.settlement_price.as_ref()),
                    optional(f.funding_amount.as_ref()),
                ]
            });
        }
        ReportOutcome::Adl(records) => {
            table(&["market", "long", "short"], records, |q| {
                let quantile = |q: Option<txc_blocking::positions::AdlQuantile>| {
                    q.map_or_else(|| "-".to_owned(), |q| q.get().to_string())
                };
                vec![q.market.to_string(), quantile(q.long), quantile(q.short)]
            });
        }
        ReportOutcome::Deals(records) => {
            let header = [
                "time", "deal", "market", "order", "side", "role", "price", "amount", "fee",
            ];
            table(&header, records, |d| {
                vec![
                    date(Some(&d.time)),
                    d.id.to_string(),
                    optional(d.market.as_ref()),
                    optional(d.order_id.or(d.deal_order_id).as_ref()),
                    d.side.map_or_else(String::new, |s| s.as_str().to_owned()),
                    d.role
                        .map_or_else(String::new, |r| format!("{r:?}").to_lowercase()),
                    d.price.to_string(),
                    d.amount.to_string(),
                    d.fee.as_ref().map_or_else(String::new, |fee| {
                        format!("{fee} {}", d.fee_asset.as_deref().unwrap_or_default())
                            .trim_end()
                            .to_owned()
                    }),
                ]
            });
        }
    }
}
