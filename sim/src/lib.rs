//! # ppu-sim — cycle harness, golden models, system simulations and the `ppu` command line
//!
//! | module | what | SPEC |
//! | --- | --- | --- |
//! | [`harness`] | steps any rust-hdl block directly, VCD and port recording | X-3 |
//! | [`vcd_out`], [`vcd_check`], [`gtkw`] | VCD writer, independent read-back, GTKWave save files | X-3 |
//! | [`export`], [`lint`], [`cosim`], [`synth`], [`eda`] | Verilog export, Verilator lint, co-simulation, Yosys/nextpnr | X-4 |
//! | [`scenario`], [`trace`] | JSON scenarios, JSON Lines traces, exit statuses | X-5 |
//! | [`units`] | testbench drivers with golden models | X-2, X-3 |
//! | [`stream_out`] | stream output: golden model, system simulation, scenario, experiment | SO-1..SO-14 |
//! | [`status`] | unit status reporting: golden models, system simulation, scenarios, bench | ST-1..ST-9 |
pub mod bench;
pub mod cosim;
pub mod eda;
pub mod export;
pub mod gtkw;
pub mod harness;
pub mod harness_bench;
pub mod lint;
pub mod plot;
pub mod progress;
pub mod scenario;
pub mod status;
pub mod stream_out;
pub mod synth;
pub mod trace;
pub mod units;
pub mod vcd_check;
pub mod vcd_out;
pub mod wave_svg;
pub mod waves;

pub use ppu_hdl;

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
