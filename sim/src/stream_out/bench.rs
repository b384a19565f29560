//! SO-14 experiment (`ppu bench stream-out`): aggregate stream-output bandwidth against the
//! number of SO units with a fixed frame-buffer bandwidth, against the single-SO-unit baseline
//! (prior art), and SSYNC's own cost (in-order response latency, sustained responses/cycle).
//! Every point is a full system run checked against the golden model (order of SO-11).
use super::system::{run_plan, Plan, Step, TaskPlan};
use super::tb::ssync::{run_ssync, Cmd, SoJob, SsyncTb};
use crate::bench::{Bench, BenchOptions, BenchReport};
use crate::plot::{self, Series};
use crate::scenario::RunError;
use crate::tb::TbOutput;
use crate::trace::TraceWriter;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// Fixed parameters of the experiment.
pub const SO_BYTES_PER_CYCLE: u32 = 16;
pub const FB_BYTES_PER_CYCLE: u32 = 64;
pub const STRIDE: [u32; 4] = [16, 0, 8, 0];
pub const LATENCY: (u64, u64) = (20, 200);

/// One measured point.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub so_units: usize,
    pub batches: usize,
    pub bytes: u64,
    pub cycles: u64,
    pub bytes_per_cycle: f64,
    pub mean_latency: f64,
}

/// The plan of one point: `batches` full batches streamed, round-robin over the SO units.
pub fn plan(so_units: usize, batches: usize, seed: u64) -> Plan {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut steps = vec![Step::Offset([0; 4]), Step::Enable];
    for k in 0..batches {
        steps.push(Step::Batch {
            packet: 2,
            vertices: 32,
            tasks: vec![TaskPlan {
                so_unit: k % so_units,
                bytes: std::array::from_fn(|i| STRIDE[i] * 32),
                latency: rng.gen_range(LATENCY.0..=LATENCY.1),
            }],
        });
    }
    steps.push(Step::Disable);
    let per: u64 = STRIDE.iter().map(|&s| s as u64 * 32).sum();
    Plan {
        so_units,
        so_bytes_per_cycle: SO_BYTES_PER_CYCLE,
        fb_bytes_per_cycle: FB_BYTES_PER_CYCLE,
        buffer_bytes: std::array::from_fn(|i| STRIDE[i] * 32 * batches as u32),
        steps,
        max_cycles: 10_000 + batches as u64 * per,
    }
}

/// Measure one point.
pub fn measure(so_units: usize, batches: usize, seed: u64) -> Result<Point, RunError> {
    let p = plan(so_units, batches, seed);
    let mut trace = TraceWriter::create(None)?;
    let r = run_plan(&p, &mut trace, None)?;
    let cycles = r.last_write_cycle + 1;
    let lat = &r.in_order_latency;
    Ok(Point {
        so_units,
        batches,
        bytes: r.total_bytes(),
        cycles,
        bytes_per_cycle: r.total_bytes() as f64 / cycles as f64,
        mean_latency: if lat.is_empty() {
            f64::NAN
        } else {
            lat.iter().sum::<u64>() as f64 / lat.len() as f64
        },
    })
}

/// SSYNC alone: (cycles from a first request that is current on arrival to its response,
/// responses per cycle sustained when 8 SO units keep both messages waiting).
pub fn ssync_cost(batches: usize) -> Result<(f64, f64), RunError> {
    let mut cmds = vec![Cmd::Enable];
    cmds.extend((0..batches).map(|_| Cmd::Work));
    cmds.push(Cmd::Disable);
    cmds.push(Cmd::Work);
    let job = |b: usize, first_at: u64, early: Option<u64>| SoJob {
        unit: b % 8,
        batch: b,
        task: 0,
        last: true,
        sbbn: [64, 0, 32, 0],
        first_at,
        second_early: early,
        second_delay: 0,
        bogus: false,
        no_first: false,
    };
    let tb = |jobs: Vec<SoJob>| SsyncTb {
        cmds: cmds.clone(),
        first_id: 0,
        jobs,
        sizes: [u32::MAX; 4],
        seed: 1,
        resp_ready_prob: 1.0,
        retire_ready_prob: 1.0,
        max_cycles: 100 + batches as u64 * 20,
        expect_violations: false,
    };
    // In order, one at a time: each request arrives when its batch is current.
    let serial = tb((0..batches)
        .map(|b| job(b, 20 + 6 * b as u64, None))
        .collect());
    let r =
        run_ssync::<8, 3, 4, 2, 3>(&serial, &TbOutput::default()).map_err(RunError::Violation)?;
    let lat =
        r.in_order_latency.iter().sum::<u64>() as f64 / r.in_order_latency.len().max(1) as f64;
    // Saturated: every SO unit sends both messages at once; the first batch arrives last.
    let burst = tb((0..batches)
        .map(|b| job(b, if b == 0 { 40 } else { 0 }, Some(0)))
        .collect());
    let r =
        run_ssync::<8, 3, 4, 2, 3>(&burst, &TbOutput::default()).map_err(RunError::Violation)?;
    let first = r.responses.first().map(|x| x.0).unwrap_or(0);
    let last = r.responses.last().map(|x| x.0).unwrap_or(0);
    let rate = r.responses.len() as f64 / (last - first + 1) as f64;
    Ok((lat, rate))
}

/// The SO unit counts of the experiment.
pub fn unit_counts(quick: bool) -> Vec<usize> {
    if quick {
        vec![1, 2, 4, 8]
    } else {
        vec![1, 2, 4, 8, 16]
    }
}

/// Run the experiment and write `stream-out.md` and `stream-out.svg` into `opts.out_dir`.
pub fn run(opts: &BenchOptions) -> Result<BenchReport, RunError> {
    let batches = if opts.quick { 64 } else { 768 };
    let counts = unit_counts(opts.quick);
    let pb = crate::progress::bar(counts.len() as u64 + 1, "stream-out", opts.progress);
    let mut points = vec![];
    for &n in &counts {
        points.push(measure(n, batches, 14)?);
        pb.inc(1);
    }
    let (lat, rate) = ssync_cost(if opts.quick { 32 } else { 256 })?;
    pb.finish_and_clear();
    let base = points[0].bytes_per_cycle;
    let mut md = String::new();
    let _ = writeln!(md, "# SO-14: distributed stream output bandwidth\n");
    let _ = writeln!(
        md,
        "{} batches of 32 vertices, stride {:?} bytes per vertex ({} bytes per batch), shader \
         latency {}..{} cycles, each SO unit writes at most {} bytes/cycle, the frame buffer \
         accepts {} bytes/cycle. Every run is checked against the golden model (offsets, \
         order, final buffer contents: SO-11). Bandwidth = bytes written / cycles to the last write.\n",
        batches,
        STRIDE,
        STRIDE.iter().sum::<u32>() * 32,
        LATENCY.0,
        LATENCY.1,
        SO_BYTES_PER_CYCLE,
        FB_BYTES_PER_CYCLE
    );
    let _ = writeln!(
        md,
        "| SO units | bytes | cycles | bytes/cycle | vs 1 SO unit (prior art) | of frame-buffer limit | SSYNC in-order latency (cycles) |"
    );
    let _ = writeln!(md, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for p in &points {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2} | {:.2}x | {:.0}% | {:.2} |",
            p.so_units,
            p.bytes,
            p.cycles,
            p.bytes_per_cycle,
            p.bytes_per_cycle / base,
            100.0 * p.bytes_per_cycle / FB_BYTES_PER_CYCLE as f64,
            p.mean_latency
        );
    }
    let _ = writeln!(
        md,
        "\nSSYNC alone (8 SO units): a first request that is current on arrival is answered \
         after **{:.2} cycles**; with first and second requests waiting in the message table it \
         sustains **{:.2} responses/cycle**.\n",
        lat, rate
    );
    let _ = writeln!(
        md,
        "Reproduce: `cargo run --release -- bench stream-out` (writes this file and \
         `stream-out.svg`)."
    );
    std::fs::create_dir_all(&opts.out_dir)?;
    let md_path = opts.out_dir.join("stream-out.md");
    std::fs::write(&md_path, &md)?;
    let svg = opts.out_dir.join("stream-out.svg");
    let measured = Series {
        label: "measured bytes/cycle".into(),
        points: points
            .iter()
            .map(|p| (p.so_units as f64, p.bytes_per_cycle))
            .collect(),
    };
    let ideal = Series {
        label: format!(
            "min(N x {}, frame buffer {})",
            SO_BYTES_PER_CYCLE, FB_BYTES_PER_CYCLE
        ),
        points: points
            .iter()
            .map(|p| {
                (
                    p.so_units as f64,
                    (p.so_units as f64 * SO_BYTES_PER_CYCLE as f64).min(FB_BYTES_PER_CYCLE as f64),
                )
            })
            .collect(),
    };
    plot::line_chart(
        &svg,
        "SO-14: stream-output bandwidth vs SO units",
        "SO units",
        "bytes/cycle",
        &[measured, ideal],
    )
    .map_err(RunError::Output)?;
    Ok(BenchReport {
        markdown: md,
        files: vec![md_path, svg],
    })
}

/// Measured points of a quick run (for tests of the trend).
pub fn quick_points() -> Result<Vec<Point>, RunError> {
    unit_counts(true)
        .into_iter()
        .map(|n| measure(n, 64, 14))
        .collect()
}

/// The stream-output experiments.
pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "stream-out",
        about: "SO-14: stream-output bytes/cycle for 1..16 SO units vs the single-unit baseline; SSYNC latency and responses/cycle",
        run,
    }]
}
