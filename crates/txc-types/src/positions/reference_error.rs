//! [`ReferenceError`]: why a reference figure of [`funding`](super::funding),
//! [`pnl`](super::pnl) or a flex investment's [`accrual`](crate::investments::flex::accrual)
//! could not be computed.

use rust_decimal::Decimal;

/// Why a reference figure could not be computed. The arithmetic never panics: every failure
/// is one of these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReferenceError {
    /// A record lacks a figure the computation needs (its wire name).
    #[error("{0} is missing")]
    Missing(&'static str),
    /// A record's figure does not fit `rust_decimal` (28 significant digits) (its wire name).
    #[error("{0} does not fit a decimal")]
    OutOfRange(&'static str),
    /// The result does not fit `rust_decimal`.
    #[error("the result does not fit a decimal")]
    Overflow,
    /// An amount that must be positive is not (its name).
    #[error("{0} must be greater than zero")]
    NotPositive(&'static str),
    /// An amount or a rate that must not be negative is (its name).
    #[error("{0} must not be negative")]
    Negative(&'static str),
    /// A withdrawal takes more than is invested.
    #[error("a withdrawal of {withdraw} takes more than the {invested} invested")]
    MoreThanInvested {
        /// The amount invested.
        invested: Decimal,
        /// The withdrawal's amount.
        withdraw: Decimal,
    },
    /// A fill reduces a position by more than is open.
    #[error("a fill of {reduce} reduces a position of {open}")]
    MoreThanOpen {
        /// The size open.
        open: Decimal,
        /// The fill's amount.
        reduce: Decimal,
    },
}

/// `value`, a record's figure named `field` on the wire, as a decimal.
pub(super) fn figure(
    value: Option<&crate::values::ExactDecimal>,
    field: &'static str,
) -> Result<Decimal, ReferenceError> {
    value
        .ok_or(ReferenceError::Missing(field))?
        .to_decimal()
        .map_err(|_| ReferenceError::OutOfRange(field))
}
