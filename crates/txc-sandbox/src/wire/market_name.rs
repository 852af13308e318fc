//! The form of a market name. The docs give only examples (`BTC_USDT`, `BTC_PERP`) and the
//! pattern `BASE_QUOTE`; the sandbox reads that as two runs of ASCII letters or digits joined
//! by one underscore — in request bodies and in its own configuration alike. Whether a
//! well-formed name is a market is a rule of its own (`crate::rules`).

/// Whether `name` has the form `BASE_QUOTE`.
pub(crate) fn is_market_name(name: &str) -> bool {
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
            assert!(is_market_name(good), "{good}");
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
            assert!(!is_market_name(bad), "{bad}");
        }
    }
}
