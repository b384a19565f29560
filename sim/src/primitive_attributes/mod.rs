//! Primitive-specific attributes (SPEC section 6): the golden model and trace checker, unit
//! testbenches, the system simulation (vertex shader, fast or traditional geometry shader,
//! the RTL multicast/sequencer, swizzle and vertex cache, a counting raster sink), the
//! `primitive-attributes` scenario runner and the PA-9 experiment.
pub mod golden;
pub mod tb;

use crate::mechanism::Mechanism;
use std::path::Path;

/// The registry entry of the primitive-attribute mechanism.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "primitive-attributes",
        scenarios: Vec::new,
        benches: Vec::new,
        units: tb::export_units,
        waves: write_waves,
    }
}

/// Write the canonical waves of the primitive-attribute units into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    tb::write_unit_waves(dir)
}
