//! # ppu-sim — cycle harness, golden models, system simulations and the `ppu` command line
//!
//! The shared kit (names no mechanism):
//!
//! | module | what | SPEC |
//! | --- | --- | --- |
//! | [`harness`] | steps any rust-hdl block directly, VCD and port recording | X-3 |
//! | [`tb`] | testbench kit: waves, harness set-up, GTKWave save files, valid/ready monitor | X-2, X-3 |
//! | [`vcd`] | VCD writer, independent read-back, GTKWave save files, SVG | X-3 |
//! | [`eda`] | Verilog export, Verilator lint, co-simulation, Yosys/nextpnr | X-4 |
//! | [`scenario`], [`trace`] | JSON scenarios, JSON Lines traces, exit statuses | X-5 |
//! | [`verilator`] | the Verilator engine of system simulations (`--engine verilator`) | X-3 |
//! | [`bench`], [`plot`], [`progress`] | benchmark plumbing, SVG charts, progress bars | X-6 |
//! | [`mechanism`] | what a mechanism contributes: runners, benches, units, waves | X-1 |
//!
//! The mechanisms, each in its own folder, importing the shared kit and never each other:
//!
//! | module | what | SPEC |
//! | --- | --- | --- |
//! | [`widgets`] | testbenches of the shared FIFO and arbiter, the harness benchmark | X-1..X-3 |
//! | [`stream_out`] | stream output: golden model, system simulation, scenario, experiment, unit testbenches | SO-1..SO-14 |
//! | [`status`] | unit status reporting: golden models, system simulation, scenarios, bench, unit testbenches | ST-1..ST-9 |
//! | [`work_queue`] | work-queue based work creation: golden model and WQ-8 trace checker, system simulation (GPU-created and CPU-mediated), scenario, bench, unit testbenches | WQ-1..WQ-11 |
//! | [`primitive_attributes`] | primitive-specific attributes: golden model and trace checker (no RTL yet) | PA-1..PA-7 |
//!
//! [`registry`] is the one file that lists every mechanism.
pub mod barrier;
pub mod bench;
pub mod eda;
pub mod harness;
pub mod mechanism;
pub mod plot;
pub mod primitive_attributes;
pub mod progress;
pub mod registry;
pub mod scenario;
pub mod status;
pub mod stream_out;
pub mod tb;
pub mod trace;
pub mod vcd;
pub mod verilator;
pub mod widgets;
pub mod work_queue;

pub use ppu_hdl;

/// Where `ppu` writes its outputs (`waves/`, `synth/`, `docs/results/`, scratch files under
/// `target/`): the ppu-rtl checkout that holds the current directory (it or one of its parents
/// has `hdl/src/lib.rs` and `sim/src/bin/ppu.rs`), else the current directory itself. So
/// `cargo run` anywhere inside a checkout writes into that checkout, and an installed `ppu`
/// (`cargo install --path sim`) run from any other folder writes into that folder, never into
/// the source tree it was built from.
pub fn work_root() -> std::path::PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
    cwd.ancestors()
        .find(|d| is_checkout(d))
        .map(std::path::Path::to_path_buf)
        .unwrap_or(cwd)
}

/// A ppu-rtl checkout's root folder.
fn is_checkout(dir: &std::path::Path) -> bool {
    dir.join("hdl").join("src").join("lib.rs").is_file()
        && dir
            .join("sim")
            .join("src")
            .join("bin")
            .join("ppu.rs")
            .is_file()
}

/// The source tree this crate was compiled from (the workspace folder holding `waves/`,
/// `synth/`, `docs/`): where the tests write and read committed files. The command line writes
/// under [`work_root`] instead.
pub fn repo_root() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| here.to_path_buf())
}

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
