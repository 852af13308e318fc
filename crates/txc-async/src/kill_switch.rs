//! [`KillSwitch`]: a guard that keeps a market's kill-switch timer armed from a tokio task.

use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use txc_core::Error;
use txc_core::risk::{KillSwitchEvent, KillSwitchSchedule};
use txc_types::orders::SetKillSwitch;

use crate::Client;

/// Where a guard's events go: the caller's callback.
type Report = Arc<dyn Fn(KillSwitchEvent) + Send + Sync + 'static>;

/// Keeps a market's kill-switch timer armed while it lives: made by
/// [`Client::arm_kill_switch`], which arms the timer; a tokio task re-arms it well before it
/// can run out (the [`KillSwitchSchedule`] decides when); dropping the guard stops the task,
/// which deletes the timer ([`KillSwitch::disarm`] does the same and awaits the answer). If
/// the process dies, nothing re-arms the timer and the exchange cancels the market's open
/// orders when it runs out — the point of the feature.
///
/// **Failures are reported, never silent**: every failed re-arm, a possible lapse of the timer
/// and a failed deletion go to the callback given to `arm_kill_switch`, called in the task. A
/// callback rather than a channel or a log: it cannot be left unread or unconfigured (a
/// channel's receiver can be dropped, a log needs a subscriber), and it can forward to either
/// — keep it short and non-blocking (a `tokio::sync::mpsc::UnboundedSender::send` is fine).
///
/// Dropping the guard needs the runtime to keep running long enough for the task to delete
/// the timer; call [`disarm`](Self::disarm) before shutting a runtime down.
///
/// ```
/// use txc_async::{Client, Credentials};
/// use txc_async::guards::KillSwitchSchedule;
/// use txc_sandbox::{demo, Sandbox};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let sandbox = Sandbox::start()?;
/// let client = Client::builder(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)?)
///     .base_url(sandbox.base_url())
///     .build()?;
/// let (failures, mut reports) = tokio::sync::mpsc::unbounded_channel();
/// let guard = client
///     .arm_kill_switch(KillSwitchSchedule::new("BTC_USDT", 60)?, move |event| {
///         let _ = failures.send(event.to_string());
///     })
///     .await?;
/// assert_eq!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).len(), 1);
/// guard.disarm().await?;
/// assert!(sandbox.kill_switch_timers(demo::PARTNER_API_KEY).is_empty());
/// assert!(reports.try_recv().is_err()); // nothing failed
/// # Ok(())
/// # }
/// ```
pub struct KillSwitch {
    client: Client,
    disarm: SetKillSwitch,
    /// Stops the task; `true`: the task deletes the timer as it ends.
    stop: Option<oneshot::Sender<bool>>,
    task: Option<JoinHandle<()>>,
}

impl KillSwitch {
    /// Arms the timer and starts the re-arming task.
    pub(crate) async fn arm(
        client: Client,
        mut schedule: KillSwitchSchedule,
        report: Box<dyn Fn(KillSwitchEvent) + Send + Sync + 'static>,
    ) -> Result<Self, Error> {
        let signed_at = SystemTime::now();
        client.set_kill_switch(schedule.request()).await?;
        // The first arming: nothing to recover from, nothing to report.
        let _ = schedule.armed(signed_at);
        let disarm = schedule.disarm_request();
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(keep_armed(
            client.clone(),
            schedule,
            Arc::from(report),
            stopped,
        ));
        Ok(Self {
            client,
            disarm,
            stop: Some(stop),
            task: Some(task),
        })
    }

    /// The market whose timer this guard keeps.
    pub fn market(&self) -> &str {
        self.disarm.market().as_str()
    }

    /// Stops re-arming and deletes the timer, returning what deleting it answered (dropping
    /// the guard does the same from the task, and reports a failure instead).
    pub async fn disarm(mut self) -> Result<(), Error> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(false);
        }
        if let Some(task) = self.task.take() {
            // A panicking callback ends the task; the timer is deleted all the same.
            let _ = task.await;
        }
        self.client.set_kill_switch(&self.disarm).await.map(|_| ())
    }
}

/// The guard's task: waits until the schedule says, re-arms, reports; ends when the guard says
/// so, deleting the timer when asked.
async fn keep_armed(
    client: Client,
    mut schedule: KillSwitchSchedule,
    report: Report,
    mut stopped: oneshot::Receiver<bool>,
) {
    loop {
        let wait = schedule.due_in(SystemTime::now());
        match tokio::time::timeout(wait, &mut stopped).await {
            Err(_due) => {}
            Ok(told) => {
                // A guard that vanished without a word (it cannot: drop sends) deletes too.
                if told.unwrap_or(true)
                    && let Err(error) = client.set_kill_switch(&schedule.disarm_request()).await
                {
                    report(KillSwitchEvent::DisarmFailed(error));
                }
                return;
            }
        }
        let signed_at = SystemTime::now();
        let outcome = client.drive(client.core().call(schedule.request())).await;
        if let Some(event) = schedule.record(signed_at, SystemTime::now(), outcome) {
            report(event);
        }
    }
}

impl Drop for KillSwitch {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
    }
}

impl fmt::Debug for KillSwitch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KillSwitch")
            .field("market", &self.market())
            .field("running", &self.task.is_some())
            .finish_non_exhaustive()
    }
}
