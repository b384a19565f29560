//! Golden model of barrier commands in a cache-tiling architecture (BR-1..BR-9), in plain Rust
//! and independent of the RTL: the screen geometry and the routing of a primitive to
//! (pipeline, cache tile) pairs (BR-2), the exact flush sequence of every tiling unit (BR-3,
//! BR-4, BR-5, BR-8), and [`check_trace`], a checker of a whole `barrier` run's trace against
//! its scenario: exactly-once delivery (BR-8), the barrier protocol (BR-4, BR-5), the
//! dependencies of BR-6 read from the cycles, and the trace format of X-5.
//!
//! Written from the words of the specification only (section 5 and the scenario/trace rules of
//! X-5), never from the RTL, so that a misreading shared by both would show up as a failing
//! check rather than pass every test.
//!
//! Readings fixed by the designer:
//! 1. Routing (BR-2): the bbox is clipped to [0, screen_w-1] x [0, screen_h-1]; a bbox wholly
//!    off screen reaches nothing. Raster tiles rx in floor(x0/RT)..=floor(x1/RT), likewise ry;
//!    pipe = (rx + ry) mod pipes; cache tile = (ry/4) * (screen_w/(4*RT)) + rx/4.
//! 2. Each tiling unit (one per pipe) sees the commands in API order. A draw adds, for each
//!    primitive in order, one entry per cache tile that primitive reaches on that pipe, in
//!    ascending tile order. After each entry is added, if the stored count equals
//!    `bin_capacity`, the unit flushes at once: (threshold, bin_capacity), count back to 0 (a
//!    primitive touching more tiles than the capacity is split across flushes).
//! 3. A non-tiled barrier makes every tiling unit flush (barrier, count), also when count is 0;
//!    a tiled barrier makes no flush. The end of the command list makes every tiling unit
//!    flush (end, count), also when count is 0: every pipe has at least one flush.
//! 4. Trace events (`cycle` and `event`, then the fields, exactly these): `flush {pipe, reason,
//!    entries}` (reason `threshold`, `barrier` or `end`); `prop_pass {pipe, prim, tile}`;
//!    `prop_hold {pipe, tile}` (tile null for a non-tiled barrier); `rop_done {pipe, prim,
//!    tile}`; `backend_barrier {pipe, tile}` (tile null for non-tiled); `release {tile}` (null
//!    for non-tiled); `done {cycles, upstream_stall_cycles, flushes}` as the last line.
//! 5. Exactly once: the (pipe, prim, tile) triples of `prop_pass` events are the routing of all
//!    primitives, each once; likewise `rop_done`; each `rop_done` comes at a cycle >= its
//!    `prop_pass`.
//! 6. Each tiled barrier produces, for every pipe and every cache tile of the screen (empty ones
//!    included), one `prop_hold` and one `backend_barrier`, and one `release {tile}` per cache
//!    tile; a non-tiled barrier one `prop_hold {tile:null}` and one `backend_barrier
//!    {tile:null}` per pipe and one `release {tile:null}`. Back-to-back barriers are separate
//!    barriers. Instances are counted: the k-th event of a kind for (pipe, tile t) (or for tile
//!    t, for `release`) belongs to the k-th tiled barrier; null ones to the k-th non-tiled
//!    barrier. A release comes after the `backend_barrier` of its instance from every pipe.
//! 7. BR-6 from cycles: for a tiled barrier B and cache tile t, every `prop_pass` of (any pipe,
//!    prim after B, t) has a cycle strictly greater than every `rop_done` of (any pipe, prim
//!    before B, t), and >= the cycle of B's `release {tile: t}`. For a non-tiled barrier the
//!    same over every tile, against B's null `release`.
//! 8. `flush` events per pipe, in trace order, equal [`expected_flushes`] exactly;
//!    `done.flushes` equals the number of `flush` events; `done` comes once, last, with
//!    `done.cycles` >= the cycle of every earlier event; cycles are non-decreasing.
//! 9. Primitive ids are unique in the scenario and events name primitives by id; "API order"
//!    is the order of primitives in the command list.
//! 10. Unknown event names and missing or extra fields are errors.
//!
//! Readings taken here (each checked):
//! - "Before"/"after" in trace order: within one cycle an event comes after the events it
//!   depends on, so a `rop_done` must follow its `prop_pass` in the trace, a
//!   `backend_barrier` must follow the `prop_hold` of the same barrier instance on the same
//!   pipe and tile (the barrier passes PROP on its way to the back end, BR-4), and a `release`
//!   must follow the `backend_barrier` events it counts. Each implies the cycle order.
//! - The scenario: `unit` is `barrier`; `config` holds `pipes`, `screen`, `raster_tile`,
//!   `bin_capacity` (all required, positive) and optionally `latency` (six non-negative
//!   integers, not used here); a barrier command needs its boolean `tiled`; `id` is any
//!   integer; unknown fields are errors.
//! - The order of the keys in an event is not checked (only their set).
//!
//! Not checked (the specification leaves them open or they are figures, not rules): latencies,
//! `upstream_stall_cycles` (reported in [`TraceFacts`]), the timing of a `flush` event against
//! the `prop_pass` events of the entries it carries, and the order of primitives before a
//! barrier against that barrier's `prop_hold`.
use crate::trace::{event_fields, field_index, field_uint};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};

// ---------------------------------------------------------------------------------------------
// Geometry and routing (BR-2)

/// The screen of a `barrier` scenario: `pipes` screen-space pipelines, a `screen_w` x
/// `screen_h` pixel screen of `raster_tile` x `raster_tile` raster tiles, 4x4 raster tiles to a
/// cache tile (BR-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub pipes: usize,
    pub screen_w: i64,
    pub screen_h: i64,
    pub raster_tile: i64,
}

impl Geometry {
    /// Cache tiles across: screen_w / (4 * raster_tile).
    pub fn cache_tiles_x(&self) -> i64 {
        self.screen_w / (4 * self.raster_tile)
    }
    /// Cache tiles down: screen_h / (4 * raster_tile).
    pub fn cache_tiles_y(&self) -> i64 {
        self.screen_h / (4 * self.raster_tile)
    }
    /// Cache tiles of the screen, numbered row-major.
    pub fn cache_tiles(&self) -> usize {
        (self.cache_tiles_x() * self.cache_tiles_y()) as usize
    }
    /// BR-2: (pipe, cache tile) pairs a bbox [x0,y0,x1,y1] (inclusive, clipped to the screen)
    /// reaches, sorted by pipe then tile, no duplicates (reading 1).
    pub fn route(&self, bbox: [i64; 4]) -> Vec<(usize, usize)> {
        let x0 = bbox[0].max(0);
        let y0 = bbox[1].max(0);
        let x1 = bbox[2].min(self.screen_w - 1);
        let y1 = bbox[3].min(self.screen_h - 1);
        if x0 > x1 || y0 > y1 {
            return vec![];
        }
        let rt = self.raster_tile;
        let mut out = BTreeSet::new();
        for ry in y0 / rt..=y1 / rt {
            for rx in x0 / rt..=x1 / rt {
                let pipe = ((rx + ry) % self.pipes as i64) as usize;
                let tile = ((ry / 4) * self.cache_tiles_x() + rx / 4) as usize;
                out.insert((pipe, tile));
            }
        }
        out.into_iter().collect()
    }
    /// The geometry of a `barrier` scenario (its `config`).
    pub fn from_scenario(scenario: &Value) -> Result<Geometry, String> {
        parse_scenario(scenario).map(|s| s.geometry)
    }
}

/// Why a tiling unit flushed (BR-3): trace names `threshold`, `barrier`, `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushReason {
    Threshold,
    Barrier,
    End,
}

impl FlushReason {
    /// The trace name.
    pub fn name(self) -> &'static str {
        match self {
            FlushReason::Threshold => "threshold",
            FlushReason::Barrier => "barrier",
            FlushReason::End => "end",
        }
    }
    /// The reason of a trace name.
    pub fn from_name(s: &str) -> Option<FlushReason> {
        match s {
            "threshold" => Some(FlushReason::Threshold),
            "barrier" => Some(FlushReason::Barrier),
            "end" => Some(FlushReason::End),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scenario

/// One primitive of a draw: its id and bbox.
#[derive(Debug, Clone)]
struct Prim {
    id: u64,
    bbox: [i64; 4],
}

/// A command of the scenario's list.
#[derive(Debug, Clone)]
enum Command {
    Draw(Vec<Prim>),
    Barrier { tiled: bool },
}

/// What the model needs of a `barrier` scenario.
#[derive(Debug, Clone)]
struct Scenario {
    geometry: Geometry,
    bin_capacity: usize,
    commands: Vec<Command>,
}

fn check_keys(o: &Map<String, Value>, allowed: &[&str], path: &str) -> Result<(), String> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("scenario: {} has an unknown field {:?}", path, k)),
        None => Ok(()),
    }
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("scenario: {} must be an object", path))
}

fn positive(o: &Map<String, Value>, key: &str, path: &str) -> Result<u64, String> {
    match o.get(key).and_then(Value::as_u64) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "scenario: {}.{} must be a positive integer",
            path, key
        )),
    }
}

fn parse_config(v: &Value) -> Result<(Geometry, usize), String> {
    let c = object(v, "config")?;
    check_keys(
        c,
        &["pipes", "screen", "raster_tile", "bin_capacity", "latency"],
        "config",
    )?;
    let pipes = positive(c, "pipes", "config")?;
    let rt = positive(c, "raster_tile", "config")?;
    let cap = positive(c, "bin_capacity", "config")?;
    let screen: Vec<u64> = match c.get("screen").and_then(Value::as_array) {
        Some(a) if a.len() == 2 => a.iter().filter_map(Value::as_u64).collect(),
        _ => vec![],
    };
    let cache = 4 * rt;
    if screen.len() != 2 || screen.iter().any(|&s| s == 0 || s % cache != 0) {
        return Err(format!(
            "scenario: config.screen must be [w, h], each a positive multiple of 4 x raster_tile \
             = {} (BR-2)",
            cache
        ));
    }
    if let Some(l) = c.get("latency") {
        let l = object(l, "config.latency")?;
        let names = ["world", "setup", "raster", "pixel_shader", "prop", "rop"];
        check_keys(l, &names, "config.latency")?;
        if let Some((k, _)) = l.iter().find(|(_, v)| v.as_u64().is_none()) {
            return Err(format!(
                "scenario: config.latency.{} must be a non-negative integer",
                k
            ));
        }
    }
    let big = |n: u64| n > i32::MAX as u64;
    if big(pipes) || big(rt) || big(screen[0]) || big(screen[1]) {
        return Err("scenario: config figures out of range".into());
    }
    let g = Geometry {
        pipes: pipes as usize,
        screen_w: screen[0] as i64,
        screen_h: screen[1] as i64,
        raster_tile: rt as i64,
    };
    Ok((g, cap.min(u32::MAX as u64) as usize))
}

fn parse_prim(v: &Value, path: &str) -> Result<Prim, String> {
    let o = object(v, path)?;
    check_keys(o, &["id", "bbox"], path)?;
    let id = o
        .get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("scenario: {}.id must be a non-negative integer", path))?;
    let b: Vec<i64> = match o.get("bbox").and_then(Value::as_array) {
        Some(a) if a.len() == 4 => a.iter().filter_map(Value::as_i64).collect(),
        _ => vec![],
    };
    if b.len() != 4 || b[0] > b[2] || b[1] > b[3] {
        return Err(format!(
            "scenario: {}.bbox must be four integers [x0, y0, x1, y1] with x0 <= x1, y0 <= y1",
            path
        ));
    }
    Ok(Prim {
        id,
        bbox: [b[0], b[1], b[2], b[3]],
    })
}

fn parse_command(v: &Value, path: &str) -> Result<Command, String> {
    let o = object(v, path)?;
    match o.get("kind").and_then(Value::as_str) {
        Some("draw") => {
            check_keys(o, &["kind", "prims"], path)?;
            let prims = o
                .get("prims")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("scenario: {}.prims must be an array", path))?;
            let prims = prims
                .iter()
                .enumerate()
                .map(|(i, p)| parse_prim(p, &format!("{}.prims[{}]", path, i)))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Command::Draw(prims))
        }
        Some("barrier") => {
            check_keys(o, &["kind", "tiled"], path)?;
            let tiled = o
                .get("tiled")
                .and_then(Value::as_bool)
                .ok_or_else(|| format!("scenario: {}.tiled must be a boolean", path))?;
            Ok(Command::Barrier { tiled })
        }
        _ => Err(format!(
            "scenario: {}.kind must be \"draw\" or \"barrier\"",
            path
        )),
    }
}

/// Parse a `barrier` scenario (section 5, "Scenario"), independently of any other parser.
fn parse_scenario(v: &Value) -> Result<Scenario, String> {
    let o = object(v, "the scenario")?;
    check_keys(o, &["unit", "config", "commands"], "the scenario")?;
    if o.get("unit").and_then(Value::as_str) != Some("barrier") {
        return Err("scenario: unit must be \"barrier\"".into());
    }
    let (geometry, bin_capacity) =
        parse_config(o.get("config").ok_or("scenario: config is missing")?)?;
    let list = o
        .get("commands")
        .and_then(Value::as_array)
        .ok_or("scenario: commands must be an array")?;
    let commands = list
        .iter()
        .enumerate()
        .map(|(i, c)| parse_command(c, &format!("commands[{}]", i)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut ids = BTreeSet::new();
    for c in &commands {
        if let Command::Draw(prims) = c {
            for p in prims {
                if !ids.insert(p.id) {
                    return Err(format!(
                        "scenario: primitive id {} is used twice (ids are unique)",
                        p.id
                    ));
                }
            }
        }
    }
    Ok(Scenario {
        geometry,
        bin_capacity,
        commands,
    })
}

// ---------------------------------------------------------------------------------------------
// Tiling units (BR-3, BR-4, BR-5)

/// The flushes of every tiling unit for a parsed scenario (readings 2 and 3).
fn flushes_of(s: &Scenario) -> Vec<Vec<(FlushReason, usize)>> {
    let pipes = s.geometry.pipes;
    let mut count = vec![0usize; pipes];
    let mut out = vec![vec![]; pipes];
    for c in &s.commands {
        match c {
            Command::Draw(prims) => {
                for p in prims {
                    for (pipe, _tile) in s.geometry.route(p.bbox) {
                        count[pipe] += 1;
                        if count[pipe] == s.bin_capacity {
                            out[pipe].push((FlushReason::Threshold, s.bin_capacity));
                            count[pipe] = 0;
                        }
                    }
                }
            }
            Command::Barrier { tiled: true } => {}
            Command::Barrier { tiled: false } => {
                for (pipe, n) in count.iter_mut().enumerate() {
                    out[pipe].push((FlushReason::Barrier, *n));
                    *n = 0;
                }
            }
        }
    }
    for (pipe, n) in count.iter().enumerate() {
        out[pipe].push((FlushReason::End, *n));
    }
    out
}

/// BR-3/BR-5: the exact sequence of flushes of every tiling unit: result[pipe] = [(reason,
/// entries), ...] (readings 2 and 3).
pub fn expected_flushes(scenario: &Value) -> Result<Vec<Vec<(FlushReason, usize)>>, String> {
    parse_scenario(scenario).map(|s| flushes_of(&s))
}

// ---------------------------------------------------------------------------------------------
// Trace events

/// Facts gathered while checking a trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceFacts {
    /// The `done` event's `cycles`.
    pub cycles: u64,
    /// The `done` event's `upstream_stall_cycles` (BR-7, BR-9).
    pub upstream_stall_cycles: u64,
    /// `flush` events (BR-9 flush counts).
    pub flushes: u64,
    /// `release` events.
    pub releases: usize,
    /// `rop_done` events.
    pub rop_done: usize,
}

/// The fields of every event besides `cycle` and `event` (reading 4).
const EVENT_FIELDS: &[(&str, &[&str])] = &[
    ("flush", &["pipe", "reason", "entries"]),
    ("prop_pass", &["pipe", "prim", "tile"]),
    ("prop_hold", &["pipe", "tile"]),
    ("rop_done", &["pipe", "prim", "tile"]),
    ("backend_barrier", &["pipe", "tile"]),
    ("release", &["tile"]),
    ("done", &["cycles", "upstream_stall_cycles", "flushes"]),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    Flush {
        pipe: usize,
        reason: FlushReason,
        entries: u64,
    },
    /// `prop_pass` (done: false) or `rop_done` (done: true); `prim` is the scenario index.
    Prim {
        done: bool,
        pipe: usize,
        prim: usize,
        tile: usize,
    },
    /// `prop_hold` (backend: false) or `backend_barrier` (backend: true).
    Barrier {
        backend: bool,
        pipe: usize,
        tile: Option<usize>,
    },
    Release {
        tile: Option<usize>,
    },
    Done {
        cycles: u64,
        upstream_stall_cycles: u64,
        flushes: u64,
    },
}

/// A tile field that may be null (a non-tiled barrier, reading 4).
fn field_tile_or_null(o: &Map<String, Value>, tiles: usize) -> Result<Option<usize>, String> {
    match o["tile"] {
        Value::Null => Ok(None),
        _ => field_index(o, "tile", tiles).map(Some),
    }
}

/// A tile field for messages: the number, or `null` (a non-tiled barrier).
fn tile_name(tile: Option<usize>) -> String {
    tile.map_or_else(|| "null".to_string(), |t| t.to_string())
}

/// Parse one event: its cycle and contents, with the exact field set of its kind (reading 4,
/// reading 10).
fn parse_event(v: &Value, g: &Geometry, ids: &HashMap<u64, usize>) -> Result<(u64, Event), String> {
    let (cycle, name, o) = event_fields(v, EVENT_FIELDS, "section 5")?;
    let tiles = g.cache_tiles();
    let pipe = || field_index(o, "pipe", g.pipes);
    let prim = || {
        let id = o["prim"]
            .as_u64()
            .ok_or_else(|| format!("field prim = {} is not an integer id", o["prim"]))?;
        ids.get(&id)
            .copied()
            .ok_or_else(|| format!("field prim = {} is no primitive id of the scenario", id))
    };
    let ev = match name {
        "flush" => Event::Flush {
            pipe: pipe()?,
            reason: o["reason"]
                .as_str()
                .and_then(FlushReason::from_name)
                .ok_or_else(|| format!("field reason = {} is not a flush reason", o["reason"]))?,
            entries: field_uint(o, "entries")?,
        },
        "prop_pass" | "rop_done" => Event::Prim {
            done: name == "rop_done",
            pipe: pipe()?,
            prim: prim()?,
            tile: field_index(o, "tile", tiles)?,
        },
        "prop_hold" | "backend_barrier" => Event::Barrier {
            backend: name == "backend_barrier",
            pipe: pipe()?,
            tile: field_tile_or_null(o, tiles)?,
        },
        "release" => Event::Release {
            tile: field_tile_or_null(o, tiles)?,
        },
        _ => Event::Done {
            cycles: field_uint(o, "cycles")?,
            upstream_stall_cycles: field_uint(o, "upstream_stall_cycles")?,
            flushes: field_uint(o, "flushes")?,
        },
    };
    Ok((cycle, ev))
}

// ---------------------------------------------------------------------------------------------
// Checker

/// Where an event happened: its cycle and 1-based line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct At {
    cycle: u64,
    line: usize,
}

/// One primitive in API order: its routing (BR-2) and, per route entry, its `prop_pass` and
/// `rop_done`.
#[derive(Debug, Clone)]
struct PrimState {
    id: u64,
    routes: Vec<(usize, usize)>,
    pass: Vec<Option<At>>,
    done: Vec<Option<At>>,
}

/// The latest `rop_done` of a set: (cycle, prim id, pipe), none when the set is empty.
type Latest = Option<(u64, u64, usize)>;

/// Counters of the barrier events of one kind (reading 6): per (pipe, tile) for tiled
/// barriers, per pipe for non-tiled ones.
#[derive(Debug, Clone)]
struct BarrierCounts {
    tiled: Vec<Vec<usize>>,
    null: Vec<usize>,
}

impl BarrierCounts {
    fn new(pipes: usize, tiles: usize) -> Self {
        BarrierCounts {
            tiled: vec![vec![0; tiles]; pipes],
            null: vec![0; pipes],
        }
    }
    fn get(&self, pipe: usize, tile: Option<usize>) -> usize {
        match tile {
            Some(t) => self.tiled[pipe][t],
            None => self.null[pipe],
        }
    }
    fn bump(&mut self, pipe: usize, tile: Option<usize>) {
        match tile {
            Some(t) => self.tiled[pipe][t] += 1,
            None => self.null[pipe] += 1,
        }
    }
}

struct Checker<'a> {
    trace: &'a [Value],
    scenario: Scenario,
    line: usize,
    cycle: u64,
    prims: Vec<PrimState>,
    /// Each barrier in API order: tiled or not, and how many primitives come before it.
    barriers: Vec<(bool, usize)>,
    n_tiled: usize,
    n_null: usize,
    expected: Vec<Vec<(FlushReason, usize)>>,
    flushes_seen: Vec<usize>,
    holds: BarrierCounts,
    backends: BarrierCounts,
    /// Release of the k-th tiled barrier per tile: tiled_release[t][k].
    tiled_release: Vec<Vec<u64>>,
    null_release: Vec<u64>,
    done: bool,
    facts: TraceFacts,
}

/// Check a whole `barrier` run's trace (JSON Lines already parsed, one Value per line) against
/// its scenario: readings 4 to 10 of the module documentation (BR-2..BR-6, BR-8, X-5). Errors
/// name the line (1-based), the event and the broken rule.
pub fn check_trace(scenario: &Value, trace: &[Value]) -> Result<TraceFacts, String> {
    let mut c = Checker::new(parse_scenario(scenario)?, trace);
    let ids: HashMap<u64, usize> = c.prims.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    for (i, v) in trace.iter().enumerate() {
        c.line = i + 1;
        if c.done {
            return Err(c.fail("an event after done: done is the last line (X-5)"));
        }
        let (cycle, ev) = parse_event(v, &c.scenario.geometry, &ids).map_err(|e| c.fail(&e))?;
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
    c.check_flushes_complete()?;
    c.check_prims_complete()?;
    c.check_barriers_complete()?;
    c.check_dependencies()?;
    Ok(c.facts)
}

impl<'a> Checker<'a> {
    fn new(scenario: Scenario, trace: &'a [Value]) -> Self {
        let g = scenario.geometry;
        let mut prims = vec![];
        let mut barriers = vec![];
        for c in &scenario.commands {
            match c {
                Command::Draw(ps) => {
                    for p in ps {
                        let routes = g.route(p.bbox);
                        prims.push(PrimState {
                            id: p.id,
                            pass: vec![None; routes.len()],
                            done: vec![None; routes.len()],
                            routes,
                        });
                    }
                }
                Command::Barrier { tiled } => barriers.push((*tiled, prims.len())),
            }
        }
        let n_tiled = barriers.iter().filter(|b| b.0).count();
        let tiles = g.cache_tiles();
        Checker {
            trace,
            line: 0,
            cycle: 0,
            prims,
            n_null: barriers.len() - n_tiled,
            n_tiled,
            barriers,
            expected: flushes_of(&scenario),
            flushes_seen: vec![0; g.pipes],
            holds: BarrierCounts::new(g.pipes, tiles),
            backends: BarrierCounts::new(g.pipes, tiles),
            tiled_release: vec![vec![]; tiles],
            null_release: vec![],
            done: false,
            facts: TraceFacts::default(),
            scenario,
        }
    }

    /// An error naming `line` and its event.
    fn fail_at(&self, line: usize, rule: &str) -> String {
        let text = self
            .trace
            .get(line.wrapping_sub(1))
            .map(Value::to_string)
            .unwrap_or_default();
        format!("line {}: {}: {}", line, text, rule)
    }

    fn fail(&self, rule: &str) -> String {
        self.fail_at(self.line, rule)
    }

    fn at(&self) -> At {
        At {
            cycle: self.cycle,
            line: self.line,
        }
    }

    fn apply(&mut self, ev: Event) -> Result<(), String> {
        match ev {
            Event::Flush {
                pipe,
                reason,
                entries,
            } => self.on_flush(pipe, reason, entries),
            Event::Prim {
                done,
                pipe,
                prim,
                tile,
            } => self.on_prim(done, pipe, prim, tile),
            Event::Barrier {
                backend,
                pipe,
                tile,
            } => self.on_barrier(backend, pipe, tile),
            Event::Release { tile } => self.on_release(tile),
            Event::Done {
                cycles,
                upstream_stall_cycles,
                flushes,
            } => self.on_done(cycles, upstream_stall_cycles, flushes),
        }
    }

    /// Reading 8: the k-th flush of a pipe is the model's k-th.
    fn on_flush(&mut self, pipe: usize, reason: FlushReason, entries: u64) -> Result<(), String> {
        let k = self.flushes_seen[pipe];
        match self.expected[pipe].get(k) {
            None => {
                return Err(self.fail(&format!(
                    "flush #{} of pipe {}: the tiling unit flushes only {} times (BR-3)",
                    k,
                    pipe,
                    self.expected[pipe].len()
                )))
            }
            Some(&(r, n)) if r != reason || n as u64 != entries => {
                return Err(self.fail(&format!(
                    "flush #{} of pipe {} is ({}, entries {}), expected ({}, entries {}) \
                     (BR-3, BR-5)",
                    k,
                    pipe,
                    reason.name(),
                    entries,
                    r.name(),
                    n
                )))
            }
            Some(_) => {}
        }
        self.flushes_seen[pipe] += 1;
        self.facts.flushes += 1;
        Ok(())
    }

    /// Reading 5: each routed (pipe, prim, tile) passes PROP once and leaves ROP once, in that
    /// order.
    fn on_prim(&mut self, done: bool, pipe: usize, prim: usize, tile: usize) -> Result<(), String> {
        let kind = if done { "rop_done" } else { "prop_pass" };
        let at = self.at();
        let p = &self.prims[prim];
        let Ok(i) = p.routes.binary_search(&(pipe, tile)) else {
            return Err(self.fail(&format!(
                "{} of prim {} on pipe {} for cache tile {}: the primitive is not routed there \
                 (BR-2)",
                kind, p.id, pipe, tile
            )));
        };
        let slot = if done { p.done[i] } else { p.pass[i] };
        if let Some(prev) = slot {
            return Err(self.fail(&format!(
                "duplicated {} of prim {} on pipe {} for cache tile {} (first at line {}): each \
                 is delivered exactly once (BR-8)",
                kind, p.id, pipe, tile, prev.line
            )));
        }
        if done && p.pass[i].is_none() {
            return Err(self.fail(&format!(
                "rop_done of prim {} on pipe {} for cache tile {} before its prop_pass",
                p.id, pipe, tile
            )));
        }
        let p = &mut self.prims[prim];
        if done {
            p.done[i] = Some(at);
            self.facts.rop_done += 1;
        } else {
            p.pass[i] = Some(at);
        }
        Ok(())
    }

    /// Reading 6: prop_hold / backend_barrier instances, at most one per barrier, a
    /// backend_barrier after the prop_hold of its instance.
    fn on_barrier(
        &mut self,
        backend: bool,
        pipe: usize,
        tile: Option<usize>,
    ) -> Result<(), String> {
        let kind = if backend {
            "backend_barrier"
        } else {
            "prop_hold"
        };
        let (n, which) = match tile {
            Some(_) => (self.n_tiled, "tiled"),
            None => (self.n_null, "non-tiled"),
        };
        let counts = if backend { &self.backends } else { &self.holds };
        let k = counts.get(pipe, tile);
        if k >= n {
            return Err(self.fail(&format!(
                "{} #{} on pipe {} for tile {}, but the scenario has only {} {} barriers \
                 (BR-4, BR-5)",
                kind,
                k,
                pipe,
                tile_name(tile),
                n,
                which
            )));
        }
        if backend && self.holds.get(pipe, tile) <= k {
            return Err(self.fail(&format!(
                "backend_barrier of {} barrier #{} on pipe {} for tile {} before its prop_hold \
                 (BR-4)",
                which,
                k,
                pipe,
                tile_name(tile)
            )));
        }
        if backend {
            self.backends.bump(pipe, tile)
        } else {
            self.holds.bump(pipe, tile)
        }
        Ok(())
    }

    /// Reading 6: the k-th release of a tile (or the k-th null release) after the
    /// backend_barrier of its instance from every pipe.
    fn on_release(&mut self, tile: Option<usize>) -> Result<(), String> {
        let (k, n, which) = match tile {
            Some(t) => (self.tiled_release[t].len(), self.n_tiled, "tiled"),
            None => (self.null_release.len(), self.n_null, "non-tiled"),
        };
        if k >= n {
            return Err(self.fail(&format!(
                "release #{} for tile {}, but the scenario has only {} {} barriers (BR-4, BR-5)",
                k,
                tile_name(tile),
                n,
                which
            )));
        }
        if let Some(p) =
            (0..self.scenario.geometry.pipes).find(|&p| self.backends.get(p, tile) <= k)
        {
            return Err(self.fail(&format!(
                "release of {} barrier #{} for tile {} before the backend_barrier of pipe {}: \
                 the back end releases when it has one from every pipe (BR-4, BR-5)",
                which,
                k,
                tile_name(tile),
                p
            )));
        }
        match tile {
            Some(t) => self.tiled_release[t].push(self.cycle),
            None => self.null_release.push(self.cycle),
        }
        self.facts.releases += 1;
        Ok(())
    }

    /// Reading 8: done's figures.
    fn on_done(&mut self, cycles: u64, stall: u64, flushes: u64) -> Result<(), String> {
        if flushes != self.facts.flushes {
            return Err(self.fail(&format!(
                "done.flushes = {} but the trace has {} flush events",
                flushes, self.facts.flushes
            )));
        }
        let last = match self.line {
            1 => 0,
            l => self.trace[l - 2]["cycle"].as_u64().unwrap_or(0),
        };
        if cycles < last {
            return Err(self.fail(&format!(
                "done.cycles = {} is less than the cycle {} of the last event before it",
                cycles, last
            )));
        }
        self.facts.cycles = cycles;
        self.facts.upstream_stall_cycles = stall;
        self.done = true;
        Ok(())
    }

    /// Reading 8: every expected flush happened.
    fn check_flushes_complete(&self) -> Result<(), String> {
        for (pipe, exp) in self.expected.iter().enumerate() {
            if let Some(&(r, n)) = exp.get(self.flushes_seen[pipe]) {
                return Err(format!(
                    "missing flush #{} of pipe {} ({}, entries {}): the trace has {} flushes of \
                     that pipe, the tiling unit makes {} (BR-3)",
                    self.flushes_seen[pipe],
                    pipe,
                    r.name(),
                    n,
                    self.flushes_seen[pipe],
                    exp.len()
                ));
            }
        }
        Ok(())
    }

    /// Reading 5: every routed entry passed PROP and left ROP.
    fn check_prims_complete(&self) -> Result<(), String> {
        for p in &self.prims {
            for (i, &(pipe, tile)) in p.routes.iter().enumerate() {
                for (kind, slot) in [("prop_pass", p.pass[i]), ("rop_done", p.done[i])] {
                    if slot.is_none() {
                        return Err(format!(
                            "missing {} of prim {} on pipe {} for cache tile {}: every routed \
                             entry is delivered exactly once (BR-2, BR-8)",
                            kind, p.id, pipe, tile
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Reading 6: every barrier instance complete at every pipe and tile.
    fn check_barriers_complete(&self) -> Result<(), String> {
        let g = &self.scenario.geometry;
        let tiles = (0..g.cache_tiles()).map(Some).chain([None]);
        for tile in tiles {
            let (n, which) = match tile {
                Some(_) => (self.n_tiled, "tiled"),
                None => (self.n_null, "non-tiled"),
            };
            for pipe in 0..g.pipes {
                for (kind, counts) in [
                    ("prop_hold", &self.holds),
                    ("backend_barrier", &self.backends),
                ] {
                    let k = counts.get(pipe, tile);
                    if k < n {
                        return Err(format!(
                            "missing {} of {} barrier #{} on pipe {} for tile {} (BR-4, BR-5)",
                            kind,
                            which,
                            k,
                            pipe,
                            tile_name(tile)
                        ));
                    }
                }
            }
            let k = match tile {
                Some(t) => self.tiled_release[t].len(),
                None => self.null_release.len(),
            };
            if k < n {
                return Err(format!(
                    "missing release of {} barrier #{} for tile {} (BR-4, BR-5)",
                    which,
                    k,
                    tile_name(tile)
                ));
            }
        }
        Ok(())
    }

    /// Reading 7 (BR-6), after the trace is complete. For each primitive's `prop_pass`, only
    /// the latest tiled and the latest non-tiled barrier before it bind: earlier barriers have
    /// fewer primitives before them and earlier releases.
    fn check_dependencies(&self) -> Result<(), String> {
        let tiles = self.scenario.geometry.cache_tiles();
        // Latest rop_done so far (in API order): per tile and overall, with prim id and pipe.
        let mut per_tile: Vec<Latest> = vec![None; tiles];
        let mut overall: Latest = None;
        // The latest barriers before the current primitive: (instance, snapshot).
        let mut tiled: Option<(usize, Vec<Latest>)> = None;
        let mut null: Option<(usize, Latest)> = None;
        let (mut tk, mut nk) = (0, 0);
        let mut next_barrier = 0;
        for (i, p) in self.prims.iter().enumerate() {
            while let Some(&(is_tiled, before)) = self.barriers.get(next_barrier) {
                if before > i {
                    break;
                }
                if is_tiled {
                    tiled = Some((tk, per_tile.clone()));
                    tk += 1;
                } else {
                    null = Some((nk, overall));
                    nk += 1;
                }
                next_barrier += 1;
            }
            for (e, &(_, tile)) in p.routes.iter().enumerate() {
                let pass = p.pass[e].expect("checked complete");
                if let Some((k, snap)) = &tiled {
                    let rel = self.tiled_release[tile][*k];
                    self.check_pass(
                        p,
                        e,
                        pass,
                        snap[tile],
                        rel,
                        &format!("tiled barrier #{}", k),
                    )?;
                }
                if let Some((k, snap)) = &null {
                    let rel = self.null_release[*k];
                    self.check_pass(p, e, pass, *snap, rel, &format!("non-tiled barrier #{}", k))?;
                }
            }
            for (e, &(pipe, tile)) in p.routes.iter().enumerate() {
                let done = (p.done[e].expect("checked complete").cycle, p.id, pipe);
                let later = |m: Latest| m.is_none_or(|m| done.0 > m.0);
                if later(per_tile[tile]) {
                    per_tile[tile] = Some(done);
                }
                if later(overall) {
                    overall = Some(done);
                }
            }
        }
        Ok(())
    }

    /// BR-6 for one `prop_pass` after barrier `which`: strictly after the latest `rop_done`
    /// before the barrier (`latest`), and not before the barrier's release.
    fn check_pass(
        &self,
        p: &PrimState,
        e: usize,
        pass: At,
        latest: Latest,
        release: u64,
        which: &str,
    ) -> Result<(), String> {
        let (pipe, tile) = p.routes[e];
        if let Some((c, q, j)) = latest {
            if pass.cycle <= c {
                return Err(self.fail_at(
                    pass.line,
                    &format!(
                        "prop_pass of prim {} (pipe {}, tile {}) after {} at cycle {} is not \
                         strictly after the rop_done of prim {} (pipe {}) before it at cycle {} \
                         (BR-6)",
                        p.id, pipe, tile, which, pass.cycle, q, j, c
                    ),
                ));
            }
        }
        if pass.cycle < release {
            return Err(self.fail_at(
                pass.line,
                &format!(
                    "prop_pass of prim {} (pipe {}, tile {}) after {} at cycle {} comes before \
                     that barrier's release at cycle {} (BR-6)",
                    p.id, pipe, tile, which, pass.cycle, release
                ),
            ));
        }
        Ok(())
    }
}
