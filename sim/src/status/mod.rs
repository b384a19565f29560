//! Unit status reporting (SPEC section 3): golden models, the system simulation of a pipeline of
//! processing units around the status RTL, the `status-fsm` / `status-system` scenario runners
//! and the ST-9 experiment (`ppu bench status`).
pub mod bench;
pub mod formal;
pub mod golden;
pub mod scenario;
pub mod system;
pub mod tb;

use crate::mechanism::Mechanism;
use crate::tb::TbOutput;
use std::path::Path;

/// The registry entry of unit status reporting.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "status",
        scenarios: scenario::runners,
        benches: bench::benches,
        units: tb::export_units,
        waves: write_waves,
        formal: formal::checks,
    }
}

/// Write the canonical waves of the status units into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    fn o(p: &Path) -> TbOutput<'_> {
        TbOutput {
            vcd: Some(p),
            record_ports: false,
            engine: crate::verilator::Engine::Harness,
        }
    }
    let p = dir.join("status_fsm.vcd");
    tb::run_status_fsm(&tb::random_vectors(300, 1), &o(&p))?;
    let p = dir.join("rollup_tree.vcd");
    tb::run_rollup_tree::<8, 4, { tb::REF_STAGES }>(&tb::REF_CHAINS, 300, 1, &o(&p))?;
    let p = dir.join("command_tree.vcd");
    tb::run_command_tree::<8, { tb::REF_STAGES }>(300, 1, &o(&p))?;
    let p = dir.join("front_end_monitor.vcd");
    tb::run_front_end_monitor::<8, 4, { tb::REF_STAGES }>(
        &tb::REF_CHAINS,
        &tb::MonitorTb {
            cycles: 600,
            ..tb::MonitorTb::default()
        },
        &o(&p),
    )?;
    let p = dir.join("status_cluster.vcd");
    tb::run_cluster_switch::<8, 4, { tb::REF_STAGES }>(&tb::REF_CHAINS, &o(&p))?;
    // The whole cluster inside the built-in status-system scenario: real context switches and
    // deadlock removals of a pipeline (SPEC ST-5, ST-7).
    let p = dir.join("status_system.vcd");
    let mut cfg =
        scenario::system_config(&scenario::builtin_system(), 1).map_err(|e| e.to_string())?;
    cfg.vcd = Some(p.clone());
    system::run(&cfg, None).map_err(|e| e.to_string())?;
    // Open the view just before the first commanded switch.
    let first_switch = cfg.commands.first().map(|c| c.0).unwrap_or(0);
    tb::system_save_file(&p, first_switch.saturating_sub(5), cfg.units.len())?;
    Ok(vec![
        "status_system".into(),
        "status_fsm".into(),
        "rollup_tree".into(),
        "command_tree".into(),
        "front_end_monitor".into(),
        "status_cluster".into(),
    ])
}
