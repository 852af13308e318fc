//! [`SandboxStats`]: counters of what the sandbox received and answered, and [`Outcome`], what
//! an answer counts as.

use std::collections::BTreeMap;

use serde::Serialize;

/// Counters since start (or the last [`crate::Sandbox::reset`]).
///
/// `requests` counts every request to an exchange path (`/api/...`, unknown paths included);
/// the control API under `/sandbox/v1/` is not counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SandboxStats {
    /// Requests received on exchange paths.
    pub requests: u64,
    /// Orders a placement request placed: one per market, trigger, limit or stop-limit order,
    /// per order a bulk request placed, two per OCO.
    pub accepted_orders: u64,
    /// Orders executed in full, however they were placed.
    pub filled_orders: u64,
    /// Executions of orders: a taker's fill against the market or a resting order, a resting
    /// order's fill (a taker crossing a resting order makes two).
    pub deals: u64,
    /// Stop orders (stop-market, stop-limit) activated by the price.
    pub triggers_fired: u64,
    /// Orders replaced through `POST /api/v4/order/modify`.
    pub modified_orders: u64,
    /// Smart plans answers served.
    pub plans_served: u64,
    /// Look-up answers served: open orders and order history (not-found answers included),
    /// the investments and interest payment lists.
    pub lookups_served: u64,
    /// Orders canceled through `POST /api/v4/order/cancel` and the conditional cancels (an
    /// OCO's two legs count two).
    pub canceled_orders: u64,
    /// Orders canceled by cancel-all and bulk cancel.
    pub mass_canceled_orders: u64,
    /// Orders canceled by a kill-switch timer that ran out.
    pub kill_switch_canceled_orders: u64,
    /// Kill-switch timers that ran out.
    pub kill_switches_fired: u64,
    /// Positions closed through `POST /api/v4/collateral-account/position/close`.
    pub positions_closed: u64,
    /// Funding payments made (one per position per funding time).
    pub funding_payments: u64,
    /// Accounts entering margin call.
    pub margin_calls: u64,
    /// Positions liquidated, in part or in full.
    pub liquidations: u64,
    /// Investments made through `POST /api/v4/main-account/smart/investment`.
    pub investments_made: u64,
    /// Investments closed through `POST /api/v4/main-account/smart/investment/close`.
    pub investments_closed: u64,
    /// Rejections answered by the exchange logic (authentication, validation, rate limit).
    pub rejections: u64,
    /// Rejections by message, e.g. `"Too many requests."` or `"Validation failed"`.
    pub rejections_by_message: BTreeMap<String, u64>,
    /// Rejections by the exchange's code, e.g. `32` or `10`.
    pub rejections_by_code: BTreeMap<i64, u64>,
    /// Rejections of a nonce by the nonce rules (reused, not greater, outside ±5 s).
    pub nonce_rejections: u64,
    /// Requests rejected by the per-key rate limit.
    pub rate_limited: u64,
    /// Requests whose answer was changed by an injected fault.
    pub faults_injected: u64,
    /// Body bytes of streamed fault answers ([`crate::Fault::OversizedBody`],
    /// [`crate::Fault::Chunked`]) handed to the connection — fewer than the body's size when
    /// the client stopped reading and hung up early. Bytes are counted when the HTTP server
    /// takes them to write, which can be a few hundred KiB ahead of the socket.
    pub fault_body_bytes: u64,
    /// Answers outside the exchange protocol: 404, 405, 413.
    pub protocol_errors: u64,
}

impl SandboxStats {
    /// Counts one answer's outcome.
    pub(crate) fn record(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::OrderAccepted => self.accepted_orders += 1,
            Outcome::Served => {}
            Outcome::Rejected { code, message } => {
                self.rejections += 1;
                *self
                    .rejections_by_message
                    .entry(message.clone())
                    .or_default() += 1;
                *self.rejections_by_code.entry(*code).or_default() += 1;
            }
            Outcome::Other => self.protocol_errors += 1,
        }
    }
}

/// What an answer means, for the statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// An order was accepted (filled, or resting as a trigger order).
    OrderAccepted,
    /// A read was answered (smart plans), or a control call succeeded.
    Served,
    /// A rejection with this code and message.
    Rejected {
        /// The exchange's code.
        code: i64,
        /// The exchange's message.
        message: String,
    },
    /// An answer outside the exchange's protocol (404, 405, 413, fault answers).
    Other,
}
