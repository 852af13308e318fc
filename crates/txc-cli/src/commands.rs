//! Running each command with the blocking client: build the request (checked before any I/O),
//! then send it — or, with `--dry-run`, sign it and stop.

use std::time::{Duration, SystemTime};

use txc_blocking::endpoint::{Endpoint, SignedRequest};
use txc_blocking::investments::{InvestmentPlan, SmartPlansQuery, SmartPlansQueryBuilder};
use txc_blocking::lookups::{LookupBuilder, OpenOrdersQuery, OrderHistory, OrderHistoryQuery};
use txc_blocking::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder, NewOrder,
    Order, OrderBuilder, PositionSide, Side, Stp,
};
use txc_blocking::outcomes::{
    AttemptRecord, InvestmentWriters, PendingOrder, PendingRecord, Placed, Resolution,
};
use txc_blocking::settings::ClientConfig;
use txc_blocking::time::ServerTime;
use txc_blocking::{Client, Credentials, Error};

use crate::args::{
    CancelArgs, GlobalArgs, InvestmentWritersArg, LookupArgs, OrderArgs, PositionSideArg,
    ResolveArgs, SideArg, StpArg,
};
use crate::config::{self, Target};
use crate::exit::CliError;
use crate::journal::{Entry, FileJournal, attempt, pending_order};

mod investing;

pub(crate) use investing::{
    close_investment, interest, invest, investments, resolve_investment, resolve_investment_command,
};

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
    Risk(Box<crate::risk::RiskOutcome>),
}

/// The configuration of a client for `target`, with the settling delay and position-mode
/// check asked for.
fn configured(global: &GlobalArgs, target: &Target, credentials: Credentials) -> ClientConfig {
    let writers = match global.investment_writers {
        InvestmentWritersArg::Shared => InvestmentWriters::Shared,
        InvestmentWritersArg::Sole => InvestmentWriters::Sole,
    };
    let config = ClientConfig::new(credentials)
        .base_url(target.base_url.clone())
        .b2b_account(global.b2b_account)
        .investment_writers(writers)
        .position_mode_check(crate::risk::mode_check(global.position_mode));
    match global.unproven_settle_delay {
        Some(ms) => config.unproven_settle_delay(Duration::from_millis(ms)),
        None => config.settle_delay(Duration::from_secs(global.settle_delay)),
    }
}

/// The client for `target`.
pub(crate) fn client(
    global: &GlobalArgs,
    target: &Target,
    credentials: Credentials,
) -> Result<Client, CliError> {
    txc_blocking::ClientBuilder::from(configured(global, target, credentials))
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
    let config = configured(global, target, credentials)
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
fn send_read<E: Endpoint>(
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

/// Places `order` (or signs it, with `--dry-run`); `place` is the client's method for it.
fn place<O: NewOrder>(
    global: &GlobalArgs,
    target: &Target,
    order: &O,
    once: bool,
    place: impl FnOnce(&Client, &O) -> Result<Order, Error>,
) -> Result<Outcome, CliError> {
    check_live(global, target)?;
    if global.dry_run {
        return dry_run(&client_for(global, target)?, order);
    }
    let client = ordering_client(global, target)?;
    let result = if once {
        client
            .place_once(order)
            .map(|placed| Outcome::Placed(Box::new(placed)))
    } else {
        place(&client, order).map(|order| Outcome::Order(Box::new(order)))
    };
    result.map_err(|error| {
        let check = error.pending_order().map(resolve_command);
        CliError::changing(error, check)
    })
}

/// The `txc resolve` command that finds out what became of `pending` (its attempts are in
/// the journal; the nonces make the command work elsewhere too).
pub(crate) fn resolve_command(pending: &PendingOrder) -> String {
    let mut command = format!(
        "txc resolve {} {}",
        pending.market().as_str(),
        pending.client_order_id().as_str()
    );
    if pending.is_trigger() {
        command.push_str(" --trigger");
    }
    for attempt in pending.attempts() {
        command.push_str(&format!(" --nonce {}", attempt.nonce));
    }
    command
}

/// `builder` with `set` applied to `value`, when there is one: how each command applies its
/// optional filters and options to a request's builder.
pub(crate) fn given<B, T>(builder: B, value: Option<T>, set: impl FnOnce(B, T) -> B) -> B {
    match value {
        Some(value) => set(builder, value),
        None => builder,
    }
}

/// Applies the options both order commands share.
fn options<O: txc_blocking::orders::BuildableOrder>(
    builder: OrderBuilder<O>,
    args: &OrderArgs,
) -> OrderBuilder<O> {
    type B<O> = OrderBuilder<O>;
    let builder = given(builder, args.stop_loss.as_deref(), B::stop_loss);
    let builder = given(builder, args.take_profit.as_deref(), B::take_profit);
    let builder = given(builder, args.client_order_id.as_deref(), B::client_order_id);
    let builder = given(
        builder,
        args.position_side.map(position_side),
        B::position_side,
    );
    let builder = given(builder, args.reduce_only.then_some(true), B::reduce_only);
    given(builder, args.stp.map(stp), B::stp)
}

/// The self-trade prevention `--stp` names.
fn stp(stp: StpArg) -> Stp {
    match stp {
        StpArg::No => Stp::No,
        StpArg::Cb => Stp::CancelBoth,
        StpArg::Cn => Stp::CancelNew,
        StpArg::Co => Stp::CancelOld,
    }
}

fn side(side: SideArg) -> Side {
    match side {
        SideArg::Buy => Side::Buy,
        SideArg::Sell => Side::Sell,
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

/// `txc market`.
pub(crate) fn market(global: &GlobalArgs, args: &OrderArgs) -> Result<Outcome, CliError> {
    let builder =
        CollateralMarketOrder::builder(args.market.as_str(), side(args.side), args.amount.as_str());
    let order = options(builder, args).build()?;
    let target = config::target(global)?;
    place(global, &target, &order, args.once, |client, order| {
        client.collateral_market_order(order)
    })
}

/// `txc trigger`.
pub(crate) fn trigger(
    global: &GlobalArgs,
    args: &OrderArgs,
    activation_price: &str,
) -> Result<Outcome, CliError> {
    let builder = CollateralTriggerMarketOrder::builder(
        args.market.as_str(),
        side(args.side),
        args.amount.as_str(),
        activation_price,
    );
    let order = options(builder, args).build()?;
    let target = config::target(global)?;
    place(global, &target, &order, args.once, |client, order| {
        client.collateral_trigger_market_order(order)
    })
}

/// `txc plans`.
pub(crate) fn plans(global: &GlobalArgs, ticker: Option<&str>) -> Result<Outcome, CliError> {
    let builder = given(
        SmartPlansQuery::builder(),
        ticker,
        SmartPlansQueryBuilder::ticker,
    );
    read(global, &builder.build()?, Outcome::Plans)
}

/// Applies the look-up filters to a query builder of either kind.
fn lookup<B: LookupBuilder>(builder: B, args: &LookupArgs) -> Result<B::Query, CliError> {
    let builder = given(builder, args.filter.market.as_deref(), B::market);
    let builder = given(builder, args.order_id, B::order_id);
    let builder = given(builder, args.client_order_id.as_deref(), B::client_order_id);
    let builder = given(builder, args.limit, B::limit);
    Ok(given(builder, args.offset, B::offset).build()?)
}

/// `txc orders`.
pub(crate) fn orders(global: &GlobalArgs, args: &LookupArgs) -> Result<Outcome, CliError> {
    read(
        global,
        &lookup(OpenOrdersQuery::builder(), args)?,
        Outcome::Orders,
    )
}

/// `txc history`.
pub(crate) fn history(global: &GlobalArgs, args: &LookupArgs) -> Result<Outcome, CliError> {
    let query = lookup(OrderHistoryQuery::builder(), args)?;
    read(global, &query, Outcome::History)
}

/// `txc cancel`.
pub(crate) fn cancel(global: &GlobalArgs, args: &CancelArgs) -> Result<Outcome, CliError> {
    let (cancel, lookup) = match (args.order_id, &args.client_order_id) {
        (Some(id), _) => (
            CancelOrder::by_order_id(args.market.as_str(), id)?,
            format!("--order-id {id}"),
        ),
        (None, Some(id)) => (
            CancelOrder::by_client_order_id(args.market.as_str(), id.as_str())?,
            format!("--client-order-id {id}"),
        ),
        (None, None) => return Err(CliError::invalid("give --order-id or --client-order-id")),
    };
    let client = match live_client(global, &cancel)? {
        Ok(client) => client,
        Err(dry) => return Ok(dry),
    };
    match client.cancel_order(&cancel) {
        Ok(Cancellation::Canceled(order)) => Ok(Outcome::Canceled(order)),
        Ok(Cancellation::NotFound) => Err(CliError::Rejected(format!(
            "no open order of {} matched {lookup}: it never existed, or it was already \
             filled or canceled",
            args.market
        ))),
        Ok(other) => Err(CliError::Rejected(format!("cancel: {other:?}"))),
        Err(error) => Err(CliError::changing(
            error,
            Some(format!(
                "txc orders --market {} {lookup}  (still open: not canceled)",
                args.market
            )),
        )),
    }
}

/// The attempts a `--nonce` list names, each signed at its nonce's time; without one, a
/// single attempt sent now.
pub(crate) fn attempts(nonces: &[u64]) -> Vec<AttemptRecord> {
    let now = [txc_sign::unix_millis(SystemTime::now())];
    let nonces = if nonces.is_empty() { &now[..] } else { nonces };
    nonces.iter().map(|&nonce| attempt(nonce, nonce)).collect()
}

/// The records to resolve among `held` (the journal's, of one order or investment): with
/// `--nonce`, those holding one of `nonces`, and one more of the nonces no record holds
/// (`extra` makes it); without, all of them.
pub(crate) fn chosen<T>(
    held: Vec<T>,
    nonces: &[u64],
    attempts_of: impl Fn(&T) -> &[AttemptRecord],
    extra: impl FnOnce(Vec<AttemptRecord>) -> T,
) -> Vec<T> {
    if nonces.is_empty() {
        return held;
    }
    let holds = |record: &T, nonce: u64| attempts_of(record).iter().any(|a| a.nonce.get() == nonce);
    let unknown: Vec<AttemptRecord> = nonces
        .iter()
        .filter(|&&n| !held.iter().any(|r| holds(r, n)))
        .map(|&n| attempt(n, n))
        .collect();
    let mut records: Vec<T> = held
        .into_iter()
        .filter(|r| nonces.iter().any(|&n| holds(r, n)))
        .collect();
    if !unknown.is_empty() {
        records.push(extra(unknown));
    }
    records
}

/// Refuses to resolve from this journal what only another exchange's or key's entries hold.
pub(crate) fn sent_elsewhere(
    journal: &FileJournal,
    theirs: impl Fn(&Entry) -> bool,
    what: &str,
) -> Result<(), CliError> {
    let entries = journal.entries()?;
    let mine = entries.iter().any(|e| theirs(e) && journal.owns(e));
    match entries.iter().find(|e| theirs(e) && !journal.owns(e)) {
        Some(entry) if !mine => Err(CliError::invalid(format!(
            "the journal's {what} was sent to {} with the key {}; resolve it with that \
             exchange and key",
            entry.base_url, entry.api_key
        ))),
        _ => Ok(()),
    }
}

/// `txc resolve`: the order's records from the journal (or `--nonce`), each resolved in turn;
/// a definite answer clears its record. Placed if any was.
pub(crate) fn resolve(global: &GlobalArgs, args: &ResolveArgs) -> Result<Outcome, CliError> {
    // Checked before anything else: the order as given, for when the journal has no entry.
    let given = pending_order(
        &args.market,
        &args.client_order_id,
        Vec::new(),
        args.trigger,
    )
    .map_err(CliError::invalid)?;
    reads_only(global, "resolve")?;
    let target = config::target(global)?;
    let credentials = credentials(&target)?;
    let journal = journal(global, &target, &credentials)?;
    let this = |e: &Entry| {
        matches!(&e.what, crate::journal::What::Order { market, client_order_id, .. }
            if *market == args.market && *client_order_id == args.client_order_id)
    };
    sent_elsewhere(&journal, this, &format!("order {}", args.client_order_id))?;
    let client = journaled_client(global, &target, credentials, journal)?;
    let held: Vec<PendingOrder> = client
        .pending_orders()
        .into_iter()
        .filter(|o| o.market() == given.market() && o.client_order_id() == given.client_order_id())
        .collect();
    let records = chosen(held, &args.nonce, PendingOrder::attempts, |attempts| {
        PendingOrder::new(
            given.market().clone(),
            given.client_order_id().clone(),
            attempts,
        )
        .with_trigger(args.trigger)
    });
    if records.is_empty() {
        return Err(CliError::invalid(format!(
            "the journal holds no order {} of {}, and no --nonce was given: without its \
             attempts' nonces the order's window is unknown (see `txc pending`, or the failed \
             command's message)",
            args.client_order_id, args.market
        )));
    }
    let mut answer = None;
    for pending in &records {
        match client.resolve(pending) {
            Ok(Resolution::CannotTell(evidence)) => {
                return Err(CliError::CannotTell(format!(
                    "cannot tell whether {} was placed: found nowhere ({evidence}), but the \
                     account is a B2B account, whose canceled orders the history omits; ask the \
                     exchange's support before placing it again (then `txc discard {}`)",
                    args.client_order_id,
                    pending.attempts().first().map_or(0, |a| a.nonce.get()),
                )));
            }
            Ok(resolution) => {
                let placed = matches!(resolution, Resolution::Placed(_));
                if placed || answer.is_none() {
                    answer = Some(resolution);
                }
            }
            Err(error) => return Err(CliError::changing(error, Some(resolve_command(pending)))),
        }
    }
    answer
        .map(|resolution| Outcome::Resolved(Box::new(resolution)))
        .ok_or_else(|| CliError::invalid("nothing to resolve"))
}

/// `txc discard`: forgets the journal's unresolved record with `key` (its first nonce, as `txc
/// pending` lists it), settled by hand.
pub(crate) fn discard(global: &GlobalArgs, key: u64) -> Result<Outcome, CliError> {
    reads_only(global, "discard")?;
    let target = config::target(global)?;
    let credentials = credentials(&target)?;
    let journal = journal(global, &target, &credentials)?;
    let client = journaled_client(global, &target, credentials, journal)?;
    let is_key =
        |attempts: &[AttemptRecord]| attempts.first().is_some_and(|a| a.nonce.get() == key);
    let record: Option<PendingRecord> = client
        .pending_orders()
        .into_iter()
        .find(|o| is_key(o.attempts()))
        .map(PendingRecord::from)
        .or_else(|| {
            client
                .pending_investments()
                .into_iter()
                .find(|i| is_key(i.attempts()))
                .map(PendingRecord::from)
        });
    let Some(record) = record else {
        return Err(CliError::invalid(format!(
            "the journal of {} and this key holds no unresolved record {key} (`txc pending` \
             lists them, each by its first nonce)",
            target.base_url
        )));
    };
    let what = record.to_string();
    client
        .discard_pending(record)
        .map_err(|e| CliError::invalid(format!("the journal could not forget it: {e}")))?;
    Ok(Outcome::Discarded(what))
}

/// `txc pending`: the journal's orders and investments, of every exchange and key.
pub(crate) fn pending(global: &GlobalArgs) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let credentials = credentials(&target)?;
    let journal = journal(global, &target, &credentials)?;
    Ok(Outcome::Pending(journal.entries()?))
}

/// `txc time`: public, so any credentials do; none are sent.
pub(crate) fn time(global: &GlobalArgs) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let credentials = match &target.credentials {
        Some(c) => c.clone(),
        // The server time is public: this key is never sent.
        None => Credentials::new("txc-public", "txc-public").map_err(CliError::read)?,
    };
    let client = client(global, &target, credentials)?;
    send_read(
        global,
        &client,
        &txc_blocking::time::ServerTimeQuery,
        Outcome::Time,
    )
}
