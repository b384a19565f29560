//! BR-9 experiment in quick mode: the claim's direction, not fixed numbers. A frame of
//! dependent passes under a full drain before each dependent pass (prior art), a non-tiled
//! barrier and a tiled barrier, for 2, 4 and 8 pipelines. Every tiled and non-tiled run's trace
//! passed the golden check inside `measure`; every run's ROP retired every routed entry and
//! every barrier was released (`check_point`).
use ppu_sim::barrier::bench::{self, check_point, measure, Point, Setup, PASSES, PIPES, WORKLOADS};
use ppu_sim::bench::BenchOptions;
use std::sync::OnceLock;

/// The quick points, measured once for every test of this file.
fn quick_points() -> &'static Vec<Point> {
    static P: OnceLock<Vec<Point>> = OnceLock::new();
    P.get_or_init(|| bench::quick_points().unwrap())
}

#[test]
fn br9_quick_run_covers_every_pipe_count_and_workload() {
    let p = quick_points();
    for pipes in PIPES {
        for w in WORKLOADS {
            assert!(
                p.iter()
                    .any(|x| x.setup.pipes == pipes && x.setup.workload.name == w.name),
                "{} pipes, {}",
                pipes,
                w.name
            );
        }
    }
}

#[test]
fn br9_drain_stalls_upstream_and_is_slower_than_the_non_tiled_barrier() {
    for x in quick_points() {
        assert!(x.drain.upstream_stall_cycles > 0, "{:?}", x);
        assert!(
            x.drain.upstream_stall_cycles > x.nontiled.upstream_stall_cycles,
            "{:?}",
            x
        );
        assert!(x.drain.cycles > x.nontiled.cycles, "{:?}", x);
        assert!(x.speedup(&x.nontiled) > 1.0, "{:?}", x);
    }
}

#[test]
fn br9_the_drain_pays_the_pipeline_depth_at_every_barrier() {
    // The same point with a deeper ROP: the drain waits for ROP to empty at each of the
    // PASSES - 1 barriers, the non-tiled barrier only once, at the end of the frame.
    let mut rows = 0;
    for x in quick_points() {
        let deep = Setup {
            rop: x.setup.rop + 40,
            ..x.setup
        };
        if x.setup.pipes != 4 {
            continue;
        }
        let y = measure(&deep).unwrap();
        check_point(&y).unwrap();
        rows += 1;
        let drain_added = y.drain.cycles as i64 - x.drain.cycles as i64;
        let nontiled_added = y.nontiled.cycles as i64 - x.nontiled.cycles as i64;
        assert!(
            drain_added >= nontiled_added + (PASSES as i64 - 1) * 40,
            "{:?} {:?}",
            x,
            y
        );
    }
    assert!(rows >= 2, "{}", rows);
}

#[test]
fn br9_tiled_barriers_flush_less_than_non_tiled_ones() {
    for x in quick_points() {
        assert!(x.tiled.flushes <= x.nontiled.flushes, "{:?}", x);
        // Drain and non-tiled flush at the same points (every barrier, every threshold).
        assert_eq!(x.drain.flushes, x.nontiled.flushes, "{:?}", x);
    }
    assert!(quick_points()
        .iter()
        .any(|x| x.tiled.flushes < x.nontiled.flushes));
}

#[test]
fn br9_every_run_retires_every_routed_entry() {
    for x in quick_points() {
        assert!(x.routed > 0);
        for (name, r) in x.modes() {
            assert_eq!(r.rop_done, x.routed, "{} {:?}", name, x);
        }
        check_point(x).unwrap();
    }
}

#[test]
fn br9_check_point_rejects_a_lost_entry() {
    let mut x = quick_points()[0].clone();
    x.tiled.rop_done -= 1;
    assert!(check_point(&x).is_err());
}

#[test]
fn br9_bench_writes_table_and_plot() {
    let dir = std::env::temp_dir().join(format!("ppu-br-bench-{}", std::process::id()));
    let opts = BenchOptions {
        quick: true,
        progress: false,
        out_dir: dir.clone(),
        engine: Default::default(),
    };
    // The report of the quick points the other tests use (`run` is measure + this).
    let r = bench::report(&opts, quick_points()).unwrap();
    assert!(r
        .markdown
        .contains("## What the baseline models and what it leaves out"));
    assert!(r.markdown.contains(&format!(
        "| small | {} | {} | 2 |",
        ppu_sim::barrier::bench::BIN_CAPACITIES[1],
        ppu_sim::barrier::bench::ROP_LATENCIES[0]
    )));
    for f in &r.files {
        assert!(f.exists(), "{}", f.display());
    }
    let svg = std::fs::read_to_string(dir.join("barrier.svg")).unwrap();
    assert!(svg.contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Regression: with a bin capacity of 64, the frame of the small workload on 8 pipelines with
/// tiled barriers once made no progress. A tiled barrier waits in a bin for the next threshold
/// flush; pipelines that flushed it first held the next pass at PROP, their stages filled, their
/// tiling units stopped in mid-flush, and the in-order crossbar with bounded buffers stopped
/// feeding the pipeline whose bin still needed entries to flush the barrier. The crossbar's
/// buffers are now L2 primitive buffers without a size limit.
#[test]
fn br9_tiled_barrier_with_bin_capacity_64_finishes() {
    let s = Setup {
        workload: WORKLOADS[0],
        pipes: 8,
        bin_capacity: 64,
        rop: 8,
    };
    let p = measure(&s).unwrap();
    check_point(&p).unwrap();
}

/// A sweep's points run in parallel (one simulation per core); the results must be those of a
/// serial run, point for point and in the same order (`ppu bench` with one thread).
#[test]
fn br9_sweep_points_in_parallel_equal_a_serial_run() {
    let run_with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| bench::quick_points().unwrap())
    };
    let serial = run_with(1);
    assert_eq!(&serial, quick_points());
    assert_eq!(run_with(3), serial);
}
