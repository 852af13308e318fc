//! The order look-ups and cancellation: `POST /api/v4/orders`, `POST
//! /api/v4/trade-account/order/history` and `POST /api/v4/order/cancel`, each checked by its
//! own rules ([`crate::rules`]) and answered in its own shape ([`crate::wire`]).

use super::private::Call;
use crate::answer::{Answer, Outcome};
use crate::rules;
use crate::state::State;

/// `POST /api/v4/orders`: the account's open orders, an array.
pub(super) fn open_orders(state: &mut State, call: &Call<'_>) -> Answer {
    let map = match rules::object(call.body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    match rules::parse_open_orders(&map, &state.markets) {
        Ok(query) => {
            let records = state.open_orders(&call.verified.api_key, &query, state.clock.now_us());
            state.stats.lookups_served += 1;
            Answer::ok(&records, Outcome::Served)
        }
        Err(rejection) => rejection.answer(),
    }
}

/// `POST /api/v4/trade-account/order/history`: the account's finished orders, by market.
pub(super) fn history(state: &mut State, call: &Call<'_>) -> Answer {
    let map = match rules::object(call.body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    let now = state.clock.now_us();
    let now_s = i64::try_from(now / 1_000_000).unwrap_or(i64::MAX);
    let answer = rules::parse_history(&map, &state.markets, now_s)
        .and_then(|query| state.history(&call.verified.api_key, &query, now));
    match answer {
        Ok(records) => {
            state.stats.lookups_served += 1;
            Answer::ok(&records, Outcome::Served)
        }
        Err(rejection) => rejection.answer(),
    }
}

/// `POST /api/v4/order/cancel`: the canceled order's final state.
pub(super) fn cancel(state: &mut State, call: &Call<'_>) -> Answer {
    let map = match rules::object(call.body) {
        Ok(map) => map,
        Err(answer) => return answer,
    };
    let canceled = rules::parse_cancel(&map, &state.markets)
        .and_then(|request| state.cancel(&call.verified.api_key, &request));
    match canceled {
        Ok(record) => Answer::ok(&record, Outcome::Served),
        Err(rejection) => rejection.answer(),
    }
}
