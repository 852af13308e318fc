//! [`Keys`]: what authentication knows about each API key — the signing key, whether it is
//! enabled, whether it is a B2B partner's. Fixed by the configuration, so it is read without
//! the state's lock.

use std::collections::HashMap;

use crate::config::AccountSpec;
use crate::secret::SigningKey;

/// One API key's standing.
#[derive(Debug, Clone)]
pub(crate) struct Key {
    /// HMAC-SHA512 keyed with the account's secret.
    pub(crate) signing: SigningKey,
    /// A disabled key is answered with code 2.
    pub(crate) enabled: bool,
    /// Whether the key may list smart plans.
    pub(crate) partner: bool,
}

/// Every configured API key.
#[derive(Debug, Default)]
pub(crate) struct Keys {
    by_key: HashMap<String, Key>,
}

impl Keys {
    /// The keys of the configured accounts.
    pub(crate) fn new(accounts: &[AccountSpec]) -> Self {
        let by_key = accounts
            .iter()
            .map(|a| {
                (
                    a.api_key.clone(),
                    Key {
                        signing: a.signing.clone(),
                        enabled: a.enabled,
                        partner: a.partner,
                    },
                )
            })
            .collect();
        Self { by_key }
    }

    /// The standing of `api_key`, if it is one of the sandbox's keys.
    pub(crate) fn get(&self, api_key: &str) -> Option<&Key> {
        self.by_key.get(api_key)
    }
}
