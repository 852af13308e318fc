//! The public routes — `GET /api/v4/public/time` and the market information: `GET
//! /api/v4/public/markets` (each market's rules), `GET /api/v4/public/collateral/markets` and
//! `GET /api/v4/public/futures` — and the `Date` header of every response.
//!
//! They need no signature. Their rate limit (the docs' 2 000 per 10 s, per IP) counts every
//! caller together: the sandbox has one IP. The market routes take faults like the private
//! ones (a client that caches the rules must live with them being unreachable); the server
//! time takes none.

use std::sync::Arc;

use axum::Extension;
use axum::extract::State as Extract;
use axum::response::Response;
use axum::routing::MethodRouter;
use http::header::{DATE, HeaderValue};

use super::answer::Answer;
use super::connection::ConnectionControl;
use super::fallback::get_only;
use super::faults::{self, Fault};
use super::shared::Shared;
use crate::config::{Limit, Op, Route};
use crate::state::{Outcome, State};
use crate::wire::PublicList;

/// The rate limit of the public routes counts every caller together (the docs count per IP;
/// the sandbox has one).
const ANY_CALLER: &str = "";

/// `GET /api/v4/public/time`, limited to the docs' 2 000 per 10 s (of every caller together).
const TIME: Op = Op::new(
    "/api/v4/public/time",
    Route::ServerTime,
    Limit::Fixed(2_000),
);

/// `GET /api/v4/public/markets`.
const MARKETS: Op = Op::new(
    "/api/v4/public/markets",
    Route::Markets,
    Limit::Fixed(2_000),
);

/// `GET /api/v4/public/collateral/markets`.
const COLLATERAL_MARKETS: Op = Op::new(
    "/api/v4/public/collateral/markets",
    Route::CollateralMarkets,
    Limit::Fixed(2_000),
);

/// `GET /api/v4/public/futures`.
const FUTURES: Op = Op::new(
    "/api/v4/public/futures",
    Route::FuturesMarkets,
    Limit::Fixed(2_000),
);

/// A public route and how it answers from the state.
#[derive(Clone, Copy)]
pub(super) struct Public {
    op: Op,
    /// Whether injected faults reach it.
    faulted: bool,
    answer: fn(&State) -> Answer,
}

/// [`TIME`]: `{"time": <Unix seconds>}` by the sandbox's clock; never faulted.
pub(super) const SERVER_TIME: Public = Public {
    op: TIME,
    faulted: false,
    answer: |state| {
        let seconds = state.clock.now_ms() / 1_000;
        Answer::ok(&serde_json::json!({ "time": seconds }), Outcome::Served)
    },
};

/// [`MARKETS`]: every market's rules, in name order.
pub(super) const MARKET_INFO: Public = Public {
    op: MARKETS,
    faulted: true,
    answer: |state| Answer::ok(&state.market_records(), Outcome::Served),
};

/// [`COLLATERAL_MARKETS`]: `{"success":true,"message":null,"result":[names]}`.
pub(super) const COLLATERAL_MARKET_LIST: Public = Public {
    op: COLLATERAL_MARKETS,
    faulted: true,
    answer: |state| {
        Answer::ok(
            &PublicList::of(state.collateral_market_names()),
            Outcome::Served,
        )
    },
};

/// [`FUTURES`]: `{"success":true,"message":null,"result":[futures markets]}`.
pub(super) const FUTURES_LIST: Public = Public {
    op: FUTURES,
    faulted: true,
    answer: |state| Answer::ok(&PublicList::of(state.futures_records()), Outcome::Served),
};

impl Public {
    /// Its path.
    pub(super) fn path(&self) -> &'static str {
        self.op.path
    }
}

/// The `GET` route of `public`: counted, faulted (when it takes faults), rate-limited,
/// answered.
pub(super) fn route(public: Public) -> MethodRouter<Arc<Shared>> {
    get_only(
        move |Extract(shared): Extract<Arc<Shared>>,
              control: Option<Extension<ConnectionControl>>| async move {
            let control = control.map(|Extension(control)| control);
            let fault = if public.faulted {
                shared.faults().take(public.op.route)
            } else {
                None
            };
            {
                let mut locked = shared.lock();
                locked.state.stats.requests += 1;
                if fault.is_some() {
                    locked.state.stats.faults_injected += 1;
                }
            }
            if let Some(fault) = fault.clone().filter(Fault::skips_processing) {
                return faults::unprocessed(fault).await;
            }
            let answer = {
                let mut locked = shared.lock();
                let answer = match locked.rate_limit(public.op, ANY_CALLER) {
                    Ok(()) => (public.answer)(&locked.state),
                    Err(rejection) => Answer::auth(rejection),
                };
                if answer.outcome != Outcome::Served {
                    locked.state.stats.record(&answer.outcome);
                }
                answer
            };
            match fault {
                Some(fault) => faults::processed(fault, answer, &shared.exchange, control).await,
                None => answer.into_response(),
            }
        },
    )
}

/// Sets the `Date` header from the sandbox's clock, which may be offset from the host's.
pub(super) async fn date(
    Extract(shared): Extract<Arc<Shared>>,
    mut response: Response,
) -> Response {
    let now = shared.exchange.clock().now();
    if let Ok(value) = HeaderValue::from_str(&httpdate::fmt_http_date(now)) {
        response.headers_mut().insert(DATE, value);
    }
    response
}
