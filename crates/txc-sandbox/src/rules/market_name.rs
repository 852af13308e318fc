//! The form of a market name. The docs give only examples (`BTC_USDT`, `BTC_PERP`) and the
//! pattern `BASE_QUOTE`; the sandbox reads that as two runs of ASCII letters or digits joined
//! by one underscore. Whether a well-formed name is a market is a separate check (31,
//! `Market is not available.`), and names are matched exactly, case included (sandbox's
//! choice: the docs only ever show upper case).

use crate::answer::Rejection;
use crate::state::Markets;

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

/// Whether `name` has the form `BASE_QUOTE`.
pub(crate) fn is_well_formed(name: &str) -> bool {
    let part = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric());
    name.split_once('_')
        .is_some_and(|(base, quote)| part(base) && part(quote))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_quote() {
        for good in [
            "BTC_USDT",
            "BTC_PERP",
            "1INCH_USDT",
            "btc_usdt",
            "DBTC_DUSDT",
        ] {
            assert!(is_well_formed(good), "{good}");
        }
        for bad in [
            "",
            "BTC",
            "BTC_",
            "_USDT",
            "BTC-USDT",
            "BTC_USDT_X",
            "BTC USDT",
            "BTC_ÜSDT",
        ] {
            assert!(!is_well_formed(bad), "{bad}");
        }
    }
}
