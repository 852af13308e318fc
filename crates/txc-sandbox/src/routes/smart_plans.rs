//! `POST /api/v4/main-account/smart/plans`: the plans, for B2B partner keys only.

use txc_sign::AuthRejection;

use super::private::Call;
use crate::answer::{Answer, Outcome};
use crate::rules;
use crate::state::State;

/// Lists the plans, filtered by `ticker`.
pub(super) fn list(state: &mut State, call: &Call<'_>) -> Answer {
    let partner = state
        .accounts
        .get(&call.verified.api_key)
        .is_some_and(|a| a.spec.partner);
    if !partner {
        return Answer::auth(AuthRejection::PERMISSION_DENIED);
    }
    let map = match rules::object(call.body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    let known = state.known_tickers();
    let ticker = match rules::parse_ticker(&map, |t| known.contains(t)) {
        Ok(ticker) => ticker,
        Err(rejection) => return rejection.answer(),
    };
    let plans: Vec<_> = state
        .plans
        .iter()
        .filter(|p| ticker.as_ref().is_none_or(|t| p.ticker == *t))
        .cloned()
        .collect();
    state.stats.plans_served += 1;
    Answer::ok(&plans, Outcome::Served)
}
