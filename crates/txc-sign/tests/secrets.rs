//! The API secret is never printed and is zeroized on drop.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_sign::nonce::Nonce;
use txc_sign::nonce::NonceMode;
use txc_sign::{ApiSecret, Credentials, Signer};
use txc_types::orders::{CollateralMarketOrder, Side};
use zeroize::{Zeroize, ZeroizeOnDrop};

const SECRET: &str = "s3cr3t-DO-NOT-PRINT-4f9a";

fn assert_zeroize_on_drop<T: ZeroizeOnDrop>() {}

#[test]
fn secret_type_is_zeroized_on_drop() {
    assert_zeroize_on_drop::<ApiSecret>();
    let mut s = ApiSecret::new(SECRET);
    assert_eq!(s.expose(), SECRET.as_bytes());
    s.zeroize();
    assert!(
        s.expose().iter().all(|b| *b == 0),
        "zeroize clears the bytes"
    );
}

#[test]
fn no_debug_or_display_shows_the_secret() {
    let creds = Credentials::new("key", SECRET).unwrap();
    let signer = Signer::new(creds.clone(), "https://whitebit.com").unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "1")
        .build()
        .unwrap();
    let signed = signer.sign(&order, Nonce(1), NonceMode::Window).unwrap();
    let errors: Vec<Box<dyn std::error::Error>> = vec![
        Signer::new(creds.clone(), "nope").unwrap_err().into(),
        Credentials::new("", SECRET).unwrap_err().into(),
        CollateralMarketOrder::builder("BTC_USDT", Side::Buy, SECRET)
            .build()
            .unwrap_err()
            .into(),
    ];
    let mut texts = vec![
        format!("{creds:?}"),
        format!("{:?}", creds.secret()),
        format!("{signer:?}"),
        format!("{signed:?}"),
        format!("{:?}", signed.clone().into_http()),
    ];
    for e in &errors {
        texts.push(format!("{e}"));
        texts.push(format!("{e:?}"));
    }
    for t in texts {
        assert!(!t.contains(SECRET), "secret leaked in: {t}");
    }
}
