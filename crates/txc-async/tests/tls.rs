//! Bringing your own rustls provider: the one installed as rustls' process default is the one
//! the client's REST agent and its event stream use, over every provider feature; with
//! `rustls-no-provider` alone and none installed, building fails (no panic).
//!
//! One test in its own binary: the process default can be installed once per process.

#![cfg(all(feature = "rustls-no-provider", not(feature = "native-tls")))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Read as _;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use rustls::crypto::{CryptoProvider, GetRandomFailed, SecureRandom};
use txc_async::settings::RetryPolicy;
use txc_async::{Client, Credentials, Error};

/// How often the installed provider's random source was asked: a TLS client asks it for
/// every ClientHello it writes.
static DRAWS: AtomicUsize = AtomicUsize::new(0);

/// ring's random source, counted.
#[derive(Debug)]
struct Counted;

impl SecureRandom for Counted {
    fn fill(&self, buf: &mut [u8]) -> Result<(), GetRandomFailed> {
        DRAWS.fetch_add(1, Ordering::SeqCst);
        rustls::crypto::ring::default_provider()
            .secure_random
            .fill(buf)
    }
}

/// A "TLS server" on loopback that reads what it is sent and hangs up: enough for a client to
/// write its ClientHello.
fn hang_up_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.read(&mut [0; 4096]);
        }
    });
    addr.to_string()
}

fn credentials() -> Credentials {
    Credentials::new(
        txc_sandbox::demo::PARTNER_API_KEY,
        txc_sandbox::demo::PARTNER_API_SECRET,
    )
    .unwrap()
}

#[tokio::test]
async fn the_process_default_provider_is_used_for_rest_and_events() {
    assert!(CryptoProvider::get_default().is_none());
    // Before any is installed: the feature's provider, or (no-provider alone) a clear error.
    let built = Client::builder(credentials()).build();
    if cfg!(any(feature = "rustls-ring", feature = "rustls-aws-lc")) {
        assert!(built.is_ok(), "{built:?}");
    } else {
        let Err(Error::InvalidConfig { what, reason, .. }) = built else {
            panic!("no provider must fail the build: {built:?}");
        };
        assert_eq!(what, "tls");
        assert!(reason.contains("install_default"), "{reason}");
    }

    let provider = CryptoProvider {
        secure_random: &Counted,
        ..rustls::crypto::ring::default_provider()
    };
    provider.install_default().unwrap();
    let server = hang_up_server();

    // REST.
    let client = Client::builder(credentials())
        .base_url(format!("https://{server}"))
        .retry_policy(RetryPolicy::disabled())
        .build()
        .unwrap();
    assert_eq!(DRAWS.load(Ordering::SeqCst), 0);
    assert!(client.server_time().await.is_err());
    assert!(
        DRAWS.load(Ordering::SeqCst) > 0,
        "REST used another provider"
    );

    // The event stream: its token over plain HTTP from the sandbox, its WebSocket over TLS.
    #[cfg(feature = "events")]
    {
        use txc_async::events::{StreamEvent, Subscription};

        let sandbox = txc_sandbox::Sandbox::start().unwrap();
        let client = Client::builder(credentials())
            .base_url(sandbox.base_url())
            .build()
            .unwrap();
        DRAWS.store(0, Ordering::SeqCst);
        let subscription = Subscription::orders_pending(["BTC_USDT"]).unwrap();
        let mut events = client
            .events([subscription])
            .url(format!("wss://{server}/ws"))
            .start()
            .unwrap();
        while let Some(event) = events.next().await {
            if let StreamEvent::Disconnected(_) | StreamEvent::Error(_) = event {
                break;
            }
        }
        assert!(
            DRAWS.load(Ordering::SeqCst) > 0,
            "the stream used another provider"
        );
    }
}
