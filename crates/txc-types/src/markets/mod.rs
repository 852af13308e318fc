//! The markets' public rules: the market info ([`MarketsQuery`] → [`MarketInfo`]), the
//! collateral market list ([`CollateralMarketsQuery`] → [`CollateralMarkets`]) and the futures
//! market list ([`FuturesMarketsQuery`] → [`FuturesMarkets`]) — public, unsigned `GET`s — and the pure check of any order against its market's rules
//! ([`MarketRules`], [`MarketRulebook`] for many markets), with explicit rounding to the
//! market's steps.
//!
//! | operation | request | answer |
//! |---|---|---|
//! | market info (every market's rules) | [`MarketsQuery`] | `Vec<`[`MarketInfo`]`>` |
//! | markets open to collateral trading | [`CollateralMarketsQuery`] | [`CollateralMarkets`] |
//! | futures markets (prices, funding, leverage brackets) | [`FuturesMarketsQuery`] | [`FuturesMarkets`] of [`FuturesMarket`]s |
//!
//! An order that breaks a rule is refused before anything is sent, naming the field, the
//! rule, the market's value and the nearest valid value ([`RuleViolation`], inside
//! [`ValidationError::MarketRule`](crate::errors::ValidationError::MarketRule)).

mod collateral_markets;
mod exact;
mod futures_markets;
mod market_rulebook;
mod market_rules;
mod markets_query;
mod rule_violation;
mod ruled_order;

pub use collateral_markets::{CollateralMarkets, CollateralMarketsQuery};
pub(crate) use exact::Dec;
pub use futures_markets::{FuturesMarket, FuturesMarkets, FuturesMarketsQuery};
pub use market_rulebook::MarketRulebook;
pub use market_rules::MarketRules;
pub use markets_query::{MarketInfo, MarketType, MarketsQuery};
pub use rule_violation::{Rule, RuleViolation};
pub use ruled_order::{OrderPart, RuledOrder};
