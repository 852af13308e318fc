//! [`FundingPayment`]: one record of the funding history.

use std::cmp::Ordering;

use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::orders::PositionSide;
use crate::values::{ExactDecimal, Market, Timestamp};

/// A funding payment of one position, as `POST /api/v4/collateral-account/funding-history`
/// lists it: the rate applied, the settlement (mark) price and the position's amount it was
/// applied to, and the payment.
///
/// Signs, as the spec's examples show them: [`position_amount`](Self::position_amount) is
/// positive for a long position and negative for a short one, and
/// [`funding_amount`](Self::funding_amount) is what the account received — negative when it
/// paid. A positive rate makes longs pay and shorts receive. The payment is
/// `−positionAmount × settlementPrice × fundingRate`
/// ([`positions::funding::payment`](crate::positions::funding::payment)).
///
/// The market is required; the rest are `Option`s (a `null` reads as absent). The times
/// arrive as strings of Unix seconds and read as [`Timestamp`]s.
///
/// ```
/// use txc_types::orders::PositionSide;
/// let p: txc_types::positions::FundingPayment = serde_json::from_str(r#"{"market":"BTC_PERP",
///     "fundingTime":"1734451200","fundingRate":"0.00017674","fundingAmount":"-0.171053531892",
///     "positionAmount":"0.019","settlementPrice":"50938.2","rateCalculatedTime":"1734364800"}"#)?;
/// assert_eq!(p.funding_time.as_ref().map(|t| t.unix_seconds()), Some(1_734_451_200));
/// assert_eq!(p.side(), Some(PositionSide::Long));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a funding history record")]
#[non_exhaustive]
pub struct FundingPayment {
    /// The market, as sent.
    pub market: Market,
    /// When the funding was settled.
    pub funding_time: Option<Timestamp>,
    /// The funding rate applied.
    pub funding_rate: Option<ExactDecimal>,
    /// What the account received (negative: paid), in the market's money currency.
    pub funding_amount: Option<ExactDecimal>,
    /// The position's amount at the funding time: positive long, negative short.
    pub position_amount: Option<ExactDecimal>,
    /// The price the funding was computed at (the mark price at settlement).
    pub settlement_price: Option<ExactDecimal>,
    /// When the rate was computed, before the settlement.
    pub rate_calculated_time: Option<Timestamp>,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl FundingPayment {
    /// The position's direction, from the sign of its amount: `Long` for a positive one,
    /// `Short` for a negative one; `None` for a zero or missing amount.
    pub fn side(&self) -> Option<PositionSide> {
        let zero = ExactDecimal::new("0").ok()?;
        match self.position_amount.as_ref()?.cmp(&zero) {
            Ordering::Greater => Some(PositionSide::Long),
            Ordering::Less => Some(PositionSide::Short),
            Ordering::Equal => None,
        }
    }
}
