//! Names of markets and currencies: [`Market`] and [`Ticker`].

use super::text::{check_chars, check_upper, is_upper_alnum, validated_text};
use crate::errors::{Reason, ValidationError};

validated_text! {
    /// A market name such as `BTC_USDT` (margin) or `BTC_PERP` (perpetual): two upper-case
    /// tickers joined by one `_`, at most 32 characters.
    ///
    /// In requests it is checked by that rule; in answers it is whatever the exchange sent (see
    /// [`Order::market`](crate::orders::Order::market)).
    ///
    /// ```
    /// use txc_types::values::Market;
    /// let m: Market = "BTC_PERP".parse()?;
    /// assert_eq!((m.as_str(), m.stock(), m.money()), ("BTC_PERP", "BTC", "PERP"));
    /// assert_eq!(m, "BTC_PERP");
    /// assert!("btc usdt".parse::<Market>().is_err());
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    Market, field "market", rule check_market
}

fn check_market(text: &str, field: &'static str) -> Result<(), ValidationError> {
    check_upper(text, field)?;
    check_chars(text, field, 32, |b| is_upper_alnum(b) || b == b'_')?;
    match text.split_once('_') {
        Some((stock, money)) if !stock.is_empty() && !money.is_empty() && !money.contains('_') => {
            Ok(())
        }
        _ => Err(ValidationError::invalid(
            field,
            Reason::Format("must be two upper-case tickers joined by one '_', e.g. BTC_USDT"),
        )),
    }
}

impl Market {
    /// The stock (base) ticker, e.g. `BTC` of `BTC_USDT`.
    pub fn stock(&self) -> &str {
        self.0.split_once('_').map_or(self.0.as_str(), |(s, _)| s)
    }

    /// The money (quote) part, e.g. `USDT` of `BTC_USDT` or `PERP` of `BTC_PERP`.
    pub fn money(&self) -> &str {
        self.0.split_once('_').map_or("", |(_, m)| m)
    }
}

validated_text! {
    /// A currency ticker such as `USDT`, `BTC` or `1INCH`: upper-case ASCII letters and digits,
    /// 1 to 16 characters.
    ///
    /// ```
    /// let t: txc_types::values::Ticker = "USDT".parse()?;
    /// assert_eq!(t.as_str(), "USDT");
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    Ticker, field "ticker", rule check_ticker
}

fn check_ticker(text: &str, field: &'static str) -> Result<(), ValidationError> {
    check_upper(text, field)?;
    check_chars(text, field, 16, is_upper_alnum)
}
