//! What the flex lists answer — the plans offered to an account, its investments and their
//! history, as of a moment (a lagging read) — and the sandbox's own views of them.

use rust_decimal::Decimal;

use super::{DAILY_EARNING, Event, Stored, Version};
use crate::config::{FLEX_ACTIVE, SandboxError};
use crate::rules::{FlexHistoryFilter, FlexInvestmentsFilter, FlexPlansQuery, invalid_field};
use crate::state::State;
use crate::wire::{DataPage, FlexHistoryRecord, FlexInvestmentRecord, FlexPlanRecord, decimal};

impl State {
    /// The active plans offered to `api_key` (public, or private to it), of `query`'s
    /// ticker, in the order configured; an unknown ticker is refused.
    pub(crate) fn flex_plans(
        &self,
        api_key: &str,
        query: &FlexPlansQuery,
    ) -> Result<Vec<FlexPlanRecord>, crate::wire::Rejection> {
        self.known_ticker(query.ticker.as_deref())?;
        let plans = self.flex.plans.iter().filter(|p| {
            p.status == FLEX_ACTIVE
                && p.offered_to(api_key)
                && query.ticker.as_ref().is_none_or(|t| p.record.ticker == *t)
        });
        Ok(query.page.of(plans).map(|p| p.record.clone()).collect())
    }

    /// A page of `api_key`'s investments as reads see them at `as_of_us`, newest first, after
    /// settling the days ended by `now_us`. An `investment` filter not among them, or an
    /// unknown `ticker`, is refused.
    pub(crate) fn flex_investments(
        &mut self,
        api_key: &str,
        filter: &FlexInvestmentsFilter,
        now_us: u64,
        as_of_us: u64,
    ) -> Result<DataPage<FlexInvestmentRecord>, crate::wire::Rejection> {
        self.accrue_flex(now_us);
        self.known_ticker(filter.ticker.as_deref())?;
        let seen: Vec<(&Stored, Version)> = self
            .flex
            .investments
            .iter()
            .filter(|i| i.api_key == api_key)
            .filter_map(|i| i.as_of(as_of_us).map(|v| (i, v)))
            .collect();
        if let Some(id) = &filter.investment
            && !seen.iter().any(|(i, _)| i.id == *id)
        {
            return Err(invalid_field(
                "investment",
                "The selected investment is invalid.",
            ));
        }
        let records = seen
            .iter()
            .rev()
            .filter(|(i, v)| {
                filter.ticker.as_ref().is_none_or(|t| i.currency == *t)
                    && filter.plan.as_ref().is_none_or(|p| i.plan == *p)
                    && filter.investment.as_ref().is_none_or(|id| i.id == *id)
                    && filter.status.is_none_or(|s| s == status(v))
            })
            .map(|(i, v)| investment_record(i, v));
        Ok(DataPage::new(
            filter.page.offset,
            filter.page.limit,
            filter.page.of(records).collect(),
        ))
    }

    /// A page of `api_key`'s flex history as reads see it at `as_of_us` — only its
    /// `DAILY_EARNING` records when `earnings_only` (the payment history) — newest first,
    /// after settling the days ended by `now_us`. An `investment` or `transaction` filter
    /// not among the account's is refused.
    pub(crate) fn flex_history(
        &mut self,
        api_key: &str,
        filter: &FlexHistoryFilter,
        (now_us, as_of_us): (u64, u64),
        earnings_only: bool,
    ) -> Result<DataPage<FlexHistoryRecord>, crate::wire::Rejection> {
        self.accrue_flex(now_us);
        let seen: Vec<&Event> = self
            .flex
            .history
            .iter()
            .filter(|e| e.api_key == api_key && e.at_us <= as_of_us && e.seen_us <= as_of_us)
            .collect();
        if let Some(id) = &filter.investment
            && !seen.iter().any(|e| e.investment == *id)
        {
            return Err(invalid_field(
                "investment",
                "The selected investment is invalid.",
            ));
        }
        if let Some(id) = &filter.transaction
            && !seen.iter().any(|e| e.transaction == *id)
        {
            return Err(invalid_field(
                "transaction",
                "The selected transaction is invalid.",
            ));
        }
        let records = seen
            .iter()
            .rev()
            .filter(|e| {
                let seconds = e.at_us / 1_000_000;
                (!earnings_only || e.action == DAILY_EARNING)
                    && filter.plan.as_ref().is_none_or(|p| e.plan == *p)
                    && filter
                        .investment
                        .as_ref()
                        .is_none_or(|id| e.investment == *id)
                    && filter
                        .transaction
                        .as_ref()
                        .is_none_or(|t| e.transaction == *t)
                    && filter.date_from.is_none_or(|from| seconds >= from)
                    && filter.date_to.is_none_or(|to| seconds <= to)
                    && filter
                        .actions
                        .as_ref()
                        .is_none_or(|a| a.contains(&e.action))
            })
            .map(|e| history_record(e));
        Ok(DataPage::new(
            filter.page.offset,
            filter.page.limit,
            filter.page.of(records).collect(),
        ))
    }

    /// Every flex investment's record in its current state, oldest first, hidden ones
    /// included, with the account's key (`apiKey`), after settling the days ended by
    /// `now_us`.
    pub(crate) fn flex_investment_records(&mut self, now_us: u64) -> Vec<serde_json::Value> {
        self.accrue_flex(now_us);
        self.flex
            .investments
            .iter()
            .filter_map(|i| {
                let mut value = serde_json::to_value(investment_record(i, &i.now())).ok()?;
                value
                    .as_object_mut()?
                    .insert("apiKey".to_owned(), i.api_key.clone().into());
                Some(value)
            })
            .collect()
    }

    /// Every flex history record, oldest first, hidden ones included, with the account's key
    /// (`apiKey`), after settling the days ended by `now_us`.
    pub(crate) fn flex_history_records(&mut self, now_us: u64) -> Vec<serde_json::Value> {
        self.accrue_flex(now_us);
        self.flex
            .history
            .iter()
            .filter_map(|e| {
                let mut value = serde_json::to_value(history_record(e)).ok()?;
                value
                    .as_object_mut()?
                    .insert("apiKey".to_owned(), e.api_key.clone().into());
                Some(value)
            })
            .collect()
    }

    /// Every configured flex plan's record, in the order configured, with the sandbox's
    /// `status` and, for a private plan, the accounts it is offered to (`privateTo`).
    pub(crate) fn flex_plan_records(&self) -> Vec<serde_json::Value> {
        self.flex
            .plans
            .iter()
            .filter_map(|p| {
                let mut value = serde_json::to_value(&p.record).ok()?;
                let object = value.as_object_mut()?;
                object.insert("status".to_owned(), p.status.into());
                if !p.private_to.is_empty() {
                    object.insert("privateTo".to_owned(), p.private_to.clone().into());
                }
                Some(value)
            })
            .collect()
    }

    /// Sets the status of the flex plan `id`, settling the days ended by `now_us` first: `1`
    /// active, `2` unavailable, `3` inactive, `4` paused, any other integer as it is.
    pub(crate) fn set_flex_plan_status(
        &mut self,
        id: &str,
        status: i64,
        now_us: u64,
    ) -> Result<(), SandboxError> {
        self.accrue_flex(now_us);
        let plan = self
            .flex
            .plans
            .iter_mut()
            .find(|p| p.record.id == id)
            .ok_or_else(|| SandboxError::InvalidValue {
                field: "plan",
                value: id.to_owned(),
                reason: "no flex plan has this id",
            })?;
        plan.status = status;
        Ok(())
    }

    /// Refuses a `ticker` that names no currency the sandbox knows.
    fn known_ticker(&self, ticker: Option<&str>) -> Result<(), crate::wire::Rejection> {
        if ticker.is_some_and(|t| !self.known_tickers().contains(t)) {
            return Err(invalid_field("ticker", "The selected ticker is invalid."));
        }
        Ok(())
    }
}

/// The wire status of a version: `1` active, `0` closed.
fn status(version: &Version) -> i64 {
    i64::from(version.active)
}

/// An investment's record in state `version`.
fn investment_record(investment: &Stored, version: &Version) -> FlexInvestmentRecord {
    let invested = if version.active {
        version.invested
    } else {
        Decimal::ZERO
    };
    FlexInvestmentRecord {
        id: investment.id.clone(),
        plan_id: investment.plan.clone(),
        currency: investment.currency.clone(),
        invested: decimal::text(invested),
        with_auto_reinvest: version.reinvest,
        status: status(version),
        created_at: investment.created_us / 1_000_000,
        updated_at: version.at_us / 1_000_000,
    }
}

/// A history record's wire form.
fn history_record(event: &Event) -> FlexHistoryRecord {
    FlexHistoryRecord {
        created_at: event.at_us / 1_000_000,
        plan_id: event.plan.clone(),
        investment_id: event.investment.clone(),
        currency: event.currency.clone(),
        amount: decimal::text(event.amount),
        transaction_id: event.transaction.clone(),
        action_type: event.action,
    }
}
