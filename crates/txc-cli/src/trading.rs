//! The commands of the order types beyond market and trigger orders — `limit`, `stop-limit`,
//! `bulk`, `oco`, `modify`, the OCO, conditional and OTO cancels, `cancel-bulk` — and the
//! listings `oco-orders`, `conditional-orders` and `markets`: built and checked before any
//! I/O, then sent with the blocking client like `txc market` (the journal, the `--live`
//! guard, `--dry-run`, `--once`, the exit codes).

use std::io::Read as _;

use serde_json::{Map, Value};
use txc_blocking::Client;
use txc_blocking::endpoint::Endpoint;
use txc_blocking::lookups::ConditionalOrdersQuery;
use txc_blocking::markets::MarketsQuery;
use txc_blocking::orders::{
    CancelConditionalOrder, CancelOcoOrder, CancelOrder, CancelOrders, CancelOtoOrder,
    Cancellation, CollateralBulkOrder, CollateralLimitOrder, CollateralOcoOrder,
    CollateralStopLimitOrder, ModifyOrder, ModifyOrderBuilder, OcoOrdersQuery, OrderBuilder,
    PositionSide,
};
use txc_blocking::outcomes::CancelOutcome;

use crate::args::GlobalArgs;
use crate::config;
use crate::exit::CliError;
use crate::placing::{place_order, resolve_command, side, stp, with_options};
use crate::run::{
    Outcome, TradingOutcome, check_live, client_for, dry_run, given, live_client, ordering_client,
    public_client, read, send_read,
};
use crate::trading_args::{
    BulkArgs, CancelBulkArgs, CancelGroupArgs, CancelOcoArgs, LimitArgs, ModifyArgs, OcoArgs,
    PageArgs, StopLimitArgs,
};

fn wrap(outcome: TradingOutcome) -> Outcome {
    Outcome::Trading(Box::new(outcome))
}

/// `txc limit`.
pub(crate) fn limit(global: &GlobalArgs, args: &LimitArgs) -> Result<Outcome, CliError> {
    let o = &args.order;
    type B = OrderBuilder<CollateralLimitOrder>;
    let builder = CollateralLimitOrder::builder(
        o.market.as_str(),
        side(o.side),
        o.amount.as_str(),
        args.price.as_str(),
    );
    let builder = given(builder, args.post_only.then_some(true), B::post_only);
    let builder = given(builder, args.ioc.then_some(true), B::ioc);
    let builder = given(builder, args.rpi.then_some(true), B::rpi);
    place_order(global, o, builder, |client, order| {
        client.collateral_limit_order(order)
    })
}

/// `txc stop-limit`.
pub(crate) fn stop_limit(global: &GlobalArgs, args: &StopLimitArgs) -> Result<Outcome, CliError> {
    let o = &args.order;
    let builder = CollateralStopLimitOrder::builder(
        o.market.as_str(),
        side(o.side),
        o.amount.as_str(),
        args.price.as_str(),
        args.activation_price.get(),
    );
    place_order(global, o, builder, |client, order| {
        client.collateral_stop_limit_order(order)
    })
}

/// The bulk order of `text`: one limit order a line, as a JSON object with the spec's field
/// names; blank lines are skipped. An error names the line.
pub(crate) fn bulk_of(text: &str, stop_on_fail: bool) -> Result<CollateralBulkOrder, CliError> {
    let mut orders = Vec::new();
    for (at, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line_no = at + 1;
        let fields: Map<String, Value> = serde_json::from_str(line).map_err(|e| {
            CliError::invalid(format!(
                "line {line_no}: not a JSON object of an order: {e}"
            ))
        })?;
        let order = bulk_item(&fields)
            .map_err(|why| CliError::invalid(format!("line {line_no}: {why}")))?;
        orders.push(order);
    }
    let bulk = CollateralBulkOrder::new(orders)?;
    Ok(if stop_on_fail {
        bulk.with_stop_on_fail(true)
    } else {
        bulk
    })
}

/// One line's limit order.
fn bulk_item(fields: &Map<String, Value>) -> Result<CollateralLimitOrder, String> {
    let text = |key: &str| -> Result<Option<&str>, String> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("`{key}` must be a string, not {other}")),
        }
    };
    let flag = |key: &str| -> Result<Option<bool>, String> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(format!("`{key}` must be true or false, not {other}")),
        }
    };
    let required = |key: &str| text(key)?.ok_or_else(|| format!("`{key}` is required"));
    const KNOWN: [&str; 12] = [
        "market",
        "side",
        "amount",
        "price",
        "clientOrderId",
        "postOnly",
        "ioc",
        "rpi",
        "stopLoss",
        "takeProfit",
        "positionSide",
        "reduceOnly",
    ];
    if let Some(unknown) = fields.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!(
            "`{unknown}` is not a field of a bulk item (the spec's: {})",
            KNOWN.join(", ")
        ));
    }
    let order_side = match required("side")? {
        "buy" => txc_blocking::orders::Side::Buy,
        "sell" => txc_blocking::orders::Side::Sell,
        other => return Err(format!("`side` must be buy or sell, not {other}")),
    };
    let position = match text("positionSide")? {
        None => None,
        Some("LONG") => Some(PositionSide::Long),
        Some("SHORT") => Some(PositionSide::Short),
        Some("BOTH") => Some(PositionSide::Both),
        Some(other) => {
            return Err(format!(
                "`positionSide` must be LONG, SHORT or BOTH, not {other}"
            ));
        }
    };
    type B = OrderBuilder<CollateralLimitOrder>;
    let builder = CollateralLimitOrder::builder(
        required("market")?,
        order_side,
        required("amount")?,
        required("price")?,
    );
    let builder = given(builder, text("clientOrderId")?, B::client_order_id);
    let builder = given(builder, flag("postOnly")?, B::post_only);
    let builder = given(builder, flag("ioc")?, B::ioc);
    let builder = given(builder, flag("rpi")?, B::rpi);
    let builder = given(builder, text("stopLoss")?, B::stop_loss);
    let builder = given(builder, text("takeProfit")?, B::take_profit);
    let builder = given(builder, position, B::position_side);
    let builder = given(builder, flag("reduceOnly")?, B::reduce_only);
    builder.build().map_err(|e| format!("invalid order: {e}"))
}

/// `txc bulk`: the orders from the file (or standard input).
pub(crate) fn bulk(global: &GlobalArgs, args: &BulkArgs) -> Result<Outcome, CliError> {
    crate::via::rest_only(args.via, "bulk")?;
    let text = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => std::fs::read_to_string(path)
            .map_err(|e| CliError::invalid(format!("cannot read {}: {e}", path.display())))?,
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| CliError::invalid(format!("cannot read standard input: {e}")))?;
            text
        }
    };
    let bulk = bulk_of(&text, args.stop_on_fail)?;
    let target = config::target(global)?;
    check_live(global, &target)?;
    if global.dry_run {
        return dry_run(&client_for(global, &target)?, &bulk);
    }
    let client = ordering_client(global, &target)?;
    let result = if args.once {
        client
            .place_bulk_once(&bulk)
            .map(|placed| wrap(TradingOutcome::BulkPlaced(placed)))
    } else {
        client
            .collateral_bulk_order(&bulk)
            .map(|items| wrap(TradingOutcome::Bulk(items)))
    };
    result.map_err(|error| {
        let check = error.pending_bulk().map(|items| {
            items
                .iter()
                .map(resolve_command)
                .collect::<Vec<_>>()
                .join("; ")
        });
        CliError::changing(error, check)
    })
}

/// `txc oco`.
pub(crate) fn oco(global: &GlobalArgs, args: &OcoArgs) -> Result<Outcome, CliError> {
    let builder = CollateralOcoOrder::builder(
        args.market.as_str(),
        side(args.side),
        args.amount.as_str(),
        args.price.as_str(),
        args.activation_price.as_str(),
        args.stop_limit_price.as_str(),
    );
    let order = with_options(builder, &args.options).build()?;
    let target = config::target(global)?;
    if args.options.via.ws() {
        return crate::via::place(global, &target, &order, args.options.once, resolve_command);
    }
    check_live(global, &target)?;
    if global.dry_run {
        return dry_run(&client_for(global, &target)?, &order);
    }
    let client = ordering_client(global, &target)?;
    let result = if args.options.once {
        client
            .place_once(&order)
            .map(|placed| wrap(TradingOutcome::OcoPlaced(Box::new(placed))))
    } else {
        client
            .collateral_oco_order(&order)
            .map(|pair| wrap(TradingOutcome::Oco(Box::new(pair))))
    };
    result.map_err(|error| {
        let check = error.pending_order().map(|pair| {
            format!(
                "txc oco-orders --market {}  (the pair {} active?), or \
                 txc oco … --client-order-id {} --once",
                pair.market().as_str(),
                pair.client_order_id().as_str(),
                pair.client_order_id().as_str()
            )
        });
        CliError::changing(error, check)
    })
}

/// `txc oco-orders`.
pub(crate) fn oco_orders(global: &GlobalArgs, args: &PageArgs) -> Result<Outcome, CliError> {
    let query = match &args.market {
        Some(market) => OcoOrdersQuery::page(market.parse()?, args.offset.unwrap_or(0)),
        None => OcoOrdersQuery::new(),
    };
    read(global, &query, |pairs| {
        wrap(TradingOutcome::OcoPairs(pairs))
    })
}

/// `txc conditional-orders`.
pub(crate) fn conditional_orders(
    global: &GlobalArgs,
    args: &PageArgs,
) -> Result<Outcome, CliError> {
    let query = match &args.market {
        Some(market) => ConditionalOrdersQuery::page(market.parse()?, args.offset.unwrap_or(0)),
        None => ConditionalOrdersQuery::new(),
    };
    read(global, &query, |page| {
        wrap(TradingOutcome::Conditional(page))
    })
}

/// A cancel of a group — an OCO pair, a conditional order, an OTO group — sent once, or
/// settled exactly once with `--once`; "not found" at the first attempt is exit 3.
fn cancel_group<E, T>(
    global: &GlobalArgs,
    cancel: &E,
    once: bool,
    what: &str,
    done: impl FnOnce(Box<T>) -> TradingOutcome,
) -> Result<Outcome, CliError>
where
    E: Endpoint<Response = Cancellation<T>> + Clone,
{
    let client = match live_client(global, cancel)? {
        Ok(client) => client,
        Err(dry) => return Ok(dry),
    };
    let outcome = if once {
        client.cancel_once(cancel)
    } else {
        client.send(cancel).map(|answer| match answer {
            Cancellation::Canceled(record) => CancelOutcome::Canceled(record),
            _ => CancelOutcome::NotFound,
        })
    };
    match outcome {
        Ok(CancelOutcome::Canceled(record)) => Ok(wrap(done(record))),
        Ok(CancelOutcome::Gone { lost }) => Ok(wrap(TradingOutcome::Gone {
            what: what.to_owned(),
            lost,
        })),
        Ok(_) => Err(CliError::Rejected(format!(
            "nothing active matched {what}: it never existed, or it already executed or was \
             canceled"
        ))),
        Err(error) => Err(CliError::changing(
            error,
            Some(format!(
                "txc conditional-orders  (is {what} still active?), or the same command with \
                 --once"
            )),
        )),
    }
}

/// A group's cancel over the socket (`order_cancel_conditional`), sent once.
fn cancel_group_ws(
    global: &GlobalArgs,
    cancel: &CancelConditionalOrder,
    once: bool,
    what: &str,
) -> Result<Outcome, CliError> {
    crate::via::no_once("a group's cancel", once)?;
    crate::via::send(
        global,
        cancel,
        |session, cancel| session.order_cancel_conditional(cancel),
        |_| Some(format!("txc conditional-orders  (is {what} still active?)")),
    )
}

/// `txc cancel-oco`.
pub(crate) fn cancel_oco(global: &GlobalArgs, args: &CancelOcoArgs) -> Result<Outcome, CliError> {
    if args.via.ws() {
        // The socket cancels a pair as a group, by its id.
        let Some(id) = args.order_id else {
            return Err(CliError::invalid(
                "over the WebSocket an OCO pair is canceled by its id (--order-id): \
                 order_cancel_conditional takes no clientOrderId; nothing was sent",
            ));
        };
        let cancel = CancelConditionalOrder::new(args.market.as_str(), id)?;
        return cancel_group_ws(global, &cancel, args.once, &format!("the OCO pair {id}"));
    }
    let (cancel, what) = match (args.order_id, &args.client_order_id) {
        (Some(id), _) => (
            CancelOcoOrder::by_order_id(args.market.as_str(), id)?,
            format!("the OCO pair {id}"),
        ),
        (None, Some(id)) => (
            CancelOcoOrder::by_client_order_id(args.market.as_str(), id.as_str())?,
            format!("the OCO pair {id}"),
        ),
        (None, None) => return Err(CliError::invalid("give --order-id or --client-order-id")),
    };
    cancel_group(
        global,
        &cancel,
        args.once,
        &what,
        TradingOutcome::OcoCanceled,
    )
}

/// `txc cancel-conditional`.
pub(crate) fn cancel_conditional(
    global: &GlobalArgs,
    args: &CancelGroupArgs,
) -> Result<Outcome, CliError> {
    let cancel = CancelConditionalOrder::new(args.market.as_str(), args.id)?;
    let what = format!("the conditional order {}", args.id);
    if args.via.ws() {
        return cancel_group_ws(global, &cancel, args.once, &what);
    }
    cancel_group(global, &cancel, args.once, &what, |_| {
        TradingOutcome::GroupCanceled(args.id)
    })
}

/// `txc cancel-oto`.
pub(crate) fn cancel_oto(global: &GlobalArgs, args: &CancelGroupArgs) -> Result<Outcome, CliError> {
    let what = format!("the OTO group {}", args.id);
    if args.via.ws() {
        // The socket cancels an OTO group by its id, as any group.
        let cancel = CancelConditionalOrder::new(args.market.as_str(), args.id)?;
        return cancel_group_ws(global, &cancel, args.once, &what);
    }
    let cancel = CancelOtoOrder::new(args.market.as_str(), args.id)?;
    cancel_group(global, &cancel, args.once, &what, |_| {
        TradingOutcome::GroupCanceled(args.id)
    })
}

/// `txc modify`.
pub(crate) fn modify(global: &GlobalArgs, args: &ModifyArgs) -> Result<Outcome, CliError> {
    type B = ModifyOrderBuilder;
    let builder = match (args.order_id, &args.client_order_id) {
        (Some(id), _) => ModifyOrder::by_order_id(args.market.as_str(), id),
        (None, Some(id)) => ModifyOrder::by_client_order_id(args.market.as_str(), id.as_str()),
        (None, None) => return Err(CliError::invalid("give --order-id or --client-order-id")),
    };
    let builder = given(builder, args.amount.as_deref(), B::amount);
    let builder = given(builder, args.total.as_deref(), B::total);
    let builder = given(builder, args.price.as_deref(), B::price);
    let builder = given(
        builder,
        args.activation_price.as_deref(),
        B::activation_price,
    );
    let modify = given(builder, args.stp.map(stp), B::stp).build()?;
    if args.via.ws() {
        crate::via::no_once("modify", args.once)?;
        let market = args.market.clone();
        return crate::via::send(
            global,
            &modify,
            |session, modify| session.order_modify(modify),
            |_| {
                Some(format!(
                    "txc orders --market {market}  (the replacement, if the modify was made)"
                ))
            },
        );
    }
    let target = config::target(global)?;
    check_live(global, &target)?;
    if global.dry_run {
        return dry_run(&client_for(global, &target)?, &modify);
    }
    let client = ordering_client(global, &target)?;
    if args.once {
        settle_earlier_modifies(&client, &modify)?;
    }
    let result = if args.once {
        client
            .modify_once(&modify)
            .map(|resolution| wrap(TradingOutcome::ModifyResolved(Box::new(resolution))))
    } else {
        client
            .modify_order(&modify)
            .map(|modified| wrap(TradingOutcome::Modified(Box::new(modified))))
    };
    result.map_err(|error| {
        let check = error.pending_modify().map(|_| {
            let lookup = match (args.order_id, &args.client_order_id) {
                (_, Some(id)) => format!("--client-order-id {id}"),
                (Some(id), None) => format!("--order-id {id}"),
                (None, None) => String::new(),
            };
            format!(
                "txc orders --market {} {lookup}  (replaced: a new orderId with the new values; \
                 unchanged: the old one), or the same command with --once",
                args.market
            )
        });
        CliError::changing(error, check)
    })
}

/// With `--once`: the journal's unresolved modifies of the same order (an earlier `txc
/// modify` whose answer was lost) resolved first — by reading the order — so that the new
/// one is not refused for them.
fn settle_earlier_modifies(client: &Client, modify: &ModifyOrder) -> Result<(), CliError> {
    let earlier = client
        .pending_modifies()
        .into_iter()
        .filter(|p| p.market() == modify.market() && p.modify().target() == modify.target());
    for pending in earlier {
        client
            .resolve_modify(&pending)
            .map_err(|error| CliError::changing(error, None))?;
    }
    Ok(())
}

/// `txc cancel-bulk`.
pub(crate) fn cancel_bulk(global: &GlobalArgs, args: &CancelBulkArgs) -> Result<Outcome, CliError> {
    crate::via::rest_only(args.via, "cancel-bulk")?;
    let market = args.market.as_str();
    let mut cancels = Vec::new();
    for &id in &args.order_ids {
        cancels.push(CancelOrder::by_order_id(market, id)?);
    }
    for id in &args.client_order_ids {
        cancels.push(CancelOrder::by_client_order_id(market, id.as_str())?);
    }
    if cancels.is_empty() {
        return Err(CliError::invalid(
            "give the orders: --order-id N or --client-order-id ID, repeated",
        ));
    }
    let cancel = CancelOrders::new(cancels)?;
    let client = match live_client(global, &cancel)? {
        Ok(client) => client,
        Err(dry) => return Ok(dry),
    };
    client
        .cancel_orders(&cancel)
        .map(|items| wrap(TradingOutcome::BulkCanceled(items)))
        .map_err(|error| {
            CliError::changing(
                error,
                Some(format!(
                    "txc orders --market {market}  (which are still open?)"
                )),
            )
        })
}

/// `txc markets`: public, so any credentials do; none are sent.
pub(crate) fn markets(global: &GlobalArgs) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let client = public_client(global, &target)?;
    send_read(global, &client, &MarketsQuery, |markets| {
        wrap(TradingOutcome::Markets(markets))
    })
}
