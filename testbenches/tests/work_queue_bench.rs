//! WQ-11 experiment in quick mode: the claim's direction, not fixed numbers. Nested work
//! created on the GPU (no CPU round trip) against the CPU-mediated baseline (a level's kernels
//! end, the CPU is notified over the bus, the CPU writes the next level's entry and GP_PUT), on
//! chains of K levels. Every GPU-created run's trace passed the golden check (WQ-8) inside
//! `measure`.
use ppu_sim::bench::BenchOptions;
use ppu_sim::work_queue::bench::{self, Point, BUS_LATENCIES, REFERENCE_BUS};
use std::sync::OnceLock;

/// The quick points, measured once for every test of this file.
fn quick_points() -> &'static Vec<Point> {
    static P: OnceLock<Vec<Point>> = OnceLock::new();
    P.get_or_init(|| bench::quick_points().unwrap())
}

fn wq_range(p: &Point) -> bool {
    p.setup.bus_latency >= BUS_LATENCIES[0]
}

#[test]
fn wq11_gpu_created_is_faster_at_every_bus_latency_of_500_or_more() {
    let p = quick_points();
    assert!(p.iter().filter(|x| wq_range(x)).count() >= 16, "{:?}", p);
    for x in p.iter().filter(|x| wq_range(x)) {
        assert!(x.gpu.cycles < x.cpu.cycles, "{:?}", x);
    }
}

#[test]
fn wq11_cpu_interactions_are_one_gpu_created_and_one_plus_2k_cpu_mediated() {
    for x in quick_points() {
        let k = x.setup.k as u64;
        assert_eq!(x.gpu.cpu_interactions, 1, "{:?}", x);
        assert_eq!(x.cpu.cpu_interactions, 1 + 2 * k, "{:?}", x);
    }
}

#[test]
fn wq11_advantage_grows_with_k_at_fixed_bus_latency() {
    let p = quick_points();
    let mut rows = 0;
    for x in p.iter().filter(|x| wq_range(x)) {
        // The same workload and bus latency one level deeper.
        let Some(y) = p.iter().find(|y| {
            y.setup.k == x.setup.k + 1
                && y.setup.workload == x.setup.workload
                && y.setup.bus_latency == x.setup.bus_latency
        }) else {
            continue;
        };
        rows += 1;
        assert!(y.saved() > x.saved(), "{:?} {:?}", x, y);
        assert!(y.speedup() > x.speedup(), "{:?} {:?}", x, y);
        // Each level saves at least the baseline's round trip (2 x bus) less the mechanism's
        // own per-level work, which is far below one bus latency.
        let b = x.setup.bus_latency as i64;
        assert!(y.saved() - x.saved() >= 2 * b - b / 10, "{:?} {:?}", x, y);
    }
    assert!(rows >= 12, "{}", rows);
    let (yes, all) = bench::advantage_grows(p, BUS_LATENCIES[0]);
    assert_eq!(yes, all);
}

#[test]
fn wq11_without_bus_latency_levels_that_cannot_overlap_gain_nothing() {
    // The reference that makes the baseline fair: no bus, and threads that create the next
    // level only when their kernel's time is over. Then both modes do the same work within a
    // few percent, so the advantage above comes from the bus round trips.
    let p = quick_points();
    let late: Vec<&Point> = p
        .iter()
        .filter(|x| x.setup.bus_latency == REFERENCE_BUS)
        .filter(|x| x.setup.workload.start >= x.setup.workload.block_cycles)
        .collect();
    assert!(!late.is_empty());
    for x in late {
        assert!((x.speedup() - 1.0).abs() < 0.05, "{:?}", x);
    }
}

#[test]
fn wq11_bench_writes_table_and_plot() {
    let dir = std::env::temp_dir().join(format!("ppu-wq-bench-{}", std::process::id()));
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
    assert!(r.markdown.contains("| 4 | 1 / 9 |"));
    for f in &r.files {
        assert!(f.exists(), "{}", f.display());
    }
    let svg = std::fs::read_to_string(dir.join("work-queue.svg")).unwrap();
    assert!(svg.contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}
