//! [`ListRead`]: a whole paged list read page by page through the shared
//! [`PageCursor`] — and [`NextPage`], the machine a transport drives for each page: what a
//! transport's page iterator (`pages()`: a blocking `Iterator`, an async `Stream`) is made of,
//! for every paged read ([`Paged`]).

use std::time::SystemTime;

use txc_types::paging::{PageCursor, Paged};

use super::call::Call;
use crate::{ClientCore, Error, Machine, Response, Step, TransportError};

/// A list read page by page, as far as it got: the [`PageCursor`] over the query, and whether
/// a page failed (the read then ends). Each [`next_page`](Self::next_page) is a [`NextPage`]
/// machine to drive; its output is the next page's records, or `None` once the list was read
/// whole (or after a failure, which is given once).
///
/// ```
/// use std::time::SystemTime;
/// use txc_core::decode::Response;
/// use txc_core::machine::ListRead;
/// use txc_core::{ClientConfig, Machine, Step};
/// use txc_core::txc_sign::Credentials;
/// use txc_types::investments::flex::FlexPlansQuery;
///
/// let core = ClientConfig::new(Credentials::new("my-key", "my-secret")?)
///     .base_url("http://127.0.0.1:9")
///     .build()?;
/// let mut plans = ListRead::new(FlexPlansQuery::builder().limit(3).build()?);
/// let page = |ids: &[&str]| {
///     let plans: Vec<String> = ids.iter().map(|id| format!(
///         r#"{{"id":"{id}","ticker":"USDT","minInvestment":"1","maxInvestment":"9","maxRate":"0.1"}}"#
///     )).collect();
///     format!("[{}]", plans.join(","))
/// };
/// // A full page, then a short one, which re-reads the first's last plan.
/// let mut read = Vec::new();
/// for answer in [page(&["a", "b", "c"]), page(&["c", "d"])] {
///     let mut next = plans.next_page(&core);
///     let Step::Send(_request) = next.next(SystemTime::now()) else { unreachable!() };
///     next.receive(Ok(Response::new(200, answer.as_bytes())));
///     let Step::Done(Some(records)) = next.next(SystemTime::now()) else { unreachable!() };
///     read.extend(records?.into_iter().map(|p| p.id));
/// }
/// assert_eq!(read, ["a", "b", "c", "d"]);
/// let Step::Done(None) = plans.next_page(&core).next(SystemTime::now()) else { unreachable!() };
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ListRead<Q: Paged> {
    cursor: PageCursor<Q>,
    failed: bool,
}

impl<Q: Paged> ListRead<Q> {
    /// A read of the list `query` asks for, from its offset on, with its filters.
    pub fn new(query: Q) -> Self {
        Self {
            cursor: PageCursor::new(query),
            failed: false,
        }
    }

    /// The cursor: how far the read got (pages and records read, repeats dropped).
    pub fn cursor(&self) -> &PageCursor<Q> {
        &self.cursor
    }

    /// Reads the next page with `core`: a [`NextPage`] machine.
    pub fn next_page<'a>(&'a mut self, core: &'a ClientCore) -> NextPage<'a, Q> {
        NextPage {
            core,
            read: self,
            call: None,
        }
    }

    /// Ends the read with `error`: given once, then the read is over.
    fn fail(&mut self, error: Error) -> Step<Option<Result<Vec<Q::Record>, Error>>> {
        self.failed = true;
        Step::Done(Some(Err(error)))
    }
}

/// Reads the next page of a [`ListRead`] that holds records not read before: a [`Machine`]
/// whose output is `Some` of those records (in the exchange's order), `Some` of the error that
/// ends the read — a failed request (after the client's retries of a read), or a list that
/// cannot be read further ([`Error::Paging`]: past the exchange's offset cap, or changed under
/// the read) — or `None` once the list was read whole or the read ended.
pub struct NextPage<'a, Q: Paged> {
    core: &'a ClientCore,
    read: &'a mut ListRead<Q>,
    call: Option<Call<'a, Q>>,
}

impl<Q: Paged> Machine for NextPage<'_, Q> {
    type Output = Option<Result<Vec<Q::Record>, Error>>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        loop {
            if self.read.failed {
                return Step::Done(None);
            }
            let call = match &mut self.call {
                Some(call) => call,
                None => match self.read.cursor.next_query() {
                    Ok(Some(query)) => self.call.insert(self.core.call_owned(query.clone())),
                    Ok(None) => return Step::Done(None),
                    Err(stopped) => return self.read.fail(stopped.into()),
                },
            };
            match call.next(now).forward() {
                Ok(step) => return step,
                Err(Err(failed)) => return self.read.fail(failed),
                Err(Ok(answer)) => {
                    self.call = None;
                    match self.read.cursor.accept(answer) {
                        // A page of records read already: on to the next one.
                        Ok(records) if records.is_empty() => {}
                        Ok(records) => return Step::Done(Some(Ok(records))),
                        Err(stopped) => return self.read.fail(stopped.into()),
                    }
                }
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some(call) = &mut self.call {
            call.receive(response);
        }
    }
}
