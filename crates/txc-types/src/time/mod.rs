//! The exchange's clock: [`ServerTimeQuery`] → [`ServerTime`] (public, unsigned).
//!
//! | operation | request | answer |
//! |---|---|---|
//! | server time | [`ServerTimeQuery`] | [`ServerTime`] |

mod server_time;

pub use server_time::{ServerTime, ServerTimeQuery};
