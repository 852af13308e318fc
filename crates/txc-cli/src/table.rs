//! The table `txc` prints without `--json`: one row per record, each column as wide as its
//! widest cell — what the order, investment and risk outputs share.
#![allow(clippy::print_stdout)]

use txc_blocking::orders::Order;

/// Prints one row per record under `header`, `cells` giving a record's cells, each column as
/// wide as its widest cell.
pub(crate) fn table<T>(
    header: &[&str],
    records: impl IntoIterator<Item = T>,
    cells: impl FnMut(T) -> Vec<String>,
) {
    let rows: Vec<Vec<String>> = records.into_iter().map(cells).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let text: Vec<String> = cells
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        println!("{}", text.join("  ").trim_end());
    };
    line(&mut header.iter().copied());
    for row in &rows {
        line(&mut row.iter().map(String::as_str));
    }
}

/// A cell's text: the value's, or nothing when there is none.
pub(crate) fn optional(value: Option<&impl std::fmt::Display>) -> String {
    value.map(ToString::to_string).unwrap_or_default()
}

/// Orders as a table: ids, market, side, type, amount, what is left, status.
pub(crate) fn orders(orders: &[&Order]) {
    let header = [
        "orderId",
        "clientOrderId",
        "market",
        "side",
        "type",
        "amount",
        "left",
        "status",
    ];
    table(&header, orders, |o| {
        vec![
            o.order_id.to_string(),
            optional(o.client_order_id.as_ref()),
            o.market.to_string(),
            o.side.to_string(),
            o.order_type.to_string(),
            o.amount.to_string(),
            o.left.to_string(),
            optional(o.status.as_ref()),
        ]
    });
}
