//! Co-simulation (SPEC X-4): the per-cycle input vectors a Rust testbench drove are replayed into
//! the exported Verilog under Icarus Verilog or Verilator, and every output must equal the
//! rust-hdl simulation's on every cycle.
//!
//! The generated testbench applies cycle `c`'s inputs, waits 1 time unit, prints every output
//! in binary, then raises and lowers the clock: the same sampling point as
//! [`crate::harness::Harness::step`] (after the inputs settle, before the rising edge).
use crate::eda;
use crate::harness::PortTrace;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Which simulator runs the Verilog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simulator {
    Icarus,
    Verilator,
}

/// Outcome of a co-simulation that ran.
#[derive(Debug, Clone)]
pub struct CosimReport {
    pub cycles: usize,
    pub outputs_compared: usize,
}

fn vname(port: &str) -> String {
    // rust-hdl's port names (`req_valid$0`) are legal Verilog identifiers as they are.
    port.to_string()
}

/// The Verilog testbench for `module` driven by `trace`, reading `inputs.mem`.
pub fn testbench(module: &str, trace: &PortTrace) -> String {
    let mut s = String::new();
    let in_width: usize = trace.inputs().map(|(_, p)| p.width).sum();
    let n = trace.cycles.len();
    let _ = writeln!(s, "`timescale 1ns/1ps");
    let _ = writeln!(s, "module cosim_tb;");
    let _ = writeln!(s, "  reg clock = 1'b0;");
    for (_, p) in trace.inputs() {
        let _ = writeln!(s, "  reg [{}:0] {} ;", p.width - 1, vname(&p.name));
    }
    for (_, p) in trace.outputs() {
        let _ = writeln!(s, "  wire [{}:0] {} ;", p.width - 1, vname(&p.name));
    }
    let _ = writeln!(
        s,
        "  reg [{}:0] vectors [0:{}];",
        in_width.max(1) - 1,
        n.max(1) - 1
    );
    let _ = writeln!(s, "  integer c;");
    let _ = write!(s, "  {} dut(.clock(clock)", module);
    for p in &trace.ports {
        let _ = write!(s, ", .{}({} )", vname(&p.name), vname(&p.name));
    }
    let _ = writeln!(s, ");");
    let _ = writeln!(s, "  initial begin");
    let _ = writeln!(s, "    $readmemb(\"inputs.mem\", vectors);");
    let _ = writeln!(s, "    for (c = 0; c < {}; c = c + 1) begin", n);
    let inputs: Vec<String> = trace
        .inputs()
        .map(|(_, p)| format!("{} ", vname(&p.name)))
        .collect();
    if !inputs.is_empty() {
        let _ = writeln!(s, "      {{{}}} = vectors[c];", inputs.join(", "));
    }
    let _ = writeln!(s, "      #1;");
    let fmt: Vec<&str> = trace.outputs().map(|_| "%b").collect();
    let outs: Vec<String> = trace
        .outputs()
        .map(|(_, p)| format!("{} ", vname(&p.name)))
        .collect();
    let _ = writeln!(
        s,
        "      $display(\"C %0d {}\", c, {});",
        fmt.join(" "),
        outs.join(", ")
    );
    let _ = writeln!(s, "      #4 clock = 1'b1;");
    let _ = writeln!(s, "      #5 clock = 1'b0;");
    let _ = writeln!(s, "    end");
    let _ = writeln!(s, "    $display(\"DONE\");");
    let _ = writeln!(s, "    $finish;");
    let _ = writeln!(s, "  end");
    let _ = writeln!(s, "endmodule");
    s
}

fn input_vectors(trace: &PortTrace) -> String {
    let mut s = String::new();
    for cycle in &trace.cycles {
        let line: String = trace.inputs().map(|(i, _)| cycle[i].as_str()).collect();
        let _ = writeln!(s, "{}", if line.is_empty() { "0" } else { &line });
    }
    s
}

/// Compare the simulator's printed outputs with the recorded ones.
fn compare(trace: &PortTrace, stdout: &str) -> Result<CosimReport, String> {
    let outputs: Vec<(usize, &crate::harness::Port)> = trace.outputs().collect();
    let mut cycles = 0;
    let mut compared = 0;
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("C ") else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let c: usize = fields
            .next()
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("unreadable simulator line: {}", line))?;
        let expected = trace
            .cycles
            .get(c)
            .ok_or_else(|| format!("extra cycle {}", c))?;
        for (idx, port) in &outputs {
            let got = fields
                .next()
                .ok_or_else(|| format!("cycle {}: missing {}", c, port.name))?;
            let want = &expected[*idx];
            if got != want {
                return Err(format!(
                    "cycle {}: output {} is {} in Verilog, {} in rust-hdl",
                    c, port.name, got, want
                ));
            }
            compared += 1;
        }
        cycles += 1;
    }
    if cycles != trace.cycles.len() || !stdout.contains("DONE") {
        return Err(format!(
            "the Verilog simulation printed {} of {} cycles",
            cycles,
            trace.cycles.len()
        ));
    }
    Ok(CosimReport {
        cycles,
        outputs_compared: compared,
    })
}

/// Replay `trace` into `verilog` (top module `module`) under `sim`, using the tool at `tool`
/// (`iverilog` or `verilator`). `label` names the scratch folder.
pub fn run(
    sim: Simulator,
    tool: &Path,
    verilog: &str,
    module: &str,
    trace: &PortTrace,
    label: &str,
) -> Result<CosimReport, String> {
    let dir = eda::scratch_dir(&format!("cosim-{:?}-{}", sim, label).to_lowercase())
        .map_err(|e| e.to_string())?;
    let io = |r: std::io::Result<()>| r.map_err(|e| e.to_string());
    io(std::fs::write(dir.join("dut.v"), verilog))?;
    io(std::fs::write(dir.join("tb.v"), testbench(module, trace)))?;
    io(std::fs::write(dir.join("inputs.mem"), input_vectors(trace)))?;
    let stdout = match sim {
        Simulator::Icarus => {
            eda::run_ok(Command::new(tool).current_dir(&dir).args([
                "-g2012",
                "-o",
                "cosim.vvp",
                "-s",
                "cosim_tb",
                "tb.v",
                "dut.v",
            ]))?;
            let vvp = tool.with_file_name("vvp");
            let vvp = if vvp.is_file() { vvp } else { "vvp".into() };
            let out = eda::run_ok(
                Command::new(vvp)
                    .current_dir(&dir)
                    .args(["-n", "cosim.vvp"]),
            )?;
            String::from_utf8_lossy(&out.stdout).into_owned()
        }
        Simulator::Verilator => {
            let runtime = verilator_runtime(tool)?;
            verilate(tool, &dir)?;
            let obj = dir.join("obj");
            for object in &runtime {
                let name = object.file_name().unwrap_or_default();
                std::fs::copy(object, obj.join(name))
                    .map_err(|e| format!("{}: {}", object.display(), e))?;
            }
            eda::run_ok(
                Command::new("make")
                    .current_dir(&obj)
                    .args(["-s", "-f", "Vcosim_tb.mk"]),
            )?;
            let out = eda::run_ok(Command::new(obj.join("Vcosim_tb")).current_dir(&dir))?;
            String::from_utf8_lossy(&out.stdout).into_owned()
        }
    };
    let report = compare(trace, &stdout)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(report)
}

/// Verilator's options for a co-simulation testbench (`tb.v` instantiating `dut.v`): the C++ of
/// `--binary` (`--main --exe --timing`) without building it, so the runtime objects can be put
/// in place first.
const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "--exe",
    "--main",
    "--timing",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "--top-module",
    "cosim_tb",
    // Verilator's own optimizations stay on: they inline the one-module-per-register hierarchy
    // rust-hdl writes (with -O0 a cluster makes thousands of C++ files, more than one shell
    // command line can name); the C++ is compiled without optimization.
    "-CFLAGS",
    "-O0",
    "--Mdir",
    "obj",
    "tb.v",
    "dut.v",
];

/// Verilate `dir/tb.v` and `dir/dut.v` into `dir/obj` (C++ and makefile, nothing compiled).
fn verilate(tool: &Path, dir: &Path) -> Result<(), String> {
    eda::run_ok(Command::new(tool).current_dir(dir).args(VERILATOR_ARGS)).map(|_| ())
}

/// Verilator's runtime objects for co-simulation (`verilated.o`, `verilated_timing.o`,
/// `verilated_threads.o`): the same for every testbench built with [`VERILATOR_ARGS`], so they
/// are compiled once, by building a one-register testbench, and kept in
/// `target/verilator/cosim-runtime-<hash>/` (hash of the Verilator version, the options and the
/// `CXX` in the environment). Each co-simulation copies them into its `obj/` before `make`,
/// which then compiles only the testbench's own C++: about 10 of the 12 CPU-seconds a unit's
/// Verilator build took.
fn verilator_runtime(tool: &Path) -> Result<Vec<PathBuf>, String> {
    static BUILDING: Mutex<()> = Mutex::new(());
    let cxx = std::env::var("CXX").unwrap_or_default();
    let key = crate::verilator::model::cache_key(
        tool,
        &["cosim-runtime", &VERILATOR_ARGS.join(" "), &cxx],
    )?;
    let cache = crate::work_root()
        .join("target")
        .join("verilator")
        .join(format!("cosim-runtime-{}", key));
    let _one_at_a_time = BUILDING.lock().map_err(|e| e.to_string())?;
    let cached = |dir: &Path| -> Vec<PathBuf> {
        let mut objects: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "o"))
            .collect();
        objects.sort();
        objects
    };
    let objects = cached(&cache);
    if !objects.is_empty() {
        return Ok(objects);
    }
    let io = |e: std::io::Error| format!("Verilator co-simulation runtime: {}", e);
    let scratch = eda::scratch_dir("cosim-runtime").map_err(io)?;
    std::fs::write(
        scratch.join("tb.v"),
        "`timescale 1ns/1ps\nmodule cosim_tb;\n  reg clock = 1'b0;\n  wire q;\n  \
         dut dut(.clock(clock), .q(q));\n  initial begin\n    #5 clock = 1'b1;\n    \
         $display(\"DONE %b\", q);\n    $finish;\n  end\nendmodule\n",
    )
    .map_err(io)?;
    std::fs::write(
        scratch.join("dut.v"),
        "module dut(input clock, output reg q);\n  \
         always @(posedge clock) q <= 1'b1;\nendmodule\n",
    )
    .map_err(io)?;
    verilate(tool, &scratch)?;
    let obj = scratch.join("obj");
    eda::run_ok(Command::new("make").current_dir(&obj).args([
        "-s",
        "-j",
        "2",
        "-f",
        "Vcosim_tb.mk",
    ]))?;
    let lib = scratch.join("lib");
    std::fs::create_dir_all(&lib).map_err(io)?;
    for object in cached(&obj) {
        let name = object.file_name().unwrap_or_default().to_owned();
        if name.to_string_lossy().starts_with("verilated") {
            std::fs::rename(&object, lib.join(name)).map_err(io)?;
        }
    }
    let products: Vec<PathBuf> = cached(&lib)
        .iter()
        .filter_map(|o| o.file_name().map(|n| cache.join(n)))
        .collect();
    if products.is_empty() {
        return Err("building Verilator's runtime for co-simulation gave no object file".into());
    }
    crate::verilator::model::land(&scratch, &cache, &products, "the co-simulation runtime")?;
    Ok(products)
}
