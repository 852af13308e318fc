//! [`StateChanging`]: closing a flex investment and switching its auto-reinvestment — changes
//! idempotent by the state they leave, whose lost answer is resolved by reading the investment:
//! in the state asked for, it is done (by this call or anything else); not yet, the change is
//! sent again (fresh nonce), which can only leave the same state.

use std::time::SystemTime;

use txc_types::endpoint::Endpoint;
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexInvestment, FlexInvestmentStatus, FlexInvestmentsQuery,
    SetFlexAutoInvest,
};

use super::money_move::Sealed;
use crate::decode::{ApiError, ApiErrorClass};
use crate::machine::Call;
use crate::{ClientCore, Error, Machine, Response, Step, TransportError};

impl Sealed for CloseFlexInvestment {}
impl Sealed for SetFlexAutoInvest {}

/// A change of a flex investment that is idempotent by the state it leaves: sending it again
/// once the state is there changes nothing (closing a closed investment is refused; setting
/// the auto-reinvestment to what it is sets the same). Sealed: closing
/// ([`CloseFlexInvestment`]) and switching the auto-reinvestment ([`SetFlexAutoInvest`]).
pub trait StateChange: Endpoint + Clone + Send + Sync + Sealed {
    /// The plan whose investment it changes.
    fn plan_id(&self) -> &str;

    /// Whether `investment` (the account's investment in the plan, as read) is in the state
    /// the change asks for.
    fn reached(&self, investment: &FlexInvestment) -> bool;

    /// Whether the exchange's refusal of an attempt says that the investment is in the state
    /// asked for already.
    fn refused_as_reached(&self, error: &ApiError) -> bool {
        let _ = error;
        false
    }
}

/// Closed: the investment's status is closed (`0`). A close refused with `Cannot withdraw from
/// closed investment` found it closed already.
impl StateChange for CloseFlexInvestment {
    fn plan_id(&self) -> &str {
        self.plan()
    }

    fn reached(&self, investment: &FlexInvestment) -> bool {
        investment.status == FlexInvestmentStatus::Closed
    }

    fn refused_as_reached(&self, error: &ApiError) -> bool {
        error.class == ApiErrorClass::InvestmentClosed
    }
}

/// Set: the investment is active and its `withAutoReinvest` is what was asked for.
impl StateChange for SetFlexAutoInvest {
    fn plan_id(&self) -> &str {
        self.plan()
    }

    fn reached(&self, investment: &FlexInvestment) -> bool {
        investment.is_active() && investment.with_auto_reinvest == self.enabled()
    }
}

/// How a change idempotent by state ended: answered, or — its answer lost — shown done by the
/// investment's state.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StateReached<T> {
    /// The exchange answered an attempt.
    Answered(T),
    /// An attempt's answer was lost; the investment, read afterwards, is in the state asked
    /// for — by this call, or by anything else.
    Read(Box<FlexInvestment>),
    /// An attempt's answer was lost; the exchange refused a later one because the investment
    /// is in the state asked for already (closing: `Cannot withdraw from closed
    /// investment`).
    RefusedAsDone(Box<ApiError>),
}

enum Stage<'a, S: StateChange> {
    Sending(Call<'a, S>),
    /// Reading the investment, after the failure that left the change unknown.
    Reading(Box<Call<'a, FlexInvestmentsQuery>>, Error),
    Finished,
}

/// Makes a change idempotent by state ([`StateChange`]): sends it; when its outcome is unknown
/// (a lost answer, a 5xx), reads the account's investment in the plan (`POST
/// /api/v4/main-account/smart-flex/investments`, filtered by the plan) — in the state asked
/// for, it ends [`StateReached::Read`]; not yet (never sent, not processed yet, or a lagging
/// list), it sends the change again, signed afresh, at most the client's `max_placements`
/// times in all. A later attempt refused because the state is there already (a close of a
/// closed investment) ends [`StateReached::RefusedAsDone`]; any other refusal is the error.
///
/// When the investment cannot be read, or the attempts run out with every outcome unknown, it
/// ends [`Error::Unproven`], saying so: calling it again is safe — it is resolved the same way.
/// A straggling attempt that arrives after the state was reached changes nothing more (a second
/// close is refused; a second switch sets the same) — unless the investment was changed back
/// in between (reopened by an investment; switched back), which only another call of the
/// account can do.
pub struct StateChanging<'a, S: StateChange> {
    core: &'a ClientCore,
    change: S,
    sends: u32,
    /// Whether an earlier attempt's outcome was unknown.
    unknown: bool,
    stage: Stage<'a, S>,
}

impl<'a, S: StateChange> StateChanging<'a, S> {
    pub(crate) fn new(core: &'a ClientCore, change: S) -> Self {
        let call = core.call_owned(change.clone());
        Self {
            core,
            change,
            sends: 1,
            unknown: false,
            stage: Stage::Sending(call),
        }
    }

    fn finish(
        &mut self,
        result: Result<StateReached<S::Response>, Error>,
    ) -> Step<Result<StateReached<S::Response>, Error>> {
        self.stage = Stage::Finished;
        Step::Done(result)
    }

    /// Ends not knowing, for `why`, after `cause` left an attempt's outcome unknown.
    fn unproven(
        &mut self,
        cause: &Error,
        why: &str,
    ) -> Step<Result<StateReached<S::Response>, Error>> {
        let reason = format!(
            "{} of the investment in plan {}: {cause}; {why}. Sending it again is safe: a \
             lost answer is resolved by the investment's state",
            S::OPERATION,
            self.change.plan_id()
        );
        self.finish(Err(Error::Unproven { reason }))
    }

    /// An attempt ended with `result`.
    fn sent(
        &mut self,
        result: Result<S::Response, Error>,
        now: SystemTime,
    ) -> Step<Result<StateReached<S::Response>, Error>> {
        let error = match result {
            Ok(answer) => return self.finish(Ok(StateReached::Answered(answer))),
            Err(error) => error,
        };
        if error.outcome_unknown() {
            self.unknown = true;
            let query = FlexInvestmentsQuery::builder()
                .plan(self.change.plan_id())
                .build();
            return match query {
                Ok(query) => {
                    self.stage = Stage::Reading(Box::new(self.core.call_owned(query)), error);
                    self.next(now)
                }
                Err(invalid) => self.finish(Err(invalid.into())),
            };
        }
        match error.api() {
            Some(api) if self.unknown && self.change.refused_as_reached(api) => {
                let api = Box::new(api.clone());
                self.finish(Ok(StateReached::RefusedAsDone(api)))
            }
            _ => self.finish(Err(error)),
        }
    }

    /// The investment was read after `cause` left an attempt unknown.
    fn read(
        &mut self,
        read: Result<Vec<FlexInvestment>, Error>,
        cause: Error,
        now: SystemTime,
    ) -> Step<Result<StateReached<S::Response>, Error>> {
        let investments = match read {
            Ok(investments) => investments,
            Err(e) => {
                return self.unproven(&cause, &format!("the investment could not be read: {e}"));
            }
        };
        let plan = self.change.plan_id();
        if let Some(investment) = investments
            .into_iter()
            .find(|i| i.plan_id == plan && self.change.reached(i))
        {
            return self.finish(Ok(StateReached::Read(Box::new(investment))));
        }
        if self.sends >= self.core.max_placements() {
            let why = format!(
                "after {} attempts the investment is not shown in the state asked for",
                self.sends
            );
            return self.unproven(&cause, &why);
        }
        self.sends += 1;
        self.stage = Stage::Sending(self.core.call_owned(self.change.clone()));
        self.next(now)
    }
}

impl<S: StateChange> Machine for StateChanging<'_, S> {
    type Output = Result<StateReached<S::Response>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Sending(mut call) => match call.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Sending(call);
                    step
                }
                Err(result) => self.sent(result, now),
            },
            Stage::Reading(mut call, cause) => match call.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Reading(call, cause);
                    step
                }
                Err(result) => self.read(result.map(|page| page.data), cause, now),
            },
            Stage::Finished => Step::after_end(S::OPERATION, "the change"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Sending(call) => call.receive(response),
            Stage::Reading(call, _) => call.receive(response),
            Stage::Finished => {}
        }
    }
}
