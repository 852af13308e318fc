//! Paging done once, as the transports' `pages()` run it: [`ListRead`]'s [`NextPage`]
//! machines driven against a scripted exchange that serves a numbered list by `offset` and
//! `limit` as JSON over "HTTP" — signed requests read back for their page, answers decoded by
//! the call machine — for every paged report and history: the closed positions' PnL (a window
//! cap), the funding history, the executed deals (grouped by market), an order's deals, the
//! position history (a page size the spec does not give), the order history (grouped) and the
//! fixed plans' investments (an offset cap). Between pages the list changes as a script says:
//! records added at the head (as histories gain them), or added and removed anywhere.
//!
//! The properties: a record is never returned twice; a read that ends without an error
//! returned every record that was in the list from its first page to its last; a read never
//! ends silently — when it cannot vouch for the list it ends with the typed error; an
//! unchanged list is read whole, in order, with no error unless it lies past the cap.

use std::collections::{BTreeSet, HashSet};
use std::time::{Duration, UNIX_EPOCH};

use proptest::prelude::*;
use serde_json::{Value, json};
use txc_core::decode::Response;
use txc_core::machine::ListRead;
use txc_core::{ClientCore, Error, Machine, Step};
use txc_sign::nonce::NonceMode;
use txc_types::investments::InvestmentsQuery;
use txc_types::lookups::{ExecutedHistoryQuery, OrderDealsQuery, OrderHistoryQuery};
use txc_types::paging::{Paged, PagingError};
use txc_types::positions::{ClosedPnlQuery, FundingHistoryQuery, PositionHistoryQuery};

/// The client: the lending tests' (every answer here is a 200, so retries never happen).
fn core() -> ClientCore {
    crate::lending::core(NonceMode::Window)
}

/// A paged endpoint the scripted exchange serves: the query of a first page of `limit`, the
/// answer holding the records numbered `ids` (as the exchange writes it), a record's number.
trait Scripted: Paged {
    fn first(limit: u64) -> Self;
    fn answer(ids: &[u64], offset: usize, limit: usize) -> Value;
    fn id(record: &Self::Record) -> u64;
}

fn deal(id: u64) -> Value {
    json!({"id": id, "time": 1_700_000_000 + id, "side": "buy", "role": 1, "amount": "0.1",
        "price": "40000", "deal": "4000", "fee": "0.4", "orderId": 9, "feeAsset": "USDT"})
}

/// `ids` grouped by market as the grouped answers are (by the number's remainder).
fn grouped(ids: &[u64], record: impl Fn(u64) -> Value) -> Value {
    let mut markets = serde_json::Map::new();
    for (i, market) in ["BTC_PERP", "ETH_PERP", "BTC_USDT"].iter().enumerate() {
        let mine: Vec<Value> = ids
            .iter()
            .filter(|id| *id % 3 == i as u64)
            .map(|id| record(*id))
            .collect();
        if !mine.is_empty() {
            markets.insert((*market).to_owned(), Value::Array(mine));
        }
    }
    Value::Object(markets)
}

impl Scripted for ClosedPnlQuery {
    fn first(limit: u64) -> Self {
        Self::builder().limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], _: usize, _: usize) -> Value {
        ids.iter()
            .map(|id| json!({"positionId": id, "market": "BTC_PERP", "netPnl": "1"}))
            .collect()
    }
    fn id(record: &Self::Record) -> u64 {
        record.position_id
    }
}

impl Scripted for FundingHistoryQuery {
    fn first(limit: u64) -> Self {
        Self::builder().limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], offset: usize, limit: usize) -> Value {
        let records: Vec<Value> = ids
            .iter()
            .map(|id| {
                json!({"market": "BTC_PERP", "fundingTime": 1_700_000_000 + id,
                    "fundingRate": "0.0001", "fundingAmount": id.to_string(),
                    "positionAmount": "1", "settlementPrice": "65000"})
            })
            .collect();
        json!({"records": records, "limit": limit, "offset": offset})
    }
    fn id(record: &Self::Record) -> u64 {
        record
            .funding_amount
            .as_ref()
            .unwrap()
            .as_str()
            .parse()
            .unwrap()
    }
}

impl Scripted for ExecutedHistoryQuery {
    fn first(limit: u64) -> Self {
        Self::builder().limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], _: usize, _: usize) -> Value {
        grouped(ids, deal)
    }
    fn id(record: &Self::Record) -> u64 {
        record.id
    }
}

impl Scripted for OrderDealsQuery {
    fn first(limit: u64) -> Self {
        Self::builder().order_id(9).limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], offset: usize, limit: usize) -> Value {
        let records: Vec<Value> = ids.iter().map(|id| deal(*id)).collect();
        json!({"records": records, "offset": offset, "limit": limit})
    }
    fn id(record: &Self::Record) -> u64 {
        record.id
    }
}

impl Scripted for PositionHistoryQuery {
    fn first(limit: u64) -> Self {
        Self::builder().limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], _: usize, _: usize) -> Value {
        ids.iter()
            .map(|id| json!({"positionId": 7, "market": "BTC_PERP", "modifyDate": id, "amount": "1"}))
            .collect()
    }
    fn id(record: &Self::Record) -> u64 {
        record.modify_date.as_ref().unwrap().unix_seconds()
    }
}

impl Scripted for OrderHistoryQuery {
    fn first(limit: u64) -> Self {
        Self::builder().limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], _: usize, _: usize) -> Value {
        grouped(ids, |id| {
            json!({"amount": "0.0009", "price": "40000", "type": "limit", "id": id,
                "side": "sell", "ctime": 1_597_486_960, "ftime": 1_597_486_961,
                "dealFee": "0", "dealStock": "0.0009", "dealMoney": "36", "status": "FILLED"})
        })
    }
    fn id(record: &Self::Record) -> u64 {
        record.id
    }
}

impl Scripted for InvestmentsQuery {
    fn first(limit: u64) -> Self {
        Self::builder().limit(limit).build().unwrap()
    }
    fn answer(ids: &[u64], offset: usize, limit: usize) -> Value {
        let records: Vec<Value> = ids
            .iter()
            .map(|id| {
                json!({"id": format!("inv-{id}"), "plan": {"id": "8e667b4a", "ticker": "USDT",
                    "status": 1, "percent": "10", "duration": 14400, "interestTicker": "USDT",
                    "interestRatio": "1", "minInvestment": "100", "maxInvestment": "10000",
                    "maxPossibleInvestment": "3000"}, "status": 1, "created": 1_646_825_196,
                    "updated": 1_646_825_196, "paymentTime": 1_646_839_596, "amount": "100",
                    "interestPaid": "0"})
            })
            .collect();
        json!({"offset": offset, "limit": limit, "records": records})
    }
    fn id(record: &Self::Record) -> u64 {
        record.id.trim_start_matches("inv-").parse().unwrap()
    }
}

/// The `offset` and `limit` a signed request's body asks for.
fn page_of(body: &[u8]) -> (usize, usize) {
    let body: Value = serde_json::from_slice(body).unwrap();
    let number = |name: &str| usize::try_from(body[name].as_u64().unwrap_or(0)).unwrap();
    (number("offset"), number("limit"))
}

/// What a whole read gave: the records' numbers, how it ended, the requests sent.
struct Read {
    ids: Vec<u64>,
    end: Result<(), PagingError>,
    requests: usize,
}

/// Reads `list` whole through [`ListRead`], letting `change` alter it after each answer (its
/// argument: the request's number, from 0).
fn read_whole<Q: Scripted>(
    limit: u64,
    list: &mut Vec<u64>,
    mut change: impl FnMut(usize, &mut Vec<u64>),
) -> Read {
    let core = core();
    let mut read = ListRead::new(Q::first(limit));
    let mut ids = Vec::new();
    let mut requests = 0;
    let mut now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    let end = 'pages: loop {
        let mut next = read.next_page(&core);
        let page = loop {
            match next.next(now) {
                Step::Wait(d) => now += d,
                Step::Send(request) => {
                    let (offset, limit) = page_of(request.body());
                    let from = offset.min(list.len());
                    let to = from.saturating_add(limit).min(list.len());
                    let body = Q::answer(&list[from..to], offset, limit).to_string();
                    next.receive(Ok(Response::new(200, body.as_bytes())));
                    change(requests, list);
                    requests += 1;
                    assert!(requests < 10_000, "the read must end");
                }
                Step::Done(page) => break page,
            }
        };
        match page {
            None => break 'pages Ok(()),
            Some(Ok(records)) => {
                assert!(!records.is_empty(), "a page of nothing new is never given");
                ids.extend(records.iter().map(Q::id));
            }
            Some(Err(Error::Paging(error))) => {
                // Given once, then the read is over.
                assert!(matches!(read.next_page(&core).next(now), Step::Done(None)));
                break 'pages Err(error);
            }
            Some(Err(other)) => panic!("only paging errors here: {other:?}"),
        }
    };
    Read { ids, end, requests }
}

/// A list of `n` records, newest (highest number) first, numbered from `base`.
fn newest_first(n: u64, base: u64) -> Vec<u64> {
    (base..base + n).rev().collect()
}

/// The guarantee, for any change: nothing twice; a read ended without an error returned
/// every record present from its first answer to its last.
fn holds(read: &Read, always: &BTreeSet<u64>) -> Result<(), TestCaseError> {
    let distinct: HashSet<u64> = read.ids.iter().copied().collect();
    prop_assert_eq!(distinct.len(), read.ids.len(), "a record returned twice");
    if read.end.is_ok() {
        let missing: Vec<&u64> = always.iter().filter(|id| !distinct.contains(id)).collect();
        prop_assert!(missing.is_empty(), "skipped silently: {:?}", missing);
    }
    Ok(())
}

/// Every endpoint's run of `check`.
macro_rules! on_every_endpoint {
    ($check:ident ( $($arg:expr),* )) => {{
        $check::<ClosedPnlQuery>($($arg),*)?;
        $check::<FundingHistoryQuery>($($arg),*)?;
        $check::<ExecutedHistoryQuery>($($arg),*)?;
        $check::<OrderDealsQuery>($($arg),*)?;
        $check::<PositionHistoryQuery>($($arg),*)?;
        $check::<OrderHistoryQuery>($($arg),*)?;
        $check::<InvestmentsQuery>($($arg),*)?;
    }};
}

fn unchanged<Q: Scripted>(n: u64, limit: u64) -> Result<(), TestCaseError> {
    let mut list = newest_first(n, 1);
    let expected = list.clone();
    let read = read_whole::<Q>(limit, &mut list, |_, _| {});
    prop_assert!(read.end.is_ok(), "{:?}", read.end);
    let mut ids = read.ids.clone();
    let mut want = expected.clone();
    // Grouped answers order a page market by market: compare as sets, count exactly.
    ids.sort_unstable();
    want.sort_unstable();
    prop_assert_eq!(ids, want);
    prop_assert!(read.requests as u64 <= n + 1, "{} requests", read.requests);
    Ok(())
}

fn head_growth<Q: Scripted>(n: u64, limit: u64, added: &[u64]) -> Result<(), TestCaseError> {
    let mut list = newest_first(n, 1);
    let always: BTreeSet<u64> = list.iter().copied().collect();
    let mut next = n + 1;
    let read = read_whole::<Q>(limit, &mut list, |request, list| {
        for _ in 0..added.get(request).copied().unwrap_or(0) {
            list.insert(0, next);
            next += 1;
        }
    });
    holds(&read, &always)?;
    // Fewer added between two pages than a page re-reads: the read never has to stop.
    let page = limit.max(2);
    if added.iter().all(|&a| a < page - 1) {
        prop_assert!(read.end.is_ok(), "{:?}", read.end);
    }
    Ok(())
}

fn any_change<Q: Scripted>(
    n: u64,
    limit: u64,
    changes: &[(bool, usize)],
) -> Result<(), TestCaseError> {
    let mut list = newest_first(n, 1);
    let mut always: BTreeSet<u64> = list.iter().copied().collect();
    let mut next = n + 1;
    let read = read_whole::<Q>(limit, &mut list, |request, list| {
        if let Some(&(add, at)) = changes.get(request) {
            if add {
                list.insert(at % (list.len() + 1), next);
                next += 1;
            } else if !list.is_empty() {
                let gone = list.remove(at % list.len());
                always.remove(&gone);
            }
        }
    });
    holds(&read, &always)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn an_unchanged_list_is_read_whole_through_every_endpoint(n in 0u64..120, limit in 1u64..=40) {
        on_every_endpoint!(unchanged(n, limit));
    }

    #[test]
    fn records_added_at_the_head_are_never_repeated_nor_skipped_silently(
        n in 0u64..120,
        limit in 1u64..=30,
        added in proptest::collection::vec(0u64..8, 0..40),
    ) {
        on_every_endpoint!(head_growth(n, limit, &added));
    }

    #[test]
    fn any_change_between_pages_is_survived_whole_or_signalled(
        n in 0u64..120,
        limit in 1u64..=30,
        changes in proptest::collection::vec((any::<bool>(), any::<usize>()), 0..40),
    ) {
        on_every_endpoint!(any_change(n, limit, &changes));
    }
}

/// The closed PnL's window, `offset + limit` ≤ 10 000, reached with the list going on: the
/// reachable records, then the typed error — and the investments' offset cap likewise.
#[test]
fn the_offset_cap_ends_the_read_with_its_error_after_every_reachable_record() {
    let mut list = newest_first(10_050, 1);
    let read = read_whole::<ClosedPnlQuery>(100, &mut list, |_, _| {});
    assert_eq!(read.ids.len(), 10_000);
    assert!(
        matches!(
            read.end,
            Err(PagingError::OffsetCap {
                next_offset: 10_000,
                read: 10_000,
                ..
            })
        ),
        "{:?}",
        read.end
    );
    // Exactly 10 000: the last full page may be followed by more — the cap says so too.
    let mut list = newest_first(10_000, 1);
    let read = read_whole::<ClosedPnlQuery>(100, &mut list, |_, _| {});
    assert!(matches!(read.end, Err(PagingError::OffsetCap { .. })));
    // One fewer: the short page is the last.
    let mut list = newest_first(9_999, 1);
    let read = read_whole::<ClosedPnlQuery>(100, &mut list, |_, _| {});
    assert_eq!((read.ids.len(), read.end), (9_999, Ok(())));

    let mut list = newest_first(10_200, 1);
    let read = read_whole::<InvestmentsQuery>(100, &mut list, |_, _| {});
    assert!(
        matches!(read.end, Err(PagingError::OffsetCap { .. })),
        "{:?}",
        read.end
    );
    let distinct: HashSet<u64> = read.ids.iter().copied().collect();
    assert_eq!(distinct.len(), read.ids.len());
    assert!(read.ids.len() >= 10_000, "{}", read.ids.len());
}
