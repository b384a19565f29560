//! RollupTree testbench (ST-4): random trees (chains) and stage counts against the golden
//! delay-line-of-ANDs model; the front end sees "all halted" exactly TREE_STAGES cycles after
//! every unit is HALTED. Lint and co-simulation of the exported `rollup_tree`: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::status::tb::{run_rollup_tree, RollupRun, REF_CHAINS};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random partition of `n` units into `g` non-empty chains (masks).
fn random_chains(n: usize, g: usize, seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.gen_range(0..=i));
    }
    let mut chains = vec![0u64; g];
    for (k, u) in order.iter().enumerate() {
        let c = if k < g { k } else { rng.gen_range(0..g) };
        chains[c] |= 1 << u;
    }
    chains
}

/// "all halted" at the front end exactly `s` cycles after the units were all HALTED, and never
/// otherwise (ignoring windows that a reset cuts).
fn check_latency(run: &RollupRun, s: u64, cycles: u64) {
    let near_reset = |c: u64| run.resets.iter().any(|&r| r <= c && c <= r + s);
    let mut checked = 0;
    for &c in &run.all_halted_true {
        if c + s < cycles && !near_reset(c + s) && !run.resets.iter().any(|&r| r >= c && r < c + s)
        {
            assert!(
                run.all_halted_seen.contains(&(c + s)),
                "all HALTED at {} but not seen at {}",
                c,
                c + s
            );
            checked += 1;
        }
    }
    for &c in &run.all_halted_seen {
        if c >= s && !near_reset(c) {
            assert!(
                run.all_halted_true.contains(&(c - s)),
                "front end saw all halted at {} but the units were not all HALTED at {}",
                c,
                c - s
            );
        }
    }
    assert!(checked > 5, "too few all-halted moments ({})", checked);
}

#[test]
fn st4_reference_tree_waves_and_latency() {
    let vcd = repo_root().join("waves").join("rollup_tree.vcd");
    let run = run_rollup_tree::<8, 4, 3>(
        &REF_CHAINS,
        600,
        1,
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
            engine: ppu_sim::verilator::Engine::Harness,
        },
    )
    .unwrap();
    check_latency(&run, 3, 600);
}

#[test]
fn st4_every_unit_direct_and_one_chain_of_all() {
    let direct: Vec<u64> = (0..8).map(|i| 1u64 << i).collect();
    check_latency(
        &run_rollup_tree::<8, 8, 4>(&direct, 1500, 2, &TbOutput::default()).unwrap(),
        4,
        1500,
    );
    check_latency(
        &run_rollup_tree::<8, 1, 3>(&[0xff], 1500, 3, &TbOutput::default()).unwrap(),
        3,
        1500,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn st4_random_trees_and_stage_counts(seed in 0u64..1_000_000) {
        let o = TbOutput::default();
        let c = random_chains(8, 3, seed);
        check_latency(&run_rollup_tree::<8, 3, 3>(&c, 1200, seed, &o).unwrap(), 3, 1200);
        let c = random_chains(16, 5, seed);
        check_latency(&run_rollup_tree::<16, 5, 4>(&c, 1500, seed, &o).unwrap(), 4, 1500);
        let c = random_chains(5, 2, seed);
        check_latency(&run_rollup_tree::<5, 2, 1>(&c, 1200, seed, &o).unwrap(), 1, 1200);
        let c = random_chains(32, 9, seed);
        let r = run_rollup_tree::<32, 9, 3>(&c, 1500, seed, &o);
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}
