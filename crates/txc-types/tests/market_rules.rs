//! The market rules against a reference: a plain integer implementation (every value a whole
//! number of 10⁻⁸ in a `u128`) of the same rules — precision as written, `minAmount`,
//! `minTotal`, `maxTotal` — for random markets and orders. The check finds the rule the
//! reference finds, the nearest valid value it names passes that rule, and rounding stays at
//! the market's step, moves less than a step, and never crosses a bound the value met.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use txc_types::errors::ValidationError;
use txc_types::markets::{MarketInfo, MarketRulebook, MarketRules, Rule, RuleViolation};
use txc_types::orders::{
    CollateralBulkOrder, CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder,
    CollateralStopLimitOrder, CollateralTriggerMarketOrder, ModifyOrder, Side,
};
use txc_types::values::{Amount, Price};

/// Every value of the reference is a whole number of 10⁻⁸.
const PLACES: u32 = 8;
const ONE: u128 = 100_000_000;

/// A decimal written with exactly `places` decimal places (trailing zeros kept: precision
/// counts them), and its value in units of 10⁻⁸.
#[derive(Debug, Clone)]
struct Figure {
    text: String,
    units: u128,
}

fn figure(mantissa: u64, places: u32) -> Figure {
    let digits = format!("{mantissa:0>width$}", width = places as usize + 1);
    let (int, frac) = digits.split_at(digits.len() - places as usize);
    let text = if places == 0 {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    };
    Figure {
        text,
        units: u128::from(mantissa) * 10u128.pow(PLACES - places),
    }
}

fn positive(max: u64) -> impl Strategy<Value = Figure> {
    (1..max, 0..=6u32).prop_map(|(m, p)| figure(m, p))
}

fn bound(max: u64) -> impl Strategy<Value = Figure> {
    (0..max, 0..=6u32).prop_map(|(m, p)| figure(m, p))
}

/// The market's rules, twice: as the crate takes them and as the reference does.
#[derive(Debug, Clone)]
struct Market {
    amount_places: u32,
    price_places: u32,
    min_amount: Figure,
    min_total: Figure,
    max_total: Figure,
}

fn market() -> impl Strategy<Value = Market> {
    (
        0..=6u32,
        0..=6u32,
        bound(5_000),
        bound(500_000),
        bound(50_000_000_000),
    )
        .prop_map(
            |(amount_places, price_places, min_amount, min_total, max_total)| Market {
                amount_places,
                price_places,
                min_amount,
                min_total,
                max_total,
            },
        )
}

impl Market {
    fn rules(&self) -> MarketRules {
        MarketRules::new(
            "BTC_USDT".parse().unwrap(),
            self.amount_places,
            self.price_places,
            self.min_amount.text.parse().unwrap(),
            self.min_total.text.parse().unwrap(),
            self.max_total.text.parse().unwrap(),
        )
        .unwrap()
    }

    fn step(places: u32) -> u128 {
        10u128.pow(PLACES - places)
    }

    /// The bounds `amount` breaks at `price` (units), as the reference reads them.
    fn amount_bounds(&self, amount: u128, price: Option<u128>) -> Vec<Rule> {
        let mut broken = Vec::new();
        if amount < self.min_amount.units {
            broken.push(Rule::MinAmount);
        }
        if let Some(price) = price {
            broken.extend(self.total_bounds(amount * price));
        }
        broken
    }

    /// The total bound a total (in units of 10⁻¹⁶) breaks.
    fn total_bounds(&self, total: u128) -> Option<Rule> {
        if total < self.min_total.units * ONE {
            Some(Rule::MinTotal)
        } else if self.max_total.units > 0 && total > self.max_total.units * ONE {
            Some(Rule::MaxTotal)
        } else {
            None
        }
    }

    /// The first rule a limit order of `amount` at `price` breaks, in the order the crate
    /// checks them.
    fn first_broken(&self, amount: &Figure, price: &Figure) -> Option<Rule> {
        if places(&amount.text) > self.amount_places {
            return Some(Rule::AmountPrecision);
        }
        if places(&price.text) > self.price_places {
            return Some(Rule::PricePrecision);
        }
        if amount.units < self.min_amount.units {
            return Some(Rule::MinAmount);
        }
        self.total_bounds(amount.units * price.units)
    }

    /// The reference's rounding: of floor and ceiling at the step, `first` (`true`: the
    /// ceiling) first, the first not zero that breaks no bound `value` meets; `None` if
    /// neither.
    fn rounded(
        &self,
        value: u128,
        places: u32,
        ceiling_first: bool,
        bounds: impl Fn(u128) -> Vec<Rule>,
    ) -> Option<u128> {
        let step = Self::step(places);
        let floor = value - value % step;
        let ceiling = if value.is_multiple_of(step) {
            floor
        } else {
            floor + step
        };
        let met = bounds(value);
        let order = if ceiling_first {
            [ceiling, floor]
        } else {
            [floor, ceiling]
        };
        order
            .into_iter()
            .find(|&c| c > 0 && bounds(c).iter().all(|rule| met.contains(rule)))
    }
}

fn places(text: &str) -> u32 {
    text.split_once('.').map_or(0, |(_, f)| f.len() as u32)
}

/// A plain decimal's value in units of 10⁻⁸ (it has at most 8 places).
fn units(text: &str) -> u128 {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    assert!(frac.len() <= PLACES as usize, "{text}");
    let int: u128 = int.parse().unwrap();
    let frac: u128 = format!("{frac:0<8}").parse().unwrap();
    int * ONE + frac
}

fn violation(error: ValidationError) -> RuleViolation {
    match error {
        ValidationError::MarketRule(violation) => *violation,
        ValidationError::Item { error, .. } => violation(*error),
        other => panic!("not a market rule: {other}"),
    }
}

fn limit(amount: &str, price: &str) -> CollateralLimitOrder {
    CollateralLimitOrder::builder("BTC_USDT", Side::Buy, amount, price)
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn the_check_finds_the_rule_the_reference_finds(
        market in market(),
        amount in positive(2_000_000_000),
        price in positive(2_000_000_000),
    ) {
        let rules = market.rules();
        let order = limit(&amount.text, &price.text);
        let expected = market.first_broken(&amount, &price);
        let found = rules.check(&order).err().map(violation);
        prop_assert_eq!(found.as_ref().map(|v| v.rule), expected, "{:?}", found);
        let Some(found) = found else { return Ok(()) };
        // The market's value is the one published.
        let limit_text = match found.rule {
            Rule::AmountPrecision => market.amount_places.to_string(),
            Rule::PricePrecision => market.price_places.to_string(),
            Rule::MinAmount => market.min_amount.text.clone(),
            Rule::MinTotal => market.min_total.text.clone(),
            Rule::MaxTotal => market.max_total.text.clone(),
            _ => unreachable!(),
        };
        prop_assert_eq!(&found.limit, &limit_text);
        // The nearest valid value passes the rule that was broken.
        if let Some(nearest) = &found.nearest {
            let n = units(nearest);
            let allowed = if found.field == "amount" { market.amount_places } else { market.price_places };
            prop_assert!(places(nearest) <= allowed);
            match found.rule {
                Rule::AmountPrecision | Rule::PricePrecision => prop_assert!(n > 0),
                Rule::MinAmount => prop_assert!(n >= market.min_amount.units),
                Rule::MinTotal => prop_assert!(n * price.units >= market.min_total.units * ONE && n >= market.min_amount.units),
                Rule::MaxTotal => prop_assert!(n * price.units <= market.max_total.units * ONE && n > 0),
                _ => unreachable!(),
            }
        } else {
            // Only a maximum total no amount at the step meets has none (and an amount whose
            // rounding would cross it).
            prop_assert!(matches!(found.rule, Rule::MaxTotal | Rule::AmountPrecision), "{}", found);
        }
    }

    #[test]
    fn rounding_an_amount_never_crosses_a_bound(
        market in market(),
        amount in positive(2_000_000_000),
        price in proptest::option::of(positive(2_000_000_000)),
    ) {
        let rules = market.rules();
        let given: Amount = amount.text.parse().unwrap();
        let at: Option<Price> = price.as_ref().map(|p| p.text.parse().unwrap());
        let rounded = rules.round_amount(&given, at.as_ref());
        let bounds = |a: u128| market.amount_bounds(a, price.as_ref().map(|p| p.units));
        if places(&amount.text) <= market.amount_places {
            prop_assert_eq!(rounded.unwrap().to_string(), amount.text.clone());
            return Ok(());
        }
        let expected = market.rounded(amount.units, market.amount_places, false, bounds);
        match (rounded, expected) {
            (Ok(r), Some(e)) => {
                prop_assert!(places(r.as_str()) <= market.amount_places);
                prop_assert_eq!(units(r.as_str()), e);
                prop_assert!(e.abs_diff(amount.units) < Market::step(market.amount_places));
            }
            (Err(error), None) => {
                let v = violation(error);
                prop_assert!(matches!(v.rule, Rule::MinAmount | Rule::MinTotal | Rule::MaxTotal), "{}", v);
            }
            (got, want) => prop_assert!(false, "got {:?}, the reference {:?}", got, want),
        }
    }

    #[test]
    fn rounding_a_price_favours_the_side_and_never_crosses_a_bound(
        market in market(),
        price in positive(2_000_000_000),
        amount in proptest::option::of(positive(2_000_000_000)),
        buy in any::<bool>(),
    ) {
        let rules = market.rules();
        let side = if buy { Side::Buy } else { Side::Sell };
        let given: Price = price.text.parse().unwrap();
        let with: Option<Amount> = amount.as_ref().map(|a| a.text.parse().unwrap());
        let rounded = rules.round_price(&given, side, with.as_ref());
        if places(&price.text) <= market.price_places {
            prop_assert_eq!(rounded.unwrap().to_string(), price.text.clone());
            return Ok(());
        }
        let bounds = |p: u128| match &amount {
            Some(a) => market.total_bounds(a.units * p).into_iter().collect(),
            None => Vec::new(),
        };
        let expected = market.rounded(price.units, market.price_places, !buy, bounds);
        match (rounded, expected) {
            (Ok(r), Some(e)) => {
                prop_assert_eq!(units(r.as_str()), e);
                prop_assert!(e.abs_diff(price.units) < Market::step(market.price_places));
            }
            (Err(error), None) => {
                let v = violation(error);
                prop_assert!(matches!(v.rule, Rule::MinTotal | Rule::MaxTotal), "{}", v);
            }
            (got, want) => prop_assert!(false, "got {:?}, the reference {:?}", got, want),
        }
    }

    #[test]
    fn every_order_type_is_checked_and_a_bulk_item_named(
        market in market(),
        amount in positive(2_000_000_000),
        price in positive(2_000_000_000),
        index in 0..5usize,
    ) {
        let rules = market.rules();
        let expected = market.first_broken(&amount, &price);
        let (a, p) = (amount.text.as_str(), price.text.as_str());
        // Orders whose total is taken at `price` find what the limit order finds.
        let stop_limit = CollateralStopLimitOrder::builder("BTC_USDT", Side::Buy, a, p, "1").build().unwrap();
        prop_assert_eq!(rules.check(&stop_limit).err().map(|e| violation(e).rule), expected);
        let oco = CollateralOcoOrder::builder("BTC_USDT", Side::Sell, a, p, "1", p).build().unwrap();
        prop_assert_eq!(rules.check(&oco).err().map(|e| violation(e).rule), expected);
        let modify = ModifyOrder::by_order_id("BTC_USDT", 1).amount(a).price(p).build().unwrap();
        prop_assert_eq!(rules.check(&modify).err().map(|e| violation(e).rule), expected);
        // A bulk order names the item that breaks a rule; the items before it are of a market
        // the book has no rules for, left unchecked.
        let book = market.book();
        let elsewhere = |i: usize| CollateralLimitOrder::builder("ETH_USDT", Side::Buy, "1", "1")
            .client_order_id(format!("e-{i}"))
            .build()
            .unwrap();
        let mut items: Vec<CollateralLimitOrder> = (0..index).map(elsewhere).collect();
        items.push(limit(a, p));
        let bulk = CollateralBulkOrder::new(items).unwrap();
        match (book.check(&bulk), expected) {
            (Ok(unchecked), None) => {
                prop_assert_eq!(unchecked.len(), usize::from(index > 0));
            }
            (Err(ValidationError::Item { list, index: at, error }), Some(rule)) => {
                prop_assert_eq!((list, at), ("orders", index));
                prop_assert_eq!(violation(*error).rule, rule);
            }
            (got, want) => prop_assert!(false, "got {:?}, want {:?}", got, want),
        }
        // Market and trigger orders: no total (no price is known), the amount's rules apply.
        let amount_rule = if places(a) > market.amount_places {
            Some(Rule::AmountPrecision)
        } else if amount.units < market.min_amount.units {
            Some(Rule::MinAmount)
        } else {
            None
        };
        let market_order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, a).build().unwrap();
        prop_assert_eq!(rules.check(&market_order).err().map(|e| violation(e).rule), amount_rule);
        let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, a, "1").build().unwrap();
        prop_assert_eq!(rules.check(&trigger).err().map(|e| violation(e).rule), amount_rule);
    }
}

impl Market {
    /// A book holding this market's rules as `BTC_USDT`, read from its market info.
    fn book(&self) -> MarketRulebook {
        let info: MarketInfo = serde_json::from_str(
            &serde_json::json!({
                "name": "BTC_USDT",
                "stockPrec": self.amount_places.to_string(),
                "moneyPrec": self.price_places.to_string(),
                "minAmount": self.min_amount.text,
                "minTotal": self.min_total.text,
                "maxTotal": self.max_total.text,
            })
            .to_string(),
        )
        .unwrap();
        MarketRulebook::from_infos([&info])
    }
}

#[test]
fn a_rule_breach_names_the_field_the_rule_the_market_value_and_the_nearest() {
    let rules = MarketRules::new(
        "BTC_USDT".parse().unwrap(),
        3,
        2,
        "0.001".parse().unwrap(),
        "5".parse().unwrap(),
        "100000".parse().unwrap(),
    )
    .unwrap();
    let cases = [
        limit("0.0015", "40000"),
        limit("0.001", "40000.125"),
        limit("0.0001", "40000"),
        limit("0.001", "4000"),
        limit("3", "40000"),
        CollateralLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "40000")
            .stop_loss("41000.001")
            .build()
            .unwrap(),
        CollateralLimitOrder::builder("ETH_USDT", Side::Sell, "0.01", "40000")
            .build()
            .unwrap(),
    ];
    let rendered: Vec<String> = cases
        .iter()
        .map(|order| rules.check(order).unwrap_err().to_string())
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
    assert_eq!(
        rules.check(&limit("0.01", "40000")),
        Ok(()),
        "0.01 at 40000 is 400: within the bounds"
    );
    // A total that no amount at the step can meet has no nearest value.
    let tight = MarketRules::new(
        "BTC_USDT".parse().unwrap(),
        0,
        2,
        "0".parse().unwrap(),
        "0".parse().unwrap(),
        "10".parse().unwrap(),
    )
    .unwrap();
    let v = violation(tight.check(&limit("1", "20")).unwrap_err());
    assert_eq!((v.rule, v.nearest), (Rule::MaxTotal, None));
    // Rounding up would cross maxTotal, and down gives zero: an error naming the bound.
    let error = tight
        .round_amount(&"0.6".parse().unwrap(), Some(&"11".parse().unwrap()))
        .unwrap_err();
    assert_eq!(violation(error).rule, Rule::MaxTotal);
}

#[test]
fn rules_come_from_the_market_info_and_a_missing_field_is_named() {
    let infos: Vec<MarketInfo> =
        serde_json::from_str(include_str!("fixtures/markets_documented.json")).unwrap();
    let rules = MarketRules::from_info(&infos[0]).unwrap();
    assert_eq!((rules.amount_precision(), rules.price_precision()), (3, 2));
    assert_eq!(rules.max_total().map(|m| m.as_str()), Some("10000000000"));
    let unbounded: MarketInfo = serde_json::from_str(
        r#"{"name":"A_B","stockPrec":"1","moneyPrec":"1","minAmount":"1","minTotal":"1","maxTotal":"0"}"#,
    )
    .unwrap();
    assert_eq!(
        MarketRules::from_info(&unbounded).unwrap().max_total(),
        None
    );
    for (missing, json) in [
        (
            "stockPrec",
            r#"{"name":"A_B","moneyPrec":"1","minAmount":"1","minTotal":"1","maxTotal":"0"}"#,
        ),
        (
            "minTotal",
            r#"{"name":"A_B","stockPrec":"1","moneyPrec":"1","minAmount":"1","maxTotal":"0"}"#,
        ),
        (
            "minAmount",
            r#"{"name":"A_B","stockPrec":"1","moneyPrec":"1","minAmount":"-1","minTotal":"1","maxTotal":"0"}"#,
        ),
        (
            "stockPrec",
            r#"{"name":"A_B","stockPrec":"99","moneyPrec":"1","minAmount":"1","minTotal":"1","maxTotal":"0"}"#,
        ),
    ] {
        let info: MarketInfo = serde_json::from_str(json).unwrap();
        assert_eq!(
            MarketRules::from_info(&info).unwrap_err().field(),
            missing,
            "{json}"
        );
    }
    // A book keeps what it could not read, and leaves orders of unknown markets unchecked.
    let mut all = infos.clone();
    all.push(serde_json::from_str(r#"{"name":"BAD_ONE"}"#).unwrap());
    let book = MarketRulebook::from_infos(&all);
    assert!(book.get("SON_USD").is_some() && book.get("BAD_ONE").is_none());
    assert!(book.unreadable().contains_key("BAD_ONE"));
    let order = |m: &str| {
        CollateralLimitOrder::builder(m, Side::Buy, "1", "1")
            .build()
            .unwrap()
    };
    let bulk = CollateralBulkOrder::new(vec![
        order("SON_USD"),
        order("BAD_ONE"),
        order("X_Y"),
        order("X_Y"),
    ]);
    let unchecked = book.check(&bulk.unwrap()).unwrap();
    assert_eq!(unchecked, ["BAD_ONE", "X_Y"]);
    let small = CollateralLimitOrder::builder("SON_USD", Side::Buy, "0.0001", "1")
        .build()
        .unwrap();
    assert_eq!(
        violation(book.check(&small).unwrap_err()).rule,
        Rule::AmountPrecision
    );
}

proptest! {
    #[test]
    fn any_published_figure_makes_rules_or_an_error_naming_it(
        figure in "-?[0-9]{1,30}(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,12})?",
        places in 0..100u32,
        amount in "[1-9][0-9]{0,20}(\\.[0-9]{1,18})?",
    ) {
        let value: txc_types::values::ExactDecimal = figure.parse().unwrap();
        let made = MarketRules::new(
            "BTC_USDT".parse().unwrap(),
            places,
            places,
            value.clone(),
            value.clone(),
            value,
        );
        match made {
            Ok(rules) => {
                // Checking and rounding with any rules never panics.
                let order = limit(&amount, &amount);
                let _ = rules.check(&order);
                let amount: Amount = amount.parse().unwrap();
                let _ = rules.round_amount(&amount, Some(&amount.as_str().parse().unwrap()));
            }
            Err(error) => prop_assert!(
                ["stockPrec", "moneyPrec", "minAmount", "maxTotal", "minTotal"].contains(&error.field()),
                "{}", error
            ),
        }
    }
}
