//! The closed enums of wire words (`#[derive(WireEnum)]`): each word reads back as its value,
//! in every spelling the exchange sends; serde writes the same word; anything else is refused
//! naming the wire field.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt::Display;
use std::str::FromStr;

use serde::Serialize;
use txc_types::errors::{Reason, ValidationError};
use txc_types::orders::{ActivationCondition, OrderClass, PositionSide, Side, Stp};
use txc_types::positions::LiquidationState;

/// `text` read as `T`: its word as `Display` and serde write it (the two checked alike), or
/// the wire field its error names (the reason checked to be an unknown value).
fn read<T>(text: &str) -> Result<String, &'static str>
where
    T: FromStr<Err = ValidationError> + Display + Serialize,
{
    match text.parse::<T>() {
        Ok(value) => {
            let word = value.to_string();
            assert_eq!(
                serde_json::to_string(&value).unwrap(),
                format!("\"{word}\"")
            );
            Ok(word)
        }
        Err(ValidationError::InvalidField {
            field,
            reason: Reason::UnknownVariant,
        }) => Err(field),
        Err(other) => panic!("{text}: {other:?}"),
    }
}

/// A reader of one enum: [`read`] of it.
type Reader = fn(&str) -> Result<String, &'static str>;

#[test]
fn each_word_reads_back_and_others_are_refused_naming_the_field() {
    let spellings: [(Reader, &str, &str); 25] = [
        (read::<Side>, "buy", "buy"),
        (read::<Side>, "sell", "sell"),
        (read::<PositionSide>, "LONG", "LONG"),
        (read::<PositionSide>, "long", "LONG"),
        (read::<PositionSide>, "Long", "LONG"),
        (read::<PositionSide>, "SHORT", "SHORT"),
        (read::<PositionSide>, "short", "SHORT"),
        (read::<PositionSide>, "BOTH", "BOTH"),
        (read::<PositionSide>, "both", "BOTH"),
        (read::<Stp>, "no", "no"),
        (read::<Stp>, "cb", "cb"),
        (read::<Stp>, "cancel_both", "cb"),
        (read::<Stp>, "cn", "cn"),
        (read::<Stp>, "cancel_new", "cn"),
        (read::<Stp>, "co", "co"),
        (read::<Stp>, "cancel_old", "co"),
        (read::<OrderClass>, "spot", "spot"),
        (read::<OrderClass>, "margin", "margin"),
        (read::<OrderClass>, "futures", "futures"),
        (read::<ActivationCondition>, "lte", "lte"),
        (read::<ActivationCondition>, "<=", "lte"),
        (read::<ActivationCondition>, "gte", "gte"),
        (read::<ActivationCondition>, ">=", "gte"),
        (read::<LiquidationState>, "margin_call", "margin_call"),
        (read::<LiquidationState>, "liquidation", "liquidation"),
    ];
    for (read, text, word) in spellings {
        assert_eq!(read(text).as_deref(), Ok(word), "{text}");
    }
    let fields: [(Reader, &str); 6] = [
        (read::<Side>, "side"),
        (read::<PositionSide>, "positionSide"),
        (read::<Stp>, "stp"),
        (read::<OrderClass>, "type"),
        (read::<ActivationCondition>, "activationCondition"),
        (read::<LiquidationState>, "liquidationState"),
    ];
    for (read, field) in fields {
        for unknown in ["", "x", "buy ", "LONGER"] {
            assert_eq!(read(unknown), Err(field), "{unknown}");
        }
    }
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
        (OrderType::Limit, "limit"),
        (OrderType::MarginLimit, "margin limit"),
        (OrderType::StopLimit, "stop limit"),
        (OrderType::MarginStopLimit, "margin stop limit"),
        (OrderType::Unknown("iceberg".into()), "iceberg"),
        (OrderType::Unknown("MARKET".into()), "MARKET"),
    ] {
        assert_eq!((kind.as_str(), kind.to_string()), (word, word.to_owned()));
        assert_eq!(OrderType::from(word), kind);
        assert_eq!(String::from(kind.clone()), word);
        assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{word}\""));
    }
}

/// The value `from_code` gives each of the codes 0 to 3 and 9, each checked to give its code
/// back and to be written as it.
fn values<T>(from_code: fn(u64) -> T, code: fn(T) -> u64) -> String
where
    T: Copy + std::fmt::Debug + Serialize,
{
    let named = [0, 1, 2, 3, 9].map(|number| {
        let value = from_code(number);
        assert_eq!(code(value), number, "{value:?}");
        assert_eq!(serde_json::to_string(&value).unwrap(), number.to_string());
        format!("{value:?}")
    });
    named.join(" ")
}

#[test]
fn stream_codes_keep_unknown_numbers() {
    use txc_types::events::{DealRole, OrderEventKind, PositionEventKind};
    assert_eq!(
        values(OrderEventKind::from_code, OrderEventKind::code),
        "Other(0) New Updated Finished Other(9)"
    );
    assert_eq!(
        values(DealRole::from_code, DealRole::code),
        "Other(0) Maker Taker Other(3) Other(9)"
    );
    assert_eq!(
        values(PositionEventKind::from_code, PositionEventKind::code),
        "Other(0) MarginCall Liquidation Other(3) Other(9)"
    );
    // Read from the stream as a number or a digit string.
    let event = txc_types::events::PositionEvent::from_params(
        r#"["2",{"id":1,"market":"BTC_USDT","amount":"1"}]"#,
    )
    .unwrap();
    assert_eq!(event.kind, PositionEventKind::Liquidation);
}
