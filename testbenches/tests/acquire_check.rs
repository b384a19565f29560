//! AcquireCheck testbench (WQ-4): the five conditions of the public host-interface semaphore
//! acquire against their definitions on edge values (circular >= across the 32-bit wrap
//! included) and random values, illegal codes refused, waves. Lint and co-simulation of the
//! exported `acquire_check`: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use ppu_sim::work_queue::golden::{acquire_satisfied, AcquireCondition};
use ppu_sim::work_queue::tb::run_acquire_check;

#[test]
fn wq4_five_conditions_match_their_definitions() {
    let r = run_acquire_check(20_000, 11, &TbOutput::default()).unwrap();
    assert_eq!(r.checks, 8 * 64 + 20_000);
    // Codes 5..7 are not conditions: never satisfied.
    assert_eq!(r.satisfied[5] + r.satisfied[6] + r.satisfied[7], 0);
    for code in 0..5 {
        assert!(r.satisfied[code] > 0, "condition {} never held", code);
    }
}

#[test]
fn wq4_circular_geq_across_the_wrap_is_signed_difference() {
    // Independent of the RTL: the golden reading of circular >= (signed difference >= 0).
    let c = AcquireCondition::CircGeq;
    assert!(acquire_satisfied(c, 0x0000_0002, 0xFFFF_FFFE));
    assert!(!acquire_satisfied(c, 0xFFFF_FFFE, 0x0000_0002));
    assert!(!acquire_satisfied(
        AcquireCondition::Geq,
        0x0000_0002,
        0xFFFF_FFFE
    ));
    assert!(acquire_satisfied(
        AcquireCondition::Nor,
        0xF0F0_F0F0,
        0x0F0F_0F0E
    ));
    assert!(!acquire_satisfied(
        AcquireCondition::Nor,
        0xF0F0_F0F0,
        0x0F0F_0F0F
    ));
}

#[test]
fn wq4_acquire_check_waves() {
    let vcd = repo_root().join("waves").join("acquire_check.vcd");
    let out = TbOutput {
        vcd: Some(&vcd),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    run_acquire_check(50, 2, &out).unwrap();
    assert!(vcd.with_extension("gtkw").exists());
}
