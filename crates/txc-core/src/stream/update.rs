//! Channel updates as they arrive — the one place that knows which record each channel sends
//! (`decode`): an update that decodes is a [`StreamEvent::Account`](super::StreamEvent::Account)
//! (`txc-types`' [`AccountEvent`]); one that does not is a
//! [`StreamEvent::Update`](super::StreamEvent::Update) keeping the parameters as sent with the
//! [`EventDecodeError`] that says why ([`Update`]); a message of any other method is an
//! [`UnknownMessage`], kept whole. Nothing is dropped; the machine routes each message
//! (`machine/incoming.rs`).

use serde_json::value::RawValue;
use txc_types::events::{
    AccountEvent, AdlQuantiles, Deal, EventDecodeError, ExecutedOrders, MarginBalances, OrderEvent,
    PositionEvent, Positions, PremiumIndexes,
};

use super::Channel;

/// An update of a subscribed channel that did not decode into its record:
/// `{"id": null, "method": "<stem>_update", "params": …}` with the parameters as sent and
/// the [`EventDecodeError`] that says what is wrong. The stream goes on.
#[derive(Debug, Clone)]
pub struct Update {
    channel: Channel,
    params: Box<RawValue>,
    error: EventDecodeError,
}

impl Update {
    pub(crate) fn new(channel: Channel, params: Box<RawValue>, error: EventDecodeError) -> Self {
        Self {
            channel,
            params,
            error,
        }
    }

    /// Why it did not decode.
    pub fn error(&self) -> &EventDecodeError {
        &self.error
    }

    /// The channel.
    pub fn channel(&self) -> Channel {
        self.channel
    }

    /// The update's method, e.g. `ordersPending_update`.
    pub fn method(&self) -> &'static str {
        self.channel.update_method()
    }

    /// The `params` as sent (`null` when the message had none).
    pub fn params(&self) -> &RawValue {
        &self.params
    }

    /// The `params` as sent.
    pub fn into_params(self) -> Box<RawValue> {
        self.params
    }
}

/// A message of a kind the machine does not know — a method no channel updates with, or a
/// JSON-RPC object that is neither an answer nor an update — kept whole, never dropped.
#[derive(Debug, Clone)]
pub struct UnknownMessage {
    method: Option<String>,
    raw: Box<RawValue>,
}

impl UnknownMessage {
    pub(crate) fn new(method: Option<String>, raw: Box<RawValue>) -> Self {
        Self { method, raw }
    }

    /// Its `method`, if it has one.
    pub fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    /// The whole message as received.
    pub fn raw(&self) -> &RawValue {
        &self.raw
    }
}

/// The record of `channel`'s update from its `params` (positional records split from the
/// frame's text as read, objects read from it).
pub(crate) fn decode(
    channel: Channel,
    params: &RawValue,
) -> Result<AccountEvent, EventDecodeError> {
    let text = params.get();
    Ok(match channel {
        Channel::OrdersPending => AccountEvent::Order(OrderEvent::from_raw_params(params)?),
        Channel::OrdersExecuted => AccountEvent::Executed(ExecutedOrders::from_params(text)?),
        Channel::Deals => AccountEvent::Deal(Deal::from_raw_params(params)?),
        Channel::BalanceMargin => AccountEvent::Balances(MarginBalances::from_params(text)?),
        Channel::Positions => AccountEvent::Positions(Positions::from_params(text)?),
        Channel::PositionEvents => {
            AccountEvent::PositionEvent(PositionEvent::from_raw_params(params)?)
        }
        Channel::AdlQuantile => AccountEvent::AdlQuantiles(AdlQuantiles::from_params(text)?),
        Channel::PremiumIndex => AccountEvent::PremiumIndex(PremiumIndexes::from_params(text)?),
    })
}
