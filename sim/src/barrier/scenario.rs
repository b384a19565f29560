//! The `barrier` scenario (SPEC section 5): strict parsing and validation (exit 2 naming the
//! field), the run through the system simulation, the trace, and a check of that trace
//! against the golden model.
use super::system::{self, Command, Latency, Mode, Primitive, SystemConfig, MAX_PIPES};
use crate::scenario::{
    kind_of, parse_as, require_objects, RunError, RunOptions, RunSummary, ScenarioRunner,
};
use crate::trace::TraceWriter;
use ppu_hdl::barrier::item::{MAX_TILES, PRIM_BITS};
use ppu_hdl::barrier::tiling_unit::ENTRY_BITS;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashSet;

pub fn runners() -> Vec<ScenarioRunner> {
    vec![ScenarioRunner {
        unit: "barrier",
        builtin,
        run,
    }]
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BarrierScenario {
    #[allow(dead_code)]
    unit: String,
    config: ConfigJson,
    /// Each command is parsed on its own ([`command_of`]), so that an error inside it names
    /// its field (`commands[2].prims[0].id`), which serde's tagged enums do not.
    commands: Vec<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigJson {
    pipes: u64,
    screen: [i64; 2],
    raster_tile: i64,
    bin_capacity: u64,
    latency: LatencyJson,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LatencyJson {
    world: u64,
    setup: u64,
    raster: u64,
    pixel_shader: u64,
    prop: u64,
    rop: u64,
}

enum CommandJson {
    Draw { prims: Vec<PrimJson> },
    Barrier { tiled: bool },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawJson {
    #[allow(dead_code)]
    kind: String,
    prims: Vec<PrimJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BarrierJson {
    #[allow(dead_code)]
    kind: String,
    tiled: bool,
}

/// Command `i` of the scenario: its `kind` first, then the fields of that kind (strictly;
/// errors name the field below `commands[i]`).
fn command_of(i: usize, cmd: &Value) -> Result<CommandJson, RunError> {
    let field = format!("commands[{}]", i);
    if kind_of(cmd, &field, &["draw", "barrier"])? == "draw" {
        require_objects(cmd, &field, &["prims[]"])?;
        let d: DrawJson = parse_as(cmd, &field)?;
        Ok(CommandJson::Draw { prims: d.prims })
    } else {
        let b: BarrierJson = parse_as(cmd, &field)?;
        Ok(CommandJson::Barrier { tiled: b.tiled })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PrimJson {
    id: u64,
    bbox: [i64; 4],
}

/// Largest stage latency accepted.
pub const MAX_LATENCY: u64 = 100_000;
/// Largest number of tiled barriers one flush of a tiling unit can carry (its 8-bit count).
pub const MAX_PENDING_TILED: usize = 255;

/// The scenario of SPEC section 5's example.
pub fn builtin() -> Value {
    json!({"unit":"barrier",
        "config":{"pipes":4,"screen":[256,128],"raster_tile":16,"bin_capacity":64,
                  "latency":{"world":10,"setup":4,"raster":6,"pixel_shader":20,"prop":2,"rop":8}},
        "commands":[{"kind":"draw","prims":[{"id":0,"bbox":[0,0,40,30]},{"id":1,"bbox":[100,20,130,60]}]},
                    {"kind":"barrier","tiled":true},
                    {"kind":"draw","prims":[{"id":2,"bbox":[10,10,200,100]}]}]})
}

/// Parse and validate a scenario into a system configuration (mode [`Mode::AsGiven`]).
/// Long because it validates every configuration field in turn, each with its own message.
pub fn system_config(value: &Value) -> Result<SystemConfig, RunError> {
    require_objects(value, "", &["config", "config.latency"])?;
    let sc: BarrierScenario = parse_as(value, "")?;
    let c = &sc.config;
    if !(1..=MAX_PIPES as u64).contains(&c.pipes) {
        return Err(RunError::invalid(
            "config.pipes",
            format!("{} is not in 1..={}", c.pipes, MAX_PIPES),
        ));
    }
    if c.raster_tile < 1 || c.raster_tile > 4096 {
        return Err(RunError::invalid(
            "config.raster_tile",
            format!("{} is not in 1..=4096", c.raster_tile),
        ));
    }
    let cache = 4 * c.raster_tile;
    for (i, &v) in c.screen.iter().enumerate() {
        if v <= 0 || v % cache != 0 {
            return Err(RunError::invalid(
                &format!("config.screen[{}]", i),
                format!("{} is not a positive whole number of cache tiles ({} pixels = 4 x raster_tile)", v, cache),
            ));
        }
    }
    // Checked: a screen of 2^38 pixels each way overflowed to 0 tiles and passed.
    let (tiles_x, tiles_y) = (c.screen[0] / cache, c.screen[1] / cache);
    let tiles = tiles_x.checked_mul(tiles_y).unwrap_or(i64::MAX);
    if tiles as u64 > MAX_TILES as u64 {
        return Err(RunError::invalid(
            "config.screen",
            format!(
                "{} x {} cache tiles; the RTL holds flags and counters for at most {}",
                tiles_x, tiles_y, MAX_TILES
            ),
        ));
    }
    if !(1..=(1u64 << ENTRY_BITS)).contains(&c.bin_capacity) {
        return Err(RunError::invalid(
            "config.bin_capacity",
            format!(
                "{} is not in 1..={} (the tiling unit's storage)",
                c.bin_capacity,
                1u64 << ENTRY_BITS
            ),
        ));
    }
    let l = &c.latency;
    for (name, v) in [
        ("world", l.world),
        ("setup", l.setup),
        ("raster", l.raster),
        ("pixel_shader", l.pixel_shader),
        ("prop", l.prop),
        ("rop", l.rop),
    ] {
        if v > MAX_LATENCY {
            return Err(RunError::invalid(
                &format!("config.latency.{}", name),
                format!("{} is more than {}", v, MAX_LATENCY),
            ));
        }
    }
    let mut commands = vec![];
    let mut ids = HashSet::new();
    let mut count = 0usize;
    for (i, cmd) in sc.commands.iter().enumerate() {
        match &command_of(i, cmd)? {
            CommandJson::Draw { prims } => {
                let mut list = vec![];
                for (j, p) in prims.iter().enumerate() {
                    let field = format!("commands[{}].prims[{}]", i, j);
                    if !ids.insert(p.id) {
                        return Err(RunError::invalid(
                            &format!("{}.id", field),
                            format!("{} is used twice (ids are unique)", p.id),
                        ));
                    }
                    let [x0, y0, x1, y1] = p.bbox;
                    if x0 > x1 || y0 > y1 {
                        return Err(RunError::invalid(
                            &format!("{}.bbox", field),
                            format!("{:?} needs x0 <= x1 and y0 <= y1", p.bbox),
                        ));
                    }
                    count += 1;
                    if count > 1 << PRIM_BITS {
                        return Err(RunError::invalid(
                            "commands",
                            format!("more than {} primitives", 1u64 << PRIM_BITS),
                        ));
                    }
                    list.push(Primitive {
                        id: p.id,
                        bbox: p.bbox,
                    });
                }
                commands.push(Command::Draw(list));
            }
            CommandJson::Barrier { tiled } => commands.push(Command::Barrier { tiled: *tiled }),
        }
    }
    let cfg = SystemConfig {
        pipes: c.pipes as usize,
        screen: c.screen,
        raster_tile: c.raster_tile,
        bin_capacity: c.bin_capacity,
        latency: Latency {
            world: l.world,
            setup: l.setup,
            raster: l.raster,
            pixel_shader: l.pixel_shader,
            prop: l.prop,
            rop: l.rop,
        },
        commands,
        mode: Mode::AsGiven,
        vcd: None,
        engine: Default::default(),
        record_ports: false,
    };
    check_pending_barriers(&cfg, Mode::AsGiven)?;
    Ok(cfg)
}

/// A flush of a tiling unit carries at most [`MAX_PENDING_TILED`] tiled barriers: count, per
/// pipeline, the tiled barriers between its flushes (BR-3 flush points).
pub fn check_pending_barriers(cfg: &SystemConfig, mode: Mode) -> Result<(), RunError> {
    let mut stored = vec![0u64; cfg.pipes];
    let mut pending = vec![0usize; cfg.pipes];
    for (i, c) in cfg.commands.iter().enumerate() {
        match c {
            Command::Draw(prims) => {
                for p in prims {
                    for (pipe, tiles) in cfg.route(p.bbox).iter().enumerate() {
                        for _ in tiles {
                            stored[pipe] += 1;
                            if stored[pipe] == cfg.bin_capacity {
                                stored[pipe] = 0;
                                pending[pipe] = 0;
                            }
                        }
                    }
                }
            }
            Command::Barrier { tiled } => {
                let tiled = match mode {
                    Mode::AsGiven => *tiled,
                    Mode::Tiled => true,
                    Mode::NonTiled | Mode::Drain => false,
                };
                for pipe in 0..cfg.pipes {
                    if tiled {
                        pending[pipe] += 1;
                        if pending[pipe] > MAX_PENDING_TILED {
                            return Err(RunError::invalid(
                                &format!("commands[{}]", i),
                                format!("more than {} tiled barriers would wait for one flush of tiling unit {} (its barrier count is 8 bits)", MAX_PENDING_TILED, pipe),
                            ));
                        }
                    } else {
                        stored[pipe] = 0;
                        pending[pipe] = 0;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Run a configuration with a trace kept in memory (and written to `path` when given), and
/// check the trace with the golden model.
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
    if cfg.mode == Mode::AsGiven {
        super::golden::check_trace(scenario, &events)
            .map_err(|e| RunError::Violation(format!("golden check of the trace: {}", e)))?;
    }
    Ok((result, events))
}

pub fn run(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    let mut cfg = system_config(value)?;
    opts.check_outputs()?;
    cfg.vcd = opts.vcd.clone();
    cfg.engine = opts.engine;
    let (r, _) = run_checked_with(value, &cfg, TraceWriter::for_run(opts, "barrier")?)?;
    Ok(RunSummary {
        unit: "barrier".into(),
        cycles: r.cycles,
        figures: vec![
            (
                "upstream stall cycles".into(),
                r.upstream_stall_cycles.to_string(),
            ),
            ("flushes".into(), r.flushes.to_string()),
            ("rop_done".into(), r.rop_done.to_string()),
            ("releases".into(), r.releases.to_string()),
        ],
    })
}
