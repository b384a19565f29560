//! What a mechanism contributes to the project, in one value: its scenario runners, benches,
//! exported units and canonical waves. Each mechanism folder (`widgets/`, `stream_out/`,
//! `status/`, ...) builds one [`Mechanism`] in its `mod.rs`; `registry.rs` lists them.
use crate::bench::Bench;
use crate::eda::export::Unit;
use crate::eda::formal::FormalCheck;
use crate::scenario::ScenarioRunner;
use std::path::Path;

/// A producer of canonical waves: writes `<name>.vcd` and `<name>.gtkw` into the folder,
/// returns the names written.
pub type WaveWriter = fn(&Path) -> Result<Vec<String>, String>;

/// One mechanism's entry in the registry.
pub struct Mechanism {
    /// Short name (`foundation`, `stream-out`, `status`, ...), as in the synthesis report.
    pub name: &'static str,
    /// Its scenario runners (`ppu run`), one per SPEC X-5 `unit` it implements.
    pub scenarios: fn() -> Vec<ScenarioRunner>,
    /// Its benchmarks and experiments (`ppu bench`).
    pub benches: fn() -> Vec<Bench>,
    /// Its exported top units (`ppu export`, lint, co-simulation, `ppu synth`).
    pub units: fn() -> Vec<Unit>,
    /// Its canonical waves (`ppu waves`).
    pub waves: WaveWriter,
    /// The formal proofs of its units' invariants (`ppu formal`).
    pub formal: fn() -> Vec<FormalCheck>,
}
