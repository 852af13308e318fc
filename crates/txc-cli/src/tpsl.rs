//! `txc tpsl`: a take-profit and/or stop-loss attached to the open position of a market, over
//! the WebSocket only (`collateral_order_tpsl_place` has no REST twin).

use txc_blocking::socket::{CollateralTpslOrder, CollateralTpslOrderBuilder};

use crate::args::GlobalArgs;
use crate::exit::CliError;
use crate::placing::stp;
use crate::run::{Outcome, given, position_side};
use crate::tpsl_args::TpslArgs;

/// `txc tpsl`: a take-profit and/or stop-loss on the open position, over the socket (the
/// method has no REST twin). It carries no client order id, so it is not journaled: a lost
/// answer is exit 4 with the look-up that shows whether its legs exist.
pub(crate) fn tpsl(global: &GlobalArgs, args: &TpslArgs) -> Result<Outcome, CliError> {
    type B = CollateralTpslOrderBuilder;
    let builder = CollateralTpslOrder::builder(args.market.as_str());
    let builder = given(builder, args.take_profit.as_deref(), B::take_profit);
    let builder = given(builder, args.stop_loss.as_deref(), B::stop_loss);
    let builder = given(
        builder,
        args.position_side.map(position_side),
        B::position_side,
    );
    let order = given(builder, args.stp.map(stp), B::stp).build()?;
    let market = args.market.clone();
    crate::via::send(
        global,
        &order,
        |session, order| session.place(order),
        |_| {
            Some(format!(
                "txc orders --market {market}  (its legs are stop-market orders there if it \
                 was placed)"
            ))
        },
    )
}
