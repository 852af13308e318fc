//! Accounts: credentials, permissions, position mode, leverage and collateral balances.

use std::collections::{BTreeMap, HashMap};

use rust_decimal::Decimal;

use crate::config::{AccountSpec, PositionMode};

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
        self.spec.mode
    }
}

/// Every account, by API key.
#[derive(Debug, Default)]
pub(crate) struct Accounts {
    by_key: HashMap<String, Account>,
}

impl Accounts {
    /// The accounts of a configuration.
    pub(crate) fn new(specs: &[AccountSpec]) -> Self {
        let by_key = specs
            .iter()
            .map(|spec| {
                (
                    spec.api_key.clone(),
                    Account {
                        spec: spec.clone(),
                        balances: spec.balances.clone(),
                        main: spec.main_balances.clone(),
                    },
                )
            })
            .collect();
        Self { by_key }
    }

    pub(crate) fn get(&self, api_key: &str) -> Option<&Account> {
        self.by_key.get(api_key)
    }

    pub(crate) fn get_mut(&mut self, api_key: &str) -> Option<&mut Account> {
        self.by_key.get_mut(api_key)
    }

    /// Every ticker any account holds.
    pub(crate) fn tickers(&self) -> impl Iterator<Item = &str> {
        self.by_key
            .values()
            .flat_map(|a| a.balances.keys().chain(a.main.keys()).map(String::as_str))
    }
}
