//! Progress bars for long runs (`indicatif`), hidden when not wanted or not on a terminal.
use indicatif::{ProgressBar, ProgressStyle};

/// A spinner for a run whose length is not known ahead (`ppu run`): `what`, the cycle the
/// simulation has reached (the caller sets it as the position) and the time spent, redrawn five
/// times a second on stderr.
pub fn spinner(what: &str) -> ProgressBar {
    let pb = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}: cycle {human_pos}, {elapsed}")
    {
        pb.set_style(style);
    }
    pb.set_message(what.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// A bar of `total` steps labelled `what`; hidden unless `show`.
pub fn bar(total: u64, what: &str, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{msg:>14} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
    {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_message(what.to_string());
    pb
}
