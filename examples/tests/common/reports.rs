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

/// [`ReportsApi`]'s reads and pages for a client type with the same methods, blocking or (with
/// `$run` blocking on it) async: one list of the calls, whatever the transport.
macro_rules! reports_api {
    ($client:ty, |$api:ident| $inner:expr, |$call:ident| $run:expr, |$read:ident| $pages:expr,
     |$subs:ident, $config:ident| $stream:expr) => {
        impl ReportsApi for $client {
            fn closed_pnl(&self, query: &ClosedPnlQuery) -> Result<Vec<ClosedPosition>, Error> {
                let $api = self;
                let $call = $inner.closed_pnl(query);
                $run
            }
            fn funding_history(
                &self,
                query: &FundingHistoryQuery,
            ) -> Result<FundingHistory, Error> {
                let $api = self;
                let $call = $inner.funding_history(query);
                $run
            }
            fn adl_quantile(&self) -> Result<Vec<MarketAdlQuantile>, Error> {
                let $api = self;
                let $call = $inner.adl_quantile();
                $run
            }
            fn executed_history(
                &self,
                query: &ExecutedHistoryQuery,
            ) -> Result<ExecutedDeals, Error> {
                let $api = self;
                let $call = $inner.executed_history(query);
                $run
            }
            fn order_deals(&self, query: &OrderDealsQuery) -> Result<OrderDeals, Error> {
                let $api = self;
                let $call = $inner.order_deals(query);
                $run
            }
            fn pnl_pages(&self, query: ClosedPnlQuery) -> Pages<ClosedPosition> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn funding_pages(&self, query: FundingHistoryQuery) -> Pages<FundingPayment> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn executed_pages(&self, query: ExecutedHistoryQuery) -> Pages<ExecutedDeal> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn deal_pages(&self, query: OrderDealsQuery) -> Pages<ExecutedDeal> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn position_pages(&self, query: PositionHistoryQuery) -> Pages<PositionEvent> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn order_pages(&self, query: OrderHistoryQuery) -> Pages<HistoryOrder> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn investment_pages(&self, query: InvestmentsQuery) -> Pages<Investment> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn prepare_report(&self, request: &ReportRequest) -> Result<SignedRequest, Error> {
                let $api = self;
                match request {
                    ReportRequest::ClosedPnl(r) => $inner.prepare(r),
                    ReportRequest::Funding(r) => $inner.prepare(r),
                    ReportRequest::Adl => $inner.prepare(&txc_types::positions::AdlQuantileQuery),
                    ReportRequest::Executed(r) => $inner.prepare(r),
                    ReportRequest::Deals(r) => $inner.prepare(r),
                }
            }
            fn stream(&self, $subs: Vec<Subscription>, $config: StreamConfig) -> Box<dyn Events> {
                let $api = self;
                $stream
            }
        }
    };
}

reports_api!(
    txc_blocking::Client,
    |api| api,
    |call| call,
    |read| read.collect(),
    |subscriptions, config| {
        let iter = api.events(subscriptions).config(config).start().unwrap();
        Box::new(BlockingEvents::spawn(iter))
    }
);

reports_api!(
    AsyncApi,
    |api| api.client,
    |call| api.runtime.block_on(call),
    |read| {
        api.runtime.block_on(async {
            let mut read = read;
            let mut pages = Vec::new();
            while let Some(page) = read.next().await {
                pages.push(page);
            }
            pages
        })
    },
    |subscriptions, config| {
        let runtime = Arc::clone(&api.runtime);
        let stream = runtime.block_on(async {
            api.client
                .events(subscriptions)
                .config(config)
                .start()
                .unwrap()
        });
        Box::new(AsyncEvents { runtime, stream })
    }
);
