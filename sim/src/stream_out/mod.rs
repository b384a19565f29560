//! Distributed stream output (SPEC section 2, SO-1..SO-14) beyond the RTL of
//! `ppu_hdl::stream_out`:
//!
//! | module | what | SPEC |
//! | --- | --- | --- |
//! | [`golden`] | golden model: offsets (prefix sums in driver order), overflow, final buffers; the SSYNC scoreboard | SO-2..SO-4, SO-6, SO-10..SO-12 |
//! | [`system`] | RTL cluster + behavioural WDU, shaders, frame-buffer memory, checked against [`golden`] | SO-1..SO-13 |
//! | [`scenario`] | `"unit":"stream-out"` scenarios, trace events, built-in seed W/E/D scenario | X-5 |
//! | [`bench`] | `ppu bench stream-out`: bytes/cycle vs SO units, SSYNC cost | SO-14 |
//! | [`tb`] | unit testbenches of SSYNC, SO unit, batch-ID generator, crossbar, one file each | SO-1..SO-13 |
pub mod bench;
pub mod formal;
pub mod golden;
pub mod scenario;
pub mod system;
pub mod tb;

use crate::mechanism::Mechanism;

/// The registry entry of distributed stream output.
pub fn mechanism() -> Mechanism {
    Mechanism {
        name: "stream-out",
        scenarios: || vec![scenario::runner()],
        benches: bench::benches,
        units: tb::export_units,
        waves: write_waves,
        formal: formal::checks,
    }
}

/// Write the canonical waves of the stream-output units into `dir`: each unit's through the
/// one function its tests use too, the system's through the built-in scenario.
pub fn write_waves(dir: &std::path::Path) -> Result<Vec<String>, String> {
    let w = |name: &str| dir.join(format!("{}.vcd", name));
    tb::ssync::canonical_waves(&w("ssync"))?;
    tb::so_unit::canonical_waves(&w("so_unit"))?;
    tb::batch_id_gen::canonical_waves(&w("batch_id_gen"))?;
    tb::so_crossbar::canonical_waves(&w("so_crossbar"))?;
    let opts = crate::scenario::RunOptions {
        vcd: Some(w("stream_out_system")),
        ..Default::default()
    };
    scenario::run_with_events(&scenario::builtin(), &opts).map_err(|e| e.to_string())?;
    Ok(vec![
        "stream_out_system".into(),
        "ssync".into(),
        "so_unit".into(),
        "batch_id_gen".into(),
        "so_crossbar".into(),
    ])
}
