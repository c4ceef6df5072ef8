//! Progress on stderr: a spinner per step on a terminal, plain lines otherwise.

use std::cell::RefCell;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use litrev::Event;

/// Renders engine events for a person watching stderr.
pub struct Progress {
    interactive: bool,
    bar: RefCell<Option<ProgressBar>>,
}

impl Progress {
    /// A renderer; `interactive` when stderr is a terminal.
    pub fn new(interactive: bool) -> Progress {
        Progress {
            interactive,
            bar: RefCell::new(None),
        }
    }

    /// Shows one event.
    pub fn show(&self, event: &Event) {
        match event {
            Event::RunCreated { run } => eprintln!("run {run}"),
            Event::StepStarted { step, detail } if self.interactive => {
                let bar = ProgressBar::new_spinner();
                bar.set_style(
                    ProgressStyle::with_template(
                        "{spinner} {prefix:>12} {msg} {pos:>7} [{elapsed}]",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar.set_prefix(step.clone());
                bar.set_message(detail.clone());
                bar.enable_steady_tick(Duration::from_millis(120));
                if let Some(previous) = self.bar.replace(Some(bar)) {
                    previous.finish_and_clear();
                }
            }
            Event::Progress { done, total, .. } => {
                if let Some(bar) = self.bar.borrow().as_ref() {
                    if let Some(total) = total {
                        bar.set_length(*total);
                    }
                    bar.set_position(*done);
                }
            }
            Event::StepFinished { step, summary } => {
                if let Some(bar) = self.bar.replace(None) {
                    bar.finish_and_clear();
                }
                eprintln!("{step:>12}  {summary}");
            }
            Event::StepSkipped { step } => eprintln!("{step:>12}  done earlier"),
            Event::Notice { message } => {
                if let Some(bar) = self.bar.borrow().as_ref() {
                    bar.println(format!("note: {message}"));
                } else {
                    eprintln!("note: {message}");
                }
            }
            _ => {}
        }
    }

    /// Clears any bar left on screen.
    pub fn finish(&self) {
        if let Some(bar) = self.bar.replace(None) {
            bar.finish_and_clear();
        }
    }
}
