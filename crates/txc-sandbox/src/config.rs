//! Account and market configuration: [`AccountConfig`], [`MarketConfig`], [`PositionMode`].
//!
//! These are plain builders; values are checked when the sandbox starts
//! ([`crate::SandboxBuilder::start`]), which reports the first problem as
//! [`SandboxError::Config`].

use std::collections::{BTreeMap, HashMap};

use rust_decimal::Decimal;

use crate::SandboxError;
use crate::decimal;
use crate::rules::market_name;
use crate::secret::{ApiSecret, SigningKey};
use crate::settings::Settings;
use crate::wire::PlanRecord;

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
/// Defaults: enabled, not a B2B partner, one-way mode, leverage 10, no balances.
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
            .filter(|_| market_name::is_well_formed(&self.name))
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

/// Something of each configured account, by its API key: what authentication knows of the
/// keys ([`crate::auth::Keys`]), the accounts' live state ([`crate::state::Accounts`]).
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

/// Everything the builder configured, validated: the state [`crate::Sandbox::reset`] returns to.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) accounts: Vec<AccountSpec>,
    pub(crate) markets: Vec<MarketSpec>,
    pub(crate) plans: Vec<PlanRecord>,
    /// The settings taken as given.
    pub(crate) settings: Settings,
}
