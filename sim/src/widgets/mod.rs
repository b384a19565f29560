//! The foundation (SPEC X-1..X-3): testbenches of the shared widgets — [`StreamFifo`] against
//! a queue reference model ([`stream_fifo`]) and [`RrArbiter`] against a round-robin reference
//! model ([`rr_arbiter`]), each with random valid/ready back-pressure, a payload-stability
//! monitor and a scoreboard — and the harness benchmark ([`bench`]).
pub mod bench;
pub mod rr_arbiter;
pub mod stream_fifo;

use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::mechanism::Mechanism;
use crate::tb::TbOutput;
use ppu_hdl::prelude::*;
pub use rr_arbiter::{arbiter_violation_on_dropped_valid, run_arbiter, RrModel};
use rust_hdl::prelude::*;
use std::path::Path;
pub use stream_fifo::run_fifo;

/// The registry entry of the foundation widgets.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "foundation",
        scenarios: Vec::new,
        benches: bench::benches,
        units: export_units,
        waves: write_waves,
    }
}

/// Reference parameters of the exported FIFO: 16-bit words, depth 6 (not a power of two).
pub type RefFifo = StreamFifo<Bits<16>, 6, 3, 3>;
/// Reference parameters of the exported arbiter: 4 requesters of first requests (SO-5).
pub type RefArbiter = RrArbiter<FirstRequest, 4, 2>;

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "stream_fifo",
            mechanism: "foundation",
            summary: "valid/ready FIFO, 16-bit words, depth 6",
            verilog: || verilog_of(RefFifo::default(), "stream_fifo"),
            cosim_trace: || {
                let cfg = TbConfig {
                    cycles: 600,
                    resets: vec![300],
                    ..TbConfig::default()
                };
                let r = run_fifo::<6, 3, 3>(
                    &cfg,
                    &TbOutput {
                        vcd: None,
                        record_ports: true,
                    },
                )?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
        Unit {
            name: "rr_arbiter",
            mechanism: "foundation",
            summary: "round-robin arbiter, 4 requesters of 25-bit first requests",
            verilog: || verilog_of(RefArbiter::default(), "rr_arbiter"),
            cosim_trace: || {
                let cfg = TbConfig {
                    cycles: 600,
                    resets: vec![250],
                    ..TbConfig::default()
                };
                let r = run_arbiter(
                    &cfg,
                    &TbOutput {
                        vcd: None,
                        record_ports: true,
                    },
                )?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
    ]
}

/// Random stimulus of a channel testbench.
#[derive(Debug, Clone)]
pub struct TbConfig {
    pub cycles: u64,
    pub seed: u64,
    /// Probability that an idle producer raises `valid` in a cycle.
    pub valid_prob: f64,
    /// Probability that the consumer raises `ready` in a cycle.
    pub ready_prob: f64,
    /// Cycles (besides cycle 0) in which `reset` is raised.
    pub resets: Vec<u64>,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            cycles: 2000,
            seed: 1,
            valid_prob: 0.6,
            ready_prob: 0.6,
            resets: vec![],
        }
    }
}

/// What a testbench run saw.
#[derive(Debug, Clone, Default)]
pub struct TbResult {
    pub cycles: u64,
    pub transfers_in: u64,
    pub transfers_out: u64,
    pub max_fill: usize,
    pub ports: Option<PortTrace>,
}

/// Write the canonical waves of the foundation widgets into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    let cfg = TbConfig {
        cycles: 200,
        ..TbConfig::default()
    };
    let fifo = dir.join("stream_fifo.vcd");
    run_fifo::<6, 3, 3>(
        &cfg,
        &TbOutput {
            vcd: Some(&fifo),
            record_ports: false,
        },
    )?;
    let arb = dir.join("rr_arbiter.vcd");
    run_arbiter(
        &cfg,
        &TbOutput {
            vcd: Some(&arb),
            record_ports: false,
        },
    )?;
    Ok(vec!["stream_fifo".into(), "rr_arbiter".into()])
}
