//! Formal proofs of the units' invariants (`ppu formal`, `synth/FORMAL.md`): Yosys
//! (`read_verilog -formal`, `prep`, `write_smt2`) and `yosys-smtbmc` with Z3, or cvc5 for a
//! check that names it, or ABC on the same model written as AIGER ([`Solver::Abc`]).
//!
//! Each unit's properties live in `synth/formal/<props>_props.sv` ([`FormalCheck::props`],
//! usually the unit's name), a wrapper that instantiates
//! the exported module and states assumptions on its inputs (the valid/ready rules) and
//! assertions on its outputs, each property under its own `` `ifdef P_<NAME> ``. Internal
//! registers a helper invariant needs are named on the file's `// observe:` line: the runner
//! makes them extra outputs of the exported module (Yosys `expose`, behaviour unchanged) and
//! writes `observe.vh` with a wire `obs_<name>` for each (`$` becomes `_`), the port
//! connections as `` `OBSERVE ``, and for a pattern with `*` (`slots$*$q`) all matches
//! concatenated, index 0 lowest, as `obs_<pattern>_all` (`obs_slots_q_all`).
//!
//! A property is proved by k-induction ([`Mode::Prove`]: the base case, BMC to depth k, then
//! the induction step over k cycles; helper invariants are asserted alongside, so they are
//! proved too) or checked by bounded model checking to a stated depth ([`Mode::Bmc`]). Each
//! property also has a mutant ([`Mutant`]): a textual change of the exported Verilog that
//! breaks it. The mutant is checked by BMC with the helper invariants left out (`MUTANT`
//! defined), and must fail with a counterexample (a VCD, kept under `target/formal/cex/`).
use super::{read_text, run, scratch_dir};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// How a property is established.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// k-induction with this k (base case BMC to k, then the induction step).
    Prove { k: u32 },
    /// Bounded model checking to this depth (the reason is in the property's `why`).
    Bmc { depth: u32 },
    /// k-induction with this k, and the mutant's BMC to `mutant_depth` (> k): for a unit whose
    /// helper invariants close the induction in a few steps but whose base case gets dear with
    /// depth (`barrier_counter`), while the mutant (no helper invariants) fails only after a
    /// full round of its events. k-induction needs the base case to k only.
    ProveMutantDeeper { k: u32, mutant_depth: u32 },
}

impl Mode {
    pub fn depth(self) -> u32 {
        match self {
            Mode::Prove { k } | Mode::ProveMutantDeeper { k, .. } => k,
            Mode::Bmc { depth } => depth,
        }
    }
    /// The depth of the mutant's BMC.
    pub fn mutant_depth(self) -> u32 {
        match self {
            Mode::ProveMutantDeeper { mutant_depth, .. } => mutant_depth,
            m => m.depth(),
        }
    }
    pub fn label(self) -> String {
        match self {
            Mode::Prove { k } => format!("prove (k={})", k),
            Mode::Bmc { depth } => format!("bmc {}", depth),
            Mode::ProveMutantDeeper { k, mutant_depth } => {
                format!("prove (k={}; mutant bmc {})", k, mutant_depth)
            }
        }
    }
}

/// The SMT solver `yosys-smtbmc` drives (`-s <name>`) for every property of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solver {
    /// Z3, the default.
    Z3,
    /// cvc5 (Debian's `cvc5`, 1.0.3). Z3 4.8.12 never returns on some models that cvc5 solves
    /// in under a second (`viewport_swizzle`: Z3 sits in step 0's assumptions, flat or
    /// hierarchical). Debian's Boolector (1.5.118, 2012) cannot be driven by `yosys-smtbmc`: it
    /// rejects the first command, `set-option`.
    Cvc5,
    /// cvc5 with its internal bit-blaster (`--bv-solver=bitblast-internal`) instead of its
    /// default bit-vector solver. Much faster on some models (`viewport_multicast` ORDER 63 ->
    /// 8 s, `barrier_counter` COUNT's induction step 26 -> 11 s, `prop` NO_EARLY 20 -> 10 s),
    /// much slower on others (`front_end_monitor` WATCHDOG's induction step: 2 s -> over 10
    /// minutes): measure both.
    Cvc5Bitblast,
    /// ABC (`yosys-abc`, shipped with Yosys) on the bit-level model: Yosys writes the model as
    /// AIGER beside the SMT-LIB one, ABC folds the assumptions into it (`fold`), ORs the
    /// assertions into one (`orpos`), checks the base case and bounded runs with `bmc3` and the
    /// induction step with `ind`. Its SAT solver on the bit-blasted circuit closes proofs that
    /// the SMT solvers do not return from (`ssync` SSOBO: 128-bit headroom arithmetic over free
    /// state, k = 2 in about 30 s; `batch_id_gen` IN_FLIGHT at window 16, k = 3) and finds deep
    /// counterexamples in a second (the window-16 mutant at step 18). A counterexample is
    /// replayed by Yosys `sim` (`-r witness.aiw -map model.aim`) on the design into the VCD (by
    /// `yosys-smtbmc --aig` with cvc5 where `sim` cannot).
    Abc,
}

impl Solver {
    /// The name `yosys-smtbmc -s` takes, and the executable on PATH (for ABC: the solver that
    /// replays its counterexamples).
    pub fn name(self) -> &'static str {
        match self {
            Solver::Z3 => "z3",
            Solver::Cvc5 | Solver::Cvc5Bitblast | Solver::Abc => "cvc5",
        }
    }
    /// Options passed to the solver (`yosys-smtbmc -S`).
    pub fn options(self) -> &'static [&'static str] {
        match self {
            Solver::Z3 | Solver::Cvc5 | Solver::Abc => &[],
            Solver::Cvc5Bitblast => &["--bv-solver=bitblast-internal"],
        }
    }
    /// The name in the report's mode column.
    pub fn label(self) -> &'static str {
        match self {
            Solver::Z3 => "z3",
            Solver::Cvc5 => "cvc5",
            Solver::Cvc5Bitblast => "cvc5 bitblast",
            Solver::Abc => "abc",
        }
    }
}

/// A deliberately broken copy of the unit: `find` (a regular expression that must match the
/// exported Verilog exactly once) replaced by `replace`.
#[derive(Debug, Clone)]
pub struct Mutant {
    pub what: &'static str,
    pub find: &'static str,
    pub replace: &'static str,
}

/// One property of a unit.
#[derive(Debug, Clone)]
pub struct Property {
    /// `P_<name>` enables its assertions in the props file.
    pub name: &'static str,
    /// What it claims, in one line.
    pub claim: &'static str,
    pub mode: Mode,
    /// Why the mode and depth suffice (for BMC: the depth's justification).
    pub why: &'static str,
    pub mutant: Mutant,
}

/// The properties of one unit at one set of parameters.
pub struct FormalCheck {
    /// The exported module's name (the report's unit column, the observed wires' module).
    pub unit: &'static str,
    /// The props file: `synth/formal/<props>_props.sv`, module `<props>_props`; the unit's own
    /// name unless two units share one set of properties. Then the file instantiates the module
    /// under test by a `` `define `` from [`FormalCheck::defines`] (`gp_fifo_compare` uses
    /// `gp_fifo`'s props with `COMPARE_FORM` defined, which selects `gp_fifo_compare` and the
    /// compare form's wrap).
    pub props: &'static str,
    /// Parameters of this instance (`depth 3`), empty for the exported reference parameters.
    pub variant: String,
    /// The Verilog of the unit at these parameters, top module named `unit`.
    pub verilog: Box<dyn Fn() -> String + Send + Sync>,
    /// Defines for the props file (`DEPTH`, widths).
    pub defines: Vec<(String, String)>,
    /// Flatten the design (Yosys `flatten`) before writing the model. Z3 4.8 never returns on
    /// some hierarchical models (`batch_id_gen`: even `(assert false)` hangs while Z3 expands the
    /// hierarchy's define-funs); a flat model is the same logic.
    pub flatten: bool,
    /// The solver for every property of this check (and its mutants).
    pub solver: Solver,
    pub properties: Vec<Property>,
}

/// The outcome of one property.
#[derive(Debug, Clone)]
pub struct FormalResult {
    pub unit: String,
    pub variant: String,
    pub property: String,
    pub claim: String,
    pub mode: Mode,
    pub solver: Solver,
    pub passed: bool,
    /// What failed, when it did.
    pub detail: String,
    pub seconds: f64,
    pub mutant: String,
    /// The mutant failed: at which step, and its counterexample VCD.
    pub mutant_caught: Option<(u32, PathBuf)>,
}

/// The environment every props file includes (`synth/formal/reset_first.vh`: reset in the
/// first cycle, `past_valid` after it), written beside `props.sv` for Yosys.
pub const RESET_FIRST_VH: &str = "reset_first.vh";

/// The folder of the props files.
pub fn props_dir() -> PathBuf {
    crate::work_root().join("synth").join("formal")
}

/// The tools: `yosys` and `yosys-smtbmc` on PATH, and the solvers `z3` and `cvc5`.
pub fn tools_available() -> Result<(), String> {
    for t in ["yosys", "yosys-smtbmc", "yosys-abc", "z3", "cvc5"] {
        if super::find(t).is_none() {
            return Err(format!(
                "`ppu formal` needs {} on PATH (`apt-get install yosys z3 cvc5`)",
                t
            ));
        }
    }
    Ok(())
}

/// Run every property of `check`.
pub fn run_check(check: &FormalCheck) -> Result<Vec<FormalResult>, String> {
    let props_path = props_dir().join(format!("{}_props.sv", check.props));
    let props = read_text(&props_path)?;
    let verilog = (check.verilog)();
    let (observed, observe_vh) = observe(&verilog, check.unit, &props)?;
    let reset_first_vh = read_text(&props_dir().join(RESET_FIRST_VH))?;
    let props = Props {
        text: props,
        observed,
        observe_vh,
        reset_first_vh,
    };
    // The properties are independent runs (each its own scratch folder and solver processes):
    // one per core, results in the check's order.
    use rayon::prelude::*;
    check
        .properties
        .par_iter()
        .map(|p| run_property(check, &verilog, &props, p))
        .collect()
}

/// A unit's props file, with the observed wires it names (found once in the unit's Verilog;
/// a mutant changes statements, not declarations) and the generated `observe.vh`.
struct Props {
    text: String,
    observed: Vec<String>,
    observe_vh: String,
    /// The shared environment ([`RESET_FIRST_VH`]).
    reset_first_vh: String,
}

fn run_property(
    check: &FormalCheck,
    verilog: &str,
    props: &Props,
    p: &Property,
) -> Result<FormalResult, String> {
    let t0 = Instant::now();
    let tag = format!(
        "{}{}-{}",
        check.unit,
        if check.variant.is_empty() {
            String::new()
        } else {
            format!("-{}", check.variant.replace(' ', ""))
        },
        p.name
    );
    let dir = scratch_dir(&format!("formal-{}", tag)).map_err(|e| e.to_string())?;
    let model = build_model(check, verilog, props, p, &dir, false)?;
    let solver = check.solver;
    // ABC's base case runs one step more than the induction assumes (see `abc_induction`).
    let base_depth = match (solver, p.mode) {
        (Solver::Abc, Mode::Prove { k } | Mode::ProveMutantDeeper { k, .. }) => k + 1,
        _ => p.mode.depth(),
    };
    let base = bmc(solver, &dir, &model, base_depth, None)?;
    let (passed, detail) = match (&base, p.mode) {
        (Smt::Failed { step, .. }, _) => (false, format!("base case fails at step {}", step)),
        (Smt::Passed, Mode::Bmc { .. }) => (true, String::new()),
        (Smt::Passed, Mode::Prove { k } | Mode::ProveMutantDeeper { k, .. }) => {
            match induction_step(solver, &dir, &model, k)? {
                Smt::Passed => (true, String::new()),
                Smt::Failed { .. } => (false, format!("induction step fails at k={}", k)),
            }
        }
    };
    let seconds = t0.elapsed().as_secs_f64();
    // The mutant: BMC without helper invariants must find a counterexample.
    let mutated = mutate(verilog, &p.mutant)?;
    let mdir = dir.join("mutant");
    std::fs::create_dir_all(&mdir).map_err(|e| e.to_string())?;
    let mmodel = build_model(check, &mutated, props, p, &mdir, true)?;
    let cex = mdir.join("cex.vcd");
    let mutant_result = bmc(solver, &mdir, &mmodel, p.mode.mutant_depth(), Some(&cex))?;
    let mutant_caught = match mutant_result {
        Smt::Failed { step } if cex.is_file() => {
            let keep = crate::work_root().join("target").join("formal").join("cex");
            std::fs::create_dir_all(&keep).map_err(|e| e.to_string())?;
            let dest = keep.join(format!("{}.vcd", tag));
            std::fs::copy(&cex, &dest).map_err(|e| e.to_string())?;
            Some((step, dest))
        }
        _ => None,
    };
    if std::env::var_os("PPU_KEEP_FORMAL").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(FormalResult {
        unit: check.unit.to_string(),
        variant: check.variant.clone(),
        property: p.name.to_string(),
        claim: p.claim.to_string(),
        mode: p.mode,
        solver,
        passed,
        detail,
        seconds,
        mutant: p.mutant.what.to_string(),
        mutant_caught,
    })
}

/// Bounded model check of the model in `dir` (`model`: its SMT-LIB file) to `depth` steps on
/// `solver`'s engine: ABC's `bmc3` on the AIGER model, or `yosys-smtbmc`. With `cex`, a
/// counterexample is written there as a VCD.
fn bmc(
    solver: Solver,
    dir: &Path,
    model: &Path,
    depth: u32,
    cex: Option<&Path>,
) -> Result<Smt, String> {
    match solver {
        Solver::Abc => abc_bmc(dir, depth, cex),
        _ => smtbmc(
            solver,
            model,
            depth,
            false,
            &cex.map(Path::to_path_buf)
                .unwrap_or_else(|| dir.join("base.vcd")),
        ),
    }
}

/// The induction step over `k` cycles on `solver`'s engine: ABC's `ind`, or
/// `yosys-smtbmc -i` (its counterexample to induction in `step.vcd`).
fn induction_step(solver: Solver, dir: &Path, model: &Path, k: u32) -> Result<Smt, String> {
    match solver {
        Solver::Abc => abc_induction(dir, k),
        _ => smtbmc(solver, model, k, true, &dir.join("step.vcd")),
    }
}

/// The block RAMs of an exported unit made abstract for a proof: every read returns a free
/// value (`$anyseq`) and nothing is stored. An over-approximation: what holds for any answer
/// of the RAM holds for the real one; a props file that needs a word constrains the reads of
/// it to what was last written there. `count` is the number of `BlockRam`s the unit has: the
/// pattern must match exactly that often.
pub fn abstract_block_rams(verilog: &str, count: usize) -> Result<String, String> {
    let re = Regex::new(
        r"read_data <= mem\[read_address\];\s*if \(write_enable\) begin\s*mem\[write_address\] <= write_data;\s*end",
    )
    .expect("static regex");
    rewrite_block_rams(
        verilog,
        &re,
        count,
        "read_data <= $$anyseq;",
        "block RAM abstraction: the pattern",
    )
}

/// The block RAMs of an exported unit cut to their first `words` words for a bounded check:
/// the same read and write logic over a smaller array. Exact for every run whose read and write
/// addresses stay below `words` (the props file assumes inputs that keep them there, e.g. a
/// capacity and a tile count); a 256-word RAM is 256 registers per bit in the bit-level model,
/// which the BMC cannot take far. `count` is the number of `BlockRam`s the unit has.
pub fn shrink_block_rams(verilog: &str, count: usize, words: usize) -> Result<String, String> {
    let re = Regex::new(r"reg \[(\d+):0\] mem \[0:\d+\];").expect("static regex");
    let cut = format!("reg [${{1}}:0] mem [0:{}];", words - 1);
    rewrite_block_rams(
        verilog,
        &re,
        count,
        &cut,
        "block RAM cut: the memory declaration",
    )
}

/// Replace every match of `re` (one per `BlockRam` of the unit) by `replacement`; an error
/// naming `what` unless it matches exactly `count` times.
fn rewrite_block_rams(
    verilog: &str,
    re: &Regex,
    count: usize,
    replacement: &str,
    what: &str,
) -> Result<String, String> {
    let n = re.find_iter(verilog).count();
    if n != count {
        return Err(format!("{} matches {} times, not {}", what, n, count));
    }
    Ok(re.replace_all(verilog, replacement).into_owned())
}

/// Apply a mutant: its pattern must match exactly once.
pub fn mutate(verilog: &str, m: &Mutant) -> Result<String, String> {
    let re = Regex::new(m.find).map_err(|e| format!("mutant `{}`: {}", m.what, e))?;
    let n = re.find_iter(verilog).count();
    if n != 1 {
        return Err(format!(
            "mutant `{}`: its pattern `{}` matches {} times in the exported Verilog, not once",
            m.what, m.find, n
        ));
    }
    Ok(re.replace(verilog, m.replace).into_owned())
}

/// The wires and regs declared in module `module` of `verilog`, with their widths.
fn declarations(verilog: &str, module: &str) -> Vec<(String, usize)> {
    let start = verilog
        .find(&format!("module {}(", module))
        .unwrap_or(verilog.len());
    let body = &verilog[start..];
    let body = &body[..body.find("endmodule").unwrap_or(body.len())];
    let re = Regex::new(r"(?m)^\s*(?:wire|reg|output reg|output wire|input wire)\s+(?:\[(\d+):0\]\s*)?([A-Za-z_][A-Za-z0-9_$]*)\s*;")
        .expect("static regex");
    re.captures_iter(body)
        .map(|c| {
            let w = c
                .get(1)
                .and_then(|m| m.as_str().parse::<usize>().ok())
                .map_or(1, |m| m + 1);
            (c[2].to_string(), w)
        })
        .collect()
}

fn sanitize(name: &str) -> String {
    name.replace(['$', '.'], "_").replace('*', "")
}

/// The module of instance `instance` inside module `module` of `verilog`.
fn instance_module(verilog: &str, module: &str, instance: &str) -> Option<String> {
    let start = verilog.find(&format!("module {}(", module))?;
    let body = &verilog[start..];
    let body = &body[..body.find("endmodule").unwrap_or(body.len())];
    let re = Regex::new(&format!(
        r"(?m)^\s*([A-Za-z_][A-Za-z0-9_$]*)\s+{}\s*\(",
        regex::escape(instance)
    ))
    .ok()?;
    re.captures(body).map(|c| c[1].to_string())
}

/// The declarations an observe pattern is matched against: the unit's own wires, or for a
/// pattern `instance.name` the wires of that sub-block instance's module, named
/// `instance.name` (the name Yosys gives them in the flattened unit).
fn scope_declarations(
    verilog: &str,
    unit: &str,
    pat: &str,
) -> Result<Vec<(String, usize)>, String> {
    match pat.split_once('.') {
        None => Ok(declarations(verilog, unit)),
        Some((instance, _)) => {
            let module = instance_module(verilog, unit, instance).ok_or_else(|| {
                format!(
                    "{}: `// observe: {}` names no instance `{}`",
                    unit, pat, instance
                )
            })?;
            Ok(declarations(verilog, &module)
                .into_iter()
                .map(|(n, w)| (format!("{}.{}", instance, n), w))
                .collect())
        }
    }
}

/// The port connection of observed wire `name` (a hierarchical name is an escaped identifier).
fn port_connection(name: &str) -> String {
    if name.contains('.') {
        format!(", .\\{} (obs_{})", name, sanitize(name))
    } else {
        format!(", .{}(obs_{})", name, sanitize(name))
    }
}

/// The observed wires of `props` (its `// observe:` line) expanded against the unit's
/// declarations, and the `observe.vh` text. A name `instance.wire` is a wire inside a sub-block
/// instance of the unit (one level): the runner flattens the unit before exposing it, in the
/// formal copy only, so the exported Verilog keeps its ports.
fn observe(verilog: &str, unit: &str, props: &str) -> Result<(Vec<String>, String), String> {
    let patterns: Vec<&str> = props
        .lines()
        .find_map(|l| l.trim().strip_prefix("// observe:"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    let mut names = vec![];
    let mut vh = String::from("// Generated by ppu formal.\n");
    let mut ports = String::new();
    for pat in patterns {
        let decls = scope_declarations(verilog, unit, pat)?;
        if let Some((pre, post)) = pat.split_once('*') {
            let re = Regex::new(&format!(
                "^{}([0-9]+){}$",
                regex::escape(pre),
                regex::escape(post)
            ))
            .map_err(|e| e.to_string())?;
            let mut hits: Vec<(usize, String, usize)> = decls
                .iter()
                .filter_map(|(n, w)| {
                    re.captures(n)
                        .and_then(|c| c[1].parse().ok())
                        .map(|i| (i, n.clone(), *w))
                })
                .collect();
            hits.sort();
            if hits.is_empty() {
                return Err(format!("{}: `// observe: {}` matches no signal", unit, pat));
            }
            let w = hits[0].2;
            for (_, n, _) in &hits {
                vh += &format!("wire [{}:0] obs_{};\n", w - 1, sanitize(n));
                ports += &port_connection(n);
                names.push(n.clone());
            }
            let all: Vec<String> = hits
                .iter()
                .rev()
                .map(|(_, n, _)| format!("obs_{}", sanitize(n)))
                .collect();
            vh += &format!(
                "wire [{}:0] obs_{}_all = {{{}}};\n",
                w * hits.len() - 1,
                sanitize(&pat.replace("$*$", "$").replace("*", "")),
                all.join(", ")
            );
        } else {
            let w = decls
                .iter()
                .find(|(n, _)| n == pat)
                .map(|(_, w)| *w)
                .ok_or_else(|| format!("{}: `// observe: {}` names no signal", unit, pat))?;
            vh += &format!("wire [{}:0] obs_{};\n", w - 1, sanitize(pat));
            ports += &port_connection(pat);
            names.push(pat.to_string());
        }
    }
    vh += &format!("`define OBSERVE {}\n", ports);
    Ok((names, vh))
}

/// Yosys: the unit (observed wires exposed) and its props, into `model.smt2`.
fn build_model(
    check: &FormalCheck,
    verilog: &str,
    props: &Props,
    p: &Property,
    dir: &Path,
    mutant: bool,
) -> Result<PathBuf, String> {
    let io = |e: std::io::Error| format!("{}: {}", dir.display(), e);
    std::fs::write(dir.join("dut.v"), verilog).map_err(io)?;
    std::fs::write(dir.join("props.sv"), &props.text).map_err(io)?;
    std::fs::write(dir.join("observe.vh"), &props.observe_vh).map_err(io)?;
    std::fs::write(dir.join(RESET_FIRST_VH), &props.reset_first_vh).map_err(io)?;
    let mut defines = format!(" -DP_{}", p.name);
    for (k, v) in &check.defines {
        defines += &format!(" -D{}={}", k, v);
    }
    if mutant {
        defines += " -DMUTANT";
    }
    let mut script = format!(
        "read_verilog -formal dut.v\nhierarchy -top {}\nproc\n",
        check.unit
    );
    // A wire inside a sub-block is reached by flattening the unit first (its name becomes
    // `instance.wire`); the unit's ports are unchanged.
    if props.observed.iter().any(|n| n.contains('.')) {
        script += "flatten\n";
    }
    for n in &props.observed {
        script += &format!("expose w:{}\n", n);
    }
    script += &format!(
        "read_verilog -sv -formal -I .{} props.sv\nprep -top {}_props\nasync2sync\nchformal -assume -early\n{}opt_clean\ndffunmap\n\
         write_smt2 -wires model.smt2\n",
        defines,
        check.props,
        if check.flatten { "flatten\n" } else { "" }
    );
    if check.solver == Solver::Abc {
        // The same design as a bit-level AIGER model for ABC: flat, memories as registers,
        // gates as ANDs and inverters, registers zero-initialized (a register without a reset
        // value gets a free input for its value at step 0). The map file names every input and
        // register, so a witness replays on the SMT-LIB model. No `opt` between `techmap` and
        // `abc`: on the gate netlist it took about half of a large unit's model build (so_unit:
        // 8 of 18 s) for an AIG that ABC's `strash` makes as small.
        // A counterexample's replay is Yosys `sim` on the design as it is before the gate
        // mapping (flat, memories as registers: the map file's names are its wires), written
        // here as `replay.il` (`replay.ys` reads it; `sim_replay` adds the `sim`), so a replay
        // does not elaborate the design again (ssync's took 4.4 s of which `sim` is a fraction).
        // Every free value (`$anyseq`: an abstracted RAM's read, an undriven wire) becomes a
        // named input of the top module first (`ppu_free_<n>`), so the witness names it and
        // `sim` drives it from there: Yosys 0.23's `sim` leaves an `$anyseq` cell's value
        // undriven, and the replay then had to go through `yosys-smtbmc` (ssync's SSOBO mutant:
        // 60 s instead of 0.2).
        script += &format!(
            "{}memory_map\nopt -fast\nsetundef -undriven -anyseq\nopt_clean\n\
             rename -enumerate -pattern ppu_free_% {free}\nexpose -input {free}\nopt_clean\n\
             write_rtlil replay.il\ntechmap\n\
             dffunmap\nabc -g AND -fast\nopt_clean\n\
             write_aiger -zinit -no-startoffset -map model.aim model.aig\n",
            if check.flatten { "" } else { "flatten\n" },
            free = "t:$anyseq %co1:+[Y] t:$anyseq %d",
        );
        std::fs::write(dir.join("replay.ys"), "read_rtlil replay.il\n").map_err(io)?;
    }
    std::fs::write(dir.join("model.ys"), script).map_err(io)?;
    let out = run(Command::new("yosys")
        .current_dir(dir)
        .args(["-q", "-s", "model.ys"]))?;
    if !out.status.success() {
        return Err(format!(
            "yosys on the props of {} ({}): {}",
            check.unit,
            p.name,
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .chain(String::from_utf8_lossy(&out.stdout).lines())
                .filter(|l| l.contains("ERROR") || l.contains("rror"))
                .collect::<Vec<_>>()
                .join(" / ")
        ));
    }
    Ok(dir.join("model.smt2"))
}

enum Smt {
    Passed,
    Failed { step: u32 },
}

/// The last step `yosys-smtbmc` reports checking assertions in (where a failing run failed).
fn last_checked_step(smtbmc_output: &str) -> Option<u32> {
    Regex::new(r"Checking assertions in step (\d+)")
        .expect("static regex")
        .captures_iter(smtbmc_output)
        .last()
        .and_then(|c| c[1].parse().ok())
}

fn smtbmc(
    solver: Solver,
    model: &Path,
    depth: u32,
    induction: bool,
    vcd: &Path,
) -> Result<Smt, String> {
    let mut cmd = Command::new("yosys-smtbmc");
    cmd.args(["-s", solver.name(), "--presat"]);
    for o in solver.options() {
        cmd.args(["-S", o]);
    }
    if induction {
        cmd.arg("-i");
    }
    cmd.args(["-t", &depth.to_string(), "--dump-vcd"])
        .arg(vcd)
        .arg(model);
    let out = run(&mut cmd)?;
    let text = String::from_utf8_lossy(&out.stdout);
    if text.contains("Status: PASSED") {
        return Ok(Smt::Passed);
    }
    if text.contains("Status: FAILED") {
        let step = last_checked_step(&text).unwrap_or(0);
        return Ok(Smt::Failed { step });
    }
    Err(format!(
        "yosys-smtbmc gave no status: {}",
        text.lines().rev().take(5).collect::<Vec<_>>().join(" / ")
    ))
}

/// ABC's answer for the model in `dir` (`model.aig`), assumptions folded in, assertions ORed.
fn abc(dir: &Path, commands: &str) -> Result<String, String> {
    let script = format!("read_aiger model.aig; fold; orpos; strash; {}", commands);
    let out = run(Command::new("yosys-abc")
        .current_dir(dir)
        .args(["-c", &script]))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// ABC's BMC (`bmc3`) of the model in `dir` to `depth` steps (0 ..= depth - 1, as
/// `yosys-smtbmc -t depth`). With `vcd`, a counterexample is written there: ABC's witness
/// replayed by Yosys `sim` ([`sim_replay`], a second or two), or where that cannot replay it by
/// `yosys-smtbmc --aig` ([`smtbmc_replay`]), the step its assertion fails named by the replay.
fn abc_bmc(dir: &Path, depth: u32, vcd: Option<&Path>) -> Result<Smt, String> {
    let text = abc(dir, &format!("bmc3 -F {}; write_cex -a witness.aiw", depth))?;
    if text.contains(&format!("No output asserted in {} frames", depth)) {
        return Ok(Smt::Passed);
    }
    let frame = Regex::new(r"was asserted in frame (\d+)")
        .expect("static regex")
        .captures(&text)
        .and_then(|c| c[1].parse::<u32>().ok())
        .ok_or_else(|| {
            format!(
                "yosys-abc bmc3 gave no result: {}",
                text.lines().rev().take(4).collect::<Vec<_>>().join(" / ")
            )
        })?;
    match vcd {
        None => Ok(Smt::Failed { step: frame }),
        Some(vcd) => match sim_replay(dir, vcd)? {
            Some(step) => Ok(Smt::Failed { step }),
            None => smtbmc_replay(dir, frame, vcd),
        },
    }
}

/// ABC's witness (`witness.aiw`) replayed by Yosys `sim` on the design before gate mapping
/// (`replay.ys`) into `vcd`: the step of the first failing assertion, or `None` when the replay
/// does not show one with every assumption holding before it (Yosys 0.23's `sim` does not
/// drive an `$anyseq` cell from the witness; the model build makes every one a named input so
/// that this does not happen).
fn sim_replay(dir: &Path, vcd: &Path) -> Result<Option<u32>, String> {
    let io = |e: std::io::Error| format!("{}: {}", dir.display(), e);
    let script = read_text(&dir.join("replay.ys"))?;
    std::fs::write(
        dir.join("replay_run.ys"),
        format!(
            "{}sim -clock clock -r witness.aiw -map model.aim -timescale 1ns -vcd {}\n",
            script,
            vcd.display()
        ),
    )
    .map_err(io)?;
    let out = run(Command::new("yosys")
        .current_dir(dir)
        .args(["-s", "replay_run.ys"]))?;
    if !out.status.success() {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let cycle = Regex::new(r"^Simulating cycle (\d+)\.").expect("static regex");
    let mut step = None;
    for line in text.lines() {
        if let Some(c) = cycle.captures(line) {
            step = c[1].parse::<u32>().ok();
        } else if line.contains("Assumption ") && line.contains(" failed") {
            return Ok(None);
        } else if line.contains("Assert ") && line.contains(" failed") {
            return Ok(step);
        }
    }
    Ok(None)
}

/// ABC's witness replayed by `yosys-smtbmc --aig` (cvc5) on `model.smt2` into `vcd`: the step
/// its assertion fails. Slow on large models (about 40 s a step on the 64-entry provoking-vertex
/// cache), used where Yosys `sim` cannot replay the witness.
fn smtbmc_replay(dir: &Path, frame: u32, vcd: &Path) -> Result<Smt, String> {
    let mut cmd = Command::new("yosys-smtbmc");
    cmd.current_dir(dir)
        .args(["-s", Solver::Abc.name(), "--aig", "model.aim:witness.aiw"])
        .args(["--aig-noheader", "-t", &(frame + 1).to_string()])
        .arg("--dump-vcd")
        .arg(vcd)
        .arg("model.smt2");
    let out = run(&mut cmd)?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.contains("Status: FAILED") {
        return Err(format!(
            "ABC's counterexample (frame {}) did not replay on the SMT-LIB model: {}",
            frame,
            text.lines().rev().take(4).collect::<Vec<_>>().join(" / ")
        ));
    }
    let step = last_checked_step(&text).unwrap_or(frame);
    Ok(Smt::Failed { step })
}

/// ABC's induction step: the assertions holding in k consecutive steps (from any state, the
/// assumptions holding in every step) imply them in the next, `ind -F k+1` (ABC counts the
/// frames it unrolls, the checked one included; the `k` of `yosys-smtbmc -i -t k`: a property
/// that smtbmc proves at k, ABC proves at k). The base case runs to k + 1 steps, one more than
/// the induction assumes, so the proof does not rest on which of the two counts is meant.
fn abc_induction(dir: &Path, k: u32) -> Result<Smt, String> {
    let text = abc(dir, &format!("ind -F {}", k + 1))?;
    if text.contains("Networks are equivalent") {
        Ok(Smt::Passed)
    } else if text.contains("UNDECIDED") || text.contains("NOT EQUIVALENT") {
        Ok(Smt::Failed { step: k })
    } else {
        Err(format!(
            "yosys-abc ind gave no result: {}",
            text.lines().rev().take(4).collect::<Vec<_>>().join(" / ")
        ))
    }
}

/// `synth/FORMAL.md` rows of `results`.
pub fn report_rows(results: &[FormalResult]) -> Vec<String> {
    results
        .iter()
        .map(|r| {
            format!(
                "| {} | {} | {} | {} | {} | {} | {:.1} | {} | {} |",
                r.unit,
                if r.variant.is_empty() {
                    "-"
                } else {
                    &r.variant
                },
                r.property,
                r.claim,
                match r.solver {
                    Solver::Z3 => r.mode.label(),
                    s => format!("{}, {}", r.mode.label(), s.label()),
                },
                if r.passed {
                    "PASS".to_string()
                } else {
                    format!("FAIL: {}", r.detail)
                },
                r.seconds,
                r.mutant,
                match &r.mutant_caught {
                    Some((step, _)) => format!("caught, counterexample at step {}", step),
                    None => "NOT CAUGHT".into(),
                }
            )
        })
        .collect()
}

/// The header of `synth/FORMAL.md`.
pub const REPORT_HEADER: &str = "# Formal proofs\n\n\
Written by `ppu formal` (Yosys `read_verilog -formal`, `prep`, `write_smt2`; `yosys-smtbmc -s z3`, or cvc5 where the mode says so; cvc5 bitblast: cvc5 with `--bv-solver=bitblast-internal`; \
abc: the same model as AIGER checked by ABC (`yosys-abc`: `fold`, `orpos`, `bmc3` for the base case and bounded checks, `ind` for the induction step), a counterexample replayed by Yosys `sim` into its VCD). \
Each unit's properties are in `synth/formal/<unit>_props.sv` (`gp_fifo_compare` shares `gp_fifo_props.sv`), a wrapper around the exported \
module with assumptions on its inputs (reset first, valid/ready: a producer holds valid and \
payload until the transfer) and assertions on its outputs. prove (k=N): k-induction (BMC base \
case to N, then the induction step), with helper invariants asserted beside the property, so \
they are proved too. bmc N: bounded model check to depth N (the reason for the depth is in the \
props file). prove (k=N; mutant bmc M): the same proof, the mutant's BMC to depth M. Each \
property has a mutant (a one-place change of the exported Verilog that breaks it); the mutant is checked by BMC without the helper invariants and must fail with a \
counterexample, a VCD under `target/formal/cex/` (open it in GTKWave). Seconds: the proof, \
without the mutant (wall clock; `ppu formal` runs the properties one per core).\n\n\
| unit | parameters | property | claim | mode | result | seconds | mutant | mutant |\n\
| --- | --- | --- | --- | --- | --- | ---: | --- | --- |\n";

/// What `synth/FORMAL.md` does not prove unboundedly yet, after the table (each reason in the
/// check's doc).
pub const REPORT_FOOTER: &str = "\nBounded only:\n\n\
- `order_sequencer` (ORDER, LAYER): bounded to 12 steps, which cover a batch of two primitives taken \
at steps 1 and 2 and its first five beats (steps 7 to 11: its kill beats, then a viewport pass of both \
primitives). The scan (pass, position, stages T and P, the beat FIFO) has no helper invariants tying it \
to the tracked batch yet, so no induction; ABC's BMC takes 15 s to 13 steps and 3 minutes to 15.\n\
- `tiling_unit` (TILE_ORDER): bounded to 20 steps with at most 2 cache tiles and the block RAMs cut to 4 \
words (`bin_capacity` at most 4, so the cut is exact), which hold a whole flush of one tile with a tiled \
barrier between two primitives of the tracked tile, from the reset to the unit idle again (18 steps), \
and a two-tile flush's first round (the whole takes 21). The order lives in the linked lists in the RAMs, \
with no invariants over them yet; with the full 256-word RAMs ABC's BMC reaches 17 steps in 5 minutes, \
cut it doubles its time per step (about 2 minutes at 20 on a 2-core machine with the walk's registered \
compares, 40 s before them).\n";

/// Replace the rows of the units in `results` in `old` (a report) by the new ones, keeping the
/// other units' rows; rows in the order of `order` (unit names).
pub fn merge_report(old: &str, results: &[FormalResult], order: &[&str]) -> String {
    let new_rows = report_rows(results);
    let fresh: Vec<&str> = results.iter().map(|r| r.unit.as_str()).collect();
    let mut rows: Vec<String> = old
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| unit") && !l.starts_with("| ---"))
        .filter(|l| {
            let unit = l.trim_start_matches("| ").split(" |").next().unwrap_or("");
            !fresh.contains(&unit)
        })
        .map(str::to_string)
        .collect();
    rows.extend(new_rows);
    let rank = |l: &String| {
        let unit = l.trim_start_matches("| ").split(" |").next().unwrap_or("");
        order.iter().position(|u| *u == unit).unwrap_or(usize::MAX)
    };
    rows.sort_by_key(rank);
    format!("{}{}\n{}", REPORT_HEADER, rows.join("\n"), REPORT_FOOTER)
}
