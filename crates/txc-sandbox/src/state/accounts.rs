//! Accounts: credentials, permissions, position mode, leverage and collateral balances.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use crate::config::{AccountSpec, ByKey, PositionMode};

/// One account's live state.
#[derive(Debug, Clone)]
pub(crate) struct Account {
    pub(crate) spec: AccountSpec,
    pub(crate) balances: BTreeMap<String, Decimal>,
    /// The main account's balances: what smart investments are paid from and back into.
    pub(crate) main: BTreeMap<String, Decimal>,
}

impl Account {
    /// The balance of `ticker` (zero when never set).
    pub(crate) fn balance(&self, ticker: &str) -> Decimal {
        self.balances.get(ticker).copied().unwrap_or_default()
    }

    /// The account's position mode.
    pub(crate) fn mode(&self) -> PositionMode {
        self.spec.terms.mode
    }
}

/// Every account, by API key.
pub(crate) type Accounts = ByKey<Account>;

impl Account {
    /// The live state `spec` starts from.
    pub(crate) fn of(spec: &AccountSpec) -> Self {
        Self {
            spec: spec.clone(),
            balances: spec.balances.clone(),
            main: spec.main_balances.clone(),
        }
    }
}

impl Accounts {
    /// Every ticker any account holds.
    pub(crate) fn tickers(&self) -> impl Iterator<Item = &str> {
        self.values()
            .flat_map(|a| a.balances.keys().chain(a.main.keys()).map(String::as_str))
    }
}
