//! Verilog export (SPEC X-4): one file per top unit, `synth/verilog/<unit>.v`, whose top module
//! carries the unit's own name.
//!
//! rust-hdl's `generate_verilog` names the top module `top` and every sub-block module
//! `top$<path>`; [`verilog_of`] renames them `<unit>` and `<unit>$<path>`. It also rewrites
//! rust-hdl's cast idiom for typed literals, `((32'hV) & W'hM)` with `M = 2^W - 1`, into the
//! `W`-bit literal `W'hV` it stands for, so that `bits::<W>(v)` in an `#[hdl_gen]` kernel
//! exports as a `W`-bit constant (no width warnings, nothing waived).
use regex::Regex;
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One exported top unit with its reference parameters.
pub struct Unit {
    /// Module and file name, e.g. `stream_fifo`.
    pub name: &'static str,
    /// Which mechanism it belongs to (`foundation`, `stream-out`, `status`, ...).
    pub mechanism: &'static str,
    /// One line: what it is and its reference parameters.
    pub summary: &'static str,
    /// Builds the Verilog text of the unit at its reference parameters.
    pub verilog: fn() -> String,
    /// Runs the unit's reference testbench (at the reference parameters, with its golden-model
    /// checks) recording the per-cycle port values that co-simulation replays (SPEC X-4).
    pub cosim_trace: fn() -> Result<crate::harness::PortTrace, String>,
}

/// Verilog of `uut`, with the top module named `module`.
pub fn verilog_of<B: Block>(mut uut: B, module: &str) -> String {
    uut.connect_all();
    let raw = generate_verilog(&uut);
    rename_top(
        &zero_extensions(&field_slices(&typed_literals(&raw))),
        module,
    )
}

/// Verilog of an already connected block (`connect_all` done, as in a harness), top module
/// named `module`: the same text as [`verilog_of`].
pub fn verilog_of_connected<B: Block>(uut: &B, module: &str) -> String {
    rename_top(
        &zero_extensions(&field_slices(&typed_literals(&generate_verilog(uut)))),
        module,
    )
}

/// Rewrite rust-hdl's widening cast `((x) & W'hM)` (from `bit_cast::<W, w>(x)`, M = 2^W - 1)
/// of a signal or a part-select `x[O+:w]` narrower than W into the zero extension
/// `{{(W-w){1'b0}}, x}`, so that Verilator sees matching widths (WIDTH) and the value is the
/// same. The width of `x` is read from its declaration in the same module; a cast whose operand
/// is not found, or is not narrower, is left as it is.
pub fn zero_extensions(text: &str) -> String {
    static DECL: OnceLock<Regex> = OnceLock::new();
    static CAST: OnceLock<Regex> = OnceLock::new();
    let decl = DECL.get_or_init(|| {
        Regex::new(r"(?m)^\s*(?:input\s+|output\s+)?(?:wire|reg)\s+(?:\[(\d+):0\]\s*)?([A-Za-z_][A-Za-z0-9_$]*)\s*;")
            .unwrap()
    });
    let cast = CAST.get_or_init(|| {
        Regex::new(r"\(\(([A-Za-z_][A-Za-z0-9_$]*)(\[(\d+)\+:(\d+)\])?\) & (\d+)'h([0-9a-fA-F]+)\)")
            .unwrap()
    });
    let mut out = String::with_capacity(text.len());
    for (k, module) in text.split_inclusive("endmodule").enumerate() {
        let _ = k;
        let widths: std::collections::HashMap<&str, u32> = decl
            .captures_iter(module)
            .map(|c| {
                let w = c
                    .get(1)
                    .and_then(|m| m.as_str().parse::<u32>().ok())
                    .map_or(1, |m| m + 1);
                (c.get(2).map_or("", |m| m.as_str()), w)
            })
            .collect();
        let replaced = cast.replace_all(module, |c: &regex::Captures| {
            let name = &c[1];
            let target: u32 = c[5].parse().unwrap_or(0);
            let mask_ok = u128::from_str_radix(&c[6], 16).ok()
                == (1..128).contains(&target).then(|| (1u128 << target) - 1);
            let width = match c.get(4) {
                Some(w) => w.as_str().parse::<u32>().ok(),
                None => widths.get(name).copied(),
            };
            let operand = format!("{}{}", name, c.get(2).map_or("", |m| m.as_str()));
            match width {
                Some(w) if mask_ok && w < target => {
                    format!("{{{{{}{{1'b0}}}}, {}}}", target - w, operand)
                }
                Some(w) if mask_ok && w == target => operand,
                _ => c[0].to_string(),
            }
        });
        out.push_str(&replaced);
    }
    out
}

/// Rewrite rust-hdl's struct-field part-selects `x[(64'hO)+:(W)]` (from `.val().field` on a
/// `LogicStruct`) into `x[O+:W]` with a plain decimal offset, so that Verilator does not see a
/// 64-bit index (WIDTH) on every message field access.
pub fn field_slices(text: &str) -> String {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re =
        RE.get_or_init(|| Regex::new(r"\[\((?:64|32)'h([0-9a-fA-F]+)\)\+:\((\d+)\)\]").unwrap());
    re.replace_all(text, |c: &regex::Captures| {
        match u64::from_str_radix(&c[1], 16) {
            Ok(o) => format!("[{}+:{}]", o, &c[2]),
            Err(_) => c[0].to_string(),
        }
    })
    .into_owned()
}

fn literal_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\(\(32'h([0-9a-fA-F]+)\) & (\d+)'h([0-9a-fA-F]+)\)").unwrap())
}

/// Rewrite `((32'hV) & W'hM)` (rust-hdl's `bits::<W>(V)`) into `W'hV`.
pub fn typed_literals(text: &str) -> String {
    literal_re()
        .replace_all(text, |c: &regex::Captures| {
            let value = u128::from_str_radix(&c[1], 16).ok();
            let width: u32 = c[2].parse().unwrap_or(0);
            let mask = u128::from_str_radix(&c[3], 16).ok();
            match (value, mask) {
                (Some(v), Some(m)) if (1..128).contains(&width) && m == (1u128 << width) - 1 => {
                    format!("{}'h{:x}", width, v & m)
                }
                _ => c[0].to_string(),
            }
        })
        .into_owned()
}

/// Rename module `top` (and its sub-modules `top$x`) to `name`.
pub fn rename_top(text: &str, name: &str) -> String {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?m)^(\s*module |\s*endmodule // |\s*)top(\$[A-Za-z0-9_$]*)?\b").unwrap()
    });
    re.replace_all(text, |c: &regex::Captures| {
        format!(
            "{}{}{}",
            &c[1],
            name,
            c.get(2).map(|m| m.as_str()).unwrap_or("")
        )
    })
    .into_owned()
}

/// Write every unit (or only `only`) to `dir/<unit>.v`; returns the paths written.
pub fn write_all(dir: &Path, units: &[Unit], only: &[String]) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut out = vec![];
    for u in units {
        if !only.is_empty() && !only.iter().any(|o| o == u.name) {
            continue;
        }
        let path = dir.join(format!("{}.v", u.name));
        let text = format!(
            "// {} — {}\n// Generated by `ppu export` from the rust-hdl sources of ppu-rtl; do not edit.\n{}",
            u.name,
            u.summary,
            (u.verilog)()
        );
        std::fs::write(&path, text)?;
        out.push(path);
    }
    Ok(out)
}
