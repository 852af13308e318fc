//! What the machine does with a frame from the server: parse it, match an answer to its
//! request and act on the outcome, or hand a channel update on (held until the connection is
//! established).

use std::time::SystemTime;

use serde_json::Value;
use serde_json::value::RawValue;

use super::{Phase, Request, Sent, StreamMachine};
use crate::stream::frame::{Incoming, parse, raw};
use crate::stream::update::decode;
use crate::stream::{
    Channel, DisconnectReason, RpcError, StopReason, StreamError, StreamEvent, UnknownMessage,
    Update,
};

impl StreamMachine {
    /// Handles one text frame: read in place (the method and the `params` borrowed from
    /// `text`), and `text` itself kept only by what holds the frame as sent.
    pub(super) fn frame(&mut self, now: SystemTime, text: String) {
        if self.link.is_none() {
            self.out_of_order("a frame");
            return;
        }
        let routed = match parse(&text) {
            Err(reason) => Err(Kept::Malformed(reason)),
            Ok(Incoming::Answer { id, result, error }) => Err(Kept::Answer {
                id,
                result: result.map(ToOwned::to_owned),
                error: error.map(ToOwned::to_owned),
            }),
            Ok(Incoming::Notification { method, params }) => route(Some(&method), params),
            Ok(Incoming::Other { method }) => route(method.as_deref(), None),
        };
        match routed {
            Ok(event) => self.deliver(now, event),
            Err(Kept::Malformed(reason)) => {
                self.emit(StreamEvent::Error(StreamError::MalformedFrame {
                    reason,
                    text,
                }));
            }
            Err(Kept::Answer { id, result, error }) => self.answer(now, id, result, error, text),
            Err(Kept::Unknown(method)) => {
                let event = StreamEvent::Unknown(UnknownMessage::new(method, raw(text)));
                self.deliver(now, event);
            }
        }
    }

    /// Hands a channel event on once established, or holds it until then.
    fn deliver(&mut self, now: SystemTime, event: StreamEvent) {
        if self.is_established() || matches!(event, StreamEvent::Error(_)) {
            self.emit(event);
            return;
        }
        let max = self.config.max_held_events();
        let Some(link) = self.link.as_mut() else {
            return self.emit(event);
        };
        link.held.push(event);
        if link.held.len() > max {
            self.fail(now, DisconnectReason::TooManyHeldEvents, true, None);
        }
    }

    /// Handles the answer to request `id`.
    fn answer(
        &mut self,
        now: SystemTime,
        id: u64,
        result: Option<Box<RawValue>>,
        error: Option<Box<RawValue>>,
        text: String,
    ) {
        let Some(sent) = self
            .link
            .as_mut()
            .and_then(|link| link.in_flight.remove(&id))
        else {
            let raw = raw(text);
            self.emit(StreamEvent::Error(StreamError::UnmatchedAnswer { id, raw }));
            return;
        };
        let error = error.map(|e| RpcError::read(&e));
        match (sent.what, error) {
            (Sent::Ping, Some(error)) => {
                self.emit(StreamEvent::Error(StreamError::RequestRefused {
                    method: "ping",
                    error,
                }))
            }
            (Sent::Ping, None) => {
                if result.as_deref().map(RawValue::get) != Some(r#""pong""#) {
                    self.unexpected("ping", text);
                }
            }
            (Sent::Authorize, Some(error)) => {
                self.refusals = self.refusals.saturating_add(1);
                let fatal = self.refusals >= self.config.max_authorize_refusals();
                self.emit(StreamEvent::Error(StreamError::AuthorizationRefused {
                    error,
                    refusals: self.refusals,
                    fatal,
                }));
                let stop = fatal.then_some(StopReason::AuthorizationRefused);
                self.fail(now, DisconnectReason::AuthorizationRefused, true, stop);
            }
            (Sent::Authorize, None) => {
                self.check_success("authorize", result.as_deref(), text);
                self.refusals = 0;
                self.phase = Phase::Subscribing;
                if let Some(link) = self.link.as_mut() {
                    for sub in &self.subs {
                        let channel = sub.subscription.channel();
                        link.enqueue(Request::Subscribe(channel));
                        link.awaiting.insert(channel);
                    }
                }
            }
            (Sent::Subscribe(channel), outcome) => {
                let current = self
                    .subs
                    .iter()
                    .position(|s| s.subscription.channel() == channel && s.pending == Some(id));
                if let (Some(index), Some(link)) = (current, self.link.as_mut()) {
                    link.awaiting.remove(&channel);
                    match &outcome {
                        Some(_) => {
                            self.subs.remove(index);
                        }
                        None => {
                            if let Some(sub) = self.subs.get_mut(index) {
                                sub.pending = None;
                                sub.active = true;
                            }
                        }
                    }
                }
                match outcome {
                    Some(error) => {
                        self.emit(StreamEvent::Error(StreamError::SubscriptionRefused {
                            channel,
                            error,
                        }));
                    }
                    None => {
                        let method = channel.subscribe_method();
                        self.check_success(method, result.as_deref(), text);
                        if current.is_some() {
                            self.emit(StreamEvent::Subscribed(channel));
                        }
                    }
                }
            }
            (Sent::Unsubscribe(channel), Some(error)) => {
                self.emit(StreamEvent::Error(StreamError::RequestRefused {
                    method: channel.unsubscribe_method(),
                    error,
                }));
            }
            (Sent::Unsubscribe(channel), None) => {
                self.check_success(channel.unsubscribe_method(), result.as_deref(), text);
                self.emit(StreamEvent::Unsubscribed(channel));
            }
        }
    }

    /// Reports a success answer whose result is not `{"status": "success"}`.
    fn check_success(&mut self, method: &'static str, result: Option<&RawValue>, text: String) {
        let success = result
            .and_then(|r| serde_json::from_str::<Value>(r.get()).ok())
            .is_some_and(|r| r.get("status").and_then(Value::as_str) == Some("success"));
        if !success {
            self.unexpected(method, text);
        }
    }

    fn unexpected(&mut self, method: &'static str, text: String) {
        let raw = raw(text);
        self.emit(StreamEvent::Error(StreamError::UnexpectedAnswer {
            method,
            raw,
        }));
    }
}

/// A frame the machine handles with its text: what [`route`] and the frame's parse leave to
/// [`StreamMachine::frame`].
enum Kept {
    /// Not a JSON-RPC message, for this reason.
    Malformed(String),
    /// An answer to request `id`.
    Answer {
        id: u64,
        result: Option<Box<RawValue>>,
        error: Option<Box<RawValue>>,
    },
    /// A message of no channel's update method (this one, if it has one): kept whole.
    Unknown(Option<String>),
}

/// The event a message with `method` (and no answer) stands for: the record of the channel
/// whose update method it is, or the parameters as sent when they do not decode; a message of
/// any other method is kept whole ([`Kept::Unknown`]).
fn route(method: Option<&str>, params: Option<&RawValue>) -> Result<StreamEvent, Kept> {
    let Some(channel) = method.and_then(Channel::from_update_method) else {
        return Err(Kept::Unknown(method.map(str::to_owned)));
    };
    let params = params.unwrap_or(RawValue::NULL);
    Ok(match decode(channel, params) {
        Ok(event) => StreamEvent::Account(event),
        Err(error) => StreamEvent::Update(Update::new(channel, params.to_owned(), error)),
    })
}
