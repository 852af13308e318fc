//! Fault injection: [`Route`] and [`Fault`], the table of injected faults, and how a fault
//! changes an answer.
//!
//! A fault is picked when a request arrives at an exchange route (the route's own fault
//! first, else one injected for [`Route::All`]) and counts down its `times`. Faults that say
//! "not processed" answer once the request's body is read, without authenticating or running
//! it; the others let the request be processed as usual (an order is placed, a rejection is
//! still a rejection) and then change the answer, whatever it is. The control API is never
//! faulted.

mod answers;
mod cut;
mod fault;
mod route;
mod streamed;
mod table;

pub(crate) use answers::{processed, unprocessed};
pub use fault::Fault;
pub use route::Route;
pub(crate) use table::FaultTable;
