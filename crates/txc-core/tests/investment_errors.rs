//! Every error answer the spec documents for the smart-investment endpoints decodes to an
//! `ApiError` of its own class (the example bodies copied from the spec's
//! `main_api_v4.yaml`, "Crypto Lending - Fixed").

#![allow(clippy::unwrap_used, clippy::panic)]

use txc_core::Error;
use txc_core::decode::{ApiErrorClass, Response, decode};
use txc_types::endpoint::Endpoint;
use txc_types::investments::{
    CloseInvestment, InterestPaymentsQuery, Invest, InvestmentsQuery, SmartPlansQuery,
};

const PERMISSION: &str = r#"{"code":0,"message":"You don't have permission to use this endpoint. Please contact support for more details"}"#;

/// (name, status, body, class) of the investment endpoint's documented errors.
const INVEST: &[(&str, u16, &str, ApiErrorClass)] = &[
    (
        "invalidPlanOrAmount",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"planId":["The selected planId is invalid."],"amount":["The amount field must be a valid number"]}}"#,
        ApiErrorClass::Validation,
    ),
    (
        "amountTooSmall",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"amount":["The amount must be at least 0.000001."]}}"#,
        ApiErrorClass::BelowMinimum,
    ),
    (
        "amountExceedsAvailable",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"amount":["The amount you are trying to invest is bigger than the amount left in this SMART plan. Please try investing a smaller amount."]}}"#,
        ApiErrorClass::AboveMaximum,
    ),
    (
        "planDisabled",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"planId":["Plan is disabled"]}}"#,
        ApiErrorClass::PlanInactive,
    ),
    (
        "planInactive",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"planId":["Plan is inactive"]}}"#,
        ApiErrorClass::PlanInactive,
    ),
    (
        "noCoinsLeft",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"planId":["There are no coins left in the plan"]}}"#,
        ApiErrorClass::NoCoinsLeft,
    ),
    (
        "planPaused",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"planId":["Plan is paused"]}}"#,
        ApiErrorClass::PlanPaused,
    ),
    (
        "specialOffer",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"planId":["Special offers are not available via API"]}}"#,
        ApiErrorClass::Validation,
    ),
    (
        "invalidDecimal",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"amount":["Invalid decimal amount"]}}"#,
        ApiErrorClass::Validation,
    ),
    (
        "investmentExists",
        422,
        r#"{"code":1,"message":"Inner validation failed","errors":{"amount":["The investment in this investment plan already exists"]}}"#,
        ApiErrorClass::InvestmentExists,
    ),
    (
        "amountTooLow",
        422,
        r#"{"code":2,"message":"Inner validation failed","errors":{"amount":["Amount is less than min investment"]}}"#,
        ApiErrorClass::BelowMinimum,
    ),
    (
        "amountTooHigh",
        422,
        r#"{"code":3,"message":"Inner validation failed","errors":{"amount":["Amount is more than max investment"]}}"#,
        ApiErrorClass::AboveMaximum,
    ),
    (
        "insufficientBalance",
        422,
        r#"{"code":4,"message":"Inner validation failed","errors":{"amount":["Available 9 < 10"]}}"#,
        ApiErrorClass::InsufficientBalance,
    ),
    (
        "insufficientFunds",
        422,
        r#"{"code":5,"message":"Inner validation failed","errors":{"amount":["Not enough money to pay interest"]}}"#,
        ApiErrorClass::NoFundsInPlan,
    ),
    ("permission", 403, PERMISSION, ApiErrorClass::Permission),
];

/// The same for closing an investment.
const CLOSE: &[(&str, u16, &str, ApiErrorClass)] = &[
    (
        "investmentNotFound",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"id":["Investment not found"]}}"#,
        ApiErrorClass::InvestmentNotFound,
    ),
    (
        "idRequired",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"id":["The id field is required."]}}"#,
        ApiErrorClass::Validation,
    ),
    (
        "alreadyClosed",
        422,
        r#"{"code":0,"message":"Inner validation failed","errors":{"error":["Investment is already closed"]}}"#,
        ApiErrorClass::InvestmentClosed,
    ),
    ("permission", 403, PERMISSION, ApiErrorClass::Permission),
];

/// The lists' documented errors: field validation and permission.
const LISTS: &[(&str, u16, &str, ApiErrorClass)] = &[
    (
        "invalidFields",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"id":["The selected id is invalid."],"ticker":["The selected ticker is invalid."],"status":["The selected status is invalid."]}}"#,
        ApiErrorClass::Validation,
    ),
    ("permission", 403, PERMISSION, ApiErrorClass::Permission),
];

fn check<E: Endpoint<Response: std::fmt::Debug>>(table: &[(&str, u16, &str, ApiErrorClass)]) {
    for (name, status, body, class) in table {
        let error = decode::<E>(&Response::new(*status, body.as_bytes())).unwrap_err();
        let Error::Api(api) = &error else {
            panic!("{} {name}: {error:?}", E::OPERATION)
        };
        assert_eq!(api.class, *class, "{} {name}", E::OPERATION);
        assert_eq!(api.status, *status);
        assert!(!error.outcome_unknown() && !error.is_retryable(), "{name}");
    }
}

#[test]
fn every_documented_error_has_its_class() {
    check::<Invest>(INVEST);
    check::<CloseInvestment>(CLOSE);
    check::<InvestmentsQuery>(LISTS);
    check::<InterestPaymentsQuery>(LISTS);
    check::<SmartPlansQuery>(&LISTS[1..]);
}

#[test]
fn investment_codes_are_read_only_on_their_endpoint() {
    // Code 1 on an order endpoint is "invalid argument": a validation error, not "exists".
    let body = br#"{"code":1,"message":"Inner validation failed","errors":{"amount":["Invalid argument."]}}"#;
    let order = decode::<txc_types::orders::CollateralMarketOrder>(&Response::new(422, body));
    assert_eq!(
        order.unwrap_err().api().unwrap().class,
        ApiErrorClass::Validation
    );
    let invest = decode::<Invest>(&Response::new(422, body));
    assert_eq!(
        invest.unwrap_err().api().unwrap().class,
        ApiErrorClass::InvestmentExists
    );
    // A 5xx on the investment endpoint is unavailable whatever its body: the outcome unknown.
    let unavailable = decode::<Invest>(&Response::new(503, body)).unwrap_err();
    assert_eq!(unavailable.api().unwrap().class, ApiErrorClass::Unavailable);
    assert!(unavailable.outcome_unknown());
}

#[test]
fn the_investment_answer_is_201_with_an_id() {
    let new = decode::<Invest>(&Response::new(
        201,
        br#"{"id":"0d7b66ff-1909-4938-ab7a-d16d9a64dcd5"}"#,
    ))
    .unwrap();
    assert_eq!(new.id, "0d7b66ff-1909-4938-ab7a-d16d9a64dcd5");
    // A 2xx without an id is not an answer: the outcome is unknown.
    let error = decode::<Invest>(&Response::new(201, b"{}")).unwrap_err();
    assert!(error.outcome_unknown());
    assert!(decode::<CloseInvestment>(&Response::new(200, b"{}")).is_ok());
}
