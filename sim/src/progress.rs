//! Progress bars for long runs (`indicatif`), hidden when not wanted or not on a terminal.
use indicatif::{ProgressBar, ProgressStyle};

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
