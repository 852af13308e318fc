//! Flexible lending, called the same way whatever the transport: a [`FlexApi`] per client and a
//! [`FlexDriver`] that makes one, for every [`Make`] driver ([`Blocking`](super::Blocking) and
//! [`Async`](super::Async)). Kept beside [`super::Api`] as the investments' [`InvestApi`]
//! (super::invest::InvestApi) is.

use txc_core::resolve::{
    FlexDone, FlexResolution, PendingFlexInvest, PendingFlexWithdraw, StateReached,
};
use txc_core::{ClientConfig, Error};
use txc_sign::SignedRequest;
use txc_types::endpoint::Acknowledged;
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexHistoryPage, FlexHistoryQuery, FlexHistoryRecord, FlexInvest,
    FlexInvestment, FlexInvestmentsPage, FlexInvestmentsQuery, FlexPaymentsQuery, FlexPlan,
    FlexPlansQuery, FlexTransaction, FlexWithdraw, SetFlexAutoInvest,
};

use super::{Api, AsyncApi, Driver, Make};

/// A flex request, for a dry run ([`FlexApi::prepare_flex`]).
#[derive(Debug, Clone)]
pub enum FlexRequest {
    Plans(FlexPlansQuery),
    Investments(FlexInvestmentsQuery),
    History(FlexHistoryQuery),
    Payments(FlexPaymentsQuery),
    Invest(FlexInvest),
    Withdraw(FlexWithdraw),
    Close(CloseFlexInvestment),
    AutoInvest(SetFlexAutoInvest),
}

/// A whole list, page by page: each page's records, or the error that ended the read.
pub type Pages<T> = Vec<Result<Vec<T>, Error>>;

/// The flex operations of one client, beside its [`Api`].
pub trait FlexApi: Api {
    fn flex_plans(&self, query: &FlexPlansQuery) -> Result<Vec<FlexPlan>, Error>;
    fn flex_investments(&self, query: &FlexInvestmentsQuery) -> Result<FlexInvestmentsPage, Error>;
    fn flex_history(&self, query: &FlexHistoryQuery) -> Result<FlexHistoryPage, Error>;
    fn flex_payments(&self, query: &FlexPaymentsQuery) -> Result<FlexHistoryPage, Error>;
    fn flex_invest(&self, invest: &FlexInvest) -> Result<FlexTransaction, Error>;
    fn flex_invest_once(&self, invest: &FlexInvest) -> Result<FlexDone, Error>;
    fn resolve_flex_invest(&self, pending: &PendingFlexInvest) -> Result<FlexResolution, Error>;
    fn flex_withdraw(&self, withdraw: &FlexWithdraw) -> Result<FlexTransaction, Error>;
    fn flex_withdraw_once(&self, withdraw: &FlexWithdraw) -> Result<FlexDone, Error>;
    fn resolve_flex_withdraw(&self, pending: &PendingFlexWithdraw)
    -> Result<FlexResolution, Error>;
    fn close_flex_investment(
        &self,
        close: &CloseFlexInvestment,
    ) -> Result<StateReached<FlexTransaction>, Error>;
    fn set_flex_auto_invest(
        &self,
        set: &SetFlexAutoInvest,
    ) -> Result<StateReached<Acknowledged>, Error>;
    fn pending_flex_investments(&self) -> Vec<PendingFlexInvest>;
    fn pending_flex_withdrawals(&self) -> Vec<PendingFlexWithdraw>;
    /// Every plan, through the client's `pages`.
    fn plan_pages(&self, query: FlexPlansQuery) -> Pages<FlexPlan>;
    /// Every investment, through the client's `pages`.
    fn investment_pages(&self, query: FlexInvestmentsQuery) -> Pages<FlexInvestment>;
    /// The whole history, through the client's `pages`.
    fn history_pages(&self, query: FlexHistoryQuery) -> Pages<FlexHistoryRecord>;
    /// Every earning paid, through the client's `pages`.
    fn payment_pages(&self, query: FlexPaymentsQuery) -> Pages<FlexHistoryRecord>;
    /// Signs `request` without sending it (the client's `prepare`).
    fn prepare_flex(&self, request: &FlexRequest) -> Result<SignedRequest, Error>;
}

/// Makes flex clients of one transport.
pub trait FlexDriver: Driver {
    fn flexer(&self, base_url: &str, config: ClientConfig) -> Box<dyn FlexApi>;
}

impl<D: Make> FlexDriver for D {
    fn flexer(&self, base_url: &str, config: ClientConfig) -> Box<dyn FlexApi> {
        Box::new(self.make(base_url, config))
    }
}

/// [`FlexApi`] for a client type with the same methods, blocking or (with `$run` blocking on
/// it) async: one list of the calls, whatever the transport.
macro_rules! flex_api {
    ($client:ty, |$api:ident| $inner:expr, |$call:ident| $run:expr, |$read:ident| $pages:expr) => {
        impl FlexApi for $client {
            fn flex_plans(&self, query: &FlexPlansQuery) -> Result<Vec<FlexPlan>, Error> {
                let $api = self;
                let $call = $inner.flex_plans(query);
                $run
            }
            fn flex_investments(
                &self,
                query: &FlexInvestmentsQuery,
            ) -> Result<FlexInvestmentsPage, Error> {
                let $api = self;
                let $call = $inner.flex_investments(query);
                $run
            }
            fn flex_history(&self, query: &FlexHistoryQuery) -> Result<FlexHistoryPage, Error> {
                let $api = self;
                let $call = $inner.flex_history(query);
                $run
            }
            fn flex_payments(&self, query: &FlexPaymentsQuery) -> Result<FlexHistoryPage, Error> {
                let $api = self;
                let $call = $inner.flex_payments(query);
                $run
            }
            fn flex_invest(&self, invest: &FlexInvest) -> Result<FlexTransaction, Error> {
                let $api = self;
                let $call = $inner.flex_invest(invest);
                $run
            }
            fn flex_invest_once(&self, invest: &FlexInvest) -> Result<FlexDone, Error> {
                let $api = self;
                let $call = $inner.flex_invest_once(invest);
                $run
            }
            fn resolve_flex_invest(
                &self,
                pending: &PendingFlexInvest,
            ) -> Result<FlexResolution, Error> {
                let $api = self;
                let $call = $inner.resolve_flex_invest(pending);
                $run
            }
            fn flex_withdraw(&self, withdraw: &FlexWithdraw) -> Result<FlexTransaction, Error> {
                let $api = self;
                let $call = $inner.flex_withdraw(withdraw);
                $run
            }
            fn flex_withdraw_once(&self, withdraw: &FlexWithdraw) -> Result<FlexDone, Error> {
                let $api = self;
                let $call = $inner.flex_withdraw_once(withdraw);
                $run
            }
            fn resolve_flex_withdraw(
                &self,
                pending: &PendingFlexWithdraw,
            ) -> Result<FlexResolution, Error> {
                let $api = self;
                let $call = $inner.resolve_flex_withdraw(pending);
                $run
            }
            fn close_flex_investment(
                &self,
                close: &CloseFlexInvestment,
            ) -> Result<StateReached<FlexTransaction>, Error> {
                let $api = self;
                let $call = $inner.close_flex_investment(close);
                $run
            }
            fn set_flex_auto_invest(
                &self,
                set: &SetFlexAutoInvest,
            ) -> Result<StateReached<Acknowledged>, Error> {
                let $api = self;
                let $call = $inner.set_flex_auto_invest(set);
                $run
            }
            fn pending_flex_investments(&self) -> Vec<PendingFlexInvest> {
                let $api = self;
                $inner.pending_flex_investments()
            }
            fn pending_flex_withdrawals(&self) -> Vec<PendingFlexWithdraw> {
                let $api = self;
                $inner.pending_flex_withdrawals()
            }
            fn plan_pages(&self, query: FlexPlansQuery) -> Pages<FlexPlan> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn investment_pages(&self, query: FlexInvestmentsQuery) -> Pages<FlexInvestment> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn history_pages(&self, query: FlexHistoryQuery) -> Pages<FlexHistoryRecord> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn payment_pages(&self, query: FlexPaymentsQuery) -> Pages<FlexHistoryRecord> {
                let $api = self;
                let $read = $inner.pages(query);
                $pages
            }
            fn prepare_flex(&self, request: &FlexRequest) -> Result<SignedRequest, Error> {
                let $api = self;
                match request {
                    FlexRequest::Plans(r) => $inner.prepare(r),
                    FlexRequest::Investments(r) => $inner.prepare(r),
                    FlexRequest::History(r) => $inner.prepare(r),
                    FlexRequest::Payments(r) => $inner.prepare(r),
                    FlexRequest::Invest(r) => $inner.prepare(r),
                    FlexRequest::Withdraw(r) => $inner.prepare(r),
                    FlexRequest::Close(r) => $inner.prepare(r),
                    FlexRequest::AutoInvest(r) => $inner.prepare(r),
                }
            }
        }
    };
}

flex_api!(txc_blocking::Client, |api| api, |call| call, |read| read
    .collect());

flex_api!(
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
    }
);
