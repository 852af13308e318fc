//! The smart-investment operations, called the same way whatever the transport: an
//! [`InvestApi`] per client and an [`InvestDriver`] that makes one, for both [`Blocking`] and
//! [`Async`](super::Async). Kept beside [`super::Api`] rather than in it, so the investment
//! tests add nothing to the order tests' trait.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use txc_sign::{ClientConfig, Error, InvestResolution, Invested, PendingInvestment};
use txc_types::investments::{
    CloseInvestment, InterestPaymentsPage, InterestPaymentsQuery, Invest, InvestmentClosed,
    InvestmentPlan, InvestmentsPage, InvestmentsQuery, NewInvestment, SmartPlansQuery,
};

use super::{AsyncApi, Blocking};

/// The investment operations of one client.
pub trait InvestApi: Send + Sync {
    fn plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error>;
    fn invest(&self, invest: &Invest) -> Result<NewInvestment, Error>;
    fn invest_once(&self, invest: &Invest) -> Result<Invested, Error>;
    fn resolve_investment(&self, pending: &PendingInvestment) -> Result<InvestResolution, Error>;
    fn close_investment(&self, close: &CloseInvestment) -> Result<InvestmentClosed, Error>;
    fn investments(&self, query: &InvestmentsQuery) -> Result<InvestmentsPage, Error>;
    fn interest_payments(
        &self,
        query: &InterestPaymentsQuery,
    ) -> Result<InterestPaymentsPage, Error>;
    /// Invests each exactly once, at most `concurrency` at once, through clones of this
    /// client; the results in the investments' order.
    fn run_invest_once(
        &self,
        invests: Vec<Invest>,
        concurrency: usize,
    ) -> Vec<Result<Invested, Error>>;
}

/// Makes investment clients of one transport.
pub trait InvestDriver {
    fn name(&self) -> &'static str;
    fn investor(&self, base_url: &str, config: ClientConfig) -> Box<dyn InvestApi>;
}

impl InvestDriver for Blocking {
    fn name(&self) -> &'static str {
        "blocking"
    }

    fn investor(&self, base_url: &str, config: ClientConfig) -> Box<dyn InvestApi> {
        let client = txc_blocking::ClientBuilder::from(config.base_url(base_url));
        Box::new(client.build().unwrap())
    }
}

impl InvestDriver for super::Async {
    fn name(&self) -> &'static str {
        "async"
    }

    fn investor(&self, base_url: &str, config: ClientConfig) -> Box<dyn InvestApi> {
        let client = txc_async::ClientBuilder::from(config.base_url(base_url));
        Box::new(AsyncApi {
            runtime: Arc::clone(&self.runtime),
            client: client.build().unwrap(),
        })
    }
}

/// Hands out `0..len` to workers.
struct Next(AtomicUsize, usize);

impl Next {
    fn take(&self) -> Option<usize> {
        let i = self.0.fetch_add(1, Ordering::Relaxed);
        (i < self.1).then_some(i)
    }
}

fn in_order<T>(mut done: Vec<(usize, T)>) -> Vec<T> {
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

impl InvestApi for txc_blocking::Client {
    fn plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.smart_plans(query)
    }
    fn invest(&self, invest: &Invest) -> Result<NewInvestment, Error> {
        txc_blocking::Client::invest(self, invest)
    }
    fn invest_once(&self, invest: &Invest) -> Result<Invested, Error> {
        txc_blocking::Client::invest_once(self, invest)
    }
    fn resolve_investment(&self, pending: &PendingInvestment) -> Result<InvestResolution, Error> {
        txc_blocking::Client::resolve_investment(self, pending)
    }
    fn close_investment(&self, close: &CloseInvestment) -> Result<InvestmentClosed, Error> {
        txc_blocking::Client::close_investment(self, close)
    }
    fn investments(&self, query: &InvestmentsQuery) -> Result<InvestmentsPage, Error> {
        txc_blocking::Client::investments(self, query)
    }
    fn interest_payments(
        &self,
        query: &InterestPaymentsQuery,
    ) -> Result<InterestPaymentsPage, Error> {
        txc_blocking::Client::interest_payments(self, query)
    }
    fn run_invest_once(
        &self,
        invests: Vec<Invest>,
        concurrency: usize,
    ) -> Vec<Result<Invested, Error>> {
        let invests = Arc::new(invests);
        let next = Arc::new(Next(AtomicUsize::new(0), invests.len()));
        let workers: Vec<_> = (0..concurrency.max(1))
            .map(|_| {
                let (client, invests, next) =
                    (self.clone(), Arc::clone(&invests), Arc::clone(&next));
                std::thread::spawn(move || {
                    let mut done = Vec::new();
                    while let Some(i) = next.take() {
                        done.push((i, client.invest_once(&invests[i])));
                    }
                    done
                })
            })
            .collect();
        in_order(
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap())
                .collect(),
        )
    }
}

impl InvestApi for AsyncApi {
    fn plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.runtime.block_on(self.client.smart_plans(query))
    }
    fn invest(&self, invest: &Invest) -> Result<NewInvestment, Error> {
        self.runtime.block_on(self.client.invest(invest))
    }
    fn invest_once(&self, invest: &Invest) -> Result<Invested, Error> {
        self.runtime.block_on(self.client.invest_once(invest))
    }
    fn resolve_investment(&self, pending: &PendingInvestment) -> Result<InvestResolution, Error> {
        self.runtime
            .block_on(self.client.resolve_investment(pending))
    }
    fn close_investment(&self, close: &CloseInvestment) -> Result<InvestmentClosed, Error> {
        self.runtime.block_on(self.client.close_investment(close))
    }
    fn investments(&self, query: &InvestmentsQuery) -> Result<InvestmentsPage, Error> {
        self.runtime.block_on(self.client.investments(query))
    }
    fn interest_payments(
        &self,
        query: &InterestPaymentsQuery,
    ) -> Result<InterestPaymentsPage, Error> {
        self.runtime.block_on(self.client.interest_payments(query))
    }
    fn run_invest_once(
        &self,
        invests: Vec<Invest>,
        concurrency: usize,
    ) -> Vec<Result<Invested, Error>> {
        let invests = Arc::new(invests);
        let next = Arc::new(Next(AtomicUsize::new(0), invests.len()));
        self.runtime.block_on(async {
            let workers: Vec<_> = (0..concurrency.max(1))
                .map(|_| {
                    let (client, invests, next) =
                        (self.client.clone(), Arc::clone(&invests), Arc::clone(&next));
                    tokio::spawn(async move {
                        let mut done = Vec::new();
                        while let Some(i) = next.take() {
                            done.push((i, client.invest_once(&invests[i]).await));
                        }
                        done
                    })
                })
                .collect();
            let mut done = Vec::new();
            for worker in workers {
                done.extend(worker.await.unwrap());
            }
            in_order(done)
        })
    }
}
