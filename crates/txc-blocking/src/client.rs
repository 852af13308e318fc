//! [`Client`]: the blocking client, a thin driver of [`txc_core::machine::Call`] over ureq.

use std::fmt;
use std::sync::Arc;
use std::thread;
use std::time::SystemTime;

use txc_core::decode::Response;
use txc_core::resolve::{
    CloseResolution, Found, InvestResolution, Invested, PendingClose, PendingInvestment,
    PendingOrder, PendingRecord, Placeable, Resolution,
};
use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule};
use txc_core::{ClientCore, Error, Machine, Step};
use txc_sign::nonce::ClockOffset;
use txc_sign::{Credentials, SignedRequest};
use txc_types::endpoint::{Acknowledged, Endpoint};
use txc_types::investments::{
    CloseInvestment, InterestPaymentsPage, InterestPaymentsQuery, Invest, InvestmentClosed,
    InvestmentPlan, InvestmentsPage, InvestmentsQuery, NewInvestment, SmartPlansQuery,
};
use txc_types::lookups::{
    ConditionalOrders, ConditionalOrdersQuery, OpenOrdersQuery, OrderHistory, OrderHistoryQuery,
};
use txc_types::markets::RuledOrder;
use txc_types::orders::{
    BulkCancelItem, CancelAllOrders, CancelOrder, CancelOrders, Cancellation,
    CollateralMarketOrder, CollateralTriggerMarketOrder, KillSwitchAnswer, KillSwitchStatusQuery,
    KillSwitchTimer, Order, SetKillSwitch,
};
use txc_types::positions::{
    AccountSummary, AccountSummaryQuery, AssetBalance, BalanceSummaryQuery, ClosePosition,
    CollateralBalance, CollateralBalanceQuery, HedgeMode, HedgeModeQuery, LeverageSet,
    OpenPositionsQuery, Position, PositionEvent, PositionHistoryQuery, PositionMode, SetHedgeMode,
    SetLeverage,
};
use txc_types::time::{ServerTime, ServerTimeQuery};

use crate::ClientBuilder;
use crate::kill_switch::KillSwitch;
use crate::tls::Tls;
use crate::transport::round_trip;

/// A blocking client of WhiteBIT's private v4 API for one API key.
///
/// Cheap to clone (one `Arc`): clones share the agent's connection pool and the key's nonce
/// sequence, so they can be used from many threads at once without nonce collisions.
///
/// Every call signs with a fresh nonce, sends, decodes, and — when the
/// [`RetryPolicy`](crate::settings::RetryPolicy) allows — waits and tries again, signed afresh. An
/// order is never resent after a failure that leaves its outcome unknown; check
/// [`Error::outcome_unknown`] and look the order up before placing it again.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    core: ClientCore,
    agent: ureq::Agent,
    /// The TLS chosen when the client was built: the event stream's too.
    #[cfg_attr(not(feature = "events"), allow(dead_code))]
    tls: Tls,
}

impl Client {
    /// Starts configuring a client for `credentials`.
    pub fn builder(credentials: Credentials) -> ClientBuilder {
        ClientBuilder::new(credentials)
    }

    pub(crate) fn from_parts(core: ClientCore, agent: ureq::Agent, tls: Tls) -> Self {
        Self {
            inner: Arc::new(Inner { core, agent, tls }),
        }
    }

    /// Places a collateral market order (`POST /api/v4/order/collateral/market`) with the
    /// `clientOrderId` it was built with.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`]. An id
    /// this client uses for an order in flight, or used within the last seconds, is refused
    /// before anything is sent ([`Error::ClientOrderIdInUse`]); so is an id with an unresolved
    /// record — of this process, or of an earlier one read from the journal
    /// ([`Error::ResolveFirst`], naming the record and the call that resolves it).
    pub fn collateral_market_order(&self, order: &CollateralMarketOrder) -> Result<Order, Error> {
        let core = &self.inner.core;
        self.drive(core.place_checked(order))
    }

    /// Places a collateral trigger market order
    /// (`POST /api/v4/order/collateral/trigger-market`) with the `clientOrderId` it was built
    /// with.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`].
    pub fn collateral_trigger_market_order(
        &self,
        order: &CollateralTriggerMarketOrder,
    ) -> Result<Order, Error> {
        let core = &self.inner.core;
        self.drive(core.place_checked(order))
    }

    /// Places an order of any type exactly once — a market, trigger-market, limit or
    /// stop-limit order, or an OCO pair ([`Placeable`](crate::outcomes::Placeable)), checked
    /// against its market's rules first: on an unknown outcome, resolves it, and sends it again
    /// (same `clientOrderId`, fresh nonce) only when it was proven not placed. An
    /// unresolved record of the id — of this process, or of an earlier one read from the
    /// journal — is resolved first, before anything is sent. The answer says what proved it
    /// ([`Placed::evidence`](crate::outcomes::Found::evidence)); see
    /// [`PlaceOnce`](txc_core::resolve::PlaceOnce) for when it ends unknown.
    pub fn place_once<O: Placeable + RuledOrder>(
        &self,
        order: &O,
    ) -> Result<Found<O::Placed>, Error> {
        let core = &self.inner.core;
        self.drive(core.place_once_checked(order))
    }

    /// Finds out from proof whether an order whose outcome is unknown was placed, by the rule
    /// [`Resolve`](crate::outcomes::Resolve) states: looks its `clientOrderId` up at once (the
    /// open orders, the history, the conditional orders for a trigger order), and again — to
    /// prove absence — after the attempts' window and the settling delay, twice. Every answer
    /// carries its [`Evidence`](crate::outcomes::Evidence); what it cannot prove either way is
    /// [`Error::OutcomeUnknown`], with the reason.
    pub fn resolve(&self, order: &PendingOrder) -> Result<Resolution, Error> {
        self.drive(self.inner.core.resolve(order.clone()))
    }

    /// The orders this client (and its clones) sent whose outcome is not definite yet — in
    /// flight, unknown or unresolved, and those of earlier processes read from the
    /// [`journal`](crate::ClientBuilder::journal) when it was built — oldest first, each with
    /// why resolving could not tell when it was tried. A future dropped mid-placement, or a
    /// thread that gave up waiting, leaves its order here: [`Client::resolve`] each, or
    /// [`Client::discard_pending`] one settled by hand. While one is unresolved, placing its
    /// `clientOrderId` again is refused before any I/O ([`Error::ResolveFirst`]), except by
    /// [`Client::place_once`], which resolves it first.
    pub fn pending_orders(&self) -> Vec<PendingOrder> {
        self.inner.core.pending_orders()
    }

    /// The investments this client (and its clones) sent whose outcome is not definite yet —
    /// in flight, unknown or unresolved, and those of earlier processes read from the journal
    /// — oldest first: [`Client::resolve_investment`] each, or [`Client::discard_pending`] one
    /// settled by hand. While one is unresolved, investing the same amount in the same plan
    /// again is refused before any I/O ([`Error::ResolveFirst`]), except by
    /// [`Client::invest_once`], which resolves it first.
    pub fn pending_investments(&self) -> Vec<PendingInvestment> {
        self.inner.core.pending_investments()
    }

    /// Forgets an unresolved order, investment, flex investment or flex withdrawal (as
    /// [`Client::pending_orders`], [`Client::pending_investments`],
    /// [`Client::pending_flex_investments`] or [`Client::pending_flex_withdrawals`] listed it)
    /// in the client and its journal, once you have
    /// settled it by hand — the only way a record resolving cannot settle ("cannot tell")
    /// goes. Whether the client held it unresolved (one in flight is left to its call); fails
    /// only when the journal cannot forget it.
    pub fn discard_pending(&self, record: impl Into<PendingRecord>) -> std::io::Result<bool> {
        self.inner.core.discard_pending(&record.into())
    }

    /// Lists or looks up open orders (`POST /api/v4/orders`).
    pub fn open_orders(&self, query: &OpenOrdersQuery) -> Result<Vec<Order>, Error> {
        self.send(query)
    }

    /// Lists or looks up finished orders (`POST /api/v4/trade-account/order/history`); a
    /// `clientOrderId` that matches nothing gives an empty history.
    pub fn order_history(&self, query: &OrderHistoryQuery) -> Result<OrderHistory, Error> {
        self.send(query)
    }

    /// Lists a page of the active conditional orders — OTO groups (an order with a stop-loss
    /// or take-profit) and OCO pairs — (`POST /api/v4/conditional-orders`).
    pub fn conditional_orders(
        &self,
        query: &ConditionalOrdersQuery,
    ) -> Result<ConditionalOrders, Error> {
        self.send(query)
    }

    /// Cancels an open order (`POST /api/v4/order/cancel`); an order that is not open is
    /// [`Cancellation::NotFound`]. Never resent after a failure that leaves its outcome
    /// unknown.
    pub fn cancel_order(&self, cancel: &CancelOrder) -> Result<Cancellation, Error> {
        self.send(cancel)
    }

    /// Lists the smart investment plans (`POST /api/v4/main-account/smart/plans`); only for
    /// B2B partner keys, others get an [`ApiErrorClass::Permission`](crate::errors::ApiErrorClass)
    /// error. Retried on 5xx and transport failures.
    pub fn smart_plans(&self, query: &SmartPlansQuery) -> Result<Vec<InvestmentPlan>, Error> {
        self.send(query)
    }

    /// The collateral balance of every asset or of one
    /// (`POST /api/v4/collateral-account/balance`).
    pub fn collateral_balance(
        &self,
        query: &CollateralBalanceQuery,
    ) -> Result<CollateralBalance, Error> {
        self.send(query)
    }

    /// Each asset's balance, borrowing and availability
    /// (`POST /api/v4/collateral-account/balance-summary`).
    pub fn balance_summary(&self, query: &BalanceSummaryQuery) -> Result<Vec<AssetBalance>, Error> {
        self.send(query)
    }

    /// The collateral account's equity, margin, profit and leverage
    /// (`POST /api/v4/collateral-account/summary`).
    pub fn account_summary(&self) -> Result<AccountSummary, Error> {
        self.send(&AccountSummaryQuery)
    }

    /// The open positions (`POST /api/v4/collateral-account/positions/open`).
    pub fn open_positions(&self, query: &OpenPositionsQuery) -> Result<Vec<Position>, Error> {
        self.send(query)
    }

    /// Position events (`POST /api/v4/collateral-account/positions/history`); an `endDate`
    /// more than a second past the exchange's time is refused before sending.
    pub fn position_history(
        &self,
        query: &PositionHistoryQuery,
    ) -> Result<Vec<PositionEvent>, Error> {
        self.send(query)
    }

    /// Closes a position at the market price (`POST /api/v4/collateral-account/position/close`),
    /// its `positionSide` checked against the account's position mode first. A trade: never
    /// resent after a failure that leaves its outcome unknown — that failure is
    /// [`Error::CloseUnknown`]; [`Client::resolve_close`] it.
    pub fn close_position(&self, close: &ClosePosition) -> Result<Acknowledged, Error> {
        self.drive(self.inner.core.close(close))
    }

    /// Finds out whether a close whose outcome is unknown closed the position: looks it up in
    /// the open positions and the position history until two rounds agree, and answers
    /// "still open" only once no attempt can take effect any more
    /// ([the rule](txc_core::resolve::ResolveClose)). A look-up that fails leaves it unknown.
    pub fn resolve_close(&self, close: &PendingClose) -> Result<CloseResolution, Error> {
        self.drive(self.inner.core.resolve_close(close.clone()))
    }

    /// Sets the account's leverage (`POST /api/v4/collateral-account/leverage`); resent after
    /// an ambiguous failure (setting it again sets the same value).
    pub fn set_leverage(&self, leverage: &SetLeverage) -> Result<LeverageSet, Error> {
        self.send(leverage)
    }

    /// Whether hedge mode is on (`POST /api/v4/collateral-account/hedge-mode`).
    pub fn hedge_mode(&self) -> Result<HedgeMode, Error> {
        self.send(&HedgeModeQuery)
    }

    /// Switches hedge mode (`POST /api/v4/collateral-account/hedge-mode/update`) after
    /// checking that no position or order is open (the exchange refuses it then, code 113).
    pub fn set_hedge_mode(&self, change: &SetHedgeMode) -> Result<Acknowledged, Error> {
        self.drive(self.inner.core.change_mode(*change))
    }

    /// The account's position mode as the clients of this key know it, without a request
    /// (`None` until read or declared).
    pub fn known_position_mode(&self) -> Option<PositionMode> {
        self.inner.core.known_position_mode()
    }

    /// Cancels every open order matching the filters (`POST /api/v4/order/cancel/all`).
    /// Never resent after a failure that leaves its outcome unknown.
    pub fn cancel_all_orders(&self, cancel: &CancelAllOrders) -> Result<Acknowledged, Error> {
        self.send(cancel)
    }

    /// Cancels up to 100 orders, one answer item per order (`POST /api/v4/order/cancel/bulk`).
    /// Never resent after a failure that leaves its outcome unknown.
    pub fn cancel_orders(&self, cancel: &CancelOrders) -> Result<Vec<BulkCancelItem>, Error> {
        self.send(cancel)
    }

    /// Sets or deletes a market's kill-switch timer once (`POST /api/v4/order/kill-switch`);
    /// [`Client::arm_kill_switch`] keeps one armed.
    pub fn set_kill_switch(&self, timer: &SetKillSwitch) -> Result<KillSwitchAnswer, Error> {
        self.send(timer)
    }

    /// The active kill-switch timers (`POST /api/v4/order/kill-switch/status`).
    pub fn kill_switch_status(
        &self,
        query: &KillSwitchStatusQuery,
    ) -> Result<Vec<KillSwitchTimer>, Error> {
        self.send(query)
    }

    /// Arms a market's kill-switch timer and keeps it armed from a thread of its own, as
    /// `schedule` says, for as long as the returned guard lives; dropping the guard deletes
    /// the timer. Every failure — a re-arm, the deletion — goes to `report`, on the guard's
    /// thread (see [`KillSwitch`]). Fails, with no guard, when the first arming fails.
    pub fn arm_kill_switch(
        &self,
        schedule: KillSwitchSchedule,
        report: impl Fn(KillSwitchEvent) + Send + Sync + 'static,
    ) -> Result<KillSwitch, Error> {
        KillSwitch::arm(self.clone(), schedule, Box::new(report))
    }

    /// Invests in a smart plan (`POST /api/v4/main-account/smart/investment`, B2B partners
    /// only); the answer is the new investment's id. Build the request with
    /// [`Invest::in_plan`] to have the plan's status and bounds checked before anything is
    /// sent.
    ///
    /// The request carries no id of the caller's, so it is never resent after an ambiguous
    /// answer (a 5xx, a reset, a lost response): that failure is [`Error::InvestmentUnknown`];
    /// [`Client::resolve_investment`] it, or use [`Client::invest_once`]. Its record (plan,
    /// amount, each attempt's nonce) is journaled before the first byte; an investment of the
    /// plan and amount of an unresolved record is refused before any I/O
    /// ([`Error::ResolveFirst`]).
    pub fn invest(&self, invest: &Invest) -> Result<NewInvestment, Error> {
        self.drive(self.inner.core.invest(invest))
    }

    /// Invests exactly once: on an unknown outcome, finds out from the investments list
    /// whether it was invested, and invests again only when resolving proved it was not (at
    /// most `max_placements` sends in all). An unresolved record of the same plan and amount —
    /// of this process, or of an earlier one read from the journal — is resolved first, before
    /// anything is sent. Never two investments for one call; see
    /// [`ResolveInvestment`](txc_core::resolve::ResolveInvestment) for what proves each answer
    /// (and when, with other writers of the key, it cannot tell).
    pub fn invest_once(&self, invest: &Invest) -> Result<Invested, Error> {
        self.drive(self.inner.core.invest_once(invest))
    }

    /// Finds out whether an investment whose outcome is unknown was made: waits until no
    /// attempt can still be accepted, then reads the investments list twice, the settling
    /// delay apart, for one of the plan and amount created in the attempts' window. A look-up
    /// that fails leaves it unknown ([`Error::InvestmentUnknown`]). Give it the record of an
    /// error, or one of [`Client::pending_investments`] (an earlier process's, read from the
    /// journal); a definite answer clears it there.
    ///
    /// **Whose investment it is.** The list carries no id of the caller's, so a record of the
    /// plan and amount inside the window is this investment only if nobody else invested the
    /// same amount in the same plan with the key meanwhile: with the client's
    /// [`investment_writers`](crate::ClientBuilder::investment_writers) `Shared` (the
    /// default: other processes or people may invest with the key), one such record answers
    /// [`InvestResolution::CannotTell`] with it as the candidate — never "invested" on a
    /// record that may be someone else's — and the record stays unresolved until resolved or
    /// discarded; with `Sole` (your word that this client is the key's only investor, its own
    /// identical investments less than the window apart included) it answers `Invested`.
    /// Several such records cannot tell either way. See
    /// [`ResolveInvestment`](txc_core::resolve::ResolveInvestment) for the whole rule.
    pub fn resolve_investment(
        &self,
        investment: &PendingInvestment,
    ) -> Result<InvestResolution, Error> {
        self.drive(self.inner.core.resolve_investment(investment.clone()))
    }

    /// Closes an investment (`POST /api/v4/main-account/smart/investment/close`): the
    /// principal comes back with the interest the plan pays. Never resent after an ambiguous
    /// answer: look the investment up ([`Client::investments`] by id) to see whether it closed.
    pub fn close_investment(&self, close: &CloseInvestment) -> Result<InvestmentClosed, Error> {
        self.send(close)
    }

    /// A page of the account's investments (`POST /api/v4/main-account/smart/investments`);
    /// [`InvestmentsQuery::next_page`] gives the next one.
    pub fn investments(&self, query: &InvestmentsQuery) -> Result<InvestmentsPage, Error> {
        self.send(query)
    }

    /// A page of the interest payments
    /// (`POST /api/v4/main-account/smart/interest-payment-history`).
    pub fn interest_payments(
        &self,
        query: &InterestPaymentsQuery,
    ) -> Result<InterestPaymentsPage, Error> {
        self.send(query)
    }

    /// The exchange's time (`GET /api/v4/public/time`, public: no key, no nonce), in whole
    /// seconds.
    pub fn server_time(&self) -> Result<ServerTime, Error> {
        self.send(&ServerTimeQuery)
    }

    /// Measures the local clock against the exchange's time and corrects this key's
    /// window-mode nonces by the offset from now on (opt-in; good to about a second). Call it
    /// when a request fails with a nonce outside the ±5 s window ([`ApiError::clock_skew`]
    /// says by how much), or at start-up on a host whose clock you do not trust.
    ///
    /// [`ApiError::clock_skew`]: crate::errors::ApiError::clock_skew
    pub fn sync_clock(&self) -> Result<ClockOffset, Error> {
        self.drive(self.inner.core.sync_clock())
    }

    /// The correction applied to the local clock for this key's window-mode nonces.
    pub fn clock_offset(&self) -> ClockOffset {
        self.inner.core.nonces().clock_offset()
    }

    /// Calls any [`Endpoint`] — these crates' or your own: signs with a fresh nonce, sends,
    /// decodes, retries as the policy allows. Orders go through the named methods, which
    /// resolve; this does not.
    pub fn send<E: Endpoint>(&self, endpoint: &E) -> Result<E::Response, Error> {
        self.drive(self.inner.core.call(endpoint))
    }

    /// Opens the private event stream of this client's key with `subscriptions` (one per
    /// channel) as a blocking iterator, configured by the builder:
    /// [`EventIterBuilder::start`](crate::events::EventIterBuilder::start) starts it.
    #[cfg(feature = "events")]
    #[cfg_attr(docsrs, doc(cfg(feature = "events")))]
    pub fn events(
        &self,
        subscriptions: impl IntoIterator<Item = txc_core::stream::Subscription>,
    ) -> crate::events::EventIterBuilder {
        crate::events::EventIterBuilder::new(self.clone(), subscriptions)
    }

    /// The REST look-ups of a resync of the event stream.
    #[cfg(feature = "events")]
    pub(crate) fn resync_lookups(
        &self,
        plan: txc_core::stream::ResyncPlan,
    ) -> Result<txc_core::stream::ResyncFindings, Error> {
        self.drive(self.inner.core.resync_lookups(plan))
    }

    /// Drives a sans-IO [`Machine`] of `txc-core` to its end over this client's agent:
    /// sleeps when told to wait, sends what it is told to send.
    pub(crate) fn drive<M: Machine>(&self, mut machine: M) -> M::Output {
        let Inner { core, agent, .. } = &*self.inner;
        loop {
            match machine.next(SystemTime::now()) {
                Step::Wait(delay) => match machine.wake() {
                    Some(wake) => {
                        wake.wait(delay);
                    }
                    None => thread::sleep(delay),
                },
                Step::Send(request) => {
                    match round_trip(agent, request.into_http(), core.max_response_bytes()) {
                        Ok(r) => machine
                            .receive(Ok(Response::new(r.status, &r.body).with_headers(&r.headers))),
                        Err(failure) => machine.receive(Err(failure)),
                    }
                }
                Step::Done(output) => return output,
            }
        }
    }

    /// The sans-IO core the client drives.
    pub(crate) fn core(&self) -> &ClientCore {
        &self.inner.core
    }

    /// The TLS the client was built with, for the event stream's connections.
    #[cfg(feature = "events")]
    pub(crate) fn tls(&self) -> &Tls {
        &self.inner.tls
    }

    /// Signs `endpoint` with the next nonce without sending it: a dry run. The request's
    /// `Debug` shows the URL, key and body but not the payload or signature.
    ///
    /// The nonce is used up, as if the request had been sent.
    pub fn prepare<E: Endpoint>(&self, endpoint: &E) -> Result<SignedRequest, Error> {
        self.inner.core.prepare(endpoint, SystemTime::now())
    }

    /// The base URL requests go to, e.g. `https://whitebit.com`.
    pub fn base_url(&self) -> &str {
        self.inner.core.signer().base_url()
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.core.fmt_client(f)
    }
}
