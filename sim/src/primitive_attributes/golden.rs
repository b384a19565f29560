//! Golden model of primitive-specific attributes (PA-1..PA-7), in plain Rust and independent of
//! the RTL: the swizzle of PA-5 on IEEE-754 bit patterns and its register adapter, the triangles
//! of lists and strips with their provoking vertex, the multicast outputs of PA-2..PA-4, and
//! [`check_trace`], a checker of a whole `primitive-attributes` run's trace against its scenario:
//! exactly the expected outputs in the expected order (PA-2..PA-5), unique provoking instances
//! (PA-6), world-space work once (PA-7) and the trace format of X-5.
//!
//! Written from the words of the specification only (section 6 and the scenario/trace rules of
//! X-5), never from the RTL, so that a misreading shared by both would show up as a failing
//! check rather than pass every test.
//!
//! Readings fixed by the designer:
//! 1. Vertex order: list triangle i = (3i, 3i+1, 3i+2); strip triangle i = (i, i+1, i+2) for
//!    even i, (i+1, i, i+2) for odd i. `prims` has exactly one entry per triangle. The provoking
//!    vertex is output vertex 0 (`first`) or 2 (`last`) of that order.
//! 2. `out` events are exactly the sequence [`expected_outputs`] gives, in that order. Strict
//!    order: per primitive, ascending viewports. Viewport order: per batch of `batch`
//!    consecutive input primitives (killed ones included), for viewport 0..15 ascending, the
//!    primitives of the batch with that bit, in primitive order. Layer = primitive layer +
//!    viewport when `layer_offset`, else the primitive layer (PA-3). `kill {prim}` comes exactly
//!    once for every primitive with mask 0 and for no other; anywhere in the trace after that
//!    primitive's `gs`.
//! 3. `out.vertices` are the three vertices of the triangle in the order of reading 1, each
//!    swizzled (PA-5) with that viewport's swizzle `config.swizzle[viewport]` (with
//!    `swizzle_format` `"register"`, each value goes through [`swizzle_from_register`] first).
//!    A scenario vertex component is either a JSON number, read as serde_json's f64 and rounded
//!    to f32 (`as f32`), whose bits are [`f32::to_bits`] (write -0.0 as `-0.0`, not `-0`), or a
//!    JSON string `"0x"` followed by 1 to 8 hexadecimal digits giving the bit pattern itself
//!    (for NaN payloads and infinities, which JSON numbers cannot carry).
//! 4. `out.provoking_vertex` is the input vertex index of the provoking vertex.
//!    `out.provoking_instance`: all outputs of one primitive carry the same instance; two
//!    different primitives never share one (PA-6).
//! 5. PA-7: `vs {vertex}` exactly once per input vertex (also vertices used only by killed
//!    primitives); `gs {prim}` exactly once per input primitive, whatever its mask. Every `vs`
//!    of a triangle's vertices comes before that primitive's `gs` in trace order, and a
//!    primitive's `gs` before its `out`/`kill` events.
//! 6. `cache {vertex, hit}` is checked only for its format and that `vertex` is an input vertex
//!    index; the numbers of hits and misses must equal `done.cache_hits` and
//!    `done.cache_misses`. The cache size and policy are the RTL's business (PA-6).
//! 7. `done {cycles, vs, gs, outs, cache_hits, cache_misses}` is the last line, once; `vs`,
//!    `gs`, `outs` equal the numbers of those events; `cycles` >= every earlier event's cycle;
//!    cycles are non-decreasing through the trace.
//! 8. `config`: `gs_mode` `"fast"` | `"traditional"`, `order` `"strict"` | `"viewport"`,
//!    `provoking` `"first"` | `"last"`, `layer_offset` a boolean, `batch` >= 1,
//!    `vertex_cache` >= 1, `swizzle` exactly 16 values (< 4096 packed, or register values the
//!    adapter accepts), `swizzle_format` optional. `topology` `"triangle_list"` |
//!    `"triangle_strip"`. Unknown fields or events and missing fields are errors. The example's
//!    `"... 16 values of 12 bits"` string is an elision of the document, not valid input.
//!
//! Readings taken here (each checked):
//! - [`swizzle`] ignores bits 12..15 of its code (a scenario's packed values are < 4096);
//!   [`swizzle_from_register`] also refuses any bit above 15 (the register is 16 bits).
//! - A draw has at least one triangle: a list needs a positive multiple of 3 vertices, a strip
//!   at least 3 ([`triangles`] returns an error otherwise, and the scenario is refused).
//! - [`expected_outputs`] reads any `order` other than `"viewport"` as strict and a `batch` of 0
//!   as 1 (the scenario parser refuses both before it is called).
//! - A primitive's `mask` is an integer < 65536 and its `layer` an integer whose offset layers
//!   fit in 32 bits (layer + highest viewport of its mask <= 2^32 - 1 when `layer_offset`).
//! - A vertex number whose magnitude overflows f32 (finite as f64, infinite as f32) is refused.
//! - `done.cycles` is also >= the done line's own `cycle`.
//! - `gs_mode` and `vertex_cache` are validated but change no rule checked here: the `out`
//!   vertices carry values and input indices in both GS modes (PA-1).
//! - The order of the keys in an event is not checked (only their set).
//!
//! Not checked (the specification leaves them open or they are figures, not rules): which
//! `cache` lookups hit, where `cache` events come, latencies, and the values of the provoking
//! instances beyond PA-6's sharing rule.
use crate::trace::{event_fields, field_index, field_uint};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------------------------
// Swizzle (PA-5)

/// PA-5: apply one 12-bit swizzle to a vertex given as four IEEE-754 bit patterns (no float
/// arithmetic). Output component c (x, y, z, w) takes the 3-bit field at bits [3c+2:3c]:
/// source component field/2, negated (bit 31 flipped, nothing else) when the field is odd.
/// Bits 12..15 of `code` are ignored.
pub fn swizzle(code: u16, v: [u32; 4]) -> [u32; 4] {
    let mut out = [0u32; 4];
    for (c, o) in out.iter_mut().enumerate() {
        let field = (code >> (3 * c)) & 7;
        let source = v[(field >> 1) as usize];
        *o = if field & 1 == 1 {
            source ^ 0x8000_0000
        } else {
            source
        };
    }
    out
}

/// PA-5 adapter: the public 16-bit register layout (fields at bits 2:0, 6:4, 10:8, 14:12) to
/// the packed 12-bit code; Err if a reserved bit (3, 7, 11, 15) or any bit above 15 is set.
pub fn swizzle_from_register(reg: u32) -> Result<u16, String> {
    if reg > 0xFFFF {
        return Err(format!(
            "swizzle register 0x{:x} has bits above 15 set: the register is 16 bits (PA-5)",
            reg
        ));
    }
    if reg & 0x8888 != 0 {
        return Err(format!(
            "swizzle register 0x{:04x} sets reserved bit(s) 0x{:04x} (bits 3, 7, 11, 15 are \
             reserved, PA-5)",
            reg,
            reg & 0x8888
        ));
    }
    let mut code = 0u16;
    for c in 0..4 {
        code |= (((reg >> (4 * c)) & 7) as u16) << (3 * c);
    }
    Ok(code)
}

// ---------------------------------------------------------------------------------------------
// Topology and outputs (PA-2, PA-3, PA-4)

/// Triangles of the topology (`"triangle_list"` or `"triangle_strip"`) in the specification's
/// vertex order (reading 1): (v0, v1, v2) input vertex indices per triangle. Err for an unknown
/// topology or a vertex count giving no triangle or leftover list vertices.
pub fn triangles(topology: &str, vertex_count: usize) -> Result<Vec<[usize; 3]>, String> {
    match topology {
        "triangle_list" => {
            if vertex_count == 0 || !vertex_count.is_multiple_of(3) {
                return Err(format!(
                    "a triangle_list needs a positive multiple of 3 vertices, not {}",
                    vertex_count
                ));
            }
            Ok((0..vertex_count / 3)
                .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
                .collect())
        }
        "triangle_strip" => {
            if vertex_count < 3 {
                return Err(format!(
                    "a triangle_strip needs at least 3 vertices, not {}",
                    vertex_count
                ));
            }
            Ok((0..vertex_count - 2)
                .map(|i| {
                    if i % 2 == 0 {
                        [i, i + 1, i + 2]
                    } else {
                        [i + 1, i, i + 2]
                    }
                })
                .collect())
        }
        t => Err(format!(
            "topology {:?} is neither \"triangle_list\" nor \"triangle_strip\"",
            t
        )),
    }
}

/// The layer of an output (PA-3): the primitive's layer plus the viewport when `layer_offset`.
fn out_layer(layer: u32, viewport: usize, layer_offset: bool) -> u32 {
    if layer_offset {
        layer.wrapping_add(viewport as u32)
    } else {
        layer
    }
}

/// PA-2/PA-3/PA-4: the expected sequence of (prim, viewport, layer) outputs for the primitives'
/// (mask, layer), order `"strict"` or `"viewport"` with `batch`, layer offset on/off (reading
/// 2); masks of 0 give no output (a kill).
pub fn expected_outputs(
    prims: &[(u16, u32)],
    order: &str,
    batch: usize,
    layer_offset: bool,
) -> Vec<(usize, usize, u32)> {
    let mut out = vec![];
    if order == "viewport" {
        let batch = batch.max(1);
        for start in (0..prims.len()).step_by(batch) {
            let end = (start + batch).min(prims.len());
            for vp in 0..16 {
                for (p, &(mask, layer)) in prims.iter().enumerate().take(end).skip(start) {
                    if mask & (1 << vp) != 0 {
                        out.push((p, vp, out_layer(layer, vp, layer_offset)));
                    }
                }
            }
        }
    } else {
        for (p, &(mask, layer)) in prims.iter().enumerate() {
            for vp in 0..16 {
                if mask & (1 << vp) != 0 {
                    out.push((p, vp, out_layer(layer, vp, layer_offset)));
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Scenario

/// What the model needs of a `primitive-attributes` scenario.
#[derive(Debug, Clone)]
struct Scenario {
    order: String,
    batch: usize,
    provoking_last: bool,
    layer_offset: bool,
    /// Packed 12-bit codes, one per viewport.
    swizzle: [u16; 16],
    vertices: Vec<[u32; 4]>,
    tris: Vec<[usize; 3]>,
    /// (mask, layer) per primitive.
    prims: Vec<(u16, u32)>,
}

fn check_keys(o: &Map<String, Value>, allowed: &[&str], path: &str) -> Result<(), String> {
    if let Some(k) = o.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!("scenario: {} has an unknown field {:?}", path, k));
    }
    Ok(())
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("scenario: {} must be an object", path))
}

fn get<'a>(o: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a Value, String> {
    o.get(key)
        .ok_or_else(|| format!("scenario: {}.{} is missing", path, key))
}

/// A string field that must be one of `choices`.
fn choice<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    choices: &[&str],
    path: &str,
) -> Result<&'a str, String> {
    match get(o, key, path)?.as_str() {
        Some(s) if choices.contains(&s) => Ok(s),
        _ => Err(format!(
            "scenario: {}.{} must be one of {:?}, not {}",
            path, key, choices, o[key]
        )),
    }
}

fn positive(o: &Map<String, Value>, key: &str, path: &str) -> Result<usize, String> {
    match get(o, key, path)?.as_u64() {
        Some(n) if n > 0 => Ok(n as usize),
        _ => Err(format!(
            "scenario: {}.{} must be a positive integer, not {}",
            path, key, o[key]
        )),
    }
}

/// Reading 8: the 16 swizzles as packed codes.
fn parse_swizzle(c: &Map<String, Value>) -> Result<[u16; 16], String> {
    let register = match c.get("swizzle_format") {
        None => false,
        Some(Value::String(s)) if s == "packed" => false,
        Some(Value::String(s)) if s == "register" => true,
        Some(v) => {
            return Err(format!(
                "scenario: config.swizzle_format must be \"packed\" or \"register\", not {}",
                v
            ))
        }
    };
    let list = match get(c, "swizzle", "config")?.as_array() {
        Some(a) if a.len() == 16 => a,
        _ => return Err("scenario: config.swizzle must be an array of exactly 16 values".into()),
    };
    let mut out = [0u16; 16];
    for (i, v) in list.iter().enumerate() {
        let n = v.as_u64().ok_or_else(|| {
            format!(
                "scenario: config.swizzle[{}] = {} is not a non-negative integer",
                i, v
            )
        })?;
        out[i] = if register {
            let reg = u32::try_from(n).unwrap_or(u32::MAX);
            swizzle_from_register(reg)
                .map_err(|e| format!("scenario: config.swizzle[{}]: {}", i, e))?
        } else if n < 4096 {
            n as u16
        } else {
            return Err(format!(
                "scenario: config.swizzle[{}] = {} is not a 12-bit packed swizzle (PA-5)",
                i, n
            ));
        };
    }
    Ok(out)
}

/// The config of reading 8: (order, batch, provoking_last, layer_offset, swizzle).
fn parse_config(v: &Value) -> Result<(String, usize, bool, bool, [u16; 16]), String> {
    let c = object(v, "config")?;
    check_keys(
        c,
        &[
            "gs_mode",
            "order",
            "batch",
            "provoking",
            "layer_offset",
            "vertex_cache",
            "swizzle",
            "swizzle_format",
        ],
        "config",
    )?;
    choice(c, "gs_mode", &["fast", "traditional"], "config")?;
    let order = choice(c, "order", &["strict", "viewport"], "config")?.to_string();
    let batch = positive(c, "batch", "config")?;
    let provoking_last = choice(c, "provoking", &["first", "last"], "config")? == "last";
    let layer_offset = get(c, "layer_offset", "config")?
        .as_bool()
        .ok_or("scenario: config.layer_offset must be a boolean")?;
    positive(c, "vertex_cache", "config")?;
    let swizzle = parse_swizzle(c)?;
    Ok((order, batch, provoking_last, layer_offset, swizzle))
}

/// Reading 3: one vertex component's bit pattern, from a JSON number or a `"0x..."` string.
fn component_bits(v: &Value, path: &str) -> Result<u32, String> {
    match v {
        Value::Number(n) => {
            let f = n
                .as_f64()
                .ok_or_else(|| format!("scenario: {} = {} is not a number", path, v))?;
            let s = f as f32;
            if s.is_infinite() {
                return Err(format!(
                    "scenario: {} = {} overflows a 32-bit float (give infinities as \"0x7f800000\")",
                    path, v
                ));
            }
            Ok(s.to_bits())
        }
        Value::String(s) => {
            let hex = s.strip_prefix("0x").unwrap_or("");
            if hex.is_empty() || hex.len() > 8 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(format!(
                    "scenario: {} = {:?} is not \"0x\" and 1 to 8 hexadecimal digits",
                    path, s
                ));
            }
            u32::from_str_radix(hex, 16).map_err(|e| format!("scenario: {}: {}", path, e))
        }
        _ => Err(format!(
            "scenario: {} = {} must be a number or a \"0x...\" bit pattern",
            path, v
        )),
    }
}

fn parse_vertices(v: &Value) -> Result<Vec<[u32; 4]>, String> {
    let list = v
        .as_array()
        .ok_or("scenario: vertices must be an array of [x,y,z,w]")?;
    let mut out = vec![];
    for (i, vert) in list.iter().enumerate() {
        let comps = match vert.as_array() {
            Some(a) if a.len() == 4 => a,
            _ => {
                return Err(format!(
                    "scenario: vertices[{}] must be four components [x,y,z,w]",
                    i
                ))
            }
        };
        let mut bits = [0u32; 4];
        for (c, comp) in comps.iter().enumerate() {
            bits[c] = component_bits(comp, &format!("vertices[{}][{}]", i, c))?;
        }
        out.push(bits);
    }
    Ok(out)
}

fn parse_prims(v: &Value, layer_offset: bool) -> Result<Vec<(u16, u32)>, String> {
    let list = v.as_array().ok_or("scenario: prims must be an array")?;
    let mut out = vec![];
    for (i, p) in list.iter().enumerate() {
        let path = format!("prims[{}]", i);
        let o = object(p, &path)?;
        check_keys(o, &["mask", "layer"], &path)?;
        let mask = get(o, "mask", &path)?
            .as_u64()
            .filter(|m| *m <= 0xFFFF)
            .ok_or_else(|| format!("scenario: {}.mask must be a 16-bit integer (PA-2)", path))?
            as u16;
        let layer = get(o, "layer", &path)?
            .as_u64()
            .filter(|l| *l <= u32::MAX as u64)
            .ok_or_else(|| format!("scenario: {}.layer must be a 32-bit integer", path))?;
        let top = if layer_offset && mask != 0 {
            15 - mask.leading_zeros() as u64
        } else {
            0
        };
        if layer + top > u32::MAX as u64 {
            return Err(format!(
                "scenario: {}.layer {} + viewport {} overflows 32 bits (PA-3)",
                path, layer, top
            ));
        }
        out.push((mask, layer as u32));
    }
    Ok(out)
}

/// Parse a `primitive-attributes` scenario (section 6, "Scenario"), independently of any other
/// parser.
fn parse_scenario(v: &Value) -> Result<Scenario, String> {
    let o = object(v, "the scenario")?;
    check_keys(
        o,
        &["unit", "config", "topology", "vertices", "prims"],
        "the scenario",
    )?;
    if o.get("unit").and_then(Value::as_str) != Some("primitive-attributes") {
        return Err("scenario: unit must be \"primitive-attributes\"".into());
    }
    let (order, batch, provoking_last, layer_offset, swizzle) =
        parse_config(get(o, "config", "the scenario")?)?;
    let topology = get(o, "topology", "the scenario")?
        .as_str()
        .ok_or("scenario: topology must be a string")?;
    let vertices = parse_vertices(get(o, "vertices", "the scenario")?)?;
    let tris = triangles(topology, vertices.len()).map_err(|e| format!("scenario: {}", e))?;
    let prims = parse_prims(get(o, "prims", "the scenario")?, layer_offset)?;
    if prims.len() != tris.len() {
        return Err(format!(
            "scenario: prims has {} entries but the {} of {} vertices has {} triangles (one \
             entry per triangle)",
            prims.len(),
            topology,
            vertices.len(),
            tris.len()
        ));
    }
    Ok(Scenario {
        order,
        batch,
        provoking_last,
        layer_offset,
        swizzle,
        vertices,
        tris,
        prims,
    })
}

// ---------------------------------------------------------------------------------------------
// Trace events

/// Facts gathered while checking a trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceFacts {
    /// The `done` event's `cycles`.
    pub cycles: u64,
    /// `vs` events (PA-7).
    pub vs: u64,
    /// `gs` events (PA-7).
    pub gs: u64,
    /// `out` events (PA-2).
    pub outs: u64,
    /// `kill` events (PA-2, mask 0).
    pub kills: u64,
    /// `cache` events with `hit` true (PA-9 hit rates).
    pub cache_hits: u64,
    /// `cache` events with `hit` false.
    pub cache_misses: u64,
}

/// The fields of every event besides `cycle` and `event`.
const EVENT_FIELDS: &[(&str, &[&str])] = &[
    ("vs", &["vertex"]),
    ("gs", &["prim"]),
    ("cache", &["vertex", "hit"]),
    (
        "out",
        &[
            "prim",
            "viewport",
            "layer",
            "vertices",
            "provoking_vertex",
            "provoking_instance",
        ],
    ),
    ("kill", &["prim"]),
    (
        "done",
        &["cycles", "vs", "gs", "outs", "cache_hits", "cache_misses"],
    ),
];

/// One output (`out` event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Out {
    prim: usize,
    viewport: usize,
    layer: u64,
    vertices: [[u32; 4]; 3],
    provoking_vertex: u64,
    provoking_instance: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    Vs(usize),
    Gs(usize),
    Cache { vertex: usize, hit: bool },
    Out(Out),
    Kill(usize),
    Done([u64; 6]),
}

/// `out.vertices`: three [x,y,z,w] of unsigned 32-bit integers.
fn field_vertices(o: &Map<String, Value>) -> Result<[[u32; 4]; 3], String> {
    let bad = || {
        format!(
            "field vertices = {} is not three [x,y,z,w] of unsigned 32-bit bit patterns",
            o["vertices"]
        )
    };
    let list = match o["vertices"].as_array() {
        Some(a) if a.len() == 3 => a,
        _ => return Err(bad()),
    };
    let mut out = [[0u32; 4]; 3];
    for (k, vert) in list.iter().enumerate() {
        let comps = match vert.as_array() {
            Some(a) if a.len() == 4 => a,
            _ => return Err(bad()),
        };
        for (c, comp) in comps.iter().enumerate() {
            out[k][c] = comp
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(bad)?;
        }
    }
    Ok(out)
}

/// Parse one event: its cycle and contents, with the exact field set of its kind.
fn parse_event(v: &Value, s: &Scenario) -> Result<(u64, Event), String> {
    let (cycle, name, o) = event_fields(v, EVENT_FIELDS, "section 6")?;
    let vertex = || field_index(o, "vertex", s.vertices.len());
    let prim = || field_index(o, "prim", s.prims.len());
    let ev = match name {
        "vs" => Event::Vs(vertex()?),
        "gs" => Event::Gs(prim()?),
        "cache" => Event::Cache {
            vertex: vertex()?,
            hit: o["hit"]
                .as_bool()
                .ok_or_else(|| format!("field hit = {} is not a boolean", o["hit"]))?,
        },
        "out" => Event::Out(Out {
            prim: prim()?,
            viewport: field_index(o, "viewport", 16)?,
            layer: field_uint(o, "layer")?,
            vertices: field_vertices(o)?,
            provoking_vertex: field_uint(o, "provoking_vertex")?,
            provoking_instance: field_uint(o, "provoking_instance")?,
        }),
        "kill" => Event::Kill(prim()?),
        _ => {
            let mut d = [0u64; 6];
            let fields = EVENT_FIELDS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(&[][..], |e| e.1);
            for (i, k) in fields.iter().enumerate() {
                d[i] = field_uint(o, k)?;
            }
            Event::Done(d)
        }
    };
    Ok((cycle, ev))
}

// ---------------------------------------------------------------------------------------------
// Checker

struct Checker<'a> {
    trace: &'a [Value],
    s: Scenario,
    line: usize,
    cycle: u64,
    expected: Vec<(usize, usize, u32)>,
    /// Index into `expected` of the next `out`.
    next: usize,
    /// Line of each vertex's `vs`, each primitive's `gs`, each primitive's `kill`.
    vs: Vec<Option<usize>>,
    gs: Vec<Option<usize>>,
    kill: Vec<Option<usize>>,
    outs_seen: HashSet<(usize, usize)>,
    instance_of_prim: Vec<Option<u64>>,
    prim_of_instance: HashMap<u64, usize>,
    done: bool,
    facts: TraceFacts,
}

/// Check a whole `primitive-attributes` run's trace (JSON Lines already parsed, one Value per
/// line) against its scenario: readings 2 to 8 of the module documentation (PA-2..PA-7, X-5).
/// Errors name the line (1-based), the event and the broken rule.
pub fn check_trace(scenario: &Value, trace: &[Value]) -> Result<TraceFacts, String> {
    let s = parse_scenario(scenario)?;
    let mut c = Checker {
        trace,
        line: 0,
        cycle: 0,
        expected: expected_outputs(&s.prims, &s.order, s.batch, s.layer_offset),
        next: 0,
        vs: vec![None; s.vertices.len()],
        gs: vec![None; s.prims.len()],
        kill: vec![None; s.prims.len()],
        outs_seen: HashSet::new(),
        instance_of_prim: vec![None; s.prims.len()],
        prim_of_instance: HashMap::new(),
        done: false,
        facts: TraceFacts::default(),
        s,
    };
    for (i, v) in trace.iter().enumerate() {
        c.line = i + 1;
        if c.done {
            return Err(c.fail("an event after done: done is the last line (X-5)"));
        }
        let (cycle, ev) = parse_event(v, &c.s).map_err(|e| c.fail(&e))?;
        if cycle < c.cycle {
            return Err(c.fail(&format!(
                "cycle goes back from {} to {}: cycles are non-decreasing (X-5)",
                c.cycle, cycle
            )));
        }
        c.cycle = cycle;
        c.apply(ev)?;
    }
    if !c.done {
        return Err(match trace.last() {
            None => "the trace is empty: it must end with a done event (X-5)".to_string(),
            Some(_) => c.fail("the last event is not done: the trace must end with done (X-5)"),
        });
    }
    c.check_complete()?;
    Ok(c.facts)
}

impl Checker<'_> {
    /// An error naming the current line and its event.
    fn fail(&self, rule: &str) -> String {
        let text = self
            .trace
            .get(self.line.wrapping_sub(1))
            .map(Value::to_string)
            .unwrap_or_default();
        format!("line {}: {}: {}", self.line, text, rule)
    }

    fn apply(&mut self, ev: Event) -> Result<(), String> {
        match ev {
            Event::Vs(v) => self.on_vs(v),
            Event::Gs(p) => self.on_gs(p),
            Event::Cache { hit, .. } => {
                if hit {
                    self.facts.cache_hits += 1;
                } else {
                    self.facts.cache_misses += 1;
                }
                Ok(())
            }
            Event::Out(o) => self.on_out(&o),
            Event::Kill(p) => self.on_kill(p),
            Event::Done(d) => self.on_done(d),
        }
    }

    /// Reading 5: one `vs` per vertex.
    fn on_vs(&mut self, v: usize) -> Result<(), String> {
        if let Some(l) = self.vs[v] {
            return Err(self.fail(&format!(
                "duplicated vs for vertex {} (first on line {}): vertex shading runs once per \
                 vertex (PA-7)",
                v, l
            )));
        }
        self.vs[v] = Some(self.line);
        self.facts.vs += 1;
        Ok(())
    }

    /// Reading 5: one `gs` per primitive, after the `vs` of its vertices.
    fn on_gs(&mut self, p: usize) -> Result<(), String> {
        if let Some(l) = self.gs[p] {
            return Err(self.fail(&format!(
                "duplicated gs for prim {} (first on line {}): the GS runs once per primitive \
                 (PA-7)",
                p, l
            )));
        }
        if let Some(v) = self.s.tris[p].iter().find(|v| self.vs[**v].is_none()) {
            return Err(self.fail(&format!(
                "gs of prim {} before the vs of its vertex {}: a missing or late vs (vertex \
                 shading runs before the GS, PA-7)",
                p, v
            )));
        }
        self.gs[p] = Some(self.line);
        self.facts.gs += 1;
        Ok(())
    }

    /// Reading 5: an `out` or `kill` of a primitive comes after its `gs`.
    fn after_gs(&self, what: &str, p: usize) -> Result<(), String> {
        match self.gs[p] {
            Some(_) => Ok(()),
            None => Err(self.fail(&format!(
                "{} of prim {} before its gs (the GS decides the outputs, PA-7)",
                what, p
            ))),
        }
    }

    /// Reading 2: exactly one `kill` per primitive of mask 0.
    fn on_kill(&mut self, p: usize) -> Result<(), String> {
        self.after_gs("kill", p)?;
        let mask = self.s.prims[p].0;
        if mask != 0 {
            return Err(self.fail(&format!(
                "kill of prim {} whose mask is 0x{:04x}: only a mask of 0 discards (PA-2)",
                p, mask
            )));
        }
        if let Some(l) = self.kill[p] {
            return Err(self.fail(&format!(
                "duplicated kill for prim {} (first on line {}) (PA-2)",
                p, l
            )));
        }
        self.kill[p] = Some(self.line);
        self.facts.kills += 1;
        Ok(())
    }

    /// Readings 2 to 4: the next expected output, its layer, vertices and provoking vertex and
    /// instance.
    fn on_out(&mut self, o: &Out) -> Result<(), String> {
        let (p, vp) = (o.prim, o.viewport);
        self.after_gs("out", p)?;
        let mask = self.s.prims[p].0;
        if mask & (1 << vp) == 0 {
            return Err(self.fail(&format!(
                "out of prim {} to viewport {}, which is not in its mask 0x{:04x} (PA-2)",
                p, vp, mask
            )));
        }
        if !self.outs_seen.insert((p, vp)) {
            return Err(self.fail(&format!(
                "duplicated out of prim {} to viewport {}: once per set bit (PA-2)",
                p, vp
            )));
        }
        let Some(&(ep, evp, elayer)) = self.expected.get(self.next) else {
            return Err(self.fail("an out after every expected output (PA-2)"));
        };
        if (ep, evp) != (p, vp) {
            return Err(self.fail(&format!(
                "out of order: prim {} viewport {} comes where {} order (batch {}) has prim {} \
                 viewport {} next (PA-4)",
                p, vp, self.s.order, self.s.batch, ep, evp
            )));
        }
        self.next += 1;
        if o.layer != elayer as u64 {
            return Err(self.fail(&format!(
                "layer {} for prim {} viewport {}: expected {} (layer {} with layer_offset {}, \
                 PA-3)",
                o.layer, p, vp, elayer, self.s.prims[p].1, self.s.layer_offset
            )));
        }
        self.check_vertices(o)?;
        self.check_provoking(o)?;
        self.facts.outs += 1;
        Ok(())
    }

    /// Reading 3: the triangle's vertices swizzled with the viewport's swizzle.
    fn check_vertices(&self, o: &Out) -> Result<(), String> {
        let code = self.s.swizzle[o.viewport];
        for (k, &v) in self.s.tris[o.prim].iter().enumerate() {
            let want = swizzle(code, self.s.vertices[v]);
            for (c, (&got, &w)) in o.vertices[k].iter().zip(want.iter()).enumerate() {
                if got != w {
                    return Err(self.fail(&format!(
                        "vertices[{}][{}] = 0x{:08x}, expected 0x{:08x}: input vertex {} \
                         swizzled with 0x{:03x} of viewport {} (PA-5)",
                        k, c, got, w, v, code, o.viewport
                    )));
                }
            }
        }
        Ok(())
    }

    /// Readings 1 and 4: the provoking vertex, and one instance per primitive (PA-6).
    fn check_provoking(&mut self, o: &Out) -> Result<(), String> {
        let p = o.prim;
        let tri = self.s.tris[p];
        let want = if self.s.provoking_last {
            tri[2]
        } else {
            tri[0]
        };
        if o.provoking_vertex != want as u64 {
            return Err(self.fail(&format!(
                "provoking_vertex {} for prim {}: expected input vertex {} (output vertex {} of \
                 ({}, {}, {}), PA-6)",
                o.provoking_vertex,
                p,
                want,
                if self.s.provoking_last { 2 } else { 0 },
                tri[0],
                tri[1],
                tri[2]
            )));
        }
        let inst = o.provoking_instance;
        match self.instance_of_prim[p] {
            Some(i) if i != inst => {
                return Err(self.fail(&format!(
                    "provoking_instance {} for prim {}, whose earlier outputs carry {}: the \
                     outputs of one primitive share one instance (PA-6)",
                    inst, p, i
                )))
            }
            _ => {}
        }
        if let Some(&q) = self.prim_of_instance.get(&inst) {
            if q != p {
                return Err(self.fail(&format!(
                    "provoking_instance {} for prim {} is already prim {}'s: two primitives \
                     never share one (PA-6)",
                    inst, p, q
                )));
            }
        }
        self.instance_of_prim[p] = Some(inst);
        self.prim_of_instance.insert(inst, p);
        Ok(())
    }

    /// Reading 7: `done` figures against the counted events.
    fn on_done(&mut self, d: [u64; 6]) -> Result<(), String> {
        let counted = [
            ("vs", self.facts.vs),
            ("gs", self.facts.gs),
            ("outs", self.facts.outs),
            ("cache_hits", self.facts.cache_hits),
            ("cache_misses", self.facts.cache_misses),
        ];
        for (i, (name, n)) in counted.iter().enumerate() {
            if d[i + 1] != *n {
                return Err(self.fail(&format!(
                    "done.{} = {} but the trace has {} such events",
                    name,
                    d[i + 1],
                    n
                )));
            }
        }
        if d[0] < self.cycle {
            return Err(self.fail(&format!(
                "done.cycles = {} is less than the cycle {} of an event (X-5)",
                d[0], self.cycle
            )));
        }
        self.facts.cycles = d[0];
        self.done = true;
        Ok(())
    }

    /// Readings 2 and 5 at the end: every vertex shaded, every primitive through the GS, every
    /// output and kill present.
    fn check_complete(&self) -> Result<(), String> {
        let end = |rule: String| format!("at the end of the trace: {}", rule);
        if let Some(v) = self.vs.iter().position(Option::is_none) {
            return Err(end(format!(
                "missing vs for vertex {}: every vertex is shaded once (PA-7)",
                v
            )));
        }
        if let Some(p) = self.gs.iter().position(Option::is_none) {
            return Err(end(format!(
                "missing gs for prim {}: the GS runs once per primitive (PA-7)",
                p
            )));
        }
        if let Some(&(p, vp, _)) = self.expected.get(self.next) {
            return Err(end(format!(
                "missing out of prim {} to viewport {} ({} of {} outputs seen) (PA-2)",
                p,
                vp,
                self.next,
                self.expected.len()
            )));
        }
        for (p, &(mask, _)) in self.s.prims.iter().enumerate() {
            if mask == 0 && self.kill[p].is_none() {
                return Err(end(format!(
                    "missing kill for prim {}, whose mask is 0 (PA-2)",
                    p
                )));
            }
        }
        Ok(())
    }
}
