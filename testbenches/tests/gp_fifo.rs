//! GpFifo testbench (WQ-1, WQ-2): empty and full at every fill level for ring sizes 2..17 in
//! both wrap forms, random traffic with GPU-owned phases against the golden ring model, wrap()
//! against its definition for every x in [-n, 2n), waves. Lint and co-simulation of the
//! exported `gp_fifo` / `gp_fifo_compare`: tests/verilog.rs.
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use ppu_sim::work_queue::tb::{check_ring_wrap, run_gp_fifo};
use proptest::prelude::*;

const NO_WAVES: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: false,
    engine: ppu_sim::verilator::Engine::Harness,
};

#[test]
fn wq2_wrap_matches_its_definition_for_every_x_in_both_forms() {
    for n in [
        2u64, 3, 4, 5, 6, 7, 8, 12, 16, 17, 31, 32, 100, 128, 255, 256,
    ] {
        let checked = check_ring_wrap(WrapForm::Compare, n).unwrap();
        assert_eq!(checked, 3 * n);
        if n.is_power_of_two() {
            assert_eq!(check_ring_wrap(WrapForm::Pow2, n).unwrap(), 3 * n);
        }
    }
}

#[test]
fn wq1_empty_and_full_at_every_fill_level_sizes_2_to_17() {
    for n in 2u64..=17 {
        let mut forms = vec![WrapForm::Compare];
        if n.is_power_of_two() {
            forms.push(WrapForm::Pow2);
        }
        for form in forms {
            let r = run_gp_fifo(form, n, 400, n, &NO_WAVES).unwrap();
            // The sweep alone shows empty once (fill 0) and full once (fill n-1).
            assert!(
                r.full_seen >= 1 && r.empty_seen >= 1,
                "n={} {:?}: {:?}",
                n,
                form,
                r
            );
            assert!(r.advances > 0);
        }
    }
}

#[test]
fn wq1_a_non_power_of_two_size_with_the_and_form_is_flagged() {
    // The AND form is only correct for powers of two: the ring says so on `violation`.
    let err = run_gp_fifo(WrapForm::Pow2, 12, 10, 1, &NO_WAVES).unwrap_err();
    assert!(err.contains("violation"), "{}", err);
}

#[test]
fn wq1_gp_fifo_waves() {
    let vcd = repo_root().join("waves").join("gp_fifo.vcd");
    let out = TbOutput {
        vcd: Some(&vcd),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    run_gp_fifo(WrapForm::Compare, 12, 300, 9, &out).unwrap();
    assert!(vcd.with_extension("gtkw").exists());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn wq1_random_traffic_matches_the_ring_model(n in 2u64..=64, seed in 0u64..1000) {
        let form = if n.is_power_of_two() && seed % 2 == 0 { WrapForm::Pow2 } else { WrapForm::Compare };
        run_gp_fifo(form, n, 600, seed, &NO_WAVES).map_err(TestCaseError::fail)?;
    }
}
