//! OrderSequencer testbench (PA-4 viewport order, with PA-2 and PA-3): batch sizes 1, 3, 16,
//! 256; partial batches closed by `in_end`; masks 0, single bits, all 16 and random; layer
//! offset near 2^32; random gaps and back-pressure against the reference beat model; the same
//! beats as strict order for a batch of 1 and the same multiset for any batch. Lint and
//! co-simulation: tests/verilog.rs.
use ppu_hdl::primitive_attributes::order_sequencer::OrderSequencer;
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

fn stim(batch: usize, seed: u64) -> BeatStimulus {
    BeatStimulus {
        batch,
        layer_offset: seed % 2 == 0,
        valid_prob: 0.7,
        ready_prob: 0.6,
        seed,
    }
}

#[test]
fn pa4_batches_of_1_3_16_and_256_with_partial_batches() {
    for (i, &batch) in [1usize, 3, 16, 256].iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
        let p = random_prims(&mut rng, if batch == 256 { 300 } else { 70 }, Some(23));
        let run = run_beats::<OrderSequencer>(&p, Some(batch), &stim(batch, i as u64), &NO_WAVES)
            .unwrap();
        assert_eq!(run.beats, reference_beats(&p, Some(batch), i % 2 == 0));
    }
}

#[test]
fn pa4_batch_of_one_is_strict_order_and_any_batch_the_same_multiset() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut p = random_prims(&mut rng, 50, None);
    let strict = run_beats::<ViewportMulticast>(&p, None, &stim(1, 4), &NO_WAVES).unwrap();
    let one = run_beats::<OrderSequencer>(&p, Some(1), &stim(1, 4), &NO_WAVES).unwrap();
    assert_eq!(strict.beats, one.beats);
    for q in p.iter_mut() {
        q.end = false;
    }
    if let Some(l) = p.last_mut() {
        l.end = true;
    }
    let seven = run_beats::<OrderSequencer>(&p, Some(7), &stim(7, 4), &NO_WAVES).unwrap();
    let key = |b: &Beat| (b.prim, b.viewport, b.kill, b.layer);
    let (mut a, mut b): (Vec<_>, Vec<_>) = (
        strict.beats.iter().map(key).collect(),
        seven.beats.iter().map(key).collect(),
    );
    assert_ne!(a, b);
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn pa4_viewport_order_sends_all_of_the_lowest_viewport_first() {
    let masks = [0b110u16, 0b011, 0, 0b100];
    let p: Vec<PrimIn> = masks
        .iter()
        .enumerate()
        .map(|(i, &mask)| PrimIn {
            mask,
            layer: 10,
            prim: i as u32,
            instance: i as u32,
            end: i == 3,
        })
        .collect();
    let run = run_beats::<OrderSequencer>(&p, Some(4), &stim(4, 2), &NO_WAVES).unwrap();
    let seq: Vec<(u32, u32, bool)> = run
        .beats
        .iter()
        .map(|b| (b.prim, b.viewport, b.kill))
        .collect();
    assert_eq!(
        seq,
        vec![
            (2, 0, true),
            (1, 0, false),
            (0, 1, false),
            (1, 1, false),
            (0, 2, false),
            (3, 2, false)
        ]
    );
    // Layer offset (even seed): layer + viewport.
    assert_eq!(run.beats[2].layer, 11);
    assert!(run.beats[1].first && !run.beats[1].last && run.beats[3].last);
}

#[test]
fn pa3_random_primitives_under_back_pressure() {
    for seed in 10..16 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = random_prims(&mut rng, 90, Some(11));
        let s = BeatStimulus {
            batch: 1 + (seed as usize % 9),
            layer_offset: true,
            valid_prob: 0.5,
            ready_prob: 0.4,
            seed,
        };
        run_beats::<OrderSequencer>(&p, Some(s.batch), &s, &NO_WAVES).unwrap();
    }
}

#[test]
fn pa4_canonical_waves() {
    let p = repo_root().join("waves").join("order_sequencer.vcd");
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
    run_beats::<OrderSequencer>(&wave_prims(), Some(4), &s, &out).unwrap();
    assert!(p.with_extension("gtkw").exists());
}
