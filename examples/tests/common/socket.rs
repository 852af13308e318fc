//! A socket trading session under test, whichever transport runs it: [`Session`] over each
//! client's `SocketTrading` (the drivers [`Blocking`] and [`Async`] opening them); the
//! `scenarios!` macro of `common` runs a scenario once per transport.

use std::sync::Arc;

pub use super::{Async, Blocking};

use txc_core::resolve::{Found, PendingOrder, Resolution};
use txc_core::socket::{SessionConfig, SocketPlaced};
use txc_core::{ClientConfig, Error};
use txc_types::orders::{CancelAllOrders, CancelConditionalOrder, CancelOrder, ModifyOrder};
use txc_types::socket::{SocketAnswer, ToSocket};

/// A socket trading session of one transport, called the same way whatever the transport.
pub trait Session {
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
    /// The answers that came after their call had timed out.
    fn late(&mut self) -> Vec<txc_core::socket::Settled>;
    /// The client's REST resolve of a pending record.
    fn resolve(&self, pending: &PendingOrder) -> Result<Resolution, Error>;
    fn pending_orders(&self) -> Vec<PendingOrder>;
}

/// Opens sessions of one transport.
pub trait Transport {
    fn open(&self, config: ClientConfig, session: SessionConfig) -> Box<dyn Session>;
}

pub struct BlockingSession {
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
    fn late(&mut self) -> Vec<txc_core::socket::Settled> {
        self.session.take_late()
    }
    fn resolve(&self, pending: &PendingOrder) -> Result<Resolution, Error> {
        self.client.resolve(pending)
    }
    fn pending_orders(&self) -> Vec<PendingOrder> {
        self.client.pending_orders()
    }
}

pub struct AsyncSession {
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
        self.runtime.block_on(self.session.take_events())
    }
    fn late(&mut self) -> Vec<txc_core::socket::Settled> {
        self.session.take_late()
    }
    fn resolve(&self, pending: &PendingOrder) -> Result<Resolution, Error> {
        self.runtime.block_on(self.client.resolve(pending))
    }
    fn pending_orders(&self) -> Vec<PendingOrder> {
        self.client.pending_orders()
    }
}
