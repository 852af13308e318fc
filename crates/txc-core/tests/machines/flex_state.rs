//! Closing a flex investment and switching its auto-reinvestment — changes resolved by the
//! investment's state — and reading a paged list page by page, as sans-IO machines fed
//! answers by hand: a lost answer is read back from the investments list, sent again only when
//! the state is not there yet, a refusal that says "already so" is taken as done; a list that
//! changes under the read, or a page that fails, ends the read with the error, once.

use std::time::{Duration, UNIX_EPOCH};

use serde_json::{Value, json};
use txc_core::decode::{ApiErrorClass, Response, TransportError, TransportErrorKind};
use txc_core::machine::ListRead;
use txc_core::pacing::RetryPolicy;
use txc_core::resolve::StateReached;
use txc_core::{ClientConfig, ClientCore, Error, Machine, Step};
use txc_sign::Credentials;
use txc_sign::nonce::NonceSequence;
use txc_types::investments::flex::{CloseFlexInvestment, FlexPlansQuery, SetFlexAutoInvest};
use txc_types::paging::PagingError;

const PLAN: &str = "8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f";
const INVESTMENTS: &str = "/api/v4/main-account/smart-flex/investments";

fn core() -> ClientCore {
    ClientConfig::new(Credentials::new("k", "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .nonce_sequence(NonceSequence::new())
        .no_rate_limit()
        .retry_policy(RetryPolicy::new(
            2,
            Duration::from_millis(1),
            Duration::from_millis(1),
        ))
        .build()
        .unwrap()
}

/// What the exchange answers a request.
enum Answer {
    Json(u16, Value),
    Lost,
}

/// Drives `machine`, answering each request with `answer(path)`; returns the output and the
/// paths requested.
fn drive<M: Machine>(
    mut machine: M,
    mut answer: impl FnMut(&str) -> Answer,
) -> (M::Output, Vec<String>) {
    let mut now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    let mut paths = Vec::new();
    loop {
        match machine.next(now) {
            Step::Wait(d) => now += d,
            Step::Send(request) => {
                let path = request.uri().path().to_owned();
                paths.push(path.clone());
                match answer(&path) {
                    Answer::Json(status, body) => {
                        let body = body.to_string().into_bytes();
                        machine.receive(Ok(Response::new(status, &body)));
                    }
                    Answer::Lost => machine.receive(Err(TransportError::maybe_sent(
                        TransportErrorKind::Io,
                        "connection reset",
                    ))),
                }
                now += Duration::from_millis(20);
            }
            Step::Done(output) => return (output, paths),
        }
    }
}

fn investment(status: u64, reinvest: bool) -> Value {
    json!({"data": [{"id": "inv-1", "planId": PLAN, "currency": "USDT", "invested": "100",
        "withAutoReinvest": reinvest, "status": status, "createdAt": 1, "updatedAt": 2}],
        "limit": 100, "offset": 0})
}

fn transaction() -> Answer {
    Answer::Json(201, json!({"data": {"transaction_id": "tx-9"}}))
}

fn refusal(field: &str, message: &str) -> Answer {
    Answer::Json(
        422,
        json!({"code": 0, "message": "Inner validation failed", "errors": {field: [message]}}),
    )
}

fn close() -> CloseFlexInvestment {
    CloseFlexInvestment::new(PLAN).unwrap()
}

#[test]
fn an_answered_close_reads_nothing() {
    let core = core();
    let (result, paths) = drive(core.close_flex_investment(&close()), |_| transaction());
    let StateReached::Answered(answer) = result.unwrap() else {
        panic!()
    };
    assert_eq!(answer.transaction_id(), "tx-9");
    assert_eq!(paths.len(), 1);
}

#[test]
fn a_lost_close_is_read_back_closed() {
    let core = core();
    let (result, paths) = drive(core.close_flex_investment(&close()), |path| match path {
        INVESTMENTS => Answer::Json(200, investment(0, false)),
        _ => Answer::Lost,
    });
    let StateReached::Read(investment) = result.unwrap() else {
        panic!()
    };
    assert_eq!(investment.id, "inv-1");
    assert_eq!(paths.len(), 2, "never sent again: {paths:?}");
}

#[test]
fn a_close_not_processed_is_sent_again_and_a_late_one_is_refused_as_done() {
    // 503 without processing: the investment is active, the close goes again.
    let core = core();
    let mut closes = 0;
    let (result, paths) = drive(core.close_flex_investment(&close()), |path| match path {
        INVESTMENTS => Answer::Json(200, investment(1, false)),
        _ => {
            closes += 1;
            if closes == 1 {
                Answer::Json(503, json!({}))
            } else {
                transaction()
            }
        }
    });
    assert!(matches!(result.unwrap(), StateReached::Answered(_)));
    assert_eq!(paths.len(), 3);
    // Processed and lost, the list lagging: the close goes again and is refused as closed.
    let mut lost = false;
    let (result, _) = drive(core.close_flex_investment(&close()), |path| match path {
        INVESTMENTS => Answer::Json(200, investment(1, false)),
        _ if !lost => {
            lost = true;
            Answer::Lost
        }
        _ => refusal("investment", "Cannot withdraw from closed investment"),
    });
    let StateReached::RefusedAsDone(api) = result.unwrap() else {
        panic!()
    };
    assert_eq!(api.class, ApiErrorClass::InvestmentClosed);
}

#[test]
fn a_refusal_of_the_first_close_is_the_error() {
    let core = core();
    let (result, _) = drive(core.close_flex_investment(&close()), |_| {
        refusal("amount", "Investment does not exist")
    });
    let error = result.unwrap_err();
    assert_eq!(
        error.api().map(|a| a.class),
        Some(ApiErrorClass::InvestmentNotFound)
    );
    assert!(!error.outcome_unknown());
    // Closed already, the first close refused: a refusal, not "done" — nothing was unknown.
    let (result, _) = drive(core.close_flex_investment(&close()), |_| {
        refusal("investment", "Cannot withdraw from closed investment")
    });
    assert!(result.is_err());
}

#[test]
fn what_cannot_be_read_or_never_shows_stays_unproven_and_says_calling_again_is_safe() {
    let core = core();
    let (result, _) = drive(core.close_flex_investment(&close()), |path| match path {
        INVESTMENTS => Answer::Json(503, json!({})),
        _ => Answer::Lost,
    });
    let error = result.unwrap_err();
    assert!(matches!(error, Error::Unproven { .. }), "{error:?}");
    assert!(error.outcome_unknown());
    assert!(error.to_string().contains("again is safe"), "{error}");
    // Every close lost and the investment still active: three closes, then unproven.
    let (result, paths) = drive(core.close_flex_investment(&close()), |path| match path {
        INVESTMENTS => Answer::Json(200, investment(1, false)),
        _ => Answer::Lost,
    });
    assert!(matches!(result, Err(Error::Unproven { .. })));
    let closes = paths.iter().filter(|p| p.ends_with("/close")).count();
    assert_eq!(closes, 3, "the client's max_placements");
}

#[test]
fn a_lost_auto_invest_switch_is_read_back() {
    let core = core();
    let on = SetFlexAutoInvest::new(PLAN, true).unwrap();
    // Resent by the call itself (idempotent), every answer lost; the investment reinvests.
    let (result, _) = drive(core.set_flex_auto_invest(&on), |path| match path {
        INVESTMENTS => Answer::Json(200, investment(1, true)),
        _ => Answer::Lost,
    });
    assert!(matches!(result.unwrap(), StateReached::Read(_)));
    // Not switched yet: sent again, answered.
    let mut sets = 0;
    let (result, _) = drive(core.set_flex_auto_invest(&on), |path| match path {
        INVESTMENTS => Answer::Json(200, investment(1, false)),
        _ => {
            sets += 1;
            if sets <= 2 {
                Answer::Lost
            } else {
                Answer::Json(200, json!({"data": []}))
            }
        }
    });
    assert!(matches!(result.unwrap(), StateReached::Answered(_)));
}

/// A page of plans `ids`.
fn plans(ids: &[&str]) -> Value {
    Value::Array(
        ids.iter()
            .map(|id| {
                json!({"id": id, "ticker": "USDT", "minInvestment": "1",
                    "maxInvestment": "9", "maxRate": "0.1"})
            })
            .collect(),
    )
}

/// Reads every page of `read` against `pages` (answered in turn).
fn read_all(
    core: &ClientCore,
    read: &mut ListRead<FlexPlansQuery>,
    pages: &mut Vec<Answer>,
) -> Vec<Result<Vec<String>, Error>> {
    let mut out = Vec::new();
    loop {
        let (page, _) = drive(read.next_page(core), |_| pages.remove(0));
        match page {
            Some(page) => out.push(page.map(|p| p.into_iter().map(|plan| plan.id).collect())),
            None => return out,
        }
    }
}

#[test]
fn a_list_read_page_by_page_stops_with_the_error_once() {
    let core = core();
    let query = || FlexPlansQuery::builder().limit(3).build().unwrap();
    // Read whole: a page of records read already is skipped, not given empty.
    let mut pages = vec![
        Answer::Json(200, plans(&["a", "b", "c"])),
        Answer::Json(200, plans(&["c", "d", "e"])),
        Answer::Json(200, plans(&["e"])),
    ];
    let mut read = ListRead::new(query());
    let got = read_all(&core, &mut read, &mut pages);
    let ids: Vec<Vec<String>> = got.into_iter().map(Result::unwrap).collect();
    assert_eq!(ids.concat(), ["a", "b", "c", "d", "e"]);
    assert_eq!(read.cursor().pages_read(), 3);
    // The list changed under the read (records removed ahead): the page holds nothing read
    // before, so a record may have been skipped — its records, the error, then the end.
    let mut pages = vec![
        Answer::Json(200, plans(&["a", "b", "c"])),
        Answer::Json(200, plans(&["x", "y", "z"])),
    ];
    let mut read = ListRead::new(query());
    let got = read_all(&core, &mut read, &mut pages);
    assert_eq!(got.len(), 3);
    assert!(matches!(
        &got[2],
        Err(Error::Paging(PagingError::ListMoved { offset: 2, .. }))
    ));
    // A page that fails (after the read's retries): the error, then the end.
    let mut pages = vec![
        Answer::Json(200, plans(&["a", "b", "c"])),
        Answer::Json(503, json!({})),
        Answer::Json(503, json!({})),
    ];
    let mut read = ListRead::new(query());
    let got = read_all(&core, &mut read, &mut pages);
    assert_eq!(got.len(), 2);
    assert_eq!(got[1].as_ref().unwrap_err().status(), Some(503));
}
