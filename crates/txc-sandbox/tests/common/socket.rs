//! A hand-driven WebSocket client for the tests (tungstenite): connect, a token for an
//! account (the signed token route), requests and their answers, the next frame.

use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};
use txc_sandbox::Sandbox;

use super::{TOKEN_PATH, send_fields};

pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// A connection to the sandbox's WebSocket, reads timing out after 5 s.
pub fn connect(sandbox: &Sandbox) -> Socket {
    let (socket, _) = tungstenite::connect(sandbox.websocket_url()).unwrap();
    if let MaybeTlsStream::Plain(tcp) = socket.get_ref() {
        tcp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    }
    socket
}

/// A WebSocket token of `account`, from the signed token route.
pub fn token(sandbox: &Sandbox, account: (&str, &str)) -> String {
    let reply = send_fields(sandbox, account, TOKEN_PATH, "");
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["websocket_token"].as_str().unwrap().to_owned()
}

pub fn send(socket: &mut Socket, request: Value) {
    socket.send(Message::text(request.to_string())).unwrap();
}

/// The next text frame, as JSON.
pub fn next(socket: &mut Socket) -> Value {
    loop {
        match socket.read().unwrap() {
            Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
        }
    }
}

/// Sends request `id` and reads its answer (which must come next).
pub fn request(socket: &mut Socket, id: u64, method: &str, params: Value) -> Value {
    send(
        socket,
        json!({"id": id, "method": method, "params": params}),
    );
    let answer = next(socket);
    assert_eq!(answer["id"], id, "{answer}");
    answer
}

/// A connection authorized as `account` and subscribed to each `(method, params)` (each
/// answered `success`).
pub fn subscribed(
    sandbox: &Sandbox,
    account: (&str, &str),
    subscriptions: &[(&str, Value)],
) -> Socket {
    let mut socket = connect(sandbox);
    let token = token(sandbox, account);
    let answer = request(&mut socket, 1, "authorize", json!([token, "public"]));
    assert_eq!(answer["result"]["status"], "success", "{answer}");
    for (id, (method, params)) in (2..).zip(subscriptions) {
        let answer = request(&mut socket, id, method, params.clone());
        assert_eq!(answer["result"]["status"], "success", "{method}: {answer}");
    }
    socket
}

/// The next update of `method`, skipping others (at most 50).
pub fn next_of(socket: &mut Socket, method: &str) -> Value {
    for _ in 0..50 {
        let frame = next(socket);
        if frame["method"] == method {
            return frame;
        }
    }
    panic!("no {method}");
}
