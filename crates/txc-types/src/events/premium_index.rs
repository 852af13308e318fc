//! [`PremiumIndexes`]: a `premiumIndex_update` — mark price, index price and funding per
//! perpetual market.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::EventDecodeError;
use super::positional::Elements;
use crate::values::{ExactDecimal, Market, Timestamp};

const METHOD: &str = "premiumIndex_update";

/// A `premiumIndex_update` (public channel `premiumIndex_subscribe`, every 0.5 s): subscribed
/// with no market, one push holds every perpetual market's record (`params` an array of
/// records); subscribed to named markets, each market comes in its own push (`params` one
/// record, with the server's time as a sixth element). Both read to a list of records.
///
/// ```
/// use txc_types::events::PremiumIndexes;
/// let all = PremiumIndexes::from_params(r#"[["BTC_PERP","10000","10003","0.1",9999999]]"#)?;
/// assert_eq!(all.records[0].mark_price.as_str(), "10000");
/// let one = PremiumIndexes::from_params(r#"["BTC_PERP","10000","10003","0.1",9999999,1779892807.794]"#)?;
/// assert_eq!(one.records[0].server_time.as_ref().map(|t| t.unix_seconds()), Some(1779892807));
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PremiumIndexes {
    /// The records, one per market.
    pub records: Vec<PremiumIndex>,
}

/// One perpetual market's premium index record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PremiumIndex {
    /// The market, e.g. `BTC_PERP`.
    pub market: Market,
    /// The mark price: what margin, PnL, liquidation and ADL are computed from.
    pub mark_price: ExactDecimal,
    /// The index price (reference spot price).
    pub index_price: ExactDecimal,
    /// The funding rate, from -0.1 to 0.1.
    pub funding_rate: ExactDecimal,
    /// When the next funding settles, as the exchange wrote it: seconds by the docs, though a
    /// probe saw milliseconds ([`next_funding_seconds`](Self::next_funding_seconds) reads
    /// either).
    pub next_funding: Option<Timestamp>,
    /// When the server sent the push (a per-market push only).
    pub server_time: Option<Timestamp>,
    /// Elements past the known ones, or values no spelling fits, kept under their position.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

impl PremiumIndex {
    /// The next funding settlement in Unix seconds, whether the exchange wrote seconds or
    /// milliseconds (a value past year 5000 in seconds is read as milliseconds).
    pub fn next_funding_seconds(&self) -> Option<u64> {
        const MS_FROM: u64 = 100_000_000_000;
        let raw = self.next_funding.as_ref()?.unix_seconds();
        Some(if raw >= MS_FROM { raw / 1000 } else { raw })
    }

    fn from_record(text: &str) -> Result<Self, EventDecodeError> {
        let mut e = Elements::new(text, METHOD)?;
        let record = Self {
            market: e.require(0, "market")?,
            mark_price: e.require(1, "mark_price")?,
            index_price: e.require(2, "futures_index_price")?,
            funding_rate: e.require(3, "futures_funding_rate")?,
            next_funding: e.get(4),
            server_time: e.get(5),
            extra: Map::new(),
        };
        Ok(Self {
            extra: e.finish(6),
            ..record
        })
    }
}

impl PremiumIndexes {
    /// Reads the update's `params`: an array of records, or one record.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        let items: Vec<&RawValue> = serde_json::from_str(params)
            .map_err(|e| EventDecodeError::new(METHOD, format!("not an array: {e}")))?;
        let is_list = items
            .first()
            .is_some_and(|first| first.get().trim_start().starts_with('['));
        let records = if is_list {
            items
                .iter()
                .map(|item| PremiumIndex::from_record(item.get()))
                .collect::<Result<_, _>>()?
        } else {
            vec![PremiumIndex::from_record(params)?]
        };
        Ok(Self { records })
    }
}
