//! The one logger of this test binary: it keeps every record logged through the `log` facade,
//! at every level, for the tests that check what the crates and their dependencies log. A
//! process has one logger, so the tests that read records share this one.

use std::sync::{Mutex, Once};

/// Everything logged since [`install`]: level, target, text.
static LOGGED: Mutex<Vec<(log::Level, String, String)>> = Mutex::new(Vec::new());

struct CaptureLog;

impl log::Log for CaptureLog {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, record: &log::Record<'_>) {
        let entry = (record.level(), record.target().to_owned(), record.args().to_string());
        LOGGED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(entry);
    }

    fn flush(&self) {}
}

/// Installs the logger, at every level (once; later calls do nothing).
pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        log::set_logger(&CaptureLog).expect("no other logger in this test binary");
        log::set_max_level(log::LevelFilter::Trace);
    });
}

/// Every record logged so far.
pub(crate) fn logged() -> Vec<(log::Level, String, String)> {
    LOGGED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
}
