//! The closed enums of wire words (`#[derive(WireEnum)]`): each word reads back as its value,
//! in every spelling the exchange sends; serde writes the same word; anything else is refused
//! naming the wire field.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Display;
use std::str::FromStr;

use serde::Serialize;
use txc_types::errors::{Reason, ValidationError};
use txc_types::orders::{ActivationCondition, OrderClass, PositionSide, Side, Stp};
use txc_types::positions::LiquidationState;

/// Every value of `T` with its word reads back from the word and from each other spelling,
/// writes the word (`Display`, serde), and a word of no value is refused naming `field`.
fn check<T>(values: &[(T, &str, &[&str])], field: &'static str)
where
    T: FromStr<Err = ValidationError> + Display + Serialize + PartialEq + std::fmt::Debug,
{
    for (value, word, others) in values {
        assert_eq!(value.to_string(), *word);
        assert_eq!(serde_json::to_string(value).unwrap(), format!("\"{word}\""));
        for spelling in std::iter::once(word).chain(others.iter()) {
            assert_eq!(spelling.parse::<T>().as_ref(), Ok(value), "{spelling}");
        }
    }
    for unknown in ["", "x", "buy ", "LONGER"] {
        assert_eq!(
            unknown.parse::<T>(),
            Err(ValidationError::InvalidField {
                field,
                reason: Reason::UnknownVariant
            }),
            "{unknown}"
        );
    }
}

#[test]
fn each_word_reads_back_and_others_are_refused_naming_the_field() {
    check(
        &[(Side::Buy, "buy", &[]), (Side::Sell, "sell", &[])],
        "side",
    );
    check(
        &[
            (PositionSide::Long, "LONG", &["long", "Long"]),
            (PositionSide::Short, "SHORT", &["short"]),
            (PositionSide::Both, "BOTH", &["both"]),
        ],
        "positionSide",
    );
    check(
        &[
            (Stp::No, "no", &[]),
            (Stp::CancelBoth, "cb", &["cancel_both"]),
            (Stp::CancelNew, "cn", &["cancel_new"]),
            (Stp::CancelOld, "co", &["cancel_old"]),
        ],
        "stp",
    );
    check(
        &[
            (OrderClass::Spot, "spot", &[]),
            (OrderClass::Margin, "margin", &[]),
            (OrderClass::Futures, "futures", &[]),
        ],
        "type",
    );
    check(
        &[
            (ActivationCondition::Lte, "lte", &["<="]),
            (ActivationCondition::Gte, "gte", &[">="]),
        ],
        "activationCondition",
    );
    check(
        &[
            (LiquidationState::MarginCall, "margin_call", &[]),
            (LiquidationState::Liquidation, "liquidation", &[]),
        ],
        "liquidationState",
    );
}

#[test]
fn exact_words_are_exact_and_serde_reads_as_before() {
    // Only the position side is read in any case.
    assert!("BUY".parse::<Side>().is_err());
    assert!("CB".parse::<Stp>().is_err());
    assert!("Spot".parse::<OrderClass>().is_err());
    // serde reads the side strictly by its own derive, the others through `FromStr`.
    let side = serde_json::from_str::<Side>("\"BUY\"").unwrap_err();
    assert!(side.to_string().contains("unknown variant `BUY`"), "{side}");
    assert_eq!(
        serde_json::from_str::<Stp>("\"cancel_old\"").unwrap(),
        Stp::CancelOld
    );
    assert_eq!(
        serde_json::from_str::<PositionSide>("\"short\"").unwrap(),
        PositionSide::Short
    );
    let class = serde_json::from_str::<OrderClass>("\"options\"").unwrap_err();
    assert!(class.to_string().contains("type"), "{class}");
}
