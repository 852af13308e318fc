//! Running each command with the blocking client: build the request (checked before any I/O),
//! then send it — or, with `--dry-run`, sign it and stop.

use txc_blocking::investments::{SmartPlansQuery, SmartPlansQueryBuilder};
use txc_blocking::lookups::{LookupBuilder, OpenOrdersQuery, OrderHistoryQuery};
use txc_blocking::orders::{
    CancelOrder, Cancellation, CollateralMarketOrder, CollateralTriggerMarketOrder,
};
use txc_blocking::outcomes::{AttemptRecord, PendingOrder, PendingRecord, Resolution};

use crate::args::{CancelArgs, GlobalArgs, LookupArgs, OrderArgs, ResolveArgs};
use crate::config;
use crate::exit::CliError;
use crate::journal::{Entry, FileJournal, attempt, pending_order};
use crate::placing::{place_order, resolve_command, side};
use crate::run::{
    Outcome, credentials, given, journal, journaled_client, live_client, public_client, read,
    reads_only, send_read,
};
use crate::trading_args::TriggerArgs;

mod flex;
mod investing;
mod moving;

pub(crate) use flex::flex;
pub(crate) use investing::{
    close_investment, interest, invest, investments, resolve_investment, resolve_investment_command,
};

/// The `txc` command that resolves `record`: `txc resolve`, `txc resolve-investment` or `txc
/// flex resolve`, with its nonces.
pub(crate) fn resolve_record_command(record: &PendingRecord) -> String {
    match record {
        PendingRecord::Order(order) => resolve_command(order),
        PendingRecord::Investment(investment) => resolve_investment_command(investment),
        PendingRecord::FlexInvest(invest) => flex::resolve_flex_command(invest),
        PendingRecord::FlexWithdraw(withdraw) => flex::resolve_flex_command(withdraw),
        // A modify is resolved from its journal entry (`txc pending` prints the command).
        _ => "txc pending".to_owned(),
    }
}

/// `txc market`.
pub(crate) fn market(global: &GlobalArgs, args: &OrderArgs) -> Result<Outcome, CliError> {
    let builder =
        CollateralMarketOrder::builder(args.market.as_str(), side(args.side), args.amount.as_str());
    place_order(global, args, builder, |client, order| {
        client.collateral_market_order(order)
    })
}

/// `txc trigger`.
pub(crate) fn trigger(global: &GlobalArgs, args: &TriggerArgs) -> Result<Outcome, CliError> {
    let o = &args.order;
    let builder = CollateralTriggerMarketOrder::builder(
        o.market.as_str(),
        side(o.side),
        o.amount.as_str(),
        args.activation_price.get(),
    );
    place_order(global, o, builder, |client, order| {
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
    let still_open = || {
        Some(format!(
            "txc orders --market {} {lookup}  (still open: not canceled)",
            args.market
        ))
    };
    if args.via.ws() {
        return crate::via::send(global, &cancel, |s, c| s.order_cancel(c), |_| still_open());
    }
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
        Err(error) => Err(CliError::changing(error, still_open())),
    }
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
    let records = crate::via::with_ws_attempts(
        chosen(held, &args.nonce, PendingOrder::attempts, |attempts| {
            PendingOrder::new(
                given.market().clone(),
                given.client_order_id().clone(),
                attempts,
            )
            .with_trigger(args.trigger)
        }),
        &given,
        &args.ws_attempt,
    );
    if records.is_empty() {
        return Err(CliError::invalid(format!(
            "the journal holds no order {} of {}, and no --nonce (or --ws-attempt) was given: \
             without its attempts the order's window is unknown (see `txc pending`, or the \
             failed command's message)",
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
    let is_key = |record: &PendingRecord| record.key().is_some_and(|k| k.get() == key);
    let records = client
        .pending_orders()
        .into_iter()
        .map(PendingRecord::from)
        .chain(
            client
                .pending_investments()
                .into_iter()
                .map(PendingRecord::from),
        )
        .chain(
            client
                .pending_flex_investments()
                .into_iter()
                .map(PendingRecord::from),
        )
        .chain(
            client
                .pending_flex_withdrawals()
                .into_iter()
                .map(PendingRecord::from),
        )
        .chain(
            client
                .pending_modifies()
                .into_iter()
                .map(PendingRecord::from),
        );
    let record = records.into_iter().find(is_key);
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

/// `txc pending`: the journal's orders, investments and flex investments and withdrawals, of
/// every exchange and key.
pub(crate) fn pending(global: &GlobalArgs) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let credentials = credentials(&target)?;
    let journal = journal(global, &target, &credentials)?;
    Ok(Outcome::Pending(journal.entries()?))
}

/// `txc time`: public, so any credentials do; none are sent.
pub(crate) fn time(global: &GlobalArgs) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let client = public_client(global, &target)?;
    send_read(
        global,
        &client,
        &txc_blocking::time::ServerTimeQuery,
        Outcome::Time,
    )
}
