//! [`RuleViolation`]: an order value outside its market's published rules, with the rule, the
//! market's value and the nearest valid value.

use std::fmt;

use crate::values::Market;

/// A rule of the public market info ([`MarketInfo`](super::MarketInfo)), by its wire field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// `stockPrec`: the most decimal places of an amount.
    AmountPrecision,
    /// `moneyPrec`: the most decimal places of a price (or of a total).
    PricePrecision,
    /// `minAmount`: the smallest amount.
    MinAmount,
    /// `minTotal`: the smallest total (amount × price).
    MinTotal,
    /// `maxTotal`: the largest total (amount × price).
    MaxTotal,
    /// `name`: the rules are another market's.
    Market,
}

impl Rule {
    /// The market info's wire field, e.g. `minTotal`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AmountPrecision => "stockPrec",
            Self::PricePrecision => "moneyPrec",
            Self::MinAmount => "minAmount",
            Self::MinTotal => "minTotal",
            Self::MaxTotal => "maxTotal",
            Self::Market => "name",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An order value outside its market's published rules, found before anything is sent: which
/// field, which rule, the market's value for it, and the nearest value of the field that the
/// rule takes.
///
/// For the total rules the value is the total — the amount times the price named by
/// [`at`](Self::at) — and the nearest valid value is the amount's at that price. The nearest
/// value is `None` where there is none (a total bound no amount at the market's step can meet).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleViolation {
    /// The market whose rules were applied.
    pub market: Market,
    /// The wire field of the order's value, e.g. `amount`, `price`, `stopLoss`.
    pub field: &'static str,
    /// The rule it breaks.
    pub rule: Rule,
    /// The value the rule reads: the field's, or for a total rule the total.
    pub value: String,
    /// For a total rule, the wire field of the price the total was taken at.
    pub at: Option<&'static str>,
    /// The market's value for the rule (a number of places, or a bound as published).
    pub limit: String,
    /// The nearest value of `field` the rule takes, if there is one.
    pub nearest: Option<String>,
}

impl fmt::Display for RuleViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            market,
            field,
            rule,
            value,
            at,
            limit,
            nearest,
        } = self;
        match (rule, at) {
            (Rule::AmountPrecision | Rule::PricePrecision, _) => write!(
                f,
                "{field} {value} has more decimal places than {market}'s {rule} of {limit}"
            )?,
            (Rule::Market, _) => write!(f, "{field} {value} is not {limit}, the rules' market")?,
            (_, Some(price)) => write!(
                f,
                "{field} × {price} = {value} is {} {market}'s {rule} of {limit}",
                relation(*rule)
            )?,
            (_, None) => write!(
                f,
                "{field} {value} is {} {market}'s {rule} of {limit}",
                relation(*rule)
            )?,
        }
        match nearest {
            Some(nearest) => write!(f, "; the nearest valid {field} is {nearest}"),
            None => Ok(()),
        }
    }
}

/// How a value outside a bound relates to it.
fn relation(rule: Rule) -> &'static str {
    match rule {
        Rule::MaxTotal => "above",
        _ => "below",
    }
}
