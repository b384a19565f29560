//! CommandTree testbench (ST-4, ST-5, ST-7): broadcast halt/reset/resume and per-unit lines reach
//! every unit exactly TREE_STAGES cycles later, against the golden delay-line model.
//! Lint and co-simulation of the exported `command_tree`: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::status::tb::run_command_tree;
use ppu_sim::tb::TbOutput;

#[test]
fn st4_reference_command_tree_and_waves() {
    let vcd = repo_root().join("waves").join("command_tree.vcd");
    let run = run_command_tree::<8, 3>(
        400,
        1,
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
            engine: ppu_sim::verilator::Engine::Harness,
        },
    )
    .unwrap();
    assert!(!run.halt_latency.is_empty());
    for (issued, seen) in run.halt_latency {
        assert_eq!(seen - issued, 3);
    }
}

#[test]
fn st4_command_latency_is_tree_stages_for_every_depth() {
    let o = TbOutput::default();
    for seed in 0..3 {
        let r = run_command_tree::<32, 4>(1500, seed, &o).unwrap();
        assert!(!r.halt_latency.is_empty(), "seed {}: no halt seen", seed);
        assert!(r.halt_latency.iter().all(|(i, s)| s - i == 4));
        let r = run_command_tree::<5, 1>(1500, seed, &o).unwrap();
        assert!(!r.halt_latency.is_empty(), "seed {}: no halt seen", seed);
        assert!(r.halt_latency.iter().all(|(i, s)| s - i == 1));
        let r = run_command_tree::<12, 3>(1500, seed, &o).unwrap();
        assert!(!r.halt_latency.is_empty());
        assert!(r.halt_latency.iter().all(|(i, s)| s - i == 3));
    }
}
