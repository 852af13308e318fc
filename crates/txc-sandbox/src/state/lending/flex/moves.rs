//! The flex operations that move money — invest, withdraw, close — and auto-invest, each
//! checked against the state in the spec's order of refusals.

use std::time::Duration;

use rust_decimal::Decimal;

use super::{CLOSE, FlexLending, INVEST, OPEN, Stored, Version, WITHDRAW, investment_id};
use crate::config::{FLEX_ACTIVE, FLEX_INACTIVE, FLEX_PAUSED, FlexPlanSpec};
use crate::rules::{AutoInvestRequest, FlexInvestRequest, FlexWithdrawRequest, invalid_field};
use crate::state::State;
use crate::wire::{EmptyData, Rejection, TransactionRecord};

impl State {
    /// Invests `request` for `api_key` at `now_us`: creates, tops up or reopens its
    /// investment in the plan; the history shows it `visible_after` from now. Refusals, in
    /// order: an inactive plan (400), an unavailable or paused one, a private plan of another
    /// account (422, code 0), below `minInvestment` (code 2), above `maxInvestment` (code 3),
    /// beyond `maxInvestment` together with what is invested (code 0, `Investment limit is
    /// exceeded`), more than the main balance (code 4, `Available 9 < 10`).
    pub(crate) fn flex_invest(
        &mut self,
        api_key: &str,
        request: FlexInvestRequest,
        now_us: u64,
        visible_after: Duration,
    ) -> Result<TransactionRecord, Rejection> {
        self.accrue_flex(now_us);
        let FlexInvestRequest {
            plan,
            amount,
            with_reinvest,
        } = request;
        let spec = self.flex.plan(&plan).cloned().ok_or_else(invalid_plan)?;
        match spec.status {
            FLEX_ACTIVE => {}
            FLEX_INACTIVE => return Err(invalid_plan()),
            FLEX_PAUSED => return Err(Rejection::inner(0, "plan", "Plan is paused")),
            _ => return Err(Rejection::inner(0, "plan", "Plan is unavailable")),
        }
        if !spec.offered_to(api_key) {
            return Err(Rejection::inner(
                0,
                "plan",
                "Private plan not available for this user",
            ));
        }
        if amount < spec.min {
            return Err(Rejection::inner(
                2,
                "amount",
                "Amount is less than min investment",
            ));
        }
        if amount > spec.max {
            return Err(Rejection::inner(
                3,
                "amount",
                "Amount is more than max investment",
            ));
        }
        let index = self.flex.position(api_key, &plan);
        let current = index
            .and_then(|i| self.flex.investments.get(i))
            .map(Stored::now);
        let held = current
            .filter(|v| v.active)
            .map_or(Decimal::ZERO, |v| v.invested);
        if held
            .checked_add(amount)
            .is_none_or(|total| total > spec.max)
        {
            return Err(Rejection::inner(
                0,
                "amount",
                "Investment limit is exceeded",
            ));
        }
        self.debit_main(api_key, &spec.record.ticker, amount)?;
        let seen_us = now_us.saturating_add(micros(visible_after));
        let (index, action) = self.flex.invested(
            api_key,
            &spec,
            index,
            amount,
            with_reinvest,
            (now_us, seen_us),
        );
        let transaction = self.flex.transaction();
        self.flex
            .record(index, action, amount, &transaction, (now_us, seen_us));
        self.account_changed(api_key);
        Ok(TransactionRecord::new(transaction))
    }

    /// Withdraws `request` for `api_key` at `now_us`. Refusals, in order: a plan not active or
    /// not offered to the account (400, `The selected plan is invalid.`: "Plan must be active
    /// and accessible to user"), no investment (`Investment does not exist`), a closed one
    /// (`Cannot withdraw from closed investment`), below the plan's least withdrawal (`Cannot
    /// withdraw amount < min possible`), more than invested (`Withdraw amount exceeds total
    /// invested`), less than `minInvestment` left (`minAmountLeft`: `Amount left < min
    /// investment`) — all 422, code 0.
    pub(crate) fn flex_withdraw(
        &mut self,
        api_key: &str,
        request: FlexWithdrawRequest,
        now_us: u64,
    ) -> Result<TransactionRecord, Rejection> {
        self.accrue_flex(now_us);
        let FlexWithdrawRequest { plan, amount } = request;
        let spec = self.flex.plan(&plan).cloned().ok_or_else(invalid_plan)?;
        if spec.status != FLEX_ACTIVE || !spec.offered_to(api_key) {
            return Err(invalid_plan());
        }
        let (index, current) = self.flex.active(api_key, &plan)?;
        if amount < spec.min_withdrawal {
            return Err(Rejection::inner(
                0,
                "amount",
                "Cannot withdraw amount < min possible",
            ));
        }
        if amount > current {
            return Err(Rejection::inner(
                0,
                "amount",
                "Withdraw amount exceeds total invested",
            ));
        }
        let left = current - amount;
        if left < spec.min {
            return Err(Rejection::inner(
                0,
                "minAmountLeft",
                "Amount left < min investment",
            ));
        }
        let out = (index, spec.record.ticker.as_str(), amount);
        Ok(self.pay_back(api_key, out, WITHDRAW, now_us, |v| v.invested = left))
    }

    /// Closes `api_key`'s investment in `plan` at `now_us`: everything invested back to the
    /// main balance. Refusals (422, code 0): none (`Investment does not exist`), a closed one
    /// (`Cannot withdraw from closed investment`).
    pub(crate) fn flex_close(
        &mut self,
        api_key: &str,
        plan: &str,
        now_us: u64,
    ) -> Result<TransactionRecord, Rejection> {
        self.accrue_flex(now_us);
        let ticker = self
            .flex
            .plan(plan)
            .map(|p| p.record.ticker.clone())
            .ok_or_else(invalid_plan)?;
        let (index, back) = self.flex.active(api_key, plan)?;
        Ok(
            self.pay_back(api_key, (index, &ticker, back), CLOSE, now_us, |v| {
                v.invested = Decimal::ZERO;
                v.active = false;
            }),
        )
    }

    /// Sets whether `api_key`'s active investment in the plan reinvests, at `now_us` (no
    /// change when it already does as asked). Refused (422, code 0, on `plan`) without an
    /// active investment: `No existing investments for this plan`.
    pub(crate) fn flex_auto_invest(
        &mut self,
        api_key: &str,
        request: &AutoInvestRequest,
        now_us: u64,
    ) -> Result<EmptyData, Rejection> {
        self.accrue_flex(now_us);
        let stored = self
            .flex
            .position(api_key, &request.plan)
            .and_then(|i| self.flex.investments.get_mut(i))
            .filter(|s| s.now().active)
            .ok_or_else(|| Rejection::inner(0, "plan", "No existing investments for this plan"))?;
        if stored.now().reinvest != request.enabled {
            stored.change(now_us, now_us, |v| v.reinvest = request.enabled);
        }
        Ok(EmptyData::default())
    }

    /// Pays `amount` of `ticker` out of the investment at `index` into `api_key`'s main
    /// balance at `now_us` — the investment's new state made by `change`, the day's principal
    /// no more than what is left — recorded as `action` under a new transaction, its answer.
    fn pay_back(
        &mut self,
        api_key: &str,
        (index, ticker, amount): (usize, &str, Decimal),
        action: i64,
        now_us: u64,
        change: impl FnOnce(&mut Version),
    ) -> TransactionRecord {
        if let Some(stored) = self.flex.investments.get_mut(index) {
            stored.change(now_us, now_us, change);
            stored.floor = stored.floor.min(stored.now().invested);
        }
        self.credit_main(api_key, ticker, amount);
        let transaction = self.flex.transaction();
        self.flex
            .record(index, action, amount, &transaction, (now_us, now_us));
        self.account_changed(api_key);
        TransactionRecord::new(transaction)
    }

    /// Takes `amount` of `ticker` from `api_key`'s main balance: code 4 `Available 9 < 10`
    /// when it holds less.
    fn debit_main(
        &mut self,
        api_key: &str,
        ticker: &str,
        amount: Decimal,
    ) -> Result<(), Rejection> {
        let account = self.accounts.get_mut(api_key).ok_or_else(invalid_plan)?;
        super::super::take_main(account, ticker, amount)
    }

    /// Pays `amount` of `ticker` into `api_key`'s main balance.
    pub(super) fn credit_main(&mut self, api_key: &str, ticker: &str, amount: Decimal) {
        if let Some(account) = self.accounts.get_mut(api_key) {
            let balance = account.main.entry(ticker.to_owned()).or_default();
            *balance = balance.checked_add(amount).unwrap_or(*balance);
        }
    }
}

impl FlexLending {
    /// Puts `amount` into `api_key`'s investment in `spec`'s plan — the one at `index`, or a
    /// new one — at `at_us`, seen from `seen_us`: its index, and the history's action
    /// (`INVEST` for a new or active investment, `OPEN_INVESTMENT` for a closed one reopened).
    /// `withReinvest` sets the reinvestment when sent; else a new investment does not
    /// reinvest and an existing one keeps its setting.
    fn invested(
        &mut self,
        api_key: &str,
        spec: &FlexPlanSpec,
        index: Option<usize>,
        amount: Decimal,
        with_reinvest: Option<bool>,
        (at_us, seen_us): (u64, u64),
    ) -> (usize, i64) {
        let index = index.unwrap_or_else(|| {
            self.investments.push(Stored {
                id: investment_id(self.investments.len() + 1),
                api_key: api_key.to_owned(),
                plan: spec.record.id.clone(),
                currency: spec.record.ticker.clone(),
                created_us: at_us,
                versions: Vec::new(),
                floor: Decimal::ZERO,
            });
            self.investments.len() - 1
        });
        let Some(stored) = self.investments.get_mut(index) else {
            return (index, INVEST);
        };
        let reopened = !stored.versions.is_empty() && !stored.now().active;
        stored.change(at_us, seen_us, |v| {
            v.invested = if v.active {
                v.invested + amount
            } else {
                amount
            };
            v.active = true;
            v.reinvest = with_reinvest.unwrap_or(v.reinvest);
        });
        (index, if reopened { OPEN } else { INVEST })
    }

    /// `api_key`'s active investment in `plan`: its index and what it holds. Refusals (422,
    /// code 0): none (`Investment does not exist`, on `amount` as the spec's example has
    /// it), a closed one (`Cannot withdraw from closed investment`, on `investment`).
    fn active(&self, api_key: &str, plan: &str) -> Result<(usize, Decimal), Rejection> {
        let index = self
            .position(api_key, plan)
            .ok_or_else(|| Rejection::inner(0, "amount", "Investment does not exist"))?;
        let current = self.investments.get(index).map(Stored::now);
        match current {
            Some(v) if v.active => Ok((index, v.invested)),
            _ => Err(Rejection::inner(
                0,
                "investment",
                "Cannot withdraw from closed investment",
            )),
        }
    }
}

/// HTTP 400 `The selected plan is invalid.`: unknown, inactive, or not the account's to use.
fn invalid_plan() -> Rejection {
    invalid_field("plan", "The selected plan is invalid.")
}

/// `duration` in microseconds.
pub(super) fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX)
}
