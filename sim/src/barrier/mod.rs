//! Barrier commands in a cache-tiling pipeline (SPEC section 5): the golden model and trace
//! checker, unit testbenches, the system simulation of `pipes` pipelines around the RTL
//! cluster, the `barrier` scenario runner and the BR-9 experiment (`ppu bench barrier`).
pub mod bench;
pub mod formal;
pub mod golden;
pub mod scenario;
pub mod system;
pub mod tb;

use crate::mechanism::Mechanism;
use std::path::Path;

/// The registry entry of the barrier mechanism.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "barrier",
        scenarios: scenario::runners,
        benches: bench::benches,
        units: tb::export_units,
        waves: write_waves,
        formal: formal::checks,
    }
}

/// Write the canonical waves of the barrier units into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    let p = dir.join("barrier_system.vcd");
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.vcd = Some(p);
    system::run(&cfg, None).map_err(|e| e.to_string())?;
    fn out(p: &Path) -> crate::tb::TbOutput<'_> {
        crate::tb::TbOutput {
            vcd: Some(p),
            record_ports: false,
            engine: crate::verilator::Engine::Harness,
        }
    }
    tb::run_tiling_waves(&out(&dir.join("tiling_unit.vcd")))?;
    tb::run_prop_waves(&out(&dir.join("prop.vcd")))?;
    tb::run_counter_waves(&out(&dir.join("barrier_counter.vcd")))?;
    Ok(vec![
        "barrier_system".into(),
        "tiling_unit".into(),
        "prop".into(),
        "barrier_counter".into(),
    ])
}
