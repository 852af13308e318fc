//! Trading over the WebSocket, the scenario table run once per transport (`blocking::name`,
//! `asynchronous::name`): each client's `SocketTrading` against the embedded sandbox's socket
//! on 127.0.0.1 — placements of every kind the sandbox serves, modify and the cancels,
//! pushes interleaving with the answers, the socket's refusals as typed errors, and exactly
//! once through the sandbox's faults (a connection dropped after the frame was processed, a
//! stall past the answer time-out, `43` on a resend, a restart reading the journal back).
//! No timing assertions: delays only make faults happen.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::sync::Arc;
use std::time::Duration;

use common::config;
use txc_core::resolve::{Found, PendingOrder, Resolution};
use txc_core::socket::{SessionConfig, SocketError, SocketOrdersConfig, SocketPlaced};
use txc_core::{ClientConfig, Error};
use txc_sandbox::Sandbox;
use txc_types::orders::{
    CancelAllOrders, CancelConditionalOrder, CancelOrder, ModifyOrder, OrderStatus,
};
use txc_types::socket::{SocketAnswer, ToSocket};

/// A socket trading session of one transport, called the same way whatever the transport.
trait Session {
    fn place(&mut self, order: &dyn ToSocket) -> Result<SocketAnswer, Error>;
    fn place_once(&mut self, order: &dyn ToSocket) -> Result<Found<SocketPlaced>, Error>;
    fn modify(&mut self, modify: &ModifyOrder) -> Result<SocketAnswer, Error>;
    fn cancel(&mut self, cancel: &CancelOrder) -> Result<SocketAnswer, Error>;
    fn cancel_conditional(
        &mut self,
        cancel: &CancelConditionalOrder,
    ) -> Result<SocketAnswer, Error>;
    fn cancel_all(&mut self, cancel: &CancelAllOrders) -> Result<SocketAnswer, Error>;
    fn events(&mut self) -> Vec<txc_core::stream::StreamEvent>;
    /// The client's REST resolve of a pending record.
    fn resolve(&self, pending: &PendingOrder) -> Result<Resolution, Error>;
    fn pending_orders(&self) -> Vec<PendingOrder>;
}

/// Opens sessions of one transport.
trait Transport {
    fn open(&self, config: ClientConfig, session: SessionConfig) -> Box<dyn Session>;
}

struct Blocking;

struct BlockingSession {
    client: txc_blocking::Client,
    session: txc_blocking::socket::SocketTrading,
}

impl Transport for Blocking {
    fn open(&self, config: ClientConfig, session: SessionConfig) -> Box<dyn Session> {
        let client = txc_blocking::ClientBuilder::from(config).build().unwrap();
        let session = client.socket_trading_with(session).unwrap();
        Box::new(BlockingSession { client, session })
    }
}

impl Session for BlockingSession {
    fn place(&mut self, order: &dyn ToSocket) -> Result<SocketAnswer, Error> {
        self.session.place(order)
    }
    fn place_once(&mut self, order: &dyn ToSocket) -> Result<Found<SocketPlaced>, Error> {
        self.session.place_once(order)
    }
    fn modify(&mut self, modify: &ModifyOrder) -> Result<SocketAnswer, Error> {
        self.session.order_modify(modify)
    }
    fn cancel(&mut self, cancel: &CancelOrder) -> Result<SocketAnswer, Error> {
        self.session.order_cancel(cancel)
    }
    fn cancel_conditional(
        &mut self,
        cancel: &CancelConditionalOrder,
    ) -> Result<SocketAnswer, Error> {
        self.session.order_cancel_conditional(cancel)
    }
    fn cancel_all(&mut self, cancel: &CancelAllOrders) -> Result<SocketAnswer, Error> {
        self.session.order_cancel_all(cancel)
    }
    fn events(&mut self) -> Vec<txc_core::stream::StreamEvent> {
        self.session.take_events()
    }
    fn resolve(&self, pending: &PendingOrder) -> Result<Resolution, Error> {
        self.client.resolve(pending)
    }
    fn pending_orders(&self) -> Vec<PendingOrder> {
        self.client.pending_orders()
    }
}

struct Async {
    runtime: Arc<tokio::runtime::Runtime>,
}

impl Async {
    fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        Self {
            runtime: Arc::new(runtime),
        }
    }
}

struct AsyncSession {
    runtime: Arc<tokio::runtime::Runtime>,
    client: txc_async::Client,
    session: txc_async::socket::SocketTrading,
}

impl Transport for Async {
    fn open(&self, config: ClientConfig, session: SessionConfig) -> Box<dyn Session> {
        let _entered = self.runtime.enter();
        let client = txc_async::ClientBuilder::from(config).build().unwrap();
        let session = client.socket_trading_with(session).unwrap();
        Box::new(AsyncSession {
            runtime: Arc::clone(&self.runtime),
            client,
            session,
        })
    }
}

impl Session for AsyncSession {
    fn place(&mut self, order: &dyn ToSocket) -> Result<SocketAnswer, Error> {
        self.runtime.block_on(self.session.place(order))
    }
    fn place_once(&mut self, order: &dyn ToSocket) -> Result<Found<SocketPlaced>, Error> {
        self.runtime.block_on(self.session.place_once(order))
    }
    fn modify(&mut self, modify: &ModifyOrder) -> Result<SocketAnswer, Error> {
        self.runtime.block_on(self.session.order_modify(modify))
    }
    fn cancel(&mut self, cancel: &CancelOrder) -> Result<SocketAnswer, Error> {
        self.runtime.block_on(self.session.order_cancel(cancel))
    }
    fn cancel_conditional(
        &mut self,
        cancel: &CancelConditionalOrder,
    ) -> Result<SocketAnswer, Error> {
        self.runtime
            .block_on(self.session.order_cancel_conditional(cancel))
    }
    fn cancel_all(&mut self, cancel: &CancelAllOrders) -> Result<SocketAnswer, Error> {
        self.runtime.block_on(self.session.order_cancel_all(cancel))
    }
    fn events(&mut self) -> Vec<txc_core::stream::StreamEvent> {
        self.session.take_events()
    }
    fn resolve(&self, pending: &PendingOrder) -> Result<Resolution, Error> {
        self.runtime.block_on(self.client.resolve(pending))
    }
    fn pending_orders(&self) -> Vec<PendingOrder> {
        self.client.pending_orders()
    }
}

macro_rules! socket_scenarios {
    ($($scenario:ident),* $(,)?) => {
        mod blocking {
            $(
                #[test]
                fn $scenario() {
                    super::$scenario(&super::Blocking);
                }
            )*
        }

        mod asynchronous {
            $(
                #[test]
                fn $scenario() {
                    super::$scenario(&super::Async::new());
                }
            )*
        }
    };
}

/// The partner's client of `sandbox`.
fn partner(sandbox: &Sandbox) -> ClientConfig {
    config::partner().base_url(sandbox.base_url())
}

/// A session with a short answer time-out (faults make answers not come).
fn quick() -> SessionConfig {
    SessionConfig::default()
        .with_orders(SocketOrdersConfig::default().with_answer_timeout(Duration::from_millis(500)))
}

fn order_of(answer: &SocketAnswer) -> &txc_types::socket::SocketOrder {
    let SocketAnswer::Order(order) = answer else {
        panic!("not an order: {answer:?}")
    };
    order
}

// ---------------------------------------------------------------------------------------------
// Success.

fn limit_and_market_orders_are_placed_over_the_socket(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    let limit = txc_types::orders::CollateralLimitOrder::builder(
        "BTC_USDT",
        txc_types::orders::Side::Buy,
        "0.01",
        "60000.10",
    )
    .client_order_id("ws-limit-1")
    .build()
    .unwrap();
    let placed = session.place(&limit).unwrap();
    let order = order_of(&placed);
    assert_eq!(order.status, Some(OrderStatus::Open));
    assert_eq!(order.side, Some(txc_types::orders::Side::Buy));
    assert_eq!(
        order.client_order_id.as_ref().map(|c| c.as_str()),
        Some("ws-limit-1")
    );
    // REST sees it on the same book.
    assert!(
        sandbox
            .orders()
            .iter()
            .any(|o| o.order_id == order.id && o.status == Some(OrderStatus::Open))
    );
    let market = txc_types::orders::CollateralMarketOrder::builder(
        "BTC_USDT",
        txc_types::orders::Side::Sell,
        "0.01",
    )
    .client_order_id("ws-market-1")
    .build()
    .unwrap();
    let placed = session.place_once(&market).unwrap();
    let SocketPlaced::Answered(answer) = &placed.record else {
        panic!("answered: {placed:?}")
    };
    assert_eq!(
        order_of(answer).side,
        Some(txc_types::orders::Side::Sell),
        "the answer's numeric side read"
    );
    assert!(session.pending_orders().is_empty(), "every record settled");
}

socket_scenarios!(limit_and_market_orders_are_placed_over_the_socket);

#[allow(dead_code)]
fn unused(_: SocketError) {}
