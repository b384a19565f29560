//! Work-queue based work creation (SPEC section 4): golden models, unit testbenches, the system
//! simulation of CPU and GPU channels with GPU threads creating nested work, the `work-queue`
//! scenario runner and the WQ-11 experiment (`ppu bench work-queue`).
pub mod bench;
pub mod formal;
pub mod golden;
pub mod scenario;
pub mod system;
pub mod tb;

use crate::mechanism::Mechanism;
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use std::path::Path;

/// The registry entry of the work queue.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "work-queue",
        scenarios: scenario::runners,
        benches: bench::benches,
        units: tb::export_units,
        waves: write_waves,
        formal: formal::checks,
    }
}

/// Write the canonical waves of the work-queue units into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    // The figures 6A-6F sequence of the built-in scenario, with a short bus so that the waves
    // open on the interesting part.
    let p = dir.join("work_queue_system.vcd");
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.vcd = Some(p);
    cfg.bus_latency = 20;
    system::run(&cfg, None).map_err(|e| e.to_string())?;
    fn out(p: &Path) -> crate::tb::TbOutput<'_> {
        crate::tb::TbOutput {
            vcd: Some(p),
            record_ports: false,
            engine: crate::verilator::Engine::Harness,
        }
    }
    let p = dir.join("gp_fifo.vcd");
    tb::run_gp_fifo(WrapForm::Compare, 12, 300, 9, &out(&p))?;
    let p = dir.join("soft_put_allocator.vcd");
    tb::run_allocator(WrapForm::Compare, 7, 200, 3, &out(&p))?;
    let p = dir.join("acquire_check.vcd");
    tb::run_acquire_check(50, 2, &out(&p))?;
    let p = dir.join("semaphore_memory.vcd");
    tb::run_semaphores(100, 6, 4, &out(&p))?;
    Ok(vec![
        "work_queue_system".into(),
        "gp_fifo".into(),
        "soft_put_allocator".into(),
        "acquire_check".into(),
        "semaphore_memory".into(),
    ])
}
