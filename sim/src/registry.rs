//! The one list of mechanisms (SPEC X-1): the only file that names every mechanism. Adding a
//! mechanism is one line in [`mechanisms`]; everything else (`ppu run`, `ppu bench`,
//! `ppu export`, `ppu synth`, `ppu waves`, lint, co-simulation, the synthesis report) is
//! derived from it.
use crate::bench::Bench;
use crate::eda::export::Unit;
use crate::mechanism::Mechanism;
use crate::scenario::{self, RunError, RunOptions, RunSummary, ScenarioRunner};
use serde_json::Value;
use std::path::Path;

/// Every mechanism of this build, in SPEC order (the foundation first).
pub fn mechanisms() -> Vec<Mechanism> {
    vec![
        crate::widgets::mechanism(),
        crate::stream_out::mechanism(),
        crate::status::mechanism(),
        crate::work_queue::mechanism(),
        crate::barrier::mechanism(),
        crate::primitive_attributes::mechanism(),
    ]
}

/// Every scenario runner (`ppu run`), in SPEC order.
pub fn scenario_runners() -> Vec<ScenarioRunner> {
    mechanisms().iter().flat_map(|m| (m.scenarios)()).collect()
}

/// Every benchmark (`ppu bench`): the mechanisms', then `engines`, which runs them all on
/// both engines ([`crate::verilator::bench`]).
pub fn benches() -> Vec<Bench> {
    let mut v: Vec<Bench> = mechanisms().iter().flat_map(|m| (m.benches)()).collect();
    v.push(Bench {
        name: crate::verilator::bench::NAME,
        about: crate::verilator::bench::ABOUT,
        run: engines,
    });
    v
}

fn engines(opts: &crate::bench::BenchOptions) -> Result<crate::bench::BenchReport, RunError> {
    let all: Vec<Bench> = mechanisms().iter().flat_map(|m| (m.benches)()).collect();
    crate::verilator::bench::run(&all, opts)
}

/// Every exported unit, in the order of the SPEC sections.
pub fn units() -> Vec<Unit> {
    mechanisms().iter().flat_map(|m| (m.units)()).collect()
}

/// Every formal check of every mechanism (`ppu formal`).
pub fn formal_checks() -> Vec<crate::eda::formal::FormalCheck> {
    mechanisms().iter().flat_map(|m| (m.formal)()).collect()
}

/// Look an exported unit up by name.
pub fn unit(name: &str) -> Option<Unit> {
    units().into_iter().find(|u| u.name == name)
}

/// Write every mechanism's canonical waves into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
    let mut names = vec![];
    for m in mechanisms() {
        names.extend((m.waves)(dir)?);
    }
    Ok(names)
}

/// Run a parsed scenario with the runner its `unit` names.
pub fn run_value(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    let unit = scenario::unit_of(value)?;
    scenario::reject_nulls(value, "")?;
    // (Each runner validates, then checks its outputs: `RunOptions::check_outputs`.)
    let runner = scenario_runners()
        .into_iter()
        .find(|m| m.unit == unit)
        .ok_or_else(|| {
            RunError::invalid(
                "unit",
                format!("`{}` is not implemented in this build yet", unit),
            )
        })?;
    (runner.run)(value, opts)
}

/// Read and run a scenario file.
pub fn run_file(path: &Path, opts: &RunOptions) -> Result<RunSummary, RunError> {
    run_value(&scenario::read(path)?, opts)
}
