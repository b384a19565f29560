//! ppu-rtl's testbenches as one test binary: each file of this folder is a module (its own
//! doc comment says what it checks, its test names cite the requirement IDs). One binary
//! instead of one per file: `cargo test` runs test binaries one after another, so the
//! single-threaded tests of one file (a system simulation, a bench sweep) left a core idle while
//! the next file's Verilator builds and formal proofs waited; here every test shares the
//! harness's threads (one per core) and the build links one executable instead of 39.
//!
//! Run one file's tests by its module path, e.g. `cargo test -p ppu-testbenches -- ssync::`.
//! Tests in one binary run concurrently: a test writes only files no other test writes (its own
//! `waves/<name>.vcd`, scratch folders from `ppu_sim::eda::scratch_dir`), and a VCD appears
//! whole or not at all (`ppu_sim::vcd::writer`), so a test reading `waves/` never sees one
//! half-written.

mod acquire_check;
mod barrier_bench;
mod barrier_counter;
mod barrier_golden;
mod barrier_system;
mod batch_id_gen;
mod command_tree;
mod engines;
mod formal;
mod front_end_monitor;
mod gp_fifo;
mod kept_dff;
mod kept_net;
mod msg_formats;
mod order_sequencer;
mod pa_bench;
mod pa_golden;
mod pa_system;
mod prop;
mod provoking_vertex_cache;
mod rollup_tree;
mod rr_arbiter;
mod semaphore_memory;
mod so_crossbar;
mod so_unit;
mod soft_put_allocator;
mod ssync;
mod staged_arbiter;
mod status_cluster;
mod status_fsm;
mod status_system;
mod stream_fifo;
mod stream_out_bench;
mod stream_out_system;
mod tiling_unit;
mod verilog;
mod viewport_multicast;
mod viewport_swizzle;
mod waves_and_harness;
mod work_queue_bench;
mod work_queue_system;

/// `autotests = false`: a file added to `tests/` and not named above would never be compiled.
#[test]
fn x1_every_file_of_tests_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().and_then(|e| e.to_str()) != Some("rs") || stem == "main" {
            continue;
        }
        files += 1;
        assert!(
            main.lines().any(|l| l == format!("mod {};", stem)),
            "testbenches/tests/{}.rs is not a module of tests/main.rs: add `mod {};`",
            stem,
            stem
        );
    }
    assert!(files > 30, "only {} test files found", files);
}
