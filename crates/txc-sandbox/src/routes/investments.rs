//! The smart-investment operations, for B2B partner keys only (others: HTTP 403): investing
//! (`POST /api/v4/main-account/smart/investment`, answered HTTP 201), closing, the investments
//! list and the interest payments — each checked by its own rules ([`crate::rules`]), run
//! against the state ([`crate::state`]) and answered in its own shape ([`crate::wire`]).

use http::StatusCode;

use super::private::{Call, Operation};
use crate::answer::{Answer, Rejection};
use crate::app::Shared;
use crate::auth::AuthRejection;
use crate::op::Op;
use crate::rules::{self, InvestRequest, InvestmentsFilter, PaymentsFilter};
use crate::state::State;
use crate::wire::{
    ClosedRecord, InterestPaymentRecord, InvestmentRecord, NewInvestmentRecord, PageRecord,
};

/// `POST /api/v4/main-account/smart/investment`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Invest;

/// `POST /api/v4/main-account/smart/investment/close`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Close;

/// `POST /api/v4/main-account/smart/investments`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Investments;

/// `POST /api/v4/main-account/smart/interest-payment-history`.
#[derive(Debug, Clone, Copy)]
pub(super) struct InterestPayments;

/// Refuses keys that are not a B2B partner's, as the plans do.
fn partner(call: &Call<'_>) -> Result<(), Answer> {
    if call.signed.partner {
        Ok(())
    } else {
        Err(Answer::auth(AuthRejection::PERMISSION_DENIED))
    }
}

impl Operation for Invest {
    type Request = InvestRequest;
    type Reply = NewInvestmentRecord;

    fn op(self) -> Op {
        Op::Invest
    }

    /// The spec's `201`: "Investment created successfully".
    fn success_status(self) -> StatusCode {
        StatusCode::CREATED
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<InvestRequest, Answer> {
        partner(call)?;
        rules::parse_invest(call.fields()?, |id| shared.plan_exists(id)).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: InvestRequest,
    ) -> Result<NewInvestmentRecord, Rejection> {
        state.invest(call.api_key(), request, call.visible_after)
    }
}

impl Operation for Close {
    type Request = String;
    type Reply = ClosedRecord;

    fn op(self) -> Op {
        Op::CloseInvestment
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<String, Answer> {
        partner(call)?;
        rules::parse_close_investment(call.fields()?).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        id: String,
    ) -> Result<ClosedRecord, Rejection> {
        state.close_investment(call.api_key(), &id)
    }
}

impl Operation for Investments {
    type Request = InvestmentsFilter;
    type Reply = PageRecord<InvestmentRecord>;

    fn op(self) -> Op {
        Op::Investments
    }

    fn parse(self, _shared: &Shared, call: &Call<'_>) -> Result<InvestmentsFilter, Answer> {
        partner(call)?;
        rules::parse_investments(call.fields()?).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        filter: InvestmentsFilter,
    ) -> Result<PageRecord<InvestmentRecord>, Rejection> {
        state.investments_page(call.api_key(), &filter)
    }
}

impl Operation for InterestPayments {
    type Request = PaymentsFilter;
    type Reply = PageRecord<InterestPaymentRecord>;

    fn op(self) -> Op {
        Op::InterestPayments
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<PaymentsFilter, Answer> {
        partner(call)?;
        rules::parse_payments(call.fields()?, |id| shared.plan_exists(id))
            .map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        filter: PaymentsFilter,
    ) -> Result<PageRecord<InterestPaymentRecord>, Rejection> {
        state.interest_page(call.api_key(), &filter)
    }
}
