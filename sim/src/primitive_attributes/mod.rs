//! Primitive-specific attributes (SPEC section 6): the golden model and trace checker, unit
//! testbenches, the system simulation (vertex shader, fast or traditional geometry shader,
//! the RTL multicast/sequencer, vertex cache and swizzle, a counting raster sink), the
//! applications of PA-8 as scenario generators, the `primitive-attributes` scenario runner and
//! the PA-9 experiment (`ppu bench primitive-attributes`).
pub mod apps;
pub mod bench;
pub mod formal;
pub mod golden;
pub mod scenario;
pub mod system;
pub mod tb;

use crate::mechanism::Mechanism;
use std::path::Path;

/// The registry entry of the primitive-attribute mechanism.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "primitive-attributes",
        scenarios: scenario::runners,
        benches: bench::benches,
        units: tb::export_units,
        waves: write_waves,
        formal: formal::checks,
    }
}

/// Write the canonical waves of the primitive-attribute units and the system into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    let p = dir.join("pa_system.vcd");
    let mut cfg = scenario::system_config(&scenario::builtin()).map_err(|e| e.to_string())?;
    cfg.vcd = Some(p);
    system::run(&cfg, None).map_err(|e| e.to_string())?;
    let mut names = vec!["pa_system".to_string()];
    names.extend(tb::write_unit_waves(dir)?);
    Ok(names)
}
