//! The smart-investment operations, for B2B partner keys only (others: HTTP 403): investing
//! (`POST /api/v4/main-account/smart/investment`, answered HTTP 201), closing, the investments
//! list and the interest payments — each checked by its own rules ([`crate::rules`]), run
//! against the state ([`crate::state`]) and answered in its own shape ([`crate::wire`]). They
//! count against the plans' rate limit.

use http::StatusCode;

use super::private::{Counts, Endpoint};
use crate::config::{Limit, Op, Route};
use crate::rules::{self, InvestRequest, InvestmentsFilter, PaymentsFilter};
use crate::wire::{
    ClosedRecord, InterestPaymentRecord, InvestmentRecord, NewInvestmentRecord, PageRecord,
};

/// Invests in a plan: the spec's `201`, "Investment created successfully".
pub(super) const INVEST: Endpoint<InvestRequest, NewInvestmentRecord> = Endpoint::new(
    Op::new(
        "/api/v4/main-account/smart/investment",
        Route::Invest,
        Limit::MainAccount,
    ),
    |exchange, call| {
        Ok(rules::parse_invest(call.fields()?, |id| {
            exchange.plan_exists(id)
        })?)
    },
    |locked, call, request| {
        locked
            .state
            .invest(call.api_key(), request, call.visible_after)
    },
)
.partners_only()
.status(StatusCode::CREATED);

/// Closes an investment.
pub(super) const CLOSE: Endpoint<String, ClosedRecord> = Endpoint::new(
    Op::new(
        "/api/v4/main-account/smart/investment/close",
        Route::CloseInvestment,
        Limit::MainAccount,
    ),
    |_, call| Ok(rules::parse_close_investment(call.fields()?)?),
    |locked, call, id| locked.state.close_investment(call.api_key(), &id),
)
.partners_only();

/// A page of the account's investments.
pub(super) const INVESTMENTS: Endpoint<InvestmentsFilter, PageRecord<InvestmentRecord>> =
    Endpoint::new(
        Op::new(
            "/api/v4/main-account/smart/investments",
            Route::Investments,
            Limit::MainAccount,
        ),
        |_, call| Ok(rules::parse_investments(call.fields()?)?),
        |locked, call, filter| locked.state.investments_page(call.api_key(), &filter),
    )
    .partners_only()
    .counts(Counts::Lookup);

/// A page of the account's interest payments.
pub(super) const INTEREST_PAYMENTS: Endpoint<PaymentsFilter, PageRecord<InterestPaymentRecord>> =
    Endpoint::new(
        Op::new(
            "/api/v4/main-account/smart/interest-payment-history",
            Route::InterestPayments,
            Limit::MainAccount,
        ),
        |exchange, call| {
            Ok(rules::parse_payments(call.fields()?, |id| {
                exchange.plan_exists(id)
            })?)
        },
        |locked, call, filter| locked.state.interest_page(call.api_key(), &filter),
    )
    .partners_only()
    .counts(Counts::Lookup);
