//! Crossbar testbench (SO-8, SO-9) against a model of the routing and its fairness. Lint and
//! co-simulation: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::stream_out::tb::so_crossbar::{canonical_waves, run_crossbar};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn so9_crossbar_routes_with_source_index(seed in 0u64..1_000_000) {
        let r = run_crossbar(seed, 600, &TbOutput::default());
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}

#[test]
fn so9_crossbar_waves() {
    let vcd = repo_root().join("waves").join("so_crossbar.vcd");
    let r = canonical_waves(&vcd).unwrap();
    assert!(r.firsts > 50 && r.seconds > 50 && r.responses > 30);
}
