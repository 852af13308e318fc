//! What the order-placing commands share — `txc market`, `trigger`, `limit`, `stop-limit`:
//! placing an order (journaled, behind the `--live` guard, `--dry-run`, `--once`), the
//! options every order takes, and the `txc resolve` command that settles one whose outcome is
//! unknown.

use txc_blocking::Client;
use txc_blocking::Error;
use txc_blocking::markets::RuledOrder;
use txc_blocking::orders::{NewOrder, Order, OrderBuilder, Side, Stp};
use txc_blocking::outcomes::{PendingOrder, Placeable, PlacedOrder};
use txc_blocking::socket::ToSocket;

use crate::args::{GlobalArgs, OrderArgs, SideArg, StpArg};
use crate::config::Target;
use crate::exit::CliError;
use crate::run::{Outcome, check_live, client_for, dry_run, given, ordering_client, position_side};

/// Places `order` (or signs it, with `--dry-run`) as `args` say — over REST with `place`, the
/// client's method for it, or over the WebSocket with `--via ws` — once, or exactly once with
/// `--once`.
pub(crate) fn place<O: NewOrder + Placeable<Placed = PlacedOrder> + RuledOrder + ToSocket>(
    global: &GlobalArgs,
    target: &Target,
    order: &O,
    args: &OrderArgs,
    place: impl FnOnce(&Client, &O) -> Result<Order, Error>,
) -> Result<Outcome, CliError> {
    let once = args.once;
    if args.via.ws() {
        return crate::via::place(global, target, order, once, resolve_command);
    }
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
    for attempt in pending.socket_attempts() {
        command.push_str(&format!(
            " --ws-attempt {}",
            crate::via::ws_attempt_text(attempt)
        ));
    }
    command
}

/// Applies the options both order commands share.
pub(crate) fn options<O: txc_blocking::orders::BuildableOrder>(
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
pub(crate) fn stp(stp: StpArg) -> Stp {
    match stp {
        StpArg::No => Stp::No,
        StpArg::Cb => Stp::CancelBoth,
        StpArg::Cn => Stp::CancelNew,
        StpArg::Co => Stp::CancelOld,
    }
}

pub(crate) fn side(side: SideArg) -> Side {
    match side {
        SideArg::Buy => Side::Buy,
        SideArg::Sell => Side::Sell,
    }
}
