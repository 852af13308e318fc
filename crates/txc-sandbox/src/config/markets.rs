//! [`Markets`]: every configured market's fixed terms, by name — what the rules check bodies
//! against and the state trades on, read without the state's lock (the current prices are the
//! state's).

use std::collections::HashMap;

use super::market::MarketSpec;

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

    /// Every market, in name order.
    pub(crate) fn in_name_order(&self) -> Vec<&MarketSpec> {
        let mut all: Vec<&MarketSpec> = self.by_name.values().collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
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
