//! FrontEndMonitor testbench (ST-5, ST-7): the context-switch sequence and the deadlock
//! watchdog against the golden monitor model, halt and drain protocols, random environments.
//! Lint and co-simulation of the exported `front_end_monitor`: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::status::tb::{run_front_end_monitor, MonitorTb, REF_CHAINS};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

#[test]
fn st5_reference_monitor_every_phase_and_waves() {
    let vcd = repo_root().join("waves").join("front_end_monitor.vcd");
    let run = run_front_end_monitor::<8, 4, 3>(
        &REF_CHAINS,
        &MonitorTb {
            cycles: 3000,
            ..MonitorTb::default()
        },
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
            engine: ppu_sim::verilator::Engine::Harness,
        },
    )
    .unwrap();
    let mut phases = run.phases_seen.clone();
    phases.sort();
    assert_eq!(phases, vec![0, 1, 2, 3, 4, 5, 6], "phases seen");
    assert!(run.switches >= 5, "{} switches", run.switches);
    assert!(run.deadlocks >= 1, "the watchdog never fired");
}

#[test]
fn st5_halt_and_drain_protocols_separately() {
    for drain in [false, true] {
        let run = run_front_end_monitor::<8, 4, 4>(
            &REF_CHAINS,
            &MonitorTb {
                cycles: 3000,
                seed: 3,
                drain_mode: Some(drain),
                ..MonitorTb::default()
            },
            &TbOutput::default(),
        )
        .unwrap();
        assert!(
            run.switches >= 5,
            "drain {}: {} switches",
            drain,
            run.switches
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn st7_random_environments_match_model(seed in 0u64..1_000_000, threshold in 0u16..40) {
        let direct: Vec<u64> = (0..6).map(|i| 1u64 << i).collect();
        let r = run_front_end_monitor::<6, 6, 3>(
            &direct,
            &MonitorTb { cycles: 1500, seed, deadlock_threshold: threshold, ..MonitorTb::default() },
            &TbOutput::default(),
        );
        prop_assert!(r.is_ok(), "{:?}", r.err());
        let r = run_front_end_monitor::<16, 3, 4>(
            &[0x00ff, 0x0f00, 0xf000],
            &MonitorTb { cycles: 1500, seed, deadlock_threshold: threshold, ..MonitorTb::default() },
            &TbOutput::default(),
        );
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}
