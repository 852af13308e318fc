//! [`Pages`]: a whole paged list as a blocking iterator of pages, a driver of `txc-core`'s
//! [`ListRead`].

use txc_core::Error;
use txc_core::machine::ListRead;
use txc_types::paging::{PageCursor, Paged};

use crate::Client;

/// A paged list read page by page ([`Client::pages`]): each item is the next page's records
/// not read before, in the exchange's order — or the error that ends the read (a failed
/// request, after the client's retries; [`Error::Paging`] when the list lies past the
/// exchange's offset cap or changed so that a record may have been skipped — never a silent
/// stop). It stops after the last page by the endpoint's own rule, and after an error.
///
/// ```
/// use txc_blocking::{Client, Credentials};
/// use txc_blocking::investments::flex::FlexPlansQuery;
/// use txc_sandbox::{demo, Sandbox};
///
/// let sandbox = Sandbox::start()?;
/// let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
/// let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
/// let query = FlexPlansQuery::builder().limit(2).build()?; // two plans a page
/// let plans: Vec<_> = client.pages(query).collect::<Result<Vec<_>, _>>()?.concat();
/// assert!(plans.iter().any(|p| p.id == demo::FLEX_USDT_PLAN));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Pages<'c, Q: Paged> {
    client: &'c Client,
    read: ListRead<Q>,
}

impl<'c, Q: Paged> Pages<'c, Q> {
    pub(crate) fn new(client: &'c Client, query: Q) -> Self {
        Self {
            client,
            read: ListRead::new(query),
        }
    }

    /// How far the read got: pages and records read, repeats dropped.
    pub fn cursor(&self) -> &PageCursor<Q> {
        self.read.cursor()
    }
}

impl<Q: Paged> Iterator for Pages<'_, Q> {
    type Item = Result<Vec<Q::Record>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.client.drive(self.read.next_page(self.client.core()))
    }
}

impl Client {
    /// Reads a whole paged list — any [`Paged`] query: the flex plans, investments and
    /// histories, the fixed plans' investments and interest payments, … — a page at a time,
    /// from the query's offset on, with its filters: a blocking iterator of [`Pages`] (see it
    /// for what each page holds and when it stops). Each page is one request, retried as a read.
    pub fn pages<Q: Paged>(&self, query: Q) -> Pages<'_, Q> {
        Pages::new(self, query)
    }
}
