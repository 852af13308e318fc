//! `POST /api/v4/collateral-account/balance`: the collateral balance of each asset.

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use txc_derive::Request;

use crate::values::text::Unchecked;
use crate::values::{ExactDecimal, Ticker};

/// Asks for the collateral balance of every asset ([`new`](Self::new)), or of one.
///
/// ```
/// use txc_types::positions::CollateralBalanceQuery;
/// let all = CollateralBalanceQuery::new();
/// let usdt = CollateralBalanceQuery::of_ticker("USDT")?;
/// assert_eq!(serde_json::to_string(&all).unwrap(), "{}");
/// assert_eq!(serde_json::to_string(&usdt).unwrap(), r#"{"ticker":"USDT"}"#);
/// assert!(CollateralBalanceQuery::of_ticker("usdt ").is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/balance",
    operation = "collateral_balance",
    kind = Read,
    rate_limit = (12_000, 10),
    response = CollateralBalance,
)]
pub struct CollateralBalanceQuery {
    /// The asset filter: only this asset's balance (none: every asset's).
    #[request(of, text)]
    ticker: Option<Ticker>,
}

impl CollateralBalanceQuery {
    /// Every asset's balance.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The collateral balance of each asset: `{"BTC": 1, "USDT": 1000, "ETH": 5.5}`, each amount
/// kept exactly as written (the docs send JSON numbers; strings are read too).
///
/// ```
/// let b: txc_types::positions::CollateralBalance =
///     serde_json::from_str(r#"{"BTC":1,"USDT":1000,"ETH":5.5,"XRP":"x"}"#)?;
/// assert_eq!(b.get("ETH").map(|d| d.as_str()), Some("5.5"));
/// assert_eq!(b.balances.len(), 3);
/// assert_eq!(b.extra["XRP"], "x"); // not a number: kept, never dropped
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct CollateralBalance {
    /// Each asset's balance in its own units, by ticker (as sent, not checked by
    /// [`Ticker`]'s request rule). Written back as the one object the exchange sends.
    #[serde(flatten)]
    pub balances: BTreeMap<Ticker, ExactDecimal>,
    /// Entries whose value is not a number, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl CollateralBalance {
    /// The balance of `ticker`, if listed.
    pub fn get(&self, ticker: &str) -> Option<&ExactDecimal> {
        self.balances.get(ticker)
    }
}

impl<'de> Deserialize<'de> for CollateralBalance {
    /// An object of ticker → amount (PHP's `[]` for an empty one); decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = raw.get().trim();
        if crate::lenient::is_empty_array(text)? {
            return Ok(Self::default());
        }
        let listed: BTreeMap<String, &RawValue> =
            serde_json::from_str(text).map_err(D::Error::custom)?;
        let mut balance = Self::default();
        for (ticker, value) in listed {
            match crate::lenient::from_raw::<ExactDecimal>(value.get()) {
                Some(amount) => {
                    balance.balances.insert(Ticker::unchecked(ticker), amount);
                }
                None => {
                    let kept = serde_json::from_str(value.get()).unwrap_or(Value::Null);
                    balance.extra.insert(ticker, kept);
                }
            }
        }
        Ok(balance)
    }
}
