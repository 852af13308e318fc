//! The collateral account's routes: balances, the summaries, open positions, position
//! history, close, leverage and hedge mode — each checked by its own rules
//! ([`crate::rules`]) and answered in its own shape ([`crate::wire`]). Their limits per 10 s
//! are the docs' table's.

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use super::answer::Answer;
use super::private::{Call, Counts, Endpoint, market_rule};
use crate::auth::Exchange;
use crate::config::{Limit, Op, PositionMode, Route};
use crate::rules::{self, ClosePositionRequest, PositionHistoryQuery};
use crate::wire::{
    AssetBalanceRecord, HedgeModeRecord, LeverageRecord, NoContent, OpenPositionRecord,
    PositionEventRecord, SummaryRecord,
};

/// Ticker → amount.
pub(super) const BALANCE: Endpoint<Option<String>, BTreeMap<String, Box<RawValue>>> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/balance",
        Route::CollateralBalance,
        Limit::Documented(12_000),
    ),
    ticker,
    |locked, call, ticker| {
        Ok(locked
            .state
            .collateral_balances(call.api_key(), ticker.as_deref()))
    },
);

/// One record per asset.
pub(super) const BALANCE_SUMMARY: Endpoint<Option<String>, Vec<AssetBalanceRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/balance-summary",
        Route::BalanceSummary,
        Limit::Documented(12_000),
    ),
    ticker,
    |locked, call, ticker| {
        Ok(locked
            .state
            .balance_summary(call.api_key(), ticker.as_deref()))
    },
);

/// The account's summary; the body has no fields of its own.
pub(super) const SUMMARY: Endpoint<(), SummaryRecord> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/summary",
        Route::AccountSummary,
        Limit::Documented(12_000),
    ),
    no_fields,
    |locked, call, ()| Ok(locked.state.account_summary(call.api_key())),
);

/// The open positions, filtered by `market`.
pub(super) const OPEN_POSITIONS: Endpoint<Option<String>, Vec<OpenPositionRecord>> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/positions/open",
        Route::OpenPositions,
        Limit::Documented(12_000),
    ),
    |_, call| Ok(rules::parse_market_filter(call.fields()?)?),
    |locked, call, market| {
        Ok(locked
            .state
            .open_position_records(call.api_key(), market.as_deref()))
    },
)
.counts(Counts::Lookup);

/// The position events, by the sandbox's clock.
pub(super) const POSITION_HISTORY: Endpoint<PositionHistoryQuery, Vec<PositionEventRecord>> =
    Endpoint::new(
        Op::new(
            "/api/v4/collateral-account/positions/history",
            Route::PositionHistory,
            Limit::Documented(12_000),
        ),
        |exchange, call| {
            let now_s = exchange.clock().now_ms() / 1_000;
            Ok(rules::parse_position_history(call.fields()?, now_s)?)
        },
        |locked, call, query| Ok(locked.state.position_history(call.api_key(), &query)),
    )
    .counts(Counts::Lookup);

/// Closes a position by a market order: an empty body (none is documented).
pub(super) const CLOSE_POSITION: Endpoint<ClosePositionRequest, NoContent> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/position/close",
        Route::ClosePosition,
        Limit::Documented(10_000),
    ),
    market_rule,
    |locked, call, request| {
        locked
            .state
            .close_position(call.api_key(), &request)
            .map(|()| NoContent)
    },
)
.counts(Counts::Order);

/// Sets the account's leverage.
pub(super) const LEVERAGE: Endpoint<u32, LeverageRecord> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/leverage",
        Route::Leverage,
        Limit::Documented(1_000),
    ),
    |_, call| Ok(rules::parse_leverage(call.fields()?)?),
    |locked, call, leverage| {
        let set = locked.state.set_leverage(call.api_key(), leverage)?;
        Ok(LeverageRecord {
            leverage: u64::from(set),
        })
    },
);

/// Whether the account is in hedge mode; the body has no fields of its own.
pub(super) const HEDGE_MODE: Endpoint<(), HedgeModeRecord> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/hedge-mode",
        Route::HedgeMode,
        Limit::Documented(12_000),
    ),
    no_fields,
    |locked, call, ()| {
        let hedge = locked
            .state
            .accounts
            .get(call.api_key())
            .is_some_and(|a| a.mode() == PositionMode::Hedge);
        Ok(HedgeModeRecord { hedge_mode: hedge })
    },
);

/// Switches hedge mode: an empty body (none is documented).
pub(super) const HEDGE_MODE_UPDATE: Endpoint<bool, NoContent> = Endpoint::new(
    Op::new(
        "/api/v4/collateral-account/hedge-mode/update",
        Route::HedgeModeUpdate,
        Limit::Documented(1_000),
    ),
    |_, call| Ok(rules::parse_hedge_mode(call.fields()?)?),
    |locked, call, hedge| {
        locked
            .state
            .set_hedge_mode(call.api_key(), hedge)
            .map(|()| NoContent)
    },
);

/// The `ticker` filter, checked against the markets' currencies.
fn ticker(exchange: &Exchange, call: &Call<'_>) -> Result<Option<String>, Answer> {
    let known = |t: &str| exchange.markets().tickers().any(|k| k == t);
    Ok(rules::parse_ticker_filter(call.fields()?, &known)?)
}

/// The rules of a body with no fields of its own: any readable body.
pub(super) fn no_fields(_exchange: &Exchange, call: &Call<'_>) -> Result<(), Answer> {
    call.fields().map(|_| ())
}
