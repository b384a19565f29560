//! WQ-11 experiment (`ppu bench work-queue`): nested work created on the GPU without a round
//! trip to the CPU ([`Mode::GpuCreated`], WQ-5..WQ-7) against the CPU-mediated baseline
//! ([`Mode::CpuMediated`]: a level's kernels end, the CPU is notified over the bus, the CPU
//! writes the next level's entry and GP_PUT). The workload is a chain of K = 1..=8 levels: the
//! top-level thread creates `blocks` blocks, its first block launches a kernel with one child
//! thread that creates `blocks` blocks, and so on to depth K. Both modes run the same scenario
//! with the same timing parameters; the figures are the cycles to execute the K levels and the
//! CPU interactions, for bus latencies of 500..5,000 cycles and for short and long kernels with
//! 1 and 4 blocks per thread.
//!
//! Every GPU-created run's trace is checked by the golden model ([`golden::check_trace`], WQ-8);
//! every point is checked to count 1 CPU interaction GPU-created (the driver's set-up) and
//! 1 + 2K CPU-mediated (the first submission, then per level one notification and one
//! submission). A failed check fails the bench.
use super::golden;
use super::scenario::system_config;
use super::system::{self, nesting_depth, Mode, SystemConfig, SystemResult};
use crate::bench::{sweep, Bench, BenchOptions, BenchReport};
use crate::plot::{line_chart, Series};
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Fixed parameters of every run (both modes).
pub const ENTRIES: u64 = 64;
pub const HOST_CYCLES_PER_COMMAND: u64 = 2;
pub const RETRY_CYCLES: u64 = 20;
pub const WATCHDOG_CYCLES: u64 = 1_000_000;
/// Cycles from a kernel's launch to its thread's start (most workloads).
pub const THREAD_START: u64 = 5;
/// The bus latencies of WQ-11.
pub const BUS_LATENCIES: [u64; 4] = [500, 1000, 2000, 5000];
/// A reference without bus latency: what of the difference is not the bus round trip.
pub const REFERENCE_BUS: u64 = 0;
/// Deepest chain measured.
pub const MAX_K: usize = 8;

/// The shape of a chain's levels: blocks each thread creates, how long each created kernel
/// runs (`block_cycles` of the creating thread), and when a thread starts (creates its blocks)
/// after its kernel's launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Workload {
    pub blocks: u64,
    pub block_cycles: u64,
    pub start: u64,
}

impl Workload {
    pub fn label(&self) -> String {
        format!(
            "{} block{} per thread, kernels of {} cycles, threads start {} cycles after launch",
            self.blocks,
            if self.blocks == 1 { "" } else { "s" },
            self.block_cycles,
            self.start
        )
    }
}

/// The workloads of the second axis: short and long kernels, 1 and 4 blocks per thread, and
/// long kernels whose thread creates the next level only when the kernel's time is over.
pub const WORKLOADS: [Workload; 5] = [
    Workload {
        blocks: 1,
        block_cycles: 100,
        start: THREAD_START,
    },
    Workload {
        blocks: 4,
        block_cycles: 100,
        start: THREAD_START,
    },
    Workload {
        blocks: 1,
        block_cycles: 2000,
        start: THREAD_START,
    },
    Workload {
        blocks: 4,
        block_cycles: 2000,
        start: THREAD_START,
    },
    Workload {
        blocks: 1,
        block_cycles: 2000,
        start: 2000,
    },
];

/// One point of the sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub k: usize,
    pub bus_latency: u64,
    pub workload: Workload,
}

/// The WQ-11 chain of `s.k` levels as a `work-queue` scenario.
pub fn scenario(s: &Setup) -> Value {
    let mut chain: Option<Value> = None;
    for _ in 0..s.k {
        let mut t = json!({"start": s.workload.start, "blocks": s.workload.blocks,
            "block_cycles": s.workload.block_cycles});
        if let Some(child) = chain.take() {
            t["children"] = json!([child]);
        }
        chain = Some(t);
    }
    json!({"unit": "work-queue",
        "config": {"entries": ENTRIES, "bus_latency": s.bus_latency,
            "host_cycles_per_command": HOST_CYCLES_PER_COMMAND, "retry_cycles": RETRY_CYCLES,
            "watchdog_cycles": WATCHDOG_CYCLES},
        "threads": chain.map(|t| vec![t]).unwrap_or_default()})
}

/// Both modes of one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub setup: Setup,
    pub gpu: SystemResult,
    pub cpu: SystemResult,
}

impl Point {
    /// CPU-mediated cycles / GPU-created cycles.
    pub fn speedup(&self) -> f64 {
        self.cpu.cycles as f64 / self.gpu.cycles.max(1) as f64
    }
    /// CPU-mediated cycles - GPU-created cycles.
    pub fn saved(&self) -> i64 {
        self.cpu.cycles as i64 - self.gpu.cycles as i64
    }
}

/// The two configurations of a point: the validated scenario (GPU-created) and the same with
/// the baseline's mode.
pub fn configs(value: &Value) -> Result<(SystemConfig, SystemConfig), RunError> {
    let gpu = system_config(value)?;
    let cpu = SystemConfig {
        mode: Mode::CpuMediated,
        ..gpu.clone()
    };
    Ok((gpu, cpu))
}

/// Measure one point: the GPU-created run with its trace checked by the golden model (WQ-8),
/// then the CPU-mediated run of the same scenario (WQ-11).
pub fn measure(s: &Setup) -> Result<Point, RunError> {
    let value = scenario(s);
    let (gpu_cfg, cpu_cfg) = configs(&value)?;
    let mut trace = TraceWriter::memory();
    let (gpu, _) = system::run(&gpu_cfg, Some(&mut trace))?;
    let events = trace.done(
        gpu.cycles,
        json!({"cycles": gpu.cycles, "cpu_interactions": gpu.cpu_interactions}),
    )?;
    golden::check_trace(&value, &events).map_err(|e| {
        RunError::Violation(format!("WQ-11 point {:?}: WQ-8 golden check: {}", s, e))
    })?;
    let (cpu, _) = system::run(&cpu_cfg, None)?;
    Ok(Point {
        setup: *s,
        gpu,
        cpu,
    })
}

/// WQ-11's CPU-interaction count of a chain: the GPU-created run needs the driver's set-up
/// only; the baseline the first submission plus, per level, one notification and one
/// submission (1 + 2K). Also checks the scenario's nesting depth is K.
pub fn check_point(p: &Point) -> Result<(), RunError> {
    let k = p.setup.k as u64;
    let depth = configs(&scenario(&p.setup))
        .map(|(c, _)| nesting_depth(&c.threads))
        .unwrap_or(0) as u64;
    let fail = |what: String| {
        Err(RunError::Violation(format!(
            "WQ-11 point {:?}: {}",
            p, what
        )))
    };
    if depth != k {
        return fail(format!("the chain nests {} levels, not K = {}", depth, k));
    }
    if p.gpu.cpu_interactions != 1 {
        return fail(format!(
            "GPU-created: {} CPU interactions, expected 1 (the driver's set-up)",
            p.gpu.cpu_interactions
        ));
    }
    if p.cpu.cpu_interactions != 1 + 2 * k {
        return fail(format!(
            "CPU-mediated: {} CPU interactions, expected 1 + 2K = {}",
            p.cpu.cpu_interactions,
            1 + 2 * k
        ));
    }
    Ok(())
}

/// The points of a run: every workload x K x bus latency, [`REFERENCE_BUS`] included (quick:
/// 3 workloads, K 1..=4, bus latencies 0, 500 and 2,000).
pub fn setups(quick: bool) -> Vec<Setup> {
    let (workloads, ks, buses): (Vec<Workload>, usize, Vec<u64>) = if quick {
        (
            vec![WORKLOADS[0], WORKLOADS[3], WORKLOADS[4]],
            4,
            vec![REFERENCE_BUS, 500, 2000],
        )
    } else {
        let mut b = vec![REFERENCE_BUS];
        b.extend(BUS_LATENCIES);
        (WORKLOADS.to_vec(), MAX_K, b)
    };
    let mut out = vec![];
    for &workload in &workloads {
        for k in 1..=ks {
            for &bus_latency in &buses {
                out.push(Setup {
                    k,
                    bus_latency,
                    workload,
                });
            }
        }
    }
    out
}

/// Measure and check `setups`, one progress step per finished point.
pub fn measure_all(setups: &[Setup], show: bool) -> Result<Vec<Point>, RunError> {
    sweep("work-queue", setups, show, |s| {
        let p = measure(s)?;
        check_point(&p)?;
        Ok(p)
    })
}

/// Measured points of a quick run (for tests of the claim's direction).
pub fn quick_points() -> Result<Vec<Point>, RunError> {
    measure_all(&setups(true), false)
}

/// `ppu bench work-queue`.
pub fn run(opts: &BenchOptions) -> Result<BenchReport, RunError> {
    let points = measure_all(&setups(opts.quick), opts.progress)?;
    report(opts, &points)
}

/// The report of measured `points` (`run`'s second half: the tables, the plot, the files in
/// `opts.out_dir`), for a caller that already has them (the tests share one quick run).
pub fn report(opts: &BenchOptions, points: &[Point]) -> Result<BenchReport, RunError> {
    let mut md = markdown(points);
    let files = write_files(opts, points, &mut md)?;
    Ok(BenchReport {
        markdown: md,
        files,
    })
}

/// The distinct values of `f` over `points`, in order of appearance.
fn axis<T: PartialEq + Copy>(points: &[Point], f: impl Fn(&Point) -> T) -> Vec<T> {
    let mut out: Vec<T> = vec![];
    for p in points {
        let v = f(p);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The point of workload `w`, bus latency `b`, depth `k`.
fn at(points: &[Point], w: Workload, b: u64, k: usize) -> Option<&Point> {
    points
        .iter()
        .find(|p| p.setup.workload == w && p.setup.bus_latency == b && p.setup.k == k)
}

/// Cycles each mode adds per level from K = 1 to the deepest K measured: (CPU-mediated,
/// GPU-created, first point, last point).
fn per_level(points: &[Point], w: Workload, b: u64) -> Option<(f64, f64, &Point, &Point)> {
    let max_k = points.iter().map(|p| p.setup.k).max()?;
    let (p1, pk) = (at(points, w, b, 1)?, at(points, w, b, max_k)?);
    let levels = (max_k - 1).max(1) as f64;
    Some((
        (pk.cpu.cycles as f64 - p1.cpu.cycles as f64) / levels,
        (pk.gpu.cycles as f64 - p1.gpu.cycles as f64) / levels,
        p1,
        pk,
    ))
}

/// Thousands separated by commas.
fn num(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The distinct values of `f` over `points`, joined.
fn distinct(points: &[&Point], f: impl Fn(&Point) -> u64) -> String {
    let mut v: Vec<u64> = points.iter().map(|p| f(p)).collect();
    v.sort();
    v.dedup();
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The summary: per workload and bus latency, the cycles each mode adds per level and the
/// speedup at the shallowest and deepest K.
fn summary_table(md: &mut String, points: &[Point]) {
    let max_k = points.iter().map(|p| p.setup.k).max().unwrap_or(1);
    let _ = writeln!(
        md,
        "| blocks per thread | kernel cycles | thread start | bus latency | CPU-mediated: cycles per level | GPU-created: cycles per level | CPU-mediated per level - 2 x bus | speedup K = 1 | speedup K = {} |",
        max_k
    );
    let _ = writeln!(
        md,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for w in axis(points, |p| p.setup.workload) {
        for b in axis(points, |p| p.setup.bus_latency) {
            if let Some((c, g, p1, pk)) = per_level(points, w, b) {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.2}x | {:.2}x |",
                    w.blocks,
                    w.block_cycles,
                    w.start,
                    b,
                    c,
                    g,
                    c - 2.0 * b as f64,
                    p1.speedup(),
                    pk.speedup()
                );
            }
        }
    }
}

/// One table per workload: a row per K, a column per bus latency with both modes' cycles and
/// the speedup, and the CPU interactions of each mode.
fn tables(md: &mut String, points: &[Point]) {
    let buses = axis(points, |p| p.setup.bus_latency);
    for w in axis(points, |p| p.setup.workload) {
        let _ = writeln!(md, "\n### {}\n", w.label());
        let mut head = "| K | CPU interactions: GPU-created / CPU-mediated |".to_string();
        let mut rule = "| ---: | ---: |".to_string();
        for b in &buses {
            let _ = write!(
                head,
                " bus {}: GPU-created / CPU-mediated cycles (speedup) |",
                b
            );
            rule.push_str(" ---: |");
        }
        let _ = writeln!(md, "{}\n{}", head, rule);
        for k in axis(points, |p| p.setup.k) {
            let row: Vec<&Point> = points
                .iter()
                .filter(|p| p.setup.workload == w && p.setup.k == k)
                .collect();
            let _ = write!(
                md,
                "| {} | {} / {} |",
                k,
                distinct(&row, |p| p.gpu.cpu_interactions),
                distinct(&row, |p| p.cpu.cpu_interactions)
            );
            for &b in &buses {
                match at(points, w, b, k) {
                    Some(p) => {
                        let _ = write!(
                            md,
                            " {} / {} ({:.2}x) |",
                            num(p.gpu.cycles),
                            num(p.cpu.cycles),
                            p.speedup()
                        );
                    }
                    None => md.push_str(" |"),
                }
            }
            md.push('\n');
        }
    }
}

/// The result page (without the plot link).
fn markdown(points: &[Point]) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# WQ-11: nested work without a CPU round trip\n\nReproduce: `cargo run --release -- \
         bench work-queue` (writes this file and `work-queue.svg`).\n"
    );
    let _ = writeln!(
        md,
        "System simulation of the work-queue RTL (`WqCluster`: CPU and GPU channels, host \
         interface, soft/shadow GP_PUT allocator, semaphores) with behavioural memory, kernels, \
         GPU threads and a CPU behind a bus. Workload: a chain of K levels of nested work. The \
         top-level thread (of the kernel the CPU channel launches) creates `blocks` blocks; its \
         first block launches a kernel with one child thread that creates `blocks` blocks, and \
         so on to depth K; every other block launches a kernel without threads. Every created \
         kernel runs `block_cycles` cycles (and until its thread has finished); a thread starts \
         `start` cycles after its kernel's launch. Ring of {} entries, {} host cycles per \
         command, allocation retry after {} cycles, in both modes, which run the same scenario \
         in the same bench run. Cycles: from the driver's set-up at cycle 0 to the end of the \
         run (GPU-created: the CPU channel's acquire of Y after the return block, WQ-7; \
         CPU-mediated: the release after the last level's kernels, which finds nothing more to \
         submit). Speedup = CPU-mediated cycles / GPU-created cycles. Bus latency {} is a \
         reference outside WQ-11's range: what of the difference is not the bus. Every \
         GPU-created trace passed the golden check (WQ-8), and every point counted 1 CPU \
         interaction GPU-created and 1 + 2K CPU-mediated (both checked by the bench).\n",
        ENTRIES, HOST_CYCLES_PER_COMMAND, RETRY_CYCLES, REFERENCE_BUS
    );
    let _ = writeln!(
        md,
        "## Cycles added per level\n\nFrom K = 1 to the deepest K, per workload and bus latency.\n"
    );
    summary_table(&mut md, points);
    let _ = writeln!(md, "\n## Every point");
    tables(&mut md, points);
    reading(&mut md, points);
    baseline_section(&mut md);
    md
}

/// Range of `xs` as "a" or "a..b" (rounded).
fn range(xs: &[f64]) -> String {
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if xs.is_empty() {
        "-".into()
    } else if lo.round() == hi.round() {
        format!("{:.0}", lo)
    } else {
        format!("{:.0}..{:.0}", lo, hi)
    }
}

/// Per-level figures over the points whose workload passes `keep` and whose bus latency is
/// at least `min_bus`: (CPU-mediated per level - 2 x bus, GPU-created per level).
fn slopes(
    points: &[Point],
    keep: impl Fn(&Workload) -> bool,
    min_bus: u64,
) -> (Vec<f64>, Vec<f64>) {
    let (mut cpu, mut gpu) = (vec![], vec![]);
    for w in axis(points, |p| p.setup.workload)
        .into_iter()
        .filter(|w| keep(w))
    {
        for b in axis(points, |p| p.setup.bus_latency) {
            if b < min_bus {
                continue;
            }
            if let Some((c, g, _, _)) = per_level(points, w, b) {
                cpu.push(c - 2.0 * b as f64);
                gpu.push(g);
            }
        }
    }
    (cpu, gpu)
}

/// Of the (workload, bus latency >= `min_bus`) pairs: how many have cycles saved and speedup
/// strictly growing with K, and how many there are.
pub fn advantage_grows(points: &[Point], min_bus: u64) -> (usize, usize) {
    let (mut yes, mut all) = (0, 0);
    for w in axis(points, |p| p.setup.workload) {
        for b in axis(points, |p| p.setup.bus_latency) {
            if b < min_bus {
                continue;
            }
            let row: Vec<&Point> = axis(points, |p| p.setup.k)
                .into_iter()
                .filter_map(|k| at(points, w, b, k))
                .collect();
            all += 1;
            if row
                .windows(2)
                .all(|x| x[1].saved() > x[0].saved() && x[1].speedup() > x[0].speedup())
            {
                yes += 1;
            }
        }
    }
    (yes, all)
}

/// What the measured figures say (every figure quoted is computed from `points`).
fn reading(md: &mut String, points: &[Point]) {
    let _ = writeln!(md, "\n## Reading\n");
    let wq: Vec<&Point> = points
        .iter()
        .filter(|p| p.setup.bus_latency >= BUS_LATENCIES[0])
        .collect();
    let faster = wq.iter().filter(|p| p.gpu.cycles < p.cpu.cycles).count();
    let early = |w: &Workload| w.start < w.block_cycles;
    let late = |w: &Workload| w.start >= w.block_cycles;
    let (cpu_rest, gpu_early) = slopes(points, early, BUS_LATENCIES[0]);
    let (cpu_late, gpu_late) = slopes(points, late, BUS_LATENCIES[0]);
    let growing = advantage_grows(points, BUS_LATENCIES[0]);
    let _ = writeln!(
        md,
        "- GPU-created finished first in {} of the {} points with a bus latency of {} or more. \
         Its advantage (cycles saved, and the speedup) grows with K at {} of the {} pairs of \
         workload and bus latency in that range: the baseline pays a bus round trip per level.",
        faster,
        wq.len(),
        BUS_LATENCIES[0],
        growing.0,
        growing.1
    );
    let _ = writeln!(
        md,
        "- Per level the baseline adds 2 x bus latency plus the level's kernel and host time \
         ({} cycles besides the bus over all workloads, bus {} and up). GPU-created adds {} \
         cycles per level when threads start early in their kernel, whatever the kernels' \
         length: the child kernel is launched while its parent still runs, so the levels \
         overlap. When a thread starts only after its kernel's time is over, GPU-created adds \
         {} cycles per level against the baseline's {} besides the bus.",
        range(&[cpu_rest.clone(), cpu_late.clone()].concat()),
        BUS_LATENCIES[0],
        range(&gpu_early),
        range(&gpu_late),
        range(&cpu_late)
    );
    reference_reading(md, points);
}

/// The bus-0 reference, in words.
fn reference_reading(md: &mut String, points: &[Point]) {
    let max_k = points.iter().map(|p| p.setup.k).max().unwrap_or(1);
    let sp = |keep: &dyn Fn(&Workload) -> bool, k: usize| -> Vec<f64> {
        axis(points, |p| p.setup.workload)
            .into_iter()
            .filter(|w| keep(w))
            .filter_map(|w| at(points, w, REFERENCE_BUS, k).map(Point::speedup))
            .collect()
    };
    let fmt = |v: Vec<f64>| {
        v.iter()
            .map(|x| format!("{:.3}x", x))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let k1 = sp(&|_| true, 1);
    if k1.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "- Without bus latency (bus {}), K = 1 gives speedups of {} (workloads in the order \
         of the tables): below 1 means the allocation, the guard entries and the return block \
         cost more than the baseline's direct launch. At K = {} the speedups are {} with \
         threads that start early, which is the overlap of levels, not the bus, and {} with \
         threads that start when their kernel's time is over: there, without a bus, the \
         mechanism gains nothing, and its advantage at WQ-11's latencies is the bus round \
         trips.",
        REFERENCE_BUS,
        fmt(k1),
        max_k,
        fmt(sp(&|w| w.start < w.block_cycles, max_k)),
        fmt(sp(&|w| w.start >= w.block_cycles, max_k))
    );
}

/// What the baseline models and what it leaves out (read from `system::cpu_mediated`,
/// `system::driver_setup` and the model's threads and kernels).
fn baseline_section(md: &mut String) {
    let _ = writeln!(
        md,
        "\n## What the baseline models and what it leaves out\n\n\
         Models: the CPU-mediated baseline runs the same RTL, kernels and threads as the \
         mechanism. The driver writes the CPU channel's first entry, a block [launch kernel 0, \
         WFI, release Y], and its GP_PUT at cycle 0; the GPU sees GP_PUT `bus_latency` cycles \
         later (interaction 1). A thread allocates no ring entries: it records the kernels its \
         blocks would launch (one cycle per block after its start) and has finished. The CPU \
         channel's WFI waits until every kernel it launched has finished; its release of Y is \
         seen by the CPU `bus_latency` cycles later (one interaction per level). In that cycle \
         the CPU writes one CPU-channel entry whose block launches every kernel recorded since \
         its previous submission, followed by [WFI, release Y], and the new GP_PUT, which the \
         GPU sees `bus_latency` cycles later (one more interaction per level). A chain of K \
         levels therefore counts 1 + 2K interactions; the run ends at the release of the \
         level that recorded nothing. In GPU-created mode the one interaction is the driver's \
         set-up of both channels at cycle 0, seen `bus_latency` cycles later (WQ-5); the \
         threads allocate, write entries and release guards themselves (WQ-6, WQ-7).\n\n\
         Leaves out: any CPU-side time (interrupt or polling latency, driver and scheduling \
         work, building the command block: the CPU acts in the cycle it sees the release); a \
         notification per kernel (one WFI waits for all kernels of a level, and all of a \
         level's blocks go into one entry and one GP_PUT write); the time the CPU takes to write \
         the entry and the block (only GP_PUT's visibility is delayed); bus contention (the bus \
         is a fixed delay with any number of transfers in flight); the CPU learning that the \
         last level has finished (in both modes the run ends on the GPU: at the last release, \
         or at the CPU channel's acquire of Y).\n\n\
         Differs besides the bus: the baseline starts a level's kernels only after all of the \
         previous level's kernels have finished (the WFI before the notification), while a \
         GPU-created child kernel is launched as soon as its entry is written and executed, \
         and runs alongside its parent; the GPU-created run still waits for every kernel (the \
         return block's WFI). So with threads that start early in long kernels, part of the \
         difference is this overlap, not the bus: the bus {} rows and the workload whose \
         threads start when their kernel's time is over separate the two. GPU-created threads \
         pay for the allocation (WQ-6), one cycle per entry written and the guard release, and \
         the GPU channel executes one entry per block plus each allocation's guard and the \
         return block.",
        REFERENCE_BUS
    );
}

/// Unless a quick run into the default folder: the plot and `work-queue.md` (`md` gets the
/// plot's link); returns the files written.
fn write_files(
    opts: &BenchOptions,
    points: &[Point],
    md: &mut String,
) -> Result<Vec<PathBuf>, RunError> {
    if opts.quick && opts.out_dir == BenchOptions::default().out_dir {
        return Ok(vec![]);
    }
    std::fs::create_dir_all(&opts.out_dir)?;
    let svg = opts.out_dir.join("work-queue.svg");
    let w = points
        .first()
        .map(|p| p.setup.workload)
        .unwrap_or(WORKLOADS[0]);
    plot(&svg, points, w)?;
    let _ = writeln!(
        *md,
        "\n![WQ-11: cycles against K for bus latencies {:?}, GPU-created and CPU-mediated \
         ({})](work-queue.svg)",
        BUS_LATENCIES,
        w.label()
    );
    let path = opts.out_dir.join("work-queue.md");
    std::fs::write(&path, &*md)?;
    Ok(vec![path, svg])
}

/// Cycles against K for each WQ-11 bus latency, both modes, for workload `w`.
fn plot(svg: &std::path::Path, points: &[Point], w: Workload) -> Result<(), RunError> {
    let buses: Vec<u64> = axis(points, |p| p.setup.bus_latency)
        .into_iter()
        .filter(|b| *b >= BUS_LATENCIES[0])
        .collect();
    let mut series = vec![];
    for (label, gpu) in [("CPU-mediated", false), ("GPU-created", true)] {
        for &b in &buses {
            series.push(Series {
                label: format!("{}, bus {}", label, b),
                points: points
                    .iter()
                    .filter(|p| p.setup.workload == w && p.setup.bus_latency == b)
                    .map(|p| {
                        let r = if gpu { &p.gpu } else { &p.cpu };
                        (p.setup.k as f64, r.cycles as f64)
                    })
                    .collect(),
            });
        }
    }
    line_chart(
        svg,
        &format!(
            "WQ-11: {} block(s) per thread, kernels of {} cycles",
            w.blocks, w.block_cycles
        ),
        "K (levels of nested work)",
        "cycles",
        &series,
    )
    .map_err(RunError::Output)
}

/// The work-queue experiments.
pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "work-queue",
        about: "WQ-11: cycles for K = 1..8 levels of nested work, GPU-created vs CPU-mediated, bus latency 500..5000; CPU interactions",
        run,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WQ-11: every scenario of the full sweep is valid, nests K levels, and both modes get
    /// the same parameters.
    #[test]
    fn wq11_every_chain_is_a_valid_scenario_of_k_levels() {
        for s in setups(false) {
            let (gpu, cpu) = configs(&scenario(&s)).unwrap();
            assert_eq!(nesting_depth(&gpu.threads), s.k, "{:?}", s);
            assert_eq!(system::flatten(&gpu.threads).0.len(), s.k, "{:?}", s);
            assert_eq!((gpu.mode, cpu.mode), (Mode::GpuCreated, Mode::CpuMediated));
            assert_eq!(gpu.threads, cpu.threads);
            assert_eq!(
                (
                    gpu.entries,
                    gpu.bus_latency,
                    gpu.host_cycles_per_command,
                    gpu.retry_cycles
                ),
                (
                    cpu.entries,
                    cpu.bus_latency,
                    cpu.host_cycles_per_command,
                    cpu.retry_cycles
                )
            );
            assert!(gpu.entries >= 64 && gpu.bus_latency == s.bus_latency);
        }
        let wq: Vec<u64> = setups(false).iter().map(|s| s.bus_latency).collect();
        assert!(BUS_LATENCIES.iter().all(|b| wq.contains(b)));
    }

    /// WQ-11: a run that breaks the interaction count fails the bench.
    #[test]
    fn wq11_check_point_rejects_a_wrong_interaction_count() {
        let s = Setup {
            k: 2,
            bus_latency: 500,
            workload: WORKLOADS[0],
        };
        let r = |i| SystemResult {
            cycles: 10,
            cpu_interactions: i,
            ..SystemResult::default()
        };
        let p = |g, c| Point {
            setup: s,
            gpu: r(g),
            cpu: r(c),
        };
        assert!(check_point(&p(1, 5)).is_ok());
        assert!(check_point(&p(1, 4)).is_err());
        assert!(check_point(&p(2, 5)).is_err());
    }
}
