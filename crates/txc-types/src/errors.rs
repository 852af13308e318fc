//! What can be wrong with a value: [`ValidationError`] (with its [`Reason`], or the [`Bound`] an
//! amount is outside of) for a request value refused before any request exists; with the `decimal` feature, `DecimalRangeError` for an
//! answer's decimal that does not fit `rust_decimal`.

use std::fmt;

#[cfg(feature = "decimal")]
pub use crate::values::exact_decimal::DecimalRangeError;

/// Why a request value was rejected. Raised before anything is signed or sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// A field's value is malformed.
    #[error("invalid {field}: {reason}")]
    InvalidField {
        /// The field's name as it appears on the wire, e.g. `amount` or `clientOrderId`.
        field: &'static str,
        /// What is wrong with the value.
        reason: Reason,
    },
    /// Two fields that may not be combined were both set.
    #[error("{field} cannot be combined with {other}")]
    Conflict {
        /// The field whose presence conflicts.
        field: &'static str,
        /// The field it conflicts with.
        other: &'static str,
    },
    /// A value is outside a bound the exchange published for it (an investment amount outside
    /// its plan's bounds, a withdrawal beyond what is invested); the error names the bound and
    /// its value.
    #[error("invalid {field}: {value} is {} {} of {limit}", bound.relation(), bound.describe())]
    OutOfBounds {
        /// The field's wire name, e.g. `amount`.
        field: &'static str,
        /// The value given.
        value: String,
        /// Which bound it is outside of.
        bound: Bound,
        /// The bound's value, as the exchange wrote it.
        limit: String,
    },
    /// An order breaks a rule its market publishes (precision, minimum amount, minimum or
    /// maximum total): the field, the rule, the market's value and the nearest valid value.
    #[error("{0}")]
    MarketRule(Box<crate::markets::RuleViolation>),
    /// An item of a list (a bulk order's `orders`) was refused: which one, and why.
    #[error("{list}[{index}]: {error}")]
    Item {
        /// The list's wire name, e.g. `orders`.
        list: &'static str,
        /// The item's position in the list, from 0.
        index: usize,
        /// What is wrong with the item.
        error: Box<ValidationError>,
    },
}

impl ValidationError {
    /// The wire name of the offending field (of an item's, for a refused item).
    pub fn field(&self) -> &'static str {
        match self {
            Self::InvalidField { field, .. }
            | Self::Conflict { field, .. }
            | Self::OutOfBounds { field, .. } => field,
            Self::MarketRule(violation) => violation.field,
            Self::Item { error, .. } => error.field(),
        }
    }

    /// `error`, as the refusal of the item at `index` of the list `list`.
    pub(crate) fn in_item(list: &'static str, index: usize, error: Self) -> Self {
        Self::Item {
            list,
            index,
            error: Box::new(error),
        }
    }

    pub(crate) fn invalid(field: &'static str, reason: Reason) -> Self {
        Self::InvalidField { field, reason }
    }
}

/// A bound an investment plan (or an investment in one) publishes for the amounts it takes,
/// named by the wire field it comes from, or — for a bound made of two figures — by the key of
/// the exchange's own refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Bound {
    /// `minInvestment`: the smallest amount.
    MinInvestment,
    /// `maxInvestment`: the largest amount.
    MaxInvestment,
    /// `maxPossibleInvestment`: the largest amount the plan's current state allows.
    MaxPossibleInvestment,
    /// `invested`: a flexible investment's invested amount, the most a withdrawal takes (the
    /// exchange: `Withdraw amount exceeds total invested`). Its limit is the amount invested.
    Invested,
    /// `minAmountLeft`: a withdrawal must leave at least the plan's `minInvestment` invested
    /// (the exchange: `Amount left < min investment`). Its limit is the most that can be
    /// withdrawn, `invested − minInvestment`.
    MinAmountLeft,
    /// `investmentLimit`: a flexible investment holds at most the plan's `maxInvestment`
    /// together (the exchange: `Investment limit is exceeded`). Its limit is the most a top-up
    /// adds, `maxInvestment − invested`.
    InvestmentLimit,
}

impl Bound {
    /// The bound's name: the wire field it comes from (`minInvestment`, `invested`), or the
    /// key of the exchange's refusal (`minAmountLeft`, `investmentLimit`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MinInvestment => "minInvestment",
            Self::MaxInvestment => "maxInvestment",
            Self::MaxPossibleInvestment => "maxPossibleInvestment",
            Self::Invested => "invested",
            Self::MinAmountLeft => "minAmountLeft",
            Self::InvestmentLimit => "investmentLimit",
        }
    }

    /// How a value outside the bound relates to it: `below` or `above`.
    fn relation(self) -> &'static str {
        match self {
            Self::MinInvestment => "below",
            _ => "above",
        }
    }

    /// What the bound is, in an error message.
    fn describe(self) -> String {
        match self {
            Self::MinInvestment | Self::MaxInvestment | Self::MaxPossibleInvestment => {
                format!("the plan's {self}")
            }
            Self::Invested => "the amount invested (invested)".to_owned(),
            Self::MinAmountLeft => {
                "the most that leaves the plan's minInvestment invested (minAmountLeft)".to_owned()
            }
            Self::InvestmentLimit => {
                "the room left under the plan's maxInvestment (investmentLimit)".to_owned()
            }
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is wrong with a field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// The value is empty.
    Empty,
    /// The value is longer than `max` characters.
    TooLong {
        /// The maximum length allowed.
        max: usize,
    },
    /// The value contains a character that is not allowed (the first one found).
    InvalidCharacter(char),
    /// The value does not have the required shape; the text says which.
    Format(&'static str),
    /// A decimal that must be positive is zero.
    NotPositive,
    /// A value outside the enum's documented set.
    UnknownVariant,
    /// A number outside the documented range.
    OutOfRange {
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// The field may only be sent together with another one, named here.
    Requires(&'static str),
    /// None of these fields was given, and the request needs at least one of them.
    NeedsOneOf(&'static [&'static str]),
    /// The field is valid, but the transport or method it is sent by does not take it; the
    /// text says which.
    Unsupported(&'static str),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("must not be empty"),
            Self::TooLong { max } => write!(f, "must be at most {max} characters"),
            Self::InvalidCharacter(c) if c.is_whitespace() || c.is_control() => {
                write!(f, "contains {c:?}, which is not allowed")
            }
            Self::InvalidCharacter(c) => write!(f, "contains '{c}', which is not allowed"),
            Self::Format(what) => f.write_str(what),
            Self::NotPositive => f.write_str("must be greater than zero"),
            Self::UnknownVariant => f.write_str("is not one of the allowed values"),
            Self::OutOfRange { min, max } => write!(f, "must be from {min} to {max}"),
            Self::Requires(other) => write!(f, "may only be sent together with {other}"),
            Self::NeedsOneOf(fields) => write!(f, "give at least one of {}", fields.join(", ")),
            Self::Unsupported(what) => f.write_str(what),
        }
    }
}
