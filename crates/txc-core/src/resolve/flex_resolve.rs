//! [`ResolveFlexInvest`] and [`ResolveFlexWithdraw`]: finding out from the flex history whether
//! a flex investment or withdrawal whose outcome is unknown was made — the one
//! [`Resolver`] with the operation's look-ups ([`MoveSearch`]) — answering a
//! [`FlexResolution`](crate::FlexResolution), with the [`Evidence`](crate::Evidence) behind it.

use txc_types::investments::flex::{FlexInvest, FlexWithdraw};

use super::move_search::MoveSearch;
use super::resolver::Resolver;

/// Resolves a [`PendingFlexInvest`](crate::PendingFlexInvest): a [`Resolver`] with the flex
/// history's look-ups ([`MoveSearch`]), whose output is a
/// [`FlexResolution`](crate::FlexResolution), or
/// [`Error::FlexInvestUnknown`](crate::Error::FlexInvestUnknown) when it cannot tell.
///
/// # The rule
///
/// [`ResolveInvestment`](crate::ResolveInvestment)'s, the record searched for being the flex
/// history's: a flex investment carries no id of the caller's, and the account's investment in
/// the plan is one record whose `invested` sums every operation, so the only trace of an
/// attempt is a history record of the plan — `INVEST`, or `OPEN_INVESTMENT` when it reopened a
/// closed investment — of the same amount, created while the attempt could have been accepted
/// (`createdAt` is whole seconds). The acceptance window on the exchange's clock, the rounds
/// counted only once every record of the attempts shows (a lagging history cannot hide one),
/// absence proven twice the settling delay apart, a failed look-up or a history that changed
/// under the page cursor leaving it unknown, and the attribution — with
/// [`InvestmentWriters::Shared`](crate::InvestmentWriters::Shared) one such record "cannot
/// tell", with [`Sole`](crate::InvestmentWriters::Sole) it is this one; several cannot tell
/// either way — are the same.
pub type ResolveFlexInvest<'a> = Resolver<'a, MoveSearch<FlexInvest>>;

/// Resolves a [`PendingFlexWithdraw`](crate::PendingFlexWithdraw): [`ResolveFlexInvest`]'s
/// rule, the record searched for being a `WITHDRAW_FROM_INVESTMENT` of the plan and amount in
/// the flex history; its output is a [`FlexResolution`](crate::FlexResolution), or
/// [`Error::FlexWithdrawUnknown`](crate::Error::FlexWithdrawUnknown) when it cannot tell.
pub type ResolveFlexWithdraw<'a> = Resolver<'a, MoveSearch<FlexWithdraw>>;
