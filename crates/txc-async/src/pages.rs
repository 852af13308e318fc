//! [`PageStream`]: a whole paged list as an async [`Stream`](futures_core::Stream) of pages, a
//! driver of `txc-core`'s [`ListRead`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use txc_core::Error;
use txc_core::machine::ListRead;
use txc_types::paging::Paged;

use crate::Client;

/// What reading one page gives back: the read (to go on with), and the page.
type Read<Q> = (
    ListRead<Q>,
    Option<Result<Vec<<Q as Paged>::Record>, Error>>,
);

/// Where a [`PageStream`] is.
enum State<'c, Q: Paged> {
    /// Between pages.
    Idle(ListRead<Q>),
    /// Reading a page: the read is inside the future, and comes back with the page.
    Reading(Pin<Box<dyn Future<Output = Read<Q>> + Send + 'c>>),
    /// The list was read whole, or the read ended.
    Done,
}

/// A paged list read page by page ([`Client::pages`]): a [`Stream`](futures_core::Stream) whose
/// items are the next page's records not read before, in the exchange's order — or the error
/// that ends the read (a failed request, after the client's retries; [`Error::Paging`] when the
/// list lies past the exchange's offset cap or changed so that a record may have been skipped —
/// never a silent stop). It ends after the last page by the endpoint's own rule, and after an
/// error. Read it with [`next`](Self::next), or as a `Stream`.
///
/// ```
/// use txc_async::{Client, Credentials};
/// use txc_async::investments::flex::FlexPlansQuery;
/// use txc_sandbox::{demo, Sandbox};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let sandbox = Sandbox::start()?;
/// let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?;
/// let client = Client::builder(credentials).base_url(sandbox.base_url()).build()?;
/// let mut pages = client.pages(FlexPlansQuery::builder().limit(2).build()?); // two a page
/// let mut plans = Vec::new();
/// while let Some(page) = pages.next().await {
///     plans.extend(page?);
/// }
/// assert!(plans.iter().any(|p| p.id == demo::FLEX_USDT_PLAN));
/// # Ok(())
/// # }
/// ```
pub struct PageStream<'c, Q: Paged> {
    client: &'c Client,
    state: State<'c, Q>,
}

impl<'c, Q> PageStream<'c, Q>
where
    Q: Paged + Send + Sync + 'c,
    Q::Key: Send + Sync,
    Q::Record: Send,
    Q::Response: Send,
{
    pub(crate) fn new(client: &'c Client, query: Q) -> Self {
        Self {
            client,
            state: State::Idle(ListRead::new(query)),
        }
    }

    /// The next page; `None` once the list was read whole, or after an error.
    pub async fn next(&mut self) -> Option<Result<Vec<Q::Record>, Error>> {
        std::future::poll_fn(|cx| self.poll_page(cx)).await
    }

    fn poll_page(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Vec<Q::Record>, Error>>> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Idle(mut read) => {
                    let client = self.client;
                    self.state = State::Reading(Box::pin(async move {
                        let page = client.drive(read.next_page(client.core())).await;
                        (read, page)
                    }));
                }
                State::Reading(mut future) => match future.as_mut().poll(cx) {
                    Poll::Pending => {
                        self.state = State::Reading(future);
                        return Poll::Pending;
                    }
                    Poll::Ready((read, page)) => {
                        if page.is_some() {
                            self.state = State::Idle(read);
                        }
                        return Poll::Ready(page);
                    }
                },
                State::Done => return Poll::Ready(None),
            }
        }
    }
}

// Nothing in it is pinned in place: the page being read is a future boxed on its own.
impl<Q: Paged> Unpin for PageStream<'_, Q> {}

impl<'c, Q> futures_core::Stream for PageStream<'c, Q>
where
    Q: Paged + Send + Sync + 'c,
    Q::Key: Send + Sync,
    Q::Record: Send,
    Q::Response: Send,
{
    type Item = Result<Vec<Q::Record>, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_page(cx)
    }
}

impl<Q: Paged> fmt::Debug for PageStream<'_, Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.state {
            State::Idle(read) => format!("between pages, {} read", read.cursor().pages_read()),
            State::Reading(_) => "reading a page".to_owned(),
            State::Done => "done".to_owned(),
        };
        f.debug_struct("PageStream")
            .field("state", &state)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Reads a whole paged list — any [`Paged`] query: the flex plans, investments and
    /// histories, the fixed plans' investments and interest payments, … — a page at a time,
    /// from the query's offset on, with its filters: a [`PageStream`] (see it for what each
    /// page holds and when it ends). Each page is one request, retried as a read.
    pub fn pages<'c, Q>(&'c self, query: Q) -> PageStream<'c, Q>
    where
        Q: Paged + Send + Sync + 'c,
        Q::Key: Send + Sync,
        Q::Record: Send,
        Q::Response: Send,
    {
        PageStream::new(self, query)
    }
}
