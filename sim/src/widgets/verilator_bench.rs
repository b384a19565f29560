//! The reference FIFO under Verilator for `ppu bench harness` (SPEC X-3): the exported Verilog
//! of `stream_fifo`, verilated with `-O3` and driven by a small generated C++ program with the
//! same stimulus as the harness ([`stimulus`](super::bench) there, written again here in C++:
//! the same 64-bit hash per cycle), so the word counts of the two engines can be compared and
//! their cycles per second set side by side.
use super::stream_fifo::RefFifo;
use crate::eda::{self, export};
use crate::scenario::RunError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The C++ driver: `N` cycles from `argv[1]`; prints "<words read> <seconds>". Per cycle, as
/// the harness: inputs with the clock low and settle, count a word when `rd_valid & rd_ready`
/// (not in the reset cycle), then the rising edge.
const DRIVER: &str = r#"#include "Vstream_fifo.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: Vstream_fifo CYCLES\n"); return 2; }
    uint64_t n = strtoull(argv[1], nullptr, 10);
    VerilatedContext* ctx = new VerilatedContext;
    Vstream_fifo* top = new Vstream_fifo{ctx};
    uint64_t words = 0;
    top->clock = 0;
    top->eval();
    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < n; i++) {
        uint64_t h = rotl(i * 0x9e3779b97f4a7c15ULL, 17);
        bool v = (h & 3) != 0, r = (h & 12) != 0;
        top->reset = i == 0;
        top->wr_valid = v;
        top->wr_data = (h >> 16) & 0xffff;
        top->rd_ready = r;
        top->clock = 0;
        top->eval();
        if (i > 0 && top->rd_valid && r) words++;
        top->clock = 1;
        top->eval();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%llu %.6f\n", (unsigned long long)words, s);
    top->final();
    delete top;
    delete ctx;
    return 0;
}
"#;

/// Verilate the exported FIFO with `-O3` and build the driver; returns the program's path. The
/// program is kept under `target/verilator/bench-stream_fifo-<hash>/` and reused while the
/// Verilog, the driver and the Verilator version stay the same.
pub fn build(verilator: &Path) -> Result<PathBuf, String> {
    let verilog = export::verilog_of(RefFifo::default(), "stream_fifo");
    let hash = crate::verilator::model::cache_key(verilator, &[&verilog, DRIVER])?;
    // Built once per Verilog, driver and Verilator version, like the engine's models.
    let cached = crate::work_root()
        .join("target")
        .join("verilator")
        .join(format!("bench-stream_fifo-{}", hash));
    let program = cached.join("obj").join("Vstream_fifo");
    if program.is_file() {
        return Ok(program);
    }
    let dir = eda::scratch_dir("bench-verilator").map_err(|e| e.to_string())?;
    std::fs::write(dir.join("stream_fifo.v"), verilog).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("driver.cpp"), DRIVER).map_err(|e| e.to_string())?;
    eda::run_ok(Command::new(verilator).current_dir(&dir).args([
        "--cc",
        "--exe",
        "--build",
        "-j",
        "2",
        "-O3",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
        "--top-module",
        "stream_fifo",
        "-CFLAGS",
        "-O2",
        "--Mdir",
        "obj",
        "stream_fifo.v",
        "driver.cpp",
    ]))?;
    // Renamed into place whole, so a run stopped half-way leaves no half-built cache entry
    // (another process may have won the race: its copy is as good).
    std::fs::create_dir_all(cached.parent().unwrap_or(&cached)).map_err(|e| e.to_string())?;
    if std::fs::rename(&dir, &cached).is_err() && !program.is_file() {
        return Ok(dir.join("obj").join("Vstream_fifo"));
    }
    Ok(program)
}

/// Run `n` cycles of the verilated FIFO; returns (words read, seconds inside the loop).
pub fn run(program: &Path, n: u64) -> Result<(u64, f64), RunError> {
    let out = eda::run_ok(Command::new(program).arg(n.to_string())).map_err(RunError::Violation)?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    let words = it.next().and_then(|w| w.parse::<u64>().ok());
    let secs = it.next().and_then(|s| s.parse::<f64>().ok());
    match (words, secs) {
        (Some(w), Some(s)) => Ok((w, s)),
        _ => Err(RunError::Violation(format!(
            "the Verilator driver printed `{}`, not `<words> <seconds>`",
            text.trim()
        ))),
    }
}
