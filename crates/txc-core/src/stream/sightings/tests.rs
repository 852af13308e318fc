//! The registry: what it keeps of an expected order, and when a wake fires.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::time::{Duration, UNIX_EPOCH};

use txc_types::events::{AccountEvent, Deal, OrderEvent};

use super::OrderSightings;
use crate::resolve::PlacedOrder;
use crate::stream::StreamEvent;

/// An `ordersPending_update` of order `id` carrying `client_order_id`, created at `ctime`.
fn order(kind: u8, id: u64, client_order_id: &str, ctime: &str, status: &str) -> StreamEvent {
    let params = format!(
        r#"[{kind},{{"id":{id},"market":"BTC_USDT","type":2,"side":2,"ctime":{ctime},
        "amount":"1","left":"0","deal_stock":"1","deal_money":"1",
        "client_order_id":"{client_order_id}","status":"{status}"}}]"#
    );
    StreamEvent::Account(AccountEvent::Order(
        OrderEvent::from_params(&params).unwrap(),
    ))
}

#[test]
fn an_expected_order_is_kept_by_order_id_and_a_reused_id_is_another_sighting() {
    let sightings = OrderSightings::new();
    let watch = sightings.expect("BTC_USDT", "c1");
    assert_eq!((watch.version(), watch.get()), (0, None));
    // Not expected: nothing kept.
    sightings.publish(&order(1, 7, "other", "1700000000.5", "OPEN"));
    assert_eq!(watch.version(), 0);
    sightings.publish(&order(1, 10, "c1", "1700000000.5", "OPEN"));
    sightings.publish(&order(3, 10, "c1", "1700000000.5", "FILLED"));
    // An older order that reused the id.
    sightings.publish(&order(2, 5, "c1", "1690000000.25", "OPEN"));
    let all = watch.all();
    assert_eq!(watch.version(), 3);
    assert_eq!(
        all.iter()
            .map(|s| (s.order_id, s.finished, s.source))
            .collect::<Vec<_>>(),
        vec![
            (10, true, "ordersPending_update"),
            (5, false, "ordersPending_update")
        ]
    );
    assert_eq!(
        all[0].created,
        Some(UNIX_EPOCH + Duration::from_millis(1_700_000_000_500))
    );
    assert!(matches!(&all[0].order, Some(PlacedOrder::Streamed(o)) if o.id == 10));
    assert_eq!(watch.get().unwrap().order_id, 5);
    // A deal carries no creation time, and keeps what was known.
    let deal =
        Deal::from_params(r#"[1,1700000001.0,"BTC_USDT",10,"1","1","0","c1",2,2,"USDT"]"#).unwrap();
    sightings.publish(&StreamEvent::Account(AccountEvent::Deal(deal)));
    let all = watch.all();
    assert_eq!(all.len(), 2);
    assert!(all[0].created.is_some() && all[0].order.is_some());
    assert_eq!(
        all[0].source, "ordersPending_update",
        "the record's, not the deal's"
    );
    // A clone expects it again; dropping every watch forgets it.
    let again = watch.clone();
    drop(watch);
    assert_eq!(again.all().len(), 2);
    drop(again);
    let fresh = sightings.expect("BTC_USDT", "c1");
    assert_eq!((fresh.version(), fresh.get()), (0, None));
}

#[test]
fn a_wake_fires_at_the_next_change_only() {
    let sightings = OrderSightings::new();
    let watch = sightings.expect("BTC_USDT", "c1");
    sightings.publish(&order(1, 10, "c1", "1700000000.5", "OPEN"));
    let version = watch.version();
    assert!(watch.wake_after(0).wait(Duration::ZERO));
    assert!(!watch.wake_after(version).wait(Duration::from_millis(5)));
    let publisher = sightings.clone();
    let thread = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        publisher.publish(&order(3, 10, "c1", "1700000000.5", "FILLED"));
    });
    assert!(watch.wake_after(version).wait(Duration::from_secs(10)));
    thread.join().unwrap();
    assert!(watch.get().unwrap().finished);
}
