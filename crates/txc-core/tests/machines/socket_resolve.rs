//! An order sent over the WebSocket whose outcome is unknown (its answer timed out, its
//! connection was lost after the frame) is resolved by the same resolver as REST's, against
//! the scripted exchange: its window from the frame's write to the settling plus the grace,
//! the order found inside it, none found proven absent, an older order of the same id not
//! taken for it.

use std::time::Duration;

use crate::exchange::{Exchange, config, drive, start};
use txc_core::resolve::{PendingOrder, Resolution, SOCKET_PROCESSING_GRACE};
use txc_core::socket::SocketAttempt;

fn pending(cid: &str, attempt: SocketAttempt) -> PendingOrder {
    PendingOrder::new(
        "BTC_USDT".parse().unwrap(),
        cid.parse().unwrap(),
        Vec::new(),
    )
    .with_socket_attempts([attempt])
}

fn attempt() -> SocketAttempt {
    SocketAttempt {
        written_at: start(),
        settled_at: start() + Duration::from_secs(10),
    }
}

#[test]
fn a_socket_order_created_inside_its_window_is_found() {
    let core = config().build().unwrap();
    let mut ex = Exchange::default();
    // Processed just before the client gave up on it, created a moment later.
    let created = ex.exchange_ms(start() + Duration::from_secs(9)) + 500;
    let id = ex.add_socket_order("ws-1", created);
    let later = start() + Duration::from_secs(60);
    let (resolution, _) = drive(core.resolve(pending("ws-1", attempt())), &mut ex, later);
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!("not found")
    };
    assert_eq!(placed.order_id(), id);
}

#[test]
fn a_socket_order_never_processed_is_proven_absent() {
    let core = config().build().unwrap();
    let mut ex = Exchange::default();
    let later = start() + Duration::from_secs(60);
    let (resolution, _) = drive(core.resolve(pending("ws-2", attempt())), &mut ex, later);
    assert!(
        matches!(resolution.unwrap(), Resolution::NotPlaced(_)),
        "absent, so safe to send again"
    );
}

#[test]
fn an_older_order_with_the_same_id_is_not_the_socket_attempts() {
    let core = config().build().unwrap();
    let mut ex = Exchange::default();
    // Someone's order with the id, created a minute before the frame was written.
    ex.add_socket_order("ws-3", ex.exchange_ms(start()) - 60_000);
    let later = start() + Duration::from_secs(60);
    let (resolution, _) = drive(core.resolve(pending("ws-3", attempt())), &mut ex, later);
    assert!(matches!(resolution.unwrap(), Resolution::NotPlaced(_)));
    // The grace is what bounds the window's end: past it, a creation is not the frame's.
    assert_eq!(SOCKET_PROCESSING_GRACE, Duration::from_secs(10));
}
