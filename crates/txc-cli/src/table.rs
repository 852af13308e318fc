//! The table `txc` prints without `--json`: one row per record, each column as wide as its
//! widest cell, `(none)` for no records — what the order, investment and risk outputs share.
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
    if rows.is_empty() {
        // An explicit line rather than a lone header.
        println!("(none)");
        return;
    }
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

/// A time of the exchange's — Unix seconds, with or without a fraction (milliseconds when it
/// is too large to be seconds) — as RFC 3339 in UTC, for a table; the text as it is when it is
/// not such a time. JSON keeps the raw value.
pub(crate) fn utc(time: impl std::fmt::Display) -> String {
    let text = time.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let Ok(mut seconds) = whole.parse::<i64>() else {
        return text;
    };
    let digits: String = fraction.chars().take(9).collect();
    if !fraction.chars().all(|c| c.is_ascii_digit()) {
        return text;
    }
    let mut nanos = format!("{digits:0<9}").parse::<i32>().unwrap_or(0);
    // Beyond the year 5000 in seconds: milliseconds.
    if seconds > 100_000_000_000 && digits.is_empty() {
        nanos = i32::try_from(seconds % 1000).unwrap_or(0) * 1_000_000;
        seconds /= 1000;
    }
    match jiff::Timestamp::new(seconds, nanos) {
        Ok(at) => at.to_string(),
        Err(_) => text,
    }
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn exchange_times_read_as_rfc3339_utc() {
        assert_eq!(utc("1700000000"), "2023-11-14T22:13:20Z");
        assert_eq!(utc("1700000000.5"), "2023-11-14T22:13:20.5Z");
        assert_eq!(utc("1700000000.123456"), "2023-11-14T22:13:20.123456Z");
        assert_eq!(utc(1_700_000_000_250_u64), "2023-11-14T22:13:20.25Z");
        // Not a time: as it is.
        assert_eq!(utc("soon"), "soon");
        assert_eq!(utc("1.2.3"), "1.2.3");
        assert_eq!(utc(""), "");
    }
}
