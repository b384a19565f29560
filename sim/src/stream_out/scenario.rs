//! `"unit":"stream-out"` scenarios (SPEC SO section, X-5): strict parsing, validation naming the
//! field, expansion of `vertices` into batches, and the run with its JSON Lines trace.
use super::system::{run_plan, Plan, ShaderModel, Step, SysResult, TaskPlan};
use crate::scenario::{
    kind_of, parse_as, require_objects, RunError, RunOptions, RunSummary, ScenarioRunner,
};
use crate::trace::TraceWriter;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::{json, Value};

/// Largest buffer (bytes) a scenario may declare.
pub const MAX_BUFFER_BYTES: u64 = 64 << 20;
/// Most batches a scenario may produce.
pub const MAX_BATCHES: u64 = 1 << 20;
/// Largest latency (cycles).
pub const MAX_LATENCY: u64 = 100_000;
/// Largest `config.max_cycles` a scenario may give (cycles). The default cap
/// ([`default_cycles`]) is not bounded by it: a valid scenario may need more (one SO unit
/// writing 50 MB at 1 byte per cycle).
pub const MAX_CYCLES: u64 = 50_000_000;
/// Most shaders a scenario may declare.
pub const MAX_SHADERS: u64 = 1024;
/// Largest shader output buffer (batch/tasks).
pub const MAX_SHADER_OUT_BATCHES: u64 = 64;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    #[allow(dead_code)]
    unit: String,
    config: Config,
    /// Each packet is parsed by its kind ([`packet_of`]), so that an error inside it names
    /// its field (`packets[2].vertices`), which serde's tagged enums do not.
    packets: Vec<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    so_units: u64,
    so_bytes_per_cycle: u64,
    fb_bytes_per_cycle: u64,
    buffer_bytes: Vec<u64>,
    stride: Vec<u64>,
    latency: Vec<u64>,
    #[serde(default)]
    max_cycles: Option<u64>,
    #[serde(default)]
    shaders: Option<u64>,
    #[serde(default)]
    shader_out_batches: Option<u64>,
}

#[derive(Debug)]
enum PacketSpec {
    Offset {
        ssobo: Vec<u64>,
    },
    Enable {},
    Disable {},
    Work {
        vertices: Option<u64>,
        batches: Option<Vec<BatchSpec>>,
    },
}

/// An offset bundle packet as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OffsetJson {
    #[allow(dead_code)]
    kind: String,
    ssobo: Vec<u64>,
}

/// A stream enable or disable packet as written (nothing but its kind).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkerJson {
    #[allow(dead_code)]
    kind: String,
}

/// A work packet as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkJson {
    #[allow(dead_code)]
    kind: String,
    #[serde(default)]
    vertices: Option<u64>,
    #[serde(default)]
    batches: Option<Vec<BatchSpec>>,
}

/// Packet `i`: its `kind` first, then that kind's fields, strictly (errors name the field
/// below `packets[i]`).
fn packet_of(i: usize, packet: &Value) -> Result<PacketSpec, RunError> {
    let field = format!("packets[{}]", i);
    Ok(
        match kind_of(packet, &field, &["offset", "enable", "disable", "work"])? {
            "offset" => PacketSpec::Offset {
                ssobo: parse_as::<OffsetJson>(packet, &field)?.ssobo,
            },
            "work" => {
                require_objects(packet, &field, &["batches[]", "batches[].tasks[]"])?;
                let w: WorkJson = parse_as(packet, &field)?;
                PacketSpec::Work {
                    vertices: w.vertices,
                    batches: w.batches,
                }
            }
            kind => {
                parse_as::<MarkerJson>(packet, &field)?;
                if kind == "enable" {
                    PacketSpec::Enable {}
                } else {
                    PacketSpec::Disable {}
                }
            }
        },
    )
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchSpec {
    tasks: Vec<TaskSpec>,
    #[serde(default)]
    vertices: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskSpec {
    so_unit: u64,
    bytes: Vec<u64>,
    latency: u64,
}

fn lanes(v: &[u64], field: &str, max: u64) -> Result<[u32; 4], RunError> {
    if v.len() != 4 {
        return Err(RunError::invalid(
            field,
            format!("needs 4 values (one per buffer), got {}", v.len()),
        ));
    }
    let mut out = [0u32; 4];
    for (i, x) in v.iter().enumerate() {
        if *x > max {
            return Err(RunError::invalid(
                &format!("{}[{}]", field, i),
                format!("{} is above {}", x, max),
            ));
        }
        out[i] = *x as u32;
    }
    Ok(out)
}

/// The checked configuration of a scenario.
struct Checked {
    so_units: usize,
    buffer_bytes: [u32; 4],
    stride: [u32; 4],
    /// Latency range of `vertices` batches.
    lo: u64,
    hi: u64,
    shaders: Option<ShaderModel>,
}

/// Check `config`, naming the offending field.
fn check_config(c: &Config) -> Result<Checked, RunError> {
    if !(1..=16).contains(&c.so_units) {
        return Err(RunError::invalid(
            "config.so_units",
            format!("{} is not in 1..=16", c.so_units),
        ));
    }
    if !(1..=4096).contains(&c.so_bytes_per_cycle) {
        return Err(RunError::invalid(
            "config.so_bytes_per_cycle",
            format!("{} is not in 1..=4096", c.so_bytes_per_cycle),
        ));
    }
    if !(1..=1 << 20).contains(&c.fb_bytes_per_cycle) {
        return Err(RunError::invalid(
            "config.fb_bytes_per_cycle",
            format!("{} is not in 1..=1048576", c.fb_bytes_per_cycle),
        ));
    }
    let buffer_bytes = lanes(&c.buffer_bytes, "config.buffer_bytes", MAX_BUFFER_BYTES)?;
    let stride = lanes(&c.stride, "config.stride", 4096)?;
    if c.latency.len() != 2 {
        return Err(RunError::invalid(
            "config.latency",
            "needs [min, max] (2 values)",
        ));
    }
    let (lo, hi) = (c.latency[0], c.latency[1]);
    if lo > hi || hi > MAX_LATENCY {
        return Err(RunError::invalid(
            "config.latency",
            format!(
                "[{}, {}] must satisfy min <= max <= {}",
                lo, hi, MAX_LATENCY
            ),
        ));
    }
    Ok(Checked {
        so_units: c.so_units as usize,
        buffer_bytes,
        stride,
        lo,
        hi,
        shaders: check_shaders(c)?,
    })
}

/// `config.shaders` (so_units..=1024) and `config.shader_out_batches` (1..=64, default 1, only
/// with `shaders`): the shader model, or `None` (a shader per batch/task, unbounded output).
fn check_shaders(c: &Config) -> Result<Option<ShaderModel>, RunError> {
    let Some(count) = c.shaders else {
        if c.shader_out_batches.is_some() {
            return Err(RunError::invalid(
                "config.shader_out_batches",
                "needs config.shaders",
            ));
        }
        return Ok(None);
    };
    if !(c.so_units..=MAX_SHADERS).contains(&count) {
        return Err(RunError::invalid(
            "config.shaders",
            format!(
                "{} is not in {}..={} (at least one shader per SO unit)",
                count, c.so_units, MAX_SHADERS
            ),
        ));
    }
    let out = c.shader_out_batches.unwrap_or(1);
    if !(1..=MAX_SHADER_OUT_BATCHES).contains(&out) {
        return Err(RunError::invalid(
            "config.shader_out_batches",
            format!("{} is not in 1..={}", out, MAX_SHADER_OUT_BATCHES),
        ));
    }
    Ok(Some(ShaderModel {
        count: count as usize,
        out_batches: out as usize,
    }))
}

/// The expansion of the packets into the WDU's steps.
struct Expander<'a> {
    cfg: &'a Checked,
    rng: ChaCha8Rng,
    steps: Vec<Step>,
    batches: u64,
    /// SO unit of the next `vertices` batch (round-robin).
    next_unit: usize,
}

impl Expander<'_> {
    fn packet(&mut self, pi: usize, p: &PacketSpec) -> Result<(), RunError> {
        let field = format!("packets[{}]", pi);
        match p {
            PacketSpec::Enable {} => self.steps.push(Step::Enable),
            PacketSpec::Disable {} => self.steps.push(Step::Disable),
            PacketSpec::Offset { ssobo } => self.steps.push(Step::Offset(lanes(
                ssobo,
                &format!("{}.ssobo", field),
                u32::MAX as u64,
            )?)),
            PacketSpec::Work {
                vertices,
                batches: explicit,
            } => match (vertices, explicit) {
                (Some(v), None) => self.vertices(pi, &field, *v)?,
                (None, Some(list)) => self.explicit(pi, &field, list)?,
                _ => {
                    return Err(RunError::invalid(
                        &field,
                        "a work packet needs exactly one of `vertices` or `batches`",
                    ))
                }
            },
        }
        Ok(())
    }

    /// One more batch; at most [`MAX_BATCHES`] in the scenario.
    fn count_batch(&mut self, field: &str) -> Result<(), RunError> {
        self.batches += 1;
        if self.batches > MAX_BATCHES {
            return Err(RunError::invalid(
                field,
                format!("more than {} batches in the scenario", MAX_BATCHES),
            ));
        }
        Ok(())
    }

    /// `vertices`: batches of up to 32 vertices, SO units round-robin, random latency.
    fn vertices(&mut self, pi: usize, field: &str, v: u64) -> Result<(), RunError> {
        if v == 0 || v > MAX_BATCHES * 32 {
            return Err(RunError::invalid(
                &format!("{}.vertices", field),
                format!("{} is not in 1..={}", v, MAX_BATCHES * 32),
            ));
        }
        let mut left = v;
        while left > 0 {
            let n = left.min(32);
            left -= n;
            self.count_batch(field)?;
            let unit = self.next_unit;
            self.next_unit = (self.next_unit + 1) % self.cfg.so_units;
            let stride = self.cfg.stride;
            self.steps.push(Step::Batch {
                packet: pi,
                vertices: n,
                tasks: vec![TaskPlan {
                    so_unit: unit,
                    bytes: std::array::from_fn(|i| stride[i] * n as u32),
                    latency: self.rng.gen_range(self.cfg.lo..=self.cfg.hi),
                    any_shader: true,
                }],
            });
        }
        Ok(())
    }

    /// `batches`: the batches as given.
    fn explicit(&mut self, pi: usize, field: &str, list: &[BatchSpec]) -> Result<(), RunError> {
        if list.is_empty() {
            return Err(RunError::invalid(&format!("{}.batches", field), "is empty"));
        }
        for (bi, b) in list.iter().enumerate() {
            let bf = format!("{}.batches[{}]", field, bi);
            if b.tasks.is_empty() || b.tasks.len() > 1024 {
                return Err(RunError::invalid(
                    &format!("{}.tasks", bf),
                    format!("needs 1..=1024 tasks, got {}", b.tasks.len()),
                ));
            }
            if let Some(v) = b.vertices {
                if v == 0 || v > 32 {
                    return Err(RunError::invalid(
                        &format!("{}.vertices", bf),
                        format!("{} is not in 1..=32", v),
                    ));
                }
            }
            let tasks = b
                .tasks
                .iter()
                .enumerate()
                .map(|(ti, t)| self.task(&format!("{}.tasks[{}]", bf, ti), t))
                .collect::<Result<Vec<_>, _>>()?;
            self.count_batch(field)?;
            self.steps.push(Step::Batch {
                packet: pi,
                vertices: b.vertices.unwrap_or(32),
                tasks,
            });
        }
        Ok(())
    }

    fn task(&self, tf: &str, t: &TaskSpec) -> Result<TaskPlan, RunError> {
        if t.so_unit >= self.cfg.so_units as u64 {
            return Err(RunError::invalid(
                &format!("{}.so_unit", tf),
                format!(
                    "{} is not below config.so_units = {}",
                    t.so_unit, self.cfg.so_units
                ),
            ));
        }
        if t.latency > MAX_LATENCY {
            return Err(RunError::invalid(
                &format!("{}.latency", tf),
                format!("{} is above {}", t.latency, MAX_LATENCY),
            ));
        }
        Ok(TaskPlan {
            so_unit: t.so_unit as usize,
            bytes: lanes(&t.bytes, &format!("{}.bytes", tf), MAX_BUFFER_BYTES)?,
            latency: t.latency,
            any_shader: false,
        })
    }
}

/// The cycle cap of a scenario without `config.max_cycles`: a bound on what the run can need,
/// taken as if nothing overlapped: per batch 200 cycles, the larger of its longest task latency
/// (an explicit task may exceed `config.latency`) and `config.latency`'s maximum, and 4 cycles
/// per task; its bytes at the narrower of the SO unit's and the frame buffer's bandwidth; 4
/// cycles per packet step.
fn default_cycles(steps: &[Step], cfg: &Checked, c: &Config) -> u64 {
    let bandwidth = c.so_bytes_per_cycle.min(c.fb_bytes_per_cycle).max(1);
    let mut cycles = 10_000 + steps.len() as u64 * 4;
    for step in steps {
        if let Step::Batch { tasks, .. } = step {
            let latency = tasks.iter().map(|t| t.latency).max().unwrap_or(0);
            let bytes: u64 = (tasks.iter())
                .flat_map(|t| t.bytes.iter().map(|&b| b as u64))
                .sum();
            cycles = cycles.saturating_add(
                200 + latency.max(cfg.hi) + 4 * tasks.len() as u64 + bytes.div_ceil(bandwidth),
            );
        }
    }
    cycles
}

/// Validate a scenario and expand it into a [`Plan`] (latencies drawn with `seed`).
pub fn plan(value: &Value, seed: u64) -> Result<Plan, RunError> {
    require_objects(value, "", &["config"])?;
    let sc: Scenario = parse_as(value, "")?;
    let packets = sc
        .packets
        .iter()
        .enumerate()
        .map(|(i, p)| packet_of(i, p))
        .collect::<Result<Vec<_>, _>>()?;
    let c = &sc.config;
    let cfg = check_config(c)?;
    if sc.packets.is_empty() {
        return Err(RunError::invalid("packets", "is empty"));
    }
    let mut ex = Expander {
        cfg: &cfg,
        rng: ChaCha8Rng::seed_from_u64(seed),
        steps: vec![],
        batches: 0,
        next_unit: 0,
    };
    for (pi, p) in packets.iter().enumerate() {
        ex.packet(pi, p)?;
    }
    let max_cycles = c.max_cycles.unwrap_or(default_cycles(&ex.steps, &cfg, c));
    if c.max_cycles.is_some() && (max_cycles == 0 || max_cycles > MAX_CYCLES) {
        return Err(RunError::invalid(
            "config.max_cycles",
            format!("{} is not in 1..={}", max_cycles, MAX_CYCLES),
        ));
    }
    Ok(Plan {
        so_units: cfg.so_units,
        so_bytes_per_cycle: c.so_bytes_per_cycle as u32,
        fb_bytes_per_cycle: c.fb_bytes_per_cycle as u32,
        buffer_bytes: cfg.buffer_bytes,
        steps: ex.steps,
        max_cycles,
        shaders: cfg.shaders,
        engine: Default::default(),
    })
}

/// Run a scenario; returns the figures and the trace writer's kept events.
pub fn run_traced(
    value: &Value,
    opts: &RunOptions,
    trace: &mut TraceWriter,
) -> Result<SysResult, RunError> {
    let mut p = plan(value, opts.seed)?;
    p.engine = opts.engine;
    run_plan(&p, trace, opts.vcd.as_deref())
}

fn done_fields(r: &SysResult) -> Value {
    json!({
        "cycles": r.cycles,
        "ssobo": r.ssobo,
        "bytes_written": r.bytes_written,
        "responses": r.responses,
        "overflows": r.overflows,
        "retired": r.retired,
        "bytes_per_cycle": (r.bytes_per_cycle() * 1000.0).round() / 1000.0,
    })
}

/// Run a scenario, writing the trace (with its `done` line) if asked.
pub fn run_with_events(
    value: &Value,
    opts: &RunOptions,
) -> Result<(RunSummary, Vec<Value>), RunError> {
    let mut p = plan(value, opts.seed)?;
    opts.check_outputs()?;
    let mut trace = TraceWriter::for_run(opts, "stream-out")?.keep_events();
    p.engine = opts.engine;
    let r = run_plan(&p, &mut trace, opts.vcd.as_deref())?;
    let events = trace.done(r.cycles, done_fields(&r))?;
    Ok((summary(&r, p.shaders.is_some()), events))
}

fn run(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    // Validate first: an invalid scenario leaves an existing trace file as it was.
    let mut p = plan(value, opts.seed)?;
    opts.check_outputs()?;
    let mut trace = TraceWriter::for_run(opts, "stream-out")?;
    p.engine = opts.engine;
    let r = run_plan(&p, &mut trace, opts.vcd.as_deref())?;
    trace.done(r.cycles, done_fields(&r))?;
    Ok(summary(&r, p.shaders.is_some()))
}

fn summary(r: &SysResult, shaders: bool) -> RunSummary {
    let mut s = RunSummary {
        unit: "stream-out".into(),
        cycles: r.cycles,
        figures: vec![
            ("batches".into(), r.batches.to_string()),
            ("responses".into(), r.responses.to_string()),
            ("retired".into(), r.retired.to_string()),
            ("overflows".into(), r.overflows.to_string()),
            ("bytes written".into(), format!("{:?}", r.bytes_written)),
            ("final SSOBO".into(), format!("{:?}", r.ssobo)),
            ("bytes/cycle".into(), format!("{:.2}", r.bytes_per_cycle())),
        ],
    };
    if shaders {
        s.figures.push((
            "shader stall cycles".into(),
            r.shader_stall_cycles.to_string(),
        ));
        s.figures.push((
            "WDU waits for a shader (cycles)".into(),
            r.dispatch_wait_cycles.to_string(),
        ));
    }
    s
}

/// The built-in scenario of `ppu run stream-out`: the seed's packet order
/// `W W W E W W W D W W W E W W W W D W W W`, 4 SO units, one split batch.
pub fn builtin() -> Value {
    let w = |v: u64| json!({"kind": "work", "vertices": v});
    let mut packets = vec![json!({"kind": "offset", "ssobo": [0, 0, 0, 0]})];
    let seq = "W W W E W W W D W W W E W W W W D W W W";
    let mut k = 0u64;
    for c in seq.split_whitespace() {
        packets.push(match c {
            "E" => json!({"kind": "enable"}),
            "D" => json!({"kind": "disable"}),
            _ => {
                k += 1;
                if k == 6 {
                    json!({"kind": "work", "batches": [{"tasks": [
                        {"so_unit": 1, "bytes": [96, 0, 48, 0], "latency": 9},
                        {"so_unit": 3, "bytes": [32, 0, 16, 0], "latency": 2}]}]})
                } else {
                    w(20 + 10 * k)
                }
            }
        });
    }
    json!({
        "unit": "stream-out",
        "config": {"so_units": 4, "so_bytes_per_cycle": 16, "fb_bytes_per_cycle": 64,
                   "buffer_bytes": [65536, 65536, 65536, 65536], "stride": [16, 0, 8, 0],
                   "latency": [20, 200]},
        "packets": packets,
    })
}

/// Registry entry.
pub fn runner() -> ScenarioRunner {
    ScenarioRunner {
        unit: "stream-out",
        builtin,
        run,
    }
}
