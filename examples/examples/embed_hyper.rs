//! Bring your own HTTP client: `txc-core` (with `txc-sign`) alone, driven over hyper's HTTP/1
//! client connection — an HTTP stack neither txc transport uses directly — against the
//! embedded sandbox.
//!
//! The whole transport is [`drive`]: ask the machine what to do, do it, hand back the
//! response. Pacing, signing with a fresh nonce, decoding, retries and their delays, and the
//! "never resend an order whose outcome is unknown" rule all stay in `txc-core`'s machines.
//!
//! ```sh
//! cargo run -p txc-examples --example embed_hyper
//! ```

#![allow(clippy::print_stdout)]

use std::time::SystemTime;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use txc_core::decode::{Response, TransportError, TransportErrorKind};
use txc_core::{ClientConfig, ClientCore, Machine, Step};
use txc_sign::{Credentials, SignedRequest};
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, Side};

/// A response read from the wire.
struct Read {
    status: u16,
    headers: http::HeaderMap,
    body: Bytes,
}

/// One request over a fresh HTTP/1 connection, its failures classified the way the core
/// needs: only a failure to connect certainly left the request unsent.
async fn round_trip(request: SignedRequest, max_body: usize) -> Result<Read, TransportError> {
    let uri = request.uri().clone();
    let authority = uri.authority().map(ToString::to_string).unwrap_or_default();
    let stream = TcpStream::connect(&authority)
        .await
        .map_err(|e| TransportError::not_sent(TransportErrorKind::Connect, e))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| TransportError::not_sent(TransportErrorKind::Connect, e))?;
    tokio::spawn(connection);
    let http = request.into_http().map(|body| Full::new(Bytes::from(body)));
    let (mut parts, body) = http.into_parts();
    // HTTP/1 wants the host header and an origin-form target.
    parts.headers.insert(
        http::header::HOST,
        http::HeaderValue::from_str(&authority)
            .map_err(|e| TransportError::not_sent(TransportErrorKind::Other, e))?,
    );
    parts.uri = uri
        .path_and_query()
        .map_or_else(|| "/".parse(), |p| p.as_str().parse())
        .map_err(|e| TransportError::not_sent(TransportErrorKind::Other, e))?;
    let response = sender
        .send_request(http::Request::from_parts(parts, body))
        .await
        .map_err(|e| TransportError::maybe_sent(TransportErrorKind::Io, e))?;
    let (parts, body) = response.into_parts();
    let body = Limited::new(body, max_body)
        .collect()
        .await
        .map_err(|e| TransportError::maybe_sent(TransportErrorKind::Io, e))?
        .to_bytes();
    Ok(Read {
        status: parts.status.as_u16(),
        headers: parts.headers,
        body,
    })
}

/// The transport: drives any machine of `txc-sign` to its end.
pub async fn drive<M: Machine>(core: &ClientCore, mut machine: M) -> M::Output {
    loop {
        match machine.next(SystemTime::now()) {
            Step::Wait(delay) => tokio::time::sleep(delay).await,
            Step::Send(request) => match round_trip(request, core.max_response_bytes()).await {
                Ok(read) => machine.receive(Ok(
                    Response::new(read.status, &read.body).with_headers(&read.headers)
                )),
                Err(failure) => machine.receive(Err(failure)),
            },
            Step::Done(output) => return output,
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = txc_sandbox::Sandbox::start()?;
    let credentials = Credentials::new(
        txc_sandbox::demo::PARTNER_API_KEY,
        txc_sandbox::demo::PARTNER_API_SECRET,
    )?;
    let core = ClientConfig::new(credentials)
        .base_url(sandbox.base_url())
        .build()?;

    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
    let placed = drive(&core, core.place(&order)).await?;
    println!(
        "placed order {} ({}) for {} at {} {}",
        placed.order_id,
        placed
            .client_order_id
            .as_deref()
            .unwrap_or("no clientOrderId"),
        placed.amount,
        placed.deal_money,
        placed.market,
    );
    let plans = drive(&core, core.call(&SmartPlansQuery::new())).await?;
    println!("{} smart plans", plans.len());
    Ok(())
}
