//! [`Client`]: the blocking client, a thin driver of [`txc_sign::Call`] over ureq.

use std::fmt;
use std::sync::Arc;
use std::thread;
use std::time::SystemTime;

use txc_sign::{
    ClientCore, ClockOffset, Credentials, Error, Machine, PendingOrder, Placed, Resolution,
    Response, SignedRequest, Step,
};
use txc_types::endpoint::Endpoint;
use txc_types::investments::{InvestmentPlan, SmartPlansQuery};
use txc_types::lookups::{
    ConditionalOrders, ConditionalOrdersQuery, OpenOrdersQuery, OrderHistory, OrderHistoryQuery,
};
use txc_types::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, NewOrder, Order,
};
use txc_types::time::{ServerTime, ServerTimeQuery};

use crate::ClientBuilder;
use crate::transport::round_trip;

/// A blocking client of WhiteBIT's private v4 API for one API key.
///
/// Cheap to clone (one `Arc`): clones share the agent's connection pool and the key's nonce
/// sequence, so they can be used from many threads at once without nonce collisions.
///
/// Every call signs with a fresh nonce, sends, decodes, and — when the
/// [`RetryPolicy`](crate::settings::RetryPolicy) allows — waits and tries again, signed afresh. An
/// order is never resent after a failure that leaves its outcome unknown; check
/// [`Error::outcome_unknown`] and look the order up before placing it again.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    core: ClientCore,
    agent: ureq::Agent,
}

impl Client {
    /// Starts configuring a client for `credentials`.
    pub fn builder(credentials: Credentials) -> ClientBuilder {
        ClientBuilder::new(credentials)
    }

    pub(crate) fn from_parts(core: ClientCore, agent: ureq::Agent) -> Self {
        Self {
            inner: Arc::new(Inner { core, agent }),
        }
    }

    /// Places a collateral market order (`POST /api/v4/order/collateral/market`) with the
    /// `clientOrderId` it was built with.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`]. An id
    /// this client used for an order still unresolved, or within the last seconds, is refused
    /// before anything is sent ([`Error::ClientOrderIdInUse`]).
    pub fn collateral_market_order(&self, order: &CollateralMarketOrder) -> Result<Order, Error> {
        self.drive(self.inner.core.place(order))
    }

    /// Places a collateral trigger market order
    /// (`POST /api/v4/order/collateral/trigger-market`) with the `clientOrderId` it was built
    /// with.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`].
    pub fn collateral_trigger_market_order(
        &self,
        order: &CollateralTriggerMarketOrder,
    ) -> Result<Order, Error> {
        self.drive(self.inner.core.place(order))
    }

    /// Places either kind of order exactly once: on an unknown outcome, resolves it, and sends
    /// it again (same `clientOrderId`, fresh nonce) only when it was proven not placed. The
    /// answer says what proved it ([`Placed::evidence`](crate::outcomes::Found::evidence));
    /// see [`PlaceOnce`](txc_sign::PlaceOnce) for when it ends unknown.
    pub fn place_once<O: NewOrder>(&self, order: &O) -> Result<Placed, Error> {
        self.drive(self.inner.core.place_once(order))
    }

    /// Finds out from proof whether an order whose outcome is unknown was placed, by the rule
    /// [`Resolve`](crate::outcomes::Resolve) states: looks its `clientOrderId` up at once (the
    /// open orders, the history, the conditional orders for a trigger order), and again — to
    /// prove absence — after the attempts' window and the settling delay, twice. Every answer
    /// carries its [`Evidence`](crate::outcomes::Evidence); what it cannot prove either way is
    /// [`Error::OutcomeUnknown`], with the reason.
    pub fn resolve(&self, order: &PendingOrder) -> Result<Resolution, Error> {
        self.drive(self.inner.core.resolve(order.clone()))
    }

    /// The orders this client (and its clones) sent whose outcome is not definite yet — in
    /// flight, unknown or unresolved — oldest first. A future dropped mid-placement, or a
    /// thread that gave up waiting, leaves its order here: [`Client::resolve`] each.
    pub fn pending_orders(&self) -> Vec<PendingOrder> {
        self.inner.core.pending_orders()
    }

    /// Lists or looks up open orders (`POST /api/v4/orders`).
    pub fn open_orders(&self, query: &OpenOrdersQuery) -> Result<Vec<Order>, Error> {
        self.send(query)
    }

    /// Lists or looks up finished orders (`POST /api/v4/trade-account/order/history`); a
    /// `clientOrderId` that matches nothing gives an empty history.
    pub fn order_history(&self, query: &OrderHistoryQuery) -> Result<OrderHistory, Error> {
        self.send(query)
    }

    /// Lists a page of the active conditional orders — OTO groups (an order with a stop-loss
    /// or take-profit) and OCO pairs — (`POST /api/v4/conditional-orders`).
    pub fn conditional_orders(
        &self,
        query: &ConditionalOrdersQuery,
    ) -> Result<ConditionalOrders, Error> {
        self.send(query)
    }

    /// Cancels an open order (`POST /api/v4/order/cancel`); an order that is not open is
    /// [`Cancellation::NotFound`]. Never resent after a failure that leaves its outcome
    /// unknown.
    pub fn cancel_order(&self, cancel: &CancelOrder) -> Result<Cancellation, Error> {
        self.send(cancel)
    }

    /// Lists the smart investment plans (`POST /api/v4/main-account/smart/plans`); only for
    /// B2B partner keys, others get an [`ApiErrorClass::Permission`](crate::errors::ApiErrorClass)
    /// error. Retried on 5xx and transport failures.
    pub fn smart_plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.send(query)
    }

    /// The exchange's time (`GET /api/v4/public/time`, public: no key, no nonce), in whole
    /// seconds.
    pub fn server_time(&self) -> Result<ServerTime, Error> {
        self.send(&ServerTimeQuery)
    }

    /// Measures the local clock against the exchange's time and corrects this key's
    /// window-mode nonces by the offset from now on (opt-in; good to about a second). Call it
    /// when a request fails with a nonce outside the ±5 s window ([`ApiError::clock_skew`]
    /// says by how much), or at start-up on a host whose clock you do not trust.
    ///
    /// [`ApiError::clock_skew`]: crate::errors::ApiError::clock_skew
    pub fn sync_clock(&self) -> Result<ClockOffset, Error> {
        self.drive(self.inner.core.sync_clock())
    }

    /// The correction applied to the local clock for this key's window-mode nonces.
    pub fn clock_offset(&self) -> ClockOffset {
        self.inner.core.nonces().clock_offset()
    }

    /// Calls any [`Endpoint`] — these crates' or your own: signs with a fresh nonce, sends,
    /// decodes, retries as the policy allows. Orders go through the named methods, which
    /// resolve; this does not.
    pub fn send<E: Endpoint>(&self, endpoint: &E) -> Result<E::Response, Error> {
        self.drive(self.inner.core.call(endpoint))
    }

    /// Drives a sans-IO [`Machine`] of `txc-sign` to its end over this client's agent:
    /// sleeps when told to wait, sends what it is told to send.
    fn drive<M: Machine>(&self, mut machine: M) -> M::Output {
        let Inner { core, agent } = &*self.inner;
        loop {
            match machine.next(SystemTime::now()) {
                Step::Wait(delay) => thread::sleep(delay),
                Step::Send(request) => {
                    match round_trip(agent, request.into_http(), core.max_response_bytes()) {
                        Ok(r) => machine
                            .receive(Ok(Response::new(r.status, &r.body).with_headers(&r.headers))),
                        Err(failure) => machine.receive(Err(failure)),
                    }
                }
                Step::Done(output) => return output,
            }
        }
    }

    /// Signs `endpoint` with the next nonce without sending it: a dry run. The request's
    /// `Debug` shows the URL, key and body but not the payload or signature.
    ///
    /// The nonce is used up, as if the request had been sent.
    pub fn prepare<E: Endpoint>(&self, endpoint: &E) -> Result<SignedRequest, Error> {
        self.inner.core.prepare(endpoint, SystemTime::now())
    }

    /// The base URL requests go to, e.g. `https://whitebit.com`.
    pub fn base_url(&self) -> &str {
        self.inner.core.signer().base_url()
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let core = &self.inner.core;
        f.debug_struct("Client")
            .field("api_key", &core.signer().credentials().api_key())
            .field("base_url", &self.base_url())
            .field("nonce_mode", &core.nonce_mode())
            .field("retry", core.retry())
            .field("max_response_bytes", &core.max_response_bytes())
            .finish_non_exhaustive()
    }
}
