//! `decode::<CollateralMarketOrder>` and `api_error` on arbitrary answers: the first two bytes are the HTTP
//! status (big endian), the rest is the body. Invariants: see `txc_fuzz::check_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (status, body) = txc_fuzz::split_status(data);
    txc_fuzz::check_decode::<txc_types::orders::CollateralMarketOrder>(status, body);
});
