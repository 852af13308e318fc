//! The account's reports with the async [`Client`]: what closed positions made (closed PnL),
//! what funding paid and cost, how close each perpetual position is to auto-deleveraging (ADL
//! quantiles), and the executed deals — of the whole account, or of one order. Every one is a
//! read through `txc-core`'s call machine (retried as a read); the paged ones are read whole
//! with [`Client::pages`].

use txc_core::Error;
use txc_types::lookups::{ExecutedDeals, ExecutedHistoryQuery, OrderDeals, OrderDealsQuery};
use txc_types::positions::{
    AdlQuantileQuery, ClosedPnlQuery, ClosedPosition, FundingHistory, FundingHistoryQuery,
    MarketAdlQuantile,
};

use crate::Client;

impl Client {
    /// A page of the closed positions' PnL, one aggregated record per closed position, newest
    /// close first (`POST /api/v4/collateral-account/positions/closed-pnl`); [`Client::pages`]
    /// reads them all, stopping at the short page or, past `offset + limit` = 10 000, with
    /// [`PagingError::OffsetCap`](crate::paging::PagingError::OffsetCap). An `endDate` more
    /// than a second past the exchange's time is refused before sending.
    pub async fn closed_pnl(&self, query: &ClosedPnlQuery) -> Result<Vec<ClosedPosition>, Error> {
        self.send(query).await
    }

    /// A page of the funding paid and received by the account's positions, newest first
    /// (`POST /api/v4/collateral-account/funding-history`); [`Client::pages`] reads it all.
    pub async fn funding_history(
        &self,
        query: &FundingHistoryQuery,
    ) -> Result<FundingHistory, Error> {
        self.send(query).await
    }

    /// The ADL quantile of each perpetual market where the account holds a position, long
    /// and short (`POST /api/v4/collateral-account/adl-quantile`); empty without one.
    pub async fn adl_quantile(&self) -> Result<Vec<MarketAdlQuantile>, Error> {
        self.send(&AdlQuantileQuery).await
    }

    /// A page of the account's executed deals, of every trading type — collateral markets'
    /// included —, newest first, of one market, one `clientOrderId` or all (`POST
    /// /api/v4/trade-account/executed-history`); [`Client::pages`] reads it all, counting a
    /// page's deals across markets. A `clientOrderId` matching no order is no deals.
    pub async fn executed_history(
        &self,
        query: &ExecutedHistoryQuery,
    ) -> Result<ExecutedDeals, Error> {
        self.send(query).await
    }

    /// A page of one order's deals by its `orderId` (`POST /api/v4/trade-account/order`);
    /// [`Client::pages`] reads them all. An unknown order, or one older than six months, is an
    /// empty page, not an error: see [`OrderDealsQuery`] for what that does not prove.
    pub async fn order_deals(&self, query: &OrderDealsQuery) -> Result<OrderDeals, Error> {
        self.send(query).await
    }
}
