//! [`Config`]: everything the builder configured, checked — what a sandbox starts from and
//! [`crate::Sandbox::reset`] returns to — and [`ByKey`], something of each configured account.

use std::collections::HashMap;

use super::account::AccountSpec;
use super::flex_plan::FlexPlanSpec;
use super::market::MarketSpec;
use super::settings::Settings;
use crate::wire::PlanRecord;

/// Everything the builder configured, validated: the state [`crate::Sandbox::reset`] returns to.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) accounts: Vec<AccountSpec>,
    pub(crate) markets: Vec<MarketSpec>,
    pub(crate) plans: Vec<PlanRecord>,
    /// The flexible lending plans.
    pub(crate) flex_plans: Vec<FlexPlanSpec>,
    /// The settings taken as given.
    pub(crate) settings: Settings,
}

/// Something of each configured account, by its API key: what authentication knows of the
/// keys (`crate::auth`), the accounts' live state (`crate::state`).
#[derive(Debug)]
pub(crate) struct ByKey<V>(HashMap<String, V>);

impl<V> ByKey<V> {
    /// `each` of `accounts`.
    pub(crate) fn new(accounts: &[AccountSpec], each: impl Fn(&AccountSpec) -> V) -> Self {
        Self(
            accounts
                .iter()
                .map(|a| (a.api_key.clone(), each(a)))
                .collect(),
        )
    }

    /// What `api_key` has, if it is one of the sandbox's keys.
    pub(crate) fn get(&self, api_key: &str) -> Option<&V> {
        self.0.get(api_key)
    }

    /// What `api_key` has, to change.
    pub(crate) fn get_mut(&mut self, api_key: &str) -> Option<&mut V> {
        self.0.get_mut(api_key)
    }

    /// Every account's.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.0.values()
    }
}
