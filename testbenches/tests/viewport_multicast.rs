//! ViewportMulticast testbench (PA-2, PA-3, PA-4 strict order): masks 0, single bits, all 16
//! and random; layer offset on and off, near 2^32; random gaps and back-pressure against the
//! reference beat model; full-rate throughput. Lint and co-simulation: tests/verilog.rs.
use ppu_hdl::primitive_attributes::viewport_multicast::ViewportMulticast;
use ppu_sim::primitive_attributes::tb::beats::*;
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const NO_WAVES: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: false,
    engine: ppu_sim::verilator::Engine::Harness,
};

fn stim(layer_offset: bool, valid_prob: f64, ready_prob: f64, seed: u64) -> BeatStimulus {
    BeatStimulus {
        batch: 1,
        layer_offset,
        valid_prob,
        ready_prob,
        seed,
    }
}

fn prims(masks: &[u16], layer: u32) -> Vec<PrimIn> {
    masks
        .iter()
        .enumerate()
        .map(|(i, &mask)| PrimIn {
            mask,
            layer,
            prim: i as u32,
            instance: 7 * i as u32,
            end: i + 1 == masks.len(),
        })
        .collect()
}

#[test]
fn pa2_masks_zero_single_bits_and_all_sixteen() {
    let mut masks = vec![0u16, 0xFFFF, 0];
    masks.extend((0..16).map(|b| 1u16 << b));
    let run = run_beats::<ViewportMulticast>(
        &prims(&masks, 3),
        None,
        &stim(false, 0.8, 0.7, 1),
        &NO_WAVES,
    )
    .unwrap();
    assert_eq!(run.beats.len(), 2 + 16 + 16);
    assert_eq!(run.beats.iter().filter(|b| b.kill).count(), 2);
}

#[test]
fn pa3_layer_offset_adds_the_viewport_and_wraps_at_2_pow_32() {
    let p = prims(&[0b1000_0000_0000_0101], u32::MAX - 1);
    let run =
        run_beats::<ViewportMulticast>(&p, None, &stim(true, 1.0, 1.0, 2), &NO_WAVES).unwrap();
    let layers: Vec<u32> = run.beats.iter().map(|b| b.layer).collect();
    assert_eq!(layers, vec![u32::MAX - 1, 0, 13]);
    let run =
        run_beats::<ViewportMulticast>(&p, None, &stim(false, 1.0, 1.0, 2), &NO_WAVES).unwrap();
    assert!(run.beats.iter().all(|b| b.layer == u32::MAX - 1));
}

#[test]
fn pa2_pa3_random_primitives_under_back_pressure() {
    for seed in 0..8 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = random_prims(&mut rng, 80, None);
        let s = stim(
            seed % 2 == 0,
            0.3 + 0.1 * seed as f64,
            0.9 - 0.1 * seed as f64,
            seed,
        );
        run_beats::<ViewportMulticast>(&p, None, &s, &NO_WAVES).unwrap();
    }
}

#[test]
fn pa2_one_beat_per_cycle_at_full_rate_with_no_bubble_between_primitives() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let p = random_prims(&mut rng, 100, None);
    let run =
        run_beats::<ViewportMulticast>(&p, None, &stim(true, 1.0, 1.0, 5), &NO_WAVES).unwrap();
    // Two reset cycles, one cycle to take the first primitive, one in the pending register,
    // then a beat every cycle.
    assert_eq!(run.cycles, run.beats.len() as u64 + 4);
}

#[test]
fn pa2_canonical_waves() {
    let p = repo_root().join("waves").join("viewport_multicast.vcd");
    let out = TbOutput {
        vcd: Some(&p),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let s = BeatStimulus {
        batch: 4,
        layer_offset: true,
        valid_prob: 1.0,
        ready_prob: 0.75,
        seed: 1,
    };
    let run = run_beats::<ViewportMulticast>(&wave_prims(), None, &s, &out).unwrap();
    assert_eq!(run.beats.len(), 3 + 1 + 1 + 16 + 2);
    assert!(p.with_extension("gtkw").exists());
}
