//! Flexible lending with the async [`Client`]: the plans, the investments and their
//! histories, investing and withdrawing — once, exactly once, or resolving one whose outcome is
//! unknown — and closing or switching the auto-reinvestment, whose lost answers are resolved by
//! the investment's state. Every machine is `txc-core`'s; this file only drives them.

use txc_core::Error;
use txc_core::resolve::{
    FlexDone, FlexResolution, PendingFlexInvest, PendingFlexWithdraw, StateReached,
};
use txc_types::endpoint::Acknowledged;
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexHistoryPage, FlexHistoryQuery, FlexInvest, FlexInvestmentsPage,
    FlexInvestmentsQuery, FlexPaymentsQuery, FlexPlan, FlexPlansQuery, FlexTransaction,
    FlexWithdraw, SetFlexAutoInvest,
};

use crate::Client;

impl Client {
    /// A page of the flex plans offered to the account (`POST
    /// /api/v4/main-account/smart-flex/plans`); [`Client::pages`] reads them all.
    pub async fn flex_plans(&self, query: &FlexPlansQuery) -> Result<Vec<FlexPlan>, Error> {
        self.send(query).await
    }

    /// A page of the account's flex investments, active and closed (`POST
    /// /api/v4/main-account/smart-flex/investments`); [`Client::pages`] reads them all.
    pub async fn flex_investments(
        &self,
        query: &FlexInvestmentsQuery,
    ) -> Result<FlexInvestmentsPage, Error> {
        self.send(query).await
    }

    /// A page of the flex investment history — investing, reinvesting, withdrawing, the daily
    /// earnings, closing, reopening (`POST /api/v4/main-account/smart-flex/investments/history`);
    /// [`Client::pages`] reads it all.
    pub async fn flex_history(&self, query: &FlexHistoryQuery) -> Result<FlexHistoryPage, Error> {
        self.send(query).await
    }

    /// A page of the flex earnings paid (`POST
    /// /api/v4/main-account/smart-flex/investments/payment-history`); [`Client::pages`] reads
    /// them all.
    pub async fn flex_payments(&self, query: &FlexPaymentsQuery) -> Result<FlexHistoryPage, Error> {
        self.send(query).await
    }

    /// Invests in a flex plan — creating, topping up or reopening the account's investment in
    /// it (`POST /api/v4/main-account/smart-flex/investments/invest`); the answer is the
    /// transaction. Build the request with [`FlexInvest::in_plan`] or [`FlexInvest::top_up`] to
    /// have the plan's (and the investment's) bounds checked before anything is sent.
    ///
    /// The request carries no id of the caller's, so it is never resent after an ambiguous
    /// answer: that failure is [`Error::FlexInvestUnknown`]; [`Client::resolve_flex_invest`]
    /// it, or use [`Client::flex_invest_once`]. Its record is journaled before the first byte;
    /// a flex investment of the plan and amount of an unresolved record is refused before any
    /// I/O ([`Error::ResolveFirst`]).
    pub async fn flex_invest(&self, invest: &FlexInvest) -> Result<FlexTransaction, Error> {
        self.drive(self.core().flex_invest(invest)).await
    }

    /// Invests in a flex plan exactly once: on an unknown outcome, finds out from the flex
    /// history whether it was invested, and invests again only when resolving proved it was
    /// not (at most `max_placements` sends in all). An unresolved record of the same plan and
    /// amount — of this process, or of an earlier one read from the journal — is resolved
    /// first, before anything is sent. See
    /// [`ResolveFlexInvest`](txc_core::resolve::ResolveFlexInvest) for what proves each answer.
    pub async fn flex_invest_once(&self, invest: &FlexInvest) -> Result<FlexDone, Error> {
        self.drive(self.core().flex_invest_once(invest)).await
    }

    /// Finds out whether a flex investment whose outcome is unknown was made: waits until no
    /// attempt can still be accepted, then reads the plan's flex history twice, the settling
    /// delay apart, for an investment of the amount created in the attempts' window. Whose one
    /// such record is rests on the client's
    /// [`investment_writers`](crate::ClientBuilder::investment_writers), as for
    /// [`Client::resolve_investment`]. A definite answer clears the record.
    pub async fn resolve_flex_invest(
        &self,
        pending: &PendingFlexInvest,
    ) -> Result<FlexResolution, Error> {
        self.drive(self.core().resolve_flex_invest(pending.clone()))
            .await
    }

    /// Withdraws from the account's investment in a flex plan (`POST
    /// /api/v4/main-account/smart-flex/investments/withdraw`); the answer is the transaction.
    /// Build the request with [`FlexWithdraw::from_investment`] to have the bounds checked
    /// before anything is sent. Never resent after an ambiguous answer: that failure is
    /// [`Error::FlexWithdrawUnknown`]; [`Client::resolve_flex_withdraw`] it, or use
    /// [`Client::flex_withdraw_once`].
    pub async fn flex_withdraw(&self, withdraw: &FlexWithdraw) -> Result<FlexTransaction, Error> {
        self.drive(self.core().flex_withdraw(withdraw)).await
    }

    /// Withdraws from a flex investment exactly once, as [`Client::flex_invest_once`] invests.
    pub async fn flex_withdraw_once(&self, withdraw: &FlexWithdraw) -> Result<FlexDone, Error> {
        self.drive(self.core().flex_withdraw_once(withdraw)).await
    }

    /// Finds out whether a flex withdrawal whose outcome is unknown was made, as
    /// [`Client::resolve_flex_invest`] does for an investment.
    pub async fn resolve_flex_withdraw(
        &self,
        pending: &PendingFlexWithdraw,
    ) -> Result<FlexResolution, Error> {
        self.drive(self.core().resolve_flex_withdraw(pending.clone()))
            .await
    }

    /// Closes the account's investment in a flex plan: everything invested comes back to the
    /// main balance (`POST /api/v4/main-account/smart-flex/investments/close`). A lost answer
    /// is resolved by the investment's state: closed, it is done; still active, the close is
    /// sent again (see [`StateChanging`](txc_core::resolve::StateChanging)).
    pub async fn close_flex_investment(
        &self,
        close: &CloseFlexInvestment,
    ) -> Result<StateReached<FlexTransaction>, Error> {
        self.drive(self.core().close_flex_investment(close)).await
    }

    /// Switches a flex investment's auto-reinvestment on or off (`POST
    /// /api/v4/main-account/smart-flex/investments/auto-invest`); a lost answer is resolved by
    /// the investment's `withAutoReinvest`.
    pub async fn set_flex_auto_invest(
        &self,
        set: &SetFlexAutoInvest,
    ) -> Result<StateReached<Acknowledged>, Error> {
        self.drive(self.core().set_flex_auto_invest(set)).await
    }

    /// The flex investments this client (and its clones) sent whose outcome is not definite
    /// yet — in flight, unknown or unresolved, and those of earlier processes read from the
    /// journal — oldest first: [`Client::resolve_flex_invest`] each, or
    /// [`Client::discard_pending`] one settled by hand.
    pub fn pending_flex_investments(&self) -> Vec<PendingFlexInvest> {
        self.core().pending_flex_investments()
    }

    /// The flex withdrawals this client (and its clones) sent whose outcome is not definite
    /// yet, as [`Client::pending_flex_investments`] lists investments.
    pub fn pending_flex_withdrawals(&self) -> Vec<PendingFlexWithdraw> {
        self.core().pending_flex_withdrawals()
    }
}
