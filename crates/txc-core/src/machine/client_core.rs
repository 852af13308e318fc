//! [`ClientCore`]: the shared state of a client, and where each of its machines starts.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::endpoint::Endpoint;
use txc_types::investments::Invest;
use txc_types::positions::{ClosePosition, PositionMode, SetHedgeMode};
use txc_types::time::ServerTimeQuery;

use super::call::{Call, Held};
use crate::pacing::ExchangeClock;
use crate::resolve::AbsenceRule;
use crate::resolve::CloseSearch;
use crate::resolve::InvestmentSearch;
use crate::resolve::Ledger;
use crate::resolve::MoveLedger;
use crate::resolve::ResolveInvestment;
use crate::resolve::{Close, PendingClose, ResolveClose};
use crate::resolve::{InvestOnce, Investing};
use crate::resolve::{Place, PlaceOnce, Placeable};
use crate::resolve::{Resolve, Resolver};
use crate::risk::{ModeChange, Preflight};
use crate::stream::OrderSightings;
use crate::{
    ClockBounds, Error, NonceMode, NonceSequence, PendingInvestment, PendingOrder, PendingRecord,
    RateLimiter, RatePolicy, RetryPolicy, SignedRequest, Signer, SyncClock,
};

/// How far (ms) a window-mode nonce may run ahead of the clock before the client waits.
///
/// The exchange accepts window-mode nonces within ±5 s of its time, one per millisecond per
/// key, so a key sending more than ~1 000 requests/s makes `max(now, last + 1)` run ahead
/// of the clock. Pacing at 3 s leaves 2 s for clock skew and in-flight races.
pub const MAX_NONCE_LEAD_MS: u64 = 3_000;

/// The default cap on a response body, in bytes.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 1 << 20;

/// The shared state of a client — signer, the key's nonce sequence and rate limiter, and the
/// settings its machines follow — and where each of its machines starts. Made by
/// [`ClientConfig::build`](crate::ClientConfig::build); cheap to clone (clones share the
/// nonce sequence and the limiter).
#[derive(Debug, Clone)]
pub struct ClientCore {
    pub(crate) signer: Signer,
    pub(crate) key_seed: u64,
    pub(crate) nonces: NonceSequence,
    pub(crate) nonce_mode: NonceMode,
    pub(crate) retry: RetryPolicy,
    pub(crate) max_response_bytes: usize,
    pub(crate) absence_rule: AbsenceRule,
    pub(crate) b2b_account: bool,
    pub(crate) resend_when_cancels_are_invisible: bool,
    pub(crate) max_placements: u32,
    pub(crate) exchange_clock: ExchangeClock,
    pub(crate) ledger: Ledger,
    /// Its operations that move money (investments, flex investments and withdrawals) in
    /// flight or unresolved.
    pub(crate) moves: MoveLedger,
    /// Its modifies in flight or unresolved.
    pub(crate) modifies: crate::resolve::ModifyLedger,
    pub(crate) rate_limiter: Option<RateLimiter>,
    pub(crate) rate_policy: RatePolicy,
    pub(crate) mode_check: crate::ModeCheck,
    /// The account's position mode as the clients of the key know it.
    pub(crate) mode: crate::risk::ModeCache,
    pub(crate) rules_check: crate::MarketRulesCheck,
    /// The markets' rules as the clients of the exchange know them.
    pub(crate) rules: crate::risk::RulesCache,
    /// Where the client's streams publish the orders they see.
    pub(crate) sightings: OrderSightings,
    /// Whether others may invest with the key.
    pub(crate) investment_writers: crate::InvestmentWriters,
    /// Told each stage resolving goes through.
    pub(crate) resolve_observer: Option<crate::StageObserver>,
    /// Told each wait the rate limiter imposes.
    pub(crate) rate_wait_observer: Option<crate::pacing::RateWaitObserver>,
}

impl ClientCore {
    /// Writes a transport's `Client` of this core for its `Debug`: the key (never the secret),
    /// base URL, nonce mode, retry policy and response cap.
    pub fn fmt_client(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("api_key", &self.signer.credentials().api_key())
            .field("base_url", &self.signer.base_url())
            .field("nonce_mode", &self.nonce_mode)
            .field("retry", &self.retry)
            .field("max_response_bytes", &self.max_response_bytes)
            .finish_non_exhaustive()
    }

    /// The rate limiter, if the core limits its rate.
    pub fn rate_limiter(&self) -> Option<&RateLimiter> {
        self.rate_limiter.as_ref()
    }

    /// What a request does when the limiter has no slot yet.
    pub fn rate_policy(&self) -> RatePolicy {
        self.rate_policy
    }

    /// Starts measuring the local clock against the exchange's (`GET /api/v4/public/time`)
    /// and, once measured, correcting the key's window-mode nonces by the offset: a
    /// [`SyncClock`] machine.
    pub fn sync_clock(&self) -> SyncClock<'_> {
        SyncClock::new(self.call_owned(ServerTimeQuery))
    }

    /// The settling delay resolving ([`Resolve`], [`ResolveClose`], [`ResolveInvestment`])
    /// spaces its rounds of look-ups by (before it is raised to its floor, the nonce window
    /// plus the measured skew, unless the timing is unproven).
    pub fn settle_delay(&self) -> Duration {
        self.absence_rule.delay()
    }

    /// The rule resolving proves absence by: the settling delay, and whether its timing is the
    /// rule's or the caller's (`unproven_settle_delay`, `unproven_acceptance_window`).
    pub fn absence_rule(&self) -> AbsenceRule {
        self.absence_rule
    }

    /// Whether the account is a B2B account, whose canceled orders the exchange does not record
    /// in the history: resolving then cannot tell an absent order from a canceled one.
    pub fn b2b_account(&self) -> bool {
        self.b2b_account
    }

    /// Whether [`PlaceOnce`] resends an order that resolving cannot tell from a canceled one
    /// (a B2B account's absence).
    pub fn resend_when_cancels_are_invisible(&self) -> bool {
        self.resend_when_cancels_are_invisible
    }

    /// The exchange's clock as this client measured it (the `Date` of every answer, the server
    /// time), if it measured it yet.
    pub fn clock_bounds(&self) -> Option<ClockBounds> {
        self.exchange_clock.bounds()
    }

    pub(crate) fn exchange_clock(&self) -> &ExchangeClock {
        &self.exchange_clock
    }

    pub(crate) fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    pub(crate) fn moves(&self) -> &MoveLedger {
        &self.moves
    }

    /// The orders this client (and its clones) sent whose outcome is not definite yet —
    /// in flight, unknown or unresolved, and those of earlier processes read from the journal
    /// when it was built — oldest first, each placement's record apart, with why resolving
    /// could not tell when it was tried ([`PendingOrder::reason`]). A future dropped
    /// mid-placement leaves its order here; [`resolve`](Self::resolve) each, or
    /// [`discard_pending`](Self::discard_pending) one settled by hand.
    pub fn pending_orders(&self) -> Vec<PendingOrder> {
        self.ledger.pending()
    }

    /// The investments this client (and its clones) sent whose outcome is not definite yet —
    /// in flight, unknown or unresolved, and those of earlier processes read from the journal
    /// — oldest first, with why resolving could not tell when it was tried;
    /// [`resolve_investment`](Self::resolve_investment) each, or
    /// [`discard_pending`](Self::discard_pending) one settled by hand.
    pub fn pending_investments(&self) -> Vec<PendingInvestment> {
        self.moves.pending()
    }

    /// Forgets an unresolved record — an order's, an investment's, a flex investment's or a
    /// flex withdrawal's, as `pending_orders`, `pending_investments`,
    /// `pending_flex_investments` or `pending_flex_withdrawals` listed it (the one with its
    /// key) — in the client and its journal, once the caller has settled it by hand (looked it up, asked the exchange):
    /// the only way a record resolving cannot settle ("cannot tell") goes. Whether the client
    /// held it unresolved; a record in flight is left to its call (`false`). Fails only when
    /// the journal cannot forget it.
    pub fn discard_pending(&self, record: &PendingRecord) -> std::io::Result<bool> {
        match record {
            PendingRecord::Order(order) => self.ledger.discard(order),
            PendingRecord::Modify(modify) => self.modifies.discard(modify),
            other => self.moves.discard(other),
        }
    }

    /// Whether others may invest with the key ([`InvestmentWriters`](crate::InvestmentWriters)).
    pub fn investment_writers(&self) -> crate::InvestmentWriters {
        self.investment_writers
    }

    /// How many times [`PlaceOnce`] may send an order (and [`InvestOnce`] an investment) in
    /// all.
    pub fn max_placements(&self) -> u32 {
        self.max_placements
    }

    /// Starts placing `order` (with the `clientOrderId` it was built with): a [`Place`]
    /// machine.
    pub fn place<'a, O: Placeable>(&'a self, order: &'a O) -> Place<'a, O> {
        Place::new(self, self.call(order), true)
    }

    /// Starts resolving `order`: a [`Resolve`] machine, which takes an event of the order
    /// published to [`order_sightings`](Self::order_sightings) as proof too.
    pub fn resolve(&self, order: PendingOrder) -> Resolve<'_> {
        Resolve::of_order(self, order, "resolve")
    }

    /// Where the client's event streams publish the orders they see, and where resolving an
    /// order looks for its events ([`OrderSightings`]): the client's own, shared by its clones,
    /// or the one given to the `order_sightings` setting. Once a stream has published to
    /// it, the client expects each order it places from before its first attempt until its
    /// outcome is definite.
    pub fn order_sightings(&self) -> &OrderSightings {
        &self.sightings
    }

    /// Starts placing `order` exactly once: a [`PlaceOnce`] machine.
    pub fn place_once<O: Placeable>(&self, order: &O) -> PlaceOnce<'_, O> {
        PlaceOnce::new(self, order.clone())
    }

    /// `then` — placing `order`, say — after checking the order's `positionSide` against the
    /// account's position mode, read first if not yet known: a [`Preflight`] machine (see
    /// [`ModeCheck`](crate::ModeCheck) for the rules and the look-up it adds). When the client
    /// holds an unresolved record of the order's `clientOrderId`, the mode is not read: `then`
    /// comes first (a plain [`place`](Self::place) refuses it before any I/O; `place_once`
    /// resolves it), checked against the mode only if it is known.
    pub fn preflight<O: Placeable, M>(&self, order: &O, then: M) -> Preflight<'_, M> {
        let unresolved = self
            .ledger
            .holds_unresolved(order.market(), order.client_order_id());
        Preflight::new(self, order.position_side(), then).without_read(unresolved)
    }

    /// Starts closing a position, its side checked against the account's position mode
    /// first: a [`Close`] inside a [`Preflight`].
    pub fn close<'a>(&'a self, close: &'a ClosePosition) -> Preflight<'a, Close<'a>> {
        Preflight::new(self, close.side(), Close::new(self.call(close)))
    }

    /// Starts resolving a close whose outcome is unknown: a [`ResolveClose`] machine.
    pub fn resolve_close(&self, close: PendingClose) -> ResolveClose<'_> {
        Resolver::new(self, CloseSearch::new(close))
    }

    /// Starts switching hedge mode after checking that no position or order is open: a
    /// [`ModeChange`] machine.
    pub fn change_mode(&self, change: SetHedgeMode) -> ModeChange<'_> {
        ModeChange::new(self, change)
    }

    /// The account's position mode as the clients of this key on this exchange know it
    /// (`None` until read or declared).
    pub fn known_position_mode(&self) -> Option<PositionMode> {
        self.mode.get()
    }

    /// How the key's orders are checked against its position mode.
    pub fn position_mode_check(&self) -> crate::ModeCheck {
        self.mode_check
    }

    /// Starts investing: an [`Investing`] machine. An ambiguous answer ends it as
    /// [`Error::InvestmentUnknown`]; it is never resent.
    pub fn invest<'a>(&'a self, invest: &'a Invest) -> Investing<'a> {
        Investing::new(self.call(invest), true)
    }

    /// Starts resolving an investment whose outcome is unknown: a [`ResolveInvestment`]
    /// machine.
    pub fn resolve_investment(&self, investment: PendingInvestment) -> ResolveInvestment<'_> {
        Resolver::new(self, InvestmentSearch::new(investment))
    }

    /// Starts investing exactly once: an [`InvestOnce`] machine.
    pub fn invest_once(&self, invest: &Invest) -> InvestOnce<'_> {
        InvestOnce::new(self, invest.clone())
    }

    /// The signer.
    pub fn signer(&self) -> &Signer {
        &self.signer
    }

    /// The nonce sequence.
    pub fn nonces(&self) -> &NonceSequence {
        &self.nonces
    }

    /// How the exchange checks nonces.
    pub fn nonce_mode(&self) -> NonceMode {
        self.nonce_mode
    }

    /// The retry policy.
    pub fn retry(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The response-size cap in bytes.
    pub fn max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// Signs `endpoint` with the next nonce at `now`, without sending (a dry run).
    pub fn prepare<E: Endpoint>(
        &self,
        endpoint: &E,
        now: SystemTime,
    ) -> Result<SignedRequest, Error> {
        // The endpoint's rules that depend on the time, on the exchange's clock as far as the
        // client knows it (the clock offset applied).
        endpoint.check_at(UNIX_EPOCH + Duration::from_millis(self.nonces.time_of(now)))?;
        if !E::SIGNED {
            return Ok(self.signer.public::<E>()?);
        }
        Ok(self.signer.sign(
            endpoint,
            self.nonces.next(self.nonces.time_of(now)),
            self.nonce_mode,
        )?)
    }

    /// How long to wait at `now` before signing, so that a window-mode nonce stays within
    /// [`MAX_NONCE_LEAD_MS`] of the clock; `None` to sign now. Without the nonce window the
    /// exchange only needs increasing nonces, so there is never a wait.
    pub fn pace(&self, now: SystemTime) -> Option<Duration> {
        if self.nonce_mode == NonceMode::Strict {
            return None;
        }
        let next = self.nonces.last().saturating_add(1);
        let lead = next.saturating_sub(self.nonces.time_of(now));
        (lead > MAX_NONCE_LEAD_MS).then(|| Duration::from_millis(lead - MAX_NONCE_LEAD_MS))
    }

    /// Starts a call of `endpoint`: a [`Machine`](crate::Machine) for a transport to drive.
    pub fn call<'a, E: Endpoint>(&'a self, endpoint: &'a E) -> Call<'a, E> {
        Call::new(self, Held::Borrowed(endpoint))
    }

    /// Starts a call of an endpoint value the call keeps.
    pub(crate) fn call_owned<E: Endpoint>(&self, endpoint: E) -> Call<'_, E> {
        Call::new(self, Held::Owned(endpoint))
    }
}

/// A seed per API key (FNV-1a), so clients of different keys retry out of step.
pub(crate) fn key_seed(api_key: &str) -> u64 {
    api_key.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_get_their_own_seeds() {
        assert_ne!(super::key_seed("a"), super::key_seed("b"));
    }
}
