//! Where a client's flexible-lending machines start: investing in and withdrawing from a flex
//! plan (once, exactly once, resolving), and closing or switching the auto-reinvestment of an
//! investment — [`ClientCore`]'s flex methods.

use txc_types::investments::flex::{
    CloseFlexInvestment, FlexInvest, FlexWithdraw, SetFlexAutoInvest,
};

use super::client_core::ClientCore;
use crate::resolve::{
    FlexInvestOnce, FlexWithdrawOnce, MoveOnce, MoveSearch, Moving, PendingFlexInvest,
    PendingFlexWithdraw, ResolveFlexInvest, ResolveFlexWithdraw, Resolver, StateChanging,
};

impl ClientCore {
    /// Starts investing in a flex plan: a [`Moving`] machine. An ambiguous answer ends it as
    /// [`Error::FlexInvestUnknown`](crate::Error::FlexInvestUnknown); it is never resent.
    pub fn flex_invest<'a>(&'a self, invest: &'a FlexInvest) -> Moving<'a, FlexInvest> {
        Moving::new(self.call(invest), true)
    }

    /// Starts investing in a flex plan exactly once: a [`FlexInvestOnce`] machine.
    pub fn flex_invest_once(&self, invest: &FlexInvest) -> FlexInvestOnce<'_> {
        MoveOnce::new(self, invest.clone())
    }

    /// Starts resolving a flex investment whose outcome is unknown: a [`ResolveFlexInvest`]
    /// machine.
    pub fn resolve_flex_invest(&self, pending: PendingFlexInvest) -> ResolveFlexInvest<'_> {
        Resolver::new(self, MoveSearch::new(pending))
    }

    /// Starts withdrawing from a flex investment: a [`Moving`] machine. An ambiguous answer
    /// ends it as [`Error::FlexWithdrawUnknown`](crate::Error::FlexWithdrawUnknown); it is never
    /// resent.
    pub fn flex_withdraw<'a>(&'a self, withdraw: &'a FlexWithdraw) -> Moving<'a, FlexWithdraw> {
        Moving::new(self.call(withdraw), true)
    }

    /// Starts withdrawing from a flex investment exactly once: a [`FlexWithdrawOnce`]
    /// machine.
    pub fn flex_withdraw_once(&self, withdraw: &FlexWithdraw) -> FlexWithdrawOnce<'_> {
        MoveOnce::new(self, withdraw.clone())
    }

    /// Starts resolving a flex withdrawal whose outcome is unknown: a [`ResolveFlexWithdraw`]
    /// machine.
    pub fn resolve_flex_withdraw(&self, pending: PendingFlexWithdraw) -> ResolveFlexWithdraw<'_> {
        Resolver::new(self, MoveSearch::new(pending))
    }

    /// Starts closing a flex investment, a lost answer resolved by its state: a
    /// [`StateChanging`] machine.
    pub fn close_flex_investment(
        &self,
        close: &CloseFlexInvestment,
    ) -> StateChanging<'_, CloseFlexInvestment> {
        StateChanging::new(self, close.clone())
    }

    /// Starts switching a flex investment's auto-reinvestment, a lost answer resolved by its
    /// state: a [`StateChanging`] machine.
    pub fn set_flex_auto_invest(
        &self,
        set: &SetFlexAutoInvest,
    ) -> StateChanging<'_, SetFlexAutoInvest> {
        StateChanging::new(self, set.clone())
    }

    /// The flex investments this client (and its clones) sent whose outcome is not definite
    /// yet — in flight, unknown or unresolved, and those of earlier processes read from the
    /// journal — oldest first, with why resolving could not tell when it was tried;
    /// [`resolve_flex_invest`](Self::resolve_flex_invest) each, or
    /// [`discard_pending`](Self::discard_pending) one settled by hand.
    pub fn pending_flex_investments(&self) -> Vec<PendingFlexInvest> {
        self.moves.pending()
    }

    /// The flex withdrawals this client (and its clones) sent whose outcome is not definite
    /// yet, as [`pending_flex_investments`](Self::pending_flex_investments) lists investments.
    pub fn pending_flex_withdrawals(&self) -> Vec<PendingFlexWithdraw> {
        self.moves.pending()
    }
}
