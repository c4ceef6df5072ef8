//! Which work the current thread is processing, so that a failure deep inside a phase (a
//! panic on a record nobody foresaw) can name the record that caused it.

use std::cell::RefCell;

use crate::WorkId;

thread_local! {
    static CURRENT: RefCell<Vec<WorkId>> = const { RefCell::new(Vec::new()) };
}

/// Marks `work` as the one this thread processes until the guard is dropped.
///
/// Phases wrap their per-work loops with it; it costs a clone of the id.
pub fn processing(work: &WorkId) -> Processing {
    CURRENT.with(|current| current.borrow_mut().push(work.clone()));
    Processing { _private: () }
}

/// The work this thread is processing, innermost first, if a phase said so.
pub fn work_in_process() -> Option<WorkId> {
    CURRENT.with(|current| current.borrow().last().cloned())
}

/// Ends the mark of [`processing`] when dropped (also while unwinding).
#[must_use = "the work is only marked while the guard lives"]
#[derive(Debug)]
pub struct Processing {
    _private: (),
}

impl Drop for Processing {
    fn drop(&mut self) {
        CURRENT.with(|current| {
            current.borrow_mut().pop();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_work_is_current_until_its_guard_drops() {
        let outer: WorkId = "W1".parse().expect("an OpenAlex id");
        let inner: WorkId = "W2".parse().expect("an OpenAlex id");
        assert_eq!(work_in_process(), None);
        let _outer = processing(&outer);
        {
            let _inner = processing(&inner);
            assert_eq!(work_in_process(), Some(inner.clone()));
        }
        assert_eq!(work_in_process(), Some(outer));
    }
}
