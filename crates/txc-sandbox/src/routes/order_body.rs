//! Parsing an order body into an [`OrderRequest`], answering bad fields with the exchange's
//! codes: `market` 31, `amount` 32, prices (`stopLoss`, `takeProfit`, `activation_price`)
//! 33, `clientOrderId` 36, everything else (side, positionSide, stp, reduceOnly, the
//! reduceOnly + stopLoss/takeProfit conflict) 30.
//!
//! The field rules themselves are `txc-types`' (`from_body`), so the sandbox and the SDK
//! cannot disagree about them. The sandbox is lenient where the live server is: `positionSide`
//! in any case, legacy `stp` names, `nonce` as a digit string, keys in any order, and an empty
//! `clientOrderId` taken as none.

use serde_json::{Map, Value};
use txc_sign::AuthRejection;
use txc_types::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, OrderFields, Reason, RequestBodyError,
    Stp, ValidationError,
};

use crate::answer::{Answer, Outcome, Rejection};
use crate::decimal;
use crate::state::{OrderRequest, State};
use txc_sign::VerifiedRequest;

/// A field's exchange code and its name in messages.
fn describe(field: &str) -> (&'static str, i64, &'static str) {
    match field {
        "market" => ("market", 31, "market"),
        "amount" => ("amount", 32, "amount"),
        "stopLoss" => ("stopLoss", 33, "stop loss"),
        "takeProfit" => ("takeProfit", 33, "take profit"),
        "activation_price" => ("activation_price", 33, "activation price"),
        "clientOrderId" => ("clientOrderId", 36, "client order id"),
        "side" => ("side", 30, "side"),
        "positionSide" => ("positionSide", 30, "position side"),
        "stp" => ("stp", 30, "stp"),
        "reduceOnly" => ("reduceOnly", 30, "reduce only"),
        _ => ("request", 30, "request"),
    }
}

/// The string fields of an order body, in the order they are checked.
const STRING_FIELDS: [&str; 9] = [
    "market",
    "side",
    "amount",
    "activation_price",
    "clientOrderId",
    "stopLoss",
    "takeProfit",
    "positionSide",
    "stp",
];

/// Parses and places an order (a trigger order when `trigger`): the full order record, or
/// the exchange's rejection. Shared by both order routes.
pub(super) fn place(
    state: &mut State,
    verified: &VerifiedRequest,
    body: &[u8],
    trigger: bool,
) -> Answer {
    match parse(body, trigger) {
        Ok(request) => match state.place(&verified.api_key, request) {
            Ok(order) => Answer::ok(&order, Outcome::OrderAccepted),
            Err(rejection) => rejection.answer(),
        },
        Err(answer) => answer,
    }
}

/// Parses and validates an order body; `trigger` requires `activation_price`.
pub(crate) fn parse(body: &[u8], trigger: bool) -> Result<OrderRequest, Answer> {
    let Ok(Value::Object(mut map)) = serde_json::from_slice::<Value>(body) else {
        return Err(Answer::auth(AuthRejection::INVALID_PAYLOAD));
    };
    if map.get("clientOrderId").and_then(Value::as_str) == Some("") {
        map.remove("clientOrderId");
    }
    check_shape(&map, trigger).map_err(Rejection::answer)?;
    let normalized = serde_json::to_vec(&map).unwrap_or_default();
    let (fields, activation) = if trigger {
        let order = CollateralTriggerMarketOrder::from_body(&normalized).map_err(reject)?;
        let text = order.activation_price().as_str().to_owned();
        let value = decimal::parse_positive(&text)
            .ok_or_else(|| invalid("activation_price", Reason::Format("not a decimal")).answer())?;
        (order.fields().clone(), Some((value, text)))
    } else {
        let order = CollateralMarketOrder::from_body(&normalized).map_err(reject)?;
        (order.fields().clone(), None)
    };
    to_request(&fields, activation)
}

/// Required fields present, and every field of the right JSON type.
fn check_shape(map: &Map<String, Value>, trigger: bool) -> Result<(), Rejection> {
    for field in STRING_FIELDS {
        let required = matches!(field, "market" | "side" | "amount")
            || (trigger && field == "activation_price");
        let (name, code, human) = describe(field);
        match map.get(field) {
            None | Some(Value::Null) if required => {
                return Err(Rejection::validation(
                    code,
                    name,
                    vec![format!("The {human} field is required.")],
                ));
            }
            None | Some(Value::Null | Value::String(_)) => {}
            Some(_) => {
                return Err(Rejection::validation(
                    code,
                    name,
                    vec![format!("The {human} must be a string.")],
                ));
            }
        }
    }
    match map.get("reduceOnly") {
        None | Some(Value::Null | Value::Bool(_)) => Ok(()),
        Some(_) => Err(Rejection::validation(
            30,
            "reduceOnly",
            vec!["The reduce only field must be true or false.".to_owned()],
        )),
    }
}

fn reject(error: RequestBodyError) -> Answer {
    match error {
        RequestBodyError::Invalid(e) => validation(&e).answer(),
        // The shape was checked; anything left is a body the rules cannot read at all.
        _ => Rejection::validation(30, "request", vec!["The request is invalid.".to_owned()])
            .answer(),
    }
}

fn invalid(field: &'static str, reason: Reason) -> Rejection {
    validation(&ValidationError::InvalidField { field, reason })
}

/// The exchange's answer to a field that breaks a rule.
fn validation(error: &ValidationError) -> Rejection {
    let (field, code, human) = describe(error.field());
    let message = match error {
        ValidationError::Conflict { .. } => {
            "The reduce only order cannot have a stop loss or a take profit.".to_owned()
        }
        ValidationError::InvalidField { field: f, reason } => match (*f, reason) {
            ("market", _) => "Market is not available".to_owned(),
            ("side" | "positionSide" | "stp", _) => format!("The selected {human} is invalid."),
            (_, Reason::Empty) => format!("The {human} field is required."),
            (_, Reason::TooLong { max }) => {
                format!("The {human} may not be greater than {max} characters.")
            }
            ("clientOrderId", _) => format!(
                "The {human} may only contain letters, numbers, dashes, dots and underscores."
            ),
            (_, Reason::NotPositive) => format!("The {human} must be greater than 0."),
            _ => format!("The {human} must be a number."),
        },
        _ => "The request is invalid.".to_owned(),
    };
    Rejection::validation(code, field, vec![message])
}

fn to_request(
    fields: &OrderFields,
    activation: Option<(rust_decimal::Decimal, String)>,
) -> Result<OrderRequest, Answer> {
    let amount = decimal::parse_positive(fields.amount().as_str())
        .ok_or_else(|| invalid("amount", Reason::Format("too many digits")).answer())?;
    Ok(OrderRequest {
        market: fields.market().as_str().to_owned(),
        side: fields.side(),
        amount,
        client_order_id: fields.client_order_id().map(|c| c.as_str().to_owned()),
        stop_loss: fields.stop_loss().map(|p| p.as_str().to_owned()),
        take_profit: fields.take_profit().map(|p| p.as_str().to_owned()),
        position_side: fields.position_side(),
        reduce_only: fields.reduce_only().unwrap_or(false),
        stp: fields.stp().unwrap_or(Stp::No),
        activation,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn code(body: &str, trigger: bool) -> i64 {
        let answer = parse(body.as_bytes(), trigger).unwrap_err();
        let v: Value = serde_json::from_slice(&answer.body).unwrap();
        v["code"].as_i64().unwrap()
    }

    #[test]
    fn codes_per_field() {
        assert_eq!(code(r#"{"side":"buy","amount":"1"}"#, false), 31);
        assert_eq!(
            code(r#"{"market":"btc","side":"buy","amount":"1"}"#, false),
            31
        );
        assert_eq!(
            code(r#"{"market":"BTC_USDT","side":"buy","amount":1}"#, false),
            32
        );
        assert_eq!(
            code(
                r#"{"market":"BTC_USDT","side":"buy","amount":"1e3"}"#,
                false
            ),
            32
        );
        assert_eq!(
            code(r#"{"market":"BTC_USDT","side":"up","amount":"1"}"#, false),
            30
        );
        assert_eq!(
            code(
                r#"{"market":"BTC_USDT","side":"buy","amount":"1","stopLoss":"x"}"#,
                false
            ),
            33
        );
        assert_eq!(
            code(r#"{"market":"BTC_USDT","side":"buy","amount":"1"}"#, true),
            33
        );
        assert_eq!(
            code(
                r#"{"market":"BTC_USDT","side":"buy","amount":"1","clientOrderId":"a b"}"#,
                false
            ),
            36
        );
        assert_eq!(
            code(
                r#"{"market":"BTC_USDT","side":"buy","amount":"1","reduceOnly":true,"takeProfit":"1"}"#,
                false
            ),
            30
        );
        assert_eq!(
            code(
                r#"{"market":"BTC_USDT","side":"buy","amount":"1","reduceOnly":"yes"}"#,
                false
            ),
            30
        );
    }

    #[test]
    fn lenient_where_the_exchange_is() {
        let r = parse(
            br#"{"stp":"cancel_both","clientOrderId":"","positionSide":"long","amount":"0.01","side":"sell","market":"BTC_PERP"}"#,
            false,
        )
        .unwrap();
        assert_eq!(r.stp, Stp::CancelBoth);
        assert_eq!(r.client_order_id, None);
        assert_eq!(r.position_side, Some(txc_types::PositionSide::Long));
    }
}
