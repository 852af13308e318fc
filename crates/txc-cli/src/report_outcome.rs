//! [`ReportOutcome`]: what a report command — `pnl`, `funding`, `adl`, `deals` — read, for
//! the output to print.

use txc_blocking::lookups::ExecutedDeal;
use txc_blocking::positions::{ClosedPosition, FundingPayment, MarketAdlQuantile};

/// What a report command read.
#[derive(Debug)]
pub(crate) enum ReportOutcome {
    /// `pnl`: closed positions, newest close first.
    ClosedPnl(Vec<ClosedPosition>),
    /// `funding`: funding payments, newest first.
    Funding(Vec<FundingPayment>),
    /// `adl`: each perpetual market's quantiles.
    Adl(Vec<MarketAdlQuantile>),
    /// `deals`: executed deals.
    Deals(Vec<ExecutedDeal>),
}
