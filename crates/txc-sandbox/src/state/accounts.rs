//! Accounts: permissions, position mode, leverage, collateral and main balances — and the
//! control API's setting of a balance.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::State;
use crate::config::{AccountSpec, ByKey, PositionMode, SandboxError};
use crate::wire::decimal;

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

impl State {
    /// Sets the `ticker` balance of `api_key`.
    pub(crate) fn set_balance(
        &mut self,
        api_key: &str,
        ticker: &str,
        amount: &str,
    ) -> Result<(), SandboxError> {
        let value = balance_value(amount)?;
        if ticker.is_empty() {
            return Err(SandboxError::InvalidValue {
                field: "ticker",
                value: String::new(),
                reason: "empty",
            });
        }
        self.account_mut(api_key)?
            .balances
            .insert(ticker.to_owned(), value);
        self.account_changed(api_key);
        self.settle_risk();
        Ok(())
    }

    /// Sets the main balance of `ticker` (a non-negative plain decimal) of `api_key`.
    pub(crate) fn set_main_balance(
        &mut self,
        api_key: &str,
        ticker: &str,
        amount: &str,
    ) -> Result<(), SandboxError> {
        let value = balance_value(amount)?;
        self.account_mut(api_key)?
            .main
            .insert(ticker.to_owned(), value);
        Ok(())
    }

    /// `api_key`'s account, to change through the control API.
    fn account_mut(&mut self, api_key: &str) -> Result<&mut Account, SandboxError> {
        self.accounts
            .get_mut(api_key)
            .ok_or_else(|| SandboxError::UnknownAccount(api_key.to_owned()))
    }
}

/// A balance set through the control API: a non-negative plain decimal.
fn balance_value(amount: &str) -> Result<Decimal, SandboxError> {
    decimal::parse(amount).ok_or_else(|| SandboxError::InvalidValue {
        field: "amount",
        value: amount.to_owned(),
        reason: "not a non-negative plain decimal",
    })
}
