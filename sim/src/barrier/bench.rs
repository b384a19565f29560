//! BR-9 experiment (`ppu bench barrier`): a frame of dependent passes under (a) a full drain
//! before each dependent pass (prior art, [`Mode::Drain`]), (b) a non-tiled barrier and (c) a
//! tiled barrier between the passes, for 2, 4 and 8 pipelines; total cycles, upstream stall
//! cycles and flush counts.
//!
//! The workload is a frame of [`PASSES`] passes of primitives generated from a seed, each pass
//! depending on the one before (a barrier between consecutive passes), on a 512 x 256 screen
//! with raster tiles of 16 pixels (8 x 4 = 32 cache tiles). Two workloads: small primitives,
//! each inside one cache tile, and large ones reaching several cache tiles. Swept besides the
//! pipelines: the bin capacity (flush counts depend on it) and the ROP latency (the drain's
//! cost depends on the pipeline's depth).
//!
//! The tiled and non-tiled points run as `barrier` scenarios whose barriers say `"tiled": true`
//! or `false`, with their traces checked by the golden model ([`run_checked`]); the drain runs
//! the non-tiled scenario in [`Mode::Drain`]. Every run must retire every routed (pipeline,
//! primitive, cache tile) entry from ROP and release every barrier; a failed check fails the
//! bench.
use super::scenario::{run_checked, system_config};
use super::system::{self, Mode, SystemConfig, SystemResult};
use crate::bench::{sweep, Bench, BenchOptions, BenchReport};
use crate::plot::{line_chart, Series};
use crate::scenario::RunError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Screen in pixels and raster tile side: 8 x 4 cache tiles of 64 x 64 pixels.
pub const SCREEN: [i64; 2] = [512, 256];
pub const RASTER_TILE: i64 = 16;
/// Passes of the frame; a barrier between consecutive passes.
pub const PASSES: usize = 4;
/// Seed of the workload generator.
pub const SEED: u64 = 9;
/// The pipeline counts of BR-9.
pub const PIPES: [usize; 3] = [2, 4, 8];
/// Bin capacities swept (entries a tiling unit bins before a threshold flush).
pub const BIN_CAPACITIES: [u64; 3] = [16, 64, 256];
/// ROP latencies swept: the SPEC example's 8, and a deep ROP.
pub const ROP_LATENCIES: [u64; 2] = [8, 50];
/// The SPEC example's other latencies.
pub const WORLD: u64 = 10;
pub const SETUP: u64 = 4;
pub const RASTER: u64 = 6;
pub const PIXEL_SHADER: u64 = 20;
pub const PROP: u64 = 2;

/// A generated workload: `prims` primitives per pass with sides of `min..=max` pixels, either
/// each inside one cache tile (`one_tile`) or anywhere on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Workload {
    pub name: &'static str,
    pub prims: usize,
    pub min: i64,
    pub max: i64,
    pub one_tile: bool,
}

/// Small primitives (one cache tile each) and large ones (several cache tiles each).
pub const WORKLOADS: [Workload; 2] = [
    Workload {
        name: "small",
        prims: 96,
        min: 4,
        max: 24,
        one_tile: true,
    },
    Workload {
        name: "large",
        prims: 24,
        min: 48,
        max: 128,
        one_tile: false,
    },
];

impl Workload {
    pub fn label(&self) -> String {
        format!(
            "{}: {} primitives per pass, sides {}..{} pixels, {}",
            self.name,
            self.prims,
            self.min,
            self.max,
            if self.one_tile {
                "each inside one cache tile"
            } else {
                "anywhere on the screen"
            }
        )
    }

    /// The same workload with `prims` primitives per pass.
    pub fn with_prims(self, prims: usize) -> Workload {
        Workload { prims, ..self }
    }

    /// The primitives' bounding boxes, pass by pass (deterministic from [`SEED`]).
    pub fn passes(&self) -> Vec<Vec<[i64; 4]>> {
        let mut rng = ChaCha8Rng::seed_from_u64(SEED);
        let cache = 4 * RASTER_TILE;
        (0..PASSES)
            .map(|_| {
                (0..self.prims)
                    .map(|_| {
                        let w = rng.gen_range(self.min..=self.max);
                        let h = rng.gen_range(self.min..=self.max);
                        let (x, y) = if self.one_tile {
                            let cx = rng.gen_range(0..SCREEN[0] / cache) * cache;
                            let cy = rng.gen_range(0..SCREEN[1] / cache) * cache;
                            (
                                cx + rng.gen_range(0..=cache - w),
                                cy + rng.gen_range(0..=cache - h),
                            )
                        } else {
                            (
                                rng.gen_range(0..=SCREEN[0] - w),
                                rng.gen_range(0..=SCREEN[1] - h),
                            )
                        };
                        [x, y, x + w - 1, y + h - 1]
                    })
                    .collect()
            })
            .collect()
    }
}

/// One point of the sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub workload: Workload,
    pub pipes: usize,
    pub bin_capacity: u64,
    pub rop: u64,
}

/// The frame of `s` as a `barrier` scenario whose barriers are all tiled or all non-tiled.
pub fn scenario(s: &Setup, tiled: bool) -> Value {
    let mut commands = vec![];
    let mut id = 0u64;
    for (i, pass) in s.workload.passes().iter().enumerate() {
        if i > 0 {
            commands.push(json!({"kind": "barrier", "tiled": tiled}));
        }
        let prims: Vec<Value> = pass
            .iter()
            .map(|b| {
                id += 1;
                json!({"id": id - 1, "bbox": b})
            })
            .collect();
        commands.push(json!({"kind": "draw", "prims": prims}));
    }
    json!({"unit": "barrier",
        "config": {"pipes": s.pipes, "screen": SCREEN, "raster_tile": RASTER_TILE,
            "bin_capacity": s.bin_capacity,
            "latency": {"world": WORLD, "setup": SETUP, "raster": RASTER,
                "pixel_shader": PIXEL_SHADER, "prop": PROP, "rop": s.rop}},
        "commands": commands})
}

/// (pipeline, primitive, cache tile) entries the crossbar routes for `cfg` (BR-2).
pub fn routed(cfg: &SystemConfig) -> u64 {
    cfg.commands
        .iter()
        .map(|c| match c {
            system::Command::Draw(prims) => prims
                .iter()
                .map(|p| {
                    cfg.route(p.bbox)
                        .iter()
                        .map(|t| t.len() as u64)
                        .sum::<u64>()
                })
                .sum(),
            system::Command::Barrier { .. } => 0,
        })
        .sum()
}

/// The three modes of one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub setup: Setup,
    /// Routed entries (what each run's `rop_done` must reach).
    pub routed: u64,
    pub cache_tiles: u64,
    pub drain: SystemResult,
    pub nontiled: SystemResult,
    pub tiled: SystemResult,
}

impl Point {
    /// Drain cycles / `r`'s cycles.
    pub fn speedup(&self, r: &SystemResult) -> f64 {
        self.drain.cycles as f64 / r.cycles.max(1) as f64
    }
    /// The three runs with their names.
    pub fn modes(&self) -> [(&'static str, &SystemResult); 3] {
        [
            ("drain", &self.drain),
            ("non-tiled", &self.nontiled),
            ("tiled", &self.tiled),
        ]
    }
}

/// Measure one point: the tiled and non-tiled scenarios with the golden check of their
/// traces, then the drain (the non-tiled scenario in [`Mode::Drain`]).
pub fn measure(s: &Setup) -> Result<Point, RunError> {
    let fail = |mode: &str, e: RunError| {
        RunError::Violation(format!("BR-9 point {:?}, {}: {}", s, mode, e))
    };
    let tiled_sc = scenario(s, true);
    let tiled_cfg = system_config(&tiled_sc)?;
    let (tiled, _) = run_checked(&tiled_sc, &tiled_cfg, None).map_err(|e| fail("tiled", e))?;
    let nontiled_sc = scenario(s, false);
    let nontiled_cfg = system_config(&nontiled_sc)?;
    let (nontiled, _) =
        run_checked(&nontiled_sc, &nontiled_cfg, None).map_err(|e| fail("non-tiled", e))?;
    let drain_cfg = SystemConfig {
        mode: Mode::Drain,
        ..nontiled_cfg.clone()
    };
    let (drain, _) = system::run(&drain_cfg, None).map_err(|e| fail("drain", e))?;
    Ok(Point {
        setup: *s,
        routed: routed(&nontiled_cfg),
        cache_tiles: nontiled_cfg.cache_tiles() as u64,
        drain,
        nontiled,
        tiled,
    })
}

/// Every run retired every routed entry from ROP and released every barrier: one release
/// per non-tiled barrier (also the drain's), one per cache tile per tiled barrier.
pub fn check_point(p: &Point) -> Result<(), RunError> {
    let barriers = (PASSES - 1) as u64;
    for (name, r) in p.modes() {
        let releases = if name == "tiled" {
            barriers * p.cache_tiles
        } else {
            barriers
        };
        if r.rop_done != p.routed || r.releases != releases {
            return Err(RunError::Violation(format!(
                "BR-9 point {:?}, {}: rop_done {} (routed {}), releases {} (expected {})",
                p.setup, name, r.rop_done, p.routed, r.releases, releases
            )));
        }
    }
    Ok(())
}

/// The points of a run: workload x bin capacity x ROP latency x pipelines (quick: fewer
/// primitives per pass, bin capacity 32 and the SPEC's ROP latency only).
pub fn setups(quick: bool) -> Vec<Setup> {
    let (workloads, bins, rops): (Vec<Workload>, Vec<u64>, Vec<u64>) = if quick {
        (
            WORKLOADS
                .iter()
                .map(|w| w.with_prims(w.prims / 2))
                .collect(),
            vec![BIN_CAPACITIES[1]],
            vec![ROP_LATENCIES[0]],
        )
    } else {
        (
            WORKLOADS.to_vec(),
            BIN_CAPACITIES.to_vec(),
            ROP_LATENCIES.to_vec(),
        )
    };
    let mut out = vec![];
    for &workload in &workloads {
        for &bin_capacity in &bins {
            for &rop in &rops {
                for &pipes in &PIPES {
                    out.push(Setup {
                        workload,
                        pipes,
                        bin_capacity,
                        rop,
                    });
                }
            }
        }
    }
    out
}

/// Measure and check `setups`, one progress step per finished point.
pub fn measure_all(setups: &[Setup], show: bool) -> Result<Vec<Point>, RunError> {
    sweep("barrier", setups, show, |s| {
        let p = measure(s)?;
        check_point(&p)?;
        Ok(p)
    })
}

/// Measured points of a quick run (for tests of the claim's direction).
pub fn quick_points() -> Result<Vec<Point>, RunError> {
    measure_all(&setups(true), false)
}

/// `ppu bench barrier`.
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

/// The main table: a row per point, each mode's cycles, upstream stall cycles and flushes,
/// and the speedups against the drain.
fn main_table(md: &mut String, points: &[Point]) {
    let _ = writeln!(
        md,
        "| workload | bin capacity | ROP latency | pipes | entries | cycles: drain / non-tiled / tiled | upstream stall cycles: drain / non-tiled / tiled | flushes: drain / non-tiled / tiled | speedup vs drain: non-tiled | speedup vs drain: tiled |"
    );
    let _ = writeln!(
        md,
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for p in points {
        let s = &p.setup;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} / {} / {} | {} / {} / {} | {} / {} / {} | {:.2}x | {:.2}x |",
            s.workload.name,
            s.bin_capacity,
            s.rop,
            s.pipes,
            p.routed,
            p.drain.cycles,
            p.nontiled.cycles,
            p.tiled.cycles,
            p.drain.upstream_stall_cycles,
            p.nontiled.upstream_stall_cycles,
            p.tiled.upstream_stall_cycles,
            p.drain.flushes,
            p.nontiled.flushes,
            p.tiled.flushes,
            p.speedup(&p.nontiled),
            p.speedup(&p.tiled)
        );
    }
}

/// The result page (without the plot link).
fn markdown(points: &[Point]) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# BR-9: barriers between dependent passes against a full drain\n\nReproduce: \
         `cargo run --release -- bench barrier` (writes this file and `barrier.svg`).\n"
    );
    let _ = writeln!(
        md,
        "System simulation of the barrier RTL (`BarrierCluster`: `pipes` tiling units, PROPs and \
         the back end's barrier counter) with behavioural stages: the front end issues up to \
         one primitive per pipeline per cycle into the world-space pipelines (latency {world}), \
         the crossbar sends each primitive to the pipelines owning the raster tiles its \
         bounding box reaches (BR-2) through a buffer per pipeline (L2, no size limit), one \
         (primitive, cache tile) entry per cycle into each tiling unit; setup + raster + pixel shader ({setup} + {raster} + {ps} cycles) carry the \
         batches to PROP, and PROP + ROP ({prop} + ROP latency) to `rop_done`. Screen {w} x {h} \
         pixels, raster tiles of {rt} pixels: {tiles} cache tiles of {cache} x {cache} pixels.\n\n\
         Frame: {passes} passes, each depending on the one before (a barrier between \
         consecutive passes, {barriers} in all). Primitives are generated from seed {seed} \
         (ChaCha8: per primitive a width and a height in the workload's range, then a position, \
         uniform; the same primitives for every point of a workload):\n",
        world = WORLD,
        setup = SETUP,
        raster = RASTER,
        ps = PIXEL_SHADER,
        prop = PROP,
        w = SCREEN[0],
        h = SCREEN[1],
        rt = RASTER_TILE,
        tiles = (SCREEN[0] / (4 * RASTER_TILE)) * (SCREEN[1] / (4 * RASTER_TILE)),
        cache = 4 * RASTER_TILE,
        passes = PASSES,
        barriers = PASSES - 1,
        seed = SEED
    );
    let mut workloads: Vec<Workload> = vec![];
    for p in points {
        if !workloads.contains(&p.setup.workload) {
            workloads.push(p.setup.workload);
        }
    }
    for w in &workloads {
        let _ = writeln!(md, "- {}", w.label());
    }
    let _ = writeln!(
        md,
        "\nModes, on the same primitives: **drain** (prior art: at each barrier the tiling \
         units flush and the front end issues nothing more until every pipeline is idle, i.e. \
         everything before the barrier has left ROP), **non-tiled** (every barrier a non-tiled \
         barrier: the tiling units flush, PROP holds everything behind it until the back end \
         has it from every pipeline) and **tiled** (every barrier a tiled barrier: no flush, \
         one barrier per cache tile at the next flush, PROP holds only that cache tile's work). \
         Cycles: from the first cycle after reset to the last entry leaving ROP with every \
         barrier released. Upstream stall cycles: cycles in which the front end had a command \
         left and could not issue it (world-space pipelines full, or waiting for idle in the \
         drain). Flushes: tiling-unit flushes of all pipelines (threshold, barrier and end). \
         Entries: (pipeline, primitive, cache tile) entries routed; every run retired all of \
         them from ROP and released every barrier, and every non-tiled and tiled run's trace \
         passed the golden check (checked by the bench). Speedup = drain cycles / cycles.\n"
    );
    let _ = writeln!(md, "## Every point\n");
    main_table(&mut md, points);
    reading(&mut md, points);
    baseline_section(&mut md);
    md
}

/// Range of `xs` as \"a\" or \"a..b\" with `digits` decimals.
fn range(xs: &[f64], digits: usize) -> String {
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if xs.is_empty() {
        "-".into()
    } else if format!("{:.*}", digits, lo) == format!("{:.*}", digits, hi) {
        format!("{:.*}", digits, lo)
    } else {
        format!("{:.*}..{:.*}", digits, lo, digits, hi)
    }
}

/// What the measured figures say (every figure quoted is computed from `points`).
fn reading(md: &mut String, points: &[Point]) {
    let _ = writeln!(md, "\n## Reading\n");
    let n = points.len();
    let barriers = (PASSES - 1) as f64;
    let drain_slower = points
        .iter()
        .filter(|p| p.drain.cycles > p.nontiled.cycles)
        .count();
    let sp_nt: Vec<f64> = points.iter().map(|p| p.speedup(&p.nontiled)).collect();
    let sp_t: Vec<f64> = points.iter().map(|p| p.speedup(&p.tiled)).collect();
    let _ = writeln!(
        md,
        "- The drain took more cycles than the non-tiled barrier at {} of the {} points \
         (speedup of the non-tiled barrier {}x, of the tiled barrier {}x).",
        drain_slower,
        n,
        range(&sp_nt, 2),
        range(&sp_t, 2)
    );
    let mut by_rop = String::new();
    let mut rops: Vec<u64> = points.iter().map(|p| p.setup.rop).collect();
    rops.sort();
    rops.dedup();
    for rop in &rops {
        let per: Vec<f64> = points
            .iter()
            .filter(|p| p.setup.rop == *rop)
            .map(|p| (p.drain.cycles as f64 - p.nontiled.cycles as f64) / barriers)
            .collect();
        let _ = write!(
            by_rop,
            "{}{} cycles per barrier with ROP latency {}",
            if by_rop.is_empty() { "" } else { ", " },
            range(&per, 0),
            rop
        );
    }
    let _ = writeln!(
        md,
        "- What the drain costs over the non-tiled barrier: {}. The pipeline behind the front \
         end (world space, tiling unit, setup to pixel shader, PROP and ROP) runs empty at \
         every barrier, while the non-tiled barrier waits for the same dependency at PROP with \
         the next pass already issued, binned and shaded behind it. The drain's cost grows \
         with the ROP latency by the ROP latency at each barrier; the non-tiled barrier pays a \
         deeper ROP once, at the end of the frame. The speedups are modest because the frame \
         is short (a few thousand cycles) and bounded by the tiling units, which take one \
         entry per cycle and nothing while they flush.",
        by_rop
    );
    let stall_more = points
        .iter()
        .filter(|p| p.drain.upstream_stall_cycles > p.nontiled.upstream_stall_cycles)
        .count();
    let _ = writeln!(
        md,
        "- Upstream stall cycles: the drain's exceed the non-tiled barrier's at {} of the {} \
         points. The non-tiled and tiled barriers also stall upstream, whenever the tiling \
         units, not a barrier, hold the world-space pipelines full (the non-tiled barrier did \
         not stall upstream at {} of the {} points).",
        stall_more,
        n,
        points
            .iter()
            .filter(|p| p.nontiled.upstream_stall_cycles == 0)
            .count(),
        n
    );
    let fewer = points
        .iter()
        .filter(|p| p.tiled.flushes < p.nontiled.flushes)
        .count();
    let not_more = points
        .iter()
        .filter(|p| p.tiled.flushes <= p.nontiled.flushes)
        .count();
    let tiled_faster = points
        .iter()
        .filter(|p| p.tiled.cycles < p.nontiled.cycles)
        .count();
    let rel: Vec<f64> = points
        .iter()
        .map(|p| p.tiled.cycles as f64 / p.nontiled.cycles.max(1) as f64)
        .collect();
    let _ = writeln!(
        md,
        "- Flushes: the drain and the non-tiled barrier flush at the same points (every \
         barrier and every threshold). The tiled barrier flushed less at {} of the {} points \
         (no more at {}): it adds no flush of its own, though bins that are no longer emptied \
         at barriers reach the threshold more often, so it saves fewer flushes than one per \
         pipeline per barrier.",
        fewer, n, not_more
    );
    let _ = writeln!(
        md,
        "- Cycles, tiled against non-tiled: the tiled barrier was faster at {} of the {} \
         points only (tiled / non-tiled cycles {}). It is not faster in this model because its \
         advantage is cache locality, which the model does not charge for (no cost for a tile \
         switch in ROP or the cache), while its costs are modelled: at the next flush every \
         pipeline emits one barrier per cache tile ({} per barrier and pipeline, empty tiles \
         included), each taking a cycle in the tiling unit, the stages, PROP, ROP and the back \
         end's counter, plus two cycles per cache tile visited; and the work before a tiled \
         barrier stays in the bin until the next threshold flush instead of being flushed at \
         the barrier. What it saves here is flushes.",
        tiled_faster,
        n,
        range(&rel, 2),
        points.first().map(|p| p.cache_tiles).unwrap_or(0)
    );
    buffer_reading(md, points);
}

/// The reading of the buffer peaks: what work held at PROP costs instead of upstream cycles.
fn buffer_reading(md: &mut String, points: &[Point]) {
    let peak = |f: fn(&Point) -> u64| points.iter().map(f).max().unwrap_or(0);
    let _ = writeln!(
        md,
        "- Work held at PROP costs buffer space, not upstream cycles: the crossbar's buffers \
         (per pipeline, the L2 primitive buffers of the model, without a size limit) peaked at \
         {} items with drains, {} with non-tiled and {} with tiled barriers; PROP's 8-slot hold \
         queue filled to {} (tiled). A bounded buffer filled in API order deadlocks tiled \
         barriers: pipelines that flushed a tiled barrier first hold the next pass at PROP, and \
         the crossbar then stops feeding the pipeline whose bin still needs entries to reach the \
         flush that sends that barrier (found by this bench at bin capacity 64 on 8 pipelines; \
         the regression test `br9_tiled_barrier_with_bin_capacity_64_finishes` keeps it).",
        peak(|p| p.drain.max_feed),
        peak(|p| p.nontiled.max_feed),
        peak(|p| p.tiled.max_feed),
        peak(|p| p.tiled.max_hold),
    );
}

/// What the baseline models and what it leaves out (read from `system::model::FrontEnd`).
fn baseline_section(md: &mut String) {
    let _ = writeln!(
        md,
        "\n## What the baseline models and what it leaves out\n\n\
         Models: the drain runs the same RTL, stages and primitives as the barriers. Each \
         barrier goes down the pipelines as a non-tiled barrier (so the tiling units flush at \
         it and the back end releases it, as in the non-tiled mode), and the front end issues \
         nothing after it until every pipeline is idle: nothing in the world-space pipelines, \
         the crossbar feeds, the tiling units, the stages, PROP or ROP, and every barrier \
         released. The cycles it waits count as upstream stall cycles.\n\n\
         Leaves out: any cost of a tile switch in ROP or the render-target cache (the tiled \
         barrier's advantage in cache locality therefore appears only as fewer flushes); \
         memory traffic and bandwidth (ROP retires one entry per cycle per pipeline after a \
         fixed latency); the time to signal idle from the pipelines to the front end (the \
         front end sees idle in the same cycle); any work the front end could do during a \
         drain (it issues nothing); the pixel work of a primitive (one entry per (pipeline, \
         cache tile) pair whatever its area)."
    );
}

/// Unless a quick run into the default folder: the plot and `barrier.md` (`md` gets the
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
    let svg = opts.out_dir.join("barrier.svg");
    plot(&svg, points)?;
    let _ = writeln!(
        *md,
        "\n![BR-9: cycles against pipelines, drain, non-tiled and tiled barrier](barrier.svg)"
    );
    let path = opts.out_dir.join("barrier.md");
    std::fs::write(&path, &*md)?;
    Ok(vec![path, svg])
}

/// Cycles against pipelines for each mode, per workload, at the first bin capacity and
/// ROP latency of the run.
fn plot(svg: &std::path::Path, points: &[Point]) -> Result<(), RunError> {
    let Some(first) = points.first() else {
        return Ok(());
    };
    let (bin, rop) = (first.setup.bin_capacity, first.setup.rop);
    let mut series = vec![];
    let mut workloads: Vec<Workload> = vec![];
    for p in points {
        if !workloads.contains(&p.setup.workload) {
            workloads.push(p.setup.workload);
        }
    }
    for w in &workloads {
        for (i, mode) in ["drain", "non-tiled", "tiled"].iter().enumerate() {
            series.push(Series {
                label: format!("{}, {}", w.name, mode),
                points: points
                    .iter()
                    .filter(|p| {
                        p.setup.workload == *w && p.setup.bin_capacity == bin && p.setup.rop == rop
                    })
                    .map(|p| (p.setup.pipes as f64, p.modes()[i].1.cycles as f64))
                    .collect(),
            });
        }
    }
    line_chart(
        svg,
        &format!("BR-9: bin capacity {}, ROP latency {}", bin, rop),
        "screen-space pipelines",
        "cycles for the frame",
        &series,
    )
    .map_err(RunError::Output)
}

/// The barrier experiments.
pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "barrier",
        about: "BR-9: cycles, upstream stall cycles and flushes of a frame of dependent passes, drain vs non-tiled vs tiled barrier, 2/4/8 pipelines",
        run,
    }]
}
