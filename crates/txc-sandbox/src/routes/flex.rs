//! Flexible lending (`/api/v4/main-account/smart-flex/…`), for every account with flex
//! lending enabled (others: HTTP 403, before the body's rules): the plans, the investments,
//! the investment and payment histories, investing, withdrawing and closing (answered HTTP
//! 201), and auto-invest — each checked by its own rules ([`crate::rules`]), run against the
//! state ([`crate::state`]) at the sandbox's time and answered in its own shape
//! ([`crate::wire`]). They count against the main-account rate limit, and every route takes
//! faults: the lists lag ([`Fault::Lagging`](super::Fault::Lagging)), an investment can stay
//! out of the lists for a while ([`Fault::VisibleAfter`](super::Fault::VisibleAfter)), and
//! the operations can be processed and then lose their answer.

use http::StatusCode;

use super::answer::Answer;
use super::private::{Call, Counts, Endpoint};
use crate::auth::{AuthRejection, Exchange, Locked};
use crate::config::{Limit, Op, Route};
use crate::rules::{
    self, AutoInvestRequest, FlexHistoryFilter, FlexInvestRequest, FlexInvestmentsFilter,
    FlexPlansQuery, FlexWithdrawRequest,
};
use crate::wire::{
    DataPage, EmptyData, FlexHistoryRecord, FlexInvestmentRecord, FlexPlanRecord, TransactionRecord,
};

/// The flex plans offered to the account.
pub(super) const PLANS: Endpoint<FlexPlansQuery, Vec<FlexPlanRecord>> = Endpoint::new(
    op("/api/v4/main-account/smart-flex/plans", Route::FlexPlans),
    |exchange, call| {
        allowed(exchange, call)?;
        Ok(rules::parse_flex_plans(call.fields()?)?)
    },
    |locked, call, query| locked.state.flex_plans(call.api_key(), &query),
)
.counts(Counts::Plans);

/// A page of the account's flex investments (lagging under [`Fault::Lagging`](super::Fault::Lagging)).
pub(super) const INVESTMENTS: Endpoint<FlexInvestmentsFilter, DataPage<FlexInvestmentRecord>> =
    Endpoint::new(
        op(
            "/api/v4/main-account/smart-flex/investments",
            Route::FlexInvestments,
        ),
        |exchange, call| {
            allowed(exchange, call)?;
            Ok(rules::parse_flex_investments(call.fields()?, |id| {
                exchange.flex_plan_exists(id)
            })?)
        },
        |locked, call, filter| {
            let (now, as_of) = times(locked, call);
            locked
                .state
                .flex_investments(call.api_key(), &filter, now, as_of)
        },
    )
    .counts(Counts::Lookup);

/// A page of the account's flex history.
pub(super) const HISTORY: Endpoint<FlexHistoryFilter, DataPage<FlexHistoryRecord>> = Endpoint::new(
    op(
        "/api/v4/main-account/smart-flex/investments/history",
        Route::FlexHistory,
    ),
    |exchange, call| history_rules(exchange, call, true),
    |locked, call, filter| {
        let times = times(locked, call);
        locked
            .state
            .flex_history(call.api_key(), &filter, times, false)
    },
)
.counts(Counts::Lookup);

/// A page of the account's flex earnings: the history's `DAILY_EARNING` records.
pub(super) const PAYMENTS: Endpoint<FlexHistoryFilter, DataPage<FlexHistoryRecord>> =
    Endpoint::new(
        op(
            "/api/v4/main-account/smart-flex/investments/payment-history",
            Route::FlexPayments,
        ),
        |exchange, call| history_rules(exchange, call, false),
        |locked, call, filter| {
            let times = times(locked, call);
            locked
                .state
                .flex_history(call.api_key(), &filter, times, true)
        },
    )
    .counts(Counts::Lookup);

/// Invests in a flex plan: the spec's `201`, "Investment created successfully".
pub(super) const INVEST: Endpoint<FlexInvestRequest, TransactionRecord> = Endpoint::new(
    op(
        "/api/v4/main-account/smart-flex/investments/invest",
        Route::FlexInvest,
    ),
    |exchange, call| {
        allowed(exchange, call)?;
        Ok(rules::parse_flex_invest(call.fields()?, |id| {
            exchange.flex_plan_exists(id)
        })?)
    },
    |locked, call, request| {
        let now = locked.state.clock.now_us();
        locked
            .state
            .flex_invest(call.api_key(), request, now, call.visible_after)
    },
)
.status(StatusCode::CREATED);

/// Withdraws from a flex investment: `201`, "Withdrawal successful".
pub(super) const WITHDRAW: Endpoint<FlexWithdrawRequest, TransactionRecord> = Endpoint::new(
    op(
        "/api/v4/main-account/smart-flex/investments/withdraw",
        Route::FlexWithdraw,
    ),
    |exchange, call| {
        allowed(exchange, call)?;
        Ok(rules::parse_flex_withdraw(call.fields()?, |id| {
            exchange.flex_plan_exists(id)
        })?)
    },
    |locked, call, request| {
        let now = locked.state.clock.now_us();
        locked.state.flex_withdraw(call.api_key(), request, now)
    },
)
.status(StatusCode::CREATED);

/// Closes a flex investment: `201`, "Investment closed successfully".
pub(super) const CLOSE: Endpoint<String, TransactionRecord> = Endpoint::new(
    op(
        "/api/v4/main-account/smart-flex/investments/close",
        Route::FlexClose,
    ),
    |exchange, call| {
        allowed(exchange, call)?;
        Ok(rules::parse_flex_close(call.fields()?, |id| {
            exchange.flex_plan_exists(id)
        })?)
    },
    |locked, call, plan| {
        let now = locked.state.clock.now_us();
        locked.state.flex_close(call.api_key(), &plan, now)
    },
)
.status(StatusCode::CREATED);

/// Turns a flex investment's auto-reinvestment on or off: `200`, `{"data":[]}`.
pub(super) const AUTO_INVEST: Endpoint<AutoInvestRequest, EmptyData> = Endpoint::new(
    op(
        "/api/v4/main-account/smart-flex/investments/auto-invest",
        Route::FlexAutoInvest,
    ),
    |exchange, call| {
        allowed(exchange, call)?;
        Ok(rules::parse_flex_auto_invest(call.fields()?, |id| {
            exchange.flex_plan_exists(id)
        })?)
    },
    |locked, call, request| {
        let now = locked.state.clock.now_us();
        locked.state.flex_auto_invest(call.api_key(), &request, now)
    },
);

/// A flex operation at `path`, faulted as `route`, counted with every main-account operation.
const fn op(path: &'static str, route: Route) -> Op {
    Op::new(path, route, Limit::MainAccount)
}

/// HTTP 403 for an account without flex lending, before the body's rules.
fn allowed(exchange: &Exchange, call: &Call<'_>) -> Result<(), Answer> {
    if exchange.lends_flex(call.api_key()) {
        Ok(())
    } else {
        Err(Answer::auth(AuthRejection::PERMISSION_DENIED))
    }
}

/// The histories' rules: with `actionTypes` when `actions`.
fn history_rules(
    exchange: &Exchange,
    call: &Call<'_>,
    actions: bool,
) -> Result<FlexHistoryFilter, Answer> {
    allowed(exchange, call)?;
    Ok(rules::parse_flex_history(
        call.fields()?,
        |id| exchange.flex_plan_exists(id),
        actions,
    )?)
}

/// The sandbox's time, and the time a list answers as of: as much earlier as the route lags.
fn times(locked: &Locked, call: &Call<'_>) -> (u64, u64) {
    let now = locked.state.clock.now_us();
    let lag = u64::try_from(call.lag.as_micros()).unwrap_or(u64::MAX);
    (now, now.saturating_sub(lag))
}
