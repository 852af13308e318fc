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

impl RiskApi for txc_blocking::Client {
    fn collateral_balance(
        &self,
        query: &CollateralBalanceQuery,
    ) -> Result<CollateralBalance, Error> {
        txc_blocking::Client::collateral_balance(self, query)
    }
    fn balance_summary(&self, query: &BalanceSummaryQuery) -> Result<Vec<AssetBalance>, Error> {
        txc_blocking::Client::balance_summary(self, query)
    }
    fn account_summary(&self) -> Result<AccountSummary, Error> {
        txc_blocking::Client::account_summary(self)
    }
    fn open_positions(&self, query: &OpenPositionsQuery) -> Result<Vec<Position>, Error> {
        txc_blocking::Client::open_positions(self, query)
    }
    fn position_history(&self, query: &PositionHistoryQuery) -> Result<Vec<PositionEvent>, Error> {
        txc_blocking::Client::position_history(self, query)
    }
    fn close_position(&self, close: &ClosePosition) -> Result<Acknowledged, Error> {
        txc_blocking::Client::close_position(self, close)
    }
    fn resolve_close(&self, close: &PendingClose) -> Result<CloseResolution, Error> {
        txc_blocking::Client::resolve_close(self, close)
    }
    fn set_leverage(&self, leverage: &SetLeverage) -> Result<LeverageSet, Error> {
        txc_blocking::Client::set_leverage(self, leverage)
    }
    fn hedge_mode(&self) -> Result<HedgeMode, Error> {
        txc_blocking::Client::hedge_mode(self)
    }
    fn set_hedge_mode(&self, change: &SetHedgeMode) -> Result<Acknowledged, Error> {
        txc_blocking::Client::set_hedge_mode(self, change)
    }
    fn known_position_mode(&self) -> Option<PositionMode> {
        txc_blocking::Client::known_position_mode(self)
    }
    fn cancel_all_orders(&self, cancel: &CancelAllOrders) -> Result<Acknowledged, Error> {
        txc_blocking::Client::cancel_all_orders(self, cancel)
    }
    fn cancel_orders(&self, cancel: &CancelOrders) -> Result<Vec<BulkCancelItem>, Error> {
        txc_blocking::Client::cancel_orders(self, cancel)
    }
    fn set_kill_switch(&self, timer: &SetKillSwitch) -> Result<KillSwitchAnswer, Error> {
        txc_blocking::Client::set_kill_switch(self, timer)
    }
    fn kill_switch_status(
        &self,
        query: &KillSwitchStatusQuery,
    ) -> Result<Vec<KillSwitchTimer>, Error> {
        txc_blocking::Client::kill_switch_status(self, query)
    }
    fn arm_kill_switch(
        &self,
        schedule: KillSwitchSchedule,
        report: Report,
    ) -> Result<Box<dyn Guard>, Error> {
        let guard = txc_blocking::Client::arm_kill_switch(self, schedule, report)?;
        Ok(Box::new(guard))
    }
}

impl RiskApi for AsyncApi {
    fn collateral_balance(
        &self,
        query: &CollateralBalanceQuery,
    ) -> Result<CollateralBalance, Error> {
        self.runtime.block_on(self.client.collateral_balance(query))
    }
    fn balance_summary(&self, query: &BalanceSummaryQuery) -> Result<Vec<AssetBalance>, Error> {
        self.runtime.block_on(self.client.balance_summary(query))
    }
    fn account_summary(&self) -> Result<AccountSummary, Error> {
        self.runtime.block_on(self.client.account_summary())
    }
    fn open_positions(&self, query: &OpenPositionsQuery) -> Result<Vec<Position>, Error> {
        self.runtime.block_on(self.client.open_positions(query))
    }
    fn position_history(&self, query: &PositionHistoryQuery) -> Result<Vec<PositionEvent>, Error> {
        self.runtime.block_on(self.client.position_history(query))
    }
    fn close_position(&self, close: &ClosePosition) -> Result<Acknowledged, Error> {
        self.runtime.block_on(self.client.close_position(close))
    }
    fn resolve_close(&self, close: &PendingClose) -> Result<CloseResolution, Error> {
        self.runtime.block_on(self.client.resolve_close(close))
    }
    fn set_leverage(&self, leverage: &SetLeverage) -> Result<LeverageSet, Error> {
        self.runtime.block_on(self.client.set_leverage(leverage))
    }
    fn hedge_mode(&self) -> Result<HedgeMode, Error> {
        self.runtime.block_on(self.client.hedge_mode())
    }
    fn set_hedge_mode(&self, change: &SetHedgeMode) -> Result<Acknowledged, Error> {
        self.runtime.block_on(self.client.set_hedge_mode(change))
    }
    fn known_position_mode(&self) -> Option<PositionMode> {
        self.client.known_position_mode()
    }
    fn cancel_all_orders(&self, cancel: &CancelAllOrders) -> Result<Acknowledged, Error> {
        self.runtime.block_on(self.client.cancel_all_orders(cancel))
    }
    fn cancel_orders(&self, cancel: &CancelOrders) -> Result<Vec<BulkCancelItem>, Error> {
        self.runtime.block_on(self.client.cancel_orders(cancel))
    }
    fn set_kill_switch(&self, timer: &SetKillSwitch) -> Result<KillSwitchAnswer, Error> {
        self.runtime.block_on(self.client.set_kill_switch(timer))
    }
    fn kill_switch_status(
        &self,
        query: &KillSwitchStatusQuery,
    ) -> Result<Vec<KillSwitchTimer>, Error> {
        self.runtime.block_on(self.client.kill_switch_status(query))
    }
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
