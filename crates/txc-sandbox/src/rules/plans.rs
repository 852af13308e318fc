//! The smart plans body: `ticker`, optional. Answers use HTTP 400 code 0, as the docs' example
//! for an unknown ticker does (exchange-docs-notes §5.4).

use http::StatusCode;
use serde_json::{Map, Value};

use super::present;
use crate::answer::Rejection;

/// The `ticker` filter, if any, or the rejection. `known` says whether a currency exists.
pub(crate) fn parse_ticker(
    map: &Map<String, Value>,
    known: impl Fn(&str) -> bool,
) -> Result<Option<String>, Rejection> {
    let reject = |message: &str| {
        Rejection::validation(0, "ticker", vec![message.to_owned()])
            .with_status(StatusCode::BAD_REQUEST)
    };
    match present(map, "ticker") {
        None => Ok(None),
        Some(Value::String(ticker)) if known(ticker) => Ok(Some(ticker.clone())),
        // Documented, verbatim.
        Some(Value::String(_)) => Err(reject("The selected ticker is invalid.")),
        // Not documented: Laravel's wording for its `string` rule, as the documented message
        // is Laravel's for `exists`/`in`.
        Some(_) => Err(reject("The ticker must be a string.")),
    }
}
