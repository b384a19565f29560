//! Testbench drivers of the work-queue RTL (SPEC WQ-1..WQ-10), one file per unit, each
//! comparing every output every cycle with the golden models of [`super::golden`], writing
//! waves and recording ports for co-simulation; and the exported units. The host interface is
//! exported on its own and inside `wq_cluster`; the system simulation drives both (the host's
//! co-simulation replays its ports as recorded inside the cluster, in the built-in scenario).
pub mod acquire_check;
pub mod gp_fifo;
pub mod ring_wrap;
pub mod semaphore_memory;
pub mod soft_put_allocator;
pub mod wq_cluster;

pub use acquire_check::{run_acquire_check, AcquireRun};
pub use gp_fifo::{run_gp_fifo, GpFifoRun, RefGpFifo, RING_IDX};
pub use ring_wrap::check_ring_wrap;
pub use semaphore_memory::{run_semaphores, RefSemaphores, SemaphoreRun};
pub use soft_put_allocator::{run_allocator, AllocatorRun, RefAllocator};
pub use wq_cluster::{run_bad_input, BadEntry, BadInputRun, BAD_INPUT_WATCHDOG_LIMIT};

use super::scenario;
use super::system;
use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::TbOutput;
use ppu_hdl::work_queue::acquire_check::AcquireCheck;
use ppu_hdl::work_queue::ring_wrap::WrapForm;

/// Where a co-simulation testbench writes: no waves, ports recorded.
const RECORD_PORTS: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: true,
    engine: crate::verilator::Engine::Harness,
};

fn trace_of(p: Option<PortTrace>) -> Result<PortTrace, String> {
    p.ok_or_else(|| "no port trace".to_string())
}

/// The built-in scenario's run recording ports: the cluster's, or its host interface's.
fn cosim_system(host: bool) -> Result<PortTrace, String> {
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.record_ports = true;
    cfg.record_host_ports = host;
    cfg.bus_latency = 40;
    let (_, ports) = system::run(&cfg, None).map_err(|e| e.to_string())?;
    trace_of(ports)
}

fn cosim_wq_cluster() -> Result<PortTrace, String> {
    cosim_system(false)
}

fn cosim_host_interface() -> Result<PortTrace, String> {
    cosim_system(true)
}

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "acquire_check",
            mechanism: "work-queue",
            summary: "the five semaphore-acquire conditions, registered (WQ-4)",
            verilog: || verilog_of(AcquireCheck::default(), "acquire_check"),
            cosim_trace: || trace_of(run_acquire_check(400, 3, &RECORD_PORTS)?.ports),
        },
        Unit {
            name: "gp_fifo",
            mechanism: "work-queue",
            summary: "GP_GET/GP_PUT ring, AND-form wrap, up to 256 entries (WQ-1, WQ-2)",
            verilog: || verilog_of(RefGpFifo::with_form(WrapForm::Pow2), "gp_fifo"),
            cosim_trace: || trace_of(run_gp_fifo(WrapForm::Pow2, 16, 500, 4, &RECORD_PORTS)?.ports),
        },
        Unit {
            name: "gp_fifo_compare",
            mechanism: "work-queue",
            summary: "GP_GET/GP_PUT ring, compare-form wrap (any size), up to 256 entries (WQ-1, WQ-2)",
            verilog: || verilog_of(RefGpFifo::with_form(WrapForm::Compare), "gp_fifo_compare"),
            cosim_trace: || {
                trace_of(run_gp_fifo(WrapForm::Compare, 12, 500, 5, &RECORD_PORTS)?.ports)
            },
        },
        Unit {
            name: "soft_put_allocator",
            mechanism: "work-queue",
            summary: "atomic soft GP_PUT allocation against shadow GP_PUT, compare-form wrap (WQ-5, WQ-6)",
            verilog: || {
                verilog_of(RefAllocator::with_form(WrapForm::Compare), "soft_put_allocator")
            },
            cosim_trace: || {
                trace_of(run_allocator(WrapForm::Compare, 13, 500, 6, &RECORD_PORTS)?.ports)
            },
        },
        Unit {
            name: "semaphore_memory",
            mechanism: "work-queue",
            summary: "S[i] per entry, X, Y in block RAM with clear sweep, 512 words (WQ-5, WQ-6)",
            verilog: || verilog_of(RefSemaphores::default(), "semaphore_memory"),
            cosim_trace: || trace_of(run_semaphores(500, 24, 7, &RECORD_PORTS)?.ports),
        },
        Unit {
            name: "host_interface",
            mechanism: "work-queue",
            summary: "host interface: fetches and executes the entries of the CPU and GPU channels, rings up to 256 entries (WQ-3, WQ-4, WQ-10)",
            verilog: || verilog_of(system::SysHost::default(), "host_interface"),
            cosim_trace: cosim_host_interface,
        },
        Unit {
            name: "wq_cluster",
            mechanism: "work-queue",
            summary: "CPU and GPU channels, host interface, soft/shadow GP_PUT allocator, semaphores; rings up to 256 entries (WQ-1..WQ-10)",
            verilog: || verilog_of(system::SysCluster::with_form(WrapForm::Pow2), "wq_cluster"),
            cosim_trace: cosim_wq_cluster,
        },
    ]
}
