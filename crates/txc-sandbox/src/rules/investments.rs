//! The smart-investment bodies (main_api_v4.yaml, "Crypto Lending - Fixed"): investing
//! (`planId`, `amount`), closing (`id`), the investments list (`id`, `ticker`, `status`,
//! `limit`, `offset`) and the interest payments (`planId`, `ticker`, `limit`, `offset`).
//!
//! Field problems answer HTTP 400, code 0, `Validation failed`, every field's together, in the
//! spec's examples' words where it gives them (`The selected planId is invalid.`, `The amount
//! field must be a valid number`, `The amount must be at least 0.000001.`, `Invalid decimal
//! amount`, `The id field is required.`, `The selected ticker is invalid.`, `The selected
//! status is invalid.`) and Laravel's otherwise (`The planId field is required.`, `The limit
//! must be at least 1.`: not documented). Whether an id or ticker exists is the state's to
//! say, under the lock.

use std::collections::BTreeMap;

use http::StatusCode;
use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::numeric::{self, Verdict};
use super::page::{Page, Paging};
use super::values::{integer, present};
use crate::wire::Rejection;

/// The most decimal places of an investment amount (the smallest is 0.000001).
const AMOUNT_PLACES: u32 = 6;
/// The exchange's list bounds: `limit` 1 to 100 (default 100), `offset` 0 to 10 000.
const PAGING: Paging = Paging {
    default_limit: 100,
    max_limit: 100,
    max_offset: Some(10_000),
};

/// An investment that passed the field rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InvestRequest {
    pub(crate) plan_id: String,
    pub(crate) amount: Decimal,
}

/// The investments list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InvestmentsFilter {
    pub(crate) id: Option<String>,
    pub(crate) ticker: Option<String>,
    pub(crate) status: Option<i64>,
    pub(crate) page: Page,
}

/// The interest payments' filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PaymentsFilter {
    pub(crate) plan_id: Option<String>,
    pub(crate) ticker: Option<String>,
    pub(crate) page: Page,
}

/// HTTP 400, code 0, `Validation failed` with `errors`.
pub(crate) fn invalid(errors: BTreeMap<String, Vec<String>>) -> Rejection {
    Rejection::fields(0, errors).with_status(StatusCode::BAD_REQUEST)
}

/// HTTP 400, code 0, one message on one field.
pub(crate) fn invalid_field(field: &str, message: &str) -> Rejection {
    Rejection::validation(0, field, vec![message.to_owned()]).with_status(StatusCode::BAD_REQUEST)
}

/// Checks an investment body; `plan_exists` says whether a plan id is one of the plans.
pub(crate) fn parse_invest(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<InvestRequest, Rejection> {
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut problem = |field: &str, message: &str| {
        errors
            .entry(field.to_owned())
            .or_default()
            .push(message.to_owned());
    };
    let plan_id = match present(map, "planId") {
        None => {
            problem("planId", "The planId field is required.");
            None
        }
        Some(Value::String(id)) if plan_exists(id) => Some(id.clone()),
        Some(_) => {
            problem("planId", "The selected planId is invalid.");
            None
        }
    };
    let amount = match present(map, "amount").map(numeric::classify) {
        None => {
            problem("amount", "The amount field is required.");
            None
        }
        Some((Verdict::NotNumeric, _)) => {
            problem("amount", "The amount field must be a valid number");
            None
        }
        Some((Verdict::OutOfRange, _)) => {
            problem("amount", "Invalid decimal amount");
            None
        }
        Some((Verdict::NotPositive, _)) => {
            problem("amount", "The amount must be at least 0.000001.");
            None
        }
        Some((Verdict::Positive(value), _)) if value < Decimal::new(1, AMOUNT_PLACES) => {
            problem("amount", "The amount must be at least 0.000001.");
            None
        }
        Some((Verdict::Positive(value), _)) if value.normalize().scale() > AMOUNT_PLACES => {
            problem("amount", "Invalid decimal amount");
            None
        }
        Some((Verdict::Positive(value), _)) => Some(value),
    };
    match (plan_id, amount) {
        (Some(plan_id), Some(amount)) if errors.is_empty() => Ok(InvestRequest { plan_id, amount }),
        _ => Err(invalid(errors)),
    }
}

/// Checks a close body: the investment's id.
pub(crate) fn parse_close_investment(map: &Map<String, Value>) -> Result<String, Rejection> {
    match present(map, "id") {
        Some(Value::String(id)) if !id.is_empty() => Ok(id.clone()),
        // Laravel's `required` reads "" as missing; a number is no investment's id.
        None | Some(Value::String(_)) => Err(invalid_field("id", "The id field is required.")),
        Some(_) => Err(invalid_field("id", "Investment not found")),
    }
}

/// Checks the investments list's body.
pub(crate) fn parse_investments(map: &Map<String, Value>) -> Result<InvestmentsFilter, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let id = text(&mut fields, "id", "The selected id is invalid.");
    let ticker = text(&mut fields, "ticker", "The selected ticker is invalid.");
    let status = match fields.get("status") {
        None => None,
        Some(value) => match integer(value) {
            Some(n @ (1 | 2)) => i64::try_from(n).ok(),
            _ => {
                fields.push("status", "The selected status is invalid.");
                None
            }
        },
    };
    let page = Page::read(&mut fields, PAGING);
    finish(fields)?;
    Ok(InvestmentsFilter {
        id,
        ticker,
        status,
        page,
    })
}

/// Checks the interest payments' body; `plan_exists` says whether a plan id is one of the
/// plans.
pub(crate) fn parse_payments(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<PaymentsFilter, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let plan_id = text(&mut fields, "planId", "The selected planId is invalid.");
    if plan_id.as_deref().is_some_and(|id| !plan_exists(id)) {
        fields.push("planId", "The selected planId is invalid.");
    }
    let ticker = text(&mut fields, "ticker", "The selected ticker is invalid.");
    let page = Page::read(&mut fields, PAGING);
    finish(fields)?;
    Ok(PaymentsFilter {
        plan_id,
        ticker,
        page,
    })
}

/// A text filter: `None` when absent; anything but a non-empty string is `invalid`.
pub(super) fn text(fields: &mut Fields<'_>, field: &str, invalid: &str) -> Option<String> {
    match fields.get(field)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => {
            fields.push(field, invalid);
            None
        }
    }
}

/// The collected problems as the exchange's HTTP 400.
pub(super) fn finish(fields: Fields<'_>) -> Result<(), Rejection> {
    fields
        .finish(0)
        .map_err(|r| r.with_status(StatusCode::BAD_REQUEST))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    use crate::rules::values::object as map;

    #[test]
    fn invest_fields_answer_in_the_spec_s_words_together() {
        let known = |id: &str| id == "p1";
        let ok = parse_invest(&map(json!({"planId": "p1", "amount": "100.5"})), known).unwrap();
        assert_eq!(ok.amount, Decimal::new(1005, 1));
        let both = parse_invest(&map(json!({"planId": "nope", "amount": "x"})), known).unwrap_err();
        assert_eq!(both.status, StatusCode::BAD_REQUEST);
        assert_eq!(both.errors["planId"], ["The selected planId is invalid."]);
        assert_eq!(
            both.errors["amount"],
            ["The amount field must be a valid number"]
        );
        for (amount, message) in [
            (json!("0"), "The amount must be at least 0.000001."),
            (json!("0.0000001"), "The amount must be at least 0.000001."),
            (json!("1.0000001"), "Invalid decimal amount"),
            (json!(null), "The amount field is required."),
        ] {
            let e = parse_invest(&map(json!({"planId": "p1", "amount": amount})), known);
            assert_eq!(e.unwrap_err().errors["amount"], [message]);
        }
    }

    #[test]
    fn list_filters_and_pages() {
        let f = parse_investments(&map(json!({"status": 2, "limit": 10, "offset": "5"}))).unwrap();
        assert_eq!((f.status, f.page.limit, f.page.offset), (Some(2), 10, 5));
        let e = parse_investments(&map(json!({"status": 3, "limit": 101, "ticker": 1})));
        let e = e.unwrap_err();
        assert_eq!(e.errors["status"], ["The selected status is invalid."]);
        assert_eq!(
            e.errors["limit"],
            ["The limit may not be greater than 100."]
        );
        assert_eq!(e.errors["ticker"], ["The selected ticker is invalid."]);
        assert_eq!(
            parse_close_investment(&map(json!({}))).unwrap_err().errors["id"],
            ["The id field is required."]
        );
    }
}
