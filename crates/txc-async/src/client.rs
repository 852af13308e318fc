//! [`Client`]: the async client, a thin driver of [`txc_sign::Call`] over reqwest and tokio.

use std::fmt;
use std::sync::Arc;
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
use crate::transport::{Urls, round_trip};

/// An async client of WhiteBIT's private v4 API for one API key. Needs a tokio runtime
/// (with the time driver, e.g. `#[tokio::main]`).
///
/// Cheap to clone (one `Arc`): clones share the HTTP client's connection pool and the key's
/// nonce sequence, so they can be used from many tasks at once without nonce collisions.
/// Its futures are `Send`.
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
    http: reqwest::Client,
    urls: Urls,
}

impl Client {
    /// Starts configuring a client for `credentials`.
    pub fn builder(credentials: Credentials) -> ClientBuilder {
        ClientBuilder::new(credentials)
    }

    pub(crate) fn from_parts(core: ClientCore, http: reqwest::Client) -> Self {
        Self {
            inner: Arc::new(Inner {
                urls: Urls::new(core.signer().base_url()),
                core,
                http,
            }),
        }
    }

    /// Places a collateral market order (`POST /api/v4/order/collateral/market`) with the
    /// `clientOrderId` it was built with.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`]. An id
    /// this client used for an order still unresolved, or within the last seconds, is refused
    /// before anything is sent ([`Error::ClientOrderIdInUse`]).
    pub async fn collateral_market_order(
        &self,
        order: &CollateralMarketOrder,
    ) -> Result<Order, Error> {
        self.drive(self.inner.core.place(order)).await
    }

    /// Places a collateral trigger market order
    /// (`POST /api/v4/order/collateral/trigger-market`) with the `clientOrderId` it was built
    /// with.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`].
    pub async fn collateral_trigger_market_order(
        &self,
        order: &CollateralTriggerMarketOrder,
    ) -> Result<Order, Error> {
        self.drive(self.inner.core.place(order)).await
    }

    /// Places either kind of order exactly once: on an unknown outcome, resolves it, and sends
    /// it again (same `clientOrderId`, fresh nonce) only when it was proven not placed. The
    /// answer says what proved it ([`Placed::evidence`](crate::outcomes::Found::evidence));
    /// see [`PlaceOnce`](txc_sign::PlaceOnce) for when it ends unknown.
    pub async fn place_once<O: NewOrder>(&self, order: &O) -> Result<Placed, Error> {
        self.drive(self.inner.core.place_once(order)).await
    }

    /// Finds out from proof whether an order whose outcome is unknown was placed, by the rule
    /// [`Resolve`](crate::outcomes::Resolve) states: looks its `clientOrderId` up at once (the
    /// open orders, the history, the conditional orders for a trigger order), and again — to
    /// prove absence — after the attempts' window and the settling delay, twice. Every answer
    /// carries its [`Evidence`](crate::outcomes::Evidence); what it cannot prove either way is
    /// [`Error::OutcomeUnknown`], with the reason.
    pub async fn resolve(&self, order: &PendingOrder) -> Result<Resolution, Error> {
        self.drive(self.inner.core.resolve(order.clone())).await
    }

    /// The orders this client (and its clones) sent whose outcome is not definite yet — in
    /// flight, unknown or unresolved — oldest first. A future dropped mid-placement, or a
    /// thread that gave up waiting, leaves its order here: [`Client::resolve`] each.
    pub fn pending_orders(&self) -> Vec<PendingOrder> {
        self.inner.core.pending_orders()
    }

    /// Lists or looks up open orders (`POST /api/v4/orders`).
    pub async fn open_orders(&self, query: &OpenOrdersQuery) -> Result<Vec<Order>, Error> {
        self.send(query).await
    }

    /// Lists or looks up finished orders (`POST /api/v4/trade-account/order/history`); a
    /// `clientOrderId` that matches nothing gives an empty history.
    pub async fn order_history(&self, query: &OrderHistoryQuery) -> Result<OrderHistory, Error> {
        self.send(query).await
    }

    /// Lists a page of the active conditional orders — OTO groups (an order with a stop-loss
    /// or take-profit) and OCO pairs — (`POST /api/v4/conditional-orders`).
    pub async fn conditional_orders(
        &self,
        query: &ConditionalOrdersQuery,
    ) -> Result<ConditionalOrders, Error> {
        self.send(query).await
    }

    /// Cancels an open order (`POST /api/v4/order/cancel`); an order that is not open is
    /// [`Cancellation::NotFound`]. Never resent after a failure that leaves its outcome
    /// unknown.
    pub async fn cancel_order(&self, cancel: &CancelOrder) -> Result<Cancellation, Error> {
        self.send(cancel).await
    }

    /// Lists the smart investment plans (`POST /api/v4/main-account/smart/plans`); only for
    /// B2B partner keys, others get an [`ApiErrorClass::Permission`](crate::errors::ApiErrorClass)
    /// error. Retried on 5xx and transport failures.
    pub async fn smart_plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.send(query).await
    }

    /// The exchange's time (`GET /api/v4/public/time`, public: no key, no nonce), in whole
    /// seconds.
    pub async fn server_time(&self) -> Result<ServerTime, Error> {
        self.send(&ServerTimeQuery).await
    }

    /// Measures the local clock against the exchange's time and corrects this key's
    /// window-mode nonces by the offset from now on (opt-in; good to about a second). Call it
    /// when a request fails with a nonce outside the ±5 s window ([`ApiError::clock_skew`]
    /// says by how much), or at start-up on a host whose clock you do not trust.
    ///
    /// [`ApiError::clock_skew`]: crate::errors::ApiError::clock_skew
    pub async fn sync_clock(&self) -> Result<ClockOffset, Error> {
        self.drive(self.inner.core.sync_clock()).await
    }

    /// The correction applied to the local clock for this key's window-mode nonces.
    pub fn clock_offset(&self) -> ClockOffset {
        self.inner.core.nonces().clock_offset()
    }

    /// Calls any [`Endpoint`] — these crates' or your own: signs with a fresh nonce, sends,
    /// decodes, retries as the policy allows. Orders go through the named methods, which
    /// resolve; this does not.
    pub async fn send<E: Endpoint>(&self, endpoint: &E) -> Result<E::Response, Error> {
        self.drive(self.inner.core.call(endpoint)).await
    }

    /// Drives a sans-IO [`Machine`] of `txc-sign` to its end over this client's HTTP client:
    /// sleeps when told to wait, sends what it is told to send.
    async fn drive<M: Machine>(&self, mut machine: M) -> M::Output {
        let Inner { core, http, urls } = &*self.inner;
        loop {
            match machine.next(SystemTime::now()) {
                Step::Wait(delay) => tokio::time::sleep(delay).await,
                Step::Send(request) => {
                    let sent = match urls.of_path(request.uri().path()) {
                        Ok(url) => round_trip(http, url, request, core.max_response_bytes()).await,
                        Err(failure) => Err(failure),
                    };
                    match sent {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>(_: &T) {}

    #[test]
    fn futures_are_send_and_client_is_send_sync() {
        fn send_sync<T: Send + Sync + Clone>() {}
        send_sync::<Client>();
        let Ok(credentials) = Credentials::new("k", "s") else {
            panic!("credentials")
        };
        let Ok(client) = Client::builder(credentials).build() else {
            panic!("client")
        };
        let query = SmartPlansQuery::new();
        let future = client.smart_plans(&query);
        assert_send(&future);
        let Ok(order) =
            CollateralMarketOrder::builder("BTC_USDT", txc_types::orders::Side::Buy, "1").build()
        else {
            panic!("order")
        };
        assert_send(&client.collateral_market_order(&order));
    }
}
