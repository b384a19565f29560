//! Work-queue based work creation (SPEC section 4): golden models, unit testbenches, the system
//! simulation of CPU and GPU channels with GPU threads creating nested work, the `work-queue`
//! scenario runner and the WQ-11 experiment (`ppu bench work-queue`).
pub mod golden;
pub mod scenario;
pub mod system;
pub mod tb;

use crate::mechanism::Mechanism;
use std::path::Path;

/// The registry entry of the work queue.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "work-queue",
        scenarios: scenario::runners,
        benches: Vec::new,
        units: tb::export_units,
        waves: write_waves,
    }
}

/// Write the canonical waves of the work-queue units into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    let p = dir.join("wq_cluster.vcd");
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.vcd = Some(p);
    system::run(&cfg, None).map_err(|e| e.to_string())?;
    Ok(vec!["wq_cluster".into()])
}
