//! [`FaultTable`]: the injected faults, picked per request and counted down.

use super::fault::Fault;
use crate::config::Route;

#[derive(Debug, Clone)]
struct Entry {
    route: Route,
    fault: Fault,
    remaining: Option<u32>,
}

/// The injected faults.
#[derive(Debug, Default)]
pub(crate) struct FaultTable {
    entries: Vec<Entry>,
}

impl FaultTable {
    /// Injects `fault` for `route`, replacing that route's previous fault; `times` = `None`
    /// until cleared, `Some(0)` only removes.
    pub(crate) fn inject(&mut self, route: Route, fault: Fault, times: Option<u32>) {
        self.entries.retain(|e| e.route != route);
        if times != Some(0) {
            self.entries.push(Entry {
                route,
                fault,
                remaining: times,
            });
        }
    }

    /// Removes every fault.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// The fault for a request arriving at `route`, counting it down.
    pub(crate) fn take(&mut self, route: Route) -> Option<Fault> {
        let index = self
            .entries
            .iter()
            .position(|e| e.route == route)
            .or_else(|| self.entries.iter().position(|e| e.route == Route::All))?;
        let entry = self.entries.get_mut(index)?;
        let fault = entry.fault.clone();
        if let Some(n) = &mut entry.remaining {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.entries.remove(index);
            }
        }
        Some(fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_down_and_prefers_the_route() {
        let mut table = FaultTable::default();
        table.inject(Route::All, Fault::Unavailable, None);
        table.inject(Route::SmartPlans, Fault::TruncatedBody, Some(2));
        assert_eq!(table.take(Route::SmartPlans), Some(Fault::TruncatedBody));
        assert_eq!(table.take(Route::SmartPlans), Some(Fault::TruncatedBody));
        assert_eq!(table.take(Route::SmartPlans), Some(Fault::Unavailable));
        assert_eq!(
            table.take(Route::CollateralMarket),
            Some(Fault::Unavailable)
        );
        table.clear();
        assert_eq!(table.take(Route::CollateralMarket), None);
        table.inject(Route::All, Fault::Unavailable, Some(0));
        assert_eq!(table.take(Route::CollateralMarket), None);
    }
}
