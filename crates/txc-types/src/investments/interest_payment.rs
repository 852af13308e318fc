//! [`InterestPayment`]: one record of the interest payment history.

use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::values::{ExactDecimal, Ticker, Timestamp};

/// An interest payment, as `POST /api/v4/main-account/smart/interest-payment-history` lists
/// it: which plan and investment, how much of which currency, and when.
///
/// ```
/// let p: txc_types::investments::InterestPayment = serde_json::from_str(
///     r#"{"planId":"8e667b4a","investmentId":"0d7b66ff","amount":"10","ticker":"USDT",
///         "timestamp":1646839596}"#,
/// )?;
/// assert_eq!((p.investment_id.as_str(), p.amount.as_str()), ("0d7b66ff", "10"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an interest payment object")]
#[non_exhaustive]
pub struct InterestPayment {
    /// The plan's id.
    pub plan_id: String,
    /// The investment's id.
    pub investment_id: String,
    /// The interest paid, in [`ticker`](Self::ticker).
    pub amount: ExactDecimal,
    /// The currency it was paid in (the plan's `interestTicker`), as sent.
    pub ticker: Ticker,
    /// When it was paid (Unix seconds).
    pub timestamp: Timestamp,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
