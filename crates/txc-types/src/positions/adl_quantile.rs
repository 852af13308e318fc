//! `POST /api/v4/collateral-account/adl-quantile`: how close each of the account's perpetual
//! positions is to being auto-deleveraged.

use serde::Serialize;
use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use crate::lenient::{FromWire, Scalar};
use crate::values::Market;

/// Reads the account's auto-deleveraging (ADL) quantiles: one record per perpetual market
/// (`_PERP`) where it holds a position ([`MarketAdlQuantile`]); spot and margin markets are
/// not listed, and the answer is `[]` without a perpetual position. It has no fields.
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::positions::AdlQuantileQuery;
/// assert_eq!(AdlQuantileQuery::PATH, "/api/v4/collateral-account/adl-quantile");
/// assert_eq!(serde_json::to_string(&AdlQuantileQuery).unwrap(), "{}");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/adl-quantile",
    operation = "adl_quantile",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<MarketAdlQuantile>,
)]
pub struct AdlQuantileQuery;

/// The ADL quantiles of the account's position in one perpetual market: one for the long
/// side, one for the short side, each `None` when the account has no exposure on that side.
///
/// ```
/// let q: Vec<txc_types::positions::MarketAdlQuantile> = serde_json::from_str(
///     r#"[{"market":"BTC_PERP","long":0,"short":null},{"market":"ETH_PERP","long":2,"short":1}]"#,
/// )?;
/// assert_eq!(q[0].long.map(|q| q.get()), Some(0));
/// assert_eq!(q[0].short, None);
/// assert_eq!(q[1].short.map(|q| q.get()), Some(1));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "an ADL quantile object")]
#[non_exhaustive]
pub struct MarketAdlQuantile {
    /// The perpetual market (`BASE_PERP`), as sent.
    pub market: Market,
    /// The long side's quantile; `None` without a long exposure.
    pub long: Option<AdlQuantile>,
    /// The short side's quantile; `None` without a short exposure.
    pub short: Option<AdlQuantile>,
    /// Fields this version does not know, and values that are not a quantile (an integer
    /// from 0 to 4), as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A position's place in its market's auto-deleveraging queue, from 0 to 4: `0` is the
/// lowest priority (the safest place), `4` the highest — the most likely to be picked as the
/// counterparty when a liquidation exhausts the order book.
///
/// ```
/// use txc_types::positions::AdlQuantile;
/// assert_eq!(AdlQuantile::new(4).map(AdlQuantile::get), Some(4));
/// assert_eq!(AdlQuantile::new(5), None);
/// assert!(AdlQuantile::HIGHEST > AdlQuantile::LOWEST);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "u8")]
pub struct AdlQuantile(u8);

impl AdlQuantile {
    /// `0`: the lowest deleveraging priority.
    pub const LOWEST: Self = Self(0);
    /// `4`: the highest deleveraging priority.
    pub const HIGHEST: Self = Self(4);

    /// The quantile `value`, if it is from 0 to 4.
    pub fn new(value: u8) -> Option<Self> {
        (value <= Self::HIGHEST.0).then_some(Self(value))
    }

    /// The quantile, from 0 to 4.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl From<AdlQuantile> for u8 {
    fn from(q: AdlQuantile) -> Self {
        q.0
    }
}

impl FromWire for AdlQuantile {
    /// An integer from 0 to 4, as a number or a string.
    #[inline]
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        u64::from_wire(value)
            .and_then(|n| u8::try_from(n).ok())
            .and_then(Self::new)
    }
}

impl MarketAdlQuantile {
    /// A record of its parts (the stream's `[market, long, short]`).
    pub(crate) fn from_parts(
        market: Market,
        long: Option<AdlQuantile>,
        short: Option<AdlQuantile>,
        extra: Map<String, Value>,
    ) -> Self {
        Self {
            market,
            long,
            short,
            extra,
        }
    }
}
