//! The last line of defence: a panic inside a step (a bug met on a record nobody foresaw)
//! becomes a step failure that names the step and the work being processed, says how to
//! report it, and leaves the run resumable, instead of a Rust backtrace.

use std::any::Any;
use std::fmt;
use std::sync::Mutex;

/// What the panic hook saw: the message, where in litrev's code, and the work the panicking
/// thread was processing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    message: String,
    location: Option<String>,
    work: Option<String>,
}

static LAST_SEEN: Mutex<Option<Seen>> = Mutex::new(None);

/// Installs a panic hook that records each panic for [`PanicReport`] and prints nothing,
/// unless `RUST_BACKTRACE` is set, when the previous hook (Rust's default) prints it too.
///
/// Frontends call it once at start-up; without it a step's panic still becomes an error, but
/// without its location or work.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let seen = Seen {
            message: panic_message(info.payload()),
            location: info
                .location()
                .map(|location| format!("{}:{}", location.file(), location.line())),
            work: litrev_model::work_in_process().map(|work| work.to_string()),
        };
        if let Ok(mut last) = LAST_SEEN.lock() {
            *last = Some(seen);
        }
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|value| value != "0") {
            previous(info);
        }
    }));
}

/// A step that panicked: what the user is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanicReport {
    /// The run.
    pub run: String,
    /// The step that was running.
    pub step: String,
    /// The work being processed, when the phase said.
    pub work: Option<String>,
    /// The panic's message.
    pub message: String,
    /// Where in litrev's code, when the hook saw it.
    pub location: Option<String>,
}

impl PanicReport {
    /// The report of a panic caught while `step` of `run` ran, from its payload and what the
    /// hook recorded (taken, so a later panic is not mistaken for this one).
    pub(crate) fn caught(run: &str, step: &str, payload: &(dyn Any + Send)) -> PanicReport {
        let message = panic_message(payload);
        let seen = LAST_SEEN.lock().ok().and_then(|mut last| last.take());
        let seen = seen.filter(|seen| seen.message == message);
        PanicReport {
            run: run.to_owned(),
            step: step.to_owned(),
            work: seen.as_ref().and_then(|seen| seen.work.clone()),
            message,
            location: seen.and_then(|seen| seen.location),
        }
    }
}

impl fmt::Display for PanicReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step `{}` stopped on an internal error", self.step)?;
        if let Some(work) = &self.work {
            write!(f, " while processing work {work}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(location) = &self.location {
            write!(f, " (at {location})")?;
        }
        write!(
            f,
            ". This is a bug in litrev, not in your input: please report it at {}/issues with this message and the run's run.json. Everything up to the last finished step is stored; `litrev resume {}` retries from `{}`",
            env!("CARGO_PKG_REPOSITORY"),
            self.run,
            self.step
        )
    }
}

/// The message a panic carried (its `&str` or `String` payload).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_panic_names_the_step_the_work_and_what_to_do() {
        install_panic_hook();
        let work: litrev_model::WorkId = "W42".parse().expect("an OpenAlex id");
        let payload = std::panic::catch_unwind(|| {
            let _processing = litrev_model::processing(&work);
            let text = "abc";
            let at = text.len() + 1;
            text.get(at..)
                .map_or_else(|| panic!("byte {at} is out of range"), str::len)
        })
        .expect_err("the closure panics");
        let report = PanicReport::caught("r1", "screen", payload.as_ref());
        assert_eq!(report.work.as_deref(), Some("W42"));
        assert_eq!(report.message, "byte 4 is out of range");
        assert!(
            report
                .location
                .as_deref()
                .is_some_and(|location| location.starts_with("crates/litrev/src/panics.rs:")),
            "{report:?}"
        );
        let text = report.to_string();
        assert!(text.starts_with("step `screen` stopped on an internal error while processing work W42: byte 4 is out of range (at crates/litrev/src/panics.rs:"), "{text}");
        assert!(text.contains("please report it at"), "{text}");
        assert!(
            text.ends_with("`litrev resume r1` retries from `screen`"),
            "{text}"
        );
    }
}
