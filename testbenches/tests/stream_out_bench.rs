//! SO-14 experiment in quick mode: the claimed trend, not fixed numbers. With the shaders
//! modelled (a fixed number, bounded output buffers, stalling when full), one SO unit (prior
//! art) makes the shaders wait and writes at its own bandwidth; more SO units give more
//! bytes/cycle until the frame-buffer bandwidth is reached; with small split batches SSYNC's one
//! response per cycle becomes the limit. Every point is a golden-checked run (order of SO-11).
use ppu_sim::bench::BenchOptions;
use ppu_sim::stream_out::bench::{self, run, Point, FB_BYTES_PER_CYCLE, SO_BYTES_PER_CYCLE};
use std::sync::OnceLock;

/// The quick points, measured once for every test of this file.
fn quick_points() -> &'static (Vec<Point>, Vec<Point>) {
    static P: OnceLock<(Vec<Point>, Vec<Point>)> = OnceLock::new();
    P.get_or_init(|| bench::quick_points().unwrap())
}

fn bpc(p: &[Point]) -> Vec<f64> {
    p.iter().map(|x| x.bytes_per_cycle).collect()
}

#[test]
fn so14_one_so_unit_makes_the_shaders_stall_at_its_own_bandwidth() {
    let (scaling, sweep) = quick_points();
    let one = &scaling[0];
    assert_eq!(one.so_units, 1);
    // The shaders could produce far more than one SO unit writes: they stall...
    assert!(one.shader_stall_cycles > 0, "{:?}", one);
    assert!(one.dispatch_wait_cycles > 0, "{:?}", one);
    // ...and the SO unit writes back to back: within 5% of its bytes/cycle, never above.
    let so = SO_BYTES_PER_CYCLE as f64;
    assert!(
        one.bytes_per_cycle > 0.95 * so && one.bytes_per_cycle <= so,
        "{:?}",
        one
    );
    // Two shaders alone are slower than the SO unit: it is no longer the limit, few stalls.
    let few = &sweep[0];
    assert_eq!((few.so_units, few.setup.shaders), (1, 2));
    assert!(few.bytes_per_cycle < 0.95 * so, "{:?}", few);
    assert!(
        few.shader_stall_share < one.shader_stall_share / 4.0,
        "{:?} {:?}",
        few,
        one
    );
}

#[test]
fn so14_bandwidth_grows_with_so_units_until_the_frame_buffer_limit() {
    let (p, _) = quick_points();
    let b = bpc(p);
    let (so, fb) = (SO_BYTES_PER_CYCLE as f64, FB_BYTES_PER_CYCLE as f64);
    // 2 SO units: close to twice one SO unit's bandwidth, never above twice its write
    // bandwidth.
    assert!(b[1] > 1.8 * b[0] && b[1] <= 2.0 * so, "{:?}", b);
    // 4 SO units: close to the frame buffer, which no point exceeds.
    assert!(b[2] > 0.85 * fb, "{:?}", b);
    assert!(b.iter().all(|&x| x <= fb), "{:?}", b);
    // 8 SO units: at the frame-buffer limit, as fast as 4 SO units, and at most
    // fb / so = 4x the single unit (the baseline is fair: the old one showed 4.42x).
    assert!(b[3] >= 0.97 * b[2] && b[3] > 0.85 * fb, "{:?}", b);
    assert!(b[3] / b[0] <= fb / so + 0.01, "{:?}", b);
    // SSYNC answers in-order requests in RESPONSE_LATENCY cycles in every configuration.
    let l = ppu_hdl::stream_out::ssync::RESPONSE_LATENCY as f64;
    assert!(
        p.iter()
            .all(|x| x.mean_latency >= l && x.mean_latency < l + 0.5),
        "{:?}",
        p
    );
}

#[test]
fn so14_small_split_batches_run_at_ssync_one_response_per_cycle() {
    let (_, sweep) = quick_points();
    let one = &sweep[1];
    let many = &sweep[2];
    assert_eq!((one.so_units, many.so_units), (1, 16));
    // 16 SO units: SSYNC answers about one batch/task per cycle, and the bytes follow.
    assert!(
        many.responses_per_cycle > 0.9 && many.responses_per_cycle <= 1.0,
        "{:?}",
        many
    );
    let task = many.setup.task_bytes() as f64;
    assert!(
        many.bytes_per_cycle > 0.8 * task && many.bytes_per_cycle <= task,
        "{:?}",
        many
    );
    // One SO unit, one batch/task at a time towards SSYNC, is far from that rate.
    assert!(
        one.responses_per_cycle < 0.6 * many.responses_per_cycle,
        "{:?} {:?}",
        one,
        many
    );
}

#[test]
fn so14_bench_writes_table_and_plot() {
    let dir = std::env::temp_dir().join(format!("ppu-so-bench-{}", std::process::id()));
    let r = run(&BenchOptions {
        quick: true,
        progress: false,
        out_dir: dir.clone(),
        engine: Default::default(),
    })
    .unwrap();
    assert!(r.markdown.contains("| 8 |"));
    assert!(r.markdown.contains("SSYNC responses/cycle"));
    for f in &r.files {
        assert!(f.exists(), "{}", f.display());
    }
    let svg = std::fs::read_to_string(dir.join("stream-out.svg")).unwrap();
    assert!(svg.contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The sweep's points run in parallel on worker threads (each builds clusters of up to 16 SO
/// units on its stack); the results equal a one-thread run's, point for point.
#[test]
fn so14_sweep_points_in_parallel_equal_a_serial_run() {
    let serial = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| bench::quick_points().unwrap());
    assert_eq!(&serial, quick_points());
}
