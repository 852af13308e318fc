//! [`Keys`]: what authentication knows about each API key — the signing key, whether it is
//! enabled, whether it is a B2B partner's, whether it may use flexible lending. Fixed by the
//! configuration, so it is read without the state's lock.

use crate::config::SigningKey;
use crate::config::{AccountSpec, ByKey};

/// One API key's standing.
#[derive(Debug, Clone)]
pub(crate) struct Key {
    /// HMAC-SHA512 keyed with the account's secret.
    pub(crate) signing: SigningKey,
    /// A disabled key is answered with code 2.
    pub(crate) enabled: bool,
    /// Whether the key may list smart plans.
    pub(crate) partner: bool,
    /// Whether flexible lending is enabled on the key's account.
    pub(crate) flex_lending: bool,
}

/// Every configured API key.
pub(crate) type Keys = ByKey<Key>;

impl Key {
    /// The standing of `account`'s key.
    pub(crate) fn of(account: &AccountSpec) -> Self {
        Self {
            signing: account.signing.clone(),
            enabled: account.terms.enabled,
            partner: account.terms.partner,
            flex_lending: account.terms.flex_lending,
        }
    }
}
