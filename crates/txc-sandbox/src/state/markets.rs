//! Markets: the fixed terms orders are checked against (the current prices are the state's).

use std::collections::HashMap;

use rust_decimal::Decimal;

use crate::answer::Rejection;
use crate::config::MarketSpec;
use crate::decimal;

/// Every market, by name.
#[derive(Debug, Default)]
pub(crate) struct Markets {
    by_name: HashMap<String, MarketSpec>,
}

impl Markets {
    /// The markets of a configuration.
    pub(crate) fn new(specs: &[MarketSpec]) -> Self {
        Self {
            by_name: specs.iter().map(|m| (m.name.clone(), m.clone())).collect(),
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<&MarketSpec> {
        self.by_name.get(name)
    }

    /// The collateral currency of the markets: the one in the name order's first market
    /// (`USDT` for every default market), `USDT` without markets.
    pub(crate) fn collateral(&self) -> &str {
        self.by_name
            .iter()
            .min_by(|a, b| a.0.cmp(b.0))
            .map_or("USDT", |(_, m)| m.collateral.as_str())
    }

    /// Every stock and collateral ticker of the markets.
    pub(crate) fn tickers(&self) -> impl Iterator<Item = &str> {
        self.by_name
            .values()
            .flat_map(|m| [m.stock.as_str(), m.collateral.as_str()])
    }
}

/// Code 32 unless `amount` is at least the minimum and a multiple of the step.
pub(crate) fn check_amount(market: &MarketSpec, amount: Decimal) -> Result<(), Rejection> {
    let mut errors = Vec::new();
    if amount < market.min_amount {
        errors.push(format!(
            "Given amount is less than min amount {}",
            decimal::text(market.min_amount)
        ));
    }
    let on_step = amount
        .checked_rem(market.amount_step)
        .is_some_and(|r| r.is_zero());
    if !on_step {
        errors.push(format!(
            "Min amount step = {}",
            decimal::text(market.amount_step)
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Rejection::validation(32, "amount", errors))
    }
}
