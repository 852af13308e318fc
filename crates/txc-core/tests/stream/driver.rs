//! A driver of `StreamMachine` for the tests: it plays the socket, the token endpoint and the
//! server's answers with the time passed in, and logs everything the machine asks and says.
//! Shared by the scenarios (`scenarios.rs`) and the properties (`properties.rs`).

#![allow(dead_code)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_core::Error;
use txc_core::stream::{OutgoingFrame, StreamEvent, StreamInput, StreamMachine, StreamStep};
use txc_types::events::WebSocketToken;

/// The tests' start time.
pub fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_738_250_000)
}

/// One thing the machine asked or said, or the driver handed it, and when.
#[derive(Debug)]
pub struct Entry {
    /// When, by the machine's clock: the latest time it was given (it never goes back).
    pub at: SystemTime,
    /// The machine's connection then.
    pub connection: u64,
    /// What.
    pub what: What,
}

/// What an [`Entry`] was.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum What {
    /// `StreamStep::Connect`.
    Connect,
    /// `StreamStep::NeedToken`.
    NeedToken,
    /// A token the driver handed over.
    Token(String),
    /// `StreamStep::Send`.
    Send(OutgoingFrame),
    /// `StreamStep::Close`.
    Close,
    /// `StreamStep::Event`.
    Event(StreamEvent),
}

/// The socket as the driver sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Socket {
    /// None open.
    Shut,
    /// Being opened.
    Connecting,
    /// Open.
    Open,
}

/// The driver.
pub struct Driver {
    /// The machine driven.
    pub machine: StreamMachine,
    /// The time (the tests may set it back).
    pub now: SystemTime,
    /// The machine's clock: the latest time it was given.
    pub clock: SystemTime,
    /// Everything so far.
    pub log: Vec<Entry>,
    /// The socket.
    pub socket: Socket,
    /// Whether the machine waits for a token.
    pub token_wanted: bool,
    /// Requests sent on the open socket and not answered: (id, method).
    pub unanswered: Vec<(u64, &'static str)>,
    /// How many times the machine said to wait for no time at all.
    pub zero_waits: usize,
    /// Whether the machine sent a frame with no socket open.
    pub sent_while_shut: bool,
    tokens: u64,
}

impl Driver {
    /// A driver of `machine`, at [`t0`].
    pub fn new(machine: StreamMachine) -> Self {
        Self {
            machine,
            now: t0(),
            clock: UNIX_EPOCH,
            log: Vec::new(),
            socket: Socket::Shut,
            token_wanted: false,
            unanswered: Vec::new(),
            zero_waits: 0,
            sent_while_shut: false,
            tokens: 0,
        }
    }

    fn record(&mut self, at: SystemTime, connection: u64, what: What) {
        self.log.push(Entry {
            at,
            connection,
            what,
        });
    }

    /// Polls until the machine waits (how long) or finishes (`None`), doing what it asks.
    pub fn run(&mut self) -> Option<Duration> {
        for _ in 0..100_000 {
            self.clock = self.clock.max(self.now);
            let at = self.clock;
            let step = self.machine.poll(self.now);
            let connection = self.machine.connection();
            match step {
                StreamStep::Connect => {
                    self.socket = Socket::Connecting;
                    self.record(at, connection, What::Connect);
                }
                StreamStep::NeedToken => {
                    self.token_wanted = true;
                    self.record(at, connection, What::NeedToken);
                }
                StreamStep::Send(frame) => {
                    if self.socket != Socket::Open {
                        self.sent_while_shut = true;
                    }
                    self.unanswered.push((frame.id(), frame.method()));
                    self.record(at, connection, What::Send(frame));
                }
                StreamStep::Close => {
                    self.shut();
                    self.record(at, connection, What::Close);
                }
                StreamStep::Event(event) => {
                    self.record(at, connection, What::Event(event));
                }
                StreamStep::Wait(wait) => {
                    if wait.is_zero() {
                        self.zero_waits += 1;
                    }
                    return Some(wait);
                }
                StreamStep::Finished => return None,
            }
        }
        panic!("the machine never waited");
    }

    fn shut(&mut self) {
        self.socket = Socket::Shut;
        self.unanswered.clear();
        self.token_wanted = false;
    }

    /// Lets `by` pass, waking whenever the machine asked to be woken.
    pub fn advance(&mut self, by: Duration) {
        let mut left = by;
        loop {
            let Some(wait) = self.run() else {
                self.now += left;
                return;
            };
            // A zero wait is counted (and a failure of the properties); time still moves.
            let step = wait.max(Duration::from_millis(1)).min(left);
            self.now += step;
            left -= step;
            if left.is_zero() {
                self.run();
                return;
            }
        }
    }

    /// Lets `by` pass second by second, answering every request as it goes.
    pub fn idle(&mut self, by: Duration) {
        let mut left = by;
        while !left.is_zero() {
            let step = left.min(Duration::from_secs(1));
            self.advance(step);
            left -= step;
            self.answer_all();
        }
    }

    /// Lets time pass until the machine asks for a connection (at most ten minutes).
    pub fn await_connect(&mut self) -> bool {
        for _ in 0..100 {
            if self.socket == Socket::Connecting {
                return true;
            }
            let wait = self.run().unwrap_or_default();
            self.advance(wait.clamp(Duration::from_millis(1), Duration::from_secs(6)));
        }
        self.socket == Socket::Connecting
    }

    /// Hands over `input` at the current time, then runs.
    pub fn handle(&mut self, input: StreamInput) {
        self.clock = self.clock.max(self.now);
        self.machine.handle(self.now, input);
        self.run();
    }

    /// Opens the socket the machine asked for; false if it asked for none.
    pub fn connect_ok(&mut self) -> bool {
        if self.socket != Socket::Connecting {
            return false;
        }
        self.socket = Socket::Open;
        self.handle(StreamInput::Connected);
        true
    }

    /// Fails to open the socket the machine asked for.
    pub fn connect_fail(&mut self) -> bool {
        self.connect_fail_to("ws://127.0.0.1:9/ws")
    }

    /// Fails to open the socket the machine asked for, at `url`, as a transport's driver
    /// reports it.
    pub fn connect_fail_to(&mut self, url: &str) -> bool {
        if self.socket != Socket::Connecting {
            return false;
        }
        self.socket = Socket::Shut;
        self.handle(StreamInput::connect_failed(url, "connection refused"));
        true
    }

    /// Hands over a fresh token if the machine asked for one; the token.
    pub fn give_token(&mut self) -> Option<String> {
        if !self.token_wanted {
            return None;
        }
        self.token_wanted = false;
        self.tokens += 1;
        let token = format!("tok-{}", self.tokens);
        let (at, connection) = (self.clock.max(self.now), self.machine.connection());
        self.record(at, connection, What::Token(token.clone()));
        self.handle(StreamInput::Token(WebSocketToken::new(token.clone())));
        Some(token)
    }

    /// Fails the token request the machine asked for.
    pub fn fail_token(&mut self, error: Error) -> bool {
        if !self.token_wanted {
            return false;
        }
        self.token_wanted = false;
        self.handle(StreamInput::TokenFailed(error));
        true
    }

    /// A frame from the server.
    pub fn receive(&mut self, text: impl Into<String>) {
        self.handle(StreamInput::Text(text.into()));
    }

    /// Answers every request in flight with success (`"pong"` to a ping); not those the
    /// answers lead to.
    pub fn answer_all(&mut self) {
        for (id, method) in std::mem::take(&mut self.unanswered) {
            self.receive(success(id, method));
        }
    }

    /// Refuses the oldest request in flight with the guide's error object.
    pub fn refuse_next(&mut self) -> Option<&'static str> {
        if self.unanswered.is_empty() {
            return None;
        }
        let (id, method) = self.unanswered.remove(0);
        self.receive(refusal(id));
        Some(method)
    }

    /// The server closes the socket.
    pub fn close(&mut self) -> bool {
        if self.socket != Socket::Open {
            return false;
        }
        self.shut();
        self.handle(StreamInput::Closed {
            code: Some(1006),
            reason: "gone".to_owned(),
        });
        true
    }

    /// Connects, authorizes and answers every subscription until the machine is established.
    pub fn establish(&mut self) {
        for _ in 0..10 {
            self.run();
            if self.machine.is_established() {
                return;
            }
            self.await_connect();
            self.connect_ok();
            self.give_token();
            self.answer_all();
            self.answer_all();
        }
        assert!(
            self.machine.is_established(),
            "not established: {:?}",
            self.machine
        );
    }

    /// The events so far.
    pub fn events(&self) -> impl Iterator<Item = &StreamEvent> {
        self.log.iter().filter_map(|e| match &e.what {
            What::Event(event) => Some(event),
            _ => None,
        })
    }

    /// Takes the events logged so far.
    pub fn take_events(&mut self) -> Vec<StreamEvent> {
        let log = std::mem::take(&mut self.log);
        let mut events = Vec::new();
        for entry in log {
            match entry.what {
                What::Event(event) => events.push(event),
                _ => self.log.push(entry),
            }
        }
        events
    }

    /// The frames sent so far: (method, text).
    pub fn sent(&self) -> Vec<(&'static str, &str)> {
        self.frames_from(0)
            .into_iter()
            .map(|f| (f.method(), f.text()))
            .collect()
    }

    /// The frames sent from entry `from` of the log on.
    pub fn frames_from(&self, from: usize) -> Vec<&OutgoingFrame> {
        self.log
            .get(from..)
            .unwrap_or_default()
            .iter()
            .filter_map(|e| match &e.what {
                What::Send(frame) => Some(frame),
                _ => None,
            })
            .collect()
    }
}

/// The success answer to request `id` of `method`, as the AsyncAPI examples give it.
pub fn success(id: u64, method: &str) -> String {
    if method == "ping" {
        format!(r#"{{"id":{id},"result":"pong","error":null}}"#)
    } else {
        format!(r#"{{"id":{id},"result":{{"status":"success"}},"error":null}}"#)
    }
}

/// The guide's error answer to request `id`.
pub fn refusal(id: u64) -> String {
    format!(r#"{{"id":{id},"result":null,"error":{{"code":1,"message":"invalid argument"}}}}"#)
}
