//! The smart-investment operations, called the same way whatever the transport: an
//! [`InvestApi`] per client and an [`InvestDriver`] that makes one, for every [`Make`] driver
//! ([`Blocking`](super::Blocking) and [`Async`](super::Async)). Kept beside [`super::Api`]
//! rather than in it, so the investment tests add nothing to the order tests' trait (whose
//! `plans` it shares).

use txc_core::resolve::{InvestResolution, Invested, PendingInvestment};
use txc_core::{ClientConfig, Error};
use txc_types::investments::{
    CloseInvestment, InterestPaymentsPage, InterestPaymentsQuery, Invest, InvestmentClosed,
    InvestmentsPage, InvestmentsQuery, NewInvestment,
};

use super::{Api, AsyncApi, Driver, Make, on_tasks, on_threads};

/// The investment operations of one client, beside its [`Api`] (which reads the plans).
pub trait InvestApi: Api {
    fn invest(&self, invest: &Invest) -> Result<NewInvestment, Error>;
    fn invest_once(&self, invest: &Invest) -> Result<Invested, Error>;
    fn resolve_investment(&self, pending: &PendingInvestment) -> Result<InvestResolution, Error>;
    /// The investments the client holds as in flight or unresolved.
    fn pending_investments(&self) -> Vec<PendingInvestment>;
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
pub trait InvestDriver: Driver {
    fn investor(&self, base_url: &str, config: ClientConfig) -> Box<dyn InvestApi>;
}

impl<D: Make> InvestDriver for D {
    fn investor(&self, base_url: &str, config: ClientConfig) -> Box<dyn InvestApi> {
        Box::new(self.make(base_url, config))
    }
}

forward! {
    impl InvestApi {
        call invest(&self, invest: &Invest) -> Result<NewInvestment, Error> => invest;
        call invest_once(&self, invest: &Invest) -> Result<Invested, Error> => invest_once;
        call resolve_investment(&self, pending: &PendingInvestment) -> Result<InvestResolution, Error> => resolve_investment;
        call close_investment(&self, close: &CloseInvestment) -> Result<InvestmentClosed, Error> => close_investment;
        call investments(&self, query: &InvestmentsQuery) -> Result<InvestmentsPage, Error> => investments;
        call interest_payments(&self, query: &InterestPaymentsQuery) -> Result<InterestPaymentsPage, Error> => interest_payments;
        now pending_investments(&self) -> Vec<PendingInvestment>;
    }
    blocking {
        fn run_invest_once(
            &self,
            invests: Vec<Invest>,
            concurrency: usize,
        ) -> Vec<Result<Invested, Error>> {
            on_threads(self, invests, concurrency, Self::invest_once)
        }
    }
    asynchronous {
        fn run_invest_once(
            &self,
            invests: Vec<Invest>,
            concurrency: usize,
        ) -> Vec<Result<Invested, Error>> {
            let (runtime, client) = (&self.runtime, &self.client);
            on_tasks(runtime, client, invests, concurrency, |client, invest| {
                Box::pin(client.invest_once(invest))
            })
        }
    }
}
