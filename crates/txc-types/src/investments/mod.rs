//! Smart investments: the plans on offer ([`SmartPlansQuery`] → [`InvestmentPlan`]s with
//! their [`PlanStatus`]).
//!
//! | operation | request | answer |
//! |---|---|---|
//! | smart investment plans | [`SmartPlansQuery`] (built by [`SmartPlansQueryBuilder`]) | `Vec<`[`InvestmentPlan`]`>` |
//!
//! Investing in a plan, closing an investment, listing investments and their interest payments
//! belong here too.

mod investment_plan;
mod plan_status;
mod smart_plans;

pub use investment_plan::InvestmentPlan;
pub use plan_status::PlanStatus;
pub use smart_plans::{SmartPlansQuery, SmartPlansQueryBuilder};
