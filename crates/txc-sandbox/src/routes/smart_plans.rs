//! `POST /api/v4/main-account/smart/plans`: the plans, for B2B partner keys only.

use super::private::{Counts, Endpoint};
use crate::config::{Limit, Op, Route};
use crate::rules;
use crate::wire::PlanRecord;

/// Lists the plans, filtered by `ticker`: checked against the known currencies under the lock
/// (they include the balances, which the control API changes).
pub(super) const SMART_PLANS: Endpoint<Option<String>, Vec<PlanRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/main-account/smart/plans",
        Route::SmartPlans,
        Limit::MainAccount,
    ),
    |_, call| Ok(rules::parse_ticker(call.fields()?)?),
    |locked, _, ticker| {
        if let Some(ticker) = &ticker
            && !locked.state.known_tickers().contains(ticker.as_str())
        {
            return Err(rules::unknown_ticker());
        }
        Ok(locked
            .state
            .plans
            .iter()
            .filter(|p| ticker.as_ref().is_none_or(|t| p.ticker == *t))
            .cloned()
            .collect())
    },
)
.partners_only()
.counts(Counts::Plans);
