//! Fault injection into the HTTP routes: [`Fault`], the table of injected faults, and how a
//! fault changes an answer (the routes a fault names, [`crate::Route`], are the
//! configuration's).
//!
//! A fault is picked when a request arrives at an exchange route (the route's own fault
//! first, else one injected for [`crate::Route::All`]) and counts down its `times`. Faults that say
//! "not processed" answer once the request's body is read, without authenticating or running
//! it; the others let the request be processed as usual (an order is placed, a rejection is
//! still a rejection) and then change the answer, whatever it is. The control API is never
//! faulted.

mod answers;
mod cut;
mod fault;
mod streamed;
mod table;

pub(crate) use answers::{processed, unprocessed};
pub use fault::Fault;
pub(crate) use table::FaultTable;
