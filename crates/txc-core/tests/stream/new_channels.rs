//! The two channels of the newer docs — `ADLQuantile_*` (private) and `premiumIndex_*`
//! (public) — through the stream machine: subscribed with the docs' parameters, answered with
//! the docs' success, their updates decoded into their records, unsubscribed as the docs show.

use serde_json::Value;
use txc_core::stream::{Channel, StreamConfig, StreamEvent, StreamMachine, Subscription};
use txc_types::events::AccountEvent;

use crate::driver::Driver;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_new_channels_subscribe_update_and_unsubscribe_as_the_docs_show() {
    let subscriptions = vec![
        Subscription::adl_quantile(Some("BTC_PERP")).unwrap(),
        Subscription::premium_index(["BTC_PERP", "ADA_PERP"]).unwrap(),
    ];
    let mut d = Driver::new(StreamMachine::new(StreamConfig::default(), subscriptions, 7).unwrap());
    d.establish();
    let sent: Vec<Value> = d.sent().into_iter().map(|(_, text)| json(text)).collect();
    for (method, fixture) in [
        (
            "ADLQuantile_subscribe",
            include_str!("../fixtures/ws/adl_quantile/subscribe_one.json"),
        ),
        (
            "premiumIndex_subscribe",
            include_str!("../fixtures/ws/premium_index/subscribe_some.json"),
        ),
    ] {
        let frame = sent
            .iter()
            .find(|f| f["method"] == method)
            .unwrap_or_else(|| panic!("{method} not sent: {sent:?}"));
        assert_eq!(frame["params"], json(fixture)["params"], "{method}");
    }
    d.take_events();

    d.receive(include_str!("../fixtures/ws/adl_quantile/update.json"));
    let events = d.take_events();
    let [StreamEvent::Account(AccountEvent::AdlQuantiles(adl))] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(adl.records[0].market.as_str(), "BTC_PERP");
    assert_eq!(adl.records[0].long, None);
    assert_eq!(adl.records[0].short.map(|q| q.get()), Some(4));

    for (update, markets) in [
        (
            include_str!("../fixtures/ws/premium_index/update_all.json"),
            vec!["BTC_PERP", "ADA_PERP"],
        ),
        (
            include_str!("../fixtures/ws/premium_index/update_one.json"),
            vec!["BTC_PERP"],
        ),
    ] {
        d.receive(update);
        let events = d.take_events();
        let [StreamEvent::Account(AccountEvent::PremiumIndex(index))] = &events[..] else {
            panic!("{events:?}")
        };
        let seen: Vec<&str> = index.records.iter().map(|r| r.market.as_str()).collect();
        assert_eq!(seen, markets);
        assert_eq!(index.records[0].mark_price.as_str(), "10000");
    }

    let from = d.sent().len();
    d.machine.unsubscribe(Channel::AdlQuantile);
    d.machine.unsubscribe(Channel::PremiumIndex);
    d.run();
    let unsubscribed: Vec<Value> = d.sent()[from..]
        .iter()
        .map(|(_, text)| json(text))
        .collect();
    for fixture in [
        include_str!("../fixtures/ws/adl_quantile/unsubscribe.json"),
        include_str!("../fixtures/ws/premium_index/unsubscribe.json"),
    ] {
        let spec = json(fixture);
        assert!(
            unsubscribed
                .iter()
                .any(|f| f["method"] == spec["method"] && f["params"] == spec["params"]),
            "{spec} not in {unsubscribed:?}"
        );
    }
}

#[test]
fn the_new_channels_take_perpetual_markets_only() {
    assert!(Subscription::adl_quantile(Some("BTC_USDT")).is_err());
    assert!(Subscription::premium_index(["BTC_PERP", "ETH_USDT"]).is_err());
    let all = Subscription::adl_quantile(None::<&str>).unwrap();
    assert_eq!(
        all.params(),
        json(include_str!(
            "../fixtures/ws/adl_quantile/subscribe_all.json"
        ))["params"]
    );
    let every = Subscription::premium_index(Vec::<&str>::new()).unwrap();
    assert_eq!(
        every.params(),
        json(include_str!(
            "../fixtures/ws/premium_index/subscribe_all.json"
        ))["params"]
    );
    assert_eq!(every.markets(), &[] as &[txc_types::values::Market]);
    assert_eq!(Channel::PremiumIndex.update_method(), "premiumIndex_update");
    assert_eq!(
        Channel::from_update_method("ADLQuantile_update"),
        Some(Channel::AdlQuantile)
    );
}
