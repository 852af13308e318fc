//! [`OcoSearch`]: finding an OCO pair again by its `clientOrderId` — the active pairs
//! (`/oco-orders`), then its legs among the open orders and in the history (a leg executed,
//! the pair gone from the list) — and [`ResolveOco`], the [`Resolver`] with it.

use std::time::SystemTime;

use txc_types::orders::{OcoOrder, OcoOrdersQuery};
use txc_types::values::{ClientOrderId, Market};

use super::evidence::{AcceptanceWindow, Evidence, Flaw, Sighting};
use super::order_search::{OrderSearch, order_answer};
use super::outcome::{Found, PlacedOrder, Resolution};
use super::resolver::{EventProof, Resolver};
use super::search::{Lookup, Outcome, RoundFindings, RoundMachine, Search};
use crate::machine::Call;
use crate::{
    AttemptRecord, ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError,
};

/// An OCO pair as the exchange showed it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// One per resolution: matching on it beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub enum PlacedOco {
    /// The placement's own answer: the pair's id and both legs.
    Answered(OcoOrder),
    /// Listed among the active pairs (`/oco-orders`).
    Listed(OcoOrder),
    /// One of its legs, found among the open orders, in the history (a leg executed or was
    /// canceled, and the pair left the list) or by the event stream: the pair was placed.
    Leg(PlacedOrder),
}

impl PlacedOco {
    /// The pair, when the record shows it whole (its id and legs).
    pub fn pair(&self) -> Option<&OcoOrder> {
        match self {
            Self::Answered(pair) | Self::Listed(pair) => Some(pair),
            Self::Leg(_) => None,
        }
    }
}

impl Found<PlacedOco> {
    /// The pair's id, when the record shows it (a leg alone does not).
    pub fn pair_id(&self) -> Option<u64> {
        self.record.pair().map(|pair| pair.id)
    }
}

/// Resolves an OCO pair whose outcome is unknown: a [`Resolver`] with the OCO look-ups
/// ([`OcoSearch`]), by the rule [`Resolve`](super::Resolve) states for an order — "placed" only
/// for a pair (or a leg) with the `clientOrderId` created inside the attempts' window, "not
/// placed" only for absence proven twice — and an event of a leg on the client's stream as
/// proof too.
pub type ResolveOco<'a> = Resolver<'a, OcoSearch>;

/// How many pairs a page of the listing holds when it is read to its end.
const PAGE: u64 = OcoOrdersQuery::MAX_LIMIT;
/// The most pages of the listing read in a round.
const MAX_PAGES: u64 = 100;

/// The look-ups that find an OCO pair by its `clientOrderId` (the [`Search`] of
/// [`ResolveOco`]). A round asks, in order, and stops at the first record inside the window:
///
/// 1. every page of the market's active pairs (`POST /api/v4/oco-orders`), for a pair whose
///    legs carry the id;
/// 2. the order look-ups of [`OrderSearch`] for the id — the open orders (each leg rests
///    there while the pair is active), the history (a leg that executed, or was canceled), the
///    conditional orders — for the leg of a pair that left the list.
#[derive(Debug, Clone)]
pub struct OcoSearch {
    legs: OrderSearch,
}

impl OcoSearch {
    /// The search for the pair `order` records (its market, id and attempts), placed by
    /// `operation`.
    pub fn new(order: PendingOrder, operation: &'static str) -> Self {
        Self {
            legs: OrderSearch::new(order, operation),
        }
    }

    /// The pair searched for, as its pending record.
    pub fn order(&self) -> &PendingOrder {
        self.legs.order()
    }
}

impl<'a> ResolveOco<'a> {
    /// Resolves the pair `order` records, by the look-ups and by what the streams publishing
    /// to the client's sightings show of a leg.
    pub(crate) fn of_pair(
        core: &'a ClientCore,
        order: PendingOrder,
        operation: &'static str,
    ) -> Self {
        let watch = core
            .order_sightings()
            .expect(order.market().as_str(), order.client_order_id().as_str());
        let events = EventProof::new(watch, |seen| seen.order.clone().map(PlacedOco::Leg));
        Resolver::new(core, OcoSearch::new(order, operation)).with_events(events)
    }
}

impl Search for OcoSearch {
    type Record = PlacedOco;
    type Answer = Resolution<PlacedOco>;

    fn attempts(&self) -> &[AttemptRecord] {
        self.legs.attempts()
    }

    fn round<'a>(
        &self,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, PlacedOco> {
        let order = self.legs.order();
        let market = order.market().clone();
        let query = OcoOrdersQuery::page(market.clone(), 0);
        Box::new(OcoRound {
            core,
            market,
            id: order.client_order_id().clone(),
            window: window.cloned(),
            legs: self.legs.round(core, window),
            stage: Stage::Listing(core.call_owned(query), 0),
            findings: RoundFindings::default(),
        })
    }

    fn answer(
        &self,
        core: &ClientCore,
        outcome: Outcome<PlacedOco>,
    ) -> Result<Resolution<PlacedOco>, Error> {
        Ok(order_answer(core, self.order(), outcome))
    }

    fn unknown(&self, cause: Error, evidence: Evidence) -> Error {
        self.legs.unknown(cause, evidence)
    }

    fn unresolved(&self, core: &ClientCore, reason: &str) {
        self.legs.unresolved(core, reason);
    }

    fn subject(&self) -> String {
        format!("OCO {}", self.legs.subject())
    }
}

/// Where a round is.
// One per resolution, and the listing is where it starts: boxing it would allocate per look-up.
#[allow(clippy::large_enum_variant)]
enum Stage<'a> {
    /// Reading the page of the active pairs at the offset.
    Listing(Call<'a, OcoOrdersQuery>, u64),
    /// The order look-ups for the legs.
    Legs,
    Done,
}

/// One round of [`OcoSearch`].
struct OcoRound<'a> {
    core: &'a ClientCore,
    market: Market,
    id: ClientOrderId,
    window: Option<AcceptanceWindow>,
    /// The order search's round, for the legs.
    legs: RoundMachine<'a, PlacedOrder>,
    stage: Stage<'a>,
    findings: RoundFindings<PlacedOco>,
}

impl OcoRound<'_> {
    /// Notes the pairs of a page whose legs carry the id; whether one was created inside the
    /// window.
    fn listed(&mut self, pairs: Vec<OcoOrder>) -> bool {
        let mut ours = false;
        for pair in pairs {
            let carrying = pair
                .legs()
                .find(|leg| leg.client_order_id.as_ref() == Some(&self.id))
                .map(|leg| (leg.market == self.market, leg.timestamp.to_system_time()));
            match carrying {
                Some((true, created)) => {
                    ours |= self.window.as_ref().is_some_and(|w| w.contains(created));
                    self.findings
                        .candidate(Sighting::new(pair.id, created), PlacedOco::Listed(pair));
                }
                Some((false, _)) => self.findings.flaw(Flaw::FilterIgnored { id: pair.id }),
                None => {
                    if pair.legs().any(|leg| leg.market != self.market) {
                        self.findings.flaw(Flaw::FilterIgnored { id: pair.id });
                    }
                }
            }
        }
        ours
    }

    fn finish(&mut self) -> Step<RoundFindings<PlacedOco>> {
        self.stage = Stage::Done;
        Step::Done(std::mem::take(&mut self.findings))
    }
}

impl Machine for OcoRound<'_> {
    type Output = RoundFindings<PlacedOco>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match &mut self.stage {
            Stage::Listing(call, offset) => {
                let offset = *offset;
                match self.findings.answer("oco_orders", call, now) {
                    Lookup::Pending(step) => step,
                    Lookup::Failed(e) => {
                        self.findings.fail(e);
                        self.finish()
                    }
                    Lookup::Answered(pairs) => {
                        let count = u64::try_from(pairs.len()).unwrap_or(u64::MAX);
                        if self.listed(pairs) {
                            return self.finish();
                        }
                        let next = offset.saturating_add(PAGE);
                        if count >= PAGE && next / PAGE >= MAX_PAGES {
                            self.findings
                                .flaw(Flaw::Incomplete(format!("more than {next} OCO pairs")));
                            return self.finish();
                        }
                        self.stage = if count >= PAGE {
                            let query = OcoOrdersQuery::page(self.market.clone(), next);
                            Stage::Listing(self.core.call_owned(query), next)
                        } else {
                            Stage::Legs
                        };
                        self.next(now)
                    }
                }
            }
            Stage::Legs => match self.legs.next(now) {
                Step::Done(found) => {
                    self.findings.extend_with(found, PlacedOco::Leg);
                    self.finish()
                }
                Step::Wait(delay) => Step::Wait(delay),
                Step::Send(request) => Step::Send(request),
            },
            Stage::Done => Step::Done(RoundFindings::default()),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Listing(call, _) => call.receive(response),
            Stage::Legs => self.legs.receive(response),
            Stage::Done => {}
        }
    }
}
