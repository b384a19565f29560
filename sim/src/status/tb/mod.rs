//! Testbench drivers of the unit-status RTL (SPEC ST-1..ST-7), one file per unit: every driver
//! steps the RTL in the cycle harness, compares every output in every cycle against the golden
//! models of [`super::golden`], and can write waves and record ports for co-simulation. This
//! file holds the reference parameters and the exported units.
pub mod command_tree;
pub mod front_end_monitor;
pub mod rollup_tree;
pub mod status_cluster;
pub mod status_fsm;

pub use command_tree::{run_command_tree, CommandRun};
pub use front_end_monitor::{run_front_end_monitor, MonitorRun, MonitorTb};
pub use rollup_tree::{run_rollup_tree, RollupRun};
pub use status_cluster::{
    run_cluster_switch, run_status_cluster, system_save_file, ClusterRun, ClusterTb,
};
pub use status_fsm::{check_fsm_outputs, random_vectors, run_status_fsm, FsmRun};

use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::TbOutput;
use ppu_hdl::status::command_tree::CommandTree;
use ppu_hdl::status::front_end_monitor::FrontEndMonitor;
use ppu_hdl::status::rollup_tree::RollupTree;
use ppu_hdl::status::status_cluster::StatusCluster;
use ppu_hdl::status::status_fsm::StatusFsm;

/// Reference topology of the exported roll-up tree, monitor and cluster: 8 units in 4
/// connections — units 0..2 chained, unit 3 reporting directly, 4..5 chained, 6..7 chained.
pub const REF_CHAINS: [u64; 4] = [0b0000_0111, 0b0000_1000, 0b0011_0000, 0b1100_0000];
/// Reference tree depth of the exported units.
pub const REF_STAGES: usize = 3;
pub type RefRollupTree = RollupTree<8, 4, REF_STAGES>;
pub type RefCommandTree = CommandTree<8, REF_STAGES>;
pub type RefMonitor = FrontEndMonitor<8, 4, REF_STAGES>;
pub type RefCluster = StatusCluster<8, 4, REF_STAGES>;

/// Where a co-simulation testbench writes: no waves, ports recorded.
const RECORD_PORTS: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: true,
    engine: crate::verilator::Engine::Harness,
};

fn trace_of(p: Option<PortTrace>) -> Result<PortTrace, String> {
    p.ok_or_else(|| "no port trace".to_string())
}

fn cosim_status_fsm() -> Result<PortTrace, String> {
    trace_of(run_status_fsm(&random_vectors(800, 5), &RECORD_PORTS)?.ports)
}

fn cosim_rollup_tree() -> Result<PortTrace, String> {
    trace_of(run_rollup_tree::<8, 4, REF_STAGES>(&REF_CHAINS, 600, 3, &RECORD_PORTS)?.ports)
}

fn cosim_command_tree() -> Result<PortTrace, String> {
    trace_of(run_command_tree::<8, REF_STAGES>(600, 4, &RECORD_PORTS)?.ports)
}

fn cosim_front_end_monitor() -> Result<PortTrace, String> {
    let cfg = MonitorTb {
        cycles: 1500,
        seed: 6,
        ..MonitorTb::default()
    };
    trace_of(run_front_end_monitor::<8, 4, REF_STAGES>(&REF_CHAINS, &cfg, &RECORD_PORTS)?.ports)
}

fn cosim_status_cluster() -> Result<PortTrace, String> {
    let cfg = ClusterTb {
        cycles: 1500,
        seed: 7,
        ..ClusterTb::default()
    };
    trace_of(run_status_cluster::<8, 4, REF_STAGES>(&REF_CHAINS, &cfg, &RECORD_PORTS)?.ports)
}

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "status_fsm",
            mechanism: "status",
            summary: "five-state unit status machine (ST-1..ST-3)",
            verilog: || verilog_of(StatusFsm::default(), "status_fsm"),
            cosim_trace: cosim_status_fsm,
        },
        Unit {
            name: "rollup_tree",
            mechanism: "status",
            summary: "status roll-up, 8 units in 4 connections, TREE_STAGES=3 (ST-4)",
            verilog: || verilog_of(RefRollupTree::new(&REF_CHAINS), "rollup_tree"),
            cosim_trace: cosim_rollup_tree,
        },
        Unit {
            name: "command_tree",
            mechanism: "status",
            summary: "halt/reset/resume distribution to 8 units, TREE_STAGES=3 (ST-4, ST-5)",
            verilog: || verilog_of(RefCommandTree::default(), "command_tree"),
            cosim_trace: cosim_command_tree,
        },
        Unit {
            name: "front_end_monitor",
            mechanism: "status",
            summary: "context-switch sequencer and deadlock watchdog, 8 units, 4 connections, TREE_STAGES=3 (ST-5, ST-7)",
            verilog: || verilog_of(RefMonitor::new(&REF_CHAINS), "front_end_monitor"),
            cosim_trace: cosim_front_end_monitor,
        },
        Unit {
            name: "status_cluster",
            mechanism: "status",
            summary: "8 status FSMs, roll-up tree, command tree and front-end monitor, 4 connections, TREE_STAGES=3 (ST-1..ST-7)",
            verilog: || verilog_of(RefCluster::new(&REF_CHAINS), "status_cluster"),
            cosim_trace: cosim_status_cluster,
        },
    ]
}
