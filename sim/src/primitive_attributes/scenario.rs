//! The `primitive-attributes` scenario (SPEC section 6): strict parsing and validation (exit 2
//! naming the field), the run through the system simulation, the trace, and a check of that
//! trace against the golden model.
//!
//! Input readings (documented in `docs/requirements.md` too):
//! - a vertex component is a JSON number (read as a 64-bit float and rounded to the nearest
//!   32-bit float) or a string `"0x"` + 1..8 hex digits giving the IEEE-754 bit pattern
//!   itself (NaN payloads, infinities: JSON numbers cannot carry them);
//! - `swizzle` has exactly 16 values: packed codes < 4096, or with `"swizzle_format":
//!   "register"` 16-bit register values whose reserved bits (3, 7, 11, 15) are 0;
//! - limits of the RTL: at most 65,536 vertices (16-bit vertex tags), `batch` 1..=256,
//!   `vertex_cache` 1..=64; with `layer_offset`, a primitive's layer plus its highest viewport
//!   fits in 32 bits.
use super::system::{self, GsMode, Order, PrimAttrs, SwizzleFormat, SystemConfig, Topology};
use crate::scenario::{
    parse_as, require_objects, RunError, RunOptions, RunSummary, ScenarioRunner,
};
use crate::trace::TraceWriter;
use ppu_hdl::primitive_attributes::item::VERTEX_BITS;
use ppu_hdl::primitive_attributes::provoking_vertex_cache::CACHE_ENTRIES;
use serde::Deserialize;
use serde_json::{json, Value};

pub fn runners() -> Vec<ScenarioRunner> {
    vec![ScenarioRunner {
        unit: "primitive-attributes",
        builtin,
        run,
    }]
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PaScenario {
    #[allow(dead_code)]
    unit: String,
    config: ConfigJson,
    topology: String,
    vertices: Vec<[Value; 4]>,
    prims: Vec<PrimJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigJson {
    gs_mode: String,
    order: String,
    batch: u64,
    provoking: String,
    layer_offset: bool,
    vertex_cache: u64,
    swizzle: Vec<u64>,
    #[serde(default)]
    swizzle_format: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PrimJson {
    mask: u64,
    layer: u64,
}

/// Largest batch of the viewport-order sequencer.
pub const MAX_BATCH: u64 = 256;

/// The scenario of SPEC section 6's example, completed: a strip of two triangles, the first
/// to viewports 0 and 1, the second killed; identity swizzles except viewport 1, which swaps
/// x and y and negates z.
pub fn builtin() -> Value {
    let mut swizzle = vec![json!(3344); 16];
    swizzle[1] = json!(2 | (0 << 3) | (5 << 6) | (6 << 9));
    json!({"unit":"primitive-attributes",
        "config":{"gs_mode":"fast","order":"strict","batch":16,"provoking":"first",
                  "layer_offset":true,"vertex_cache":32,"swizzle":swizzle},
        "topology":"triangle_strip",
        "vertices":[[0.0,0.0,0.5,1.0],[1.0,0.0,0.5,1.0],[0.0,1.0,0.5,1.0],[1.0,1.0,0.5,1.0]],
        "prims":[{"mask":3,"layer":0},{"mask":0,"layer":2}]})
}

fn choice<T: Copy>(field: &str, got: &str, options: &[(&str, T)]) -> Result<T, RunError> {
    options
        .iter()
        .find(|(n, _)| *n == got)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = options.iter().map(|(n, _)| format!("{:?}", n)).collect();
            RunError::invalid(
                field,
                format!("{:?} is not one of {}", got, names.join(", ")),
            )
        })
}

/// One vertex component's IEEE-754 bit pattern.
fn component_bits(v: &Value, field: &str) -> Result<u32, RunError> {
    match v {
        Value::Number(n) => {
            let f = n
                .as_f64()
                .ok_or_else(|| RunError::invalid(field, format!("{} is not a number", n)))?;
            let s = f as f32;
            if f.is_finite() && !s.is_finite() {
                return Err(RunError::invalid(
                    field,
                    format!(
                        "{} overflows a 32-bit float (give infinities as \"0x7f800000\")",
                        n
                    ),
                ));
            }
            Ok(s.to_bits())
        }
        Value::String(s) => {
            let hex = s.strip_prefix("0x").unwrap_or("");
            if hex.is_empty() || hex.len() > 8 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(RunError::invalid(
                    field,
                    format!("{:?} is not \"0x\" and 1 to 8 hexadecimal digits", s),
                ));
            }
            u32::from_str_radix(hex, 16).map_err(|e| RunError::invalid(field, e))
        }
        other => Err(RunError::invalid(
            field,
            format!("{} must be a number or a \"0x...\" bit pattern", other),
        )),
    }
}

/// Validate the swizzle values (PA-5).
fn swizzles(c: &ConfigJson) -> Result<([u32; 16], SwizzleFormat), RunError> {
    let format = choice(
        "config.swizzle_format",
        c.swizzle_format.as_deref().unwrap_or("packed"),
        &[
            ("packed", SwizzleFormat::Packed),
            ("register", SwizzleFormat::Register),
        ],
    )?;
    if c.swizzle.len() != 16 {
        return Err(RunError::invalid(
            "config.swizzle",
            format!(
                "{} values; one per viewport, 16, are needed",
                c.swizzle.len()
            ),
        ));
    }
    let mut out = [0u32; 16];
    for (i, &v) in c.swizzle.iter().enumerate() {
        let field = format!("config.swizzle[{}]", i);
        match format {
            SwizzleFormat::Packed if v >= 1 << 12 => {
                return Err(RunError::invalid(
                    &field,
                    format!("{} is not a 12-bit swizzle (< 4096)", v),
                ))
            }
            SwizzleFormat::Register if v > 0xFFFF => {
                return Err(RunError::invalid(
                    &field,
                    format!("0x{:x} does not fit the 16-bit swizzle register", v),
                ))
            }
            SwizzleFormat::Register if v & 0x8888 != 0 => {
                return Err(RunError::invalid(
                    &field,
                    format!(
                        "0x{:04x} sets reserved bit(s) 0x{:04x} of the swizzle register (bits 3, 7, 11, 15)",
                        v,
                        v & 0x8888
                    ),
                ))
            }
            _ => out[i] = v as u32,
        }
    }
    Ok((out, format))
}

/// The draw of a scenario: topology, vertex bit patterns, one primitive per triangle.
fn draw(
    sc: &PaScenario,
    layer_offset: bool,
) -> Result<(Topology, Vec<[u32; 4]>, Vec<PrimAttrs>), RunError> {
    let topology = choice(
        "topology",
        &sc.topology,
        &[
            ("triangle_list", Topology::TriangleList),
            ("triangle_strip", Topology::TriangleStrip),
        ],
    )?;
    let n = sc.vertices.len();
    if n > 1 << VERTEX_BITS {
        return Err(RunError::invalid(
            "vertices",
            format!(
                "{} vertices; the vertex cache's tags hold at most {}",
                n,
                1u64 << VERTEX_BITS
            ),
        ));
    }
    let tri_count = match topology {
        Topology::TriangleList if n == 0 || n % 3 != 0 => {
            return Err(RunError::invalid(
                "vertices",
                format!(
                    "a triangle_list needs a positive multiple of 3 vertices, not {}",
                    n
                ),
            ))
        }
        Topology::TriangleStrip if n < 3 => {
            return Err(RunError::invalid(
                "vertices",
                format!("a triangle_strip needs at least 3 vertices, not {}", n),
            ))
        }
        Topology::TriangleList => n / 3,
        Topology::TriangleStrip => n - 2,
    };
    let mut vertices = Vec::with_capacity(n);
    for (i, v) in sc.vertices.iter().enumerate() {
        let mut bits = [0u32; 4];
        for (k, comp) in v.iter().enumerate() {
            bits[k] = component_bits(comp, &format!("vertices[{}][{}]", i, k))?;
        }
        vertices.push(bits);
    }
    if sc.prims.len() != tri_count {
        return Err(RunError::invalid(
            "prims",
            format!(
                "{} entries for {} triangles of the {} (one per triangle)",
                sc.prims.len(),
                tri_count,
                sc.topology
            ),
        ));
    }
    let mut prims = Vec::with_capacity(tri_count);
    for (i, p) in sc.prims.iter().enumerate() {
        if p.mask > 0xFFFF {
            return Err(RunError::invalid(
                &format!("prims[{}].mask", i),
                format!("0x{:x} is not a 16-bit viewport mask", p.mask),
            ));
        }
        let top = if layer_offset && p.mask != 0 {
            15 - (p.mask as u16).leading_zeros() as u64
        } else {
            0
        };
        if p.layer.saturating_add(top) > u32::MAX as u64 {
            return Err(RunError::invalid(
                &format!("prims[{}].layer", i),
                if layer_offset {
                    format!(
                        "{} (+ viewport {} with layer_offset) does not fit a 32-bit layer",
                        p.layer, top
                    )
                } else {
                    format!("{} does not fit a 32-bit layer", p.layer)
                },
            ));
        }
        prims.push(PrimAttrs {
            mask: p.mask as u16,
            layer: p.layer as u32,
        });
    }
    Ok((topology, vertices, prims))
}

/// Parse and validate a scenario into a system configuration.
pub fn system_config(value: &Value) -> Result<SystemConfig, RunError> {
    require_objects(value, "", &["config", "prims[]"])?;
    let sc: PaScenario = parse_as(value, "")?;
    let c = &sc.config;
    let gs_mode = choice(
        "config.gs_mode",
        &c.gs_mode,
        &[("fast", GsMode::Fast), ("traditional", GsMode::Traditional)],
    )?;
    let order = choice(
        "config.order",
        &c.order,
        &[("strict", Order::Strict), ("viewport", Order::Viewport)],
    )?;
    let provoking_last = choice(
        "config.provoking",
        &c.provoking,
        &[("first", false), ("last", true)],
    )?;
    if !(1..=MAX_BATCH).contains(&c.batch) {
        return Err(RunError::invalid(
            "config.batch",
            format!(
                "{} is not in 1..={} (the sequencer's batch memory)",
                c.batch, MAX_BATCH
            ),
        ));
    }
    if !(1..=CACHE_ENTRIES as u64).contains(&c.vertex_cache) {
        return Err(RunError::invalid(
            "config.vertex_cache",
            format!(
                "{} is not in 1..={} (the vertex cache's entries)",
                c.vertex_cache, CACHE_ENTRIES
            ),
        ));
    }
    let (swizzle, swizzle_format) = swizzles(c)?;
    let (topology, vertices, prims) = draw(&sc, c.layer_offset)?;
    Ok(SystemConfig {
        gs_mode,
        order,
        batch: c.batch as usize,
        provoking_last,
        layer_offset: c.layer_offset,
        vertex_cache: c.vertex_cache as usize,
        swizzle,
        swizzle_format,
        topology,
        vertices,
        prims,
        vcd: None,
        engine: Default::default(),
        record_ports: false,
    })
}

/// Run a configuration with a trace kept in memory (and written to `path` when given), and
/// check the trace against `scenario` with the golden model.
pub fn run_checked(
    scenario: &Value,
    cfg: &SystemConfig,
    path: Option<&std::path::Path>,
) -> Result<(system::SystemResult, Vec<Value>), RunError> {
    run_checked_with(scenario, cfg, TraceWriter::create(path)?)
}

/// [`run_checked`] writing through `trace` (a `ppu run`'s, with its progress spinner).
pub fn run_checked_with(
    scenario: &Value,
    cfg: &SystemConfig,
    trace: TraceWriter,
) -> Result<(system::SystemResult, Vec<Value>), RunError> {
    let mut trace = trace.keep_events();
    let (result, _) = system::run(cfg, Some(&mut trace))?;
    let events = trace.done(result.cycles, system::done_fields(&result))?;
    super::golden::check_trace(scenario, &events)
        .map_err(|e| RunError::Violation(format!("golden check of the trace: {}", e)))?;
    Ok((result, events))
}

pub fn run(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    let mut cfg = system_config(value)?;
    opts.check_outputs()?;
    cfg.vcd = opts.vcd.clone();
    cfg.engine = opts.engine;
    let (r, _) = run_checked_with(
        value,
        &cfg,
        TraceWriter::for_run(opts, "primitive-attributes")?,
    )?;
    let tris = cfg.prims.len().max(1) as f64;
    let lookups = (r.cache_hits + r.cache_misses).max(1) as f64;
    Ok(RunSummary {
        unit: "primitive-attributes".into(),
        cycles: r.cycles,
        figures: vec![
            ("vs".into(), r.vs.to_string()),
            ("gs".into(), r.gs.to_string()),
            ("outs".into(), r.outs.to_string()),
            ("kills".into(), r.kills.to_string()),
            (
                "VPC vertices/triangle".into(),
                format!("{:.2}", r.cache_misses as f64 / tris),
            ),
            (
                "cache hit rate".into(),
                format!("{:.3}", r.cache_hits as f64 / lookups),
            ),
        ],
    })
}
