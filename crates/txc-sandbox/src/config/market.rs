//! Markets as configured: [`MarketConfig`] (a builder, checked when the sandbox starts) and
//! the checked [`MarketSpec`].

use rust_decimal::Decimal;

use super::error::SandboxError;
use crate::wire::{self, decimal};

/// A market of the sandbox: its current price and order rules.
///
/// Defaults: minimum amount `0.001`, amount step `0.000001`, taker fee `0.001` (0.1 %),
/// collateral currency `USDT`.
///
/// ```
/// use txc_sandbox::MarketConfig;
/// let market = MarketConfig::new("SOL_USDT", "150")
///     .min_amount("0.1")
///     .amount_step("0.01")
///     .taker_fee("0.0005");
/// assert_eq!(market.name(), "SOL_USDT");
/// ```
#[derive(Debug, Clone)]
pub struct MarketConfig {
    name: String,
    price: String,
    min_amount: String,
    amount_step: String,
    taker_fee: String,
    collateral: String,
}

impl MarketConfig {
    /// A market `name` (e.g. `BTC_PERP`) at `price`.
    pub fn new(name: impl Into<String>, price: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            price: price.into(),
            min_amount: "0.001".to_owned(),
            amount_step: "0.000001".to_owned(),
            taker_fee: "0.001".to_owned(),
            collateral: "USDT".to_owned(),
        }
    }

    /// The smallest order amount (code 32 below it).
    #[must_use]
    pub fn min_amount(mut self, min: impl Into<String>) -> Self {
        self.min_amount = min.into();
        self
    }

    /// Every amount must be a multiple of this step (code 32 otherwise).
    #[must_use]
    pub fn amount_step(mut self, step: impl Into<String>) -> Self {
        self.amount_step = step.into();
        self
    }

    /// The taker fee rate, e.g. `0.001` for 0.1 %; charged in the collateral currency.
    #[must_use]
    pub fn taker_fee(mut self, fee: impl Into<String>) -> Self {
        self.taker_fee = fee.into();
        self
    }

    /// The collateral (margin) currency whose balance pays margin and fees. Default `USDT`.
    #[must_use]
    pub fn collateral(mut self, ticker: impl Into<String>) -> Self {
        self.collateral = ticker.into();
        self
    }

    /// The market's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn validate(&self) -> Result<MarketSpec, SandboxError> {
        let bad = |reason: String| SandboxError::Config {
            what: format!("market {}", self.name),
            reason,
        };
        let Some((stock, _)) = self
            .name
            .split_once('_')
            .filter(|_| wire::is_market_name(&self.name))
        else {
            return Err(bad("the name is not of the form BASE_QUOTE".to_owned()));
        };
        let positive = |field: &str, text: &str| {
            decimal::parse_positive(text)
                .ok_or_else(|| bad(format!("{field} {text:?} is not a positive plain decimal")))
        };
        let fee = decimal::parse(&self.taker_fee).ok_or_else(|| {
            bad(format!(
                "taker fee {:?} is not a plain decimal",
                self.taker_fee
            ))
        })?;
        if fee >= Decimal::ONE {
            return Err(bad("taker fee must be below 1".to_owned()));
        }
        if self.collateral.is_empty() {
            return Err(bad("empty collateral ticker".to_owned()));
        }
        Ok(MarketSpec {
            name: self.name.clone(),
            stock: stock.to_owned(),
            price: positive("price", &self.price)?,
            min_amount: positive("min amount", &self.min_amount)?,
            amount_step: positive("amount step", &self.amount_step)?,
            taker_fee: fee,
            collateral: self.collateral.clone(),
        })
    }
}

/// A validated market.
#[derive(Debug, Clone)]
pub(crate) struct MarketSpec {
    pub(crate) name: String,
    pub(crate) stock: String,
    /// The starting price (the current one is the state's).
    pub(crate) price: Decimal,
    pub(crate) min_amount: Decimal,
    pub(crate) amount_step: Decimal,
    pub(crate) taker_fee: Decimal,
    pub(crate) collateral: String,
}
