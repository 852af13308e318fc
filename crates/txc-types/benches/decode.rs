//! Decoding answers: the derived decoders (`#[derive(Answer)]`) beside a copy of the
//! hand-written decoders they replaced, over the same leniency functions, in the same run.
//! Run: `cargo bench -p txc-types --bench decode`.
//!
//! The copy (module `hand_written`) is the per-struct code of txc-types 0.2 — parts struct,
//! `set` match, `finish` — verbatim but for paths, decoding into records shaped as they were
//! then (`market: String`, `client_order_id: Option<String>`); `src/lenient.rs` is compiled into
//! this bench so both sides call the same functions.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    missing_docs,
    unreachable_pub,
    dead_code // the copied records are only decoded, never read
)]

use std::hint::black_box;

use divan::{AllocProfiler, Bencher};
use txc_types::investments::InvestmentPlan;
use txc_types::orders::Order;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

#[path = "../src/lenient.rs"]
mod lenient;

const ORDER: &[u8] = br#"{"orderId":4180284841,"clientOrderId":"order1987111","market":"BTC_USDT","side":"sell","type":"market","timestamp":1595792396.165973,"dealMoney":"0","dealStock":"0","amount":"0.001","left":"0.001","dealFee":"0","status":"FILLED","stp":"no","oto":{"otoId":29457221,"stopLoss":"50000","takeProfit":"40000"},"positionSide":"LONG","reduceOnly":false}"#;

fn plans(n: usize) -> Vec<u8> {
    let plan = r#"{"id":"8e667b4a-0b71-4988-8af5-9474dbfaeb51","ticker":"USDT","status":1,"percent":"10","duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100","maxInvestment":"10000","maxPossibleInvestment":"3000"}"#;
    format!("[{}]", vec![plan; n].join(",")).into_bytes()
}

mod order_answer {
    use super::*;

    /// `#[derive(Answer)]`.
    #[divan::bench]
    fn derived(b: Bencher<'_, '_>) {
        b.bench_local(|| black_box(serde_json::from_slice::<Order>(black_box(ORDER)).unwrap()));
    }

    /// The 0.2 hand-written decoder.
    #[divan::bench]
    fn hand_written(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(serde_json::from_slice::<hand_written::Order>(black_box(ORDER)).unwrap())
        });
    }

    /// The floor: serde_json reading the same bytes into nothing.
    #[divan::bench]
    fn floor_parse_only(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(black_box(ORDER)).unwrap())
        });
    }
}

mod plans_answer_100 {
    use super::*;

    /// `#[derive(Answer)]`.
    #[divan::bench]
    fn derived(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(serde_json::from_slice::<Vec<InvestmentPlan>>(black_box(&body)).unwrap())
        });
    }

    /// The 0.2 hand-written decoder.
    #[divan::bench]
    fn hand_written(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(
                serde_json::from_slice::<Vec<hand_written::InvestmentPlan>>(black_box(&body))
                    .unwrap(),
            )
        });
    }

    /// The floor: serde_json reading the same bytes into nothing.
    #[divan::bench]
    fn floor_parse_only(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(black_box(&body)).unwrap())
        });
    }
}

/// txc-types 0.2's hand-written decoders of `Order`, `Oto` and `InvestmentPlan`.
mod hand_written {
    use serde::de::MapAccess;
    use serde::{Deserialize, Deserializer};
    use serde_json::{Map, Value};
    use txc_types::investments::PlanStatus;
    use txc_types::orders::{ActivationCondition, OrderStatus, OrderType, PositionSide, Side, Stp};
    use txc_types::values::{ExactDecimal, Timestamp};

    use crate::lenient::{self, Field, FromWire, ObjectFields, Scalar, Set, Word, object, put};

    // The conversions 0.2 made inside txc-types, through the same public constructors.
    impl FromWire for ExactDecimal {
        fn from_wire(value: &Scalar<'_>) -> Option<Self> {
            ExactDecimal::new(value.text()?).ok()
        }
    }
    impl FromWire for Timestamp {
        fn from_wire(value: &Scalar<'_>) -> Option<Self> {
            Timestamp::parse(value.text()?.trim())
        }
    }
    // 0.2's `put_with(slot, field, word)`: the same read and parse.
    impl Word for Side {}
    impl Word for Stp {}
    impl Word for PositionSide {}
    impl Word for ActivationCondition {}
    impl FromWire for OrderType {
        fn from_wire(value: &Scalar<'_>) -> Option<Self> {
            value.text().map(OrderType::from)
        }
    }
    impl FromWire for OrderStatus {
        fn from_wire(value: &Scalar<'_>) -> Option<Self> {
            value.text().map(OrderStatus::from)
        }
    }
    impl FromWire for PlanStatus {
        fn from_wire(value: &Scalar<'_>) -> Option<Self> {
            i64::from_wire(value).map(PlanStatus::from)
        }
    }

    #[derive(Debug)]
    pub struct Order {
        pub order_id: u64,
        pub client_order_id: Option<String>,
        pub market: String,
        pub side: Side,
        pub order_type: OrderType,
        pub timestamp: Timestamp,
        pub deal_money: ExactDecimal,
        pub deal_stock: ExactDecimal,
        pub amount: ExactDecimal,
        pub left: ExactDecimal,
        pub deal_fee: Option<ExactDecimal>,
        pub fee_asset: Option<String>,
        pub price: Option<ExactDecimal>,
        pub taker_fee: Option<ExactDecimal>,
        pub maker_fee: Option<ExactDecimal>,
        pub status: Option<OrderStatus>,
        pub stp: Option<Stp>,
        pub oto: Option<Oto>,
        pub position_side: Option<PositionSide>,
        pub reduce_only: Option<bool>,
        pub activation_price: Option<ExactDecimal>,
        pub activated: Option<bool>,
        pub activation_condition: Option<ActivationCondition>,
        pub extra: Map<String, Value>,
    }

    /// `clientOrderId`: `""` means "not specified".
    fn client_order_id<'de, A: MapAccess<'de>>(
        slot: &mut Option<String>,
        field: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error> {
        let set = put(slot, field)?;
        if slot.as_deref() == Some("") {
            *slot = None;
        }
        Ok(set)
    }

    #[derive(Default)]
    pub struct OrderParts {
        order_id: Option<u64>,
        client_order_id: Option<String>,
        market: Option<String>,
        side: Option<Side>,
        order_type: Option<OrderType>,
        timestamp: Option<Timestamp>,
        deal_money: Option<ExactDecimal>,
        deal_stock: Option<ExactDecimal>,
        amount: Option<ExactDecimal>,
        left: Option<ExactDecimal>,
        deal_fee: Option<ExactDecimal>,
        fee_asset: Option<String>,
        price: Option<ExactDecimal>,
        taker_fee: Option<ExactDecimal>,
        maker_fee: Option<ExactDecimal>,
        status: Option<OrderStatus>,
        stp: Option<Stp>,
        oto: Option<Oto>,
        position_side: Option<PositionSide>,
        reduce_only: Option<bool>,
        activation_price: Option<ExactDecimal>,
        activated: Option<bool>,
        activation_condition: Option<ActivationCondition>,
    }

    impl ObjectFields for Order {
        type Parts = OrderParts;
        const EXPECTING: &'static str = "an order object";

        fn set<'de, A: MapAccess<'de>>(
            p: &mut OrderParts,
            key: &str,
            raw: Field<'_, 'de, A>,
        ) -> Result<Set, A::Error> {
            match key {
                "orderId" => put(&mut p.order_id, raw),
                "clientOrderId" => client_order_id(&mut p.client_order_id, raw),
                "market" => put(&mut p.market, raw),
                "side" => put(&mut p.side, raw),
                "type" => put(&mut p.order_type, raw),
                "timestamp" => put(&mut p.timestamp, raw),
                "dealMoney" => put(&mut p.deal_money, raw),
                "dealStock" => put(&mut p.deal_stock, raw),
                "amount" => put(&mut p.amount, raw),
                "left" => put(&mut p.left, raw),
                "dealFee" => put(&mut p.deal_fee, raw),
                "feeAsset" => put(&mut p.fee_asset, raw),
                "price" => put(&mut p.price, raw),
                "takerFee" => put(&mut p.taker_fee, raw),
                "makerFee" => put(&mut p.maker_fee, raw),
                "status" => put(&mut p.status, raw),
                "stp" => put(&mut p.stp, raw),
                "oto" => object(&mut p.oto, raw),
                "positionSide" => put(&mut p.position_side, raw),
                "reduceOnly" => put(&mut p.reduce_only, raw),
                "activation_price" => put(&mut p.activation_price, raw),
                "activated" => put(&mut p.activated, raw),
                "activationCondition" => put(&mut p.activation_condition, raw),
                _ => Ok(Set::Unknown),
            }
        }

        fn finish(p: OrderParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
            Ok(Self {
                order_id: p.order_id.ok_or("orderId")?,
                client_order_id: p.client_order_id,
                market: p.market.ok_or("market")?,
                side: p.side.ok_or("side")?,
                order_type: p.order_type.ok_or("type")?,
                timestamp: p.timestamp.ok_or("timestamp")?,
                deal_money: p.deal_money.ok_or("dealMoney")?,
                deal_stock: p.deal_stock.ok_or("dealStock")?,
                amount: p.amount.ok_or("amount")?,
                left: p.left.ok_or("left")?,
                deal_fee: p.deal_fee,
                fee_asset: p.fee_asset,
                price: p.price,
                taker_fee: p.taker_fee,
                maker_fee: p.maker_fee,
                status: p.status,
                stp: p.stp,
                oto: p.oto,
                position_side: p.position_side,
                reduce_only: p.reduce_only,
                activation_price: p.activation_price,
                activated: p.activated,
                activation_condition: p.activation_condition,
                extra: std::mem::take(extra),
            })
        }
    }

    impl<'de> Deserialize<'de> for Order {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            lenient::deserialize_object(d)
        }
    }

    #[derive(Debug)]
    pub struct Oto {
        pub oto_id: u64,
        pub stop_loss: Option<ExactDecimal>,
        pub take_profit: Option<ExactDecimal>,
        pub extra: Map<String, Value>,
    }

    #[derive(Default)]
    pub struct OtoParts {
        oto_id: Option<u64>,
        stop_loss: Option<ExactDecimal>,
        take_profit: Option<ExactDecimal>,
    }

    impl ObjectFields for Oto {
        type Parts = OtoParts;
        const EXPECTING: &'static str = "an oto object";

        fn set<'de, A: MapAccess<'de>>(
            p: &mut OtoParts,
            key: &str,
            raw: Field<'_, 'de, A>,
        ) -> Result<Set, A::Error> {
            match key {
                "otoId" => put(&mut p.oto_id, raw),
                "stopLoss" => put(&mut p.stop_loss, raw),
                "takeProfit" => put(&mut p.take_profit, raw),
                _ => Ok(Set::Unknown),
            }
        }

        fn finish(p: OtoParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
            Ok(Self {
                oto_id: p.oto_id.ok_or("otoId")?,
                stop_loss: p.stop_loss,
                take_profit: p.take_profit,
                extra: std::mem::take(extra),
            })
        }
    }

    impl<'de> Deserialize<'de> for Oto {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            lenient::deserialize_object(d)
        }
    }

    #[derive(Debug)]
    pub struct InvestmentPlan {
        pub id: String,
        pub ticker: String,
        pub status: PlanStatus,
        pub percent: ExactDecimal,
        pub duration_minutes: u64,
        pub interest_ticker: String,
        pub interest_ratio: ExactDecimal,
        pub min_investment: ExactDecimal,
        pub max_investment: ExactDecimal,
        pub max_possible_investment: ExactDecimal,
        pub extra: Map<String, Value>,
    }

    #[derive(Default)]
    pub struct PlanParts {
        id: Option<String>,
        ticker: Option<String>,
        status: Option<PlanStatus>,
        percent: Option<ExactDecimal>,
        duration_minutes: Option<u64>,
        interest_ticker: Option<String>,
        interest_ratio: Option<ExactDecimal>,
        min_investment: Option<ExactDecimal>,
        max_investment: Option<ExactDecimal>,
        max_possible_investment: Option<ExactDecimal>,
    }

    impl ObjectFields for InvestmentPlan {
        type Parts = PlanParts;
        const EXPECTING: &'static str = "an investment plan object";

        fn set<'de, A: MapAccess<'de>>(
            p: &mut PlanParts,
            key: &str,
            raw: Field<'_, 'de, A>,
        ) -> Result<Set, A::Error> {
            match key {
                "id" => put(&mut p.id, raw),
                "ticker" => put(&mut p.ticker, raw),
                "status" => put(&mut p.status, raw),
                "percent" => put(&mut p.percent, raw),
                "duration" => put(&mut p.duration_minutes, raw),
                "interestTicker" => put(&mut p.interest_ticker, raw),
                "interestRatio" => put(&mut p.interest_ratio, raw),
                "minInvestment" => put(&mut p.min_investment, raw),
                "maxInvestment" => put(&mut p.max_investment, raw),
                "maxPossibleInvestment" => put(&mut p.max_possible_investment, raw),
                _ => Ok(Set::Unknown),
            }
        }

        fn finish(p: PlanParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
            Ok(Self {
                id: p.id.ok_or("id")?,
                ticker: p.ticker.ok_or("ticker")?,
                status: p.status.ok_or("status")?,
                percent: p.percent.ok_or("percent")?,
                duration_minutes: p.duration_minutes.ok_or("duration")?,
                interest_ticker: p.interest_ticker.ok_or("interestTicker")?,
                interest_ratio: p.interest_ratio.ok_or("interestRatio")?,
                min_investment: p.min_investment.ok_or("minInvestment")?,
                max_investment: p.max_investment.ok_or("maxInvestment")?,
                max_possible_investment: p
                    .max_possible_investment
                    .ok_or("maxPossibleInvestment")?,
                extra: std::mem::take(extra),
            })
        }
    }

    impl<'de> Deserialize<'de> for InvestmentPlan {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            lenient::deserialize_object(d)
        }
    }
}
