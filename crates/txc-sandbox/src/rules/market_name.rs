//! The answers about a body's `market`: a name not of the form `BASE_QUOTE`
//! ([`crate::wire::is_market_name`]) and a well-formed name that is no market of the sandbox
//! (31, `Market is not available.`). Names are matched exactly, case included (sandbox's
//! choice: the docs only ever show upper case).

use crate::config::Markets;
use crate::wire::Rejection;

/// The message for a name not of the form `BASE_QUOTE`.
pub(crate) const FORMAT_INVALID: &str = "Market field format is invalid.";
/// The message for a well-formed name that is no market of the sandbox.
pub(crate) const UNAVAILABLE: &str = "Market is not available.";

/// Code 31 with `message` on `market`: the code of a market the order endpoints cannot trade.
pub(crate) fn rejection(message: &str) -> Rejection {
    Rejection::validation(31, "market", vec![message.to_owned()])
}

/// A body's required `market` and other required value, once every field rule passed (code
/// 30 first): the market must be one of `markets` (else 31, [`UNAVAILABLE`]).
pub(crate) fn available<T>(
    market: Option<String>,
    value: Option<T>,
    markets: &Markets,
) -> Result<(String, T), Rejection> {
    match (market, value) {
        (Some(market), Some(value)) if markets.get(&market).is_some() => Ok((market, value)),
        (Some(_), Some(_)) => Err(rejection(UNAVAILABLE)),
        // Cannot happen: a missing value is a problem the field rules recorded.
        _ => Err(Rejection::validation(
            30,
            "market",
            vec!["Market field is required.".to_owned()],
        )),
    }
}
