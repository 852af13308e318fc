//! [`AdlQuantiles`]: an `ADLQuantile_update` — the account's ADL quantiles per perpetual
//! market, each record a 3-element array.

use serde::Serialize;
use serde_json::value::RawValue;

use super::EventDecodeError;
use super::positional::Elements;
use crate::positions::MarketAdlQuantile;

const METHOD: &str = "ADLQuantile_update";

/// An `ADLQuantile_update` (private channel `ADLQuantile_subscribe`): one record per market —
/// every futures market with a position when subscribed with no market, pushed at once and
/// then every 30 s. Each record is `[market, quantile_long, quantile_short]`, each quantile
/// `0`–`4` or `null` (no exposure on that side), read into the REST look-up's record
/// ([`MarketAdlQuantile`]).
///
/// ```
/// use txc_types::events::AdlQuantiles;
/// let update = AdlQuantiles::from_params(r#"[["BTC_PERP",null,4]]"#)?;
/// let record = &update.records[0];
/// assert_eq!(record.market.as_str(), "BTC_PERP");
/// assert_eq!(record.long, None);
/// assert_eq!(record.short.map(|q| q.get()), Some(4));
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct AdlQuantiles {
    /// The records, one per market.
    pub records: Vec<MarketAdlQuantile>,
}

impl AdlQuantiles {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        let items: Vec<&RawValue> = serde_json::from_str(params)
            .map_err(|e| EventDecodeError::new(METHOD, format!("not an array: {e}")))?;
        let mut records = Vec::with_capacity(items.len());
        for item in items {
            let mut e = Elements::new(item.get(), METHOD)?;
            let market = e.require(0, "market")?;
            let long = e.get(1);
            let short = e.get(2);
            records.push(MarketAdlQuantile::from_parts(
                market,
                long,
                short,
                e.finish(3),
            ));
        }
        Ok(Self { records })
    }
}
