//! SO-14 experiment (`ppu bench stream-out`): aggregate stream-output bandwidth against the
//! number of SO units with a fixed frame-buffer bandwidth, against the single-SO-unit baseline
//! (prior art), and SSYNC's own cost (in-order response latency, sustained responses/cycle).
//! Every point is a full system run checked against the golden model (order of SO-11).
//!
//! The shaders are modelled ([`ShaderModel`]): a fixed number of shaders spread over the SO
//! units, one batch at a time each, with an output buffer of [`SHADER_OUT_BATCHES`] batches; a
//! shader whose output buffer is full stalls, and the WDU dispatches only to a free shader. The
//! baseline is one SO unit fed by the same shaders: they wait for it. A sweep of shader count,
//! SO-unit bandwidth and batch size shows which part limits each row, down to small split
//! batches where SSYNC's one response per cycle is the limit.
use super::system::{run_plan, Plan, ShaderModel, Step, TaskPlan};
use super::tb::ssync::{run_ssync, Cmd, SoJob, SsyncTb};
use crate::bench::{Bench, BenchOptions, BenchReport};
use crate::plot::{self, Series};
use crate::scenario::RunError;
use crate::tb::TbOutput;
use crate::trace::TraceWriter;
use crate::verilator::Engine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// Fixed parameters of the scaling experiment.
pub const SO_BYTES_PER_CYCLE: u32 = 16;
pub const FB_BYTES_PER_CYCLE: u32 = 64;
pub const STRIDE: [u32; 4] = [16, 0, 8, 0];
pub const LATENCY: (u64, u64) = (20, 200);
/// Shaders (processing clusters) of the scaling experiment, whatever the SO unit count.
pub const SHADERS: usize = 16;
/// Output buffer of one shader, in batches.
pub const SHADER_OUT_BATCHES: usize = 2;

/// One configuration of the experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub so_units: usize,
    pub shaders: usize,
    pub so_bytes_per_cycle: u32,
    pub fb_bytes_per_cycle: u32,
    /// Batches streamed.
    pub batches: usize,
    /// Tasks per batch (a split batch when above 1, SO-10) and vertices per task.
    pub tasks: usize,
    pub vertices: u32,
    pub latency: (u64, u64),
}

impl Setup {
    /// A row of the scaling table: `so_units` SO units fed by [`SHADERS`] shaders.
    pub fn scaling(so_units: usize, batches: usize) -> Setup {
        Setup {
            so_units,
            shaders: SHADERS,
            so_bytes_per_cycle: SO_BYTES_PER_CYCLE,
            fb_bytes_per_cycle: FB_BYTES_PER_CYCLE,
            batches,
            tasks: 1,
            vertices: 32,
            latency: LATENCY,
        }
    }

    /// Bytes of one batch/task.
    pub fn task_bytes(&self) -> u32 {
        STRIDE.iter().sum::<u32>() * self.vertices
    }
}

/// One measured point.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub setup: Setup,
    pub so_units: usize,
    pub batches: usize,
    pub bytes: u64,
    pub cycles: u64,
    pub bytes_per_cycle: f64,
    pub mean_latency: f64,
    /// SSYNC responses (one per batch/task) per cycle from the first response to the last.
    pub responses_per_cycle: f64,
    /// Sum over shaders of cycles idle with a full output buffer, and its share of all
    /// shader-cycles.
    pub shader_stall_cycles: u64,
    pub shader_stall_share: f64,
    /// Cycles the WDU held a batch with no free shader for it.
    pub dispatch_wait_cycles: u64,
}

/// The plan of one setup: its batches streamed, each task to the next free shader.
pub fn plan(s: &Setup, seed: u64) -> Plan {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut steps = vec![Step::Offset([0; 4]), Step::Enable];
    for k in 0..s.batches {
        steps.push(Step::Batch {
            packet: 2,
            vertices: (s.vertices as usize * s.tasks).min(32) as u64,
            tasks: (0..s.tasks)
                .map(|t| TaskPlan {
                    so_unit: (k * s.tasks + t) % s.so_units,
                    bytes: std::array::from_fn(|i| STRIDE[i] * s.vertices),
                    latency: rng.gen_range(s.latency.0..=s.latency.1),
                    any_shader: true,
                })
                .collect(),
        });
    }
    steps.push(Step::Disable);
    let n = (s.batches * s.tasks) as u64;
    Plan {
        so_units: s.so_units,
        so_bytes_per_cycle: s.so_bytes_per_cycle,
        fb_bytes_per_cycle: s.fb_bytes_per_cycle,
        buffer_bytes: std::array::from_fn(|i| STRIDE[i] * s.vertices * n as u32),
        steps,
        max_cycles: 10_000 + n * (s.task_bytes() as u64 + 8),
        shaders: Some(ShaderModel {
            count: s.shaders,
            out_batches: SHADER_OUT_BATCHES,
        }),
        engine: Default::default(),
    }
}

/// Measure one setup.
pub fn measure(s: &Setup, seed: u64) -> Result<Point, RunError> {
    let p = plan(s, seed);
    let mut trace = TraceWriter::create(None)?;
    let r = run_plan(&p, &mut trace, None)?;
    let cycles = r.last_write_cycle + 1;
    let lat = &r.in_order_latency;
    Ok(Point {
        setup: s.clone(),
        so_units: s.so_units,
        batches: s.batches,
        bytes: r.total_bytes(),
        cycles,
        bytes_per_cycle: r.total_bytes() as f64 / cycles as f64,
        mean_latency: if lat.is_empty() {
            f64::NAN
        } else {
            lat.iter().sum::<u64>() as f64 / lat.len() as f64
        },
        responses_per_cycle: r.responses_per_cycle(),
        shader_stall_cycles: r.shader_stall_cycles,
        shader_stall_share: r.shader_stall_cycles as f64 / (s.shaders as u64 * r.cycles) as f64,
        dispatch_wait_cycles: r.dispatch_wait_cycles,
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

/// The scaling rows: [`unit_counts`] SO units, [`SHADERS`] shaders, 32-vertex batches.
pub fn scaling(quick: bool) -> Vec<Setup> {
    let batches = if quick { 192 } else { 768 };
    unit_counts(quick)
        .into_iter()
        .map(|n| Setup::scaling(n, batches))
        .collect()
}

/// The sweep: shader count and SO-unit bandwidth with 32-vertex batches, then batches of 4
/// one-vertex tasks (24 bytes each) with short shaders and a wide frame buffer, where SSYNC's
/// one response per cycle is the limit with enough SO units. Quick: the rows the tests use.
pub fn sweep(quick: bool) -> Vec<Setup> {
    let nb = if quick { 96 } else { 384 };
    let big = |so_units, shaders, so_bytes_per_cycle| Setup {
        so_units,
        shaders,
        so_bytes_per_cycle,
        batches: nb,
        ..Setup::scaling(so_units, nb)
    };
    let small = |so_units, shaders, tasks| Setup {
        so_units,
        shaders,
        so_bytes_per_cycle: 64,
        fb_bytes_per_cycle: 1024,
        batches: (if quick { 96 } else { 512 }) * 4 / tasks,
        tasks,
        vertices: 1,
        latency: (2, 8),
    };
    if quick {
        return vec![big(1, 2, 16), small(1, 16, 4), small(16, 64, 4)];
    }
    vec![
        big(1, 2, 16),
        big(1, 4, 16),
        big(1, 16, 32),
        big(1, 16, 64),
        big(4, 4, 16),
        big(4, 32, 16),
        big(16, 64, 16),
        small(1, 16, 4),
        small(4, 16, 4),
        small(16, 64, 1),
        small(16, 64, 4),
    ]
}

/// Each part's bound on bytes/cycle for a setup, lowest first: SO units, frame buffer,
/// shaders (one batch/task per mean latency each), SSYNC (one response per cycle), WDU (one
/// batch every 2 cycles: the batch ID is taken one cycle, the work token sent the next).
pub fn bounds(s: &Setup) -> Vec<(&'static str, f64)> {
    let task = s.task_bytes() as f64;
    let mean_latency = (s.latency.0 + s.latency.1) as f64 / 2.0;
    let mut b = vec![
        (
            "SO units",
            (s.so_units as u32 * s.so_bytes_per_cycle) as f64,
        ),
        ("frame buffer", s.fb_bytes_per_cycle as f64),
        ("shaders", s.shaders as f64 * task / mean_latency.max(1.0)),
        ("SSYNC", task),
        ("WDU", 0.5 * s.tasks as f64 * task),
    ];
    b.sort_by(|x, y| x.1.total_cmp(&y.1));
    b
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The scaling table (Markdown).
fn scaling_table(md: &mut String, points: &[Point]) {
    let base = points[0].bytes_per_cycle;
    let _ = writeln!(
        md,
        "| SO units | bytes | cycles | bytes/cycle | vs 1 SO unit (prior art) | of frame-buffer limit | SSYNC responses/cycle | SSYNC in-order latency (cycles) | shader stall (of shader-cycles) |"
    );
    let _ = writeln!(
        md,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for p in points {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2} | {:.2}x | {:.0}% | {:.3} | {:.2} | {} |",
            p.so_units,
            p.bytes,
            p.cycles,
            p.bytes_per_cycle,
            p.bytes_per_cycle / base,
            100.0 * p.bytes_per_cycle / p.setup.fb_bytes_per_cycle as f64,
            p.responses_per_cycle,
            p.mean_latency,
            pct(p.shader_stall_share)
        );
    }
}

/// The sweep table (Markdown).
fn sweep_table(md: &mut String, points: &[Point]) {
    let _ = writeln!(
        md,
        "| SO units | shaders | SO unit bytes/cycle | frame buffer bytes/cycle | batch: tasks x bytes | shader latency | bytes/cycle | SSYNC responses/cycle | shader stall (of shader-cycles) | WDU waits for a shader (cycles) | lowest bound (bytes/cycle) |"
    );
    let _ = writeln!(
        md,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    for p in points {
        let s = &p.setup;
        let b = bounds(s);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} x {} | {}..{} | {:.2} | {:.3} | {} | {} | {} {:.1} |",
            s.so_units,
            s.shaders,
            s.so_bytes_per_cycle,
            s.fb_bytes_per_cycle,
            s.tasks,
            s.task_bytes(),
            s.latency.0,
            s.latency.1,
            p.bytes_per_cycle,
            p.responses_per_cycle,
            pct(p.shader_stall_share),
            p.dispatch_wait_cycles,
            b[0].0,
            b[0].1
        );
    }
}

/// Measure every setup (in parallel, see [`crate::bench::sweep`]), one progress step each.
pub fn measure_all(setups: &[Setup], show: bool, name: &str) -> Result<Vec<Point>, RunError> {
    crate::bench::sweep(name, setups, show, |s| measure(s, 14))
}

/// Run the experiment and write `stream-out.md` and `stream-out.svg` into `opts.out_dir` (not
/// for a quick run into the default `docs/results`).
pub fn run(opts: &BenchOptions) -> Result<BenchReport, RunError> {
    let (rows, sweep_rows) = (scaling(opts.quick), sweep(opts.quick));
    let points = measure_all(&rows, opts.progress, "stream-out")?;
    let swept = measure_all(&sweep_rows, opts.progress, "SO-14 sweep")?;
    let (lat, rate) = ssync_cost(if opts.quick { 32 } else { 256 })?;
    let mut md = markdown(&points, &swept, lat, rate);
    if !opts.quick {
        md += &speed_section(scaling(false)[0].batches)?;
    }
    if opts.quick && opts.out_dir == BenchOptions::default().out_dir {
        // A quick run does not replace the full results in docs/ (BenchOptions::quick).
        return Ok(BenchReport {
            markdown: md,
            files: vec![],
        });
    }
    std::fs::create_dir_all(&opts.out_dir)?;
    let md_path = opts.out_dir.join("stream-out.md");
    std::fs::write(&md_path, &md)?;
    let svg = opts.out_dir.join("stream-out.svg");
    plot_points(&svg, &points)?;
    Ok(BenchReport {
        markdown: md,
        files: vec![md_path, svg],
    })
}

/// The result page.
fn markdown(points: &[Point], swept: &[Point], lat: f64, rate: f64) -> String {
    let mut md = String::new();
    let s = &points[0].setup;
    let _ = writeln!(
        md,
        "# SO-14: distributed stream output bandwidth
"
    );
    let _ = writeln!(
        md,
        "{} batches of 32 vertices, stride {:?} bytes per vertex ({} bytes per batch), {} \
         shaders spread evenly over the SO units, each computing one batch at a time for \
         {}..{} cycles into an output buffer of {} batches and stalling while it is full; the \
         WDU dispatches a batch only to a free shader. Each SO unit writes at most {} \
         bytes/cycle, the frame buffer accepts {} bytes/cycle. The baseline (prior art) is one \
         SO unit fed by the same {} shaders. Every run is checked against the golden model \
         (offsets, order, final buffer contents: SO-11). Bandwidth = bytes written / cycles to \
         the last write; SSYNC responses/cycle = responses (one per batch/task) / cycles from \
         the first response to the last.\n",
        s.batches,
        STRIDE,
        s.task_bytes(),
        s.shaders,
        s.latency.0,
        s.latency.1,
        SHADER_OUT_BATCHES,
        s.so_bytes_per_cycle,
        s.fb_bytes_per_cycle,
        s.shaders
    );
    scaling_table(&mut md, points);
    let _ = writeln!(
        md,
        "\nChanged from the previous table (1 SO unit 14.17 bytes/cycle, 8 SO units 62.65 = \
         4.42x, against an ideal 4x): the SO unit now writes back to back (no cycle for a \
         buffer with 0 bytes, no bubble when it hands the next batch to its write stage), and \
         the shaders are modelled as above instead of one ideal shader per batch with unbounded \
         MPC queues, so the single SO unit reaches its own {} bytes/cycle while the shaders \
         wait for it.\n",
        s.so_bytes_per_cycle
    );
    let _ = writeln!(
        md,
        "Sweep of shader count, SO-unit bandwidth and batch size (output buffers of {} \
         batch/tasks). The last column is the lowest of the bounds each part sets on its own: \
         SO units x bytes/cycle, the frame buffer, shaders x bytes / mean latency, SSYNC at one \
         response per batch/task per cycle, the WDU at one batch every 2 cycles (batch ID one \
         cycle, work token the next).\n",
        SHADER_OUT_BATCHES
    );
    sweep_table(&mut md, swept);
    let one_unit_cycles = swept
        .iter()
        .find(|p| p.so_units == 1 && p.setup.tasks > 1)
        .map(|p| 1.0 / p.responses_per_cycle.max(1e-9))
        .unwrap_or(f64::NAN);
    let _ = writeln!(
        md,
        "\nReading: one SO unit makes the shaders wait (stall column) and writes at its own \
         bandwidth; given 64 bytes/cycle it alone reaches the frame-buffer limit, so what more SO \
         units add is their summed write bandwidth. With 2 shaders the shaders are the limit and \
         barely stall. Where the WDU waits \
         for neither a shader nor SSYNC it waits for a batch ID: the batch-ID generator keeps at \
         most 64 batches in flight (SO-1), so 64 shaders rarely hold a full output buffer (16 SO \
         units, 64 shaders: no stall, the frame buffer is the limit). Unsplit small batches are \
         held to one batch every 2 cycles by the WDU; split into 4 tasks on 16 SO units they \
         reach SSYNC's one response per cycle, while one SO unit, one batch/task at a time \
         towards SSYNC, manages about one per {:.1} cycles (batch-ID packet, first request, \
         response, attributes, end, second request, hand-over). The last column does not count \
         that per-batch/task time of an SO unit, which is what limits the small-batch rows with \
         1 and 4 SO units.",
        one_unit_cycles
    );
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
    md
}

/// The plot: measured bytes/cycle against SO units, with the SO-unit / frame-buffer bound.
fn plot_points(svg: &std::path::Path, points: &[Point]) -> Result<(), RunError> {
    let measured = Series {
        label: format!("measured bytes/cycle ({} shaders)", SHADERS),
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
        svg,
        "SO-14: stream-output bandwidth vs SO units",
        "SO units",
        "bytes/cycle",
        &[measured, ideal],
    )
    .map_err(RunError::Output)
}

/// One system run timed on one engine: cycles simulated and seconds (model set-up left out).
#[derive(Debug, Clone)]
pub struct EngineSpeed {
    pub engine: Engine,
    pub so_units: usize,
    pub cycles: u64,
    pub seconds: f64,
    pub setup_seconds: f64,
    /// The run's golden-checked figures, equal on both engines.
    pub bytes: u64,
}

impl EngineSpeed {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// Time the scaling setup of `so_units` SO units and `batches` batches on `engine` (this
/// thread, no VCD, no trace).
pub fn engine_speed(
    so_units: usize,
    batches: usize,
    engine: Engine,
) -> Result<EngineSpeed, RunError> {
    let mut p = plan(&Setup::scaling(so_units, batches), 14);
    p.engine = engine;
    let mut trace = TraceWriter::create(None)?;
    let (s0, _) = crate::verilator::model::setup_totals();
    let t0 = std::time::Instant::now();
    // Scoped, so that `ppu bench stream-out --engine verilator` (which scopes the Verilator
    // engine around the whole bench) still times the harness row on the harness.
    let r = crate::verilator::with_engine(engine, || run_plan(&p, &mut trace, None))?;
    let wall = t0.elapsed().as_secs_f64();
    let setup = crate::verilator::model::setup_totals().0 - s0;
    Ok(EngineSpeed {
        engine,
        so_units,
        cycles: r.cycles,
        seconds: wall - setup,
        setup_seconds: setup,
        bytes: r.total_bytes(),
    })
}

/// The simulation-speed section of the full report: the 16-SO-unit system on both engines
/// (the Verilator row only where Verilator is installed).
fn speed_section(batches: usize) -> Result<String, RunError> {
    let mut rows = vec![engine_speed(16, batches, Engine::Harness)?];
    let note = match Engine::Verilator.available() {
        Ok(()) => {
            // A first run builds (or loads) the model; the timed run after it does neither.
            engine_speed(16, 8, Engine::Verilator)?;
            rows.push(engine_speed(16, batches, Engine::Verilator)?);
            String::new()
        }
        Err(e) => format!("\nVerilator engine not measured: {}\n", e),
    };
    if rows
        .iter()
        .any(|r| r.bytes != rows[0].bytes || r.cycles != rows[0].cycles)
    {
        return Err(RunError::Violation(
            "the two engines ran the 16-SO-unit system to different results".into(),
        ));
    }
    let mut md = String::from(
        "\n## Simulation speed\n\nThe 16-SO-unit row of the scaling table run again on each \
         engine, on one core, with the whole system model around the RTL (WDU, MPCs, shaders, \
         frame buffer, golden scoreboard); model set-up (export, build or load) left out. \
         `ppu bench engines` compares every mechanism's bench.\n\n\
         | engine | SO units | cycles | seconds | cycles/s |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    for r in &rows {
        md += &format!(
            "| {} | {} | {} | {:.2} | {:.0} |\n",
            r.engine,
            r.so_units,
            r.cycles,
            r.seconds,
            r.cycles_per_second()
        );
    }
    Ok(md + &note)
}

/// Measured points of a quick run (for tests of the trend): the scaling rows and the sweep
/// rows.
pub fn quick_points() -> Result<(Vec<Point>, Vec<Point>), RunError> {
    Ok((
        measure_all(&scaling(true), false, "stream-out")?,
        measure_all(&sweep(true), false, "SO-14 sweep")?,
    ))
}

/// The stream-output experiments.
pub fn benches() -> Vec<Bench> {
    vec![Bench {
        name: "stream-out",
        about: "SO-14: stream-output bytes/cycle for 1..16 SO units vs the single-unit baseline; SSYNC latency and responses/cycle",
        run,
    }]
}
