//! Channel updates as they arrive: an [`Update`] names its [`Channel`] and keeps the
//! parameters as sent, and an [`UnknownMessage`] keeps a message of any other method whole.
//!
//! Typed records of each channel (orders, deals, balances, positions, margin events, with
//! exact decimals and lossless times) are a later step: they will be decoded from
//! [`Update::params`] here, by the channel, without changing the machine.

use serde_json::value::RawValue;

use super::frame::raw;
use super::{Channel, StreamEvent};

/// An update of a subscribed channel: `{"id": null, "method": "<stem>_update", "params": …}`.
#[derive(Debug, Clone)]
pub struct Update {
    channel: Channel,
    params: Box<RawValue>,
}

impl Update {
    pub(crate) fn new(channel: Channel, params: Box<RawValue>) -> Self {
        Self { channel, params }
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

/// The event a message with `method` (and no answer) stands for: an update of the channel
/// whose update method it is, or an unknown message kept whole. Typed records will be
/// decoded here.
pub(crate) fn route(
    method: Option<String>,
    params: Option<Box<RawValue>>,
    text: String,
) -> StreamEvent {
    match method.as_deref().and_then(Channel::from_update_method) {
        Some(channel) => StreamEvent::Update(Update::new(
            channel,
            params.unwrap_or_else(|| RawValue::NULL.to_owned()),
        )),
        None => StreamEvent::Unknown(UnknownMessage::new(method, raw(text))),
    }
}
