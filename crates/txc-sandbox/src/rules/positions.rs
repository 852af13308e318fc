//! The bodies of the position endpoints: the open positions' `market` filter, the position
//! history's filters and window, and the close.
//!
//! Every problem answers HTTP 422 with code 30, the code these pages document; messages are
//! the older docs' field wording (`Market field should be a string.`), not documented for
//! these endpoints.

use serde_json::{Map, Value};

use super::fields::{Empty, Fields, Wording};
use super::market_name;
use super::market_rule::MarketRule;
use super::page::{Page, Paging};
use crate::config::Markets;
use crate::wire::{self, PositionSide, Rejection};

/// `limit` 1–100 (default 50, not documented), `offset` ≥ 0.
const PAGING: Paging = Paging {
    default_limit: 50,
    max_limit: 100,
    max_offset: None,
};

/// `market` as a filter: `None` when absent; 30 when not a string or not `BASE_QUOTE`. A
/// well-formed market the sandbox does not have matches nothing (an empty list): "30 is
/// returned when the optional `market` filter is malformed".
pub(crate) fn parse_market_filter(map: &Map<String, Value>) -> Result<Option<String>, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let name = fields.text("market", Empty::Rejected);
    if let Some(Some(name)) = &name
        && !wire::is_market_name(name)
    {
        fields.push("market", market_name::FORMAT_INVALID);
    }
    fields.finish(30)?;
    Ok(name.flatten())
}

/// A position history request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PositionHistoryQuery {
    pub(crate) market: Option<String>,
    pub(crate) position_id: Option<u64>,
    /// `startDate` and `endDate`, Unix seconds.
    pub(crate) period: (Option<u64>, Option<u64>),
    pub(crate) page: Page,
}

/// Checks a position history body at `now_s` (the sandbox's Unix second): `startDate ≤
/// endDate ≤ now + 1 s`, no longest window, no earliest date; `limit` 1–100 (default 50, not
/// documented), `offset` ≥ 0.
pub(crate) fn parse_position_history(
    map: &Map<String, Value>,
    now_s: u64,
) -> Result<PositionHistoryQuery, Rejection> {
    let market = parse_market_filter(map)?;
    let mut fields = Fields::new(map, Wording::Field);
    let position_id = fields.integer::<u64>("positionId").flatten();
    let period = date_window(&mut fields, now_s);
    let page = Page::read(&mut fields, PAGING);
    fields.finish(30)?;
    Ok(PositionHistoryQuery {
        market,
        position_id,
        period,
        page,
    })
}

/// `startDate` and `endDate` (Unix seconds, each optional) by the rule the position history
/// and the closed PnL share: `startDate ≤ endDate ≤ now + 1 s` (`now_s` the sandbox's Unix
/// second), no longest window, no earliest date. Problems are recorded (code 30; the
/// messages are not documented).
pub(super) fn date_window(fields: &mut Fields<'_>, now_s: u64) -> (Option<u64>, Option<u64>) {
    let start = fields.integer::<u64>("startDate").flatten();
    let end = fields.integer::<u64>("endDate").flatten();
    if let (Some(start), Some(end)) = (start, end)
        && start > end
    {
        fields.push("startDate", "StartDate should not be greater than endDate.");
    }
    if end
        .or(start)
        .is_some_and(|date| date > now_s.saturating_add(1))
    {
        fields.push(
            if end.is_some() {
                "endDate"
            } else {
                "startDate"
            },
            "The date should not be later than the current time.",
        );
    }
    (start, end)
}

/// A close request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClosePositionRequest {
    pub(crate) position_id: u64,
    pub(crate) market: String,
    pub(crate) side: Option<PositionSide>,
}

/// Checks a close body: `positionId` (an integer) and `market` (a market of the sandbox)
/// required, `positionSide` `LONG`/`SHORT`/`BOTH` if given. Everything 30: "a missing or
/// malformed `positionId` or `market`".
impl MarketRule for ClosePositionRequest {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        let mut fields = Fields::new(map, Wording::Field);
        let position_id = match fields.integer::<u64>("positionId") {
            None => {
                fields.required("positionId");
                None
            }
            Some(id) => id,
        };
        let market = match fields.required_market() {
            Some(name) if markets.get(&name).is_none() => {
                fields.push("market", market_name::UNAVAILABLE);
                None
            }
            other => other,
        };
        let side = match fields.get("positionSide") {
            None => None,
            Some(value) => {
                let side = value.as_str().and_then(PositionSide::parse);
                if side.is_none() {
                    fields.push(
                        "positionSide",
                        "PositionSide field should contain only 'LONG', 'SHORT' or 'BOTH' values.",
                    );
                }
                side
            }
        };
        fields.finish(30)?;
        match (position_id, market) {
            (Some(position_id), Some(market)) => Ok(ClosePositionRequest {
                position_id,
                market,
                side,
            }),
            // Cannot happen: a missing value is a problem recorded above.
            _ => Err(Rejection::validation(
                30,
                "positionId",
                vec!["PositionId field is required.".to_owned()],
            )),
        }
    }
}
