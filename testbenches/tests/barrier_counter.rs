//! BarrierCounter testbench (BR-4, BR-5): tokens from 2, 3, 4 and 8 pipelines at random
//! times, counted per cache tile and non-tiled, every release checked against the model on
//! its exact cycle (including back-to-back barriers of one tile, which use the count bypass).
//! Lint and co-simulation of the exported `barrier_counter`: tests/verilog.rs.
use ppu_sim::barrier::tb::{back_to_back, random_instances, run_counter, run_counter_waves};
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn br5_back_to_back_barriers_of_one_tile_with_waves() {
    let inst = back_to_back();
    let wave = repo_root().join("waves/barrier_counter.vcd");
    let out = TbOutput {
        vcd: Some(&wave),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let r = run_counter_waves(&out).unwrap();
    assert_eq!(r.releases, inst.len());
    assert_eq!(r.tokens, 2 * inst.len());
}

#[test]
fn br4_br5_random_tokens_for_several_pipeline_counts() {
    for seed in 0..4u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let inst = random_instances(&mut rng, 4, 60);
        run_counter::<2, 1>(&inst, 0.6, seed, &TbOutput::default()).unwrap();
        run_counter::<3, 2>(&inst, 0.4, seed, &TbOutput::default()).unwrap();
        run_counter::<4, 2>(&inst, 0.9, seed, &TbOutput::default()).unwrap();
        let r = run_counter::<8, 3>(&inst, 0.5, seed, &TbOutput::default()).unwrap();
        assert_eq!(r.releases, inst.len());
    }
}
