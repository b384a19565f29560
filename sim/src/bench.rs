//! Benchmarks and experiments (`ppu bench <name>`): each writes `docs/results/<name>.md` (and
//! an SVG plot where it has one) from figures it measured in the same run.
use crate::scenario::RunError;
use std::path::PathBuf;

/// Options of `ppu bench`.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Fewer points / shorter runs (for tests); results are not written to `docs/` then unless
    /// `out_dir` says so.
    pub quick: bool,
    pub progress: bool,
    /// Where results go (`docs/results` by default).
    pub out_dir: PathBuf,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            quick: false,
            progress: false,
            out_dir: crate::export::repo_root().join("docs").join("results"),
        }
    }
}

/// What a benchmark produced.
#[derive(Debug, Clone, Default)]
pub struct BenchReport {
    /// The result table (Markdown), also printed by the command line.
    pub markdown: String,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// One benchmark or experiment.
pub struct Bench {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&BenchOptions) -> Result<BenchReport, RunError>,
}

/// Every benchmark of this build.
pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "harness",
        about: "cycles/second of the cycle harness against rust-hdl's Simulation on the FIFO (X-3)",
        run: crate::harness_bench::run,
    },
    Bench {
        name: "stream-out",
        about: "SO-14: stream-output bytes/cycle for 1..16 SO units vs the single-unit baseline; SSYNC latency and responses/cycle",
        run: crate::stream_out::bench::run,
    }]
}
