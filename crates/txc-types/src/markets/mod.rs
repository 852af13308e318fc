//! The markets' public rules: the market info ([`MarketsQuery`] → [`MarketInfo`]) and the
//! collateral market list ([`CollateralMarketsQuery`] → [`CollateralMarkets`]) — public,
//! unsigned `GET`s — and the pure check of any order against its market's rules
//! ([`MarketRules`], [`MarketRulebook`] for many markets), with explicit rounding to the
//! market's steps.
//!
//! | operation | request | answer |
//! |---|---|---|
//! | market info (every market's rules) | [`MarketsQuery`] | `Vec<`[`MarketInfo`]`>` |
//! | markets open to collateral trading | [`CollateralMarketsQuery`] | [`CollateralMarkets`] |
//!
//! An order that breaks a rule is refused before anything is sent, naming the field, the
//! rule, the market's value and the nearest valid value ([`RuleViolation`], inside
//! [`ValidationError::MarketRule`](crate::errors::ValidationError::MarketRule)).

mod collateral_markets;
mod exact;
mod market_rulebook;
mod market_rules;
mod markets_query;
mod rule_violation;
mod ruled_order;

pub use collateral_markets::{CollateralMarkets, CollateralMarketsQuery};
pub use market_rulebook::MarketRulebook;
pub use market_rules::MarketRules;
pub use markets_query::{MarketInfo, MarketType, MarketsQuery};
pub use rule_violation::{Rule, RuleViolation};
pub use ruled_order::{OrderPart, RuledOrder};
