//! What every command runs on: the `Outcome` a command produces (a positions or risk-control
//! command's, `RiskOutcome`, and the other order types', `TradingOutcome`, among them), the client it sends with — configured from the
//! global options, journaled for what places, invests or resolves — and the guards and
//! helpers the order, investment and risk commands share (the `--live` guard, `--dry-run`,
//! reads, changes, the `--nonce` attempts). The command modules take these from here, never
//! from each other.

use std::time::{Duration, SystemTime};

use txc_blocking::endpoint::{Endpoint, RateLimit, SignedRequest};
use txc_blocking::investments::InvestmentPlan;
use txc_blocking::lookups::ConditionalOrders;
use txc_blocking::lookups::OrderHistory;
use txc_blocking::markets::MarketInfo;
use txc_blocking::orders::{
    BulkCancelItem, BulkOrderResult, KillSwitchAnswer, KillSwitchTimer, Modified, OcoOrder, Order,
    PositionSide,
};
use txc_blocking::outcomes::{
    AttemptRecord, BulkPlaced, CloseResolution, Found, InvestmentWriters, ModifyResolution, Placed,
    PlacedOco, Resolution,
};
use txc_blocking::positions::{
    AccountSummary, AssetBalance, CollateralBalance, HedgeMode, LeverageSet, Position,
    PositionEvent, PositionMode,
};
use txc_blocking::settings::{ClientConfig, MarketRulesCheck, ModeCheck, RateLimits};
use txc_blocking::time::ServerTime;
use txc_blocking::{Client, Credentials, Error};

use crate::args::{
    GlobalArgs, InvestmentWritersArg, MarketRulesArg, PositionModeArg, PositionSideArg,
};
use crate::config::{self, Target};
use crate::exit::CliError;
use crate::journal::{Entry, FileJournal, attempt};

/// What a command produced.
pub(crate) enum Outcome {
    /// A placed order, from its own response.
    Order(Box<Order>),
    /// `--once`: an order placed exactly once.
    Placed(Box<Placed>),
    /// Smart plans.
    Plans(Vec<InvestmentPlan>),
    /// Open orders.
    Orders(Vec<Order>),
    /// Finished orders, by market.
    History(OrderHistory),
    /// A canceled order.
    Canceled(Box<Order>),
    /// What resolving found.
    Resolved(Box<Resolution>),
    /// An investment made (`txc invest`).
    Invested(Box<txc_blocking::outcomes::Invested>),
    /// A page of investments.
    Investments(txc_blocking::investments::InvestmentsPage),
    /// An investment closed: its id.
    InvestmentClosed(String),
    /// A page of interest payments.
    InterestPayments(txc_blocking::investments::InterestPaymentsPage),
    /// What resolving an investment found.
    InvestResolved(Box<txc_blocking::outcomes::InvestResolution>),
    /// The exchange's time.
    Time(ServerTime),
    /// The journal's orders and investments in flight or unresolved.
    Pending(Vec<Entry>),
    /// A record discarded from the journal: what it was.
    Discarded(String),
    /// `--dry-run`: the signed request, not sent.
    DryRun(SignedRequest),
    /// What a positions or risk-control command produced.
    Risk(Box<RiskOutcome>),
    /// What a `txc flex …` command produced.
    Flex(Box<crate::flex_outcome::FlexOutcome>),
    /// `txc config path|init`: the config file's path, and whether it was just written.
    Config {
        /// The path.
        path: std::path::PathBuf,
        /// `init` wrote a template there.
        written: bool,
    },
    /// What a command of the other order types produced.
    Trading(Box<TradingOutcome>),
    /// What a report command read.
    Report(Box<crate::report_outcome::ReportOutcome>),
    /// What a command sent over the WebSocket produced (`--via ws`, `txc tpsl`).
    Socket(Box<crate::socket_output::SocketOutcome>),
}

/// The configuration of a client for `target`, with the settling delay, position-mode check
/// and rate cap asked for, and each wait for the rate limiter told on standard error — and the
/// hidden test-only timings, refused unless `target` is on loopback.
pub(crate) fn configured(
    global: &GlobalArgs,
    target: &Target,
    credentials: Credentials,
) -> Result<ClientConfig, CliError> {
    let writers = match global.investment_writers {
        InvestmentWritersArg::Shared => InvestmentWriters::Shared,
        InvestmentWritersArg::Sole => InvestmentWriters::Sole,
    };
    let config = ClientConfig::new(credentials)
        .base_url(target.base_url.clone())
        .b2b_account(global.b2b_account)
        .investment_writers(writers)
        .position_mode_check(mode_check(global.position_mode))
        .market_rules_check(match global.market_rules {
            MarketRulesArg::Learn => MarketRulesCheck::Learn,
            MarketRulesArg::Off => MarketRulesCheck::Off,
        });
    let config = match (global.max_rate, crate::test_timing::rate_limits(global)) {
        (None, None) => config,
        (cap, limits) => {
            let limits = limits.unwrap_or_else(RateLimits::documented);
            config.rate_limits(match cap {
                Some(n) => limits.at_most(RateLimit::new(n, 1)),
                None => limits,
            })
        }
    }
    .on_rate_wait(crate::progress::rate_wait);
    let config = match global.unproven_settle_delay {
        Some(ms) => config.unproven_settle_delay(Duration::from_millis(ms)),
        None => config.settle_delay(Duration::from_secs(global.settle_delay)),
    };
    crate::test_timing::apply(global, target, config)
}

/// The client for `target`.
pub(crate) fn client(
    global: &GlobalArgs,
    target: &Target,
    credentials: Credentials,
) -> Result<Client, CliError> {
    txc_blocking::ClientBuilder::from(configured(global, target, credentials)?)
        .build()
        .map_err(CliError::read)
}

/// The client of the configured target and credentials.
pub(crate) fn client_for(global: &GlobalArgs, target: &Target) -> Result<Client, CliError> {
    client(global, target, credentials(target)?)
}

/// The journal of orders sent to `target` with `credentials`.
pub(crate) fn journal(
    global: &GlobalArgs,
    target: &Target,
    credentials: &Credentials,
) -> Result<FileJournal, CliError> {
    let dir = crate::journal::state_dir(global.state_dir.as_deref())?;
    Ok(FileJournal::new(
        &dir,
        &target.base_url,
        credentials.api_key(),
    ))
}

/// The client that places, invests and resolves for `target`: the settling delay asked for,
/// every order and investment journaled in `journal` before it is sent — and the journal's
/// unresolved records read back, so that nothing of them is sent blindly again — each stage
/// of resolving told on standard error, and — with `--sync-clock` — the nonces corrected by
/// the exchange's clock before anything is signed.
pub(crate) fn journaled_client(
    global: &GlobalArgs,
    target: &Target,
    credentials: Credentials,
    journal: FileJournal,
) -> Result<Client, CliError> {
    let config = configured(global, target, credentials)?
        .journal(std::sync::Arc::new(journal))
        .on_resolve_stage(crate::progress::stage);
    let client = txc_blocking::ClientBuilder::from(config)
        .build()
        .map_err(|e| match e {
            Error::InvalidConfig {
                what: "journal",
                reason,
            } => CliError::invalid(format!("the journal: {reason}")),
            other => CliError::read(other),
        })?;
    if global.sync_clock {
        client.sync_clock().map_err(CliError::read)?;
    }
    Ok(client)
}

/// [`journaled_client`] with the journal of the configured key.
pub(crate) fn ordering_client(global: &GlobalArgs, target: &Target) -> Result<Client, CliError> {
    let credentials = credentials(target)?;
    let journal = journal(global, target, &credentials)?;
    journaled_client(global, target, credentials, journal)
}

/// The configured credentials, or why a command that signs cannot run.
pub(crate) fn credentials(target: &Target) -> Result<Credentials, CliError> {
    target.credentials.clone().ok_or_else(|| {
        CliError::invalid(
            "no API key: set TXC_API_KEY and TXC_API_SECRET, use a profile of the config \
             file (--profile), or give --api-key with --secret-stdin; `txc sandbox` prints \
             demo ones",
        )
    })
}

/// The `--live` guard: an order or cancel to a server that is not on loopback needs `--live`
/// (a dry run sends nothing and needs none).
pub(crate) fn check_live(global: &GlobalArgs, target: &Target) -> Result<(), CliError> {
    if global.live || global.dry_run || txc_sign::is_loopback(&target.base_url) {
        return Ok(());
    }
    Err(CliError::invalid(format!(
        "refusing to send an order to {}: it is not on loopback and the order would be real; \
         nothing was sent. Add --live if you mean it",
        target.base_url
    )))
}

/// `--dry-run`: `endpoint` signed with the next nonce, not sent.
pub(crate) fn dry_run<E: Endpoint>(client: &Client, endpoint: &E) -> Result<Outcome, CliError> {
    client
        .prepare(endpoint)
        .map(Outcome::DryRun)
        .map_err(CliError::read)
}

/// Refuses `--dry-run` for `command`, which only reads.
pub(crate) fn reads_only(global: &GlobalArgs, command: &str) -> Result<(), CliError> {
    if global.dry_run {
        return Err(CliError::invalid(format!(
            "{command} only reads; run it without --dry-run"
        )));
    }
    Ok(())
}

/// Reads `endpoint` with `client` (or signs it, with `--dry-run`).
pub(crate) fn send_read<E: Endpoint>(
    global: &GlobalArgs,
    client: &Client,
    endpoint: &E,
    wrap: impl FnOnce(E::Response) -> Outcome,
) -> Result<Outcome, CliError> {
    if global.dry_run {
        return dry_run(client, endpoint);
    }
    client.send(endpoint).map(wrap).map_err(CliError::read)
}

/// Reads `endpoint` with the configured key (or signs it, with `--dry-run`).
pub(crate) fn read<E: Endpoint>(
    global: &GlobalArgs,
    endpoint: &E,
    wrap: impl FnOnce(E::Response) -> Outcome,
) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    send_read(global, &client_for(global, &target)?, endpoint, wrap)
}

/// The client a command that changes something sends `endpoint` with, past the `--live`
/// guard — or, with `--dry-run`, `endpoint` signed and not sent (`Err`).
pub(crate) fn live_client<E: Endpoint>(
    global: &GlobalArgs,
    endpoint: &E,
) -> Result<Result<Client, Outcome>, CliError> {
    let target = config::target(global)?;
    check_live(global, &target)?;
    let client = client_for(global, &target)?;
    if global.dry_run {
        return dry_run(&client, endpoint).map(Err);
    }
    Ok(Ok(client))
}

/// Sends `endpoint`, which changes something, past the `--live` guard (or signs it, with
/// `--dry-run`); `send` is the client's method for it, `check` how to see what became of it
/// when the outcome is unknown.
pub(crate) fn change<E: Endpoint>(
    global: &GlobalArgs,
    endpoint: &E,
    send: impl FnOnce(&Client, &E) -> Result<Outcome, Error>,
    check: impl FnOnce(&Error) -> Option<String>,
) -> Result<Outcome, CliError> {
    let client = match live_client(global, endpoint)? {
        Ok(client) => client,
        Err(dry) => return Ok(dry),
    };
    send(&client, endpoint).map_err(|error| {
        let check = check(&error);
        CliError::changing(error, check)
    })
}

/// `builder` with `set` applied to `value`, when there is one: how each command applies its
/// optional filters and options to a request's builder.
pub(crate) fn given<B, T>(builder: B, value: Option<T>, set: impl FnOnce(B, T) -> B) -> B {
    match value {
        Some(value) => set(builder, value),
        None => builder,
    }
}

/// The position side `--position-side` names.
pub(crate) fn position_side(side: PositionSideArg) -> PositionSide {
    match side {
        PositionSideArg::Long => PositionSide::Long,
        PositionSideArg::Short => PositionSide::Short,
        PositionSideArg::Both => PositionSide::Both,
    }
}

/// The attempts a `--nonce` list names, each signed at its nonce's time; without one, a
/// single attempt sent now.
pub(crate) fn attempts(nonces: &[u64]) -> Vec<AttemptRecord> {
    let now = [txc_sign::nonce::unix_millis(SystemTime::now())];
    let nonces = if nonces.is_empty() { &now[..] } else { nonces };
    nonces.iter().map(|&nonce| attempt(nonce, nonce)).collect()
}

/// What a positions or risk-control command produced.
// One per run, and boxed in `Outcome`: matching on the records beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub(crate) enum RiskOutcome {
    /// `balance`.
    Balance(CollateralBalance),
    /// `balance --assets`.
    Assets(Vec<AssetBalance>),
    /// `balance --summary`.
    Summary(AccountSummary),
    /// `positions`.
    Positions(Vec<Position>),
    /// `position-history`.
    Events(Vec<PositionEvent>),
    /// `close`: closed.
    Closed {
        /// The market.
        market: String,
        /// The position.
        position_id: u64,
    },
    /// `close --resolve`.
    Resolved(CloseResolution),
    /// `leverage`.
    Leverage(LeverageSet),
    /// `hedge-mode`.
    HedgeMode(HedgeMode),
    /// `hedge-mode on|off`.
    ModeSet(PositionMode),
    /// `cancel-all`: what it canceled, or why that could not be counted.
    CanceledAll(Result<crate::cancel_count::CanceledCount, String>),
    /// `kill-switch --timeout|--off`.
    KillSwitch(KillSwitchAnswer),
    /// `kill-switch --status`.
    Timers(Vec<KillSwitchTimer>),
}

/// What a command of the order types beyond market and trigger orders produced.
pub(crate) enum TradingOutcome {
    /// `bulk`: each item's answer, in order.
    Bulk(Vec<BulkOrderResult>),
    /// `bulk --once`: each item's outcome.
    BulkPlaced(BulkPlaced),
    /// `oco`.
    Oco(Box<OcoOrder>),
    /// `oco --once`.
    OcoPlaced(Box<Found<PlacedOco>>),
    /// `oco-orders`.
    OcoPairs(Vec<OcoOrder>),
    /// `cancel-oco`: the pair canceled.
    OcoCanceled(Box<OcoOrder>),
    /// `cancel-conditional`, `cancel-oto`: the id canceled.
    GroupCanceled(u64),
    /// A cancel with `--once` whose answer was lost: nothing of it is active any more.
    Gone {
        /// What was canceled.
        what: String,
        /// How many answers were lost.
        lost: u32,
    },
    /// `modify`.
    Modified(Box<Modified>),
    /// `modify --once`.
    ModifyResolved(Box<ModifyResolution>),
    /// `conditional-orders`.
    Conditional(ConditionalOrders),
    /// `cancel-bulk`: each order's answer.
    BulkCanceled(Vec<BulkCancelItem>),
    /// `markets`.
    Markets(Vec<MarketInfo>),
}

/// A client for a public endpoint: the configured credentials, or — none configured — a
/// placeholder (a public request sends no key).
pub(crate) fn public_client(global: &GlobalArgs, target: &Target) -> Result<Client, CliError> {
    let credentials = match &target.credentials {
        Some(c) => c.clone(),
        // Public: this key is never sent.
        None => {
            Credentials::new("txc-public", "txc-public").map_err(|e| CliError::read(e.into()))?
        }
    };
    client(global, target, credentials)
}

/// The client's position-mode check for `--position-mode`.
pub(crate) fn mode_check(arg: PositionModeArg) -> ModeCheck {
    match arg {
        PositionModeArg::Learn => ModeCheck::Learn,
        PositionModeArg::OneWay => ModeCheck::Declared(PositionMode::OneWay),
        PositionModeArg::Hedge => ModeCheck::Declared(PositionMode::Hedge),
        PositionModeArg::Off => ModeCheck::Off,
    }
}
