//! Every collateral order type beyond market and trigger orders through both transports
//! against the sandbox's market — limit, stop-limit, bulk, OCO and its listing, the OCO, OTO
//! and conditional cancels, modify, the public markets — and the check of every order against
//! its market's published rules before anything is sent. Each scenario runs once per
//! transport. (Placing each exactly once, against the sandbox's faults: `resolving/trading.rs`.)

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[macro_use]
mod common;

use common::trading::{TradingApi, TradingDriver};
use common::{Trace, config};
use txc_core::Error;
use txc_core::risk::MarketRulesCheck;
use txc_sandbox::{Sandbox, demo};
use txc_types::errors::ValidationError;
use txc_types::lookups::{ConditionalOrder, ConditionalOrdersQuery, OpenOrdersQuery};
use txc_types::markets::{MarketRulebook, MarketRules, Rule};
use txc_types::orders::{
    BulkOrderResult, CancelConditionalOrder, CancelOcoOrder, CancelOtoOrder, Cancellation,
    CollateralBulkOrder, CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder,
    CollateralStopLimitOrder, CollateralTriggerMarketOrder, ModifyOrder, OcoOrdersQuery,
    OrderRefusal, OrderStatus, Side,
};
use txc_types::values::{Amount, Price};

scenarios!(
    a_limit_order_rests_and_fills_when_the_price_crosses_it,
    a_stop_limit_order_waits_for_its_activation_price,
    a_bulk_answers_each_item_in_order_a_refused_one_beside_the_placed,
    an_oco_pair_is_listed_and_canceled_by_its_id,
    conditional_and_oto_cancels_remove_what_the_listing_names,
    a_modify_answers_the_replacement_with_a_new_order_id,
    the_public_markets_are_read_without_a_key,
    an_order_breaking_its_market_s_rules_is_refused_before_any_io,
    the_rules_are_read_once_and_again_after_a_refusal_31_to_33,
    a_price_or_market_refusal_makes_the_rules_read_again_too,
    an_unlisted_market_and_a_check_turned_off_send_unchecked,
    rounding_to_the_market_s_steps_is_explicit,
);

fn limit(side: Side, amount: &str, price: &str) -> CollateralLimitOrder {
    CollateralLimitOrder::builder("BTC_USDT", side, amount, price)
        .build()
        .unwrap()
}

fn client(driver: &dyn TradingDriver, sandbox: &Sandbox) -> Box<dyn TradingApi> {
    driver.trading(sandbox.base_url(), config::partner())
}

/// The partner's client checking the markets' rules (the tests' other clients do not).
fn checking(driver: &dyn TradingDriver, sandbox: &Sandbox) -> Box<dyn TradingApi> {
    driver.trading(
        sandbox.base_url(),
        config::partner().market_rules_check(MarketRulesCheck::Learn),
    )
}

fn a_limit_order_rests_and_fills_when_the_price_crosses_it(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let order = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000")
        .client_order_id("rest-1")
        .post_only(true)
        .build()
        .unwrap();
    let resting = client.limit(&order).unwrap();
    assert_eq!(resting.status, Some(OrderStatus::Open), "{resting:?}");
    assert_eq!(resting.client_order_id.as_deref(), Some("rest-1"));
    let open = client.open_orders(&OpenOrdersQuery::new()).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].order_id, resting.order_id);
    // A post-only order that would take is refused (the sandbox's documented code 30).
    let taker = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "66000")
        .post_only(true)
        .build()
        .unwrap();
    let api = client.limit(&taker).unwrap_err();
    let api = api.api().unwrap();
    assert_eq!(
        (api.code, api.refusal),
        (Some(30), Some(OrderRefusal::Validation))
    );
    // The price falls through it: it fills, and leaves the open orders.
    sandbox.set_price("BTC_USDT", "59000").unwrap();
    assert!(
        client
            .open_orders(&OpenOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    let filled = sandbox
        .orders()
        .into_iter()
        .find(|o| o.order_id == resting.order_id)
        .unwrap();
    assert_eq!(filled.status, Some(OrderStatus::Filled));
    assert_eq!(sandbox.positions(demo::PARTNER_API_KEY).len(), 1);
}

fn a_stop_limit_order_waits_for_its_activation_price(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    // A sell stop: activated when the price falls to 60000 or below.
    let stop = CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900", "60000")
        .client_order_id("stop-1")
        .build()
        .unwrap();
    let placed = client.stop_limit(&stop).unwrap();
    assert_eq!(placed.client_order_id.as_deref(), Some("stop-1"));
    sandbox.set_price("BTC_USDT", "61000").unwrap();
    assert_eq!(sandbox.stats().triggers_fired, 0, "not reached");
    sandbox.set_price("BTC_USDT", "60000").unwrap();
    assert_eq!(sandbox.stats().triggers_fired, 1, "reached: activated");
}

fn a_bulk_answers_each_item_in_order_a_refused_one_beside_the_placed(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let would_take = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "66000")
        .post_only(true)
        .build()
        .unwrap();
    let bulk = CollateralBulkOrder::new(vec![
        limit(Side::Buy, "0.01", "60000"),
        would_take,
        limit(Side::Sell, "0.01", "70000"),
    ])
    .unwrap();
    let answer = client.bulk(&bulk).unwrap();
    assert_eq!(answer.len(), 3);
    assert!(
        matches!(&answer[0], BulkOrderResult::Placed(o) if o.status == Some(OrderStatus::Open))
    );
    let BulkOrderResult::Refused(refused) = &answer[1] else {
        panic!("{:?}", answer[1]);
    };
    assert_eq!(refused.code, Some(30));
    assert!(matches!(&answer[2], BulkOrderResult::Placed(_)));
    // Each item carries its own clientOrderId, generated at build time.
    let ids: Vec<_> = bulk
        .orders()
        .iter()
        .map(|o| o.fields().client_order_id().clone())
        .collect();
    assert_eq!(
        answer[0].placed().unwrap().client_order_id.as_deref(),
        Some(ids[0].as_str())
    );
    assert_eq!(
        client.open_orders(&OpenOrdersQuery::new()).unwrap().len(),
        2
    );
    // stopOnFail: nothing after the first failure is processed.
    let stopping = CollateralBulkOrder::new(vec![
        CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "66000")
            .post_only(true)
            .build()
            .unwrap(),
        limit(Side::Buy, "0.01", "60000"),
    ])
    .unwrap()
    .with_stop_on_fail(true);
    let answer = client.bulk(&stopping).unwrap();
    assert!(
        matches!(&answer[0], BulkOrderResult::Refused(_)),
        "{answer:?}"
    );
    assert!(
        answer.get(1).is_none_or(|item| item.placed().is_none()),
        "{answer:?}"
    );
    assert_eq!(
        client.open_orders(&OpenOrdersQuery::new()).unwrap().len(),
        2
    );
}

fn bracket(id: &str) -> CollateralOcoOrder {
    CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.001", "60000", "70000", "70100")
        .client_order_id(id)
        .build()
        .unwrap()
}

fn an_oco_pair_is_listed_and_canceled_by_its_id(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let pair = client.oco(&bracket("oco-1")).unwrap();
    assert_eq!(pair.legs().count(), 2);
    assert!(
        pair.legs()
            .all(|leg| leg.client_order_id.as_deref() == Some("oco-1"))
    );
    let listed = client.oco_orders(&OcoOrdersQuery::new()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, pair.id);
    let canceled = client
        .cancel_oco(&CancelOcoOrder::by_order_id("BTC_USDT", pair.id).unwrap())
        .unwrap();
    assert!(matches!(canceled, Cancellation::Canceled(ref p) if p.id == pair.id));
    assert!(
        client
            .oco_orders(&OcoOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    // Again: nothing active matches.
    let again = client
        .cancel_oco(&CancelOcoOrder::by_client_order_id("BTC_USDT", "oco-1").unwrap())
        .unwrap();
    assert!(matches!(again, Cancellation::NotFound), "{again:?}");
    // Linked legs: the take-profit fills, the stop-loss is canceled — never both.
    let pair = client.oco(&bracket("oco-2")).unwrap();
    sandbox.set_price("BTC_USDT", "59000").unwrap();
    assert!(
        client
            .oco_orders(&OcoOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    let legs: Vec<_> = sandbox
        .orders()
        .into_iter()
        .filter(|o| pair.legs().any(|leg| leg.order_id == o.order_id))
        .collect();
    let filled = legs
        .iter()
        .filter(|o| o.status == Some(OrderStatus::Filled))
        .count();
    assert_eq!(filled, 1, "{legs:?}");
}

fn conditional_and_oto_cancels_remove_what_the_listing_names(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let pair = client.oco(&bracket("cond-oco")).unwrap();
    let oto = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000")
        .stop_loss("55000")
        .build()
        .unwrap();
    let oto_order = client.limit(&oto).unwrap();
    let oto_id = oto_order.oto.as_ref().unwrap().oto_id;
    let listed = client
        .conditional_orders(&ConditionalOrdersQuery::new())
        .unwrap();
    let ids: Vec<u64> = listed
        .records
        .iter()
        .filter_map(|record| match record {
            ConditionalOrder::Oco(group) => Some(group.id),
            ConditionalOrder::Oto(group) => Some(group.id),
            _ => None,
        })
        .collect();
    assert!(ids.contains(&pair.id) && ids.contains(&oto_id), "{ids:?}");
    // The OCO by the conditional cancel: both legs go.
    let canceled = client
        .cancel_conditional(&CancelConditionalOrder::new("BTC_USDT", pair.id).unwrap())
        .unwrap();
    assert!(
        matches!(canceled, Cancellation::Canceled(_)),
        "{canceled:?}"
    );
    assert!(
        client
            .oco_orders(&OcoOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    // The OTO group: its order goes with it.
    let canceled = client
        .cancel_oto(&CancelOtoOrder::new("BTC_USDT", oto_id).unwrap())
        .unwrap();
    assert!(
        matches!(canceled, Cancellation::Canceled(_)),
        "{canceled:?}"
    );
    assert!(
        client
            .open_orders(&OpenOrdersQuery::new())
            .unwrap()
            .is_empty()
    );
    let again = client
        .cancel_oto(&CancelOtoOrder::new("BTC_USDT", oto_id).unwrap())
        .unwrap();
    assert!(matches!(again, Cancellation::NotFound), "{again:?}");
}

fn a_modify_answers_the_replacement_with_a_new_order_id(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let order = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000")
        .client_order_id("mod-1")
        .build()
        .unwrap();
    let original = client.limit(&order).unwrap();
    let modify = ModifyOrder::by_client_order_id("BTC_USDT", "mod-1")
        .price("60500")
        .build()
        .unwrap();
    let modified = client.modify(&modify).unwrap();
    assert_ne!(modified.new_order_id, original.order_id, "a replacement");
    assert_eq!(
        modified.replacement.client_order_id.as_deref(),
        Some("mod-1")
    );
    let open = client.open_orders(&OpenOrdersQuery::new()).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].order_id, modified.new_order_id);
    assert_eq!(open[0].price.as_ref().map(|p| p.as_str()), Some("60500"));
    // The old orderId is gone.
    let stale = ModifyOrder::by_order_id("BTC_USDT", original.order_id)
        .price("60600")
        .build()
        .unwrap();
    let error = client.modify(&stale).unwrap_err();
    let api = error.api().unwrap();
    assert_eq!((api.status, api.code), (400, Some(2)), "{error}");
    assert!(!api.field_errors("orderId").is_empty(), "{error}");
    assert!(!error.outcome_unknown());
    assert!(client.pending_modifies().is_empty());
}

fn the_public_markets_are_read_without_a_key(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = client(driver, &sandbox);
    let markets = client.markets().unwrap();
    let btc = markets
        .iter()
        .find(|m| m.name.as_str() == "BTC_USDT")
        .unwrap();
    let rules = MarketRules::from_info(btc).unwrap();
    assert_eq!((rules.amount_precision(), rules.price_precision()), (6, 2));
    assert_eq!(rules.min_amount().as_str(), "0.001");
}

fn an_order_breaking_its_market_s_rules_is_refused_before_any_io(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = checking(driver, &sandbox);
    let cases: [(
        &str,
        Result<CollateralLimitOrder, ValidationError>,
        Rule,
        &str,
    ); 3] = [
        (
            "seven places",
            CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.0100001", "60000").build(),
            Rule::AmountPrecision,
            "0.01",
        ),
        (
            "a cent and a half",
            CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000.005").build(),
            Rule::PricePrecision,
            "60000",
        ),
        (
            "below the minimum",
            CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.0005", "60000").build(),
            Rule::MinAmount,
            "0.001",
        ),
    ];
    // The first check reads the rules: one public request.
    let before = sandbox.stats().requests;
    for (name, order, rule, nearest) in cases {
        let error = client.limit(&order.unwrap()).unwrap_err();
        let Error::InvalidRequest(ValidationError::MarketRule(violation)) = &error else {
            panic!("{name}: {error}");
        };
        assert_eq!(violation.rule, rule, "{name}");
        assert_eq!(violation.nearest.as_deref(), Some(nearest), "{name}");
        assert_eq!(violation.market.as_str(), "BTC_USDT");
    }
    // The other order types are checked too: a stop-limit, a bulk item, an OCO, a modify.
    let stop =
        CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900.001", "60000")
            .build()
            .unwrap();
    assert!(matches!(
        client.stop_limit(&stop),
        Err(Error::InvalidRequest(_))
    ));
    let bulk = CollateralBulkOrder::new(vec![
        limit(Side::Buy, "0.01", "60000"),
        limit(Side::Buy, "0.0001", "60000"),
    ])
    .unwrap();
    assert!(matches!(client.bulk(&bulk), Err(Error::InvalidRequest(_))));
    let oco =
        CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.0001", "60000", "70000", "70100")
            .build()
            .unwrap();
    assert!(matches!(client.oco(&oco), Err(Error::InvalidRequest(_))));
    let modify = ModifyOrder::by_client_order_id("BTC_USDT", "anything")
        .amount("0.0000001")
        .build()
        .unwrap();
    assert!(matches!(
        client.modify(&modify),
        Err(Error::InvalidRequest(_))
    ));
    let market_order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001")
        .build()
        .unwrap();
    assert!(matches!(
        client.market(&market_order),
        Err(Error::InvalidRequest(_))
    ));
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.0001", "61000")
        .build()
        .unwrap();
    assert!(matches!(
        client.trigger(&trigger),
        Err(Error::InvalidRequest(_))
    ));
    assert_eq!(
        sandbox.stats().requests,
        before + 1,
        "the rules read, nothing sent"
    );
    assert!(sandbox.orders().is_empty());
}

/// Rules for `market` looser than the sandbox's: amounts of 6 places from 0.0001 (its
/// minimum is 0.001), totals from 1, prices of `price_precision` places.
fn loose_rules(market: &str, price_precision: u32) -> MarketRules {
    MarketRules::new(
        market.parse().unwrap(),
        6,
        price_precision,
        "0.0001".parse().unwrap(),
        "1".parse().unwrap(),
        "0".parse().unwrap(),
    )
    .unwrap()
}

fn the_rules_are_read_once_and_again_after_a_refusal_31_to_33(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    // Given rules looser than the sandbox's: its minimum amount 0.0001, not 0.001.
    let given = MarketRulebook::from_rules([loose_rules("BTC_USDT", 2)]);
    let client = driver.trading(
        sandbox.base_url(),
        config::partner().market_rules_check(MarketRulesCheck::Given(given)),
    );
    let before = sandbox.stats().requests;
    // Passes the given rules, refused by the exchange with code 32: the rules are forgotten.
    let error = client
        .limit(&limit(Side::Buy, "0.0005", "60000"))
        .unwrap_err();
    assert_eq!(
        error.api().unwrap().refusal,
        Some(OrderRefusal::Amount),
        "{error}"
    );
    assert_eq!(
        sandbox.stats().requests,
        before + 1,
        "no read of the given rules"
    );
    // The next order reads the real rules, and is refused before sending.
    let error = client
        .limit(&limit(Side::Buy, "0.0005", "60000"))
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::InvalidRequest(ValidationError::MarketRule(_))
        ),
        "{error}"
    );
    assert_eq!(
        sandbox.stats().requests,
        before + 2,
        "the rules read, nothing sent"
    );
    // From then on, read once: orders go without another read.
    client.limit(&limit(Side::Buy, "0.01", "60000")).unwrap();
    client.limit(&limit(Side::Buy, "0.01", "60000")).unwrap();
    assert_eq!(sandbox.stats().requests, before + 4);
    assert_eq!(
        client
            .market_rules()
            .unwrap()
            .get("BTC_USDT")
            .unwrap()
            .min_amount()
            .as_str(),
        "0.001"
    );
    // Read again on request.
    client.refresh_market_rules().unwrap();
    assert_eq!(sandbox.stats().requests, before + 5);
}

/// Codes 33 (price) and 31 (market) forget the rules as 32 does: rules given looser than the
/// sandbox's, one rule at a time; the order passes them and is refused by the exchange; the
/// next order reads the real rules — refused before sending (a price off the market's step),
/// or sent unchecked (a market the rules do not list).
fn a_price_or_market_refusal_makes_the_rules_read_again_too(driver: &dyn TradingDriver) {
    let rules = loose_rules;
    let nope = CollateralLimitOrder::builder("NOPE_USDT", Side::Buy, "0.01", "60000")
        .build()
        .unwrap();
    let cases = [
        (
            rules("BTC_USDT", 4),
            limit(Side::Buy, "0.01", "60000.005"),
            OrderRefusal::Price,
            2,
        ),
        (rules("NOPE_USDT", 2), nope, OrderRefusal::Market, 3),
    ];
    for (given, order, refusal, requests) in cases {
        let sandbox = Sandbox::start().unwrap();
        let client = driver.trading(
            sandbox.base_url(),
            config::partner()
                .market_rules_check(MarketRulesCheck::Given(MarketRulebook::from_rules([given]))),
        );
        let before = sandbox.stats().requests;
        let error = client.limit(&order).unwrap_err();
        assert_eq!(error.api().unwrap().refusal, Some(refusal), "{error}");
        assert_eq!(sandbox.stats().requests, before + 1, "{refusal:?}");
        let again = client.limit(&order).unwrap_err();
        assert_eq!(
            sandbox.stats().requests,
            before + requests,
            "{refusal:?}: {again}"
        );
        assert!(sandbox.orders().is_empty());
    }
}

fn an_unlisted_market_and_a_check_turned_off_send_unchecked(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    // Rules for ETH_USDT only: a BTC_USDT order is not checked (and says so in a trace event).
    let eth = MarketRules::new(
        "ETH_USDT".parse().unwrap(),
        4,
        2,
        "0.01".parse().unwrap(),
        "5".parse().unwrap(),
        "0".parse().unwrap(),
    )
    .unwrap();
    let client = driver.trading(
        sandbox.base_url(),
        config::partner()
            .market_rules_check(MarketRulesCheck::Given(MarketRulebook::from_rules([eth]))),
    );
    let trace = Trace::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(trace.clone())
        .finish();
    let error = tracing::subscriber::with_default(subscriber, || {
        client
            .limit(&limit(Side::Buy, "0.0005", "60000"))
            .unwrap_err()
    });
    assert_eq!(error.api().unwrap().code, Some(32), "sent: {error}");
    let traced = trace.text();
    assert!(
        traced.contains("without its market's rules checked") && traced.contains("BTC_USDT"),
        "{traced}"
    );
    // Off: nothing read, the exchange decides.
    let off = driver.trading(sandbox.base_url(), config::partner());
    let before = sandbox.stats().requests;
    let error = off.limit(&limit(Side::Buy, "0.0005", "60000")).unwrap_err();
    assert_eq!(error.api().unwrap().code, Some(32));
    assert_eq!(sandbox.stats().requests, before + 1);
}

fn rounding_to_the_market_s_steps_is_explicit(driver: &dyn TradingDriver) {
    let sandbox = Sandbox::start().unwrap();
    let client = checking(driver, &sandbox);
    let book = client.market_rules().unwrap();
    let rules = book.get("BTC_USDT").unwrap();
    let amount: Amount = "0.0123456789".parse().unwrap();
    let price: Price = "60000.129".parse().unwrap();
    let rounded = rules.round_amount(&amount, Some(&price)).unwrap();
    assert_eq!(rounded.as_str(), "0.012345");
    assert_eq!(
        rules
            .round_price(&price, Side::Buy, Some(&rounded))
            .unwrap()
            .as_str(),
        "60000.12"
    );
    assert_eq!(
        rules
            .round_price(&price, Side::Sell, Some(&rounded))
            .unwrap()
            .as_str(),
        "60000.13"
    );
    let order = CollateralLimitOrder::builder(
        "BTC_USDT",
        Side::Buy,
        rounded,
        rules.round_price(&price, Side::Buy, None).unwrap(),
    )
    .build()
    .unwrap();
    assert_eq!(
        client.limit(&order).unwrap().status,
        Some(OrderStatus::Open)
    );
}
