//! The app: the [`Sandbox`] handle, the [`SandboxBuilder`] that starts one, and the server —
//! its own tokio runtime, listeners that can be stopped and restarted — which puts the layers
//! together: the exchange (`crate::auth::Exchange`, the state behind its lock) with the
//! WebSocket's feed as the state's subscriber, the HTTP routes and `GET /ws` on one router.
//!
//! **What it is for:** starting, driving and stopping a sandbox from a test or the binary.
//!
//! **What it is not for:** anything the exchange decides: every handle method that reads or
//! changes the exchange goes to the state (`crate::state`), under the same lock the requests
//! take.

mod builder;
mod sandbox;
mod server;

pub use builder::SandboxBuilder;
pub use sandbox::Sandbox;
