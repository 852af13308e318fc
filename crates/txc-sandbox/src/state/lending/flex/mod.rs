//! Flexible lending (the spec's "Crypto Lending - Flex"): the flex plans' live status, each
//! account's investment per plan — topped up, withdrawn from, reinvesting, closed and reopened
//! — its earnings accrued day by day, and the history of every operation, judged by the
//! sandbox's clock.
//!
//! # The model (the sandbox's decisions where the spec is silent)
//!
//! - **One investment per account and plan.** Every operation names the plan: investing
//!   creates the investment (history `INVEST`, 1), tops it up (`INVEST`), or reopens it once
//!   closed (`OPEN_INVESTMENT`, 6) — one record per call, with the amount and the call's
//!   transaction id. Withdrawing writes `WITHDRAW_FROM_INVESTMENT` (3), closing
//!   `CLOSE_INVESTMENT` (5) with everything paid back; a closed investment lists with status
//!   `0` and `invested` `"0"`.
//! - **Accrual.** A flex day lasts [`SandboxBuilder::flex_accrual_interval`](crate::SandboxBuilder::flex_accrual_interval)
//!   (a day by default); at each multiple of it since the Unix epoch, every active
//!   investment earns `principal × maxRate / 365` cut to 8 places, where the principal is
//!   the least amount that stayed invested through the whole day (money invested during a
//!   day earns from the next; a withdrawal lowers the day's principal at once). A non-zero
//!   earning is a `DAILY_EARNING` (4) record, paid to the main balance — or, with
//!   auto-reinvestment, added to the investment with a `REINVEST` (2) record of the same
//!   amount. `txc_types::investments::flex::accrual` is the same arithmetic written
//!   separately; the tests hold the two together.
//! - **When.** Accrual is settled before every flex request, every [`Sandbox`](crate::Sandbox)
//!   read of it, and every 10 ms by the sandbox's tick; records carry the time of the day's
//!   end, not of the settling.
//! - **Reads** can lag ([`Fault::Lagging`](crate::Fault::Lagging): the lists as they were a
//!   while ago) and an investment can stay out of them for a while
//!   ([`Fault::VisibleAfter`](crate::Fault::VisibleAfter)): each change of an investment is
//!   kept as a version, each history record with the time reads may see it.

mod accrual;
mod moves;
mod reads;
#[cfg(test)]
mod tests;

use std::time::Duration;

use rust_decimal::Decimal;

use crate::config::FlexPlanSpec;

/// The history's action codes.
pub(crate) const INVEST: i64 = 1;
pub(crate) const REINVEST: i64 = 2;
pub(crate) const WITHDRAW: i64 = 3;
pub(crate) const DAILY_EARNING: i64 = 4;
pub(crate) const CLOSE: i64 = 5;
pub(crate) const OPEN: i64 = 6;

/// The shortest flex day: a millisecond.
const MIN_INTERVAL_US: u64 = 1_000;

/// Every flex plan's live status, every investment and the history, oldest first.
#[derive(Debug)]
pub(crate) struct FlexLending {
    /// The plans as configured, each with its current status.
    plans: Vec<FlexPlanSpec>,
    investments: Vec<Stored>,
    history: Vec<Event>,
    /// A flex day, in microseconds.
    day_us: u64,
    /// The last day end settled (its index: microseconds since the epoch / `day_us`).
    settled: Option<u64>,
    /// Transactions issued.
    transactions: u64,
}

/// One account's investment in one plan.
#[derive(Debug, Clone)]
struct Stored {
    id: String,
    api_key: String,
    plan: String,
    currency: String,
    created_us: u64,
    /// Every state it has been in, oldest first; the last is the current one.
    versions: Vec<Version>,
    /// The least invested since the last day end: what the day earns on.
    floor: Decimal,
}

/// An investment's state from `at_us` on, which reads see from `seen_us` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Version {
    at_us: u64,
    seen_us: u64,
    invested: Decimal,
    reinvest: bool,
    active: bool,
}

/// One history record.
#[derive(Debug, Clone)]
struct Event {
    at_us: u64,
    /// When reads may see it.
    seen_us: u64,
    api_key: String,
    plan: String,
    investment: String,
    currency: String,
    amount: Decimal,
    transaction: String,
    action: i64,
}

impl FlexLending {
    /// The plans `plans`, nothing invested, days of `day`.
    pub(crate) fn new(plans: &[FlexPlanSpec], day: Duration) -> Self {
        Self {
            plans: plans.to_vec(),
            investments: Vec::new(),
            history: Vec::new(),
            day_us: u64::try_from(day.as_micros())
                .unwrap_or(u64::MAX)
                .max(MIN_INTERVAL_US),
            settled: None,
            transactions: 0,
        }
    }

    /// Every configured plan's currency.
    pub(crate) fn tickers(&self) -> impl Iterator<Item = &str> {
        self.plans.iter().map(|p| p.record.ticker.as_str())
    }

    /// The plan `id`.
    fn plan(&self, id: &str) -> Option<&FlexPlanSpec> {
        self.plans.iter().find(|p| p.record.id == id)
    }

    /// The index of `api_key`'s investment in `plan`, if it has one.
    fn position(&self, api_key: &str, plan: &str) -> Option<usize> {
        self.investments
            .iter()
            .position(|i| i.api_key == api_key && i.plan == plan)
    }

    /// A new transaction id, UUID-shaped and numbered.
    fn transaction(&mut self) -> String {
        self.transactions += 1;
        format!("tx_9f3e0d4c-2b5c-4d3e-8f6a-{:012x}", self.transactions)
    }

    /// Records `action` of `amount` on the investment at `index`, at `at_us`, seen from
    /// `seen_us`, under `transaction`.
    fn record(
        &mut self,
        index: usize,
        action: i64,
        amount: Decimal,
        transaction: &str,
        (at_us, seen_us): (u64, u64),
    ) {
        let Some(stored) = self.investments.get(index) else {
            return;
        };
        let event = Event {
            at_us,
            seen_us,
            api_key: stored.api_key.clone(),
            plan: stored.plan.clone(),
            investment: stored.id.clone(),
            currency: stored.currency.clone(),
            amount,
            transaction: transaction.to_owned(),
            action,
        };
        self.history.push(event);
    }
}

impl Stored {
    /// The current state.
    fn now(&self) -> Version {
        self.versions.last().copied().unwrap_or(Version {
            at_us: self.created_us,
            seen_us: self.created_us,
            invested: Decimal::ZERO,
            reinvest: false,
            active: false,
        })
    }

    /// The state reads see at `as_of_us`: the last version seen by then, if any.
    fn as_of(&self, as_of_us: u64) -> Option<Version> {
        self.versions
            .iter()
            .rev()
            .find(|v| v.at_us <= as_of_us && v.seen_us <= as_of_us)
            .copied()
    }

    /// Moves to a new state at `at_us`, seen from `seen_us`.
    fn change(&mut self, at_us: u64, seen_us: u64, change: impl FnOnce(&mut Version)) {
        let mut next = self.now();
        change(&mut next);
        next.at_us = at_us;
        next.seen_us = seen_us.max(at_us);
        self.versions.push(next);
    }
}

/// The `n`th investment's id, shaped as the spec's example (`inv_` and a UUID).
fn investment_id(n: usize) -> String {
    format!("inv_7e2d9c3b-1a4b-4c2d-9e5f-{n:012x}")
}
