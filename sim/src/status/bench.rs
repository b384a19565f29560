//! ST-9 experiment (`ppu bench status`): context switch by halting (this protocol) against
//! draining the pipeline until every unit is EMPTY (prior art), for pipelines of 4..32 units
//! with shallow and deep workloads, plus the halt-latency distribution over random workloads
//! (ST-6). Both protocols run the same RTL (the front-end monitor's `drain_mode`) in the same
//! system simulation; every run also checks ST-8 (no work item lost or duplicated).
use super::system::{self, SwitchRecord, SystemConfig, UnitParams, MAX_CYCLES};
use crate::bench::{Bench, BenchOptions, BenchReport};
use crate::plot::{line_chart, Series};
use crate::scenario::RunError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// A named workload shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Short latencies, few memory accesses, small buffers.
    Shallow,
    /// Long processing latencies, deep buffers, frequent long memory accesses, gathering units.
    Deep,
}

impl Workload {
    pub fn name(self) -> &'static str {
        match self {
            Workload::Shallow => "shallow",
            Workload::Deep => "deep",
        }
    }
}

/// The pipeline of `n` units for a workload: chains of 4 consecutive units roll up into one
/// connection; 3 tree stages up to 8 units, 4 beyond (a larger die).
pub fn pipeline(n: usize, w: Workload, drain: bool, quick: bool, seed: u64) -> SystemConfig {
    let units = (0..n)
        .map(|i| match w {
            Workload::Shallow => UnitParams {
                latency: 2,
                gather: 0,
                out_buffer: 2,
                mem_latency: if i % 4 == 1 { 6 } else { 0 },
            },
            Workload::Deep => UnitParams {
                latency: 16,
                gather: if i % 8 == 3 { 4 } else { 0 },
                out_buffer: 4,
                mem_latency: if i % 8 == 3 {
                    40
                } else if i % 2 == 1 {
                    12
                } else {
                    0
                },
            },
        })
        .collect();
    let groups = (0..n.div_ceil(4))
        .map(|g| {
            (g * 4..(g * 4 + 4).min(n))
                .map(|u| 1u64 << u)
                .fold(0, |a, b| a | b)
        })
        .collect();
    let items = if quick { 60 } else { 150 };
    let period = match w {
        Workload::Shallow => 300,
        Workload::Deep => 900,
    };
    let switches = if quick { 3 } else { 6 };
    SystemConfig {
        units,
        groups,
        tree_stages: if n <= 8 { 3 } else { 4 },
        deadlock_threshold: 300,
        contexts: vec![items; 3],
        commands: (1..=switches).map(|k| (k as u64 * period, k % 3)).collect(),
        drain,
        seed,
        store_cycles_per_word: system::STORE_CYCLES_PER_WORD,
        max_cycles: MAX_CYCLES,
        vcd: None,
        engine: Default::default(),
    }
}

/// A random workload for the halt-latency distribution.
pub fn random_pipeline(seed: u64) -> SystemConfig {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.gen_range(4..=32usize);
    let units = (0..n)
        .map(|_| UnitParams {
            latency: rng.gen_range(1..=24),
            gather: if rng.gen_bool(0.15) {
                rng.gen_range(2..=8)
            } else {
                0
            },
            out_buffer: rng.gen_range(1..=6),
            mem_latency: if rng.gen_bool(0.4) {
                rng.gen_range(1..=150)
            } else {
                0
            },
        })
        .collect();
    let mut groups = vec![];
    let mut u = 0;
    while u < n {
        let len = rng.gen_range(1..=5).min(n - u);
        groups.push((u..u + len).map(|k| 1u64 << k).fold(0, |a, b| a | b));
        u += len;
    }
    let contexts: Vec<u32> = (0..rng.gen_range(2..=4))
        .map(|_| rng.gen_range(20..120))
        .collect();
    let k = contexts.len();
    let commands = (0..rng.gen_range(3..8))
        .map(|_| (rng.gen_range(50..3000u64), rng.gen_range(0..k)))
        .collect::<Vec<_>>();
    let mut commands = commands;
    commands.sort();
    SystemConfig {
        units,
        groups,
        tree_stages: rng.gen_range(3..=4),
        deadlock_threshold: 600,
        contexts,
        commands,
        drain: false,
        seed,
        store_cycles_per_word: system::STORE_CYCLES_PER_WORD,
        max_cycles: MAX_CYCLES,
        vcd: None,
        engine: Default::default(),
    }
}

/// Mean of the commanded switches' cycles.
pub fn mean_switch(recs: &[SwitchRecord]) -> f64 {
    let c: Vec<f64> = recs
        .iter()
        .filter(|r| r.commanded)
        .map(|r| r.switch_cycles as f64)
        .collect();
    if c.is_empty() {
        0.0
    } else {
        c.iter().sum::<f64>() / c.len() as f64
    }
}

/// One row of the comparison.
#[derive(Debug, Clone)]
pub struct Row {
    pub units: usize,
    pub workload: Workload,
    /// Cycles per word of a context store or restore through memory.
    pub cycles_per_word: f64,
    pub halt_switch: f64,
    pub drain_switch: f64,
    /// Cycles until every work item of every context is out.
    pub halt_total: u64,
    pub drain_total: u64,
    pub halt_latency_max: u64,
    pub halt_words: f64,
    pub drain_words: f64,
    /// Watchdog actions (ST-7 deadlock removals) in the halt and the drain run.
    pub halt_watchdog_actions: u64,
    pub drain_watchdog_actions: u64,
}

/// Mean words stored per commanded switch.
fn mean_words(recs: &[SwitchRecord]) -> f64 {
    let cmd: Vec<&SwitchRecord> = recs.iter().filter(|s| s.commanded).collect();
    cmd.iter().map(|s| s.words_stored as f64).sum::<f64>() / cmd.len().max(1) as f64
}

/// One comparison row: both protocols on `n` units of workload `w`, stores at
/// `cycles_per_word`.
pub fn measure(
    n: usize,
    w: Workload,
    quick: bool,
    cycles_per_word: f64,
) -> Result<(Row, Vec<u64>), RunError> {
    let cfg = |drain| SystemConfig {
        store_cycles_per_word: cycles_per_word,
        ..pipeline(n, w, drain, quick, 1)
    };
    let halt = system::run(&cfg(false), None)?;
    let drain = system::run(&cfg(true), None)?;
    let row = Row {
        units: n,
        workload: w,
        cycles_per_word,
        halt_switch: mean_switch(&halt.switches),
        drain_switch: mean_switch(&drain.switches),
        halt_total: halt.cycles,
        drain_total: drain.cycles,
        halt_latency_max: halt.max_halt_latency(),
        halt_words: mean_words(&halt.switches),
        drain_words: mean_words(&drain.switches),
        halt_watchdog_actions: halt.watchdog_actions,
        drain_watchdog_actions: drain.watchdog_actions,
    };
    Ok((row, halt.switches.iter().map(|s| s.halt_latency).collect()))
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let k = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

/// The store costs swept (cycles per word through memory).
pub const COST_SWEEP: [f64; 3] = [0.25, 1.0, 4.0];

/// The store-cost sweep: both protocols at each cost of [`COST_SWEEP`] on `sizes`.
pub fn cost_sweep(sizes: &[usize], quick: bool, show: bool) -> Result<Vec<Row>, RunError> {
    let mut setups = vec![];
    for &n in sizes {
        for w in [Workload::Shallow, Workload::Deep] {
            for cost in COST_SWEEP {
                setups.push((n, w, cost));
            }
        }
    }
    crate::bench::sweep("store cost", &setups, show, |&(n, w, cost)| {
        measure(n, w, quick, cost).map(|m| m.0)
    })
}

/// Measure the comparison rows.
pub fn compare(sizes: &[usize], quick: bool, show: bool) -> Result<(Vec<Row>, Vec<u64>), RunError> {
    let mut setups = vec![];
    for &n in sizes {
        for w in [Workload::Shallow, Workload::Deep] {
            setups.push((n, w));
        }
    }
    let measured = crate::bench::sweep("status", &setups, show, |&(n, w)| {
        measure(n, w, quick, system::STORE_CYCLES_PER_WORD)
    })?;
    let mut rows = vec![];
    let mut latencies = vec![];
    for (row, lat) in measured {
        latencies.extend(lat);
        rows.push(row);
    }
    Ok((rows, latencies))
}

/// `ppu bench status`.
pub fn run(opts: &BenchOptions) -> Result<BenchReport, RunError> {
    let sizes: Vec<usize> = if opts.quick {
        vec![4, 16]
    } else {
        vec![4, 8, 16, 32]
    };
    report(opts, compare(&sizes, opts.quick, opts.progress)?)
}

/// `run`'s part after the halt/drain comparison (`compared`: [`compare`]'s rows and halt
/// latencies, at `run`'s sizes): the cost sweep, the random workloads, the report and its
/// files. For a caller that has the comparison already (the tests).
pub fn report(
    opts: &BenchOptions,
    compared: (Vec<Row>, Vec<u64>),
) -> Result<BenchReport, RunError> {
    let (rows, mut lat) = compared;
    let sweep_sizes: Vec<usize> = if opts.quick { vec![4] } else { vec![8, 32] };
    let sweep = cost_sweep(&sweep_sizes, opts.quick, opts.progress)?;
    let randoms = if opts.quick { 3 } else { 24 };
    let random_max = random_halt_latencies(randoms, opts.progress, &mut lat)?;
    lat.sort();
    let mut md = markdown(opts, &rows, &lat, randoms, random_max);
    sweep_markdown(&mut md, &sweep);
    let files = write_files(opts, &rows, &lat, &mut md)?;
    Ok(BenchReport {
        markdown: md,
        files,
    })
}

/// Run `randoms` random workloads, adding their halt latencies to `lat`; returns the largest.
fn random_halt_latencies(randoms: u64, show: bool, lat: &mut Vec<u64>) -> Result<u64, RunError> {
    let seeds: Vec<u64> = (0..randoms).collect();
    let runs = crate::bench::sweep("halt latency", &seeds, show, |&seed| {
        system::run(&random_pipeline(1000 + seed), None)
    })?;
    let mut random_max = 0;
    for r in runs {
        random_max = random_max.max(r.max_halt_latency());
        lat.extend(r.switches.iter().map(|s| s.halt_latency));
    }
    Ok(random_max)
}

/// The report: the comparison table and the halt-latency distribution (`lat` sorted).
fn markdown(
    opts: &BenchOptions,
    rows: &[Row],
    lat: &[u64],
    randoms: u64,
    random_max: u64,
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# ST-9: context switch by halting vs draining\n");
    let _ = writeln!(
        md,
        "Measured by `cargo run --release -- bench status` (system simulation of SPEC ST-4..ST-8: \
         the status RTL — one StatusFsm per unit, RollupTree, CommandTree, FrontEndMonitor — \
         stepped in the cycle harness around behavioural processing units). Both protocols run \
         the same FrontEndMonitor RTL: `halt` raises halt, waits until the roll-up shows all \
         HALTED, stores, resets, restores, releases; `drain` (prior art, `drain_mode`) stops \
         feeding and waits until the roll-up shows every unit EMPTY, then does the same \
         store/reset/restore. In the drain runs a unit whose input has run dry flushes its \
         partial gather as a draining pipeline does (no watchdog resume needed). Switch cycles: \
         from the monitor taking the switch command to the halt release, mean over the {} \
         commanded switches of each run (3 contexts of {} work items); total cycles: until \
         every work item of every context is out. A store or restore costs {} cycles plus {} \
         cycle(s) per word of all units' state through memory (1 word + 1 per work item a unit \
         holds; swept below). Chains of 4 units roll up into one connection; TREE_STAGES is 3 \
         up to 8 units and 4 beyond.\n\nWhat changed: the drain baseline used to flush a \
         partial gather only through the watchdog (threshold 300), so its deep rows mostly \
         measured the watchdog; it now drains as the prior art does, stores cost time per word \
         through memory (so draining stores less), and total cycles are reported.\n",
        if opts.quick { 3 } else { 6 },
        if opts.quick { 60 } else { 150 },
        system::STORE_BASE,
        system::STORE_CYCLES_PER_WORD
    );
    let _ = writeln!(
        md,
        "Workloads: shallow = latency 2, output buffer 2, every 4th unit a 6-cycle memory access \
         per item; deep = latency 16, output buffer 4, every 2nd unit a 12-cycle memory access, \
         every 8th unit gathers 4 items into one 40-cycle access.\n"
    );
    let _ = writeln!(
        md,
        "| units | workload | halt: switch cycles | drain: switch cycles | drain / halt | halt: total cycles | drain: total cycles | halt: max halt latency | words stored: halt / drain |"
    );
    let _ = writeln!(
        md,
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {:.1} | {:.1} | {:.1}x | {} | {} | {} | {:.0} / {:.0} |",
            r.units,
            r.workload.name(),
            r.halt_switch,
            r.drain_switch,
            r.drain_switch / r.halt_switch.max(1.0),
            r.halt_total,
            r.drain_total,
            r.halt_latency_max,
            r.halt_words,
            r.drain_words
        );
    }
    let _ = writeln!(
        md,
        "\nWatchdog actions (ST-7 deadlock removals) over the rows above: {} in the halt runs, {} \
         in the drain runs (in drain mode a unit whose input has run dry flushes its partial \
         gather by itself, without a watchdog action).",
        rows.iter().map(|r| r.halt_watchdog_actions).sum::<u64>(),
        rows.iter().map(|r| r.drain_watchdog_actions).sum::<u64>()
    );
    let _ = writeln!(
        md,
        "\n## Halt latency (ST-6)\n\nCycles from the halt request to every unit HALTED, over all \
         halt-protocol switches above and {} random workloads (4..32 units, latencies 1..24, \
         memory latency up to 150, gathers, NACKs, random switch times): {} switches.\n",
        randoms,
        lat.len()
    );
    let _ = writeln!(md, "| min | median | p90 | p99 | max | limit |");
    let _ = writeln!(md, "| ---: | ---: | ---: | ---: | ---: | ---: |");
    let _ = writeln!(
        md,
        "| {} | {} | {} | {} | {} | {} |",
        lat.first().copied().unwrap_or(0),
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        lat.last().copied().unwrap_or(0),
        system::HALT_LIMIT
    );
    let _ = writeln!(
        md,
        "\nWorst case seen on the random workloads alone: {} cycles. The halt latency is bounded \
         by TREE_STAGES (the halt command travelling down the tree) plus the one memory access a \
         unit may have to finish (at most {} cycles) plus one cycle; the front end sees it \
         TREE_STAGES cycles later through the roll-up.",
        random_max,
        system::MAX_MEM_LATENCY
    );
    md
}

/// The store-cost sweep's table, appended to `md`.
fn sweep_markdown(md: &mut String, sweep: &[Row]) {
    let _ = writeln!(
        md,
        "\n## Store cost sweep\n\nA store or restore moves every unit's state (1 word + 1 per \
         work item held) through memory at the cost per word below; draining empties the units \
         first, so it stores fewer words but waits for the pipeline to empty. Total cycles: \
         until every work item of every context is out.\n"
    );
    let _ = writeln!(
        md,
        "| units | workload | cycles/word | halt: switch | drain: switch | drain / halt | halt: total | drain: total |"
    );
    let _ = writeln!(
        md,
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for r in sweep {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.1} | {:.1} | {:.1}x | {} | {} |",
            r.units,
            r.workload.name(),
            r.cycles_per_word,
            r.halt_switch,
            r.drain_switch,
            r.drain_switch / r.halt_switch.max(1.0),
            r.halt_total,
            r.drain_total
        );
    }
}

/// Unless a quick run into the default folder: the charts and `status.md` (`md` gets the
/// charts' links); returns the files written.
fn write_files(
    opts: &BenchOptions,
    rows: &[Row],
    lat: &[u64],
    md: &mut String,
) -> Result<Vec<std::path::PathBuf>, RunError> {
    let mut files = vec![];
    if !opts.quick || opts.out_dir != BenchOptions::default().out_dir {
        std::fs::create_dir_all(&opts.out_dir)?;
        let svg = opts.out_dir.join("status.svg");
        let mut series = vec![];
        for w in [Workload::Shallow, Workload::Deep] {
            for (label, drain) in [("halt", false), ("drain", true)] {
                series.push(Series {
                    label: format!("{} ({})", label, w.name()),
                    points: rows
                        .iter()
                        .filter(|r| r.workload == w)
                        .map(|r| {
                            (
                                r.units as f64,
                                if drain { r.drain_switch } else { r.halt_switch },
                            )
                        })
                        .collect(),
                });
            }
        }
        line_chart(
            &svg,
            "ST-9: context-switch cycles, halting vs draining",
            "units in the pipeline",
            "cycles per context switch",
            &series,
        )
        .map_err(RunError::Output)?;
        let cdf = opts.out_dir.join("status_halt_latency.svg");
        let n = lat.len().max(1) as f64;
        line_chart(
            &cdf,
            "ST-6: halt latency distribution (cumulative)",
            "cycles from halt request to all units HALTED",
            "fraction of switches",
            &[Series {
                label: "halt latency".into(),
                points: lat
                    .iter()
                    .enumerate()
                    .map(|(k, &l)| (l as f64, (k + 1) as f64 / n))
                    .collect(),
            }],
        )
        .map_err(RunError::Output)?;
        let _ = writeln!(
            *md,
            "\n![switch cycles](status.svg)\n\n![halt latency](status_halt_latency.svg)"
        );
        let path = opts.out_dir.join("status.md");
        std::fs::write(&path, &*md)?;
        files.extend([path, svg, cdf]);
    }
    Ok(files)
}

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "status",
        about: "context switch by halting vs draining, 4..32 units, halt latency (ST-9)",
        run,
    }]
}
