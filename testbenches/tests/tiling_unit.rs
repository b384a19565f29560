//! TilingUnit testbench (BR-3, BR-4, BR-5): random entry streams with barriers of both kinds,
//! random gaps and back-pressure, every output and flush against the reference model; the
//! directed cases the requirements name (threshold of one, a tiled barrier over empty tiles,
//! back-to-back and mixed barriers). Lint and co-simulation of the exported `tiling_unit`:
//! tests/verilog.rs.
use ppu_sim::barrier::tb::{random_inputs, run_tiling, run_tiling_waves, RefTiling, TuInput};
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn quiet() -> TbOutput<'static> {
    TbOutput::default()
}

fn e(prim: u64, tile: u64) -> TuInput {
    TuInput::Entry { prim, tile }
}

#[test]
fn br5_tiled_barrier_goes_into_every_tile_batch_including_empty_ones() {
    // 4 tiles; entries on tiles 1 and 3 only; one tiled barrier between two entries of tile 1.
    let inputs = vec![e(0, 1), e(1, 3), TuInput::Tiled, e(2, 1), TuInput::End];
    let mut m = RefTiling::new(4, 64);
    inputs.iter().for_each(|&i| m.input(i));
    // One batch per tile: tile 0 only the barrier, tile 1 [0, B, 2], tile 2 [B], tile 3 [1, B].
    assert_eq!(
        m.out,
        vec![
            (1, 0, 0),
            (0, 0, 1),
            (1, 0, 1),
            (0, 2, 1),
            (1, 0, 2),
            (0, 1, 3),
            (1, 0, 3)
        ]
    );
    let r = run_tiling(4, 64, &inputs, 1.0, 1.0, 1, &quiet()).unwrap();
    assert_eq!(r.outputs, 7);
    assert_eq!(r.flushes, 1);
}

#[test]
fn br3_threshold_of_one_primitive_flushes_every_entry() {
    let inputs = vec![
        e(0, 0),
        e(0, 2),
        e(1, 1),
        TuInput::NonTiled,
        e(2, 0),
        TuInput::End,
    ];
    let r = run_tiling(3, 1, &inputs, 1.0, 1.0, 2, &quiet()).unwrap();
    // Four threshold flushes, the barrier's flush and the end's flush (both empty).
    assert_eq!(r.flushes, 6);
}

#[test]
fn br8_back_to_back_and_mixed_barriers_with_waves() {
    let wave = repo_root().join("waves/tiling_unit.vcd");
    let out = TbOutput {
        vcd: Some(&wave),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let r = run_tiling_waves(&out).unwrap();
    // Flushes: the first non-tiled barrier (3 entries, 3 tiled barriers: 3 rounds x 3 tiles),
    // the second (empty), the end (1 entry, 1 tiled barrier).
    assert_eq!(r.flushes, 3);
    assert_eq!(r.outputs, 3 + 9 + 2 + 1 + 3);
}

#[test]
fn br3_random_streams_every_capacity_power_of_two_and_not() {
    for (k, &(tiles, cap)) in [
        (1, 1),
        (2, 3),
        (5, 4),
        (8, 7),
        (16, 64),
        (256, 9),
        (3, 256),
        (40, 5),
        (100, 13),
    ]
    .iter()
    .enumerate()
    {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + k as u64);
        let inputs = random_inputs(&mut rng, tiles, 60);
        let r = run_tiling(tiles, cap, &inputs, 0.8, 0.6, k as u64, &quiet())
            .unwrap_or_else(|e| panic!("tiles {} capacity {}: {}", tiles, cap, e));
        assert!(r.outputs > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn br3_br5_random_streams_match_the_model(seed in 0u64..1_000_000, tiles in 1u64..12, cap in 1u64..20,
                                                in_rate in 0.3f64..1.0, out_rate in 0.2f64..1.0) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let inputs = random_inputs(&mut rng, tiles, 30);
        let r = run_tiling(tiles, cap, &inputs, in_rate, out_rate, seed, &quiet());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}
