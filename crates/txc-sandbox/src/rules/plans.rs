//! The smart plans body: `ticker`, optional. Answers use HTTP 400 code 0, as the docs' example
//! for an unknown ticker does (exchange-docs-notes §5.4).

use http::StatusCode;
use serde_json::{Map, Value};

use super::values::present;
use crate::wire::Rejection;

/// The `ticker` filter, if any, or the rejection of a ticker that is not a string. Whether the
/// currency exists is the state's to say ([`unknown_ticker`]).
pub(crate) fn parse_ticker(map: &Map<String, Value>) -> Result<Option<String>, Rejection> {
    match present(map, "ticker") {
        None => Ok(None),
        Some(Value::String(ticker)) => Ok(Some(ticker.clone())),
        // Not documented: Laravel's wording for its `string` rule, as the documented message
        // is Laravel's for `exists`/`in`.
        Some(_) => Err(reject("The ticker must be a string.")),
    }
}

/// A `ticker` that names no currency the sandbox knows: documented, verbatim.
pub(crate) fn unknown_ticker() -> Rejection {
    reject("The selected ticker is invalid.")
}

fn reject(message: &str) -> Rejection {
    Rejection::validation(0, "ticker", vec![message.to_owned()])
        .with_status(StatusCode::BAD_REQUEST)
}
