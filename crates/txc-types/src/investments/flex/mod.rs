//! Flexible lending (the spec's "Crypto Lending - Flex"): plans an account invests in, tops
//! up, withdraws from at any time and closes, whose earnings accrue daily — paid out or
//! reinvested.
//!
//! | operation | request | answer |
//! |---|---|---|
//! | the plans | [`FlexPlansQuery`] (built by [`FlexPlansQueryBuilder`]) | `Vec<`[`FlexPlan`]`>` |
//! | the investments | [`FlexInvestmentsQuery`] ([`FlexInvestmentsQueryBuilder`]) | [`FlexInvestmentsPage`] of [`FlexInvestment`]s with their [`FlexInvestmentStatus`] |
//! | the investment history | [`FlexHistoryQuery`] ([`FlexHistoryQueryBuilder`]) | [`FlexHistoryPage`] of [`FlexHistoryRecord`]s with their [`FlexAction`] |
//! | the payment history | [`FlexPaymentsQuery`] ([`FlexPaymentsQueryBuilder`]) | [`FlexHistoryPage`] (`DAILY_EARNING` records only) |
//! | invest (create, top up, reopen) | [`FlexInvest`] (checked against the plan read: [`FlexInvest::in_plan`], [`FlexInvest::top_up`]) | [`FlexTransaction`] (HTTP 201) |
//! | withdraw | [`FlexWithdraw`] ([`FlexWithdraw::from_investment`]) | [`FlexTransaction`] (HTTP 201) |
//! | close | [`CloseFlexInvestment`] | [`FlexTransaction`] (HTTP 201) |
//! | auto-reinvestment | [`SetFlexAutoInvest`] | [`Acknowledged`](crate::endpoint::Acknowledged) (`{"data":[]}`) |
//!
//! **Limits and pages.** Each is documented at 1 000 requests per 10 s; as every
//! `/api/v4/main-account/*` endpoint they count together
//! ([`MAIN_ACCOUNT_SCOPE`](crate::endpoint::MAIN_ACCOUNT_SCOPE)). The lists page by `limit`
//! and `offset` with no `total` — a page shorter than the limit is the last — and implement
//! [`Paged`](crate::paging::Paged):
//!
//! | query | `limit`: default, most | `offset` | a record is |
//! |---|---|---|---|
//! | [`FlexPlansQuery`] | 100, 100 | from 0, no maximum | its `id` |
//! | [`FlexInvestmentsQuery`] | 100, not documented | from 0 | its `id` |
//! | [`FlexHistoryQuery`] | 50, not documented | from 0 | its `transaction_id` and `actionType` |
//! | [`FlexPaymentsQuery`] | 50, not documented | from 0 | its `transaction_id` and `actionType` |
//!
//! **Bounds before I/O.** [`FlexPlan::check_invest`], [`FlexPlan::check_top_up`] and
//! [`FlexPlan::check_withdraw`] check an amount against the plan (and the investment) as
//! read — precision, the plan's status, `minInvestment`, `maxInvestment`, the investment's
//! cap, what is invested and what must stay — each refusal naming the bound
//! ([`Bound`](crate::errors::Bound)). The reference arithmetic of the daily accrual is in
//! [`accrual`] (feature `decimal`).
//!
//! **The exchange's refusals** (HTTP 400 `Validation failed`, 422 `Inner validation
//! failed`, 403 when lending is not enabled on the account): invest — `The selected plan is
//! invalid.` (unknown or inactive), `The amount field must be a valid number`, `Plan is
//! unavailable`, `Plan is paused`, `Amount is too small`, code 2 `Amount is less than min
//! investment`, code 3 `Amount is more than max investment`, code 4 `Available 9 < 10`,
//! `Private plan not available for this user`, `Investment limit is exceeded`; withdraw —
//! `Investment does not exist`, `Cannot withdraw from closed investment`, `Withdraw amount is
//! too small`, `Withdraw amount exceeds total invested`, `Amount left < min investment` (on
//! `minAmountLeft`), `Cannot withdraw amount < min possible`; close — `Investment does not
//! exist`, `Cannot withdraw from closed investment`; auto-invest — `No existing investments
//! for this plan`.
//!
//! # Decisions where the spec is silent
//!
//! - **One investment per plan.** Every operation names the plan, never the investment, so
//!   an account holds one investment per plan: investing again tops it up; investing in a
//!   plan whose investment was closed reopens it.
//! - **`withReinvest`** is sent only when the caller sets it: what a top-up without it does
//!   to an investment that reinvests is not documented.
//! - **Precision**: at most 6 decimal places, the fixed plans' documented rule (the flex
//!   section names none).
//! - **A plan's status**: the schema has none and the list holds only active plans; one
//!   that carries the fixed plans' `status` is checked by it.
//! - **A withdrawal** must leave at least `minInvestment` invested (`Amount left < min
//!   investment` read literally: nothing left is less); closing takes everything.
//! - **`maxInvestment`** bounds one call (code 3) and the investment as a whole (`Investment
//!   limit is exceeded`) — the only cap a plan publishes.
//! - **The history's dates**: `dateTo` before `dateFrom` is refused before a request exists.

#[cfg(feature = "decimal")]
#[cfg_attr(docsrs, doc(cfg(feature = "decimal")))]
pub mod accrual;
mod bounds;
mod flex_action;
mod flex_auto_invest;
mod flex_close;
mod flex_history;
mod flex_history_record;
mod flex_invest;
mod flex_investment;
mod flex_investment_status;
mod flex_investments;
mod flex_payments;
mod flex_plan;
mod flex_plans;
mod flex_transaction;
mod flex_withdraw;

pub use flex_action::FlexAction;
pub use flex_auto_invest::SetFlexAutoInvest;
pub use flex_close::CloseFlexInvestment;
pub use flex_history::{FlexHistoryPage, FlexHistoryQuery, FlexHistoryQueryBuilder};
pub use flex_history_record::FlexHistoryRecord;
pub use flex_invest::FlexInvest;
pub use flex_investment::FlexInvestment;
pub use flex_investment_status::FlexInvestmentStatus;
pub use flex_investments::{
    FlexInvestmentsPage, FlexInvestmentsQuery, FlexInvestmentsQueryBuilder,
};
pub use flex_payments::{FlexPaymentsQuery, FlexPaymentsQueryBuilder};
pub use flex_plan::FlexPlan;
pub use flex_plans::{FlexPlansQuery, FlexPlansQueryBuilder};
pub use flex_transaction::{FlexTransaction, FlexTransactionData};
pub use flex_withdraw::FlexWithdraw;
