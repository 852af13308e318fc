//! Accounts as configured: [`AccountConfig`] (a builder, checked when the sandbox starts),
//! [`PositionMode`], and the checked [`AccountSpec`] a sandbox starts from.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::error::SandboxError;
use super::secret::{ApiSecret, SigningKey};
use crate::wire::decimal;

/// How an account holds positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum PositionMode {
    /// One net position per market; orders answer `positionSide: "BOTH"`.
    #[default]
    OneWay,
    /// A long and a short position per market; orders must say `LONG` or `SHORT` (code 114).
    Hedge,
}

impl PositionMode {
    /// `oneWay` or `hedge`, as the control API shows it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OneWay => "oneWay",
            Self::Hedge => "hedge",
        }
    }
}

/// An API key of the sandbox and the collateral account behind it.
///
/// Defaults: enabled, not a B2B partner, flexible lending enabled, one-way mode, leverage
/// 10, RPI orders allowed, no balances.
///
/// ```
/// use txc_sandbox::{AccountConfig, PositionMode};
/// let account = AccountConfig::new("my-key", "my-secret")
///     .partner(true)
///     .position_mode(PositionMode::Hedge)
///     .leverage(5)
///     .balance("USDT", "2500");
/// assert_eq!(account.api_key(), "my-key");
/// assert!(!format!("{account:?}").contains("my-secret"));
/// ```
#[derive(Debug, Clone)]
pub struct AccountConfig {
    api_key: String,
    /// Printed as `<redacted>`.
    api_secret: ApiSecret,
    terms: AccountTerms,
    leverage: u32,
    balances: Vec<(String, String)>,
    main_balances: Vec<(String, String)>,
}

/// What an account is configured with and keeps as given, with nothing to check: held by the
/// [`AccountConfig`] and, unchanged, by its validated [`AccountSpec`].
#[derive(Debug, Clone)]
pub(crate) struct AccountTerms {
    /// A disabled key is answered with code 2.
    pub(crate) enabled: bool,
    /// Whether the key is a B2B partner's (may list smart plans).
    pub(crate) partner: bool,
    pub(crate) mode: PositionMode,
    /// Whether the order history shows the account's canceled orders.
    pub(crate) canceled_in_history: bool,
    /// Whether the account may hold only one active investment per plan.
    pub(crate) one_investment_per_plan: bool,
    /// Whether the account may place RPI orders (code 43 otherwise).
    pub(crate) rpi: bool,
    /// Whether flexible lending is enabled on the account (else its endpoints answer 403).
    pub(crate) flex_lending: bool,
}

impl AccountConfig {
    /// An enabled, non-partner, one-way account with leverage 10 and no balances.
    pub fn new(api_key: impl Into<String>, api_secret: impl Into<String>) -> Self {
        Self {
            api_key: api_key.into(),
            api_secret: ApiSecret::new(api_secret.into()),
            terms: AccountTerms {
                enabled: true,
                partner: false,
                mode: PositionMode::OneWay,
                canceled_in_history: true,
                one_investment_per_plan: false,
                rpi: true,
                flex_lending: true,
            },
            leverage: 10,
            balances: Vec::new(),
            main_balances: Vec::new(),
        }
    }

    /// Whether the key is a B2B partner's (may list smart plans). Default `false`.
    #[must_use]
    pub fn partner(mut self, partner: bool) -> Self {
        self.terms.partner = partner;
        self
    }

    /// Whether the key is enabled. A disabled key is answered with code 2. Default `true`.
    #[must_use]
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.terms.enabled = enabled;
        self
    }

    /// One-way or hedge mode. Default one-way.
    #[must_use]
    pub fn position_mode(mut self, mode: PositionMode) -> Self {
        self.terms.mode = mode;
        self
    }

    /// The leverage used for margin: `margin = amount × price / leverage`. Default 10; must
    /// be at least 1.
    #[must_use]
    pub fn leverage(mut self, leverage: u32) -> Self {
        self.leverage = leverage;
        self
    }

    /// Sets the collateral balance of `ticker` (a plain decimal such as `"10000"`).
    #[must_use]
    pub fn balance(mut self, ticker: impl Into<String>, amount: impl Into<String>) -> Self {
        set_balance(&mut self.balances, ticker.into(), amount.into());
        self
    }

    /// Whether the order history shows the account's canceled orders. Default `true`; `false`
    /// models the docs' B2B accounts: "canceled orders are not recorded in the history", so a
    /// canceled order is then invisible to both look-ups.
    #[must_use]
    pub fn canceled_orders_in_history(mut self, shown: bool) -> Self {
        self.terms.canceled_in_history = shown;
        self
    }

    /// Sets the **main** (not collateral) balance of `ticker` (a plain decimal): what smart
    /// investments are paid from and back into. Default none.
    #[must_use]
    pub fn main_balance(mut self, ticker: impl Into<String>, amount: impl Into<String>) -> Self {
        set_balance(&mut self.main_balances, ticker.into(), amount.into());
        self
    }

    /// Whether the account may hold only one active investment per plan (a second is answered
    /// HTTP 422 code 1, "The investment in this investment plan already exists": the docs'
    /// "when you don't have permissions to create multiple investments by plan"). Default
    /// `false`: several are allowed.
    #[must_use]
    pub fn one_investment_per_plan(mut self, one: bool) -> Self {
        self.terms.one_investment_per_plan = one;
        self
    }

    /// Whether the account may place RPI (Retail Price Improvement) limit orders; `false`
    /// refuses an order with `rpi: true` with code 43 ("`rpi=true` is not allowed for the
    /// account"). Default `true`.
    #[must_use]
    pub fn rpi(mut self, allowed: bool) -> Self {
        self.terms.rpi = allowed;
        self
    }

    /// Whether flexible lending (`/api/v4/main-account/smart-flex/*`) is enabled on the
    /// account. Default `true`: the exchange offers it to every account; `false` answers every
    /// flex endpoint HTTP 403, "You don't have permission to use this endpoint. …", as the
    /// spec documents for an account without lending access.
    #[must_use]
    pub fn flex_lending(mut self, enabled: bool) -> Self {
        self.terms.flex_lending = enabled;
        self
    }

    /// The API key.
    pub fn api_key(&self) -> &str {
        &self.api_key
    }

    pub(crate) fn validate(&self) -> Result<AccountSpec, SandboxError> {
        let what = || format!("account {}", self.api_key);
        let bad = |reason: String| SandboxError::Config {
            what: what(),
            reason,
        };
        if self.api_key.is_empty() || !self.api_key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(bad("the API key must be non-empty visible ASCII".to_owned()));
        }
        if self.api_secret.is_empty() {
            return Err(bad("the API secret must not be empty".to_owned()));
        }
        let signing = self
            .api_secret
            .signing_key()
            .ok_or_else(|| bad("the API secret cannot key HMAC-SHA512".to_owned()))?;
        if self.leverage == 0 {
            return Err(bad("leverage must be at least 1".to_owned()));
        }
        let balances = Self::balances(&self.balances, &bad)?;
        let main_balances = Self::balances(&self.main_balances, &bad)?;
        Ok(AccountSpec {
            api_key: self.api_key.clone(),
            signing,
            terms: self.terms.clone(),
            leverage: Decimal::from(self.leverage),
            balances,
            main_balances,
        })
    }

    /// Balances by ticker, each a plain decimal.
    fn balances(
        given: &[(String, String)],
        bad: &dyn Fn(String) -> SandboxError,
    ) -> Result<BTreeMap<String, Decimal>, SandboxError> {
        let mut balances = BTreeMap::new();
        for (ticker, amount) in given {
            let value = decimal::parse(amount).ok_or_else(|| {
                bad(format!(
                    "balance of {ticker} {amount:?} is not a plain decimal"
                ))
            })?;
            if ticker.is_empty() {
                return Err(bad("empty ticker".to_owned()));
            }
            balances.insert(ticker.clone(), value);
        }
        Ok(balances)
    }
}

/// Sets `ticker`'s amount among `balances`, in place of an earlier one.
fn set_balance(balances: &mut Vec<(String, String)>, ticker: String, amount: String) {
    balances.retain(|(t, _)| *t != ticker);
    balances.push((ticker, amount));
}

/// A validated account.
#[derive(Debug, Clone)]
pub(crate) struct AccountSpec {
    pub(crate) api_key: String,
    /// HMAC-SHA512 keyed with the account's secret.
    pub(crate) signing: SigningKey,
    /// As configured.
    pub(crate) terms: AccountTerms,
    pub(crate) leverage: Decimal,
    pub(crate) balances: BTreeMap<String, Decimal>,
    /// The main account's balances (smart investments are paid from them).
    pub(crate) main_balances: BTreeMap<String, Decimal>,
}
