//! [`MarginBalances`]: a `balanceMargin_update` — collateral balances that changed.

use serde::Serialize;
use serde_json::{Map, Value};
use txc_derive::Answer;

use super::EventDecodeError;
use crate::values::{ExactDecimal, Ticker};

/// The collateral balance of one asset, with the stream's abbreviated keys (`a`, `B`, `b`,
/// `av`, `ab`).
///
/// ```
/// let b: txc_types::events::MarginBalance = serde_json::from_str(
///     r#"{"a":"USDT","B":"0.00538073","b":"0","av":"0.00538073","ab":"28.43739825"}"#,
/// )?;
/// assert_eq!((b.asset.as_str(), b.balance.as_str()), ("USDT", "0.00538073"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a margin balance object")]
#[non_exhaustive]
pub struct MarginBalance {
    /// The asset (`a`).
    #[serde(rename = "a")]
    pub asset: Ticker,
    /// The total on the collateral balance (`B`).
    #[serde(rename = "B")]
    pub balance: ExactDecimal,
    /// The borrowed amount (`b`).
    #[serde(rename = "b")]
    pub borrow: Option<ExactDecimal>,
    /// Available to transfer without borrowing (`av`).
    #[serde(rename = "av")]
    pub available_without_borrow: Option<ExactDecimal>,
    /// Available to transfer with borrowing (`ab`).
    #[serde(rename = "ab")]
    pub available_with_borrow: Option<ExactDecimal>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An update of the `balanceMargin` channel: the balances of the subscribed assets that
/// changed, each with its new values (not a difference).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
#[non_exhaustive]
pub struct MarginBalances {
    /// The balances, in the order sent.
    pub balances: Vec<MarginBalance>,
}

impl MarginBalances {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        serde_json::from_str(params)
            .map(|balances| Self { balances })
            .map_err(|e| EventDecodeError::new("balanceMargin_update", e.to_string()))
    }
}
