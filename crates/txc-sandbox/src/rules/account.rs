//! The bodies of the collateral account's endpoints with fields of their own: the balance's
//! and the balance summary's `ticker`, the leverage, the hedge mode.
//!
//! Every problem answers HTTP 422 with code 30 (`Validation failed`), the only code these
//! pages document besides 113 (a state check, see [`crate::state`]).

use serde_json::{Map, Value};

use super::values::present;
use crate::wire::Rejection;

/// The leverages the docs accept.
pub(crate) const LEVERAGES: [u32; 8] = [1, 2, 3, 5, 10, 20, 50, 100];

/// The optional `ticker` filter: a string naming a currency the sandbox knows. Anything else
/// is 30 `ticker is invalid.` (the docs' one example for both endpoints).
pub(crate) fn parse_ticker_filter(
    map: &Map<String, Value>,
    known: &dyn Fn(&str) -> bool,
) -> Result<Option<String>, Rejection> {
    match present(map, "ticker") {
        None => Ok(None),
        Some(Value::String(t)) if known(t) => Ok(Some(t.clone())),
        Some(_) => Err(Rejection::validation(
            30,
            "ticker",
            vec!["ticker is invalid.".to_owned()],
        )),
    }
}

/// `leverage`: required, an integer (a JSON integer; a digit string too, as Laravel's rule
/// reads it) among 1, 2, 3, 5, 10, 20, 50, 100. Messages not documented: Laravel's.
pub(crate) fn parse_leverage(map: &Map<String, Value>) -> Result<u32, Rejection> {
    let reject = |m: &str| Rejection::validation(30, "leverage", vec![m.to_owned()]);
    let value =
        present(map, "leverage").ok_or_else(|| reject("The leverage field is required."))?;
    let n =
        super::values::integer(value).ok_or_else(|| reject("The leverage must be an integer."))?;
    u32::try_from(n)
        .ok()
        .filter(|n| LEVERAGES.contains(n))
        .ok_or_else(|| reject("The selected leverage is invalid."))
}

/// `hedgeMode`: required, a boolean. Message not documented: Laravel's.
pub(crate) fn parse_hedge_mode(map: &Map<String, Value>) -> Result<bool, Rejection> {
    match present(map, "hedgeMode") {
        Some(Value::Bool(b)) => Ok(*b),
        None => Err(Rejection::validation(
            30,
            "hedgeMode",
            vec!["The hedge mode field is required.".to_owned()],
        )),
        Some(_) => Err(Rejection::validation(
            30,
            "hedgeMode",
            vec!["The hedge mode field must be true or false.".to_owned()],
        )),
    }
}
