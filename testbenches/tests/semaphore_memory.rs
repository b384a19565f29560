//! SemaphoreMemory testbench (WQ-5, WQ-6): the clear sweep after reset, host and thread writes
//! (host priority, valid/ready checked), reads with the write-first bypass against an array
//! model, waves. Lint and co-simulation: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::tb::TbOutput;
use ppu_sim::work_queue::tb::run_semaphores;

#[test]
fn wq5_semaphores_clear_then_read_what_was_written() {
    // A narrow span makes reads of the semaphore written in the same cycle frequent.
    for (span, seed) in [(3u64, 1u64), (18, 2), (512, 3)] {
        let r = run_semaphores(4000, span, seed, &TbOutput::default()).unwrap();
        assert!(
            r.host_writes > 100 && r.thread_writes > 100 && r.reads > 3000,
            "{:?}",
            r
        );
    }
}

#[test]
fn wq5_semaphore_memory_waves() {
    let vcd = repo_root().join("waves").join("semaphore_memory.vcd");
    let out = TbOutput {
        vcd: Some(&vcd),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    run_semaphores(100, 6, 4, &out).unwrap();
    assert!(vcd.with_extension("gtkw").exists());
}
