//! StreamFifo testbench: random valid/ready against a queue model, power-of-two
//! and other depths, reset in flight, waves. Lint and co-simulation of the exported unit: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use ppu_sim::widgets::{run_fifo, TbConfig};

fn cfg(seed: u64) -> TbConfig {
    TbConfig {
        cycles: 3000,
        seed,
        ..TbConfig::default()
    }
}

#[test]
fn x2_fifo_depth_6_matches_queue_model_and_writes_waves() {
    let vcd = repo_root().join("waves").join("stream_fifo.vcd");
    let r = run_fifo::<6, 3, 3>(
        &TbConfig {
            cycles: 200,
            ..cfg(1)
        },
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
            engine: ppu_sim::verilator::Engine::Harness,
        },
    )
    .unwrap();
    assert!(
        r.transfers_out > 50,
        "too little traffic: {:?}",
        r.transfers_out
    );
}

#[test]
fn x2_fifo_power_of_two_and_odd_depths_match_queue_model() {
    let o = TbOutput::default();
    for seed in 1..4 {
        let r1 = run_fifo::<1, 1, 1>(&cfg(seed), &o).unwrap();
        let r4 = run_fifo::<4, 2, 3>(&cfg(seed), &o).unwrap();
        let r5 = run_fifo::<5, 3, 3>(&cfg(seed), &o).unwrap();
        let r8 = run_fifo::<8, 3, 4>(&cfg(seed), &o).unwrap();
        let r3 = run_fifo::<3, 2, 2>(&cfg(seed), &o).unwrap();
        for r in [&r1, &r4, &r5, &r8, &r3] {
            assert!(r.transfers_out > 500);
        }
    }
}

#[test]
fn x2_fifo_fills_completely_under_backpressure_and_drains_at_full_rate() {
    let o = TbOutput::default();
    let full = run_fifo::<5, 3, 3>(
        &TbConfig {
            valid_prob: 0.95,
            ready_prob: 0.1,
            ..cfg(7)
        },
        &o,
    )
    .unwrap();
    assert_eq!(full.max_fill, 5, "the FIFO never filled");
    let fast = run_fifo::<5, 3, 3>(
        &TbConfig {
            valid_prob: 1.0,
            ready_prob: 1.0,
            ..cfg(8)
        },
        &o,
    )
    .unwrap();
    // One word per cycle in steady state: only the reset cycle and the first fill cycle are lost.
    assert!(
        fast.transfers_out >= fast.cycles - 2,
        "{} of {}",
        fast.transfers_out,
        fast.cycles
    );
}

#[test]
fn x2_fifo_reset_in_flight_empties_it() {
    let c = TbConfig {
        resets: vec![100, 101, 700, 1500],
        ..cfg(11)
    };
    run_fifo::<6, 3, 3>(&c, &TbOutput::default()).unwrap();
}

#[test]
fn x2_skid_buffer_keeps_full_throughput_and_order() {
    // SkidBuffer = StreamFifo<T, 2, 1, 2>: same queue model, full rate when never stalled.
    let o = TbOutput::default();
    let fast = run_fifo::<2, 1, 2>(
        &TbConfig {
            valid_prob: 1.0,
            ready_prob: 1.0,
            ..cfg(21)
        },
        &o,
    )
    .unwrap();
    assert!(fast.transfers_out >= fast.cycles - 2);
    let slow = run_fifo::<2, 1, 2>(
        &TbConfig {
            valid_prob: 0.9,
            ready_prob: 0.3,
            ..cfg(22)
        },
        &o,
    )
    .unwrap();
    assert_eq!(slow.max_fill, 2);
}
