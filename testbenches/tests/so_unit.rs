//! SO unit testbench (SO-5, SO-7, SO-9, SO-11, SO-12) against a reference model of its requests
//! and writes. Lint and co-simulation: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::stream_out::tb::so_unit::{canonical_waves, run_so_unit, SoUnitTb, UnitJob};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

/// Run a directed testbench with its waves in `waves/<name>.vcd` (+ `.gtkw`).
fn with_waves<R>(name: &str, f: impl FnOnce(&TbOutput) -> R) -> R {
    let vcd = repo_root().join("waves").join(format!("{}.vcd", name));
    f(&TbOutput {
        vcd: Some(&vcd),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    })
}

#[test]
fn so11_so_unit_writes_exactly_its_bytes_at_its_offsets_with_waves() {
    let vcd = repo_root().join("waves").join("so_unit.vcd");
    let r = canonical_waves(&vcd).unwrap();
    assert!(r.bytes_written > 0);
}

#[test]
fn so12_so_unit_skips_a_job_that_does_not_fit() {
    let mut tb = SoUnitTb::random(4, 30);
    tb.sizes = [200, 150, 1 << 16, 100];
    let r = run_so_unit(&tb, &TbOutput::default()).unwrap();
    assert!(r.overflows > 0, "no job overflowed");
}

/// A job writing `bytes` to each buffer (shader latency 0, answered at once).
fn unit_job(k: u16, bytes: [u32; 4]) -> UnitJob {
    UnitJob {
        batch_id: 40 + k,
        task: 0,
        last: true,
        attrs: (0..4)
            .filter(|&i| bytes[i] > 0)
            .map(|i| (i, bytes[i]))
            .collect(),
        latency: 0,
        resp_delay: 0,
    }
}

fn directed(jobs: Vec<UnitJob>, bytes_per_cycle: u32) -> SoUnitTb {
    SoUnitTb {
        jobs,
        bytes_per_cycle,
        sizes: [1 << 20; 4],
        wr_ready_prob: 1.0,
        start_ssobo: [0; 4],
        seed: 7,
        max_cycles: 2000,
    }
}

#[test]
fn so12_buffer_written_with_zero_bytes_fits_although_its_offset_is_past_its_end() {
    // An offset bundle left buffer 1's offset past its end. Jobs that write nothing to buffer 1
    // fit (SO-12) and are written; the one that writes 4 bytes there overflows.
    let mut tb = directed(
        vec![
            unit_job(0, [64, 0, 32, 0]),
            unit_job(1, [16, 4, 0, 0]),
            unit_job(2, [0, 0, 0, 48]),
        ],
        16,
    );
    tb.sizes = [1024, 100, 1024, 1024];
    tb.start_ssobo = [0, 200, 0, 0];
    let r = with_waves("so_unit_zero_bytes_past_end", |o| run_so_unit(&tb, o)).unwrap();
    assert_eq!(r.overflows, 1, "only the job writing to buffer 1 overflows");
    assert_eq!(r.bytes_written, 64 + 32 + 48);
}

#[test]
fn so14_so_unit_writes_back_to_back_skipping_empty_buffers_and_across_jobs() {
    // Three jobs of 48 transfers each (16 bytes per cycle), buffers 1 and 3 empty: with the
    // memory accepting every cycle, the writes of all jobs follow each other with no bubble
    // (no cycle spent on an empty buffer, a buffer boundary or a hand-over).
    let jobs = (0..3).map(|k| unit_job(k, [256, 0, 512, 0])).collect();
    let r = run_so_unit(&directed(jobs, 16), &TbOutput::default()).unwrap();
    assert_eq!(r.transfers, 3 * 48);
    let span = r.last_write.unwrap() - r.first_write.unwrap() + 1;
    assert_eq!(span, r.transfers, "write cycles from first to last");
}

#[test]
fn so11_job_with_no_bytes_writes_nothing_and_finishes() {
    let jobs = vec![
        unit_job(0, [0; 4]),
        unit_job(1, [8, 8, 8, 8]),
        unit_job(2, [0; 4]),
    ];
    let r = run_so_unit(&directed(jobs, 4), &TbOutput::default()).unwrap();
    assert_eq!((r.bytes_written, r.transfers, r.overflows), (32, 8, 0));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn so7_so_unit_random_jobs_bandwidths_and_stalls(seed in 0u64..1_000_000, bpc in 1u32..70, ready in 0.2f64..1.0) {
        let mut tb = SoUnitTb::random(seed, 10);
        tb.bytes_per_cycle = bpc;
        tb.wr_ready_prob = ready;
        let r = run_so_unit(&tb, &TbOutput::default());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}
