//! Prop testbench (BR-4..BR-7): random primitives and barriers over a few cache tiles (spread
//! over all 256 flags), the testbench playing the back end with random release delays and ROP
//! with random back-pressure; flags, per-tile order, non-tiled order, exactly-once and the
//! hold queue bound checked every cycle. Lint and co-simulation of the exported `prop`:
//! tests/verilog.rs.
use ppu_hdl::barrier::item::ScreenItem;
use ppu_sim::barrier::tb::{other_tiles_pass, random_prop_items, run_prop, run_prop_waves};
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn br5_other_tiles_pass_while_one_tile_is_held_with_waves() {
    let items = other_tiles_pass();
    let wave = repo_root().join("waves/prop.vcd");
    let out = TbOutput {
        vcd: Some(&wave),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let r = run_prop_waves(&out).unwrap();
    assert_eq!(r.passed, items.len());
    assert_eq!(r.releases, 2);
    assert!(r.max_hold >= 1, "tile 3's primitive was never held");
}

#[test]
fn br7_full_hold_queue_back_pressures_and_loses_nothing() {
    let mut items = vec![ScreenItem::barrier(Some(7))];
    items.extend((0..30).map(|i| ScreenItem::prim(i, 7)));
    let r = run_prop(&items, 200, 1.0, 6, &TbOutput::default()).unwrap();
    assert_eq!(r.passed, items.len());
    assert_eq!(r.max_hold, 8);
    assert!(r.input_waits > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn br4_br5_random_items_keep_flags_and_order(seed in 0u64..1_000_000, tiles in 1u64..10,
                                                 delay in 1u64..40, out_rate in 0.2f64..1.0) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let items = random_prop_items(&mut rng, tiles, 120);
        let r = run_prop(&items, delay, out_rate, seed, &TbOutput::default());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}
