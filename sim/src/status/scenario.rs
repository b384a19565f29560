//! Scenario runners of SPEC section 3: `status-fsm` drives one [`StatusFsm`] RTL block
//! with per-cycle inputs; `status-system` runs the system simulation of [`super::system`].
//!
//! `status-fsm`: `{"unit":"status-fsm","config":{},"cycles":[{"in_active":1,...},...]}`; absent
//! inputs are 0, `can_halt` defaults to 1; every input is 0 or 1. Trace: one `state` event per
//! cycle (the state after that cycle's edge, upper-case `state` and `code`); `done` with the
//! cycles spent in each state. The RTL is checked against the ST-3 golden model every cycle
//! (a mismatch is a violation, exit 1).
//!
//! `status-system`: `config` with `units` (1..=32), `groups` (roll-up chains: lists of unit
//! indices, every unit in exactly one), `tree_stages` (3 or 4, ST-4), per-unit
//! `latency` (1..=64), `gather` (0..=16; 0 or 1 = no gathering), `out_buffer` (1..=16),
//! `mem_latency` (0..=150) — each either one number for every unit or a list with one per
//! unit — and `deadlock_threshold` (0 = off, else 2·tree_stages+2..=65535); `contexts` (work
//! items per context, 1..=64 contexts, at most 1,000,000 items in all); `commands` (each
//! `{"cycle":C,"context_switch":K}`, C ≤ 1,000,000). Context 0 runs first; when the running
//! context has no work left the front end switches to the next context with work. The run's
//! seed (`--seed`) draws the memory NACKs. `--vcd` records the waves of the whole status
//! cluster: every unit's FSM, the roll-up tree, the command tree and the front-end monitor (the
//! `status-fsm` scenario: the state machine's).
use super::golden::State;
use super::system::{self, SystemConfig, UnitParams, MAX_MEM_LATENCY, MAX_UNITS};
use super::tb::run_status_fsm;
use crate::scenario::{
    parse_as, require_objects, RunError, RunOptions, RunSummary, ScenarioRunner,
};
use crate::tb::TbOutput;
use crate::trace::TraceWriter;
use serde::Deserialize;
use serde_json::{json, Value};

pub fn runners() -> Vec<ScenarioRunner> {
    vec![
        ScenarioRunner {
            unit: "status-fsm",
            builtin: builtin_fsm,
            run: run_fsm,
        },
        ScenarioRunner {
            unit: "status-system",
            builtin: builtin_system,
            run: run_system,
        },
    ]
}

fn one() -> u8 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FsmScenario {
    #[allow(dead_code)]
    unit: String,
    config: FsmConfig,
    cycles: Vec<FsmCycle>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FsmConfig {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FsmCycle {
    #[serde(default)]
    reset: u8,
    #[serde(default)]
    halt: u8,
    #[serde(default)]
    resume: u8,
    #[serde(default)]
    in_active: u8,
    #[serde(default)]
    busy: u8,
    #[serde(default)]
    out_valid: u8,
    #[serde(default)]
    out_blocked: u8,
    #[serde(default)]
    mem_pending: u8,
    #[serde(default)]
    pending: u8,
    #[serde(default)]
    nack: u8,
    #[serde(default = "one")]
    can_halt: u8,
}

/// Most cycles a `status-fsm` scenario may list.
pub const MAX_FSM_CYCLES: usize = 1_000_000;

fn fsm_inputs(c: &FsmCycle, k: usize) -> Result<super::golden::Inputs, RunError> {
    let b = |v: u8, name: &str| -> Result<bool, RunError> {
        match v {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(RunError::invalid(
                &format!("cycles[{}].{}", k, name),
                format!("{} is not 0 or 1", v),
            )),
        }
    };
    Ok(super::golden::Inputs {
        reset: b(c.reset, "reset")?,
        halt: b(c.halt, "halt")?,
        resume: b(c.resume, "resume")?,
        in_active: b(c.in_active, "in_active")?,
        busy: b(c.busy, "busy")?,
        out_valid: b(c.out_valid, "out_valid")?,
        out_blocked: b(c.out_blocked, "out_blocked")?,
        mem_pending: b(c.mem_pending, "mem_pending")?,
        pending: b(c.pending, "pending")?,
        nack: b(c.nack, "nack")?,
        can_halt: b(c.can_halt, "can_halt")?,
    })
}

pub fn run_fsm(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    require_objects(value, "", &["config", "cycles[]"])?;
    let sc: FsmScenario = parse_as(value, "")?;
    let _ = sc.config;
    if sc.cycles.is_empty() {
        return Err(RunError::invalid("cycles", "must list at least one cycle"));
    }
    if sc.cycles.len() > MAX_FSM_CYCLES {
        return Err(RunError::invalid(
            "cycles",
            format!("{} cycles is more than {}", sc.cycles.len(), MAX_FSM_CYCLES),
        ));
    }
    let inputs = sc
        .cycles
        .iter()
        .enumerate()
        .map(|(k, c)| fsm_inputs(c, k))
        .collect::<Result<Vec<_>, _>>()?;
    opts.check_outputs()?;
    let run = run_status_fsm(
        &inputs,
        &TbOutput {
            vcd: opts.vcd.as_deref(),
            record_ports: false,
            engine: opts.engine,
        },
    )
    .map_err(RunError::Violation)?;
    let mut tw = TraceWriter::for_run(opts, "status-fsm")?;
    let mut counts = [0u64; 5];
    for (c, s) in run.states.iter().enumerate() {
        tw.event(
            c as u64,
            "state",
            json!({"state": s.name(), "code": s.code()}),
        )?;
        if let Some(k) = State::ALL.iter().position(|x| x == s) {
            counts[k] += 1;
        }
    }
    let cycles = run.states.len() as u64;
    let mut summary = serde_json::Map::new();
    summary.insert("cycles".into(), cycles.into());
    let mut figures = vec![];
    for (k, s) in State::ALL.iter().enumerate() {
        summary.insert(s.name().to_lowercase(), counts[k].into());
        figures.push((format!("cycles {}", s.name()), counts[k].to_string()));
    }
    let last = run.states.last().copied().unwrap_or(State::Empty);
    summary.insert("final_state".into(), last.name().into());
    figures.push(("final state".into(), last.name().to_string()));
    tw.done(cycles.saturating_sub(1), Value::Object(summary))?;
    Ok(RunSummary {
        unit: "status-fsm".into(),
        cycles,
        figures,
    })
}

pub fn builtin_fsm() -> Value {
    json!({
        "unit": "status-fsm",
        "config": {},
        "cycles": [
            {"reset": 1},
            {"in_active": 1},
            {"busy": 1},
            {"out_valid": 1, "out_blocked": 1},
            {"out_valid": 1, "out_blocked": 1},
            {"out_valid": 1},
            {"pending": 1},
            {},
            {"resume": 1},
            {"mem_pending": 1, "nack": 1},
            {"halt": 1, "mem_pending": 1, "can_halt": 0},
            {"halt": 1},
            {"halt": 1},
            {"pending": 1},
            {"in_active": 1},
            {},
            {}
        ]
    })
}

/// One number for every unit, or one per unit.
#[derive(Debug, Deserialize)]
#[serde(try_from = "Value")]
enum PerUnit {
    One(u64),
    Each(Vec<u64>),
}

/// Read by hand rather than as an untagged enum, whose only error is "data did not match any
/// variant": the message says which element is wrong and what is expected.
impl TryFrom<Value> for PerUnit {
    type Error = String;
    fn try_from(v: Value) -> Result<Self, String> {
        const EXPECTED: &str = "a non-negative integer, or a list of them with one per unit";
        match &v {
            Value::Number(n) => n
                .as_u64()
                .map(PerUnit::One)
                .ok_or_else(|| format!("{} is not {}", v, EXPECTED)),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    x.as_u64()
                        .ok_or_else(|| format!("[{}] = {} is not a non-negative integer", i, x))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(PerUnit::Each),
            _ => Err(format!("{} is not {}", v, EXPECTED)),
        }
    }
}

impl PerUnit {
    fn values(&self, n: usize, field: &str, lo: u64, hi: u64) -> Result<Vec<u32>, RunError> {
        let v: Vec<u64> = match self {
            PerUnit::One(x) => vec![*x; n],
            PerUnit::Each(xs) => {
                if xs.len() != n {
                    return Err(RunError::invalid(
                        &format!("config.{}", field),
                        format!("lists {} values for {} units", xs.len(), n),
                    ));
                }
                xs.clone()
            }
        };
        for (i, x) in v.iter().enumerate() {
            if *x < lo || *x > hi {
                let f = match self {
                    PerUnit::One(_) => format!("config.{}", field),
                    PerUnit::Each(_) => format!("config.{}[{}]", field, i),
                };
                return Err(RunError::invalid(
                    &f,
                    format!("{} is not in {}..={}", x, lo, hi),
                ));
            }
        }
        Ok(v.into_iter().map(|x| x as u32).collect())
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemScenario {
    #[allow(dead_code)]
    unit: String,
    config: SysConfig,
    contexts: Vec<u64>,
    #[serde(default)]
    commands: Vec<Command>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SysConfig {
    units: u64,
    groups: Vec<Vec<u64>>,
    tree_stages: u64,
    latency: PerUnit,
    gather: PerUnit,
    out_buffer: PerUnit,
    mem_latency: PerUnit,
    deadlock_threshold: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Command {
    cycle: u64,
    context_switch: u64,
}

/// The roll-up chains as unit masks: at least one chain, none empty, every one of the `n`
/// units in exactly one.
fn chain_masks(chains: &[Vec<u64>], n: usize) -> Result<Vec<u64>, RunError> {
    if chains.is_empty() {
        return Err(RunError::invalid(
            "config.groups",
            "must list at least one chain",
        ));
    }
    let mut groups = vec![];
    let mut seen = vec![None; n];
    for (g, chain) in chains.iter().enumerate() {
        if chain.is_empty() {
            return Err(RunError::invalid(
                &format!("config.groups[{}]", g),
                "an empty chain",
            ));
        }
        let mut mask = 0u64;
        for (k, &u) in chain.iter().enumerate() {
            let field = format!("config.groups[{}][{}]", g, k);
            if u >= n as u64 {
                return Err(RunError::invalid(
                    &field,
                    format!("unit {} does not exist ({} units)", u, n),
                ));
            }
            if let Some(other) = seen[u as usize] {
                return Err(RunError::invalid(
                    &field,
                    format!("unit {} is already in chain {}", u, other),
                ));
            }
            seen[u as usize] = Some(g);
            mask |= 1 << u;
        }
        groups.push(mask);
    }
    if let Some(u) = seen.iter().position(Option::is_none) {
        return Err(RunError::invalid(
            "config.groups",
            format!("unit {} is in no chain (every unit reports through one)", u),
        ));
    }
    Ok(groups)
}

/// 1..=64 contexts of at most 1,000,000 work items in all.
fn check_contexts(contexts: &[u64]) -> Result<(), RunError> {
    if contexts.is_empty() || contexts.len() > 64 {
        return Err(RunError::invalid("contexts", "must list 1..=64 contexts"));
    }
    let mut total = 0u64;
    for (k, &items) in contexts.iter().enumerate() {
        if items > 1_000_000 {
            return Err(RunError::invalid(
                &format!("contexts[{}]", k),
                format!("{} work items is more than 1000000", items),
            ));
        }
        total += items;
    }
    if total > 1_000_000 {
        return Err(RunError::invalid(
            "contexts",
            format!("{} work items in all is more than 1000000", total),
        ));
    }
    Ok(())
}

/// The switch commands as (cycle, context), sorted by cycle.
fn switch_commands(commands: &[Command], contexts: usize) -> Result<Vec<(u64, usize)>, RunError> {
    let mut list = vec![];
    for (k, cmd) in commands.iter().enumerate() {
        if cmd.cycle > 1_000_000 {
            return Err(RunError::invalid(
                &format!("commands[{}].cycle", k),
                format!("{} is after cycle 1000000", cmd.cycle),
            ));
        }
        if cmd.context_switch >= contexts as u64 {
            return Err(RunError::invalid(
                &format!("commands[{}].context_switch", k),
                format!(
                    "context {} does not exist ({} contexts)",
                    cmd.context_switch, contexts
                ),
            ));
        }
        list.push((cmd.cycle, cmd.context_switch as usize));
    }
    list.sort_by_key(|c| c.0);
    Ok(list)
}

/// Validate a `status-system` scenario into a [`SystemConfig`].
pub fn system_config(value: &Value, seed: u64) -> Result<SystemConfig, RunError> {
    require_objects(value, "", &["config", "commands[]"])?;
    let sc: SystemScenario = parse_as(value, "")?;
    let c = &sc.config;
    if c.units == 0 || c.units > MAX_UNITS as u64 {
        return Err(RunError::invalid(
            "config.units",
            format!("{} is not in 1..={}", c.units, MAX_UNITS),
        ));
    }
    let n = c.units as usize;
    // ST-4: "pipelined with TREE_STAGES register stages (3 or 4)". The RTL builds any depth
    // (its unit tests use 1..=4); a scenario takes the SPEC's two.
    if !(3..=4).contains(&c.tree_stages) {
        return Err(RunError::invalid(
            "config.tree_stages",
            format!("{} is not 3 or 4 (ST-4)", c.tree_stages),
        ));
    }
    let groups = chain_masks(&c.groups, n)?;
    let lat = c.latency.values(n, "latency", 1, 64)?;
    let gat = c.gather.values(n, "gather", 0, 16)?;
    let buf = c.out_buffer.values(n, "out_buffer", 1, 16)?;
    let mem = c
        .mem_latency
        .values(n, "mem_latency", 0, MAX_MEM_LATENCY as u64)?;
    let min_thr = 2 * c.tree_stages + 2;
    if c.deadlock_threshold != 0 && !(min_thr..=65535).contains(&c.deadlock_threshold) {
        return Err(RunError::invalid(
            "config.deadlock_threshold",
            format!(
                "{} is neither 0 (off) nor in {}..=65535 (above a status round trip)",
                c.deadlock_threshold, min_thr
            ),
        ));
    }
    check_contexts(&sc.contexts)?;
    let commands = switch_commands(&sc.commands, sc.contexts.len())?;
    let units: Vec<UnitParams> = (0..n)
        .map(|i| UnitParams {
            latency: lat[i],
            gather: gat[i],
            out_buffer: buf[i],
            mem_latency: mem[i],
        })
        .collect();
    let items = sc.contexts.iter().sum::<u64>();
    let max_cycles = system::cycle_cap(&units, items, &commands, c.deadlock_threshold as u16);
    Ok(SystemConfig {
        units,
        groups,
        tree_stages: c.tree_stages as usize,
        deadlock_threshold: c.deadlock_threshold as u16,
        contexts: sc.contexts.iter().map(|&x| x as u32).collect(),
        commands,
        drain: false,
        seed,
        store_cycles_per_word: system::STORE_CYCLES_PER_WORD,
        max_cycles,
        vcd: None,
        engine: Default::default(),
    })
}

pub fn run_system(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    let mut cfg = system_config(value, opts.seed)?;
    opts.check_outputs()?;
    cfg.vcd = opts.vcd.clone();
    cfg.engine = opts.engine;
    let mut tw = TraceWriter::for_run(opts, "status-system")?;
    let r = system::run(&cfg, Some(&mut tw))?;
    let n = r.switches.len().max(1) as f64;
    let mean_switch = r
        .switches
        .iter()
        .map(|s| s.switch_cycles as f64)
        .sum::<f64>()
        / n
        // (An empty float sum is -0.0: a run without switches reports 0.)
        + 0.0;
    tw.done(
        r.cycles,
        json!({
            "cycles": r.cycles,
            "outputs": r.outputs,
            "context_switches": r.switches.len(),
            "max_halt_latency": r.max_halt_latency(),
            "mean_switch_cycles": mean_switch,
            "deadlocks": r.deadlocks,
            "resumes": r.resumes,
            "nacks": r.nacks,
        }),
    )?;
    Ok(RunSummary {
        unit: "status-system".into(),
        cycles: r.cycles,
        figures: vec![
            ("work items out".into(), r.outputs.to_string()),
            ("context switches".into(), r.switches.len().to_string()),
            ("max halt latency".into(), r.max_halt_latency().to_string()),
            ("mean switch cycles".into(), format!("{:.1}", mean_switch)),
            ("deadlocks removed".into(), r.deadlocks.to_string()),
            ("NACKs".into(), r.nacks.to_string()),
        ],
    })
}

pub fn builtin_system() -> Value {
    json!({
        "unit": "status-system",
        "config": {
            "units": 8,
            "groups": [[0, 1, 2], [3], [4, 5], [6, 7]],
            "tree_stages": 3,
            "latency": [2, 4, 3, 8, 2, 4, 6, 2],
            "gather": [0, 0, 4, 0, 0, 0, 0, 0],
            "out_buffer": 2,
            "mem_latency": [0, 4, 20, 0, 6, 0, 3, 0],
            "deadlock_threshold": 64
        },
        "contexts": [150, 90, 61],
        "commands": [
            {"cycle": 300, "context_switch": 1},
            {"cycle": 700, "context_switch": 2},
            {"cycle": 1100, "context_switch": 0}
        ]
    })
}
