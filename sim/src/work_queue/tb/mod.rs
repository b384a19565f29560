//! Testbench drivers of the work-queue RTL (SPEC WQ-1..WQ-10) and the exported units.
use super::scenario;
use super::system;
use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use ppu_hdl::work_queue::ring_wrap::WrapForm;

fn cosim_wq_cluster() -> Result<PortTrace, String> {
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.record_ports = true;
    cfg.bus_latency = 40;
    let (_, ports) = system::run(&cfg, None).map_err(|e| e.to_string())?;
    ports.ok_or_else(|| "no port trace".to_string())
}

pub fn export_units() -> Vec<Unit> {
    vec![Unit {
        name: "wq_cluster",
        mechanism: "work-queue",
        summary: "CPU and GPU channels, host interface, soft/shadow GP_PUT allocator, semaphores; rings up to 256 entries (WQ-1..WQ-10)",
        verilog: || verilog_of(system::SysCluster::with_form(WrapForm::Pow2), "wq_cluster"),
        cosim_trace: cosim_wq_cluster,
    }]
}
