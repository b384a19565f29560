//! SO unit, batch-ID generator and crossbar testbenches (SO-1, SO-2, SO-5, SO-7, SO-8, SO-11,
//! SO-12, SO-13) against reference models. Lint and co-simulation: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::stream_out::tb::{run_batch_id_gen, run_crossbar, run_so_unit, IdGenTb, SoUnitTb};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

#[test]
fn so11_so_unit_writes_exactly_its_bytes_at_its_offsets_with_waves() {
    let vcd = repo_root().join("waves").join("so_unit.vcd");
    let r = run_so_unit(
        &SoUnitTb::random(1, 12),
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
        },
    )
    .unwrap();
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

    #[test]
    fn so1_batch_id_gen_matches_model(seed in 0u64..1_000_000, take in 0.3f64..1.0, retire in 0.05f64..0.9) {
        let tb = IdGenTb { seed, cycles: 800, take_prob: take, retire_prob: retire, bogus_prob: 0.02 };
        let r = run_batch_id_gen(&tb, &TbOutput::default());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }

    #[test]
    fn so9_crossbar_routes_with_source_index(seed in 0u64..1_000_000) {
        let r = run_crossbar(seed, 600, &TbOutput::default());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}

#[test]
fn so1_batch_id_gen_stalls_on_collision_and_wraps_with_phase() {
    // Slow retirement: the 16-slot window fills and the generator stalls; 40,000 cycles of
    // traffic hand out more than 16,384 IDs, so the counter wraps and the phase bit flips.
    let vcd = repo_root().join("waves").join("batch_id_gen.vcd");
    let short = run_batch_id_gen(
        &IdGenTb {
            retire_prob: 0.1,
            ..IdGenTb::random(2, 400)
        },
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
        },
    )
    .unwrap();
    assert!(short.stall_cycles > 0, "the window never filled");
    assert!(short.violations > 0, "no bogus retire was flagged");
    let long = run_batch_id_gen(
        &IdGenTb {
            take_prob: 0.95,
            retire_prob: 0.9,
            ..IdGenTb::random(3, 40_000)
        },
        &TbOutput::default(),
    )
    .unwrap();
    assert!(
        long.handed_out > 16_384 && long.wraps >= 1,
        "{:?}",
        long.handed_out
    );
}

#[test]
fn so9_crossbar_waves() {
    let vcd = repo_root().join("waves").join("so_crossbar.vcd");
    let r = run_crossbar(
        1,
        300,
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
        },
    )
    .unwrap();
    assert!(r.firsts > 50 && r.seconds > 50 && r.responses > 30);
}
