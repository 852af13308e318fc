//! The risk controls' routes: cancel-all, bulk cancel, the kill switch and its status.

use super::private::{Call, Operation};
use crate::answer::{Answer, Rejection};
use crate::app::Shared;
use crate::op::Op;
use crate::rules::{self, BulkItem, CancelAllRequest, KillSwitchRequest};
use crate::state::State;
use crate::wire::{BulkItemRecord, TimerAnswer, TimerRecord};

/// `POST /api/v4/order/cancel/all`: a literal `[]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct CancelAll;

/// `POST /api/v4/order/cancel/bulk`: one item per order.
#[derive(Debug, Clone, Copy)]
pub(super) struct CancelBulk;

/// `POST /api/v4/order/kill-switch`: the timer, or `[]` when deleted.
#[derive(Debug, Clone, Copy)]
pub(super) struct KillSwitch;

/// `POST /api/v4/order/kill-switch/status`: the timers.
#[derive(Debug, Clone, Copy)]
pub(super) struct KillSwitchStatus;

impl Operation for CancelAll {
    type Request = CancelAllRequest;
    type Reply = [(); 0];

    fn op(self) -> Op {
        Op::CancelAll
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<CancelAllRequest, Answer> {
        rules::parse_cancel_all(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: CancelAllRequest,
    ) -> Result<[(); 0], Rejection> {
        state.cancel_all(call.api_key(), &request);
        Ok([])
    }
}

impl Operation for CancelBulk {
    type Request = Vec<BulkItem>;
    type Reply = Vec<BulkItemRecord>;

    fn op(self) -> Op {
        Op::CancelBulk
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<Vec<BulkItem>, Answer> {
        rules::parse_bulk(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        items: Vec<BulkItem>,
    ) -> Result<Vec<BulkItemRecord>, Rejection> {
        Ok(state.cancel_bulk(call.api_key(), items))
    }
}

impl Operation for KillSwitch {
    type Request = KillSwitchRequest;
    type Reply = TimerAnswer;

    fn op(self) -> Op {
        Op::KillSwitch
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<KillSwitchRequest, Answer> {
        rules::parse_kill_switch(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: KillSwitchRequest,
    ) -> Result<TimerAnswer, Rejection> {
        Ok(state.set_kill_switch(call.api_key(), request))
    }
}

impl Operation for KillSwitchStatus {
    type Request = Option<String>;
    type Reply = Vec<TimerRecord>;

    fn op(self) -> Op {
        Op::KillSwitchStatus
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<Option<String>, Answer> {
        rules::parse_kill_switch_status(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        market: Option<String>,
    ) -> Result<Vec<TimerRecord>, Rejection> {
        Ok(state.kill_switch_status(call.api_key(), market.as_deref()))
    }
}
