//! What a sandbox is configured with: the builders' parts ([`AccountConfig`], [`MarketConfig`],
//! [`PlanConfig`], [`FlexPlanConfig`], [`PositionMode`]), the settings taken as given ([`Settings`] and the
//! `DEFAULT_*` figures), the demo accounts, and — checked once when the sandbox starts — the
//! [`Config`] it starts from and returns to on reset. Beside them, the fixed facts every layer
//! names: the markets' terms by name ([`Markets`]), the exchange's operations ([`Op`],
//! [`Route`], [`Limit`]), the API secrets ([`SigningKey`]) and [`SandboxError`].
//!
//! **What it is for:** values fixed before the first request, read without the state's lock.
//! It imports only the wire's vocabulary.
//!
//! **What it is not for:** anything that changes while the sandbox runs (prices, balances,
//! orders: the state's), or checking requests (the rules'). The [`crate::SandboxBuilder`] that
//! gathers these parts and starts a sandbox is the app's.

mod account;
mod defaults;
pub mod demo;
mod error;
mod flex_plan;
mod margin_levels;
mod market;
mod markets;
mod op;
mod plan;
mod price_step;
mod route;
mod secret;
mod settings;
mod validated;

pub(crate) use account::AccountSpec;
pub use account::{AccountConfig, PositionMode};
pub(crate) use defaults::{default_accounts, default_flex_plans, default_markets, default_plans};
pub use error::SandboxError;
pub use flex_plan::FlexPlanConfig;
pub(crate) use flex_plan::{FLEX_ACTIVE, FLEX_INACTIVE, FLEX_PAUSED, FlexPlanSpec};
pub(crate) use margin_levels::MarginLevels;
pub use margin_levels::{DEFAULT_MAINTENANCE_MARGIN_RATE, DEFAULT_MARGIN_CALL_RATE};
pub use market::MarketConfig;
pub(crate) use market::{FEE_PRECISION, MarketSpec};
pub(crate) use markets::Markets;
pub(crate) use op::{Limit, Op};
pub use plan::PlanConfig;
pub use price_step::PriceStep;
pub use route::Route;
pub(crate) use secret::SigningKey;
pub(crate) use settings::Settings;
pub use settings::{
    DEFAULT_CANCEL_RATE_LIMIT, DEFAULT_FLEX_ACCRUAL_INTERVAL, DEFAULT_FUNDING_INTERVAL,
    DEFAULT_LOOKUP_RATE_LIMIT, DEFAULT_MAX_BODY_BYTES, DEFAULT_ORDER_RATE_LIMIT,
    DEFAULT_PLANS_RATE_LIMIT, DEFAULT_WS_IDLE_TIMEOUT, DEFAULT_WS_REQUESTS_PER_MINUTE,
};
pub(crate) use validated::{ByKey, Config};
