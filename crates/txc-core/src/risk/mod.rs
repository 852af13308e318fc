//! Checks before an order is sent, and guards kept armed: an order against its market's
//! published rules ([`RulesCheck`], by the [`MarketRulesCheck`]; the rules read by
//! [`LearnRules`]), an order's `positionSide` against the account's position mode
//! ([`Preflight`], by the [`ModeCheck`]; a mode switch checked by [`ModeChange`]), and when a
//! kill-switch guard re-arms its timer ([`KillSwitchSchedule`]).

mod cleared;
mod kill_switch;
mod market_rules;
mod preflight;

pub use cleared::Cleared;
pub use kill_switch::{KillSwitchEvent, KillSwitchSchedule, MIN_REARM_EVERY};
pub(crate) use market_rules::RulesCache;
pub use market_rules::{LearnRules, MarketRulesCheck, RulesCheck};
pub(crate) use preflight::ModeCache;
pub use preflight::{ModeChange, ModeCheck, Preflight, check_position_side};
