//! [`MarginLevels`]: the two levels an account's margin is judged against — the margin call
//! and the maintenance margin, below which its positions are liquidated — as shares of its
//! positions' value, and their defaults.

use rust_decimal::Decimal;

use super::error::SandboxError;
use crate::wire::decimal;

/// The maintenance margin rate (MMR) the exchange documents: "3% for leverage 1x–10x", for
/// margin and futures positions alike (docs, `concepts/liquidation.mdx`). Below it, positions
/// are liquidated.
pub const DEFAULT_MAINTENANCE_MARGIN_RATE: &str = "0.03";
/// The margin-call rate: the docs name the state (`liquidationState: margin_call`, event 1 of
/// `positionsAccountMargin`) but publish no level; the sandbox calls margin at 5 % of the
/// positions' value, a warning zone above the maintenance margin.
pub const DEFAULT_MARGIN_CALL_RATE: &str = "0.05";

/// The margin levels, checked: `0 < maintenance < margin_call < 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MarginLevels {
    /// An account whose equity is below this share of its positions' value is in margin
    /// call.
    pub(crate) margin_call: Decimal,
    /// An account whose equity is below this share of its positions' value is liquidated.
    pub(crate) maintenance: Decimal,
}

impl Default for MarginLevels {
    fn default() -> Self {
        Self {
            margin_call: Decimal::from_parts(5, 0, 0, false, 2),
            maintenance: Decimal::from_parts(3, 0, 0, false, 2),
        }
    }
}

impl MarginLevels {
    /// The levels `margin_call` and `maintenance` (plain decimals): each above 0 and below 1,
    /// the maintenance rate below the margin-call rate.
    pub(crate) fn parse(margin_call: &str, maintenance: &str) -> Result<Self, SandboxError> {
        let bad = |reason: String| SandboxError::Config {
            what: "margin rates".to_owned(),
            reason,
        };
        let rate = |field: &str, text: &str| {
            decimal::parse_positive(text)
                .filter(|r| *r < Decimal::ONE)
                .ok_or_else(|| {
                    bad(format!(
                        "{field} {text:?} is not a decimal above 0 and below 1"
                    ))
                })
        };
        let levels = Self {
            margin_call: rate("margin-call rate", margin_call)?,
            maintenance: rate("maintenance rate", maintenance)?,
        };
        if levels.maintenance >= levels.margin_call {
            return Err(bad(
                "the maintenance rate must be below the margin-call rate".to_owned(),
            ));
        }
        Ok(levels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_parse_and_bad_levels_are_refused() {
        assert_eq!(
            MarginLevels::parse(DEFAULT_MARGIN_CALL_RATE, DEFAULT_MAINTENANCE_MARGIN_RATE).ok(),
            Some(MarginLevels::default())
        );
        for (call, maintenance) in [
            ("0.03", "0.05"),
            ("0.05", "0.05"),
            ("1", "0.5"),
            ("0.05", "0"),
            ("x", "0.03"),
        ] {
            assert!(
                MarginLevels::parse(call, maintenance).is_err(),
                "{call} {maintenance}"
            );
        }
    }
}
