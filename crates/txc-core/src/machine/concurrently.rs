//! [`Concurrently`]: several machines driven as one, their waits overlapping.

use std::time::{Duration, SystemTime};

use super::{Machine, Step, Wake};
use crate::{Response, TransportError};

/// Several machines driven as one [`Machine`]: one request in flight at a time (the protocol
/// a transport drives), but their waits overlap — while one waits for a round of look-ups,
/// another sends. Its output is theirs, in their order.
///
/// Each machine is asked in turn (from where the last one that sent left off, so that none
/// starves); the first that sends is the one the response goes to. When every unfinished one
/// waits, it waits the shortest of their waits and asks them all again: a machine asked before
/// its wait is over answers with what is left of it (every machine of this crate does).
pub(crate) struct Concurrently<M: Machine> {
    machines: Vec<Option<M>>,
    outputs: Vec<Option<M::Output>>,
    /// The machine whose request is out.
    awaiting: Option<usize>,
    /// Where the next turn starts.
    cursor: usize,
}

impl<M: Machine> Concurrently<M> {
    /// Drives `machines` together.
    pub(crate) fn new(machines: Vec<M>) -> Self {
        let outputs = machines.iter().map(|_| None).collect();
        Self {
            machines: machines.into_iter().map(Some).collect(),
            outputs,
            awaiting: None,
            cursor: 0,
        }
    }
}

impl<M: Machine> Machine for Concurrently<M> {
    type Output = Vec<M::Output>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        let count = self.machines.len();
        let mut wait: Option<Duration> = None;
        for turn in 0..count {
            let at = (self.cursor + turn) % count;
            let Some(Some(machine)) = self.machines.get_mut(at) else {
                continue;
            };
            match machine.next(now) {
                Step::Send(request) => {
                    self.awaiting = Some(at);
                    self.cursor = (at + 1) % count;
                    return Step::Send(request);
                }
                Step::Wait(delay) => wait = Some(wait.map_or(delay, |w| w.min(delay))),
                Step::Done(output) => {
                    if let (Some(slot), Some(kept)) =
                        (self.machines.get_mut(at), self.outputs.get_mut(at))
                    {
                        *slot = None;
                        *kept = Some(output);
                    }
                }
            }
        }
        match wait {
            Some(delay) => Step::Wait(delay),
            None => Step::Done(self.outputs.iter_mut().filter_map(Option::take).collect()),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some(Some(machine)) = self
            .awaiting
            .take()
            .and_then(|at| self.machines.get_mut(at))
        {
            machine.receive(response);
        }
    }

    /// The first waiting machine's, if it offers one: an event it waits for ends the wait.
    fn wake(&self) -> Option<Wake<'_>> {
        self.machines.iter().flatten().find_map(Machine::wake)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits `waits` in turn (each from when it is asked), then finishes with its name.
    struct Waits {
        name: u8,
        until: Option<SystemTime>,
        waits: Vec<Duration>,
    }

    impl Machine for Waits {
        type Output = u8;
        fn next(&mut self, now: SystemTime) -> Step<u8> {
            if let Some(until) = self.until
                && let Ok(left) = until.duration_since(now)
                && !left.is_zero()
            {
                return Step::Wait(left);
            }
            match self.waits.pop() {
                Some(wait) => {
                    self.until = now.checked_add(wait);
                    Step::Wait(wait)
                }
                None => Step::Done(self.name),
            }
        }
        fn receive(&mut self, _: Result<Response<'_>, TransportError>) {}
    }

    #[test]
    fn waits_overlap_and_outputs_keep_their_order() {
        let ms = Duration::from_millis;
        let machines = vec![
            Waits {
                name: 1,
                until: None,
                waits: vec![ms(30), ms(10)],
            },
            Waits {
                name: 2,
                until: None,
                waits: vec![ms(35)],
            },
        ];
        let mut all = Concurrently::new(machines);
        let mut now = SystemTime::UNIX_EPOCH;
        let mut slept = Duration::ZERO;
        let outputs = loop {
            match all.next(now) {
                Step::Wait(delay) => {
                    now += delay;
                    slept += delay;
                }
                Step::Done(outputs) => break outputs,
                Step::Send(_) => unreachable!("nothing sends"),
            }
        };
        assert_eq!(outputs, [1, 2]);
        // Side by side: the longest path (10 + 30 ms), not the sum (75 ms).
        assert_eq!(slept, ms(40));
    }
}
