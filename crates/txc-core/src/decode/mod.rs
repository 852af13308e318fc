//! An answer read by the exchange's rules, status first: the [`Response`] a transport
//! received, [`decode`] into the endpoint's typed answer or an [`Error`] — the SDK's one error
//! type, shared by every transport — with its parts: what the exchange answered
//! ([`ApiError`], classified by [`classify`]), what the connection did ([`TransportError`]),
//! an answer that could not be read ([`DecodeError`]).

mod error;
mod flex_refusals;
mod messages;
mod response;

pub use error::{
    ApiError, ApiErrorClass, DecodeError, DecodeErrorKind, Delivery, Error, RetryAfter, Throttled,
    TransportError, TransportErrorKind, Unresolved,
};
pub use response::{Response, api_error, classify, decode};
