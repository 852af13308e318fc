//! [`PriceStep`]: one step of a scripted price path — the price a market moves to and, if
//! given, how much the move trades through the book.

use rust_decimal::Decimal;

use super::error::SandboxError;
use crate::wire::decimal;

/// One step of a price path ([`crate::Sandbox::follow_price_path`],
/// [`crate::Sandbox::play_price_path`], `POST /sandbox/v1/price-path`): the price the market
/// moves to and the volume the move trades.
///
/// A move executes the resting limit orders the new price crosses (bids at or above it, asks
/// at or below it), best price first, then oldest, each at its own price as maker. Without a
/// volume every crossed order executes in full; with one, only that much stock is traded
/// through them — the last one reached executes in part, the rest stay crossed and execute on
/// a later move. Then the stop orders the price reached activate.
///
/// ```
/// use txc_sandbox::PriceStep;
/// let path = [PriceStep::to("64000"), PriceStep::to("63500").volume("0.25")];
/// assert_eq!(path[1].price(), "63500");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceStep {
    price: String,
    volume: Option<String>,
}

impl PriceStep {
    /// A move to `price` (a positive plain decimal) trading through every order it crosses.
    pub fn to(price: impl Into<String>) -> Self {
        Self {
            price: price.into(),
            volume: None,
        }
    }

    /// Trades at most `volume` (a non-negative plain decimal, in the stock currency) through
    /// the orders the move crosses.
    #[must_use]
    pub fn volume(mut self, volume: impl Into<String>) -> Self {
        self.volume = Some(volume.into());
        self
    }

    /// The price it moves to, as given.
    pub fn price(&self) -> &str {
        &self.price
    }

    /// The price and the volume, read.
    pub(crate) fn parse(&self) -> Result<(Decimal, Option<Decimal>), SandboxError> {
        let price =
            decimal::parse_positive(&self.price).ok_or_else(|| SandboxError::InvalidValue {
                field: "price",
                value: self.price.clone(),
                reason: "not a positive plain decimal",
            })?;
        let volume = self
            .volume
            .as_deref()
            .map(|v| {
                decimal::parse(v).ok_or_else(|| SandboxError::InvalidValue {
                    field: "volume",
                    value: v.to_owned(),
                    reason: "not a non-negative plain decimal",
                })
            })
            .transpose()?;
        Ok((price, volume))
    }
}
