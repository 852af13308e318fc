//! `from_body` of the three request types on arbitrary bytes. Invariants: see
//! `txc_fuzz::check_from_body` (accepted bodies are JSON objects whose `market`, `side`,
//! `amount`, `activation_price` and `ticker` survive; the request re-parses, signs and
//! verifies).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    txc_fuzz::check_from_body(data);
});
