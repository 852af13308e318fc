//! [`MarketRule`]: the one reading of the request bodies checked against the markets.

use serde_json::{Map, Value};

use crate::config::Markets;
use crate::wire::Rejection;

/// A request read from a body's fields with the sandbox's markets at hand (the cancels, the
/// look-ups by market, close, the kill switch): implemented once per request type, so each of
/// these endpoints' rules step is the one generic reading of it.
pub(crate) trait MarketRule: Sized {
    /// The request `map`'s fields make, or the exchange's rejection.
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection>;
}
