//! Testbench drivers of the barrier RTL (SPEC BR-3..BR-7), one file per unit, and the exported
//! units. The top block `barrier_cluster` is driven by the system simulation.
pub mod barrier_counter;
pub mod prop;
pub mod tiling_unit;

pub use barrier_counter::{
    back_to_back, random_instances, run_counter, run_counter_waves, CounterRun, RefCounter,
};
pub use prop::{other_tiles_pass, random_prop_items, run_prop, run_prop_waves, PropRun};
pub use tiling_unit::{
    mixed_barriers, random_inputs, run_tiling, run_tiling_waves, RefTiling, TilingRun, TuInput,
};

use super::scenario;
use super::system;
use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::TbOutput;
use ppu_hdl::barrier::prop::Prop;
use ppu_hdl::barrier::tiling_unit::TilingUnit;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The top block as exported and placed: four pipelines.
pub type RefCluster = ppu_hdl::barrier::barrier_cluster::BarrierCluster<4, 2>;

const RECORD_PORTS: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: true,
    engine: crate::verilator::Engine::Harness,
};

fn trace_of(p: Option<PortTrace>) -> Result<PortTrace, String> {
    p.ok_or_else(|| "no port trace".to_string())
}

fn cosim_tiling() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let inputs = random_inputs(&mut rng, 6, 40);
    trace_of(run_tiling(6, 5, &inputs, 0.8, 0.7, 11, &RECORD_PORTS)?.ports)
}

fn cosim_prop() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let items = random_prop_items(&mut rng, 5, 150);
    trace_of(run_prop(&items, 12, 0.7, 12, &RECORD_PORTS)?.ports)
}

fn cosim_counter() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let inst = random_instances(&mut rng, 6, 40);
    trace_of(run_counter::<4, 2>(&inst, 0.5, 13, &RECORD_PORTS)?.ports)
}

fn cosim_cluster() -> Result<PortTrace, String> {
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.record_ports = true;
    let (_, ports) = system::run(&cfg, None).map_err(|e| e.to_string())?;
    trace_of(ports)
}

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "tiling_unit",
            mechanism: "barrier",
            summary: "bins entries per cache tile (linked lists in block RAM), flushes, places tiled barriers (BR-3..BR-5)",
            verilog: || verilog_of(TilingUnit::default(), "tiling_unit"),
            cosim_trace: cosim_tiling,
        },
        Unit {
            name: "prop",
            mechanism: "barrier",
            summary: "PROP barrier flags (non-tiled, 256 cache tiles), 8-slot hold queue, release (BR-4..BR-7)",
            verilog: || verilog_of(Prop::default(), "prop"),
            cosim_trace: cosim_prop,
        },
        Unit {
            name: "barrier_counter",
            mechanism: "barrier",
            summary: "back-end barrier counter, per cache tile in block RAM, 4 pipelines (BR-4, BR-5)",
            verilog: || verilog_of(RefCounter::default(), "barrier_counter"),
            cosim_trace: cosim_counter,
        },
        Unit {
            name: "barrier_cluster",
            mechanism: "barrier",
            summary: "top block: 4 tiling units, 4 PROPs, the back end and its release path (BR-1..BR-7)",
            verilog: || verilog_of(RefCluster::default(), "barrier_cluster"),
            cosim_trace: cosim_cluster,
        },
    ]
}
