//! The table `txc` prints without `--json`: one row per record, each column as wide as its
//! widest cell, `(none)` for no records — what the order, investment and risk outputs share.
#![allow(clippy::print_stdout)]

use txc_blocking::investments::PlanStatus;
use txc_blocking::orders::{Order, PositionSide};
use txc_blocking::values::ExactDecimal;

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

/// Orders as a table: ids, market, side, type, amount, what is left, the prices set (limit,
/// activation), the position side, status.
pub(crate) fn orders(orders: &[&Order]) {
    let header = [
        "orderId",
        "clientOrderId",
        "market",
        "side",
        "type",
        "amount",
        "left",
        "price",
        "activationPrice",
        "position",
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
            optional(o.price.as_ref()),
            optional(o.activation_price.as_ref()),
            position_side(o.position_side, None),
            optional(o.status.as_ref()),
        ]
    });
}

/// A position side as a person reads it: `long` or `short` — in hedge mode as the exchange
/// says, in one-way mode (`BOTH`) by the sign of the position's `amount` when there is one
/// (a short position's is negative); `one-way` for an order of one-way mode, whose side
/// alone cannot tell which position it changes; nothing when the exchange sent none.
pub(crate) fn position_side(side: Option<PositionSide>, amount: Option<&ExactDecimal>) -> String {
    let by_amount = amount
        .map(|a| a.as_str())
        .and_then(|a| match a.strip_prefix('-') {
            Some(_) => Some("short"),
            None if a.chars().any(|c| c.is_ascii_digit() && c != '0') => Some("long"),
            None => None,
        });
    match side {
        Some(PositionSide::Long) => "long",
        Some(PositionSide::Short) => "short",
        Some(PositionSide::Both) => by_amount.unwrap_or("one-way"),
        None => by_amount.unwrap_or_default(),
    }
    .to_owned()
}

/// A plan's status in words: `active`, `no coins left`, `inactive`, `paused`, or its code.
pub(crate) fn plan_status(status: PlanStatus) -> String {
    match status {
        PlanStatus::Active => "active".to_owned(),
        PlanStatus::NoCoinsLeft => "no coins left".to_owned(),
        PlanStatus::Inactive => "inactive".to_owned(),
        PlanStatus::Pause => "paused".to_owned(),
        other => other.code().to_string(),
    }
}

/// The lines of one order, each `name value`: ids, market, side, type, status, amounts and
/// times — and what was set on it, each when the exchange's answer has it: the limit and
/// activation prices, the stop-loss and take-profit with their OTO group, the position side,
/// reduce-only and self-trade prevention.
pub(crate) fn order_lines(order: &Order) -> Vec<(&'static str, String)> {
    let text = |v: Option<&dyn std::fmt::Display>| v.map(ToString::to_string);
    let oto = order.oto.as_ref();
    let set = [
        ("price", text(order.price.as_ref().map(|v| v as _))),
        (
            "activationPrice",
            text(order.activation_price.as_ref().map(|v| v as _)),
        ),
        (
            "stopLoss",
            text(oto.and_then(|o| o.stop_loss.as_ref()).map(|v| v as _)),
        ),
        (
            "takeProfit",
            text(oto.and_then(|o| o.take_profit.as_ref()).map(|v| v as _)),
        ),
        ("otoId", text(oto.map(|o| &o.oto_id as _))),
        (
            "position",
            Some(position_side(order.position_side, None)).filter(|s| !s.is_empty()),
        ),
        (
            "reduceOnly",
            order.reduce_only.filter(|r| *r).map(|_| "yes".to_owned()),
        ),
        ("stp", text(order.stp.as_ref().map(|v| v as _))),
    ];
    let mut lines = vec![
        ("orderId", order.order_id.to_string()),
        ("clientOrderId", optional(order.client_order_id.as_ref())),
        ("market", order.market.to_string()),
        ("side", order.side.to_string()),
        ("type", order.order_type.to_string()),
        ("status", optional(order.status.as_ref())),
        ("amount", order.amount.to_string()),
        ("dealStock", order.deal_stock.to_string()),
        ("dealMoney", order.deal_money.to_string()),
        ("left", order.left.to_string()),
    ];
    lines.extend(set.into_iter().filter_map(|(name, v)| Some((name, v?))));
    lines.push(("timestamp", utc(order.timestamp.as_str())));
    lines
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
    use super::{PositionSide, position_side, utc};
    use txc_blocking::values::ExactDecimal;

    #[test]
    fn position_sides_read_long_or_short_where_known() {
        let amount = |a: &str| a.parse::<ExactDecimal>().unwrap();
        assert_eq!(position_side(Some(PositionSide::Long), None), "long");
        assert_eq!(position_side(Some(PositionSide::Short), None), "short");
        // One-way mode: the amount's sign tells; an order's side alone cannot.
        let both = Some(PositionSide::Both);
        assert_eq!(position_side(both, Some(&amount("0.5"))), "long");
        assert_eq!(position_side(both, Some(&amount("-0.5"))), "short");
        assert_eq!(position_side(both, Some(&amount("0"))), "one-way");
        assert_eq!(position_side(both, None), "one-way");
        assert_eq!(position_side(None, None), "");
    }

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
