//! ViewportSwizzle and SwizzleAdapter testbench (PA-5): every code on every component with
//! special bit patterns, the adapter over all 65,536 register values, random writes and
//! vertices under back-pressure against the golden swizzle. Lint and co-simulation:
//! tests/verilog.rs.
use ppu_sim::primitive_attributes::golden::swizzle;
use ppu_sim::primitive_attributes::tb::swizzle::*;
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
fn pa5_adapter_matches_the_golden_adapter_on_every_register_value() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let (refused, _) = run_adapter(&all, &NO_WAVES).unwrap();
    // 2^16 values, 2^12 of them without a reserved bit.
    assert_eq!(refused, 65536 - 4096);
}

#[test]
fn pa5_every_code_on_every_component_passes_special_bit_patterns_exactly() {
    // One write per code (0..7 in every field), then the special patterns through it.
    let mut items = vec![];
    for f in 0..8u16 {
        let code = f | f << 3 | f << 6 | f << 9;
        let vp = f as u8;
        items.push(SwizzleItem::Write(vp, code, false));
        for (i, chunk) in SPECIAL.chunks(4).enumerate() {
            let v = [chunk[0], chunk[1], chunk[2], chunk[3]];
            items.push(SwizzleItem::Vertex(vp, v, i as u8));
        }
    }
    let run = run_swizzle(&items, 1.0, 1.0, 1, &NO_WAVES).unwrap();
    assert_eq!(run.vertices, 16);
    // The golden model itself: -x of -0.0 is +0.0, of a NaN flips only the sign.
    assert_eq!(
        swizzle(
            1 | 1 << 3 | 1 << 6 | 1 << 9,
            [0x8000_0000, 0x7fc0_0001, 0, 0]
        )[0],
        0
    );
    assert_eq!(swizzle(3, [0, 0x7fc0_0001, 0, 0])[0], 0xffc0_0001);
}

#[test]
fn pa5_random_writes_and_vertices_under_back_pressure() {
    let mut refused = 0;
    for seed in 0..6 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let items = random_swizzle_items(&mut rng, 400);
        let run = run_swizzle(&items, 0.7, 0.5, seed, &NO_WAVES).unwrap();
        assert!(run.vertices > 300);
        refused += run.refused_writes;
    }
    assert!(refused > 0, "no refused register write was exercised");
}

#[test]
fn pa5_one_vertex_per_cycle_at_full_rate() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let items: Vec<SwizzleItem> = random_swizzle_items(&mut rng, 300)
        .into_iter()
        .filter(|i| matches!(i, SwizzleItem::Vertex(..)))
        .collect();
    let run = run_swizzle(&items, 1.0, 1.0, 9, &NO_WAVES).unwrap();
    // Two reset cycles and a latency of two.
    assert!(
        run.cycles <= items.len() as u64 + 2 + 2,
        "{} cycles",
        run.cycles
    );
}

#[test]
fn pa5_canonical_waves() {
    let p = repo_root().join("waves").join("viewport_swizzle.vcd");
    let out = TbOutput {
        vcd: Some(&p),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let run = run_swizzle(&wave_items(), 1.0, 0.7, 1, &out).unwrap();
    assert_eq!(run.refused_writes, 1);
    assert!(p.with_extension("gtkw").exists());
}
