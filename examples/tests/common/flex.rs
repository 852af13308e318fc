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

forward! {
    impl FlexApi {
        call flex_plans(&self, query: &FlexPlansQuery) -> Result<Vec<FlexPlan>, Error> => flex_plans;
        call flex_investments(&self, query: &FlexInvestmentsQuery) -> Result<FlexInvestmentsPage, Error> => flex_investments;
        call flex_history(&self, query: &FlexHistoryQuery) -> Result<FlexHistoryPage, Error> => flex_history;
        call flex_payments(&self, query: &FlexPaymentsQuery) -> Result<FlexHistoryPage, Error> => flex_payments;
        call flex_invest(&self, invest: &FlexInvest) -> Result<FlexTransaction, Error> => flex_invest;
        call flex_invest_once(&self, invest: &FlexInvest) -> Result<FlexDone, Error> => flex_invest_once;
        call resolve_flex_invest(&self, pending: &PendingFlexInvest) -> Result<FlexResolution, Error> => resolve_flex_invest;
        call flex_withdraw(&self, withdraw: &FlexWithdraw) -> Result<FlexTransaction, Error> => flex_withdraw;
        call flex_withdraw_once(&self, withdraw: &FlexWithdraw) -> Result<FlexDone, Error> => flex_withdraw_once;
        call resolve_flex_withdraw(&self, pending: &PendingFlexWithdraw) -> Result<FlexResolution, Error> => resolve_flex_withdraw;
        call close_flex_investment(&self, close: &CloseFlexInvestment) -> Result<StateReached<FlexTransaction>, Error> => close_flex_investment;
        call set_flex_auto_invest(&self, set: &SetFlexAutoInvest) -> Result<StateReached<Acknowledged>, Error> => set_flex_auto_invest;
        now pending_flex_investments(&self) -> Vec<PendingFlexInvest>;
        now pending_flex_withdrawals(&self) -> Vec<PendingFlexWithdraw>;
        pages plan_pages(&self, query: FlexPlansQuery) -> Pages<FlexPlan>;
        pages investment_pages(&self, query: FlexInvestmentsQuery) -> Pages<FlexInvestment>;
        pages history_pages(&self, query: FlexHistoryQuery) -> Pages<FlexHistoryRecord>;
        pages payment_pages(&self, query: FlexPaymentsQuery) -> Pages<FlexHistoryRecord>;
        inner prepare_flex(&self, request: &FlexRequest) -> Result<SignedRequest, Error> |client| {
            match request {
                FlexRequest::Plans(r) => client.prepare(r),
                FlexRequest::Investments(r) => client.prepare(r),
                FlexRequest::History(r) => client.prepare(r),
                FlexRequest::Payments(r) => client.prepare(r),
                FlexRequest::Invest(r) => client.prepare(r),
                FlexRequest::Withdraw(r) => client.prepare(r),
                FlexRequest::Close(r) => client.prepare(r),
                FlexRequest::AutoInvest(r) => client.prepare(r),
            }
        }
    }
}
