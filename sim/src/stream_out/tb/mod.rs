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
use ppu_hdl::stream_out::so_cluster::SoCluster;
use ppu_hdl::stream_out::so_unit::SoUnit;

/// The exported stream-out top block: the system simulation's 4-SO-unit cluster (operation
/// FIFO of 8, 64 batch IDs in flight).
pub type RefCluster = SoCluster<4, 2, 8, 3, 4, 64, 6>;

/// The built-in stream-out scenario on the cluster, its ports recorded every cycle.
fn cosim_cluster() -> Result<PortTrace, String> {
    let plan = crate::stream_out::scenario::plan(&crate::stream_out::scenario::builtin(), 1)
        .map_err(|e| e.to_string())?;
    let mut trace = crate::trace::TraceWriter::memory();
    let (_, ports) = crate::stream_out::system::run_plan_recording_ports(&plan, &mut trace)
        .map_err(|e| e.to_string())?;
    Ok(ports)
}

/// Where a co-simulation run writes: ports recorded, no waves.
fn cosim_out() -> TbOutput<'static> {
    TbOutput {
        vcd: None,
        record_ports: true,
        engine: crate::verilator::Engine::Harness,
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
        Unit {
            name: "so_cluster",
            mechanism: "stream-out",
            summary: "top block: batch-ID generator, SSYNC, crossbar and 4 SO units (SO-1..SO-13)",
            verilog: || verilog_of(RefCluster::default(), "so_cluster"),
            cosim_trace: cosim_cluster,
        },
    ]
}
