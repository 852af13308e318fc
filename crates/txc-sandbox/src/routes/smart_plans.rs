//! `POST /api/v4/main-account/smart/plans`: the plans, for B2B partner keys only.

use super::private::{Call, Operation};
use crate::answer::{Answer, Rejection};
use crate::app::Shared;
use crate::auth::AuthRejection;
use crate::op::Op;
use crate::rules;
use crate::state::State;
use crate::wire::PlanRecord;

/// Lists the plans, filtered by `ticker`.
#[derive(Debug, Clone, Copy)]
pub(super) struct SmartPlans;

impl Operation for SmartPlans {
    /// The `ticker` filter, if any, not yet checked against the known currencies.
    type Request = Option<String>;
    type Reply = Vec<PlanRecord>;

    fn op(self) -> Op {
        Op::Plans
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<Option<String>, Answer> {
        if !call.signed.partner {
            return Err(Answer::auth(AuthRejection::PERMISSION_DENIED));
        }
        rules::parse_ticker(call.fields()?).map_err(Rejection::answer)
    }

    /// The known currencies include the balances, which the control API changes: checked
    /// here, under the lock.
    fn apply(
        self,
        state: &mut State,
        _call: &Call<'_>,
        ticker: Option<String>,
    ) -> Result<Vec<PlanRecord>, Rejection> {
        if let Some(ticker) = &ticker
            && !state.known_tickers().contains(ticker.as_str())
        {
            return Err(rules::unknown_ticker());
        }
        let plans = state
            .plans
            .iter()
            .filter(|p| ticker.as_ref().is_none_or(|t| p.ticker == *t))
            .cloned()
            .collect();
        state.stats.plans_served += 1;
        Ok(plans)
    }
}
