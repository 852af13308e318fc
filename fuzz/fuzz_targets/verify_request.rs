//! `verify` (and `NonceGuard::check` on what it accepts) on fuzzed requests. Input layout and
//! invariants: see `txc_fuzz::check_verify_framed`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    txc_fuzz::check_verify_framed(data);
});
