//! SoftPutAllocator testbench (WQ-5, WQ-6): set-up, granted and refused allocations (count 0,
//! too large, ring exhausted), shadow updates and lap counting against the golden allocator
//! model, both wrap forms, waves. Lint and co-simulation: tests/verilog.rs.
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use ppu_sim::work_queue::tb::run_allocator;
use proptest::prelude::*;

#[test]
fn wq6_allocations_grant_refuse_and_wrap_like_the_model() {
    for (form, n) in [
        (WrapForm::Compare, 5),
        (WrapForm::Compare, 13),
        (WrapForm::Pow2, 16),
        (WrapForm::Pow2, 4),
    ] {
        let r = run_allocator(form, n, 3000, n, &TbOutput::default()).unwrap();
        assert!(
            r.granted > 10 && r.refused > 10 && r.wraps > 2,
            "n={}: {:?}",
            n,
            r
        );
    }
}

#[test]
fn wq6_soft_put_allocator_waves() {
    let vcd = repo_root().join("waves").join("soft_put_allocator.vcd");
    let out = TbOutput {
        vcd: Some(&vcd),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    run_allocator(WrapForm::Compare, 7, 200, 3, &out).unwrap();
    assert!(vcd.with_extension("gtkw").exists());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn wq6_random_allocations_match_the_model(n in 4u64..=64, seed in 0u64..1000) {
        let form = if n.is_power_of_two() { WrapForm::Pow2 } else { WrapForm::Compare };
        run_allocator(form, n, 800, seed, &TbOutput::default()).map_err(TestCaseError::fail)?;
    }
}
