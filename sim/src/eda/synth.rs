//! Synthesis (SPEC X-4): Yosys `synth_ice40` and nextpnr-ice40 on every exported unit, and the
//! report `synth/REPORT.md` (logic cells, flip-flops, RAM bits, maximum frequency per unit).
//!
//! Resource figures come from Yosys on the bare unit. Fmax comes from nextpnr-ice40 (HX8K,
//! CT256) on the unit inside a registered IO wrapper: all unit inputs are loaded from one
//! serial shift register and all outputs are captured into another, so units with more ports
//! than the package has pins still place, and every timing path starts and ends at a
//! flip-flop. The wrapper's own flip-flops are counted in the placed logic cells and reported
//! in their own column.
use crate::eda::{self, export, ToolCheck};
use regex::Regex;
use std::fmt::Write as _;
use std::path::Path;
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
    pub note: String,
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
    if iw > 1 {
        let _ = writeln!(
            s,
            "  always @(posedge clk) in_sr <= {{in_sr[{}:0], sin}};",
            iw - 2
        );
    } else {
        let _ = writeln!(s, "  always @(posedge clk) in_sr <= sin;");
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

/// Cell counts from Yosys `stat` output: (LUT4, carry, flip-flops, RAM bits).
pub fn parse_stat(text: &str) -> (u64, u64, u64, u64) {
    let (mut lut, mut carry, mut ff, mut ram) = (0, 0, 0, 0);
    for line in text.lines() {
        let mut it = line.split_whitespace();
        let (Some(cell), Some(n)) = (it.next(), it.next()) else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else { continue };
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

/// Synthesize one unit's Verilog in `dir`.
pub fn synthesize(
    yosys: &Path,
    nextpnr: Option<&Path>,
    name: &str,
    mechanism: &str,
    verilog: &str,
    dir: &Path,
) -> Result<SynthRow, String> {
    let io = |r: std::io::Result<()>| r.map_err(|e| e.to_string());
    io(std::fs::write(dir.join(format!("{}.v", name)), verilog))?;
    let script = format!(
        "read_verilog -sv {n}.v; synth_ice40 -top {n}; tee -o {n}.stat stat",
        n = name
    );
    eda::run_ok(
        Command::new(yosys)
            .current_dir(dir)
            .args(["-q", "-p", &script]),
    )?;
    let stat =
        std::fs::read_to_string(dir.join(format!("{}.stat", name))).map_err(|e| e.to_string())?;
    let (lut4, carry, flip_flops, ram_bits) = parse_stat(&stat);
    let mut row = SynthRow {
        unit: name.into(),
        mechanism: mechanism.into(),
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
    io(std::fs::write(dir.join(format!("{}_pnr.v", name)), wrapper))?;
    let script = format!(
        "read_verilog -sv {n}.v {n}_pnr.v; synth_ice40 -top {n}_pnr -json {n}_pnr.json",
        n = name
    );
    eda::run_ok(
        Command::new(yosys)
            .current_dir(dir)
            .args(["-q", "-p", &script]),
    )?;
    let json = format!("{}_pnr.json", name);
    let out = eda::run(Command::new(nextpnr).current_dir(dir).args([
        "--hx8k",
        "--package",
        "ct256",
        "--json",
        &json,
        "--freq",
        "12",
        "--seed",
        "1",
        "--pcf-allow-unconstrained",
    ]))?;
    let log =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let (fmax, lcs) = parse_pnr(&log);
    row.fmax_mhz = fmax;
    row.placed_lcs = lcs;
    if !out.status.success() {
        row.note = format!(
            "nextpnr failed: {}",
            log.lines()
                .filter(|l| l.contains("ERROR"))
                .next()
                .unwrap_or("see log")
        );
    }
    Ok(row)
}

/// Synthesize every unit (or those named).
pub fn synthesize_all(
    all: Vec<export::Unit>,
    only: &[String],
    progress: bool,
) -> Result<Vec<SynthRow>, String> {
    let yosys = match eda::tool("yosys", "synthesis")? {
        ToolCheck::Use(p) => p,
        ToolCheck::Skip(why) => return Err(why),
    };
    let nextpnr = match eda::tool("nextpnr-ice40", "place and route")? {
        ToolCheck::Use(p) => Some(p),
        ToolCheck::Skip(why) => {
            eprintln!("{}", why);
            None
        }
    };
    let units: Vec<export::Unit> = all
        .into_iter()
        .filter(|u| only.is_empty() || only.iter().any(|o| o == u.name))
        .collect();
    let pb = crate::progress::bar(units.len() as u64, "synth", progress);
    let mut rows = vec![];
    for u in &units {
        pb.set_message(u.name);
        let dir = eda::scratch_dir(&format!("synth-{}", u.name)).map_err(|e| e.to_string())?;
        rows.push(synthesize(
            &yosys,
            nextpnr.as_deref(),
            u.name,
            u.mechanism,
            &(u.verilog)(),
            &dir,
        )?);
        let _ = std::fs::remove_dir_all(&dir);
        pb.inc(1);
    }
    pb.finish_and_clear();
    Ok(rows)
}

/// The Markdown of `synth/REPORT.md`.
pub fn report_markdown(rows: &[SynthRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Synthesis report (SPEC X-4)\n");
    let _ = writeln!(
        s,
        "Generated by `cargo run --release -- synth` (Yosys `synth_ice40`, nextpnr-ice40 `--hx8k --package ct256 --seed 1`).\n\
         LUT4, carry, flip-flops and RAM bits: Yosys on the bare unit. Placed LCs and Fmax: nextpnr on the unit inside a\n\
         registered serial IO wrapper (its flip-flops are counted in placed LCs and listed as wrapper FFs), so every path\n\
         is register to register.\n"
    );
    let _ = writeln!(
        s,
        "| unit | mechanism | LUT4 | carry | flip-flops | RAM bits | placed LCs | wrapper FFs | Fmax (MHz) | note |"
    );
    let _ = writeln!(
        s,
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.unit,
            r.mechanism,
            r.lut4,
            r.carry,
            r.flip_flops,
            r.ram_bits,
            r.placed_lcs
                .map(|v| v.to_string())
                .unwrap_or_else(|| "-".into()),
            r.wrapper_ffs,
            r.fmax_mhz
                .map(|v| format!("{:.1}", v))
                .unwrap_or_else(|| "-".into()),
            r.note
        );
    }
    s
}

/// Units named in a report's table.
pub fn units_in_report(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| unit") && !l.starts_with("| ---"))
        .filter_map(|l| l.split('|').nth(1).map(|c| c.trim().to_string()))
        .collect()
}
