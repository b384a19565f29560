//! Batch-ID generator testbench (SO-1, SO-2, SO-13) against a model of the ID window. Lint and
//! co-simulation: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::stream_out::tb::batch_id_gen::{canonical_waves, run_batch_id_gen, IdGenTb};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn so1_batch_id_gen_matches_model(seed in 0u64..1_000_000, take in 0.3f64..1.0, retire in 0.05f64..0.9) {
        let tb = IdGenTb { seed, cycles: 800, take_prob: take, retire_prob: retire, bogus_prob: 0.02 };
        let r = run_batch_id_gen(&tb, &TbOutput::default());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}

#[test]
fn so1_batch_id_gen_stalls_on_collision_and_wraps_with_phase() {
    // Slow retirement: the 16-slot window fills and the generator stalls; 40,000 cycles of
    // traffic hand out more than 16,384 IDs, so the counter wraps and the phase bit flips.
    let vcd = repo_root().join("waves").join("batch_id_gen.vcd");
    let short = canonical_waves(&vcd).unwrap();
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
