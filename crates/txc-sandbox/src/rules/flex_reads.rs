//! The flexible lending lists' bodies (main_api_v4.yaml, "Crypto Lending - Flex"): the plans
//! (`ticker`, `limit` at most 100, `offset`), the investments (`ticker`, `plan`, `investment`,
//! `investmentStatus`, `limit`, `offset`), the history (`plan`, `investment`, `transaction`,
//! `dateFrom`, `dateTo`, `actionTypes`, `limit`, `offset`) and the payment history (the same
//! without `actionTypes`).
//!
//! Every problem answers HTTP 400, code 0, `Validation failed`, all fields' together, in the
//! spec's examples' words (`The selected plan is invalid.`, `The date from is invalid.`, `The
//! action types must be an array.`, `actionTypes.0`: `The selected action type is
//! invalid.`, `The limit may not be greater than 100.`) and Laravel's where it gives none
//! (`The limit must be at least 1.`). Whether an investment, a transaction or a ticker exists
//! is the state's to say, under the lock.

use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::investments::{finish, text};
use super::page::{Page, Paging};
use super::values::integer;
use crate::wire::Rejection;

/// The plans' page: `limit` 1 to 100 (default 100), `offset` from 0.
const PLANS: Paging = Paging {
    default_limit: 100,
    max_limit: 100,
    max_offset: None,
};
/// The investments' page: `limit` from 1 (default 100; no maximum documented), `offset` from 0.
const INVESTMENTS: Paging = Paging {
    default_limit: 100,
    max_limit: UNBOUNDED,
    max_offset: None,
};
/// The histories' page: `limit` from 1 (default 50; no maximum documented), `offset` from 0.
const HISTORY: Paging = Paging {
    default_limit: 50,
    max_limit: UNBOUNDED,
    max_offset: None,
};
/// No documented bound: the largest `u64`.
const UNBOUNDED: i128 = u64::MAX as i128;

/// The flex plans' query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexPlansQuery {
    pub(crate) ticker: Option<String>,
    pub(crate) page: Page,
}

/// The flex investments' filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexInvestmentsFilter {
    pub(crate) ticker: Option<String>,
    pub(crate) plan: Option<String>,
    pub(crate) investment: Option<String>,
    /// `1` active or `0` closed.
    pub(crate) status: Option<i64>,
    pub(crate) page: Page,
}

/// The flex histories' filters (the payment history has no `actions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexHistoryFilter {
    pub(crate) plan: Option<String>,
    pub(crate) investment: Option<String>,
    pub(crate) transaction: Option<String>,
    /// Unix seconds, inclusive.
    pub(crate) date_from: Option<u64>,
    pub(crate) date_to: Option<u64>,
    /// The action codes asked for (1 to 6), if any.
    pub(crate) actions: Option<Vec<i64>>,
    pub(crate) page: Page,
}

/// Checks the flex plans' body.
pub(crate) fn parse_flex_plans(map: &Map<String, Value>) -> Result<FlexPlansQuery, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let ticker = text(&mut fields, "ticker", "The selected ticker is invalid.");
    let page = Page::read(&mut fields, PLANS);
    finish(fields)?;
    Ok(FlexPlansQuery { ticker, page })
}

/// Checks the flex investments' body; `plan_exists` says whether a plan id is a flex plan's.
pub(crate) fn parse_flex_investments(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<FlexInvestmentsFilter, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let ticker = text(&mut fields, "ticker", "The selected ticker is invalid.");
    let plan = plan_filter(&mut fields, plan_exists);
    let investment = text(
        &mut fields,
        "investment",
        "The selected investment is invalid.",
    );
    let status = match fields.get("investmentStatus") {
        None => None,
        Some(value) => match integer(value) {
            Some(n @ (0 | 1)) => i64::try_from(n).ok(),
            _ => {
                fields.push(
                    "investmentStatus",
                    "The selected investment status is invalid.",
                );
                None
            }
        },
    };
    let page = Page::read(&mut fields, INVESTMENTS);
    finish(fields)?;
    Ok(FlexInvestmentsFilter {
        ticker,
        plan,
        investment,
        status,
        page,
    })
}

/// Checks a flex history's body — with `actionTypes` when `actions` (the investment history),
/// without (the payment history, which ignores it); `plan_exists` says whether a plan id is a
/// flex plan's.
pub(crate) fn parse_flex_history(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
    actions: bool,
) -> Result<FlexHistoryFilter, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let plan = plan_filter(&mut fields, plan_exists);
    let investment = text(
        &mut fields,
        "investment",
        "The selected investment is invalid.",
    );
    let transaction = text(
        &mut fields,
        "transaction",
        "The selected transaction is invalid.",
    );
    let date_from = date(&mut fields, "dateFrom", "The date from is invalid.");
    let date_to = date(&mut fields, "dateTo", "The date to is invalid.");
    let actions = if actions {
        action_types(&mut fields)
    } else {
        None
    };
    let page = Page::read(&mut fields, HISTORY);
    finish(fields)?;
    Ok(FlexHistoryFilter {
        plan,
        investment,
        transaction,
        date_from,
        date_to,
        actions,
        page,
    })
}

/// The `plan` filter: a flex plan's id, else `The selected plan is invalid.`.
fn plan_filter(fields: &mut Fields<'_>, plan_exists: impl Fn(&str) -> bool) -> Option<String> {
    let plan = text(fields, "plan", "The selected plan is invalid.")?;
    if plan_exists(&plan) {
        Some(plan)
    } else {
        fields.push("plan", "The selected plan is invalid.");
        None
    }
}

/// A date filter: a non-negative integer (Unix seconds), else `invalid`.
fn date(fields: &mut Fields<'_>, field: &str, invalid: &str) -> Option<u64> {
    let value = fields.get(field)?;
    let seconds = integer(value).and_then(|n| u64::try_from(n).ok());
    if seconds.is_none() {
        fields.push(field, invalid);
    }
    seconds
}

/// `actionTypes`: an array of action codes 1 to 6, each wrong item named by its index.
fn action_types(fields: &mut Fields<'_>) -> Option<Vec<i64>> {
    let value = fields.get("actionTypes")?;
    let Value::Array(items) = value else {
        fields.push("actionTypes", "The action types must be an array.");
        return None;
    };
    let mut codes = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        match integer(item).and_then(|n| i64::try_from(n).ok()) {
            Some(code @ 1..=6) => codes.push(code),
            _ => fields.push(
                &format!("actionTypes.{index}"),
                "The selected action type is invalid.",
            ),
        }
    }
    Some(codes)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use http::StatusCode;
    use serde_json::json;

    use crate::rules::values::object as map;

    #[test]
    fn the_specs_examples_of_refusals() {
        let known = |id: &str| id == "p1";
        let e = parse_flex_plans(&map(json!({"ticker": 5, "limit": 101, "offset": -1})));
        let e = e.unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.errors["ticker"], ["The selected ticker is invalid."]);
        assert_eq!(
            e.errors["limit"],
            ["The limit may not be greater than 100."]
        );
        assert_eq!(e.errors["offset"], ["The offset must be at least 0."]);
        let e = parse_flex_history(
            &map(
                json!({"plan": "nope", "dateFrom": "x", "dateTo": -5, "actionTypes": [1, 7, "2"]}),
            ),
            known,
            true,
        )
        .unwrap_err();
        assert_eq!(e.errors["plan"], ["The selected plan is invalid."]);
        assert_eq!(e.errors["dateFrom"], ["The date from is invalid."]);
        assert_eq!(e.errors["dateTo"], ["The date to is invalid."]);
        assert_eq!(
            e.errors["actionTypes.1"],
            ["The selected action type is invalid."]
        );
        assert!(!e.errors.contains_key("actionTypes.2"));
        let e = parse_flex_history(&map(json!({"actionTypes": 4})), known, true).unwrap_err();
        assert_eq!(
            e.errors["actionTypes"],
            ["The action types must be an array."]
        );
        // The payment history has no action filter: it is not read.
        let f = parse_flex_history(&map(json!({"actionTypes": 4})), known, false).unwrap();
        assert_eq!((f.actions, f.page.limit), (None, 50));
        let e = parse_flex_investments(&map(json!({"investmentStatus": 2})), known).unwrap_err();
        assert_eq!(
            e.errors["investmentStatus"],
            ["The selected investment status is invalid."]
        );
        let f = parse_flex_investments(&map(json!({"investmentStatus": "0", "plan": "p1"})), known)
            .unwrap();
        assert_eq!(
            (f.status, f.plan.as_deref(), f.page.limit),
            (Some(0), Some("p1"), 100)
        );
    }
}
