//! `ppu bench engines` (SPEC X-3): every mechanism's bench run twice in the same process, once
//! on each engine, in quick form and on one core, with the system cycles per second of each and
//! a check that both runs give the same results.
//!
//! What is measured: the clock cycles every harness stepped during the bench
//! ([`crate::harness::simulated_cycles`]) over its wall time. For the Verilator engine the
//! model set-up (Verilog export, content hash, Verilator build when not cached, loading) is
//! reported apart and left out of its cycles per second; the harness has no such step. Both
//! runs include the Rust system models around the RTL (drivers, golden models, scoreboards),
//! which the engine does not change: the ratio is that of whole system simulations, not of the
//! RTL evaluation alone.
use super::{model, with_engine, Engine};
use crate::bench::{Bench, BenchOptions, BenchReport};
use crate::scenario::RunError;
use std::time::Instant;

/// One bench on one engine.
#[derive(Debug, Clone, Default)]
pub struct EngineRun {
    pub cycles: u64,
    /// Wall seconds, model set-up included.
    pub seconds: f64,
    /// Seconds of model set-up (Verilator engine), and models built.
    pub setup_seconds: f64,
    pub builds: u64,
    /// The bench's result table.
    pub markdown: String,
}

impl EngineRun {
    /// Simulated cycles per second, set-up left out.
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / (self.seconds - self.setup_seconds).max(1e-9)
    }
}

/// Run `b` (quick, results into a scratch folder) on `engine`, one worker thread.
pub fn run_on(b: &Bench, engine: Engine) -> Result<EngineRun, RunError> {
    let out_dir = crate::eda::scratch_dir(&format!("engines-{}-{}", b.name, engine))
        .map_err(|e| RunError::Output(e.to_string()))?;
    let opts = BenchOptions {
        quick: true,
        progress: false,
        out_dir,
        engine,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(crate::bench::SWEEP_STACK_BYTES)
        .build()
        .map_err(|e| RunError::Output(format!("cannot start a thread: {}", e)))?;
    pool.install(|| {
        let (c0, (s0, b0)) = (crate::harness::simulated_cycles(), model::setup_totals());
        let t0 = Instant::now();
        let report = with_engine(engine, || (b.run)(&opts))?;
        let seconds = t0.elapsed().as_secs_f64();
        let (s1, b1) = model::setup_totals();
        Ok(EngineRun {
            cycles: crate::harness::simulated_cycles() - c0,
            seconds,
            setup_seconds: s1 - s0,
            builds: b1 - b0,
            markdown: report.markdown,
        })
    })
}

/// The bench's name.
pub const NAME: &str = "engines";

/// What it does, for `ppu bench --list`.
pub const ABOUT: &str =
    "system cycles/s of every mechanism's bench on the harness and on the Verilator engine (X-3)";

/// Run `benches` (the registry's, but the engine-independent harness bench and this one) on
/// both engines; see the module documentation.
pub fn run(benches: &[Bench], opts: &BenchOptions) -> Result<BenchReport, RunError> {
    Engine::Verilator.available().map_err(RunError::Invalid)?;
    let benches: Vec<&Bench> = benches
        .iter()
        .filter(|b| b.name != "harness" && b.name != NAME)
        .collect();
    let bar = crate::progress::bar(benches.len() as u64 * 2, NAME, opts.progress);
    let mut rows = vec![];
    for b in benches {
        bar.set_message(b.name);
        let h = run_on(b, Engine::Harness)?;
        bar.inc(1);
        let v = run_on(b, Engine::Verilator)?;
        bar.inc(1);
        if h.cycles != v.cycles || h.markdown != v.markdown {
            return Err(RunError::Violation(format!(
                "bench {}: the Verilator engine gave other results than the harness \
                 ({} and {} cycles simulated)",
                b.name, h.cycles, v.cycles
            )));
        }
        rows.push((b.name, h, v));
    }
    bar.finish_and_clear();
    let md = markdown(&rows);
    let mut files = vec![];
    if !opts.quick {
        std::fs::create_dir_all(&opts.out_dir)?;
        let path = opts.out_dir.join("engines.md");
        std::fs::write(&path, &md)?;
        files.push(path);
    }
    Ok(BenchReport {
        markdown: md,
        files,
    })
}

fn markdown(rows: &[(&str, EngineRun, EngineRun)]) -> String {
    let mut md = String::from(
        "# System simulation speed: harness and Verilator engines\n\n\
         Every mechanism's bench in its quick form (`ppu bench <name> --quick`), run twice in \
         the same process on one core: on the rust-hdl harness and on the Verilator engine \
         (`--engine verilator`). Both runs gave the same result tables and simulated the same \
         cycles (checked by the bench). Cycles/s counts every clock cycle stepped over the \
         wall time; the Verilator engine's model set-up (Verilog export, hash, build when not \
         cached, loading) is shown apart and left out. Both include the Rust system models \
         around the RTL.\n\n\
         | bench | cycles | harness s | harness cycles/s | Verilator s | set-up s (built) | Verilator cycles/s | speed-up |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (name, h, v) in rows {
        md += &format!(
            "| {} | {} | {:.2} | {:.0} | {:.2} | {:.2} ({}) | {:.0} | {:.1}x |\n",
            name,
            h.cycles,
            h.seconds,
            h.cycles_per_second(),
            v.seconds - v.setup_seconds,
            v.setup_seconds,
            v.builds,
            v.cycles_per_second(),
            v.cycles_per_second() / h.cycles_per_second()
        );
    }
    md += PROFILE_NOTES;
    md += "\nReproduce: `cargo run --release -- bench engines` (writes docs/results/engines.md).\n";
    md
}

/// What a profile of the Verilator engine showed (measured with `perf`, kept with the table).
const PROFILE_NOTES: &str = "\n## Where the Verilator engine's time goes\n\n\
The 16-SO-unit stream-out system (the scaling setup, 20000 batches, 240213 cycles) on the Verilator \
engine ran at 59 k cycles/s; the harness runs the same system at 1.8 k cycles/s (the stream-out \
bench's speed section). `perf record --call-graph dwarf` over that run: the verilated model's own \
evaluation takes 45% of the simulation loop (input-driven combinational logic 30%: each cycle \
evaluates twice with new inputs, once with the drivers' values and once more with the frame \
buffer's grants as `wr_ready`, then the clock edge 13%); packing and unpacking the ~600 mapped \
signals through the typed accessors about 17%; the Rust system model the rest (the frame buffer \
writing and checking every byte against the golden data, the driver, the MPCs and shaders, the \
SSYNC scoreboard). So the issue's 1 M cycles/s for 16 SO units is out of reach with this model \
structure on this machine: even a free system model would leave about 130 k cycles/s, the cost of \
three evaluations of the 16-unit cluster per cycle.\n";
