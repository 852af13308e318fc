//! How many orders `txc cancel-all` canceled. The exchange's answer tells nothing (an empty
//! array), so `cancel-all` reads the open orders of its market filter before and after the
//! cancel: the orders open before and gone after are the ones it canceled — counted by their
//! type. An order that filled between the two reads is counted too (it is gone as well); one
//! placed between them is not.

use std::collections::{BTreeMap, HashSet};

use txc_blocking::lookups::OpenOrdersQuery;
use txc_blocking::orders::Order;
use txc_blocking::{Client, Error};

/// The open orders of `market` (every market without one), every page.
pub(crate) fn open_orders(client: &Client, market: Option<&str>) -> Result<Vec<Order>, Error> {
    let builder = OpenOrdersQuery::builder().limit(100);
    let builder = match market {
        Some(market) => builder.market(market),
        None => builder,
    };
    let query = builder.build()?;
    Ok(client.pages(query).collect::<Result<Vec<_>, _>>()?.concat())
}

/// What `cancel-all` did, as the two reads show it.
#[derive(Debug)]
pub(crate) struct CanceledCount {
    /// The orders open before and gone after, by type (`limit`, `stop market`, …).
    pub(crate) by_type: BTreeMap<String, usize>,
    /// How many are open after (of the market, when filtered): orders the filters left, or
    /// placed since.
    pub(crate) still_open: usize,
}

impl CanceledCount {
    /// The count from the open orders `before` and `after` the cancel.
    pub(crate) fn of(before: &[Order], after: &[Order]) -> Self {
        let open: HashSet<u64> = after.iter().map(|o| o.order_id).collect();
        let mut by_type = BTreeMap::new();
        for order in before.iter().filter(|o| !open.contains(&o.order_id)) {
            *by_type.entry(order.order_type.to_string()).or_insert(0) += 1;
        }
        Self {
            by_type,
            still_open: after.len(),
        }
    }

    /// How many it canceled in all.
    pub(crate) fn total(&self) -> usize {
        self.by_type.values().sum()
    }

    /// One line: `canceled 3 orders (2 limit, 1 stop limit); 1 open order left`.
    pub(crate) fn line(&self) -> String {
        let total = self.total();
        let kinds: Vec<String> = self
            .by_type
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        let kinds = if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        };
        format!(
            "canceled {total} order{}{kinds}; {} open order{} left",
            plural(total),
            self.still_open,
            plural(self.still_open)
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
