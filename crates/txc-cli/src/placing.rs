//! What the order-placing commands share — `txc market`, `trigger`, `limit`, `stop-limit`:
//! placing an order (journaled, behind the `--live` guard, `--dry-run`, `--once`), the
//! options every order takes, and the `txc resolve` command that settles one whose outcome is
//! unknown.

use txc_blocking::Client;
use txc_blocking::Error;
use txc_blocking::markets::RuledOrder;
use txc_blocking::orders::{
    BuildableOrder, CollateralOcoOrderBuilder, NewOrder, Order, OrderBuilder, PositionSide, Side,
    Stp,
};
use txc_blocking::outcomes::{PendingOrder, Placeable, PlacedOrder};
use txc_blocking::socket::ToSocket;

use crate::args::{GlobalArgs, OrderArgs, SideArg, StpArg};
use crate::config::Target;
use crate::exit::CliError;
use crate::order_args::OrderOptions;
use crate::run::{Outcome, check_live, client_for, dry_run, given, ordering_client, position_side};

/// Places `order` (or signs it, with `--dry-run`) as its `options` say — over REST with `place`, the
/// client's method for it, or over the WebSocket with `--via ws` — once, or exactly once with
/// `--once`.
pub(crate) fn place<O: NewOrder + Placeable<Placed = PlacedOrder> + RuledOrder + ToSocket>(
    global: &GlobalArgs,
    target: &Target,
    order: &O,
    options: &OrderOptions,
    place: impl FnOnce(&Client, &O) -> Result<Order, Error>,
) -> Result<Outcome, CliError> {
    let once = options.once;
    if options.via.ws() {
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

/// Builds the order of `args` from `builder` (its terms given) and places it (or signs it,
/// with `--dry-run`): what `market`, `trigger`, `limit` and `stop-limit` share.
pub(crate) fn place_order<O>(
    global: &GlobalArgs,
    args: &OrderArgs,
    builder: OrderBuilder<O>,
    send: impl FnOnce(&Client, &O) -> Result<Order, Error>,
) -> Result<Outcome, CliError>
where
    O: BuildableOrder + NewOrder + Placeable<Placed = PlacedOrder> + RuledOrder + ToSocket,
{
    type B<O> = OrderBuilder<O>;
    let builder = given(builder, args.stop_loss.as_deref(), B::stop_loss);
    let builder = given(builder, args.take_profit.as_deref(), B::take_profit);
    let order = with_options(builder, &args.options).build()?;
    let target = crate::config::target(global)?;
    place(global, &target, &order, &args.options, send)
}

/// The setters [`OrderOptions`] need, on each builder that takes them: a single order's and
/// an OCO pair's.
pub(crate) trait TakesOrderOptions: Sized {
    /// Sets the clientOrderId.
    fn client_order_id(self, id: &str) -> Self;
    /// Sets the position side.
    fn position_side(self, side: PositionSide) -> Self;
    /// Sets reduce-only.
    fn reduce_only(self, reduce_only: bool) -> Self;
    /// Sets the self-trade prevention.
    fn stp(self, stp: Stp) -> Self;
}

/// The trait's methods as calls of the builder's own methods of the same names.
macro_rules! takes_order_options {
    ($builder:ty) => {
        fn client_order_id(self, id: &str) -> Self {
            <$builder>::client_order_id(self, id)
        }
        fn position_side(self, side: PositionSide) -> Self {
            <$builder>::position_side(self, side)
        }
        fn reduce_only(self, reduce_only: bool) -> Self {
            <$builder>::reduce_only(self, reduce_only)
        }
        fn stp(self, stp: Stp) -> Self {
            <$builder>::stp(self, stp)
        }
    };
}

impl<O: BuildableOrder> TakesOrderOptions for OrderBuilder<O> {
    takes_order_options!(OrderBuilder<O>);
}

impl TakesOrderOptions for CollateralOcoOrderBuilder {
    takes_order_options!(CollateralOcoOrderBuilder);
}

/// Applies the [`OrderOptions`] every order command takes.
pub(crate) fn with_options<B: TakesOrderOptions>(builder: B, options: &OrderOptions) -> B {
    let builder = given(
        builder,
        options.client_order_id.as_deref(),
        B::client_order_id,
    );
    let builder = given(
        builder,
        options.position_side.map(position_side),
        B::position_side,
    );
    let builder = given(builder, options.reduce_only.then_some(true), B::reduce_only);
    given(builder, options.stp.map(stp), B::stp)
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
