//! [`MarketRules`]: a market's published rules, the pure check of an order against them, and
//! rounding to the market's steps.

use super::exact::{Dec, MAX_PLACES, places};
use super::{MarketInfo, OrderPart, Rule, RuleViolation, RuledOrder};
use crate::endpoint::Validated;
use crate::errors::{Reason, ValidationError};
use crate::orders::Side;
use crate::values::{Amount, ExactDecimal, Market, Price};

/// One market's order rules, as the public market info publishes them
/// ([`MarketInfo`]: `stockPrec`, `moneyPrec`, `minAmount`, `minTotal`, `maxTotal`), and the
/// pure check of any order against them — no I/O, no clock, exact decimal arithmetic.
///
/// The rules, as the order pages state them:
///
/// | rule | the order's value |
/// |---|---|
/// | `stockPrec` | the amount has at most that many decimal places (as written: `0.010` has three) |
/// | `moneyPrec` | each price (limit, activation, stop-loss, take-profit) has at most that many |
/// | `minAmount` | the amount is at least that |
/// | `minTotal` | amount × limit price is at least that |
/// | `maxTotal` | amount × limit price is at most that (`0`: no bound) |
///
/// [`check`](Self::check) returns the first rule broken as
/// [`ValidationError::MarketRule`] ([`RuleViolation`]: the field, the rule, the market's value
/// and the nearest valid value); a bulk order's item is named by its index
/// ([`ValidationError::Item`]). Which prices make a total is [`OrderPart`]'s to say.
///
/// **Rounding is explicit, never silent**: [`round_amount`](Self::round_amount) and
/// [`round_price`](Self::round_price) return a value at the market's step, and say so by
/// being called. Rounding never crosses a bound: of the two values at the step around the
/// given one, they take the one toward the preferred side unless it breaks a bound the given
/// value met, and then the other; if both would, it is an error naming the bound.
///
/// ```
/// use txc_types::errors::ValidationError;
/// use txc_types::markets::{MarketRules, Rule};
/// use txc_types::orders::{CollateralLimitOrder, Side};
/// let rules = MarketRules::new("BTC_USDT".parse()?, 4, 2, "0.001".parse()?, "5".parse()?, "0".parse()?)?;
/// let order = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.0001", "40000").build()?;
/// let Err(ValidationError::MarketRule(broken)) = rules.check(&order) else { panic!() };
/// assert_eq!((broken.field, broken.rule), ("amount", Rule::MinAmount));
/// assert_eq!(broken.nearest.as_deref(), Some("0.001"));
///
/// let amount = rules.round_amount(&"0.012345".parse()?, None)?;
/// assert_eq!(amount.as_str(), "0.0123"); // toward zero: the market's step is 0.0001
/// let price = rules.round_price(&"40000.129".parse()?, Side::Buy, None)?;
/// assert_eq!(price.as_str(), "40000.12"); // a buy never pays more than asked
/// # Ok::<(), ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketRules {
    market: Market,
    amount_precision: u32,
    price_precision: u32,
    min_amount: ExactDecimal,
    min_total: ExactDecimal,
    max_total: Option<ExactDecimal>,
    bounds: Bounds,
}

/// The bounds as exact values.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bounds {
    min_amount: Dec,
    min_total: Dec,
    max_total: Option<Dec>,
}

impl MarketRules {
    /// The rules of `market`: at most `amount_precision` and `price_precision` decimal places,
    /// amounts of at least `min_amount`, totals from `min_total` to `max_total` (`0`: no upper
    /// bound). Each precision is at most 64 places and each bound a non-negative number; the
    /// error names the market info's field.
    pub fn new(
        market: Market,
        amount_precision: u32,
        price_precision: u32,
        min_amount: ExactDecimal,
        min_total: ExactDecimal,
        max_total: ExactDecimal,
    ) -> Result<Self, ValidationError> {
        for (field, places) in [
            ("stockPrec", amount_precision),
            ("moneyPrec", price_precision),
        ] {
            if places > MAX_PLACES {
                return Err(ValidationError::invalid(
                    field,
                    Reason::OutOfRange {
                        min: 0,
                        max: u64::from(MAX_PLACES),
                    },
                ));
            }
        }
        let bound = |field, value: &ExactDecimal| {
            Dec::parse(value.as_str()).ok_or_else(|| {
                ValidationError::invalid(
                    field,
                    Reason::Format("must be a non-negative number of at most 64 places"),
                )
            })
        };
        let max = bound("maxTotal", &max_total)?;
        let bounds = Bounds {
            min_amount: bound("minAmount", &min_amount)?,
            min_total: bound("minTotal", &min_total)?,
            max_total: (!max.is_zero()).then_some(max),
        };
        Ok(Self {
            market,
            amount_precision,
            price_precision,
            min_amount,
            min_total,
            max_total: bounds.max_total.is_some().then_some(max_total),
            bounds,
        })
    }

    /// The rules a market's info publishes; an error names a field the info lacks or the rules
    /// cannot take.
    pub fn from_info(info: &MarketInfo) -> Result<Self, ValidationError> {
        fn given<T: Clone>(value: Option<&T>, field: &'static str) -> Result<T, ValidationError> {
            value.cloned().ok_or(ValidationError::invalid(
                field,
                Reason::Format("is missing from the market info"),
            ))
        }
        let places = |value: Option<u64>, field| {
            let places = given(value.as_ref(), field)?;
            u32::try_from(places).map_err(|_| {
                ValidationError::invalid(
                    field,
                    Reason::OutOfRange {
                        min: 0,
                        max: u64::from(MAX_PLACES),
                    },
                )
            })
        };
        Self::new(
            info.name.clone(),
            places(info.stock_prec, "stockPrec")?,
            places(info.money_prec, "moneyPrec")?,
            given(info.min_amount.as_ref(), "minAmount")?,
            given(info.min_total.as_ref(), "minTotal")?,
            given(info.max_total.as_ref(), "maxTotal")?,
        )
    }

    /// The market.
    pub fn market(&self) -> &Market {
        &self.market
    }
    /// The most decimal places of an amount (`stockPrec`).
    pub fn amount_precision(&self) -> u32 {
        self.amount_precision
    }
    /// The most decimal places of a price (`moneyPrec`).
    pub fn price_precision(&self) -> u32 {
        self.price_precision
    }
    /// The smallest amount (`minAmount`).
    pub fn min_amount(&self) -> &ExactDecimal {
        &self.min_amount
    }
    /// The smallest total (`minTotal`).
    pub fn min_total(&self) -> &ExactDecimal {
        &self.min_total
    }
    /// The largest total (`maxTotal`); `None` when the market publishes none (`0`).
    pub fn max_total(&self) -> Option<&ExactDecimal> {
        self.max_total.as_ref()
    }

    /// Checks every part of `order` against these rules: `Ok` when it meets them all, else the
    /// first rule broken ([`ValidationError::MarketRule`], inside [`ValidationError::Item`]
    /// for a bulk order's item). An order of another market breaks [`Rule::Market`].
    pub fn check(&self, order: &(impl RuledOrder + ?Sized)) -> Result<(), ValidationError> {
        order
            .parts()
            .iter()
            .try_for_each(|part| self.check_part(part))
    }

    /// Checks one part; a bulk order's item's error names the item.
    pub(crate) fn check_part(&self, part: &OrderPart<'_>) -> Result<(), ValidationError> {
        self.broken(part).map_or(Ok(()), |violation| {
            let error = ValidationError::MarketRule(Box::new(violation));
            Err(match part.item {
                Some(index) => ValidationError::in_item("orders", index, error),
                None => error,
            })
        })
    }

    /// `amount` at the market's amount step (`stockPrec`): toward zero, unless that would
    /// break a bound `amount` meets — `minAmount`, and at `price` `minTotal` — or make it zero,
    /// and then away from zero, unless that would break a bound it meets (`maxTotal` at
    /// `price`), which is an error naming the bound. An amount already at the step is returned
    /// as it is, even outside a bound (rounding does not fix bounds: [`check`](Self::check)
    /// reports them).
    pub fn round_amount(
        &self,
        amount: &Amount,
        price: Option<&Price>,
    ) -> Result<Amount, ValidationError> {
        let price = price.and_then(|p| Dec::parse(p.as_str()));
        self.round(
            amount.as_str(),
            "amount",
            self.amount_precision,
            false,
            |c| self.amount_bounds(c, price.as_ref()),
        )
    }

    /// `price` at the market's price step (`moneyPrec`), toward the side no worse for the
    /// order: down for a buy (it never pays more than asked), up for a sell (it never receives
    /// less) — unless that would make it zero or, with `amount`, break a total bound the
    /// price meets (`minTotal`, `maxTotal`), and then the other way; if that breaks one too,
    /// an error naming the bound. A price already at the step is returned as it is.
    pub fn round_price(
        &self,
        price: &Price,
        side: Side,
        amount: Option<&Amount>,
    ) -> Result<Price, ValidationError> {
        let amount = amount.and_then(|a| Dec::parse(a.as_str()));
        self.round(
            price.as_str(),
            "price",
            self.price_precision,
            side == Side::Sell,
            |c| match &amount {
                Some(amount) => self
                    .total_bounds(&amount.mul(c), "price", None)
                    .into_iter()
                    .collect(),
                None => Vec::new(),
            },
        )
    }

    /// `text` (a positive plain decimal) at `places_allowed` decimal places: of the two values
    /// at that step around it, the one on the `up` side first, then the other — the first
    /// that is not zero and breaks no bound (`broken` lists those a value breaks) the value
    /// itself meets.
    fn round<T: Validated>(
        &self,
        text: &str,
        field: &'static str,
        places_allowed: u32,
        up: bool,
        broken: impl Fn(&Dec) -> Vec<RuleViolation>,
    ) -> Result<T, ValidationError> {
        let Some(value) = Dec::parse(text).filter(|_| places(text) > places_allowed) else {
            return T::validate(text, field);
        };
        let already: Vec<Rule> = broken(&value).iter().map(|v| v.rule).collect();
        let mut crossed = None;
        for side in [up, !up] {
            let candidate = value.round(places_allowed, side);
            if candidate.is_zero() {
                continue;
            }
            match broken(&candidate)
                .into_iter()
                .find(|v| !already.contains(&v.rule))
            {
                Some(violation) => crossed = crossed.or(Some(violation)),
                None => return T::validate(&candidate.to_string(), field),
            }
        }
        // Only a value whose two neighbours at the step both fail gets here: one is not
        // zero, so a bound was crossed.
        let violation = crossed.unwrap_or_else(|| self.imprecise(field, text, None));
        Err(ValidationError::MarketRule(Box::new(violation)))
    }

    /// The first rule `part` breaks.
    fn broken(&self, part: &OrderPart<'_>) -> Option<RuleViolation> {
        if part.market != &self.market {
            return Some(RuleViolation {
                limit: self.market.to_string(),
                ..self.violation("market", Rule::Market, part.market.as_str())
            });
        }
        let amount = part.amount.map(|a| (a, Dec::parse(a.as_str())));
        let first_price = part.total_at.first().and_then(|field| part.price(field));
        if let Some((text, _)) = amount
            && places(text.as_str()) > self.amount_precision
        {
            let nearest = self.round_amount(text, first_price).ok();
            return Some(self.imprecise("amount", text.as_str(), nearest.as_deref()));
        }
        for (field, price) in &part.prices {
            if places(price.as_str()) > self.price_precision {
                let nearest = self
                    .round_price(price, part.side.unwrap_or(Side::Buy), None)
                    .ok();
                return Some(self.imprecise(field, price.as_str(), nearest.as_deref()));
            }
        }
        if let Some(total) = part.total {
            if places(total.as_str()) > self.price_precision {
                return Some(self.imprecise("total", total.as_str(), None));
            }
            if let Some(violation) =
                Dec::parse(total.as_str()).and_then(|t| self.total_bounds(&t, "total", None))
            {
                return Some(violation);
            }
        }
        let (_, Some(amount)) = amount? else {
            return None;
        };
        if amount < self.bounds.min_amount {
            let nearest = self.bounds.min_amount.round(self.amount_precision, true);
            return Some(RuleViolation {
                nearest: Some(nearest.to_string()),
                ..self.violation("amount", Rule::MinAmount, &amount.to_string())
            });
        }
        part.total_at.iter().find_map(|field| {
            let price = Dec::parse(part.price(field)?.as_str())?;
            self.total_bounds(&amount.mul(&price), "amount", Some((field, &price)))
        })
    }

    /// The bounds `amount` breaks: `minAmount`, and at `price` the total's.
    fn amount_bounds(&self, amount: &Dec, price: Option<&Dec>) -> Vec<RuleViolation> {
        let below = (amount < &self.bounds.min_amount)
            .then(|| self.violation("amount", Rule::MinAmount, &amount.to_string()));
        let total = price.and_then(|price| {
            self.total_bounds(&amount.mul(price), "amount", Some(("price", price)))
        });
        below.into_iter().chain(total).collect()
    }

    /// The total bound `total` breaks; with the price it was taken at, the nearest valid
    /// amount at that price.
    fn total_bounds(
        &self,
        total: &Dec,
        field: &'static str,
        at: Option<(&'static str, &Dec)>,
    ) -> Option<RuleViolation> {
        let (rule, bound, up) = if total < &self.bounds.min_total {
            (Rule::MinTotal, &self.bounds.min_total, true)
        } else {
            let max = self.bounds.max_total.as_ref().filter(|max| total > *max)?;
            (Rule::MaxTotal, max, false)
        };
        let nearest = match at {
            Some((_, price)) => bound
                .div(price, self.amount_precision, up)
                .filter(|amount| up || (!amount.is_zero() && amount >= &self.bounds.min_amount))
                .map(|amount| {
                    if up && amount < self.bounds.min_amount {
                        self.bounds.min_amount.round(self.amount_precision, true)
                    } else {
                        amount
                    }
                }),
            None if field == "total" => Some(bound.round(self.price_precision, up)),
            None => None,
        };
        Some(RuleViolation {
            at: at.map(|(price, _)| price),
            nearest: nearest.map(|n| n.to_string()),
            ..self.violation(field, rule, &total.to_string())
        })
    }

    /// A precision violation of `field`.
    fn imprecise(&self, field: &'static str, value: &str, nearest: Option<&str>) -> RuleViolation {
        let rule = if field == "amount" {
            Rule::AmountPrecision
        } else {
            Rule::PricePrecision
        };
        RuleViolation {
            nearest: nearest.map(str::to_owned),
            ..self.violation(field, rule, value)
        }
    }

    /// A violation of `rule` by `field`'s `value`, with the market's value for the rule.
    fn violation(&self, field: &'static str, rule: Rule, value: &str) -> RuleViolation {
        let limit = match rule {
            Rule::AmountPrecision => self.amount_precision.to_string(),
            Rule::PricePrecision => self.price_precision.to_string(),
            Rule::MinAmount => self.min_amount.to_string(),
            Rule::MinTotal => self.min_total.to_string(),
            Rule::MaxTotal => self
                .max_total
                .as_ref()
                .map_or_else(|| "0".to_owned(), ToString::to_string),
            Rule::Market => self.market.to_string(),
        };
        RuleViolation {
            market: self.market.clone(),
            field,
            rule,
            value: value.to_owned(),
            at: None,
            limit,
            nearest: None,
        }
    }
}
