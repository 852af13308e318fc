//! [`ResyncLookups`]: the REST look-ups of a [`ResyncPlan`] as one [`Machine`]: every page of
//! the open orders of each market, every page of each market's history since the gap, each
//! order known open that neither shows, by id, then the open positions when a positions
//! channel is in force.

use std::collections::{BTreeSet, VecDeque};
use std::time::SystemTime;

use txc_types::lookups::{HistoryOrder, OpenOrdersQuery, OrderHistoryQuery};
use txc_types::orders::Order;
use txc_types::positions::{OpenPositionsQuery, Position};
use txc_types::values::Market;

use super::{MAX_PAGES, ResyncPlan};
use crate::machine::Call;
use crate::{ClientCore, Error, Machine, Response, Step, TransportError};

/// Open orders a page (the endpoint's most).
const OPEN_PAGE: u64 = 100;
/// History records a page (the endpoint's most).
const HISTORY_PAGE: u64 = 500;

/// What the look-ups of a [`ResyncPlan`] found, for [`Resyncer::finish`](super::Resyncer::finish).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ResyncFindings {
    /// The open orders of the plan's markets.
    pub open: Vec<Order>,
    /// The finished orders: the history since the gap, and the orders looked up by id.
    pub history: Vec<HistoryOrder>,
    /// Every open position of the account, when the plan reads them.
    pub positions: Option<Vec<Position>>,
    /// REST requests made.
    pub lookups: usize,
    /// Whether a list had more than [`MAX_PAGES`] pages.
    pub truncated: bool,
    /// When the look-ups started.
    pub started_at: Option<SystemTime>,
}

/// One look-up still to make.
#[derive(Debug, Clone)]
enum Lookup {
    Open {
        market: Market,
        page: u64,
    },
    History {
        market: Market,
        since: u64,
        page: u64,
    },
    /// Expands into one `ById` per order known open that no list showed.
    Missing,
    ById {
        market: Market,
        id: u64,
    },
    Positions,
}

/// The call in flight.
enum Current<'a> {
    Open(Lookup, Call<'a, OpenOrdersQuery>),
    History(Lookup, Call<'a, OrderHistoryQuery>),
    Positions(Call<'a, OpenPositionsQuery>),
}

/// The REST look-ups of one resync, as a [`Machine`] a transport drives like any call; its
/// output is what they found, or the first error (each call retried as the client's policy
/// allows). Made by [`ClientCore::resync_lookups`].
pub struct ResyncLookups<'a> {
    core: &'a ClientCore,
    plan: ResyncPlan,
    queue: VecDeque<Lookup>,
    current: Option<Current<'a>>,
    found: ResyncFindings,
    done: bool,
}

impl ClientCore {
    /// Starts the REST look-ups of `plan` (from [`Resyncer::due`](super::Resyncer::due)): a
    /// [`Machine`] for a transport to drive.
    pub fn resync_lookups(&self, plan: ResyncPlan) -> ResyncLookups<'_> {
        let mut queue: VecDeque<Lookup> = plan
            .markets
            .iter()
            .map(|m| Lookup::Open {
                market: m.clone(),
                page: 0,
            })
            .collect();
        if let Some(since) = plan.history_since {
            queue.extend(plan.markets.iter().map(|m| Lookup::History {
                market: m.clone(),
                since,
                page: 0,
            }));
        }
        queue.push_back(Lookup::Missing);
        if plan.positions {
            queue.push_back(Lookup::Positions);
        }
        ResyncLookups {
            core: self,
            plan,
            queue,
            current: None,
            found: empty(),
            done: false,
        }
    }
}

impl ResyncLookups<'_> {
    /// The plan it runs.
    pub fn plan(&self) -> &ResyncPlan {
        &self.plan
    }

    /// Starts the next look-up; `None` when there is none left.
    fn start(&mut self) -> Result<Option<()>, Error> {
        while let Some(lookup) = self.queue.pop_front() {
            let current = match &lookup {
                Lookup::Missing => {
                    let seen: BTreeSet<u64> = self
                        .found
                        .open
                        .iter()
                        .map(|o| o.order_id)
                        .chain(self.found.history.iter().map(|h| h.id))
                        .collect();
                    for (id, market) in &self.plan.known_open {
                        if !seen.contains(id) {
                            self.queue.push_back(Lookup::ById {
                                market: market.clone(),
                                id: *id,
                            });
                        }
                    }
                    continue;
                }
                Lookup::Open { market, page } => {
                    let query = OpenOrdersQuery::builder()
                        .market(market.clone())
                        .limit(OPEN_PAGE)
                        .offset(page * OPEN_PAGE)
                        .build()?;
                    Current::Open(lookup.clone(), self.core.call_owned(query))
                }
                Lookup::History {
                    market,
                    since,
                    page,
                } => {
                    let query = OrderHistoryQuery::builder()
                        .market(market.clone())
                        .start_date(*since)
                        .limit(HISTORY_PAGE)
                        .offset(page * HISTORY_PAGE)
                        .build()?;
                    Current::History(lookup.clone(), self.core.call_owned(query))
                }
                Lookup::ById { market, id } => {
                    let query = OrderHistoryQuery::builder()
                        .market(market.clone())
                        .order_id(*id)
                        .build()?;
                    Current::History(lookup.clone(), self.core.call_owned(query))
                }
                Lookup::Positions => {
                    Current::Positions(self.core.call_owned(OpenPositionsQuery::new()))
                }
            };
            self.found.lookups += 1;
            self.current = Some(current);
            return Ok(Some(()));
        }
        Ok(None)
    }

    /// Queues the next page of `lookup` when its page of `count` records was full.
    fn next_page(&mut self, lookup: Lookup, count: usize) {
        let full = |size: u64| u64::try_from(count).unwrap_or(u64::MAX) >= size;
        let next = match lookup {
            Lookup::Open { market, page } if full(OPEN_PAGE) => Lookup::Open {
                market,
                page: page + 1,
            },
            Lookup::History {
                market,
                since,
                page,
            } if full(HISTORY_PAGE) => Lookup::History {
                market,
                since,
                page: page + 1,
            },
            _ => return,
        };
        let page = match &next {
            Lookup::Open { page, .. } | Lookup::History { page, .. } => *page,
            _ => 0,
        };
        if page >= MAX_PAGES {
            self.found.truncated = true;
        } else {
            self.queue.push_front(next);
        }
    }

    fn finish(&mut self, outcome: Result<(), Error>) -> Step<Result<ResyncFindings, Error>> {
        self.done = true;
        self.current = None;
        Step::Done(outcome.map(|()| std::mem::replace(&mut self.found, empty())))
    }
}

fn empty() -> ResyncFindings {
    ResyncFindings {
        open: Vec::new(),
        history: Vec::new(),
        positions: None,
        lookups: 0,
        truncated: false,
        started_at: None,
    }
}

impl Machine for ResyncLookups<'_> {
    type Output = Result<ResyncFindings, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        if self.done {
            return Step::Done(Err(Error::invalid_config(
                "resync",
                "the look-ups have already finished",
            )));
        }
        self.found.started_at.get_or_insert(now);
        loop {
            if self.current.is_none() {
                match self.start() {
                    Ok(Some(())) => {}
                    Ok(None) => return self.finish(Ok(())),
                    Err(e) => return self.finish(Err(e)),
                }
            }
            let step = match self.current.as_mut() {
                Some(Current::Open(lookup, call)) => match call.next(now).forward() {
                    Ok(step) => return step,
                    Err(outcome) => outcome.map(|orders| {
                        let lookup = lookup.clone();
                        let count = orders.len();
                        self.found.open.extend(orders);
                        (lookup, count)
                    }),
                },
                Some(Current::History(lookup, call)) => match call.next(now).forward() {
                    Ok(step) => return step,
                    Err(outcome) => outcome.map(|history| {
                        let lookup = lookup.clone();
                        let before = self.found.history.len();
                        self.found.history.extend(history.into_orders());
                        (lookup, self.found.history.len() - before)
                    }),
                },
                Some(Current::Positions(call)) => match call.next(now).forward() {
                    Ok(step) => return step,
                    Err(outcome) => outcome.map(|positions| {
                        let count = positions.len();
                        self.found.positions = Some(positions);
                        (Lookup::Positions, count)
                    }),
                },
                None => continue,
            };
            self.current = None;
            match step {
                Ok((lookup, count)) => self.next_page(lookup, count),
                Err(e) => return self.finish(Err(e)),
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match self.current.as_mut() {
            Some(Current::Open(_, call)) => call.receive(response),
            Some(Current::History(_, call)) => call.receive(response),
            Some(Current::Positions(call)) => call.receive(response),
            None => {}
        }
    }
}
