//! The flexible lending operations' bodies (main_api_v4.yaml, "Crypto Lending - Flex"):
//! invest (`plan`, `amount`, `withReinvest`), withdraw (`plan`, `amount`), close (`plan`) and
//! auto-invest (`plan`, `enabled`).
//!
//! Field problems answer HTTP 400, code 0, `Validation failed`, every field's together: `The
//! plan field is required.` (the spec's auto-invest example), `The selected plan is invalid.`,
//! `The amount field must be a valid number`, `The enabled field must be true or false.`
//! (the spec's examples), and — not documented for flex — `The amount field is required.`,
//! `The with reinvest field must be true or false.` (Laravel's wording) and `Invalid decimal
//! amount` for more than 6 decimal places (the fixed plans' documented rule, the same lending
//! service). Then a zero or negative amount: HTTP 422 `Inner validation failed`, `Amount is
//! too small` / `Withdraw amount is too small` (the spec). Everything else — the plan's
//! status, bounds, the investment, the balance — is the state's to judge.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::investments::finish;
use super::numeric::{self, Verdict};
use super::values::integer;
use crate::wire::Rejection;

/// The most decimal places of an amount.
const AMOUNT_PLACES: u32 = 6;

/// An investment that passed the field rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexInvestRequest {
    pub(crate) plan: String,
    pub(crate) amount: Decimal,
    /// `withReinvest`, when sent.
    pub(crate) with_reinvest: Option<bool>,
}

/// A withdrawal that passed the field rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlexWithdrawRequest {
    pub(crate) plan: String,
    pub(crate) amount: Decimal,
}

/// An auto-invest switch that passed the field rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AutoInvestRequest {
    pub(crate) plan: String,
    /// `enabled`; `false` when left out (the spec's default).
    pub(crate) enabled: bool,
}

/// An amount's verdict: positive, or zero and below (a 422 of its own).
enum Sized {
    Positive(Decimal),
    NotPositive,
}

/// Checks an investment body; `plan_exists` says whether an id is a flex plan's.
pub(crate) fn parse_flex_invest(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<FlexInvestRequest, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let plan = plan(&mut fields, plan_exists);
    let amount = amount(&mut fields);
    let with_reinvest = flag(
        &mut fields,
        "withReinvest",
        "The with reinvest field must be true or false.",
    );
    finish(fields)?;
    match (plan, positive(amount, "Amount is too small")?) {
        (Some(plan), Some(amount)) => Ok(FlexInvestRequest {
            plan,
            amount,
            with_reinvest,
        }),
        _ => Err(Rejection::internal()),
    }
}

/// Checks a withdrawal body; `plan_exists` says whether an id is a flex plan's.
pub(crate) fn parse_flex_withdraw(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<FlexWithdrawRequest, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let plan = plan(&mut fields, plan_exists);
    let amount = amount(&mut fields);
    finish(fields)?;
    match (plan, positive(amount, "Withdraw amount is too small")?) {
        (Some(plan), Some(amount)) => Ok(FlexWithdrawRequest { plan, amount }),
        _ => Err(Rejection::internal()),
    }
}

/// Checks a close body: the plan.
pub(crate) fn parse_flex_close(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<String, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let plan = plan(&mut fields, plan_exists);
    finish(fields)?;
    plan.ok_or_else(Rejection::internal)
}

/// Checks an auto-invest body: the plan and `enabled`.
pub(crate) fn parse_flex_auto_invest(
    map: &Map<String, Value>,
    plan_exists: impl Fn(&str) -> bool,
) -> Result<AutoInvestRequest, Rejection> {
    let mut fields = Fields::new(map, Wording::Laravel);
    let plan = plan(&mut fields, plan_exists);
    let enabled = flag(
        &mut fields,
        "enabled",
        "The enabled field must be true or false.",
    );
    finish(fields)?;
    Ok(AutoInvestRequest {
        plan: plan.ok_or_else(Rejection::internal)?,
        enabled: enabled.unwrap_or(false),
    })
}

/// `plan`, required: a flex plan's id.
fn plan(fields: &mut Fields<'_>, plan_exists: impl Fn(&str) -> bool) -> Option<String> {
    match fields.get("plan") {
        // Laravel's `required` reads "" as missing.
        None => {
            fields.required("plan");
            None
        }
        Some(Value::String(id)) if id.is_empty() => {
            fields.required("plan");
            None
        }
        Some(Value::String(id)) if plan_exists(id) => Some(id.clone()),
        Some(_) => {
            fields.push("plan", "The selected plan is invalid.");
            None
        }
    }
}

/// `amount`, required: a number of at most 6 decimal places.
fn amount(fields: &mut Fields<'_>) -> Option<Sized> {
    let Some(value) = fields.get("amount") else {
        fields.required("amount");
        return None;
    };
    match numeric::classify(value).0 {
        Verdict::NotNumeric => {
            fields.push("amount", "The amount field must be a valid number");
            None
        }
        Verdict::OutOfRange => {
            fields.push("amount", "Invalid decimal amount");
            None
        }
        Verdict::NotPositive => Some(Sized::NotPositive),
        Verdict::Positive(value) if value.normalize().scale() > AMOUNT_PLACES => {
            fields.push("amount", "Invalid decimal amount");
            None
        }
        Verdict::Positive(value) => Some(Sized::Positive(value)),
    }
}

/// The amount once the fields passed: a zero or negative one is HTTP 422 `too_small`.
fn positive(amount: Option<Sized>, too_small: &str) -> Result<Option<Decimal>, Rejection> {
    match amount {
        Some(Sized::NotPositive) => Err(Rejection::inner(0, "amount", too_small)),
        Some(Sized::Positive(value)) => Ok(Some(value)),
        None => Ok(None),
    }
}

/// A boolean field as Laravel's `boolean` rule reads it (`true`, `false`, `1`, `0`, `"1"`,
/// `"0"`): `None` when absent or refused (the problem recorded).
fn flag(fields: &mut Fields<'_>, field: &str, invalid: &str) -> Option<bool> {
    let value = fields.get(field)?;
    let flag = match value {
        Value::Bool(b) => Some(*b),
        Value::Number(_) | Value::String(_) => match integer(value) {
            Some(1) => Some(true),
            Some(0) => Some(false),
            _ => None,
        },
        _ => None,
    };
    if flag.is_none() {
        fields.push(field, invalid);
    }
    flag
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use http::StatusCode;
    use serde_json::json;

    use crate::rules::values::object as map;

    #[test]
    fn bodies_answer_in_the_specs_words() {
        let known = |id: &str| id == "p1";
        let ok = parse_flex_invest(
            &map(json!({"plan": "p1", "amount": "1000.500000", "withReinvest": true})),
            known,
        )
        .unwrap();
        assert_eq!(
            (ok.amount, ok.with_reinvest),
            (Decimal::new(10005, 1), Some(true))
        );
        let e = parse_flex_invest(&map(json!({"plan": "x", "amount": "abc"})), known).unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.errors["plan"], ["The selected plan is invalid."]);
        assert_eq!(
            e.errors["amount"],
            ["The amount field must be a valid number"]
        );
        let e = parse_flex_invest(&map(json!({"plan": "p1", "amount": "0"})), known).unwrap_err();
        assert_eq!(
            (e.status, e.message, e.errors["amount"][0].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "Inner validation failed",
                "Amount is too small"
            )
        );
        let e = parse_flex_withdraw(&map(json!({"plan": "p1", "amount": -1})), known).unwrap_err();
        assert_eq!(e.errors["amount"], ["Withdraw amount is too small"]);
        let e = parse_flex_withdraw(&map(json!({"plan": "p1", "amount": "1.0000001"})), known);
        assert_eq!(e.unwrap_err().errors["amount"], ["Invalid decimal amount"]);
        let e = parse_flex_auto_invest(&map(json!({"enabled": "yes"})), known).unwrap_err();
        assert_eq!(e.errors["plan"], ["The plan field is required."]);
        assert_eq!(
            e.errors["enabled"],
            ["The enabled field must be true or false."]
        );
        let off = parse_flex_auto_invest(&map(json!({"plan": "p1"})), known).unwrap();
        assert!(!off.enabled);
        assert!(
            parse_flex_auto_invest(&map(json!({"plan": "p1", "enabled": "1"})), known)
                .unwrap()
                .enabled
        );
        assert_eq!(
            parse_flex_close(&map(json!({"plan": "p1"})), known).unwrap(),
            "p1"
        );
        let e = parse_flex_close(&map(json!({"plan": ""})), known).unwrap_err();
        assert_eq!(e.errors["plan"], ["The plan field is required."]);
    }
}
