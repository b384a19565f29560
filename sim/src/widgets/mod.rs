//! The foundation (SPEC X-1..X-3): testbenches of the shared widgets — [`StreamFifo`] against
//! a queue reference model ([`stream_fifo`]) and [`RrArbiter`] against a round-robin reference
//! model ([`rr_arbiter`]) and [`StagedArbiter`] against a model of its rules
//! ([`staged_arbiter`]), each with random valid/ready back-pressure, a payload-stability
//! monitor and a scoreboard — and the harness benchmark ([`bench`]).
pub mod bench;
pub mod formal;
pub mod rr_arbiter;
pub mod staged_arbiter;
pub mod stream_fifo;
pub mod verilator_bench;

use crate::eda::export::{verilog_of, Unit};
use crate::mechanism::Mechanism;
use crate::tb::TbOutput;
pub use crate::tb::{TbConfig, TbResult};
pub use rr_arbiter::{arbiter_violation_on_dropped_valid, run_arbiter, RefArbiter, RrModel};
pub use staged_arbiter::{
    run_staged_arbiter, staged_violation_on_dropped_valid, RefStagedArbiter, StagedModel,
};
use std::path::Path;
pub use stream_fifo::{run_fifo, RefFifo};

/// The registry entry of the foundation widgets.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "foundation",
        scenarios: Vec::new,
        benches: bench::benches,
        units: export_units,
        waves: write_waves,
        formal: formal::checks,
    }
}

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
                        engine: crate::verilator::Engine::Harness,
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
                        engine: crate::verilator::Engine::Harness,
                    },
                )?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
    ]
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
            engine: crate::verilator::Engine::Harness,
        },
    )?;
    let arb = dir.join("rr_arbiter.vcd");
    run_arbiter(
        &cfg,
        &TbOutput {
            vcd: Some(&arb),
            record_ports: false,
            engine: crate::verilator::Engine::Harness,
        },
    )?;
    Ok(vec!["stream_fifo".into(), "rr_arbiter".into()])
}
