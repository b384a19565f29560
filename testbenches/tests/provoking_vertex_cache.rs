//! ProvokingVertexCache testbench (PA-6): strips with first and last provoking vertex over
//! several viewports, back-to-back lookups of one tag, capacities 1, 2, 3, 7, 8, 64, random
//! streams with random gaps and result back-pressure, every result against the reference
//! model; the PA-9 figure (one miss per strip triangle with the last vertex provoking, two
//! with the first). Lint and co-simulation: tests/verilog.rs.
use ppu_sim::primitive_attributes::tb::vertex_cache::*;
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const NO_WAVES: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: false,
    engine: ppu_sim::verilator::Engine::Harness,
};

#[test]
fn pa6_strip_misses_one_per_triangle_with_last_provoking_two_with_first() {
    let n = 40;
    for capacity in [3usize, 8, 64] {
        let last = run_cache(
            &strip_lookups(n, &[0], true),
            capacity,
            1.0,
            1.0,
            1,
            &NO_WAVES,
        )
        .unwrap();
        assert_eq!(last.misses, n + 2, "capacity {}", capacity);
        let first = run_cache(
            &strip_lookups(n, &[0], false),
            capacity,
            1.0,
            1.0,
            1,
            &NO_WAVES,
        )
        .unwrap();
        if capacity >= 8 {
            assert_eq!(first.misses, 2 * n + 1, "capacity {}", capacity);
            assert_eq!(
                first.results.iter().filter(|r| r.invalidated).count(),
                n - 1
            );
        } else {
            // Three entries cannot keep the shared vertex and the copy made for the provoking
            // vertex: more misses still.
            assert!(first.misses > 2 * n + 1);
        }
    }
}

#[test]
fn pa6_provoking_vertex_never_hits_and_shared_ones_are_invalidated() {
    // v5 non-provoking, v5 provoking (shared: invalidated), v5 non-provoking (hits the copy),
    // v5 provoking again, back to back.
    let l = |vertex: u16, provoking: bool| CacheLookup {
        vertex,
        viewport: 2,
        provoking,
    };
    let seq = [
        l(5, false),
        l(5, true),
        l(5, false),
        l(5, true),
        l(6, true),
        l(6, false),
    ];
    let run = run_cache(&seq, 8, 1.0, 1.0, 1, &NO_WAVES).unwrap();
    let got: Vec<(bool, usize, bool)> = run
        .results
        .iter()
        .map(|r| (r.hit, r.slot, r.invalidated))
        .collect();
    assert_eq!(
        got,
        vec![
            (false, 0, false),
            (false, 1, true),
            (true, 1, false),
            (false, 2, true),
            (false, 3, false),
            (true, 3, false)
        ]
    );
}

#[test]
fn pa6_capacities_including_non_powers_of_two_under_back_pressure() {
    for (i, capacity) in [1usize, 2, 3, 7, 8, 31, 33, 64].iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
        let lookups = random_lookups(&mut rng, 400, 12 + 3 * i as u16);
        run_cache(&lookups, *capacity, 0.7, 0.5, i as u64, &NO_WAVES).unwrap();
    }
}

#[test]
fn pa6_strips_in_several_viewports() {
    for last in [false, true] {
        run_cache(
            &strip_lookups(30, &[0, 3, 15], last),
            16,
            0.9,
            0.8,
            4,
            &NO_WAVES,
        )
        .unwrap();
    }
}

#[test]
fn pa6_one_lookup_per_cycle_at_full_rate() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let lookups = random_lookups(&mut rng, 500, 20);
    let run = run_cache(&lookups, 32, 1.0, 1.0, 12, &NO_WAVES).unwrap();
    // Two reset cycles and a latency of four (PA-6 timing: stages A, M, B and the result).
    assert!(
        run.cycles <= lookups.len() as u64 + 2 + 4,
        "{} cycles",
        run.cycles
    );
}

#[test]
fn pa6_reference_model_keeps_tags_unique() {
    let mut m = RefCache::new(4);
    for v in [1u16, 1, 2, 1, 2, 3, 4, 5, 1] {
        m.lookup(CacheLookup {
            vertex: v,
            viewport: 0,
            provoking: v % 2 == 1,
        })
        .unwrap();
    }
}

#[test]
fn pa6_canonical_waves() {
    let p = repo_root().join("waves").join("provoking_vertex_cache.vcd");
    let out = TbOutput {
        vcd: Some(&p),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let run = run_cache_waves(&out).unwrap();
    assert!(run.results.iter().any(|r| r.invalidated));
    assert!(p.with_extension("gtkw").exists());
}
