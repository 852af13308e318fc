//! Paging against a scripted exchange: lists of numbered records served by offset and limit,
//! newest first, as the endpoints do — unchanged, gaining records at the head between pages
//! (as histories do), or changing anywhere. Each property runs over real endpoints of every
//! paging rule: a window cap (closed PnL), a `total` (conditional orders), an offset cap
//! (interest payments), none (funding), answers grouped by market (executed deals) and a
//! page size the spec does not give (position history).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::{BTreeSet, HashSet};

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use txc_types::investments::{InterestPaymentsPage, InterestPaymentsQuery, InvestmentsQuery};
use txc_types::lookups::{
    ConditionalOrder, ConditionalOrders, ConditionalOrdersQuery, ExecutedDeals,
    ExecutedHistoryQuery,
};
use txc_types::paging::{OffsetCap, PageCursor, Paged, PagingError};
use txc_types::positions::{
    ClosedPnlQuery, ClosedPosition, FundingHistory, FundingHistoryQuery, PositionEvent,
    PositionHistoryQuery,
};

fn decode<T: DeserializeOwned>(text: &str) -> T {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// An endpoint the scripted exchange serves: its answer holding the records numbered `ids`
/// of a list of `total`, and a record's number.
trait Scripted: Paged + PartialEq + std::fmt::Debug {
    /// Whether the answer groups its records by market (their order across markets is then
    /// the answer's, not the list's).
    const GROUPED: bool = false;
    fn answer(ids: &[u64], total: usize) -> Self::Response;
    fn id(record: &Self::Record) -> u64;
}

fn joined(ids: &[u64], record: impl Fn(u64) -> String) -> String {
    ids.iter()
        .map(|&id| record(id))
        .collect::<Vec<_>>()
        .join(",")
}

impl Scripted for ClosedPnlQuery {
    fn answer(ids: &[u64], _: usize) -> Vec<ClosedPosition> {
        decode(&format!(
            "[{}]",
            joined(ids, |id| format!(
                r#"{{"positionId":{id},"market":"BTC_PERP"}}"#
            ))
        ))
    }
    fn id(record: &ClosedPosition) -> u64 {
        record.position_id
    }
}

impl Scripted for ConditionalOrdersQuery {
    fn answer(ids: &[u64], total: usize) -> ConditionalOrders {
        let records = joined(ids, |id| format!(r#"{{"id":{id},"type":"oco"}}"#));
        decode(&format!(r#"{{"total":{total},"records":[{records}]}}"#))
    }
    fn id(record: &ConditionalOrder) -> u64 {
        match record {
            ConditionalOrder::Oco(group) => group.id,
            other => panic!("{other:?}"),
        }
    }
}

impl Scripted for InterestPaymentsQuery {
    fn answer(ids: &[u64], _: usize) -> InterestPaymentsPage {
        let records = joined(ids, |id| {
            format!(
                r#"{{"planId":"p","investmentId":"i{id}","amount":"1","ticker":"USDT","timestamp":{id}}}"#
            )
        });
        decode(&format!(r#"{{"records":[{records}]}}"#))
    }
    fn id(record: &txc_types::investments::InterestPayment) -> u64 {
        record.timestamp.unix_seconds()
    }
}

impl Scripted for FundingHistoryQuery {
    fn answer(ids: &[u64], _: usize) -> FundingHistory {
        let records = joined(ids, |id| {
            format!(
                r#"{{"market":"BTC_PERP","fundingTime":"{id}","positionAmount":"1","fundingAmount":"-1"}}"#
            )
        });
        decode(&format!(
            r#"{{"records":[{records}],"limit":1,"offset":0}}"#
        ))
    }
    fn id(record: &txc_types::positions::FundingPayment) -> u64 {
        record.funding_time.as_ref().unwrap().unix_seconds()
    }
}

impl Scripted for ExecutedHistoryQuery {
    const GROUPED: bool = true;
    fn answer(ids: &[u64], _: usize) -> ExecutedDeals {
        let markets = ["BTC_PERP", "ETH_PERP", "BTC_USDT"];
        let groups: Vec<String> = markets
            .iter()
            .enumerate()
            .filter_map(|(i, market)| {
                let mine: Vec<u64> = ids
                    .iter()
                    .copied()
                    .filter(|id| id % 3 == i as u64)
                    .collect();
                (!mine.is_empty()).then(|| {
                    let deals = joined(&mine, |id| {
                        format!(r#"{{"id":{id},"time":{id},"price":"1","amount":"1"}}"#)
                    });
                    format!(r#""{market}":[{deals}]"#)
                })
            })
            .collect();
        decode(&format!("{{{}}}", groups.join(",")))
    }
    fn id(record: &txc_types::lookups::ExecutedDeal) -> u64 {
        record.id
    }
}

impl Scripted for PositionHistoryQuery {
    fn answer(ids: &[u64], _: usize) -> Vec<PositionEvent> {
        decode(&format!(
            "[{}]",
            joined(ids, |id| format!(
                r#"{{"positionId":7,"market":"BTC_PERP","modifyDate":{id}}}"#
            ))
        ))
    }
    fn id(record: &PositionEvent) -> u64 {
        record.modify_date.as_ref().unwrap().unix_seconds()
    }
}

/// The records a query's page holds of `list`.
fn serve<Q: Scripted>(query: &Q, list: &[u64]) -> Q::Response {
    let from = usize::try_from(query.page_offset())
        .unwrap()
        .min(list.len());
    let limit = usize::try_from(query.page_limit().expect("a limit is sent")).unwrap();
    Q::answer(&list[from..(from + limit).min(list.len())], list.len())
}

/// Reads `list` by `page_after` alone, from `query`: the records' numbers and how it ended.
/// Every query it makes stays within the endpoint's caps.
fn walk<Q: Scripted>(mut query: Q, list: &[u64]) -> (Vec<u64>, Result<(), PagingError>) {
    let mut ids = Vec::new();
    loop {
        let answer = serve(&query, list);
        let end = query.page_after(&answer);
        ids.extend(query.records(answer).iter().map(Q::id));
        match end {
            Ok(Some(next)) => {
                if let Some(window) = Q::WINDOW {
                    assert!(next.page_offset() + next.page_limit().unwrap() <= window);
                }
                query = next;
            }
            Ok(None) => return (ids, Ok(())),
            Err(e) => return (ids, Err(e)),
        }
    }
}

/// What a read gave: the records' numbers, how it ended, the pages asked for.
struct Read {
    ids: Vec<u64>,
    end: Result<(), PagingError>,
    pages: u64,
    repeats: u64,
}

/// Reads `list` with a cursor from `query`, letting `change` alter the list after each page
/// (its argument: the page's number, from 0).
fn read<Q: Scripted>(
    query: Q,
    list: &mut Vec<u64>,
    mut change: impl FnMut(usize, &mut Vec<u64>),
) -> Read {
    let mut cursor = PageCursor::new(query);
    let mut ids = Vec::new();
    let end = loop {
        let query = match cursor.next_query() {
            Ok(Some(query)) => query.clone(),
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        };
        // Asking again gives the same query.
        assert_eq!(cursor.next_query().unwrap(), Some(&query));
        let records = cursor.accept(serve(&query, list)).unwrap();
        ids.extend(records.iter().map(Q::id));
        change(usize::try_from(cursor.pages_read()).unwrap() - 1, list);
        assert!(cursor.pages_read() < 100_000, "the read must end");
    };
    assert_eq!(end.is_ok(), cursor.is_finished());
    assert_eq!(cursor.records_read(), ids.len() as u64);
    // Done or stopped, a cursor takes no more pages.
    assert!(matches!(
        cursor.accept(Q::answer(&[], 0)),
        Err(PagingError::NotAsked)
    ));
    Read {
        ids,
        end,
        pages: cursor.pages_read(),
        repeats: cursor.repeats_dropped(),
    }
}

/// The pages a cursor reads of an unchanged list of `n` records, from offset 0 with a page
/// of `limit` (each page after the first re-reading one record), by the endpoint's rule.
fn pages_expected(n: u64, limit: u64, total_rule: bool) -> u64 {
    let step = limit - 1;
    if n < limit || (total_rule && n == limit) {
        return 1;
    }
    let beyond = n - limit;
    if total_rule {
        beyond.div_ceil(step) + 1
    } else {
        beyond / step + 2
    }
}

/// Checks a read of an unchanged list of `n` records.
fn unchanged<Q: Scripted>(query: Q, n: u64, total_rule: bool) -> Result<(), TestCaseError> {
    let limit = PageCursor::new(query.clone())
        .next_query()
        .unwrap()
        .unwrap()
        .page_limit()
        .unwrap();
    let mut list: Vec<u64> = (0..n).rev().collect();
    let got = read(query, &mut list, |_, _| {});
    prop_assert_eq!(&got.end, &Ok(()));
    if Q::GROUPED {
        let mut sorted = got.ids.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        prop_assert_eq!(&sorted, &list);
    } else {
        prop_assert_eq!(&got.ids, &list);
    }
    prop_assert_eq!(got.pages, pages_expected(n, limit, total_rule));
    prop_assert_eq!(got.repeats, 0);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// An unchanged list is read whole, each record once, in order, and the read stops
    /// exactly after the page the endpoint's own rule calls the last.
    #[test]
    fn an_unchanged_list_is_read_whole_and_stops_at_the_last_page(
        n in 0u64..400,
        limit in 1u64..=100,
    ) {
        unchanged(ClosedPnlQuery::builder().limit(limit).build().unwrap(), n, false)?;
        unchanged(ConditionalOrdersQuery::builder().limit(limit).build().unwrap(), n, true)?;
        unchanged(InterestPaymentsQuery::builder().limit(limit).build().unwrap(), n, false)?;
        unchanged(FundingHistoryQuery::builder().limit(limit).build().unwrap(), n, false)?;
        unchanged(ExecutedHistoryQuery::builder().limit(limit).build().unwrap(), n, false)?;
        unchanged(PositionHistoryQuery::builder().limit(limit).build().unwrap(), n, false)?;
        // Without a limit: the documented default, or (position history) the most a page
        // holds.
        unchanged(ClosedPnlQuery::new(), n, false)?;
        unchanged(ConditionalOrdersQuery::new(), n, true)?;
        unchanged(PositionHistoryQuery::new(), n, false)?;
    }

    /// Records added at the head between pages (a newest-first history) are never returned
    /// twice and never make the read skip one: every record of the list at the start is
    /// returned exactly once, in order, and the read ends normally.
    #[test]
    fn records_added_at_the_head_are_neither_repeated_nor_cause_a_skip(
        n in 0u64..300,
        limit in 2u64..=60,
        added in proptest::collection::vec(0u64..60, 0..40),
    ) {
        let query = ClosedPnlQuery::builder().limit(limit).build().unwrap();
        let mut list: Vec<u64> = (0..n).rev().collect();
        let original = list.clone();
        let mut next_id = n;
        let mut inserted = 0;
        let got = read(query, &mut list, |page, list| {
            // Fewer than a page at a time, as a history gains records.
            let k = added.get(page).copied().unwrap_or(0) % limit;
            for _ in 0..k {
                list.insert(0, next_id);
                next_id += 1;
                inserted += 1;
            }
        });
        prop_assert_eq!(&got.end, &Ok(()));
        let unique: HashSet<u64> = got.ids.iter().copied().collect();
        prop_assert_eq!(unique.len(), got.ids.len(), "a record returned twice");
        let old: Vec<u64> = got.ids.iter().copied().filter(|id| *id < n).collect();
        prop_assert_eq!(old, original);
        prop_assert!(got.repeats <= inserted);
    }

    /// Any change between pages — records added or removed anywhere — never makes the read
    /// return a record twice, and never a silent skip: the read either ends normally having
    /// returned every record that was in the list throughout, exactly once, or stops with
    /// `ListMoved`.
    #[test]
    fn any_change_is_either_survived_whole_or_signalled(
        n in 0u64..200,
        limit in 2u64..=40,
        changes in proptest::collection::vec((0u64..8, 0u64..8, any::<u64>()), 0..30),
        grouped in any::<bool>(),
    ) {
        let mut list: Vec<u64> = (0..n).rev().collect();
        let mut removed = BTreeSet::new();
        let mut next_id = n;
        let mut change = |page: usize, list: &mut Vec<u64>| {
            let Some(&(adds, removes, seed)) = changes.get(page) else { return };
            for i in 0..removes {
                if list.is_empty() { break; }
                let at = usize::try_from((seed >> (i * 4)) % list.len() as u64).unwrap();
                removed.insert(list.remove(at));
            }
            for i in 0..adds {
                let at = usize::try_from((seed >> (i * 3 + 1)) % (list.len() as u64 + 1)).unwrap();
                list.insert(at, next_id);
                next_id += 1;
            }
        };
        let got = if grouped {
            read(ExecutedHistoryQuery::builder().limit(limit).build().unwrap(), &mut list, &mut change)
        } else {
            read(ClosedPnlQuery::builder().limit(limit).build().unwrap(), &mut list, &mut change)
        };
        let unique: HashSet<u64> = got.ids.iter().copied().collect();
        prop_assert_eq!(unique.len(), got.ids.len(), "a record returned twice");
        prop_assert!(unique.iter().all(|id| *id < next_id));
        match got.end {
            Ok(()) => {
                let throughout: BTreeSet<u64> = (0..n).filter(|id| !removed.contains(id)).collect();
                let missing: Vec<&u64> = throughout.iter().filter(|id| !unique.contains(id)).collect();
                prop_assert!(missing.is_empty(), "skipped {:?}", missing);
            }
            Err(PagingError::ListMoved { read: count, .. }) => {
                prop_assert_eq!(count, got.ids.len() as u64);
            }
            Err(other) => prop_assert!(false, "{other}"),
        }
    }

    /// `page_after` alone (no cursor, no overlap) walks an unchanged list exactly: every
    /// record once, `Ok(None)` after the last page.
    #[test]
    fn page_after_walks_an_unchanged_list_exactly(n in 0u64..400, limit in 1u64..=100) {
        let list: Vec<u64> = (0..n).rev().collect();
        let (ids, end) = walk(FundingHistoryQuery::builder().limit(limit).build().unwrap(), &list);
        prop_assert_eq!(end, Ok(()));
        prop_assert_eq!(ids, list);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// A list longer than the window is read up to the window, then the read fails with
    /// `OffsetCap` — never stops silently — whether the cursor or `page_after` reads it.
    #[test]
    fn the_offset_cap_is_an_error_never_a_silent_stop(
        n in 9_950u64..10_150,
        limit in 60u64..=100,
    ) {
        let mut list: Vec<u64> = (0..n).rev().collect();
        let got = read(ClosedPnlQuery::builder().limit(limit).build().unwrap(), &mut list, |_, _| {});
        let reachable = n.min(10_000);
        prop_assert_eq!(&got.ids[..], &list[..usize::try_from(reachable).unwrap()]);
        if n >= 10_000 {
            // A full page ends at the window: what lies past it cannot be known.
            prop_assert_eq!(got.end, Err(PagingError::OffsetCap {
                cap: OffsetCap::Window(10_000),
                next_offset: 10_000,
                read: 10_000,
            }));
        } else {
            prop_assert_eq!(got.end, Ok(()));
        }

        let (ids, end) = walk(ClosedPnlQuery::builder().limit(limit).build().unwrap(), &list);
        prop_assert_eq!(&ids[..], &list[..usize::try_from(reachable).unwrap()]);
        prop_assert_eq!(end.is_err(), n >= 10_000);
    }
}

#[test]
fn an_offset_cap_of_the_offset_itself_stops_with_an_error() {
    // Interest payments: offset at most 10 000.
    let mut list: Vec<u64> = (0..10_150).rev().collect();
    let got = read(
        InterestPaymentsQuery::builder()
            .limit(100)
            .offset(9_800)
            .build()
            .unwrap(),
        &mut list,
        |_, _| {},
    );
    // Pages from 9 800, 9 899 and 9 998 (each re-reading one record); the next would start
    // at 10 097, past the cap.
    assert_eq!(got.ids, list[9_800..10_098]);
    assert_eq!(
        got.end,
        Err(PagingError::OffsetCap {
            cap: OffsetCap::Offset(10_000),
            next_offset: 10_098,
            read: 298,
        })
    );
    // The kept `next_page` of the investments says `None` there; `page_after` says why.
    let full: txc_types::investments::InvestmentsPage = decode(&format!(
        r#"{{"records":[{}]}}"#,
        joined(&[0; 100], |_| investment())
    ));
    let deep = InvestmentsQuery::builder().offset(9_950).build().unwrap();
    assert_eq!(deep.next_page(&full), None);
    assert!(matches!(
        deep.page_after(&full),
        Err(PagingError::OffsetCap {
            cap: OffsetCap::Offset(10_000),
            next_offset: 10_050,
            ..
        })
    ));
    let shallow = InvestmentsQuery::new();
    let next = shallow.next_page(&full).unwrap();
    assert_eq!(Some(next), shallow.page_after(&full).unwrap());
}

fn investment() -> String {
    r#"{"id":"0d7b66ff","plan":{"id":"8e667b4a","ticker":"USDT","status":1,"percent":"10",
        "duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100",
        "maxInvestment":"10000","maxPossibleInvestment":"3000"},"status":1,"created":1646825196,
        "updated":1646825196,"paymentTime":1646839596,"amount":"100","interestPaid":"0"}"#
        .to_owned()
}

#[test]
fn records_removed_ahead_of_the_read_position_stop_the_read() {
    // 30 records (29 to 0), pages of 10: after the first page (29 to 20), the 12 records at
    // the head are removed, so the next page (from offset 9) holds none read before —
    // records 17 to 9 moved ahead of it, unread.
    let mut list: Vec<u64> = (0..30).rev().collect();
    let got = read(
        ClosedPnlQuery::builder().limit(10).build().unwrap(),
        &mut list,
        |page, list| {
            if page == 0 {
                list.drain(..12);
            }
        },
    );
    assert_eq!(
        got.end,
        Err(PagingError::ListMoved {
            offset: 9,
            read: 19
        })
    );
    // Removed behind the read position only (records already read): nothing moved past the
    // next offset that was not read.
    let mut list: Vec<u64> = (0..30).rev().collect();
    let got = read(
        ClosedPnlQuery::builder().limit(10).build().unwrap(),
        &mut list,
        |page, list| {
            if page == 0 {
                list.remove(20);
            }
        },
    );
    assert_eq!(got.end, Ok(()));
    assert_eq!(got.ids.len(), 29);
}

#[test]
fn the_page_size_is_always_known_to_the_rule() {
    // The position history documents no default page size: a page of a query without a
    // limit cannot be judged, and `page_after` says so; a cursor sends the most a page holds.
    let some: Vec<PositionEvent> = PositionHistoryQuery::answer(&[3, 2, 1], 3);
    let none: Vec<PositionEvent> = Vec::new();
    let query = PositionHistoryQuery::new();
    assert_eq!(query.page_after(&some), Err(PagingError::UnknownLimit));
    assert_eq!(query.page_after(&none), Ok(None));
    let cursor = PageCursor::new(query);
    assert_eq!(cursor.next_query().unwrap().unwrap().limit(), Some(100));
    // Other endpoints' defaults are sent explicitly; a limit of 1 is read as 2 (each page
    // re-reads one record).
    let sent = |q: ClosedPnlQuery| PageCursor::new(q).next_query().unwrap().unwrap().limit();
    assert_eq!(sent(ClosedPnlQuery::new()), Some(50));
    assert_eq!(
        sent(ClosedPnlQuery::builder().limit(1).build().unwrap()),
        Some(2)
    );
    // At the window's edge the first page is shortened to fit it.
    let edge = ClosedPnlQuery::builder()
        .limit(1)
        .offset(9_999)
        .build()
        .unwrap();
    assert_eq!(sent(edge), Some(1));
}

#[test]
fn each_paging_error_says_what_happened() {
    let errors = [
        PagingError::OffsetCap {
            cap: OffsetCap::Window(10_000),
            next_offset: 10_000,
            read: 10_000,
        },
        PagingError::OffsetCap {
            cap: OffsetCap::Offset(10_000),
            next_offset: 10_098,
            read: 298,
        },
        PagingError::ListMoved {
            offset: 9,
            read: 19,
        },
        PagingError::UnknownLimit,
        PagingError::NotAsked,
    ];
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!(lines.join("\n"));
}
