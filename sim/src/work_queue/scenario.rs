//! The `work-queue` scenario runner (SPEC section 4, X-5).
//!
//! Scenario: `{"unit":"work-queue","config":{"entries":16,"bus_latency":500,
//! "host_cycles_per_command":2,"retry_cycles":20,"watchdog_cycles":1000000},
//! "threads":[{"start":5,"blocks":2,"block_cycles":40,"children":[...]}]}`.
//! `watchdog_cycles` defaults to 1,000,000 and `children` to none; every other field is
//! required. Limits (exit 2, the field named): `entries` 4..=256 (this build's rings hold at
//! most 256 entries); 1 + the sum over the top-level threads of (blocks + 1) at most
//! `entries` - 1 (more is a certain deadlock: entry 0 plus everything allocated before X is
//! released); a thread's `blocks` + 1 at most `entries` - 2 (an allocation larger than the
//! free part of the ring can never be granted); `children` only for a thread with at least one
//! block (they are the threads of the kernel its first block launches); `bus_latency`,
//! `retry_cycles`, `start`, `block_cycles` at most 1,000,000; `host_cycles_per_command` at
//! most 255; `watchdog_cycles` 1..=4,294,967,294 (the host interface pulses after waiting its
//! limit, `watchdog_cycles` + 1, a 32-bit number); at most 4,096 threads.
//!
//! Trace: the events of SPEC section 4 (`alloc`, `written`, `exec`, `release`, `acquire_wait`,
//! `acquire_done`, `gp_get`, `gp_put`, `done`), cycles counted from the driver's set-up (after
//! the semaphore memory's clear sweep). Every run's trace is checked by the golden model
//! ([`super::golden::check_trace`]): a broken WQ-8 invariant is a violation (exit 1), as is an
//! acquire waiting longer than `watchdog_cycles`.
use super::golden;
use super::system::{self, Mode, SystemConfig, ThreadSpec, MAX_ENTRIES, MIN_ENTRIES};
use crate::scenario::{
    parse_as, require_objects, RunError, RunOptions, RunSummary, ScenarioRunner,
};
use crate::trace::TraceWriter;
use serde::Deserialize;
use serde_json::{json, Value};

pub fn runners() -> Vec<ScenarioRunner> {
    vec![ScenarioRunner {
        unit: "work-queue",
        builtin,
        run,
    }]
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WqScenario {
    #[allow(dead_code)]
    unit: String,
    config: WqConfig,
    threads: Vec<ThreadJson>,
}

fn default_watchdog() -> u64 {
    1_000_000
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WqConfig {
    entries: u64,
    bus_latency: u64,
    host_cycles_per_command: u64,
    retry_cycles: u64,
    #[serde(default = "default_watchdog")]
    watchdog_cycles: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThreadJson {
    start: u64,
    blocks: u64,
    block_cycles: u64,
    #[serde(default)]
    children: Vec<ThreadJson>,
}

/// Largest time-like field.
const MAX_TIME: u64 = 1_000_000;
/// Most threads in a scenario.
pub const MAX_THREADS: usize = 4096;

/// The built-in scenario: the SPEC's example (a thread whose first block launches a kernel with
/// a child thread), plus a second top-level thread.
pub fn builtin() -> Value {
    json!({"unit":"work-queue",
        "config":{"entries":16,"bus_latency":500,"host_cycles_per_command":2,"retry_cycles":20,
                  "watchdog_cycles":1000000},
        "threads":[{"start":5,"blocks":2,"block_cycles":40,
                    "children":[{"start":3,"blocks":1,"block_cycles":30}]},
                   {"start":9,"blocks":1,"block_cycles":25}]})
}

fn check_threads(
    list: &[ThreadJson],
    path: &str,
    entries: u64,
    count: &mut usize,
) -> Result<Vec<ThreadSpec>, RunError> {
    let mut out = vec![];
    for (i, t) in list.iter().enumerate() {
        let p = format!("{}[{}]", path, i);
        *count += 1;
        if *count > MAX_THREADS {
            return Err(RunError::invalid(
                path,
                format!("more than {} threads", MAX_THREADS),
            ));
        }
        for (name, v) in [("start", t.start), ("block_cycles", t.block_cycles)] {
            if v > MAX_TIME {
                return Err(RunError::invalid(
                    &format!("{}.{}", p, name),
                    format!("{} is more than {}", v, MAX_TIME),
                ));
            }
        }
        if t.blocks.saturating_add(1) > entries - 2 {
            return Err(RunError::invalid(
                &format!("{}.blocks", p),
                format!(
                    "{} blocks need {} entries, more than the {} a ring of {} can ever grant",
                    t.blocks,
                    t.blocks as u128 + 1,
                    entries - 2,
                    entries
                ),
            ));
        }
        if !t.children.is_empty() && t.blocks == 0 {
            return Err(RunError::invalid(
                &format!("{}.children", p),
                "a thread with children needs at least one block (its first block launches them)",
            ));
        }
        let children = check_threads(&t.children, &format!("{}.children", p), entries, count)?;
        out.push(ThreadSpec {
            start: t.start,
            blocks: t.blocks,
            block_cycles: t.block_cycles,
            children,
        });
    }
    Ok(out)
}

/// Every thread of `list` (at `path`) and of its `children`, to any depth, is a JSON object
/// (serde would read an array positionally as a thread).
fn require_thread_objects(list: &Value, path: &str) -> Result<(), RunError> {
    for (i, thread) in list.as_array().into_iter().flatten().enumerate() {
        let field = format!("{}[{}]", path, i);
        if !thread.is_object() {
            return Err(RunError::invalid(&field, "must be a JSON object"));
        }
        if let Some(children) = thread.get("children") {
            require_thread_objects(children, &format!("{}.children", field))?;
        }
    }
    Ok(())
}

/// Validate a scenario into a system configuration (GPU-created mode).
pub fn system_config(value: &Value) -> Result<SystemConfig, RunError> {
    require_objects(value, "", &["config"])?;
    if let Some(threads) = value.get("threads") {
        require_thread_objects(threads, "threads")?;
    }
    let sc: WqScenario = parse_as(value, "")?;
    let c = &sc.config;
    if !(MIN_ENTRIES..=MAX_ENTRIES).contains(&c.entries) {
        return Err(RunError::invalid(
            "config.entries",
            format!("{} is not in {}..={}", c.entries, MIN_ENTRIES, MAX_ENTRIES),
        ));
    }
    for (name, v) in [
        ("bus_latency", c.bus_latency),
        ("retry_cycles", c.retry_cycles),
    ] {
        if v > MAX_TIME {
            return Err(RunError::invalid(
                &format!("config.{}", name),
                format!("{} is more than {}", v, MAX_TIME),
            ));
        }
    }
    if c.host_cycles_per_command > 255 {
        return Err(RunError::invalid(
            "config.host_cycles_per_command",
            format!("{} is more than 255", c.host_cycles_per_command),
        ));
    }
    if c.watchdog_cycles == 0 || c.watchdog_cycles >= u32::MAX as u64 {
        return Err(RunError::invalid(
            "config.watchdog_cycles",
            format!(
                "{} is not in 1..={} (the host's 32-bit limit is one more)",
                c.watchdog_cycles,
                u32::MAX - 1
            ),
        ));
    }
    if sc.threads.is_empty() {
        return Err(RunError::invalid(
            "threads",
            "at least one thread: without one nothing writes the GPU channel's entries or returns to the CPU",
        ));
    }
    let mut count = 0;
    let threads = check_threads(&sc.threads, "threads", c.entries, &mut count)?;
    let needed: u64 = 1 + sc.threads.iter().map(|t| t.blocks + 1).sum::<u64>();
    if needed > c.entries - 1 {
        return Err(RunError::invalid(
            "threads",
            format!(
                "entry 0 plus the top-level threads' allocations need {} entries before X is \
                 released, more than entries - 1 = {}: a certain deadlock",
                needed,
                c.entries - 1
            ),
        ));
    }
    Ok(SystemConfig {
        entries: c.entries,
        bus_latency: c.bus_latency,
        host_cycles_per_command: c.host_cycles_per_command,
        retry_cycles: c.retry_cycles,
        watchdog_cycles: c.watchdog_cycles,
        threads,
        mode: Mode::GpuCreated,
        vcd: None,
        engine: Default::default(),
        record_ports: false,
        record_host_ports: false,
    })
}

/// Run a `work-queue` scenario: the system simulation, its trace, the golden check.
pub fn run(value: &Value, opts: &RunOptions) -> Result<RunSummary, RunError> {
    let mut cfg = system_config(value)?;
    opts.check_outputs()?;
    cfg.vcd = opts.vcd.clone();
    cfg.engine = opts.engine;
    let mut trace = TraceWriter::for_run(opts, "work-queue")?.keep_events();
    let (r, _) = system::run(&cfg, Some(&mut trace))?;
    let events = trace.done(
        r.cycles,
        json!({"cycles": r.cycles, "cpu_interactions": r.cpu_interactions}),
    )?;
    golden::check_trace(value, &events)
        .map_err(|e| RunError::Violation(format!("WQ-8 golden check: {}", e)))?;
    Ok(RunSummary {
        unit: "work-queue".into(),
        cycles: r.cycles,
        figures: vec![
            ("cpu interactions".into(), r.cpu_interactions.to_string()),
            ("allocations".into(), r.allocations_ok.to_string()),
            ("refused".into(), r.allocations_refused.to_string()),
            ("entries written".into(), r.entries_written.to_string()),
            ("kernels".into(), r.kernels_launched.to_string()),
        ],
    })
}
