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

#[test]
fn open_sets_keep_what_they_do_not_know() {
    use txc_types::orders::{OrderStatus, OrderType};
    for (status, word) in [
        (OrderStatus::Filled, "FILLED"),
        (OrderStatus::PartiallyFilled, "PARTIALLY_FILLED"),
        (OrderStatus::Canceled, "CANCELED"),
        (OrderStatus::CanceledTakerBand, "CANCELED_TAKER_BAND"),
        (
            OrderStatus::AutoCanceledReduceOnly,
            "AUTO_CANCELED_REDUCE_ONLY",
        ),
        (
            OrderStatus::AutoCanceledLiquidation,
            "AUTO_CANCELED_LIQUIDATION",
        ),
        (OrderStatus::CanceledStp, "CANCELED_STP"),
        (OrderStatus::Open, "OPEN"),
        (OrderStatus::Unknown("NEW_ONE".into()), "NEW_ONE"),
    ] {
        assert_eq!(
            (status.as_str(), status.to_string()),
            (word, word.to_owned())
        );
        assert_eq!(word.parse::<OrderStatus>(), Ok(status.clone()));
        assert_eq!(OrderStatus::from(word.to_owned()), status);
        assert_eq!(String::from(status.clone()), word);
        let json = format!("\"{word}\"");
        assert_eq!(serde_json::to_string(&status).unwrap(), json);
        assert_eq!(serde_json::from_str::<OrderStatus>(&json).unwrap(), status);
    }
    for (kind, word) in [
        (OrderType::Market, "market"),
        (OrderType::MarginMarket, "margin market"),
        (OrderType::StopMarket, "stop market"),
        (OrderType::TriggerMarginMarket, "trigger margin market"),
        (OrderType::Unknown("limit".into()), "limit"),
        (OrderType::Unknown("MARKET".into()), "MARKET"),
    ] {
        assert_eq!((kind.as_str(), kind.to_string()), (word, word.to_owned()));
        assert_eq!(OrderType::from(word), kind);
        assert_eq!(String::from(kind.clone()), word);
        assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{word}\""));
    }
}

/// Each value of a stream code reads back from its code and is written as it.
fn check_codes<T>(cases: &[(T, u64)], code: fn(T) -> u64, from_code: fn(u64) -> T)
where
    T: Copy + PartialEq + std::fmt::Debug + Serialize,
{
    for &(value, number) in cases {
        assert_eq!((code(value), from_code(number)), (number, value));
        assert_eq!(serde_json::to_string(&value).unwrap(), number.to_string());
    }
}

#[test]
fn stream_codes_keep_unknown_numbers() {
    use txc_types::events::{DealRole, OrderEventKind, PositionEventKind};
    check_codes(
        &[
            (OrderEventKind::New, 1),
            (OrderEventKind::Updated, 2),
            (OrderEventKind::Finished, 3),
            (OrderEventKind::Other(0), 0),
            (OrderEventKind::Other(9), 9),
        ],
        OrderEventKind::code,
        OrderEventKind::from_code,
    );
    check_codes(
        &[
            (DealRole::Maker, 1),
            (DealRole::Taker, 2),
            (DealRole::Other(3), 3),
        ],
        DealRole::code,
        DealRole::from_code,
    );
    check_codes(
        &[
            (PositionEventKind::MarginCall, 1),
            (PositionEventKind::Liquidation, 2),
            (PositionEventKind::Other(7), 7),
        ],
        PositionEventKind::code,
        PositionEventKind::from_code,
    );
    // Read from the stream as a number or a digit string.
    let event = txc_types::events::PositionEvent::from_params(
        r#"["2",{"id":1,"market":"BTC_USDT","amount":"1"}]"#,
    )
    .unwrap();
    assert_eq!(event.kind, PositionEventKind::Liquidation);
}
