//! The positions and risk-control operations, called the same way whatever the transport:
//! [`RiskApi`] (beside [`Api`]), made by a [`RiskDriver`] — the same two drivers, so the
//! `scenarios!` macro runs a scenario `fn(&dyn RiskDriver)` once per transport.

use std::sync::Arc;

use txc_core::resolve::{CloseResolution, PendingClose};
use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule};
use txc_core::{ClientConfig, Error};
use txc_types::endpoint::Acknowledged;
use txc_types::orders::{
    BulkCancelItem, CancelAllOrders, CancelOrders, KillSwitchAnswer, KillSwitchStatusQuery,
    KillSwitchTimer, SetKillSwitch,
};
use txc_types::positions::{
    AccountSummary, AssetBalance, BalanceSummaryQuery, ClosePosition, CollateralBalance,
    CollateralBalanceQuery, HedgeMode, LeverageSet, OpenPositionsQuery, Position, PositionEvent,
    PositionHistoryQuery, PositionMode, SetHedgeMode, SetLeverage,
};

use super::{Api, AsyncApi, Driver, Make};

/// Where a guard's events go in the tests.
pub type Report = Box<dyn Fn(KillSwitchEvent) + Send + Sync + 'static>;

/// A kill-switch guard of either transport.
pub trait Guard: Send {
    /// Stops re-arming and deletes the timer.
    fn disarm(self: Box<Self>) -> Result<(), Error>;
}

/// The positions and risk-control operations of a client.
pub trait RiskApi: Api {
    fn collateral_balance(
        &self,
        query: &CollateralBalanceQuery,
    ) -> Result<CollateralBalance, Error>;
    fn balance_summary(&self, query: &BalanceSummaryQuery) -> Result<Vec<AssetBalance>, Error>;
    fn account_summary(&self) -> Result<AccountSummary, Error>;
    fn open_positions(&self, query: &OpenPositionsQuery) -> Result<Vec<Position>, Error>;
    fn position_history(&self, query: &PositionHistoryQuery) -> Result<Vec<PositionEvent>, Error>;
    fn close_position(&self, close: &ClosePosition) -> Result<Acknowledged, Error>;
    fn resolve_close(&self, close: &PendingClose) -> Result<CloseResolution, Error>;
    fn set_leverage(&self, leverage: &SetLeverage) -> Result<LeverageSet, Error>;
    fn hedge_mode(&self) -> Result<HedgeMode, Error>;
    fn set_hedge_mode(&self, change: &SetHedgeMode) -> Result<Acknowledged, Error>;
    fn known_position_mode(&self) -> Option<PositionMode>;
    fn cancel_all_orders(&self, cancel: &CancelAllOrders) -> Result<Acknowledged, Error>;
    fn cancel_orders(&self, cancel: &CancelOrders) -> Result<Vec<BulkCancelItem>, Error>;
    fn set_kill_switch(&self, timer: &SetKillSwitch) -> Result<KillSwitchAnswer, Error>;
    fn kill_switch_status(
        &self,
        query: &KillSwitchStatusQuery,
    ) -> Result<Vec<KillSwitchTimer>, Error>;
    fn arm_kill_switch(
        &self,
        schedule: KillSwitchSchedule,
        report: Report,
    ) -> Result<Box<dyn Guard>, Error>;
}

/// Makes [`RiskApi`] clients of one transport.
pub trait RiskDriver: Driver {
    fn risk(&self, base_url: &str, config: ClientConfig) -> Box<dyn RiskApi>;
}

impl<D: Make> RiskDriver for D {
    fn risk(&self, base_url: &str, config: ClientConfig) -> Box<dyn RiskApi> {
        Box::new(self.make(base_url, config))
    }
}

impl Guard for txc_blocking::guards::KillSwitch {
    fn disarm(self: Box<Self>) -> Result<(), Error> {
        (*self).disarm()
    }
}

/// An async guard with the runtime it runs on.
struct AsyncGuard {
    runtime: Arc<tokio::runtime::Runtime>,
    guard: txc_async::guards::KillSwitch,
}

impl Guard for AsyncGuard {
    fn disarm(self: Box<Self>) -> Result<(), Error> {
        let Self { runtime, guard } = *self;
        runtime.block_on(guard.disarm())
    }
}

forward! {
    impl RiskApi {
        call collateral_balance(&self, query: &CollateralBalanceQuery) -> Result<CollateralBalance, Error> => collateral_balance;
        call balance_summary(&self, query: &BalanceSummaryQuery) -> Result<Vec<AssetBalance>, Error> => balance_summary;
        call account_summary(&self) -> Result<AccountSummary, Error> => account_summary;
        call open_positions(&self, query: &OpenPositionsQuery) -> Result<Vec<Position>, Error> => open_positions;
        call position_history(&self, query: &PositionHistoryQuery) -> Result<Vec<PositionEvent>, Error> => position_history;
        call close_position(&self, close: &ClosePosition) -> Result<Acknowledged, Error> => close_position;
        call resolve_close(&self, close: &PendingClose) -> Result<CloseResolution, Error> => resolve_close;
        call set_leverage(&self, leverage: &SetLeverage) -> Result<LeverageSet, Error> => set_leverage;
        call hedge_mode(&self) -> Result<HedgeMode, Error> => hedge_mode;
        call set_hedge_mode(&self, change: &SetHedgeMode) -> Result<Acknowledged, Error> => set_hedge_mode;
        call cancel_all_orders(&self, cancel: &CancelAllOrders) -> Result<Acknowledged, Error> => cancel_all_orders;
        call cancel_orders(&self, cancel: &CancelOrders) -> Result<Vec<BulkCancelItem>, Error> => cancel_orders;
        call set_kill_switch(&self, timer: &SetKillSwitch) -> Result<KillSwitchAnswer, Error> => set_kill_switch;
        call kill_switch_status(&self, query: &KillSwitchStatusQuery) -> Result<Vec<KillSwitchTimer>, Error> => kill_switch_status;
        now known_position_mode(&self) -> Option<PositionMode>;
    }
    blocking {
        fn arm_kill_switch(
            &self,
            schedule: KillSwitchSchedule,
            report: Report,
        ) -> Result<Box<dyn Guard>, Error> {
            let guard = txc_blocking::Client::arm_kill_switch(self, schedule, report)?;
            Ok(Box::new(guard))
        }
    }
    asynchronous {
        fn arm_kill_switch(
            &self,
            schedule: KillSwitchSchedule,
            report: Report,
        ) -> Result<Box<dyn Guard>, Error> {
            let guard = self
                .runtime
                .block_on(self.client.arm_kill_switch(schedule, report))?;
            let runtime = Arc::clone(&self.runtime);
            Ok(Box::new(AsyncGuard { runtime, guard }))
        }
    }
}
