//! SO-14 experiment in quick mode: the claimed trend, not fixed numbers. More SO units give
//! more bytes/cycle until the frame-buffer bandwidth is reached; one SO unit (prior art) cannot
//! exceed its own write bandwidth; every point is a golden-checked run.
use ppu_sim::bench::BenchOptions;
use ppu_sim::stream_out::bench::{quick_points, run, FB_BYTES_PER_CYCLE, SO_BYTES_PER_CYCLE};

#[test]
fn so14_bandwidth_grows_with_so_units_until_the_frame_buffer_limit() {
    let p = quick_points().unwrap();
    let bpc: Vec<f64> = p.iter().map(|x| x.bytes_per_cycle).collect();
    // One SO unit is bounded by its own write bandwidth.
    assert!(bpc[0] <= SO_BYTES_PER_CYCLE as f64, "{:?}", bpc);
    // 2 and 4 units: clearly more than the baseline, growing.
    assert!(bpc[1] > 1.5 * bpc[0], "{:?}", bpc);
    assert!(bpc[2] > 1.3 * bpc[1], "{:?}", bpc);
    // Never above the frame buffer; 8 units at least as fast as 4.
    assert!(
        bpc.iter().all(|&b| b <= FB_BYTES_PER_CYCLE as f64),
        "{:?}",
        bpc
    );
    assert!(bpc[3] >= bpc[2] * 0.95, "{:?}", bpc);
    // SSYNC answers in-order requests in one cycle in every configuration.
    assert!(p.iter().all(|x| x.mean_latency >= 1.0), "{:?}", p);
}

#[test]
fn so14_bench_writes_table_and_plot() {
    let dir = std::env::temp_dir().join(format!("ppu-so-bench-{}", std::process::id()));
    let r = run(&BenchOptions {
        quick: true,
        progress: false,
        out_dir: dir.clone(),
    })
    .unwrap();
    assert!(r.markdown.contains("| 8 |"));
    for f in &r.files {
        assert!(f.exists(), "{}", f.display());
    }
    let svg = std::fs::read_to_string(dir.join("stream-out.svg")).unwrap();
    assert!(svg.contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}
