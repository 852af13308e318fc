//! [`KillSwitch`]: a guard that keeps a market's kill-switch timer armed from a thread.

use std::fmt;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::SystemTime;

use txc_core::Error;
use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule};
use txc_types::orders::SetKillSwitch;

use crate::Client;

/// Where a guard's events go: the caller's callback.
type Report = Box<dyn Fn(KillSwitchEvent) + Send + Sync + 'static>;

/// Keeps a market's kill-switch timer armed while it lives: made by
/// [`Client::arm_kill_switch`], which arms the timer; a thread of its own re-arms it well
/// before it can run out (the [`KillSwitchSchedule`] decides when); dropping the guard stops
/// the thread and deletes the timer. If the process dies, nothing re-arms the timer and the
/// exchange cancels the market's open orders when it runs out — the point of the feature.
///
/// **Failures are reported, never silent**: every failed re-arm, a possible lapse of the timer
/// and a failed deletion go to the callback given to `arm_kill_switch`, called on the guard's
/// thread. A callback rather than a channel or a log: it cannot be left unread or unconfigured
/// (a channel's receiver can be dropped, a log needs a subscriber), and it can forward to
/// either — keep it short, since the next re-arm waits for it.
///
/// ```
/// use std::sync::mpsc;
/// use txc_blocking::{Client, Credentials};
/// use txc_blocking::guards::KillSwitchSchedule;
/// use txc_sandbox::{demo, Sandbox};
///
/// let sandbox = Sandbox::start()?;
/// let client = Client::builder(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?)
///     .base_url(sandbox.base_url())
///     .build()?;
/// let (failures, reports) = mpsc::channel();
/// let guard = client.arm_kill_switch(KillSwitchSchedule::new("BTC_USDT", 60)?, move |event| {
///     let _ = failures.send(event.to_string());
/// })?;
/// assert_eq!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).len(), 1);
/// guard.disarm()?; // or drop it
/// assert!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).is_empty());
/// assert!(reports.try_recv().is_err()); // nothing failed
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct KillSwitch {
    client: Client,
    disarm: SetKillSwitch,
    report: std::sync::Arc<Report>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl KillSwitch {
    /// Arms the timer and starts the re-arming thread.
    pub(crate) fn arm(
        client: Client,
        mut schedule: KillSwitchSchedule,
        report: Report,
    ) -> Result<Self, Error> {
        let signed_at = SystemTime::now();
        client.set_kill_switch(schedule.request())?;
        // The first arming: nothing to recover from, nothing to report.
        let _ = schedule.armed(signed_at);
        let report = std::sync::Arc::new(report);
        let (stop, stopped) = mpsc::channel();
        let disarm = schedule.disarm_request();
        let thread = {
            let (client, report) = (client.clone(), std::sync::Arc::clone(&report));
            thread::Builder::new()
                .name("txc-kill-switch".to_owned())
                .spawn(move || keep_armed(&client, schedule, &report, &stopped))
                .map_err(|e| Error::invalid_config("kill_switch", e.to_string()))?
        };
        Ok(Self {
            client,
            disarm,
            report,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The market whose timer this guard keeps.
    pub fn market(&self) -> &str {
        self.disarm.market().as_str()
    }

    /// Stops re-arming and deletes the timer, returning what deleting it answered (dropping
    /// the guard does the same and reports a failure instead).
    pub fn disarm(mut self) -> Result<(), Error> {
        self.stop_thread();
        self.client.set_kill_switch(&self.disarm).map(|_| ())
    }

    /// Stops the re-arming thread and waits for it (at most one re-arm in flight).
    fn stop_thread(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            // A panicking callback ends the thread; the timer is deleted all the same.
            let _ = thread.join();
        }
    }
}

/// The guard's thread: waits until the schedule says, re-arms, reports; ends when the guard
/// hangs up.
fn keep_armed(
    client: &Client,
    mut schedule: KillSwitchSchedule,
    report: &Report,
    stopped: &mpsc::Receiver<()>,
) {
    loop {
        match stopped.recv_timeout(schedule.due_in(SystemTime::now())) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
        let signed_at = SystemTime::now();
        let outcome = client.drive(client.core().call(schedule.request()));
        if let Some(event) = schedule.record(signed_at, SystemTime::now(), outcome) {
            report(event);
        }
    }
}

impl Drop for KillSwitch {
    fn drop(&mut self) {
        if self.thread.is_none() {
            return;
        }
        self.stop_thread();
        if let Err(error) = self.client.set_kill_switch(&self.disarm) {
            (self.report)(KillSwitchEvent::DisarmFailed(error));
        }
    }
}

impl fmt::Debug for KillSwitch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KillSwitch")
            .field("market", &self.market())
            .field("running", &self.thread.is_some())
            .finish_non_exhaustive()
    }
}
