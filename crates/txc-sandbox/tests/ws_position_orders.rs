//! The socket's order methods that act on positions or price themselves late, driven by hand
//! with raw JSON frames over loopback: `collateral_order_stop_bbo_place` (waits unpriced,
//! prices itself from the book when it fires, dropped on an empty side),
//! `collateral_order_tpsl_place` (needs a position, triggers on the right side of the market,
//! the legs close the position and go when it goes), and `collateral_order_oto_place` with
//! BBO entries and limit exits — each with its documented refusals.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::socket::{Socket, connect, request, token};
use common::{PARTNER, REGULAR};
use proptest::prelude::*;
use serde_json::{Value, json};
use txc_sandbox::{Sandbox, demo};

fn authorized(sandbox: &Sandbox, account: (&str, &str)) -> Socket {
    let mut socket = connect(sandbox);
    let token = token(sandbox, account);
    let ok = request(&mut socket, 1, "authorize", json!([token, "public"]));
    assert_eq!(ok["result"]["status"], "success", "{ok}");
    socket
}

/// Places `method` with one parameter object: the result, which must not be an error.
fn placed(socket: &mut Socket, id: u64, method: &str, params: Value) -> Value {
    let answer = request(socket, id, method, json!([params]));
    assert!(answer["error"].is_null(), "{method} {params}: {answer}");
    answer["result"].clone()
}

/// The error code `method` is refused with.
fn refused(socket: &mut Socket, id: u64, method: &str, params: Value) -> i64 {
    let answer = request(socket, id, method, json!([params]));
    assert!(answer["result"].is_null(), "{method} {params}: {answer}");
    answer["error"]["code"].as_i64().unwrap()
}

/// The sandbox's record of the order `id` (REST's fields), as it now stands.
fn record(sandbox: &Sandbox, id: &Value) -> Value {
    sandbox
        .order_records()
        .into_iter()
        .find(|r| r["orderId"] == *id)
        .unwrap_or_else(|| panic!("no order {id}"))
}

/// The signed size of `api_key`'s position on `BTC_PERP` (`0` with none).
fn position(sandbox: &Sandbox, api_key: &str) -> String {
    sandbox
        .positions(api_key)
        .into_iter()
        .find(|p| p.market == "BTC_PERP")
        .map_or_else(|| "0".to_owned(), |p| p.amount)
}

#[test]
fn a_stop_bbo_order_waits_unpriced_and_prices_itself_from_the_book_when_it_fires() {
    let sandbox = Sandbox::start().unwrap();
    let mut partner = authorized(&sandbox, PARTNER);
    let mut regular = authorized(&sandbox, REGULAR);
    // Another account's bid: the book's best bid, what a taker sell pegs to.
    let bid = placed(
        &mut regular,
        2,
        "collateral_order_limit_place",
        json!({"market": "BTC_PERP", "side": "buy", "amount": "0.001", "price": "63000",
               "position_side": "LONG"}),
    );
    assert_eq!(bid["status"], "OPEN");
    let stop = placed(
        &mut partner,
        3,
        "collateral_order_stop_bbo_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.001",
               "activation_price": "63500", "bbo_role": 2, "stp": "no",
               "client_order_id": "sbbo-1"}),
    );
    assert_eq!(stop["type"], 9, "{stop}");
    assert_eq!(stop["side"], 1);
    assert_eq!(stop["price"], "0", "no price while it waits: {stop}");
    assert_eq!(stop["activation_price"], "63500");
    assert_eq!(stop["activation_condition"], "lte");
    assert_eq!(stop["activated"], 0);
    assert_eq!(stop["post_only"], false);
    assert_eq!(stop["client_order_id"], "sbbo-1");
    assert_eq!(stop["status"], "OPEN");
    // The trigger: priced at the best bid (63000), it executes at once at the market's price.
    sandbox.set_price("BTC_PERP", "63400").unwrap();
    let fired = record(&sandbox, &stop["id"]);
    assert_eq!(fired["status"], "FILLED", "{fired}");
    assert_eq!(
        fired["price"], "63000",
        "priced from the book at activation: {fired}"
    );
    assert_eq!(position(&sandbox, demo::PARTNER_API_KEY), "-0.001");

    // The maker role pegs to its own side's best: with no ask on the book, it is dropped.
    let maker = placed(
        &mut partner,
        4,
        "collateral_order_stop_bbo_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.001",
               "activation_price": "63000", "bbo_role": 1}),
    );
    assert_eq!(maker["post_only"], false, "post-only is set at activation");
    sandbox.set_price("BTC_PERP", "62900").unwrap();
    let dropped = record(&sandbox, &maker["id"]);
    assert_eq!(
        dropped["status"], "CANCELED",
        "an empty side drops it: {dropped}"
    );
    assert_eq!(dropped["dealStock"], "0");

    // With an ask on the book, the maker role rests there, post-only.
    let ask = placed(
        &mut regular,
        5,
        "collateral_order_limit_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.001", "price": "64000",
               "position_side": "SHORT"}),
    );
    assert_eq!(ask["status"], "OPEN");
    let resting = placed(
        &mut partner,
        6,
        "collateral_order_stop_bbo_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.001",
               "activation_price": "62800", "bbo_role": 1}),
    );
    sandbox.set_price("BTC_PERP", "62700").unwrap();
    let rests = record(&sandbox, &resting["id"]);
    assert_eq!(rests["status"], "OPEN", "{rests}");
    assert_eq!(rests["price"], "64000", "its own side's best: {rests}");
    let canceled = placed(
        &mut partner,
        7,
        "order_cancel",
        json!({"market": "BTC_PERP", "order_id": resting["id"]}),
    );
    assert_eq!(canceled["post_only"], true, "{canceled}");
    assert_eq!(canceled["activated"], 1, "{canceled}");

    // Refusals, code 1 each: a role out of range, a post-only taker, no trigger price.
    let base = json!({"market": "BTC_PERP", "side": "sell", "amount": "0.001",
                      "activation_price": "60000", "bbo_role": 2});
    let with = |key: &str, value: Value| {
        let mut params = base.clone();
        params[key] = value;
        params
    };
    let mut no_trigger = base.clone();
    no_trigger
        .as_object_mut()
        .unwrap()
        .remove("activation_price");
    for (id, params) in (10..).zip([
        with("bbo_role", json!(3)),
        with("post_only", json!(true)),
        no_trigger,
        with("market", json!("NOPE_PERP")),
    ]) {
        assert_eq!(
            refused(
                &mut partner,
                id,
                "collateral_order_stop_bbo_place",
                params.clone()
            ),
            1,
            "{params}"
        );
    }
}

#[test]
fn tpsl_needs_a_position_and_its_legs_close_it_and_go_with_it() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = authorized(&sandbox, PARTNER);
    let pair = json!({"market": "BTC_PERP", "take_profit_activation_price": "66000",
                      "stop_loss_activation_price": "64000", "stp": "no"});
    assert_eq!(
        refused(&mut socket, 2, "collateral_order_tpsl_place", pair.clone()),
        104,
        "no position"
    );
    placed(
        &mut socket,
        3,
        "collateral_order_market_place",
        json!({"market": "BTC_PERP", "side": "buy", "amount": "0.01"}),
    );
    assert_eq!(position(&sandbox, demo::PARTNER_API_KEY), "0.01");
    let legs = placed(&mut socket, 4, "collateral_order_tpsl_place", pair.clone());
    let (tp, sl) = (&legs["take_profit"], &legs["stop_loss"]);
    for (leg, condition, trigger) in [(tp, "gte", "66000"), (sl, "lte", "64000")] {
        assert_eq!(leg["type"], 10, "{legs}");
        assert_eq!(leg["side"], 1, "a sell closes the long: {legs}");
        assert_eq!(leg["amount"], "0", "sized when it fires: {legs}");
        assert_eq!(leg["price"], "0");
        assert_eq!(leg["activation_price"], trigger);
        assert_eq!(leg["activation_condition"], condition);
        assert_eq!(leg["activated"], 0);
        assert_eq!(leg["status"], "OPEN");
    }
    // REST's open positions show the legs attached.
    let reply = common::send_fields(
        &sandbox,
        PARTNER,
        common::POSITIONS_PATH,
        r#""market":"BTC_PERP""#,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let attached = &reply.json()[0]["tpsl"];
    assert_eq!(attached["takeProfitId"], tp["id"], "{attached}");
    assert_eq!(attached["takeProfit"], "66000");
    assert_eq!(attached["stopLossId"], sl["id"]);
    assert_eq!(attached["stopLoss"], "64000");
    // The legs are no group, and not modifiable.
    assert_eq!(
        refused(
            &mut socket,
            5,
            "order_cancel_conditional",
            json!({"market": "BTC_PERP", "order_id": tp["id"]})
        ),
        6
    );
    assert_eq!(
        refused(
            &mut socket,
            6,
            "order_modify",
            json!({"market": "BTC_PERP", "order_id": tp["id"], "activation_price": "67000"})
        ),
        160
    );
    // The position grows; the take-profit fires on a rise and closes all of it.
    placed(
        &mut socket,
        7,
        "collateral_order_market_place",
        json!({"market": "BTC_PERP", "side": "buy", "amount": "0.005"}),
    );
    sandbox.set_price("BTC_PERP", "66100").unwrap();
    let fired = record(&sandbox, &tp["id"]);
    assert_eq!(fired["status"], "FILLED", "{fired}");
    assert_eq!(fired["dealStock"], "0.015", "the whole position: {fired}");
    assert_eq!(position(&sandbox, demo::PARTNER_API_KEY), "0");
    assert_eq!(record(&sandbox, &sl["id"])["status"], "CANCELED");

    // A pair on a new position goes when the position is closed by an order.
    placed(
        &mut socket,
        8,
        "collateral_order_market_place",
        json!({"market": "BTC_PERP", "side": "buy", "amount": "0.01"}),
    );
    let legs = placed(
        &mut socket,
        9,
        "collateral_order_tpsl_place",
        json!({"market": "BTC_PERP", "stop_loss_activation_price": "65000"}),
    );
    assert!(legs["take_profit"].is_null(), "one leg alone: {legs}");
    let sl = legs["stop_loss"]["id"].clone();
    placed(
        &mut socket,
        10,
        "collateral_order_market_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.01"}),
    );
    assert_eq!(record(&sandbox, &sl)["status"], "CANCELED");
    // order_cancel cancels a leg.
    placed(
        &mut socket,
        11,
        "collateral_order_market_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.01"}),
    );
    let legs = placed(
        &mut socket,
        12,
        "collateral_order_tpsl_place",
        json!({"market": "BTC_PERP", "take_profit_activation_price": "65000",
               "stop_loss_activation_price": "67000"}),
    );
    assert_eq!(
        legs["take_profit"]["side"], 2,
        "a buy closes the short: {legs}"
    );
    assert_eq!(legs["take_profit"]["activation_condition"], "lte");
    let canceled = placed(
        &mut socket,
        13,
        "order_cancel",
        json!({"market": "BTC_PERP", "order_id": legs["take_profit"]["id"]}),
    );
    assert_eq!(canceled["status"], "CANCELED");
    assert_eq!(
        record(&sandbox, &legs["stop_loss"]["id"])["status"],
        "OPEN",
        "the legs are independent"
    );
    // The stop-loss fires on a rise and buys the short back.
    sandbox.set_price("BTC_PERP", "67100").unwrap();
    assert_eq!(
        record(&sandbox, &legs["stop_loss"]["id"])["status"],
        "FILLED"
    );
    assert_eq!(position(&sandbox, demo::PARTNER_API_KEY), "0");
    // Neither trigger, a bad price, an unknown market: code 1.
    for (id, params) in (20..).zip([
        json!({"market": "BTC_PERP"}),
        json!({"market": "BTC_PERP", "take_profit_activation_price": "-1"}),
        json!({"market": "NOPE_PERP", "take_profit_activation_price": "70000"}),
    ]) {
        assert_eq!(
            refused(
                &mut socket,
                id,
                "collateral_order_tpsl_place",
                params.clone()
            ),
            1,
            "{params}"
        );
    }
}

#[test]
fn an_oto_takes_bbo_entries_and_limit_exits() {
    let sandbox = Sandbox::start().unwrap();
    let mut partner = authorized(&sandbox, PARTNER);
    let mut regular = authorized(&sandbox, REGULAR);
    placed(
        &mut regular,
        2,
        "collateral_order_limit_place",
        json!({"market": "BTC_PERP", "side": "sell", "amount": "0.01", "price": "65500",
               "position_side": "SHORT"}),
    );
    // A taker BBO entry pegs to the best ask and fills; its limit exit rests at the
    // take-profit.
    let group = placed(
        &mut partner,
        3,
        "collateral_order_oto_place",
        json!({"trigger_order_type": "margin_bbo",
               "trigger_order": {"market": "BTC_PERP", "side": "buy", "amount": "0.001",
                                 "bbo_role": 2, "client_order_id": "oto-bbo"},
               "conditional_order_type": "margin_limit", "take_profit": "67000"}),
    );
    assert_eq!(group["type"], "oto", "{group}");
    assert_eq!(group["conditional_order_type"], "margin_limit");
    assert_eq!(group["take_profit_price"], "67000");
    let entry = &group["trigger_order"];
    assert_eq!(entry["type"], 7);
    assert_eq!(entry["price"], "65500", "the best ask: {group}");
    assert_eq!(entry["status"], "FILLED", "{group}");
    let exits: Vec<Value> = open_orders(&sandbox);
    let exit = exits
        .iter()
        .find(|o| o["side"] == "sell" && o["price"] == "67000")
        .unwrap_or_else(|| panic!("no limit exit: {exits:?}"));
    assert_eq!(exit["type"], "limit", "{exit}");

    // A stop-BBO entry waits unpriced; a stop-limit exit arms once it fills.
    let group = placed(
        &mut partner,
        4,
        "collateral_order_oto_place",
        json!({"trigger_order_type": "margin_stop_bbo",
               "trigger_order": {"market": "BTC_PERP", "side": "buy", "amount": "0.001",
                                 "activation_price": "65200", "bbo_role": 2},
               "conditional_order_type": "margin_stop_limit", "stop_loss": "64000"}),
    );
    let entry = &group["trigger_order"];
    assert_eq!(entry["type"], 9, "{group}");
    assert_eq!(entry["price"], "0", "{group}");
    assert_eq!(entry["activation_condition"], "gte");
    sandbox.set_price("BTC_PERP", "65300").unwrap();
    assert_eq!(record(&sandbox, &entry["id"])["status"], "FILLED");
    let exits = open_orders(&sandbox);
    let stop = exits
        .iter()
        .find(|o| o["side"] == "sell" && o["activation_price"] == "64000")
        .unwrap_or_else(|| panic!("no stop-limit exit: {exits:?}"));
    assert_eq!(stop["type"], "stop limit", "{stop}");
    assert_eq!(stop["price"], "64000", "{stop}");

    // Exits on the wrong side of the entry: 105, 106.
    for (id, (side, tp, sl, code)) in (30..).zip([
        ("buy", Some("59000"), None, 105),
        ("buy", None, Some("61000"), 106),
        ("sell", Some("61000"), None, 105),
        ("sell", None, Some("59000"), 106),
    ]) {
        let exit = if tp.is_some() {
            "margin_take_profit"
        } else {
            "margin_stop_loss"
        };
        let mut params = json!({"trigger_order_type": "margin_limit",
            "trigger_order": {"market": "BTC_PERP", "side": side, "amount": "0.001", "price": "60000"},
            "conditional_order_type": exit});
        if let Some(tp) = tp {
            params["take_profit"] = json!(tp);
        }
        if let Some(sl) = sl {
            params["stop_loss"] = json!(sl);
        }
        assert_eq!(
            refused(
                &mut partner,
                id,
                "collateral_order_oto_place",
                params.clone()
            ),
            code,
            "{params}"
        );
    }
    // Refusals: the exits' prices (1), unknown types (200, 201).
    let entry = json!({"market": "BTC_PERP", "side": "buy", "amount": "0.001", "price": "60000"});
    for (id, (params, code)) in (10..).zip([
        (
            json!({"trigger_order_type": "margin_limit", "trigger_order": entry,
                   "conditional_order_type": "margin_limit", "stop_loss": "59000"}),
            1,
        ),
        (
            json!({"trigger_order_type": "margin_limit", "trigger_order": entry,
                   "conditional_order_type": "margin_stop_limit", "take_profit": "61000"}),
            1,
        ),
        (
            json!({"trigger_order_type": "margin_limit", "trigger_order": entry,
                   "conditional_order_type": "margin_trailing", "take_profit": "61000"}),
            200,
        ),
        (
            json!({"trigger_order_type": "margin_iceberg", "trigger_order": entry,
                   "conditional_order_type": "margin_limit", "take_profit": "61000"}),
            201,
        ),
        (
            json!({"trigger_order_type": "margin_bbo",
                   "trigger_order": {"market": "BTC_PERP", "side": "buy", "amount": "0.001", "bbo_role": 5},
                   "conditional_order_type": "margin_limit", "take_profit": "61000"}),
            1,
        ),
    ]) {
        assert_eq!(
            refused(&mut partner, id, "collateral_order_oto_place", params.clone()),
            code,
            "{params}"
        );
    }
}

/// Every open order of the partner on `BTC_PERP`, as `GET /api/v4/orders` lists them.
fn open_orders(sandbox: &Sandbox) -> Vec<Value> {
    let reply = common::OPEN_ORDERS.send(sandbox, PARTNER, r#""market":"BTC_PERP""#);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The TPSL class: on a long or a short, with either trigger or both anywhere around the
    /// market's price — placed exactly when each sits on its profitable or protective side
    /// (105 for a wrong take-profit first, then 106), and placed pairs replace the waiting
    /// ones: never more than one waiting leg of each kind per position.
    #[test]
    fn tpsl_triggers_are_judged_by_the_positions_direction(
        cases in proptest::collection::vec(
            (any::<bool>(), proptest::option::of(-3i64..=3), proptest::option::of(-3i64..=3)),
            1..6,
        )
    ) {
        let sandbox = Sandbox::start().unwrap();
        let mut socket = authorized(&sandbox, REGULAR);
        // A hedge-mode account: one long and one short on the same market.
        for (id, (side, position_side)) in (2..).zip([("buy", "LONG"), ("sell", "SHORT")]) {
            placed(&mut socket, id, "collateral_order_market_place", json!({
                "market": "BTC_PERP", "side": side, "amount": "0.01", "position_side": position_side,
            }));
        }
        for (id, (long, tp, sl)) in (10..).zip(cases) {
            let mut params = json!({
                "market": "BTC_PERP",
                "position_side": if long { "LONG" } else { "SHORT" },
            });
            // Steps of 100 around 65 000: 0 is the price itself, which no trigger may be.
            let at = |step: i64| (65_000 + step * 100).to_string();
            if let Some(step) = tp {
                params["take_profit_activation_price"] = json!(at(step));
            }
            if let Some(step) = sl {
                params["stop_loss_activation_price"] = json!(at(step));
            }
            let gains = |step: i64| if long { step > 0 } else { step < 0 };
            let expected = match (tp, sl) {
                (None, None) => Some(1),
                (Some(step), _) if !gains(step) => Some(105),
                (_, Some(step)) if step == 0 || gains(step) => Some(106),
                _ => None,
            };
            let answer = request(&mut socket, id, "collateral_order_tpsl_place", json!([params]));
            match expected {
                Some(code) => prop_assert_eq!(&answer["error"]["code"], &json!(code), "{} {}", params, answer),
                None => {
                    prop_assert!(answer["error"].is_null(), "{} {}", params, answer);
                    let closing = if long { 1 } else { 2 };
                    for leg in ["take_profit", "stop_loss"] {
                        let order = &answer["result"][leg];
                        prop_assert_eq!(order.is_null(), params[format!("{leg}_activation_price")].is_null());
                        if !order.is_null() {
                            prop_assert_eq!(&order["side"], &json!(closing));
                            prop_assert_eq!(&order["position_side"], &params["position_side"]);
                        }
                    }
                }
            }
            // Never two waiting legs of one kind (above or below the price) on one position.
            let open = open_orders_of(&sandbox);
            for position_side in ["LONG", "SHORT"] {
                for above in [true, false] {
                    let legs = open
                        .iter()
                        .filter(|o| o["positionSide"] == position_side)
                        .filter(|o| {
                            let at: f64 = o["activation_price"].as_str().unwrap().parse().unwrap();
                            (at > 65_000.0) == above
                        })
                        .count();
                    prop_assert!(legs <= 1, "{}", Value::Array(open.clone()));
                }
            }
        }
        // Both positions untouched by all this.
        let positions = sandbox.positions(demo::REGULAR_API_KEY);
        prop_assert_eq!(positions.len(), 2);
    }
}

/// Every open order of the regular account on `BTC_PERP`.
fn open_orders_of(sandbox: &Sandbox) -> Vec<Value> {
    let reply = common::OPEN_ORDERS.send(sandbox, REGULAR, r#""market":"BTC_PERP""#);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The stop-BBO class: either side, either role, with or without a quote on each side of
    /// the book — when its trigger is reached it pegs to its own side's best (maker, post-only)
    /// or the other side's (taker), and is dropped when that side is empty.
    #[test]
    fn a_stop_bbo_order_pegs_to_the_book_as_it_fires(
        buy in any::<bool>(),
        maker in any::<bool>(),
        bid in any::<bool>(),
        ask in any::<bool>(),
    ) {
        let sandbox = Sandbox::start().unwrap();
        let mut partner = authorized(&sandbox, PARTNER);
        let mut regular = authorized(&sandbox, REGULAR);
        // Another account's quotes, far from the price: 60 000 bid, 70 000 ask.
        for (id, (on, side, price, position_side)) in
            (2..).zip([(bid, "buy", "60000", "LONG"), (ask, "sell", "70000", "SHORT")])
        {
            if on {
                placed(&mut regular, id, "collateral_order_limit_place", json!({
                    "market": "BTC_PERP", "side": side, "amount": "0.001", "price": price,
                    "position_side": position_side,
                }));
            }
        }
        // A buy stop fires on a rise to 66 000, a sell stop on a fall to 64 000.
        let (side, trigger, moved) = if buy {
            ("buy", "66000", "66100")
        } else {
            ("sell", "64000", "63900")
        };
        let stop = placed(&mut partner, 5, "collateral_order_stop_bbo_place", json!({
            "market": "BTC_PERP", "side": side, "amount": "0.001", "activation_price": trigger,
            "bbo_role": if maker { 1 } else { 2 },
        }));
        prop_assert_eq!(&stop["price"], &json!("0"));
        sandbox.set_price("BTC_PERP", moved).unwrap();
        let fired = record(&sandbox, &stop["id"]);
        // The side it pegs to: its own for the maker, the other for the taker.
        let pegs_to_bids = buy == maker;
        let (quoted, at) = if pegs_to_bids { (bid, "60000") } else { (ask, "70000") };
        if quoted {
            prop_assert_eq!(&fired["price"], &json!(at), "{}", fired);
            prop_assert_ne!(&fired["status"], &json!("CANCELED"), "{}", fired);
        } else {
            prop_assert_eq!(&fired["status"], &json!("CANCELED"), "dropped: {}", fired);
            prop_assert_eq!(&fired["dealStock"], &json!("0"));
        }
    }
}
