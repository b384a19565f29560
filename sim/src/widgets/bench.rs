//! `ppu bench harness` (SPEC X-3): cycles per second of [`crate::harness::Harness`] against
//! rust-hdl's own `Simulation` (testbench thread + clock) and against the same exported Verilog
//! under Verilator -O3 ([`super::verilator_bench`]), on the reference FIFO with the same
//! stimulus, measured in one run. All runs must move the same number of words over the same
//! cycles, or the comparison is void and the benchmark fails. Without Verilator the Verilator
//! row says so (an error under `PPU_REQUIRE_EDA=1`).
use super::stream_fifo::RefFifo;
use super::verilator_bench;
use crate::bench::{Bench, BenchOptions, BenchReport};
use crate::eda;
use crate::harness::Harness;
use crate::scenario::RunError;
use rust_hdl::prelude::*;
use std::time::Instant;

/// Stimulus of cycle `i`: (wr_valid, rd_ready, data), from a fixed LFSR-like hash.
fn stimulus(i: u64) -> (bool, bool, u64) {
    let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17);
    (h & 3 != 0, h & 12 != 0, (h >> 16) & 0xffff)
}

/// Run `n` cycles in the harness; returns (words read, seconds).
pub fn harness_run(n: u64) -> Result<(u64, f64), RunError> {
    let mut h = Harness::new(RefFifo::default(), |u, c| u.clock.next = c.into());
    let t0 = Instant::now();
    let mut words = 0;
    for i in 0..n {
        let (v, r, d) = stimulus(i);
        h.uut.reset.next = i == 0;
        h.uut.wr_valid.next = v;
        h.uut.wr_data.next = bits::<16>(d);
        h.uut.rd_ready.next = r;
        h.settle().map_err(|e| RunError::Violation(e.to_string()))?;
        if i > 0 && h.uut.rd_valid.val() && r {
            words += 1;
        }
        h.step().map_err(|e| RunError::Violation(e.to_string()))?;
    }
    Ok((words, t0.elapsed().as_secs_f64()))
}

/// Run `n` cycles under rust-hdl's `Simulation`; returns (words read, seconds).
pub fn simulation_run(n: u64) -> Result<(u64, f64), RunError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    let words = Arc::new(AtomicU64::new(0));
    let counter = words.clone();
    let mut sim = Simulation::<RefFifo>::new();
    sim.add_clock(5, |x: &mut Box<RefFifo>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<RefFifo>| {
        let mut x = sim.init()?;
        for i in 0..n {
            let (v, r, d) = stimulus(i);
            x.reset.next = i == 0;
            x.wr_valid.next = v;
            x.wr_data.next = bits::<16>(d);
            x.rd_ready.next = r;
            x = sim.wait(1, x)?;
            if i > 0 && x.rd_valid.val() && r {
                counter.fetch_add(1, Ordering::Relaxed);
            }
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let t0 = Instant::now();
    sim.run(Box::new(RefFifo::default()), n * 20 + 100)
        .map_err(|e| RunError::Violation(format!("rust-hdl Simulation failed: {:?}", e)))?;
    Ok((words.load(Ordering::Relaxed), t0.elapsed().as_secs_f64()))
}

/// The benchmark: both engines on the same stimulus, figures and speed-up written to
/// `docs/results/harness.md`.
pub fn run(opts: &BenchOptions) -> Result<BenchReport, RunError> {
    let sim_cycles: u64 = if opts.quick { 2_000 } else { 20_000 };
    let harness_cycles: u64 = if opts.quick { 20_000 } else { 1_000_000 };
    // Same-stimulus check: both engines must count the same words over the common prefix.
    let (w_h, _) = harness_run(sim_cycles)?;
    let (w_s, t_s) = simulation_run(sim_cycles)?;
    if w_h != w_s {
        return Err(RunError::Violation(format!(
            "harness moved {} words, Simulation {} over the same {} cycles",
            w_h, w_s, sim_cycles
        )));
    }
    let (w_hl, t_h) = harness_run(harness_cycles)?;
    let rate_h = harness_cycles as f64 / t_h;
    let rate_s = sim_cycles as f64 / t_s;
    let verilator = verilator_row(harness_cycles, w_hl)?;
    let mut md = String::new();
    md.push_str("# Cycle harness against rust-hdl `Simulation` and Verilator (SPEC X-3)\n\n");
    md.push_str("Reference FIFO (`stream_fifo`, 16-bit words, depth 6), the same random valid/ready stimulus, one run of `cargo run --release -- bench harness`");
    md.push_str(&format!(
        " ({} build).\nThe harness and `Simulation` moved {} words over the first {} cycles; the harness and \
         Verilator {} words over {} cycles (both checked).\n\n",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        w_h,
        sim_cycles,
        w_hl,
        harness_cycles
    ));
    md.push_str("| engine | cycles | seconds | cycles/s | vs `Simulation` | vs Verilator |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    let vs_verilator = |rate: f64| match &verilator {
        Ok((_, rate_v)) if rate < *rate_v => format!("1/{:.0}", rate_v / rate),
        Ok((_, rate_v)) => format!("{:.1}x", rate / rate_v),
        Err(_) => "-".to_string(),
    };
    md.push_str(&format!(
        "| rust-hdl `Simulation` (testbench thread) | {} | {:.3} | {:.0} | 1x | {} |\n",
        sim_cycles,
        t_s,
        rate_s,
        vs_verilator(rate_s)
    ));
    md.push_str(&format!(
        "| ppu-sim `Harness` (direct stepping) | {} | {:.3} | {:.0} | {:.0}x | {} |\n",
        harness_cycles,
        t_h,
        rate_h,
        rate_h / rate_s,
        vs_verilator(rate_h)
    ));
    match &verilator {
        Ok((t_v, rate_v)) => md.push_str(&format!(
            "| Verilator -O3 (exported Verilog, C++ driver) | {} | {:.3} | {:.0} | {:.0}x | 1x |\n",
            harness_cycles,
            t_v,
            rate_v,
            rate_v / rate_s
        )),
        Err(why) => md.push_str(&format!("| Verilator -O3 | - | - | - | - | {} |\n", why)),
    }
    md.push_str(PROFILE_NOTES);
    let mut files = vec![];
    if !opts.quick {
        std::fs::create_dir_all(&opts.out_dir)?;
        let path = opts.out_dir.join("harness.md");
        std::fs::write(&path, &md)?;
        files.push(path);
    }
    Ok(BenchReport {
        markdown: md,
        files,
    })
}

/// What a profile of the harness on a system simulation showed, and what each change gained
/// (measured once with the commands named; not re-measured by this bench).
const PROFILE_NOTES: &str = "
## Where the harness spends its time (stream-out system)

Profile: `RAYON_NUM_THREADS=1 perf record -g target/release/ppu bench stream-out --quick` (2-core machine).

- rust-hdl keeps a `Bits<N>` wider than 32 bits as a big integer (`SHORT_BITS` = 32 in rust-hdl-core
  0.46): every operation on it allocates. The batch-ID generator's 64-slot one-hot register was ANDed
  with a 64-bit constant for each slot on every settle pass: `BatchIdGen::update` took 29% of the
  samples, its `update_all` / `has_changed` 7%, big-integer shifts, subtractions and ANDs 20%.
- Change: each slot tests its bit with `get_bit(i)` (the same hardware: `next_slot_onehot[i]` in the
  Verilog instead of an AND with a constant and an OR-reduce). `ppu bench stream-out --quick` on one
  thread: 5.64 s -> 4.30 s, the same results.
- Left: the same register's 64-bit rotation (big-integer shifts and masks, about 20% of the samples
  now); every block's `update` runs again on every settle pass (`has_changed` / `update_all`, about
  10%). A narrower one-hot (two 32-bit halves) and settling only blocks whose inputs changed are the
  next steps.
- Change: the falling clock edge is no longer settled on its own. No register reacts to it, so the
  low clock settles together with the next cycle's inputs: per cycle one settle (at least two
  `update_all` passes over the whole design: the clock's change, then the pass that finds nothing
  else changed) fewer. This bench's harness row (1 M cycles, release build): 1.88 M -> 2.58 M
  cycles/s, from 1/11 to 1/8 of Verilator; the 16-SO-unit stream-out system (the speed section of
  `ppu bench stream-out`): 1.71 k -> 2.18 k cycles/s; every trace, co-simulation and engine
  comparison unchanged (`cargo test`).
";

/// Verilator's run of `cycles` cycles: (seconds, cycles/s), after checking it moved `words`
/// words like the harness; `Err(reason)` in the table when Verilator is not installed.
fn verilator_row(cycles: u64, words: u64) -> Result<Result<(f64, f64), String>, RunError> {
    let tool = match eda::tool("verilator", "the harness benchmark's Verilator row") {
        Ok(eda::ToolCheck::Use(p)) => p,
        Ok(eda::ToolCheck::Skip(why)) => return Ok(Err(why)),
        Err(e) => return Err(RunError::Violation(e)),
    };
    let program = verilator_bench::build(&tool).map_err(RunError::Violation)?;
    let (w_v, t_v) = verilator_bench::run(&program, cycles)?;
    if w_v != words {
        return Err(RunError::Violation(format!(
            "harness moved {} words, Verilator {} over the same {} cycles",
            words, w_v, cycles
        )));
    }
    Ok(Ok((t_v, cycles as f64 / t_v)))
}

/// The foundation's benchmark: the harness on the FIFO (the two engines on every mechanism's
/// bench are `ppu bench engines`, listed by the registry).
pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "harness",
        about: "cycles/second of the cycle harness against rust-hdl's Simulation and Verilator on the FIFO (X-3)",
        run,
    }]
}
