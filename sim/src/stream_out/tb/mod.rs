//! Stream-output unit testbenches (SPEC SO-1..SO-13), one file per exported unit:
//!
//! | module | unit | checked against |
//! | --- | --- | --- |
//! | [`ssync`] | SSYNC, driven by scripted SO units and WDU commands | the [`SsyncScoreboard`](crate::stream_out::golden::SsyncScoreboard) of the golden model |
//! | [`so_unit`] | SO unit, driven as MPC, SSYNC and memory | a reference model of its requests and writes |
//! | [`batch_id_gen`] | the WDU's batch-ID generator | a model of the ID window |
//! | [`so_crossbar`] | the crossbar between SO units and SSYNC | a model of the routing |
//!
//! Each has its canonical waves (`canonical_waves`) and its co-simulation run (`cosim_run`);
//! this file lists the exported units.
pub mod batch_id_gen;
pub mod so_crossbar;
pub mod so_unit;
pub mod ssync;

use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::TbOutput;
use ppu_hdl::stream_out::so_unit::SoUnit;

/// Where a co-simulation run writes: ports recorded, no waves.
fn cosim_out() -> TbOutput<'static> {
    TbOutput {
        vcd: None,
        record_ports: true,
    }
}

fn trace_of(p: Option<PortTrace>) -> Result<PortTrace, String> {
    p.ok_or_else(|| "no port trace".to_string())
}

/// The exported stream-output units, with their co-simulation traces.
pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "ssync",
            mechanism: "stream-out",
            summary: "stream synchronization unit, SO_UNITS=4, operation FIFO of 4",
            verilog: || verilog_of(ssync::RefSsync::default(), "ssync"),
            cosim_trace: || trace_of(ssync::cosim_run(&cosim_out())?.ports),
        },
        Unit {
            name: "so_unit",
            mechanism: "stream-out",
            summary: "stream output unit: requests, byte counts, buffer writes",
            verilog: || verilog_of(SoUnit::default(), "so_unit"),
            cosim_trace: || trace_of(so_unit::cosim_run(&cosim_out())?.ports),
        },
        Unit {
            name: "batch_id_gen",
            mechanism: "stream-out",
            summary: "WDU batch-ID generator, 14-bit IDs, 16 in flight",
            verilog: || verilog_of(batch_id_gen::RefBatchIdGen::default(), "batch_id_gen"),
            cosim_trace: || trace_of(batch_id_gen::cosim_run(&cosim_out())?.ports),
        },
        Unit {
            name: "so_crossbar",
            mechanism: "stream-out",
            summary: "crossbar of 4 SO units to SSYNC and responses back",
            verilog: || verilog_of(so_crossbar::RefCrossbar::default(), "so_crossbar"),
            cosim_trace: || trace_of(so_crossbar::cosim_run(&cosim_out())?.ports),
        },
    ]
}
