//! What each answer writes back (`Serialize`): every answer record, decoded from a documented
//! shape (with a field this version does not know added) and written as JSON. The snapshot pins
//! the text: wire names, fields left out when absent, the `extra` map's entries last.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::Serialize;
use serde::de::DeserializeOwned;
use txc_types::events::{MarginBalance, StreamOrder, StreamPosition};
use txc_types::investments::{
    InterestPayment, InterestPaymentsPage, Investment, InvestmentPlan, InvestmentsPage,
    NewInvestment,
};
use txc_types::lookups::{ConditionalOrders, ExecutedDeals, OrderDeals, OrderHistory};
use txc_types::orders::{BulkCancelItem, KillSwitchAnswer, Order};
use txc_types::positions::{
    AccountSummary, AssetBalance, ClosedPosition, FundingHistory, HedgeMode, LeverageSet,
    MarketAdlQuantile, Position, PositionEvent,
};
use txc_types::time::ServerTime;

/// `text` decoded as `T` and written back as JSON.
fn written<T: DeserializeOwned + Serialize>(text: &str) -> String {
    let value: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    serde_json::to_string(&value).unwrap()
}

/// A case: its name, how its text is decoded and written, and the text.
type Row = (&'static str, fn(&str) -> String, &'static str);

#[test]
fn each_answer_writes_its_wire_names_and_extra() {
    let rows: [Row; 32] = [
        (
            "order",
            written::<Order>,
            include_str!("fixtures/order_documented.json"),
        ),
        (
            "order older",
            written::<Order>,
            include_str!("fixtures/order_older_capture.json"),
        ),
        (
            "order oto null",
            written::<Order>,
            include_str!("fixtures/order_oto_null.json"),
        ),
        (
            "order unknown values",
            written::<Order>,
            include_str!("fixtures/order_unknown_values.json"),
        ),
        (
            "trigger order",
            written::<Order>,
            include_str!("fixtures/trigger_order_documented.json"),
        ),
        (
            "trigger order older",
            written::<Order>,
            include_str!("fixtures/trigger_order_older_capture.json"),
        ),
        (
            "open orders",
            written::<Vec<Order>>,
            include_str!("fixtures/open_orders_documented.json"),
        ),
        (
            "cancel",
            written::<Order>,
            include_str!("fixtures/cancel_documented.json"),
        ),
        (
            "history",
            written::<OrderHistory>,
            include_str!("fixtures/order_history_documented.json"),
        ),
        (
            "conditional orders",
            written::<ConditionalOrders>,
            include_str!("fixtures/conditional_orders_documented.json"),
        ),
        (
            "plans",
            written::<Vec<InvestmentPlan>>,
            include_str!("fixtures/plans_all_statuses.json"),
        ),
        (
            "bulk cancel",
            written::<Vec<BulkCancelItem>>,
            r#"[{"result":{"orderId":4326248250,"clientOrderId":"","market":"BTC_USDT","zz":1},"error":null},
                {"result":null,"error":{"code":404,"message":"Order not found","zz":[1],
                 "errors":{"orderId":["Order does not exist or already cancelled"]}}},{"zz":{}}]"#,
        ),
        (
            "kill switch",
            written::<KillSwitchAnswer>,
            r#"{"market":"BTC_USDT","startTime":1662478154,"cancellationTime":1662478214,"types":["spot","margin"],"zz":1}"#,
        ),
        (
            "margin balance",
            written::<MarginBalance>,
            r#"{"a":"USDT","B":"0.00538073","b":"0","av":"0.00538073","ab":"28.43739825","zz":1}"#,
        ),
        (
            "stream order",
            written::<StreamOrder>,
            r#"{"id":1212904480922,"market":"BTC_USDT","type":1,"side":2,"ctime":1738250982.28914,
                "mtime":1738250982.5,"amount":"1","left":"1","deal_stock":"0","deal_money":"0",
                "deal_fee":"0","price":"100","client_order_id":"","status":"OPEN","stp":"cb",
                "position_side":"LONG","reduce_only":false,"post_only":true,"ioc":false,"rpi":true}"#,
        ),
        (
            "stream position",
            written::<StreamPosition>,
            r#"{"id":2,"market":"BTC_USDT","ctime":1704067200,"amount":"-0.01","liq_stage":null,
                "base_price":"40000","pnl":"-1","position_side":"LONG","zz":1}"#,
        ),
        (
            "interest payments",
            written::<InterestPaymentsPage>,
            r#"{"offset":0,"limit":100,"records":[{"planId":"8e667b4a","investmentId":"0d7b66ff",
                "amount":"10","ticker":"USDT","timestamp":1646839596,"zz":1}]}"#,
        ),
        (
            "interest payment",
            written::<InterestPayment>,
            r#"{"planId":"8e667b4a","investmentId":"0d7b66ff","amount":"10","ticker":"USDT","timestamp":1646839596}"#,
        ),
        (
            "new investment",
            written::<NewInvestment>,
            r#"{"id":"0d7b66ff-1909-4938-ab7a-d16d9a64dcd5","zz":1}"#,
        ),
        (
            "investments",
            written::<InvestmentsPage>,
            r#"{"limit":100,"records":[{"id":"0d7b66ff","plan":{"id":"8e667b4a","ticker":"USDT",
                "status":1,"percent":"10","duration":14400,"interestTicker":"USDT",
                "interestRatio":"1","minInvestment":"100","maxInvestment":"10000",
                "maxPossibleInvestment":"3000"},"status":1,"created":1646825196,
                "updated":1646825196,"paymentTime":1646839596,"amount":"100","interestPaid":"0"}],"zz":1}"#,
        ),
        (
            "investment",
            written::<Investment>,
            r#"{"id":"0d7b66ff","plan":{"id":"8e667b4a","ticker":"USDT","status":1,"percent":"10",
                "duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100",
                "maxInvestment":"10000","maxPossibleInvestment":"3000","zz":2},"status":1,
                "created":1646825196,"updated":1646825196,"paymentTime":1646839596,
                "amount":"100","interestPaid":"0","zz":1}"#,
        ),
        (
            "account summary",
            written::<AccountSummary>,
            r#"{"equity":"15000.50","margin":"5000.00","freeMargin":"10000.50","unrealizedFunding":"25.75",
                "pnl":"150.25","leverage":3,"marginFraction":"0.3333","zz":1}"#,
        ),
        (
            "asset balance",
            written::<AssetBalance>,
            r#"{"asset":"BTC","balance":"0.5","borrow":"0","availableWithoutBorrow":"0.5","availableWithBorrow":"123.456"}"#,
        ),
        (
            "hedge mode and leverage",
            |text| {
                format!(
                    "{} {}",
                    written::<HedgeMode>(text),
                    written::<LeverageSet>(text)
                )
            },
            r#"{"hedgeMode":true,"leverage":5,"zz":1}"#,
        ),
        (
            "position",
            written::<Position>,
            r#"{"positionId":527,"market":"BTC_USDT","openDate":1651568067.789679,
                "modifyDate":1651568067.789679,"amount":"0.1","basePrice":"45658.349",
                "liquidationPrice":null,"liquidationState":"margin_call","pnl":"-168.42",
                "pnlPercent":"-0.43","margin":"8316.74","freeMargin":"619385.67","funding":"0",
                "unrealizedFunding":"0.0019142920201966","tpsl":{"takeProfitId":1,"takeProfit":"50000",
                "stopLossId":null,"zz":1},"positionSide":"LONG","zz":1}"#,
        ),
        (
            "position event",
            written::<PositionEvent>,
            r#"{"positionId":111,"market":"BTC_USDT","openDate":1650400589.882613,
                "modifyDate":1650400589.882613,"amount":"0.1","basePrice":"45658.349",
                "realizedFunding":"0","liquidationPrice":null,"liquidationState":"margin_call",
                "orderDetail":{"id":97067934,"tradeAmount":"0.1","price":"41507.59",
                "tradeFee":"415.07","fundingFee":null,"realizedPnl":null,"zz":1},
                "side":"LONG","isHedge":false}"#,
        ),
        (
            "closed positions",
            written::<Vec<ClosedPosition>>,
            r#"[{"positionId":111,"market":"BTC_USDT","grossPnl":"43.85","netPnl":"42.6",
                "totalTradeFee":"6.15","totalFunding":"1.25","avgEntryPrice":"61000",
                "avgExitPrice":"62000","closedSize":"0.05","amount":"0","side":"LONG",
                "isHedge":true,"openDate":1778000000,"closeDate":1778077400,"zz":1}]"#,
        ),
        (
            "funding history",
            written::<FundingHistory>,
            r#"{"records":[{"market":"BTC_PERP","fundingTime":"1734451200","fundingRate":"0.00017674",
                "fundingAmount":"-0.171053531892","positionAmount":"0.019","settlementPrice":"50938.2",
                "rateCalculatedTime":"1734364800","zz":1}],"limit":100,"offset":0,"zz":2}"#,
        ),
        (
            "adl quantiles",
            written::<Vec<MarketAdlQuantile>>,
            r#"[{"market":"BTC_PERP","long":0,"short":null},{"market":"ETH_PERP","long":2,"short":"1","zz":1}]"#,
        ),
        (
            "order deals",
            written::<OrderDeals>,
            r#"{"records":[{"time":1593342324.613711,"fee":"0.00000419198","price":"0.00000701",
                "amount":"598","id":149156519,"dealOrderId":3134995325,"clientOrderId":"","role":2,
                "deal":"0.00419198","feeAsset":"USDT","rpi":true,"zz":1}],"offset":0,"limit":100}"#,
        ),
        (
            "executed deals",
            written::<ExecutedDeals>,
            r#"{"BTC_USDT":[{"id":149156519,"clientOrderId":"customId11","time":1593342324.613711,
                "side":"buy","role":1,"amount":"598","price":"0.00000701","deal":"0.00419198",
                "fee":"0.00000419198","orderId":3134995325,"feeAsset":"USDT","zz":1}]}"#,
        ),
        (
            "server time",
            written::<ServerTime>,
            r#"{"time":"1631451591.75","zone":"UTC"}"#,
        ),
    ];
    let lines: Vec<String> = rows
        .iter()
        .map(|(name, write, text)| format!("{name}: {}", write(text)))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}
