//! The per-source circuit breaker: after N failed requests in a row the source is skipped for
//! a cooldown, so a dead API costs a run seconds, not the full retry budget of every request.

use std::time::{Duration, Instant};

/// Consecutive failures and, when open, until when the source is skipped.
///
/// After the cooldown the breaker is half-open: requests go through, and the first failure
/// opens it again at once (the count is still at the threshold) while a success closes it.
#[derive(Debug, Default)]
pub(crate) struct Breaker {
    consecutive_failures: u32,
    open_until: Option<Instant>,
    last_error: String,
}

/// Why the breaker refused a request.
pub(crate) struct Refusal {
    pub(crate) retry_in: Duration,
    pub(crate) failures: u32,
    pub(crate) last_error: String,
}

impl Breaker {
    /// `Err` while the circuit is open.
    pub(crate) fn check(&self, now: Instant) -> Result<(), Refusal> {
        match self.open_until {
            Some(until) if now < until => Err(Refusal {
                retry_in: until - now,
                failures: self.consecutive_failures,
                last_error: self.last_error.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// A request succeeded: the source is healthy again.
    pub(crate) fn record_success(&mut self) {
        self.consecutive_failures = 0;
        self.open_until = None;
    }

    /// A request failed after its retries; returns whether this opened the circuit.
    pub(crate) fn record_failure(
        &mut self,
        now: Instant,
        threshold: u32,
        cooldown: Duration,
        error: &str,
    ) -> bool {
        self.consecutive_failures = self.consecutive_failures.saturating_add(1);
        self.last_error = error.to_owned();
        if self.consecutive_failures >= threshold.max(1) {
            self.open_until = Some(now + cooldown);
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_threshold_and_half_opens_after_cooldown() {
        let start = Instant::now();
        let cooldown = Duration::from_secs(10);
        let mut breaker = Breaker::default();
        assert!(!breaker.record_failure(start, 2, cooldown, "first"));
        assert!(breaker.check(start).is_ok());
        assert!(breaker.record_failure(start, 2, cooldown, "second"));
        let refusal = breaker.check(start + Duration::from_secs(4)).err().unwrap();
        assert_eq!(refusal.retry_in, Duration::from_secs(6));
        assert_eq!(refusal.failures, 2);
        assert_eq!(refusal.last_error, "second");
        let later = start + cooldown;
        assert!(breaker.check(later).is_ok(), "half-open after the cooldown");
        assert!(
            breaker.record_failure(later, 2, cooldown, "third"),
            "one more failure reopens"
        );
        breaker.record_success();
        assert!(breaker.check(later).is_ok());
        assert!(!breaker.record_failure(later, 2, cooldown, "fresh"));
    }
}
