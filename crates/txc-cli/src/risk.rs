//! The positions and risk-control commands: `balance`, `positions`, `position-history`,
//! `close`, `leverage`, `hedge-mode`, `cancel-all` and `kill-switch` — built, checked before
//! any I/O, and sent with the blocking client like the order commands (the `--live` guard for
//! whatever changes something; `--dry-run` signs and stops).

use txc_blocking::endpoint::Endpoint;
use txc_blocking::orders::{
    CancelAllOrders, CancelAllOrdersBuilder, KillSwitchStatusQuery, OrderClass, SetKillSwitch,
};
use txc_blocking::outcomes::PendingClose;
use txc_blocking::positions::{
    BalanceSummaryQuery, ClosePosition, CollateralBalanceQuery, OpenPositionsQuery,
    PositionHistoryQuery, PositionHistoryQueryBuilder, PositionMode, SetHedgeMode, SetLeverage,
};
use txc_blocking::{Client, Error};

use crate::args::{
    BalanceArgs, CancelAllArgs, CloseArgs, GlobalArgs, KillSwitchArgs, OrderClassArg,
    PositionHistoryArgs, SwitchArg,
};
use crate::cancel_count::{CanceledCount, open_orders};
use crate::config;
use crate::exit::CliError;
use crate::run::{
    Outcome, RiskOutcome, attempts, change, client_for, given, position_side, read, reads_only,
};

fn wrap(outcome: RiskOutcome) -> Outcome {
    Outcome::Risk(Box::new(outcome))
}

fn classes(types: &[OrderClassArg]) -> Vec<OrderClass> {
    types
        .iter()
        .map(|t| match t {
            OrderClassArg::Spot => OrderClass::Spot,
            OrderClassArg::Margin => OrderClass::Margin,
            OrderClassArg::Futures => OrderClass::Futures,
        })
        .collect()
}

/// Reads `endpoint` with the configured key (or signs it, with `--dry-run`).
fn read_with<E: Endpoint>(
    global: &GlobalArgs,
    endpoint: &E,
    wrap_answer: impl FnOnce(E::Response) -> RiskOutcome,
) -> Result<Outcome, CliError> {
    read(global, endpoint, |answer| wrap(wrap_answer(answer)))
}

/// `txc balance`.
pub(crate) fn balance(global: &GlobalArgs, args: &BalanceArgs) -> Result<Outcome, CliError> {
    if args.summary {
        if args.ticker.is_some() {
            return Err(CliError::invalid(
                "--summary covers the whole account: no --ticker",
            ));
        }
        let query = txc_blocking::positions::AccountSummaryQuery;
        return read_with(global, &query, RiskOutcome::Summary);
    }
    if args.assets {
        let query = match &args.ticker {
            Some(t) => BalanceSummaryQuery::of_ticker(t.as_str())?,
            None => BalanceSummaryQuery::new(),
        };
        return read_with(global, &query, RiskOutcome::Assets);
    }
    let query = match &args.ticker {
        Some(t) => CollateralBalanceQuery::of_ticker(t.as_str())?,
        None => CollateralBalanceQuery::new(),
    };
    read_with(global, &query, RiskOutcome::Balance)
}

/// `txc positions`.
pub(crate) fn positions(global: &GlobalArgs, market: Option<&str>) -> Result<Outcome, CliError> {
    let query = match market {
        Some(m) => OpenPositionsQuery::of_market(m)?,
        None => OpenPositionsQuery::new(),
    };
    read_with(global, &query, RiskOutcome::Positions)
}

/// `txc position-history`.
pub(crate) fn position_history(
    global: &GlobalArgs,
    args: &PositionHistoryArgs,
) -> Result<Outcome, CliError> {
    type B = PositionHistoryQueryBuilder;
    let market = args.filter.market.as_deref();
    let builder = given(PositionHistoryQuery::builder(), market, B::market);
    let builder = given(builder, args.position_id, B::position_id);
    let builder = given(builder, args.start_date, B::start_date);
    let builder = given(builder, args.end_date, B::end_date);
    let builder = given(builder, args.limit, B::limit);
    let builder = given(builder, args.offset, B::offset);
    read_with(global, &builder.build()?, RiskOutcome::Events)
}

/// The `txc close --resolve` command that finds out what became of `pending`.
pub(crate) fn resolve_close_command(pending: &PendingClose) -> String {
    let mut command = format!(
        "txc close {} {} --resolve",
        pending.market().as_str(),
        pending.position_id()
    );
    if let Some(side) = pending.position_side() {
        command.push_str(&format!(
            " --position-side {}",
            side.as_str().to_lowercase()
        ));
    }
    for attempt in pending.attempts() {
        command.push_str(&format!(" --nonce {}", attempt.nonce));
    }
    command
}

/// `txc close`, or `txc close --resolve`.
pub(crate) fn close(global: &GlobalArgs, args: &CloseArgs) -> Result<Outcome, CliError> {
    let mut close = ClosePosition::new(args.market.as_str(), args.position_id)?;
    if let Some(side) = args.position_side {
        close = close.position_side(position_side(side));
    }
    if args.resolve {
        return resolve_close(global, args, &close);
    }
    let send = |client: &Client, close: &ClosePosition| {
        client.close_position(close)?;
        Ok(wrap(RiskOutcome::Closed {
            market: args.market.clone(),
            position_id: args.position_id,
        }))
    };
    change(global, &close, send, |error| {
        error.pending_close().map(resolve_close_command)
    })
}

/// `txc close --resolve`: reads only.
fn resolve_close(
    global: &GlobalArgs,
    args: &CloseArgs,
    close: &ClosePosition,
) -> Result<Outcome, CliError> {
    reads_only(global, "close --resolve")?;
    let pending = PendingClose::new(
        close.market().clone(),
        close.position_id(),
        close.side(),
        attempts(&args.nonce),
    );
    let target = config::target(global)?;
    client_for(global, &target)?
        .resolve_close(&pending)
        .map(|r| wrap(RiskOutcome::Resolved(r)))
        .map_err(|error| CliError::changing(error, Some(resolve_close_command(&pending))))
}

/// `txc leverage`.
pub(crate) fn leverage(global: &GlobalArgs, leverage: u32) -> Result<Outcome, CliError> {
    let set = SetLeverage::new(leverage)?;
    let send = |client: &Client, set: &SetLeverage| {
        Ok(wrap(RiskOutcome::Leverage(client.set_leverage(set)?)))
    };
    change(global, &set, send, |_| {
        Some("txc balance --summary".to_owned())
    })
}

/// `txc hedge-mode [on|off]`.
pub(crate) fn hedge_mode(
    global: &GlobalArgs,
    switch: Option<SwitchArg>,
) -> Result<Outcome, CliError> {
    let Some(switch) = switch else {
        return read_with(
            global,
            &txc_blocking::positions::HedgeModeQuery,
            RiskOutcome::HedgeMode,
        );
    };
    let mode = match switch {
        SwitchArg::On => PositionMode::Hedge,
        SwitchArg::Off => PositionMode::OneWay,
    };
    let set = SetHedgeMode::new(mode);
    let send = |client: &Client, set: &SetHedgeMode| {
        client.set_hedge_mode(set)?;
        Ok(wrap(RiskOutcome::ModeSet(mode)))
    };
    change(global, &set, send, |_| Some("txc hedge-mode".to_owned()))
}

/// `txc cancel-all`.
pub(crate) fn cancel_all(global: &GlobalArgs, args: &CancelAllArgs) -> Result<Outcome, CliError> {
    type B = CancelAllOrdersBuilder;
    let types = (!args.types.is_empty()).then(|| classes(&args.types));
    let builder = given(
        CancelAllOrders::builder(),
        args.filter.market.as_deref(),
        B::market,
    );
    let builder = given(builder, types, B::types);
    let builder = given(
        builder,
        args.position_side.map(position_side),
        B::position_side,
    );
    let cancel = builder.build()?;
    let check = |_: &Error| {
        let market = args
            .filter
            .market
            .as_deref()
            .map_or_else(String::new, |m| format!(" --market {m}"));
        Some(format!(
            "txc orders{market}  (what is still open was not canceled)"
        ))
    };
    if args.via.ws() {
        return crate::via::send(global, &cancel, |s, c| s.order_cancel_all(c), check);
    }
    // The answer is empty: the open orders before and after tell what was canceled. A read
    // that fails does not stop the cancel; the count is then left out, saying why.
    let market = args.filter.market.as_deref();
    let send = |client: &Client, cancel: &CancelAllOrders| {
        let before = open_orders(client, market);
        client.cancel_all_orders(cancel)?;
        let count = before
            .and_then(|before| Ok(CanceledCount::of(&before, &open_orders(client, market)?)))
            .map_err(|e| e.to_string());
        Ok(wrap(RiskOutcome::CanceledAll(count)))
    };
    change(global, &cancel, send, check)
}

/// `txc kill-switch`.
pub(crate) fn kill_switch(global: &GlobalArgs, args: &KillSwitchArgs) -> Result<Outcome, CliError> {
    if args.status {
        let query = match args.market_filter.as_ref().or(args.market.as_ref()) {
            Some(m) => KillSwitchStatusQuery::of_market(m.as_str())?,
            None => KillSwitchStatusQuery::new(),
        };
        return read_with(global, &query, RiskOutcome::Timers);
    }
    let Some(market) = args.market.as_deref() else {
        return Err(CliError::invalid("give the market"));
    };
    let set = match args.timeout {
        Some(secs) if args.types.is_empty() => SetKillSwitch::arm(market, secs)?,
        Some(secs) => SetKillSwitch::arm(market, secs)?.types(classes(&args.types))?,
        None => SetKillSwitch::disarm(market)?,
    };
    let send = |client: &Client, set: &SetKillSwitch| {
        Ok(wrap(RiskOutcome::KillSwitch(client.set_kill_switch(set)?)))
    };
    change(global, &set, send, |_| {
        Some(format!("txc kill-switch --status --market {market}"))
    })
}
