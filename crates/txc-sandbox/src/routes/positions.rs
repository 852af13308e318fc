//! The collateral account's routes: balances, the summaries, open positions, position
//! history, close, leverage and hedge mode — each checked by its own rules
//! ([`crate::rules`]) and answered in its own shape ([`crate::wire`]).

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use super::private::{Call, Operation};
use crate::answer::{Answer, Outcome, Rejection};
use crate::app::Shared;
use crate::op::Op;
use crate::rules::{self, ClosePositionRequest, PositionHistoryQuery};
use crate::state::State;
use crate::wire::{
    AssetBalanceRecord, HedgeModeRecord, LeverageRecord, NoContent, OpenPositionRecord,
    PositionEventRecord, SummaryRecord,
};

/// `POST /api/v4/collateral-account/balance`: ticker → amount.
#[derive(Debug, Clone, Copy)]
pub(super) struct Balance;

/// `POST /api/v4/collateral-account/balance-summary`: one record per asset.
#[derive(Debug, Clone, Copy)]
pub(super) struct BalanceSummary;

/// `POST /api/v4/collateral-account/summary`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Summary;

/// `POST /api/v4/collateral-account/positions/open`.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenPositions;

/// `POST /api/v4/collateral-account/positions/history`.
#[derive(Debug, Clone, Copy)]
pub(super) struct PositionHistory;

/// `POST /api/v4/collateral-account/position/close`: an empty body (none is documented).
#[derive(Debug, Clone, Copy)]
pub(super) struct ClosePosition;

/// `POST /api/v4/collateral-account/leverage`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Leverage;

/// `POST /api/v4/collateral-account/hedge-mode`.
#[derive(Debug, Clone, Copy)]
pub(super) struct HedgeMode;

/// `POST /api/v4/collateral-account/hedge-mode/update`: an empty body (none is documented).
#[derive(Debug, Clone, Copy)]
pub(super) struct HedgeModeUpdate;

/// The `ticker` filter, checked against the markets' currencies.
fn ticker(shared: &Shared, call: &Call<'_>) -> Result<Option<String>, Answer> {
    let known = |t: &str| shared.markets().tickers().any(|k| k == t);
    rules::parse_ticker_filter(call.fields()?, &known).map_err(Rejection::answer)
}

impl Operation for Balance {
    type Request = Option<String>;
    type Reply = BTreeMap<String, Box<RawValue>>;

    fn op(self) -> Op {
        Op::Balance
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<Option<String>, Answer> {
        ticker(shared, call)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        ticker: Option<String>,
    ) -> Result<Self::Reply, Rejection> {
        Ok(state.collateral_balances(call.api_key(), ticker.as_deref()))
    }
}

impl Operation for BalanceSummary {
    type Request = Option<String>;
    type Reply = Vec<AssetBalanceRecord>;

    fn op(self) -> Op {
        Op::BalanceSummary
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<Option<String>, Answer> {
        ticker(shared, call)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        ticker: Option<String>,
    ) -> Result<Self::Reply, Rejection> {
        Ok(state.balance_summary(call.api_key(), ticker.as_deref()))
    }
}

impl Operation for Summary {
    type Request = ();
    type Reply = SummaryRecord;

    fn op(self) -> Op {
        Op::Summary
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<(), Answer> {
        call.fields().map(|_| ())
    }

    fn apply(self, state: &mut State, call: &Call<'_>, (): ()) -> Result<SummaryRecord, Rejection> {
        Ok(state.account_summary(call.api_key()))
    }
}

impl Operation for OpenPositions {
    type Request = Option<String>;
    type Reply = Vec<OpenPositionRecord>;

    fn op(self) -> Op {
        Op::OpenPositions
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<Option<String>, Answer> {
        rules::parse_market_filter(call.fields()?).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        market: Option<String>,
    ) -> Result<Self::Reply, Rejection> {
        state.stats.lookups_served += 1;
        Ok(state.open_position_records(call.api_key(), market.as_deref()))
    }
}

impl Operation for PositionHistory {
    type Request = PositionHistoryQuery;
    type Reply = Vec<PositionEventRecord>;

    fn op(self) -> Op {
        Op::PositionHistory
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<PositionHistoryQuery, Answer> {
        let now_s = shared.clock().now_ms() / 1_000;
        rules::parse_position_history(call.fields()?, now_s).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        query: PositionHistoryQuery,
    ) -> Result<Self::Reply, Rejection> {
        state.stats.lookups_served += 1;
        Ok(state.position_history(call.api_key(), &query))
    }
}

impl Operation for ClosePosition {
    type Request = ClosePositionRequest;
    type Reply = NoContent;

    fn op(self) -> Op {
        Op::ClosePosition
    }

    fn served(self) -> Outcome {
        Outcome::OrderAccepted
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<ClosePositionRequest, Answer> {
        rules::parse_close(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: ClosePositionRequest,
    ) -> Result<NoContent, Rejection> {
        state
            .close_position(call.api_key(), &request)
            .map(|()| NoContent)
    }
}

impl Operation for Leverage {
    type Request = u32;
    type Reply = LeverageRecord;

    fn op(self) -> Op {
        Op::Leverage
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<u32, Answer> {
        rules::parse_leverage(call.fields()?).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        leverage: u32,
    ) -> Result<LeverageRecord, Rejection> {
        let set = state.set_leverage(call.api_key(), leverage)?;
        Ok(LeverageRecord {
            leverage: u64::from(set),
        })
    }
}

impl Operation for HedgeMode {
    type Request = ();
    type Reply = HedgeModeRecord;

    fn op(self) -> Op {
        Op::HedgeMode
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<(), Answer> {
        call.fields().map(|_| ())
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        (): (),
    ) -> Result<HedgeModeRecord, Rejection> {
        let hedge = state
            .accounts
            .get(call.api_key())
            .is_some_and(|a| a.mode() == crate::PositionMode::Hedge);
        Ok(HedgeModeRecord { hedge_mode: hedge })
    }
}

impl Operation for HedgeModeUpdate {
    type Request = bool;
    type Reply = NoContent;

    fn op(self) -> Op {
        Op::HedgeModeUpdate
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<bool, Answer> {
        rules::parse_hedge_mode(call.fields()?).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        hedge: bool,
    ) -> Result<NoContent, Rejection> {
        state
            .set_hedge_mode(call.api_key(), hedge)
            .map(|()| NoContent)
    }
}
