//! Smart investments: each plan's capacity, the accounts' investments in the plans, and the
//! interest paid on them, judged by the sandbox's clock.
//!
//! Investing takes the amount from the account's main balance and from the plan's
//! `maxPossibleInvestment`; an active plan with nothing left lists as status 2 and answers "no
//! coins left". Interest accrues linearly over the plan's term (`duration` minutes, each
//! [`SandboxBuilder::investment_minute`](crate::SandboxBuilder::investment_minute) long):
//! `amount × percent / 100 × elapsed / term`, capped at the term (the spec gives `percent` as
//! "Interest percent" with no period: the sandbox takes it as the whole term's), and is paid
//! in the plan's `interestTicker` as the source currency's interest divided by `interestRatio`
//! (the spec's rule), rounded down to 8 places. Closing — the partner's, or the term's end,
//! settled when any investment request next arrives — pays the principal back into the main
//! balance and the interest accrued so far, records the payment (none when it is zero), and
//! gives the amount back to the plan.

use std::time::Duration;

use rust_decimal::{Decimal, RoundingStrategy};

use crate::rules::{InvestRequest, InvestmentsFilter, PaymentsFilter, invalid_field};
use crate::state::State;
use crate::wire::{
    ClosedRecord, InterestPaymentRecord, InvestmentRecord, NewInvestmentRecord, PageRecord,
    PlanRecord, Rejection, decimal,
};

/// An investment's status: `1` active, `2` closed.
const ACTIVE: i64 = 1;
const CLOSED: i64 = 2;
/// A plan's status: `1` active, `2` no coins left, `3` inactive, `4` pause.
const PLAN_ACTIVE: i64 = 1;
const PLAN_NO_COINS: i64 = 2;
const PLAN_INACTIVE: i64 = 3;
const PLAN_PAUSE: i64 = 4;

/// One investment.
#[derive(Debug, Clone)]
struct StoredInvestment {
    id: String,
    api_key: String,
    plan_id: String,
    amount: Decimal,
    status: i64,
    created_us: u64,
    updated_us: u64,
    payment_us: u64,
    interest_paid: Decimal,
    /// Listed only from this time on ([`Fault::VisibleAfter`](crate::Fault::VisibleAfter)).
    visible_us: u64,
}

/// One interest payment.
#[derive(Debug, Clone)]
struct StoredPayment {
    api_key: String,
    plan_id: String,
    investment_id: String,
    amount: Decimal,
    ticker: String,
    at_us: u64,
}

/// Every investment and payment, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Investments {
    list: Vec<StoredInvestment>,
    payments: Vec<StoredPayment>,
}

impl State {
    /// Invests `request` for `api_key`, listed `visible_after` from now.
    pub(crate) fn invest(
        &mut self,
        api_key: &str,
        request: InvestRequest,
        visible_after: Duration,
    ) -> Result<NewInvestmentRecord, Rejection> {
        let now = self.clock.now_us();
        self.settle_matured(now);
        let InvestRequest { plan_id, amount } = request;
        let minute_us = self.minute_us();
        let plan = self
            .plans
            .iter()
            .find(|p| p.id == plan_id)
            .ok_or_else(|| invalid_field("planId", "The selected planId is invalid."))?;
        let left = decimal::parse(&plan.max_possible_investment).unwrap_or_default();
        match plan.status {
            PLAN_ACTIVE if left.is_zero() => return Err(no_coins()),
            PLAN_ACTIVE => {}
            PLAN_NO_COINS => return Err(no_coins()),
            PLAN_INACTIVE => return Err(invalid_field("planId", "Plan is inactive")),
            PLAN_PAUSE => return Err(invalid_field("planId", "Plan is paused")),
            _ => return Err(invalid_field("planId", "Plan is disabled")),
        }
        let bound = |text: &str| decimal::parse(text).unwrap_or_default();
        if amount < bound(&plan.min_investment) {
            return Err(Rejection::inner(
                2,
                "amount",
                "Amount is less than min investment",
            ));
        }
        if amount > bound(&plan.max_investment) {
            return Err(Rejection::inner(
                3,
                "amount",
                "Amount is more than max investment",
            ));
        }
        if amount > left {
            return Err(invalid_field(
                "amount",
                "The amount you are trying to invest is bigger than the amount left in this \
                 SMART plan. Please try investing a smaller amount.",
            ));
        }
        let term_us = u64::from(u32::MAX)
            .min(plan.duration)
            .saturating_mul(minute_us);
        let ticker = plan.ticker.clone();
        let account = self
            .accounts
            .get_mut(api_key)
            .ok_or_else(|| invalid_field("planId", "The selected planId is invalid."))?;
        let one_only = account.spec.terms.one_investment_per_plan;
        if one_only
            && self
                .investments
                .list
                .iter()
                .any(|i| i.api_key == api_key && i.plan_id == plan_id && i.status == ACTIVE)
        {
            return Err(Rejection::inner(
                1,
                "amount",
                "The investment in this investment plan already exists",
            ));
        }
        super::take_main(account, &ticker, amount)?;
        self.add_capacity(&plan_id, -amount);
        let id = investment_id(self.investments.list.len() as u64 + 1);
        let visible_us = u64::try_from(visible_after.as_micros()).unwrap_or(u64::MAX);
        self.investments.list.push(StoredInvestment {
            id: id.clone(),
            api_key: api_key.to_owned(),
            plan_id,
            amount,
            status: ACTIVE,
            created_us: now,
            updated_us: now,
            payment_us: now.saturating_add(term_us),
            interest_paid: Decimal::ZERO,
            visible_us: now.saturating_add(visible_us),
        });
        self.stats.investments_made += 1;
        Ok(NewInvestmentRecord { id })
    }

    /// Closes the investment `id` of `api_key`.
    pub(crate) fn close_investment(
        &mut self,
        api_key: &str,
        id: &str,
    ) -> Result<ClosedRecord, Rejection> {
        let now = self.clock.now_us();
        self.settle_matured(now);
        let index = self
            .investments
            .list
            .iter()
            .position(|i| i.id == id && i.api_key == api_key)
            .ok_or_else(|| invalid_field("id", "Investment not found"))?;
        if self.investments.list.get(index).map(|i| i.status) != Some(ACTIVE) {
            return Err(Rejection::inner(0, "error", "Investment is already closed"));
        }
        self.pay_out(index, now);
        self.stats.investments_closed += 1;
        Ok(ClosedRecord::new())
    }

    /// A page of `api_key`'s investments, newest first.
    pub(crate) fn investments_page(
        &mut self,
        api_key: &str,
        filter: &InvestmentsFilter,
    ) -> Result<PageRecord<InvestmentRecord>, Rejection> {
        let now = self.list_request(filter.ticker.as_deref())?;
        let mine = |i: &&StoredInvestment| i.api_key == api_key && i.visible_us <= now;
        if let Some(id) = &filter.id
            && !self
                .investments
                .list
                .iter()
                .filter(mine)
                .any(|i| i.id == *id)
        {
            return Err(invalid_field("id", "The selected id is invalid."));
        }
        let records = self
            .investments
            .list
            .iter()
            .rev()
            .filter(mine)
            .filter(|i| filter.id.as_ref().is_none_or(|id| i.id == *id))
            .filter(|i| filter.status.is_none_or(|s| i.status == s))
            .filter_map(|i| {
                let plan = self.plans.iter().find(|p| p.id == i.plan_id)?;
                let keep = filter.ticker.as_ref().is_none_or(|t| plan.ticker == *t);
                keep.then(|| record(i, plan))
            });
        Ok(PageRecord::new(
            filter.page.offset,
            filter.page.limit,
            filter.page.of(records).collect(),
        ))
    }

    /// A page of `api_key`'s interest payments, newest first.
    pub(crate) fn interest_page(
        &mut self,
        api_key: &str,
        filter: &PaymentsFilter,
    ) -> Result<PageRecord<InterestPaymentRecord>, Rejection> {
        self.list_request(filter.ticker.as_deref())?;
        let payments = self
            .investments
            .payments
            .iter()
            .rev()
            .filter(|p| p.api_key == api_key)
            .filter(|p| filter.plan_id.as_ref().is_none_or(|id| p.plan_id == *id))
            .filter(|p| filter.ticker.as_ref().is_none_or(|t| p.ticker == *t));
        let records = filter
            .page
            .of(payments)
            .map(|p| InterestPaymentRecord {
                plan_id: p.plan_id.clone(),
                investment_id: p.investment_id.clone(),
                amount: decimal::text(p.amount),
                ticker: p.ticker.clone(),
                timestamp: p.at_us / 1_000_000,
            })
            .collect();
        Ok(PageRecord::new(
            filter.page.offset,
            filter.page.limit,
            records,
        ))
    }

    /// Every investment's record, oldest first, hidden ones included.
    pub(crate) fn investment_records(&self) -> Vec<serde_json::Value> {
        self.investments
            .list
            .iter()
            .filter_map(|i| {
                let plan = self.plans.iter().find(|p| p.id == i.plan_id)?;
                serde_json::to_value(record(i, plan)).ok()
            })
            .collect()
    }

    /// What both lists do first: settle what matured, and refuse a `ticker` that names no
    /// currency. The time now.
    fn list_request(&mut self, ticker: Option<&str>) -> Result<u64, Rejection> {
        let now = self.clock.now_us();
        self.settle_matured(now);
        if ticker.is_some_and(|t| !self.known_tickers().contains(t)) {
            return Err(invalid_field("ticker", "The selected ticker is invalid."));
        }
        Ok(now)
    }

    /// Closes every active investment whose term ended by `now`, at its term's end.
    fn settle_matured(&mut self, now: u64) {
        let due: Vec<usize> = (self.investments.list.iter().enumerate())
            .filter(|(_, i)| i.status == ACTIVE && i.payment_us <= now)
            .map(|(n, _)| n)
            .collect();
        for index in due {
            let at = self
                .investments
                .list
                .get(index)
                .map_or(now, |i| i.payment_us);
            self.pay_out(index, at);
        }
    }

    /// Closes investment `index` at `at`: the principal back, the interest accrued paid and
    /// recorded, the amount back to the plan.
    fn pay_out(&mut self, index: usize, at: u64) {
        let minute_us = self.minute_us();
        let Some(investment) = self.investments.list.get(index) else {
            return;
        };
        let Some(plan) = self.plans.iter().find(|p| p.id == investment.plan_id) else {
            return;
        };
        let interest = accrued(investment, plan, at, minute_us);
        let (ticker, interest_ticker) = (plan.ticker.clone(), plan.interest_ticker.clone());
        let (api_key, plan_id, id, amount) = (
            investment.api_key.clone(),
            investment.plan_id.clone(),
            investment.id.clone(),
            investment.amount,
        );
        if let Some(account) = self.accounts.get_mut(&api_key) {
            *account.main.entry(ticker).or_default() += amount;
            *account.main.entry(interest_ticker.clone()).or_default() += interest;
        }
        if let Some(investment) = self.investments.list.get_mut(index) {
            investment.status = CLOSED;
            investment.updated_us = at;
            investment.interest_paid += interest;
        }
        if !interest.is_zero() {
            self.investments.payments.push(StoredPayment {
                api_key,
                plan_id: plan_id.clone(),
                investment_id: id,
                amount: interest,
                ticker: interest_ticker,
                at_us: at,
            });
        }
        self.add_capacity(&plan_id, amount);
    }

    /// Changes a plan's `maxPossibleInvestment` by `delta`; an active plan left with nothing
    /// lists as "no coins left", and becomes active again when capacity comes back (only a
    /// plan that took investments gets any back: one configured as "no coins left" takes none).
    fn add_capacity(&mut self, plan_id: &str, delta: Decimal) {
        let Some(plan) = self.plans.iter_mut().find(|p| p.id == plan_id) else {
            return;
        };
        let left = decimal::parse(&plan.max_possible_investment).unwrap_or_default();
        let left = left.checked_add(delta).unwrap_or(left).max(Decimal::ZERO);
        plan.max_possible_investment = decimal::text(left);
        match (left.is_zero(), plan.status) {
            (true, PLAN_ACTIVE) => plan.status = PLAN_NO_COINS,
            (false, PLAN_NO_COINS) => plan.status = PLAN_ACTIVE,
            _ => {}
        }
    }

    /// The length of a plan minute, in microseconds.
    fn minute_us(&self) -> u64 {
        u64::try_from(self.settings.investment_minute.as_micros()).unwrap_or(u64::MAX)
    }
}

/// "There are no coins left in the plan", on `planId`.
fn no_coins() -> Rejection {
    invalid_field("planId", "There are no coins left in the plan")
}

/// The interest `investment` earned by `at`, in the plan's interest currency, rounded down to
/// 8 places.
fn accrued(investment: &StoredInvestment, plan: &PlanRecord, at: u64, minute_us: u64) -> Decimal {
    let term = plan.duration.saturating_mul(minute_us);
    let elapsed = at.saturating_sub(investment.created_us).min(term);
    let share = if term == 0 {
        Decimal::ONE
    } else {
        Decimal::from(elapsed)
            .checked_div(Decimal::from(term))
            .unwrap_or(Decimal::ONE)
    };
    let percent = decimal::parse(&plan.percent).unwrap_or_default();
    let interest = investment
        .amount
        .checked_mul(percent)
        .and_then(|v| v.checked_div(Decimal::ONE_HUNDRED))
        .and_then(|v| v.checked_mul(share))
        .unwrap_or_default();
    let ratio = decimal::parse(&plan.interest_ratio).unwrap_or(Decimal::ONE);
    let converted = if ratio.is_zero() {
        interest
    } else {
        interest.checked_div(ratio).unwrap_or_default()
    };
    converted.round_dp_with_strategy(8, RoundingStrategy::ToZero)
}

/// An investment's record, with its plan's current record.
fn record(investment: &StoredInvestment, plan: &PlanRecord) -> InvestmentRecord {
    InvestmentRecord {
        id: investment.id.clone(),
        plan: plan.clone(),
        status: investment.status,
        created: investment.created_us / 1_000_000,
        updated: investment.updated_us / 1_000_000,
        payment_time: investment.payment_us / 1_000_000,
        amount: decimal::text(investment.amount),
        interest_paid: decimal::text(investment.interest_paid),
    }
}

/// The `n`th investment's id: a UUID in form (version 4's digits), numbered.
fn investment_id(n: u64) -> String {
    format!("0d7b66ff-1909-4938-ab7a-{n:012x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interest_accrues_over_the_term_and_converts_by_the_ratio() {
        let plan = PlanRecord {
            id: "p".into(),
            ticker: "USDT".into(),
            status: 1,
            percent: "10".into(),
            duration: 100,
            interest_ticker: "BTC".into(),
            interest_ratio: "40000".into(),
            min_investment: "1".into(),
            max_investment: "1000".into(),
            max_possible_investment: "1000".into(),
        };
        let investment = StoredInvestment {
            id: "i".into(),
            api_key: "k".into(),
            plan_id: "p".into(),
            amount: Decimal::from(1000),
            status: ACTIVE,
            created_us: 0,
            updated_us: 0,
            payment_us: 100,
            interest_paid: Decimal::ZERO,
            visible_us: 0,
        };
        // 10 % of 1000 USDT over the whole term = 100 USDT = 0.0025 BTC; half the term, half.
        assert_eq!(accrued(&investment, &plan, 100, 1), Decimal::new(25, 4));
        assert_eq!(accrued(&investment, &plan, 50, 1), Decimal::new(125, 5));
        assert_eq!(accrued(&investment, &plan, 10_000, 1), Decimal::new(25, 4));
        assert_eq!(accrued(&investment, &plan, 0, 1), Decimal::ZERO);
    }
}
