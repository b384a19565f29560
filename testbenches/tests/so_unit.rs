//! SO unit testbench (SO-5, SO-7, SO-9, SO-11, SO-12) against a reference model of its requests
//! and writes. Lint and co-simulation: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::stream_out::tb::so_unit::{canonical_waves, run_so_unit, SoUnitTb};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

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
