//! Smart investments (B2B partners only): the plans on offer, investing in one, the
//! investments, closing one, and the interest paid — the fixed plans — and, in [`flex`],
//! flexible lending open to every account.
//!
//! | operation | request | answer |
//! |---|---|---|
//! | smart investment plans | [`SmartPlansQuery`] (built by [`SmartPlansQueryBuilder`]) | `Vec<`[`InvestmentPlan`]`>` with its [`PlanStatus`] |
//! | invest | [`Invest`] (checked against the [`InvestmentPlan`] read: [`Invest::in_plan`]) | [`NewInvestment`] (HTTP 201) |
//! | close an investment | [`CloseInvestment`] | [`InvestmentClosed`] |
//! | the investments | [`InvestmentsQuery`] (built by [`InvestmentsQueryBuilder`]) | [`InvestmentsPage`] of [`Investment`]s with their [`InvestmentStatus`] |
//! | interest payments | [`InterestPaymentsQuery`] (built by [`InterestPaymentsQueryBuilder`]) | [`InterestPaymentsPage`] of [`InterestPayment`]s |
//!
//! The five share one rate limit, 1 000 requests per 10 s for every `/api/v4/main-account/*`
//! endpoint together ([`MAIN_ACCOUNT_SCOPE`](crate::endpoint::MAIN_ACCOUNT_SCOPE)). Lists are
//! paged by `limit` (at most [`MAX_PAGE_LIMIT`]) and `offset` (at most [`MAX_PAGE_OFFSET`]).

mod amount;
mod close_investment;
pub mod flex;
mod interest_payment;
mod interest_payments;
mod invest;
mod investment;
mod investment_history;
mod investment_plan;
mod investment_status;
mod page;
mod plan_status;
mod smart_plans;

pub use close_investment::{CloseInvestment, InvestmentClosed};
pub use interest_payment::InterestPayment;
pub use interest_payments::{
    InterestPaymentsPage, InterestPaymentsQuery, InterestPaymentsQueryBuilder,
};
pub use invest::{Invest, NewInvestment};
pub use investment::Investment;
pub use investment_history::{InvestmentsPage, InvestmentsQuery, InvestmentsQueryBuilder};
pub use investment_plan::InvestmentPlan;
pub use investment_status::InvestmentStatus;
pub use page::{MAX_PAGE_LIMIT, MAX_PAGE_OFFSET};
pub use plan_status::PlanStatus;
pub use smart_plans::{SmartPlansQuery, SmartPlansQueryBuilder};
