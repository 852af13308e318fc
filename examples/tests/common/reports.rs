//! The account's reports, called the same way whatever the transport: [`ReportsApi`] (beside
//! [`RiskApi`](super::risk::RiskApi) and [`InvestApi`](super::invest::InvestApi)) — the five
//! report reads, every paged read through the client's `pages`, a dry run of each report's
//! request, and the client's event stream — made by a [`ReportsDriver`] for every [`Make`]
//! driver.

use std::sync::Arc;

use txc_core::stream::{StreamConfig, Subscription};
use txc_core::{ClientConfig, Error};
use txc_sign::SignedRequest;
use txc_types::investments::{Investment, InvestmentsQuery};
use txc_types::lookups::{
    ExecutedDeal, ExecutedDeals, ExecutedHistoryQuery, HistoryOrder, OrderDeals, OrderDealsQuery,
    OrderHistoryQuery,
};
use txc_types::positions::{
    ClosedPnlQuery, ClosedPosition, FundingHistory, FundingHistoryQuery, FundingPayment,
    MarketAdlQuantile, PositionEvent, PositionHistoryQuery,
};

use super::flex::Pages;
use super::invest::InvestApi;
use super::risk::RiskApi;
use super::stream::{AsyncEvents, BlockingEvents, Events};
use super::{AsyncApi, Driver, Make};

/// A report's request, for a dry run ([`ReportsApi::prepare_report`]).
#[derive(Debug, Clone)]
pub enum ReportRequest {
    ClosedPnl(ClosedPnlQuery),
    Funding(FundingHistoryQuery),
    Adl,
    Executed(ExecutedHistoryQuery),
    Deals(OrderDealsQuery),
}

/// The reports of one client, beside its risk and investment operations.
pub trait ReportsApi: RiskApi + InvestApi {
    fn closed_pnl(&self, query: &ClosedPnlQuery) -> Result<Vec<ClosedPosition>, Error>;
    fn funding_history(&self, query: &FundingHistoryQuery) -> Result<FundingHistory, Error>;
    fn adl_quantile(&self) -> Result<Vec<MarketAdlQuantile>, Error>;
    fn executed_history(&self, query: &ExecutedHistoryQuery) -> Result<ExecutedDeals, Error>;
    fn order_deals(&self, query: &OrderDealsQuery) -> Result<OrderDeals, Error>;
    fn pnl_pages(&self, query: ClosedPnlQuery) -> Pages<ClosedPosition>;
    fn funding_pages(&self, query: FundingHistoryQuery) -> Pages<FundingPayment>;
    fn executed_pages(&self, query: ExecutedHistoryQuery) -> Pages<ExecutedDeal>;
    fn deal_pages(&self, query: OrderDealsQuery) -> Pages<ExecutedDeal>;
    fn position_pages(&self, query: PositionHistoryQuery) -> Pages<PositionEvent>;
    fn order_pages(&self, query: OrderHistoryQuery) -> Pages<HistoryOrder>;
    fn investment_pages(&self, query: InvestmentsQuery) -> Pages<Investment>;
    /// Signs `request` without sending it (the client's `prepare`).
    fn prepare_report(&self, request: &ReportRequest) -> Result<SignedRequest, Error>;
    /// The client's event stream of `subscriptions`, started.
    fn stream(&self, subscriptions: Vec<Subscription>, config: StreamConfig) -> Box<dyn Events>;
}

/// Makes report clients of one transport.
pub trait ReportsDriver: Driver {
    fn reporter(&self, base_url: &str, config: ClientConfig) -> Box<dyn ReportsApi>;
}

impl<D: Make> ReportsDriver for D {
    fn reporter(&self, base_url: &str, config: ClientConfig) -> Box<dyn ReportsApi> {
        Box::new(self.make(base_url, config))
    }
}

forward! {
    impl ReportsApi {
        call closed_pnl(&self, query: &ClosedPnlQuery) -> Result<Vec<ClosedPosition>, Error> => closed_pnl;
        call funding_history(&self, query: &FundingHistoryQuery) -> Result<FundingHistory, Error> => funding_history;
        call adl_quantile(&self) -> Result<Vec<MarketAdlQuantile>, Error> => adl_quantile;
        call executed_history(&self, query: &ExecutedHistoryQuery) -> Result<ExecutedDeals, Error> => executed_history;
        call order_deals(&self, query: &OrderDealsQuery) -> Result<OrderDeals, Error> => order_deals;
        pages pnl_pages(&self, query: ClosedPnlQuery) -> Pages<ClosedPosition>;
        pages funding_pages(&self, query: FundingHistoryQuery) -> Pages<FundingPayment>;
        pages executed_pages(&self, query: ExecutedHistoryQuery) -> Pages<ExecutedDeal>;
        pages deal_pages(&self, query: OrderDealsQuery) -> Pages<ExecutedDeal>;
        pages position_pages(&self, query: PositionHistoryQuery) -> Pages<PositionEvent>;
        pages order_pages(&self, query: OrderHistoryQuery) -> Pages<HistoryOrder>;
        pages investment_pages(&self, query: InvestmentsQuery) -> Pages<Investment>;
        inner prepare_report(&self, request: &ReportRequest) -> Result<SignedRequest, Error> |client| {
            match request {
                ReportRequest::ClosedPnl(r) => client.prepare(r),
                ReportRequest::Funding(r) => client.prepare(r),
                ReportRequest::Adl => client.prepare(&txc_types::positions::AdlQuantileQuery),
                ReportRequest::Executed(r) => client.prepare(r),
                ReportRequest::Deals(r) => client.prepare(r),
            }
        }
    }
    blocking {
        fn stream(&self, subscriptions: Vec<Subscription>, config: StreamConfig) -> Box<dyn Events> {
            let iter = self.events(subscriptions).config(config).start().unwrap();
            Box::new(BlockingEvents::spawn(iter))
        }
    }
    asynchronous {
        fn stream(&self, subscriptions: Vec<Subscription>, config: StreamConfig) -> Box<dyn Events> {
            let runtime = Arc::clone(&self.runtime);
            let stream = runtime.block_on(async {
                self.client
                    .events(subscriptions)
                    .config(config)
                    .start()
                    .unwrap()
            });
            Box::new(AsyncEvents { runtime, stream })
        }
    }
}
