//! What the two answers grouped by market share — the order history and the executed
//! deals: reading `{"BTC_USDT": [...], ...}` with each record's market filled in from its
//! key, and the "not found" error a `clientOrderId` look-up of either is answered with.
//!
//! Not an endpoint: see [`OrderHistory`](super::OrderHistory) and
//! [`ExecutedDeals`](super::ExecutedDeals).

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;

use crate::values::Market;
use crate::values::text::Unchecked;

/// The lists of `text`, an object of market → records, each record given its market by
/// `place` (decoded by the crate's leniency rule).
pub(super) fn grouped<T: DeserializeOwned>(
    text: &str,
    place: impl Fn(&mut T, &Market),
) -> Result<BTreeMap<Market, Vec<T>>, serde_json::Error> {
    let listed: BTreeMap<String, Vec<T>> = serde_json::from_str(text)?;
    Ok(listed
        .into_iter()
        .map(|(name, mut records)| {
            let market = Market::unchecked(name);
            for record in &mut records {
                place(record, &market);
            }
            (market, records)
        })
        .collect())
}

/// HTTP 4xx, code 30, field `orderHistory` (`OrderHistory was not found.`): nothing matched
/// the `clientOrderId` — an empty answer.
pub(super) fn not_found<T: Default>(
    status: u16,
    code: Option<i64>,
    errors: &BTreeMap<String, Vec<String>>,
) -> Option<T> {
    ((400..500).contains(&status) && code == Some(30) && errors.contains_key("orderHistory"))
        .then(T::default)
}
