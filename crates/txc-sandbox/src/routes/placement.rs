//! The order placement operations: `POST /api/v4/order/collateral/market`, `…/trigger-market`,
//! `…/limit`, `…/stop-limit`, `…/bulk` and `…/oco` — each body checked by the sandbox's own
//! rules ([`crate::rules`]), then placed against the state: a market order executes at once, a
//! stop order waits for its activation price (or activates at once), a limit order executes
//! what it can and rests with the rest, a bulk places its orders one by one, an OCO its two
//! linked legs.

use super::answer::Answer;
use super::private::{Call, Counts, Endpoint, market_rule};
use crate::auth::{Exchange, Locked};
use crate::config::{Limit, Op, Route};
use crate::rules::{self, BulkRequest, OcoRequest, OrderKind, OrderRequest};
use crate::state::Outcome;
use crate::wire::{ItemRecord, OcoCreatedRecord, OrderRecord, Rejection};

/// A collateral market order: the order record, or the exchange's rejection.
pub(super) const MARKET: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/market",
    Route::CollateralMarket,
    |exchange, call| order(exchange, call, OrderKind::Market),
);

/// A collateral trigger market order: the order record, or the exchange's rejection.
pub(super) const TRIGGER: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/trigger-market",
    Route::CollateralTriggerMarket,
    |exchange, call| order(exchange, call, OrderKind::Trigger),
);

/// A collateral limit order: the order record, or the exchange's rejection.
pub(super) const LIMIT: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/limit",
    Route::CollateralLimit,
    |exchange, call| order(exchange, call, OrderKind::Limit),
);

/// A collateral stop-limit order: the order record, or the exchange's rejection.
pub(super) const STOP_LIMIT: Endpoint<OrderRequest, OrderRecord> = placing(
    "/api/v4/order/collateral/stop-limit",
    Route::CollateralStopLimit,
    |exchange, call| order(exchange, call, OrderKind::StopLimit),
);

/// Up to 20 collateral limit orders: one item per order, in order — its record (without
/// `oto` unless it opens a group: the bulk answer's schema has none) or its refusal. With
/// `stopOnFail`, the orders after the first refused one are not processed; each is answered
/// with an error of its own (code 30 on `stopOnFail`), so that `answer[i]` is always
/// `orders[i]`'s.
pub(super) const BULK: Endpoint<BulkRequest, Vec<ItemRecord<OrderRecord>>> = Endpoint::new(
    Op::new(
        "/api/v4/order/collateral/bulk",
        Route::CollateralBulk,
        Limit::Orders,
    ),
    market_rule,
    |locked, call, bulk| {
        let mut failed = false;
        let mut items = Vec::with_capacity(bulk.orders.len());
        for order in bulk.orders {
            if failed && bulk.stop_on_fail {
                items.push(ItemRecord::failed(
                    30,
                    "Validation failed",
                    "stopOnFail",
                    &["Not processed: an earlier order failed and stopOnFail is set."],
                ));
                continue;
            }
            let placed = order.and_then(|order| {
                locked
                    .state
                    .place(call.api_key(), order, call.visible_after)
            });
            match placed {
                Ok(mut record) => {
                    locked.state.stats.record(&Outcome::OrderAccepted);
                    record.oto = record.oto.or_absent();
                    items.push(ItemRecord::ok(record));
                }
                Err(rejection) => {
                    failed = true;
                    locked.state.stats.record(&Outcome::Rejected {
                        code: rejection.code,
                        message: rejection.message.to_owned(),
                    });
                    items.push(ItemRecord::rejected(rejection));
                }
            }
        }
        Ok(items)
    },
);

/// A collateral OCO: the OCO with its two legs, or the exchange's rejection.
pub(super) const OCO: Endpoint<OcoRequest, OcoCreatedRecord> = Endpoint::new(
    Op::new(
        "/api/v4/order/collateral/oco",
        Route::CollateralOco,
        Limit::Orders,
    ),
    market_rule,
    |locked, call, request| {
        let oco = locked
            .state
            .place_oco(call.api_key(), &request, call.visible_after)?;
        // Two orders placed.
        for _ in 0..2 {
            locked.state.stats.record(&Outcome::OrderAccepted);
        }
        Ok(oco)
    },
);

/// The placement of orders checked by `rules`, at `path`: each placement counts against the
/// orders' limit on its own, and a success is an accepted order.
const fn placing(
    path: &'static str,
    route: Route,
    rules: fn(&Exchange, &Call<'_>) -> Result<OrderRequest, Answer>,
) -> Endpoint<OrderRequest, OrderRecord> {
    Endpoint::new(Op::new(path, route, Limit::Orders), rules, place).counts(Counts::Order)
}

/// The rules of an order of `kind`.
fn order(exchange: &Exchange, call: &Call<'_>, kind: OrderKind) -> Result<OrderRequest, Answer> {
    Ok(rules::parse_order(
        call.fields()?,
        kind,
        exchange.markets(),
    )?)
}

/// Places the order.
fn place(
    locked: &mut Locked,
    call: &Call<'_>,
    request: OrderRequest,
) -> Result<OrderRecord, Rejection> {
    locked
        .state
        .place(call.api_key(), request, call.visible_after)
}
