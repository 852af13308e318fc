//! [`Client`]: the async client, a thin driver of [`txc_sign::Call`] over reqwest and tokio.

use std::fmt;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use txc_sign::{ClientCore, Credentials, Error, SignedRequest, Step};
use txc_types::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, Endpoint, InvestmentPlan, Order,
    SmartPlansQuery,
};

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
/// [`RetryPolicy`](crate::RetryPolicy) allows — waits and tries again, signed afresh. An
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

    /// Places a collateral market order (`POST /api/v4/order/collateral/market`).
    ///
    /// Not retried after an ambiguous failure: see [`Error::outcome_unknown`].
    pub async fn collateral_market_order(
        &self,
        order: &CollateralMarketOrder,
    ) -> Result<Order, Error> {
        self.send(order).await
    }

    /// Places a collateral trigger market order
    /// (`POST /api/v4/order/collateral/trigger-market`).
    ///
    /// Not retried after an ambiguous failure: see [`Error::outcome_unknown`].
    pub async fn collateral_trigger_market_order(
        &self,
        order: &CollateralTriggerMarketOrder,
    ) -> Result<Order, Error> {
        self.send(order).await
    }

    /// Lists the smart investment plans (`POST /api/v4/main-account/smart/plans`); only for
    /// B2B partner keys, others get an [`ApiErrorClass::Permission`](crate::ApiErrorClass)
    /// error. Retried on 5xx and transport failures.
    pub async fn smart_plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.send(query).await
    }

    /// Calls any endpoint: sign with a fresh nonce, send, decode, retry as the policy allows.
    pub async fn send<E: Endpoint>(&self, endpoint: &E) -> Result<E::Response, Error> {
        let Inner { core, http, urls } = &*self.inner;
        let url = urls.of::<E>()?;
        let mut call = core.call(endpoint);
        loop {
            if let Some(wait) = call.pace(now_ms()) {
                tokio::time::sleep(wait).await;
            }
            let request = call.sign(now_ms())?;
            let started = Instant::now();
            let answer = round_trip(http, url.clone(), request, core.max_response_bytes()).await;
            let elapsed = started.elapsed();
            let step = match answer {
                Ok((status, body)) => call.handle(Ok((status, &body)), elapsed),
                Err(error) => call.handle(Err(error), elapsed),
            };
            match step {
                Step::RetryAfter(delay) => tokio::time::sleep(delay).await,
                Step::Done(result) => return result,
            }
        }
    }

    /// Signs `endpoint` with the next nonce without sending it: a dry run. The request's
    /// `Debug` shows the URL, key and body but not the payload or signature.
    ///
    /// The nonce is used up, as if the request had been sent.
    pub fn prepare<E: Endpoint>(&self, endpoint: &E) -> Result<SignedRequest, Error> {
        self.inner.core.prepare(endpoint, now_ms())
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
            .field("nonce_window", &core.nonce_window())
            .field("retry", core.retry())
            .field("max_response_bytes", &core.max_response_bytes())
            .finish_non_exhaustive()
    }
}

/// The current time for the nonce sequence; the only clock read of the send loop.
fn now_ms() -> u64 {
    txc_sign::unix_millis(SystemTime::now())
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
            CollateralMarketOrder::builder("BTC_USDT", txc_types::Side::Buy, "1").build()
        else {
            panic!("order")
        };
        assert_send(&client.collateral_market_order(&order));
    }
}
