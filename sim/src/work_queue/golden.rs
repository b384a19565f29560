//! Golden model of work-queue based work creation (WQ-1..WQ-11), in plain Rust and independent
//! of the RTL: the ring and its pointers (WQ-1), both forms of wrap (WQ-2), the five acquire
//! conditions (WQ-4), the soft/shadow GP_PUT allocator (WQ-5, WQ-6), and [`check_trace`], a
//! checker of a whole `work-queue` run's trace against its scenario: every invariant of WQ-8,
//! the allocation rules of WQ-6/WQ-7, the command order of WQ-3/WQ-4 and the trace format of
//! X-5.
//!
//! Written from the words of the specification only (section 4 and the scenario/trace rules of
//! X-5), never from the RTL, so that a misreading shared by both would show up as a failing
//! check rather than pass every test.
//!
//! Readings fixed by the designer where the specification is silent:
//! 1. Entry 0 of the GPU channel (block [acquire X]) and the CPU channel's entries are written by
//!    the driver/CPU and have no `written` event. The GPU channel starts at GP_GET = 0,
//!    GP_PUT = `entries` - 1.
//! 2. `release` events are only the host executing a release command; a thread's guard release
//!    is not a trace event.
//! 3. `exec` is emitted once per command of a block when the command starts. The blocks: CPU
//!    channel entry 0 [launch, wfi, release X, acquire Y]; GPU channel entry 0 [acquire X]; a
//!    created block [launch]; a guard block [acquire S[i]] (sem = i, its own entry); the return
//!    block [wfi, release Y, acquire X].
//! 4. `acquire_wait` when an acquire first finds its condition false (at most once per execution
//!    of that command); `acquire_done` for every acquire that completes, waited or not.
//! 5. `gp_get` / `gp_put` whenever the value changes (and possibly once for the set-up values);
//!    GP_GET advances only after the last command of its entry's block completed.
//!
//! Readings taken here (each is what the specification's words imply; each is checked):
//! - A thread's created blocks occupy `first`..`first`+N-1 and its guard `first`+N ("a semaphore
//!   acquire for the entry after its N"); the return allocation is the return block at `first`
//!   and its guard at `first`+1.
//! - The return block's acquire X never completes within the run ("the GPU channel blocks
//!   again", WQ-7), so its guard entry is never executed: it is the one written entry allowed to
//!   stay unexecuted at the end.
//! - A guard acquire S[i] (entry i) completes only after the next allocation (first = i+1) has
//!   all its entries written: that thread releases S[i] "when all are written" (WQ-6). The GPU
//!   channel's acquire X completes only after the CPU channel's release X; the CPU channel's
//!   acquire Y only after the GPU channel's release Y.
//! - A WFI waits until every kernel launched from its channel has finished (scenario rules): the
//!   command after it starts no earlier than `block_cycles` after each created block's launch
//!   `exec`, and only after every thread of those kernels has written its main allocation (the
//!   CPU channel's WFI waits for the top-level threads' main allocations, not the return block).
//! - A thread acts no earlier than `start` cycles after the `exec` of the launch of its kernel
//!   (the CPU block's launch for top-level threads, the parent's first created block for
//!   children); a refused thread's next attempt comes no earlier than `retry_cycles` later.
//! - A refused `alloc` is checked against the allocator model: it must not fit even with the
//!   shadow GP_PUT of the start of its cycle (an allocation decided on a register's value before
//!   a same-cycle GP_GET advance is accepted); its `first` is only range-checked. A successful
//!   one must fit with the shadow GP_PUT current at its line.
//! - When channel 1's GP_GET moves, a `gp_put` of channel 1 with the new wrap(GP_GET - 1) follows
//!   in the same cycle ("keeps shadow GP_PUT = GP_PUT = wrap(GP_GET - 1)").
//! - The CPU channel executes only while GP_GET != GP_PUT (WQ-3); its GP_PUT is 1 after set-up
//!   (entry 0 submitted) unless a `gp_put` event of channel 0 says otherwise.
//! - An acquire waiting (from its `acquire_wait`) longer than `watchdog_cycles` (default
//!   1,000,000) is a violation, also when still waiting at `done`.
//! - A thread with `children` but no blocks has no first created block to launch them: the
//!   scenario is rejected.
//!
//! Not checked (the specification leaves them open): release values and acquire payloads (the
//! trace carries no acquire condition), `bus_latency` delays, the `done` figures `cycles` and
//! `cpu_interactions` (reported in [`TraceFacts`]), and whether the run stops before or after
//! the CPU channel's GP_GET moves past its block.
use crate::trace::{event_fields, field_index, field_uint};
use serde_json::{Map, Value};

/// WQ-2, non-power-of-two form: x+n if x<0, x-n if x>=n, else x. Defined for x in [-n, 2n).
pub fn wrap_compare(x: i64, n: u64) -> u64 {
    debug_assert!(n > 0 && n <= i64::MAX as u64, "wrap_compare: n = {}", n);
    let m = n as i64;
    debug_assert!(
        x >= -m && x < 2 * m,
        "wrap_compare: x = {} outside [-n, 2n)",
        x
    );
    let r = if x < 0 {
        x + m
    } else if x >= m {
        x - m
    } else {
        x
    };
    r as u64
}

/// WQ-2, power-of-two form: x & (n-1) (two's complement). n must be a power of two.
pub fn wrap_pow2(x: i64, n: u64) -> u64 {
    debug_assert!(
        n.is_power_of_two(),
        "wrap_pow2: n = {} is not a power of two",
        n
    );
    (x as u64) & n.wrapping_sub(1)
}

/// WQ-2 as the spec chooses: the AND form for a power of two, else the compare form.
pub fn wrap(x: i64, n: u64) -> u64 {
    if n.is_power_of_two() {
        wrap_pow2(x, n)
    } else {
        wrap_compare(x, n)
    }
}

/// `wrap` on ring indices (WQ-2).
fn ring(x: i64, n: usize) -> usize {
    wrap(x, n as u64) as usize
}

/// WQ-4 acquire conditions, as in public GPU host-interface documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AcquireCondition {
    Equal,
    Geq,
    CircGeq,
    And,
    Nor,
}

impl AcquireCondition {
    /// The five conditions of WQ-4.
    pub const ALL: [AcquireCondition; 5] = [
        AcquireCondition::Equal,
        AcquireCondition::Geq,
        AcquireCondition::CircGeq,
        AcquireCondition::And,
        AcquireCondition::Nor,
    ];
}

/// Is an acquire with `cond` and payload `value` satisfied by semaphore contents `sem`?
/// Equal: sem == value; Geq: sem >= value (unsigned); CircGeq: (sem - value) as i32 >= 0
/// (wrapping 32-bit subtraction, signed difference >= 0); And: (sem & value) != 0;
/// Nor: !(sem | value) != 0. (WQ-4)
pub fn acquire_satisfied(cond: AcquireCondition, sem: u32, value: u32) -> bool {
    match cond {
        AcquireCondition::Equal => sem == value,
        AcquireCondition::Geq => sem >= value,
        AcquireCondition::CircGeq => (sem.wrapping_sub(value) as i32) >= 0,
        AcquireCondition::And => (sem & value) != 0,
        AcquireCondition::Nor => !(sem | value) != 0,
    }
}

/// WQ-1 ring model: `entries` entries, GP_GET the next entry to execute, GP_PUT the entry after
/// the last one submitted. Empty: GP_GET == GP_PUT; full: GP_GET == wrap(GP_PUT + 1). Both
/// pointers move with [`wrap`] (WQ-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingModel {
    pub entries: usize,
    pub gp_get: usize,
    pub gp_put: usize,
}

impl RingModel {
    /// An empty ring of `entries` entries, both pointers at 0 (WQ-1).
    pub fn new(entries: usize) -> Self {
        Self::with_pointers(entries, 0, 0)
    }
    /// A ring with given pointers (WQ-1).
    pub fn with_pointers(entries: usize, gp_get: usize, gp_put: usize) -> Self {
        debug_assert!(entries >= 1 && gp_get < entries && gp_put < entries);
        RingModel {
            entries,
            gp_get,
            gp_put,
        }
    }
    /// WQ-1: GP_GET == GP_PUT.
    pub fn empty(&self) -> bool {
        self.gp_get == self.gp_put
    }
    /// WQ-1: GP_GET == (GP_PUT + 1) mod ENTRIES.
    pub fn full(&self) -> bool {
        self.gp_get == ring(self.gp_put as i64 + 1, self.entries)
    }
    /// Entries submitted and not yet executed: wrap(GP_PUT - GP_GET) (WQ-1, WQ-2).
    pub fn fill(&self) -> usize {
        ring(self.gp_put as i64 - self.gp_get as i64, self.entries)
    }
    /// Submit one entry: GP_PUT advances by one (wrapping); refused (false, nothing changes)
    /// when the ring is full (WQ-1).
    pub fn submit(&mut self) -> bool {
        if self.full() {
            return false;
        }
        self.gp_put = ring(self.gp_put as i64 + 1, self.entries);
        true
    }
    /// Execute one entry: GP_GET advances by one (wrapping); refused (false, nothing changes)
    /// when the ring is empty (WQ-1, WQ-3).
    pub fn execute(&mut self) -> bool {
        if self.empty() {
            return false;
        }
        self.gp_get = ring(self.gp_get as i64 + 1, self.entries);
        true
    }
}

/// WQ-5/WQ-6 soft/shadow GP_PUT allocator model: `soft_gp_put` is the next entry a thread gets,
/// `shadow_gp_put` the first entry no allocation may reach. Independent of [`RingModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocatorModel {
    pub entries: usize,
    pub soft_gp_put: usize,
    pub shadow_gp_put: usize,
}

impl AllocatorModel {
    /// The state after the driver's set-up (WQ-5): soft GP_PUT = wrap(GP_GET + 1), shadow
    /// GP_PUT = GP_PUT = wrap(GP_GET - 1).
    pub fn new_after_setup(entries: usize, gp_get: usize) -> Self {
        AllocatorModel {
            entries,
            soft_gp_put: ring(gp_get as i64 + 1, entries),
            shadow_gp_put: ring(gp_get as i64 - 1, entries),
        }
    }
    /// Entries from soft GP_PUT up to (not including) shadow GP_PUT: wrap(shadow - soft).
    pub fn free(&self) -> usize {
        ring(
            self.shadow_gp_put as i64 - self.soft_gp_put as i64,
            self.entries,
        )
    }
    /// One atomic allocation of `count` entries (WQ-6): if soft..soft+count-1 all lie strictly
    /// before shadow GP_PUT in ring order, soft GP_PUT advances by `count` and the old value (the
    /// first entry) is returned; otherwise `None` and nothing changes.
    pub fn allocate(&mut self, count: usize) -> Option<usize> {
        if count > self.free() {
            return None;
        }
        let first = self.soft_gp_put;
        self.soft_gp_put = ring(first as i64 + count as i64, self.entries);
        Some(first)
    }
    /// The host moved GP_GET: shadow GP_PUT = wrap(GP_GET - 1) (scenario rules of WQ-6).
    pub fn host_advanced(&mut self, gp_get: usize) {
        self.shadow_gp_put = ring(gp_get as i64 - 1, self.entries);
    }
}

/// Facts gathered while checking a trace.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceFacts {
    /// Successful `alloc` events (main and return allocations, WQ-6, WQ-7).
    pub allocations_ok: u64,
    /// Refused `alloc` events (WQ-10: full ring).
    pub allocations_refused: u64,
    /// `written` events.
    pub entries_written: u64,
    /// Blocks started on the GPU channel (channel 1), set-up entry 0 included.
    pub entries_executed_gpu: u64,
    /// The `done` event's `cycles`.
    pub cycles: u64,
    /// The `done` event's `cpu_interactions` (WQ-11).
    pub cpu_interactions: u64,
}

// ---------------------------------------------------------------------------------------------
// Scenario

/// One thread of the scenario's tree (scenario rules of section 4), in pre-order.
#[derive(Debug, Clone)]
struct ThreadSpec {
    start: u64,
    blocks: usize,
    block_cycles: u64,
    children: Vec<usize>,
    top: bool,
}

/// What the checker needs of a `work-queue` scenario.
#[derive(Debug, Clone)]
struct Setup {
    entries: usize,
    retry_cycles: u64,
    watchdog_cycles: u64,
    threads: Vec<ThreadSpec>,
}

fn scenario_uint(o: &Map<String, Value>, key: &str, path: &str) -> Result<Option<u64>, String> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("scenario: {}.{} must be a non-negative integer", path, key)),
    }
}

/// The threads of `list` and their children, in pre-order (depth first, in order).
fn parse_threads(
    list: &Value,
    top: bool,
    path: &str,
    out: &mut Vec<ThreadSpec>,
) -> Result<Vec<usize>, String> {
    let arr = list
        .as_array()
        .ok_or_else(|| format!("scenario: {} must be an array of threads", path))?;
    let mut ids = vec![];
    for (i, t) in arr.iter().enumerate() {
        let p = format!("{}[{}]", path, i);
        let o = t
            .as_object()
            .ok_or_else(|| format!("scenario: {} must be an object", p))?;
        let need = |k: &str| -> Result<u64, String> {
            scenario_uint(o, k, &p)?.ok_or_else(|| format!("scenario: {}.{} is missing", p, k))
        };
        let id = out.len();
        ids.push(id);
        out.push(ThreadSpec {
            start: need("start")?,
            blocks: need("blocks")? as usize,
            block_cycles: need("block_cycles")?,
            children: vec![],
            top,
        });
        if let Some(ch) = o.get("children") {
            let children = parse_threads(ch, false, &format!("{}.children", p), out)?;
            if !children.is_empty() && out[id].blocks == 0 {
                return Err(format!(
                    "scenario: {} has children but no blocks: no first created block launches them",
                    p
                ));
            }
            out[id].children = children;
        }
    }
    Ok(ids)
}

/// Largest ring the checker keeps per-entry state for.
const MAX_ENTRIES: u64 = 1 << 22;

fn parse_setup(scenario: &Value) -> Result<Setup, String> {
    let o = scenario
        .as_object()
        .ok_or("scenario: must be a JSON object (X-5)")?;
    if let Some(u) = o.get("unit") {
        if u.as_str() != Some("work-queue") {
            return Err(format!("scenario: unit is {}, not \"work-queue\"", u));
        }
    }
    let config = o
        .get("config")
        .and_then(Value::as_object)
        .ok_or("scenario: config must be an object")?;
    let entries =
        scenario_uint(config, "entries", "config")?.ok_or("scenario: config.entries is missing")?;
    if !(4..=MAX_ENTRIES).contains(&entries) {
        return Err(format!(
            "scenario: config.entries = {} (at least 4; the checker takes up to {})",
            entries, MAX_ENTRIES
        ));
    }
    let mut threads = vec![];
    let list = o.get("threads").ok_or("scenario: threads is missing")?;
    parse_threads(list, true, "threads", &mut threads)?;
    Ok(Setup {
        entries: entries as usize,
        retry_cycles: scenario_uint(config, "retry_cycles", "config")?.unwrap_or(0),
        watchdog_cycles: scenario_uint(config, "watchdog_cycles", "config")?.unwrap_or(1_000_000),
        threads,
    })
}

// ---------------------------------------------------------------------------------------------
// Trace events

/// A semaphore named in a trace: X, Y, or S[i] of entry i (WQ-5, WQ-6 reading).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sem {
    X,
    Y,
    S(usize),
}

impl std::fmt::Display for Sem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sem::X => write!(f, "X"),
            Sem::Y => write!(f, "Y"),
            Sem::S(i) => write!(f, "S[{}]", i),
        }
    }
}

/// A command name of an `exec` event (WQ-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    Launch,
    Wfi,
    Release,
    Acquire,
}

/// A command of a block as the specification builds it (WQ-4..WQ-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockCmd {
    Launch,
    Wfi,
    Release(Sem),
    Acquire(Sem),
}

impl BlockCmd {
    fn name(self) -> Cmd {
        match self {
            BlockCmd::Launch => Cmd::Launch,
            BlockCmd::Wfi => Cmd::Wfi,
            BlockCmd::Release(_) => Cmd::Release,
            BlockCmd::Acquire(_) => Cmd::Acquire,
        }
    }
}

/// One parsed trace event (section 4, "Trace events").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    Alloc {
        thread: usize,
        first: usize,
        count: usize,
        ok: bool,
    },
    Written {
        thread: usize,
        entry: usize,
    },
    Exec {
        channel: usize,
        entry: usize,
        command: Cmd,
    },
    Release {
        channel: usize,
        sem: Sem,
    },
    AcquireWait {
        channel: usize,
        sem: Sem,
    },
    AcquireDone {
        channel: usize,
        sem: Sem,
    },
    GpGet {
        channel: usize,
        value: usize,
    },
    GpPut {
        channel: usize,
        value: usize,
    },
    Done {
        cycles: u64,
        cpu_interactions: u64,
    },
}

/// The field set of every event, besides `cycle` and `event` (section 4, "Trace events").
const EVENT_FIELDS: [(&str, &[&str]); 9] = [
    ("alloc", &["thread", "first", "count", "ok"]),
    ("written", &["thread", "entry"]),
    ("exec", &["channel", "entry", "command"]),
    ("release", &["channel", "sem", "value"]),
    ("acquire_wait", &["channel", "sem"]),
    ("acquire_done", &["channel", "sem"]),
    ("gp_get", &["channel", "value"]),
    ("gp_put", &["channel", "value"]),
    ("done", &["cycles", "cpu_interactions"]),
];

fn field_sem(o: &Map<String, Value>, entries: usize) -> Result<Sem, String> {
    match &o["sem"] {
        Value::String(s) if s == "X" => Ok(Sem::X),
        Value::String(s) if s == "Y" => Ok(Sem::Y),
        Value::Number(_) => field_index(o, "sem", entries).map(Sem::S),
        v => Err(format!(
            "field sem = {} is neither \"X\", \"Y\" nor an entry index",
            v
        )),
    }
}

/// Parse one event: its cycle and contents, with the exact field set of its kind (X-5 and
/// section 4, "Trace events").
fn parse_event(v: &Value, setup: &Setup) -> Result<(u64, Event), String> {
    let (cycle, name, o) = event_fields(v, &EVENT_FIELDS, "section 4")?;
    let n = setup.entries;
    let threads = setup.threads.len();
    let ch = || field_index(o, "channel", 2);
    let ev = match name {
        "alloc" => Event::Alloc {
            thread: field_index(o, "thread", threads)?,
            first: field_index(o, "first", n)?,
            count: field_uint(o, "count")?.min(u32::MAX as u64) as usize,
            ok: o["ok"].as_bool().ok_or("field ok is not a boolean")?,
        },
        "written" => Event::Written {
            thread: field_index(o, "thread", threads)?,
            entry: field_index(o, "entry", n)?,
        },
        "exec" => Event::Exec {
            channel: ch()?,
            entry: field_index(o, "entry", n)?,
            command: match o["command"].as_str() {
                Some("launch") => Cmd::Launch,
                Some("wfi") => Cmd::Wfi,
                Some("release") => Cmd::Release,
                Some("acquire") => Cmd::Acquire,
                _ => return Err(format!("field command = {} is not a command", o["command"])),
            },
        },
        "release" => {
            if field_uint(o, "value")? > u32::MAX as u64 {
                return Err("field value of a release is not a 32-bit value".into());
            }
            Event::Release {
                channel: ch()?,
                sem: field_sem(o, n)?,
            }
        }
        "acquire_wait" => Event::AcquireWait {
            channel: ch()?,
            sem: field_sem(o, n)?,
        },
        "acquire_done" => Event::AcquireDone {
            channel: ch()?,
            sem: field_sem(o, n)?,
        },
        "gp_get" => Event::GpGet {
            channel: ch()?,
            value: field_index(o, "value", n)?,
        },
        "gp_put" => Event::GpPut {
            channel: ch()?,
            value: field_index(o, "value", n)?,
        },
        _ => Event::Done {
            cycles: field_uint(o, "cycles")?,
            cpu_interactions: field_uint(o, "cpu_interactions")?,
        },
    };
    Ok((cycle, ev))
}

// ---------------------------------------------------------------------------------------------
// Checker state

/// Who wrote what an entry holds: the driver's set-up (reading 1) or entry `offset` of
/// allocation `k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Driver,
    Alloc { k: usize, offset: usize },
}

/// The state of one ring entry as far as WQ-8 is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Executed (or never used): free to be allocated.
    Free,
    /// Allocated by allocation `k`, not yet written.
    Allocated(usize),
    /// Written, waiting for its one execution.
    Written(Origin),
}

/// A successful allocation (WQ-6, WQ-7).
#[derive(Debug, Clone)]
struct Allocation {
    thread: usize,
    first: usize,
    count: usize,
    /// The return allocation of WQ-7.
    ret: bool,
    written: usize,
}

impl Allocation {
    fn complete(&self) -> bool {
        self.written == self.count
    }
}

/// A kernel launched from a channel, for the WFI rule.
#[derive(Debug, Clone)]
struct Kernel {
    entry: usize,
    cycle: u64,
    block_cycles: u64,
    threads: Vec<usize>,
}

/// An acquire command in progress.
#[derive(Debug, Clone, Copy)]
struct OpenAcquire {
    sem: Sem,
    waited: Option<u64>,
}

/// The block a channel is executing (WQ-3).
#[derive(Debug, Clone)]
struct Block {
    entry: usize,
    origin: Origin,
    cmds: Vec<BlockCmd>,
    next: usize,
    acquire: Option<OpenAcquire>,
    release: Option<Sem>,
    wfi: bool,
}

/// One host channel (0 = CPU, 1 = GPU).
#[derive(Debug, Clone)]
struct Channel {
    gp_get: usize,
    gp_put: usize,
    gp_get_events: u64,
    block: Option<Block>,
    kernels: Vec<Kernel>,
    slots: Vec<Slot>,
}

struct Checker {
    setup: Setup,
    line: usize,
    text: String,
    cycle: u64,
    ch: [Channel; 2],
    allocs: Vec<Allocation>,
    model: AllocatorModel,
    shadow_at_cycle_start: usize,
    /// Per thread: its successful main allocation.
    main: Vec<Option<usize>>,
    /// Per thread: the cycle its kernel was launched.
    launched: Vec<Option<u64>>,
    /// Per thread: the cycle of its last refused allocation.
    refused_at: Vec<Option<u64>>,
    last_main: Option<usize>,
    ret: Option<usize>,
    released_x: bool,
    released_y: bool,
    cpu_returned: bool,
    /// Channel 1's GP_GET moved in this cycle; its gp_put must follow (WQ-5, WQ-6).
    pending_put: Option<(u64, usize)>,
    done: bool,
    facts: TraceFacts,
}

/// Check a work-queue trace (the JSON Lines events of one run, parsed) against its scenario
/// (the scenario JSON object) and every invariant of WQ-8 and the trace rules of the spec
/// (X-5; WQ-3..WQ-8, WQ-10). Errors name the line (1-based event index), the event and the
/// broken rule.
pub fn check_trace(scenario: &Value, events: &[Value]) -> Result<TraceFacts, String> {
    let setup = parse_setup(scenario)?;
    let mut c = Checker::new(setup);
    for (i, v) in events.iter().enumerate() {
        c.line = i + 1;
        c.text = v.to_string();
        if c.done {
            return Err(c.fail("an event after done: done is the last line (X-5)"));
        }
        let (cycle, ev) = parse_event(v, &c.setup).map_err(|e| c.fail(&e))?;
        c.advance_cycle(cycle)?;
        c.apply(ev)?;
    }
    if !c.done {
        return Err(match events.last() {
            None => "the trace is empty: it must end with a done event (X-5)".to_string(),
            Some(_) => c.fail("the last event is not done: the trace must end with done (X-5)"),
        });
    }
    Ok(c.facts)
}

impl Checker {
    fn new(setup: Setup) -> Self {
        let n = setup.entries;
        let t = setup.threads.len();
        let channel = |gp_put: usize| {
            let mut slots = vec![Slot::Free; n];
            slots[0] = Slot::Written(Origin::Driver);
            Channel {
                gp_get: 0,
                gp_put,
                gp_get_events: 0,
                block: None,
                kernels: vec![],
                slots,
            }
        };
        let model = AllocatorModel::new_after_setup(n, 0);
        Checker {
            line: 0,
            text: String::new(),
            cycle: 0,
            ch: [channel(1), channel(n - 1)],
            allocs: vec![],
            shadow_at_cycle_start: model.shadow_gp_put,
            model,
            main: vec![None; t],
            launched: vec![None; t],
            refused_at: vec![None; t],
            last_main: None,
            ret: None,
            released_x: false,
            released_y: false,
            cpu_returned: false,
            pending_put: None,
            done: false,
            facts: TraceFacts::default(),
            setup,
        }
    }

    fn fail(&self, rule: &str) -> String {
        format!("line {}: {}: {}", self.line, self.text, rule)
    }

    /// X-5: cycles non-decreasing; WQ-5/WQ-6: channel 1's GP_PUT follows GP_GET in its cycle.
    fn advance_cycle(&mut self, cycle: u64) -> Result<(), String> {
        if cycle < self.cycle {
            return Err(self.fail(&format!(
                "cycle goes back from {} to {}: cycles are non-decreasing (X-5)",
                self.cycle, cycle
            )));
        }
        if cycle > self.cycle {
            self.check_pending_put()?;
            self.shadow_at_cycle_start = self.model.shadow_gp_put;
        }
        self.cycle = cycle;
        Ok(())
    }

    fn check_pending_put(&self) -> Result<(), String> {
        match self.pending_put {
            Some((c, v)) => Err(self.fail(&format!(
                "channel 1's GP_GET moved in cycle {} and no gp_put of channel 1 with value {} \
                 followed in that cycle: the host keeps GP_PUT = wrap(GP_GET - 1) (WQ-5, WQ-6)",
                c, v
            ))),
            None => Ok(()),
        }
    }

    fn apply(&mut self, ev: Event) -> Result<(), String> {
        match ev {
            Event::Alloc {
                thread,
                first,
                count,
                ok,
            } => self.on_alloc(thread, first, count, ok),
            Event::Written { thread, entry } => self.on_written(thread, entry),
            Event::Exec {
                channel,
                entry,
                command,
            } => self.on_exec(channel, entry, command),
            Event::Release { channel, sem } => self.on_release(channel, sem),
            Event::AcquireWait { channel, sem } => self.on_acquire_wait(channel, sem),
            Event::AcquireDone { channel, sem } => self.on_acquire_done(channel, sem),
            Event::GpGet { channel, value } => self.on_gp_get(channel, value),
            Event::GpPut { channel, value } => self.on_gp_put(channel, value),
            Event::Done {
                cycles,
                cpu_interactions,
            } => self.on_done(cycles, cpu_interactions),
        }
    }

    // --- allocation (WQ-6, WQ-7, WQ-10) ------------------------------------------------------

    /// Is thread `t` allowed to attempt an allocation now, and is it its main one (else the
    /// return allocation)? Kernel launched and `start` elapsed, `retry_cycles` after a refusal,
    /// the right count, the return block only by the last main allocator once its entries are
    /// written and all main allocations are made (scenario rules of section 4).
    fn attempt_kind(&self, t: usize, count: usize) -> Result<bool, String> {
        let spec = &self.setup.threads[t];
        let Some(l) = self.launched[t] else {
            return Err(self.fail(&format!(
                "thread {} allocates before its kernel was launched (scenario rules: threads of \
                 the CPU block's launch or of the parent's first created block)",
                t
            )));
        };
        if self.cycle < l.saturating_add(spec.start) {
            return Err(self.fail(&format!(
                "thread {} acts at cycle {}, before its start {} cycles after its kernel's launch \
                 at cycle {}",
                t, self.cycle, spec.start, l
            )));
        }
        if let Some(r) = self.refused_at[t] {
            if self.cycle < r.saturating_add(self.setup.retry_cycles) {
                return Err(self.fail(&format!(
                    "thread {} retries at cycle {}, less than retry_cycles = {} after its refusal \
                     at cycle {} (WQ-10)",
                    t, self.cycle, self.setup.retry_cycles, r
                )));
            }
        }
        let Some(m) = self.main[t] else {
            if count != spec.blocks.saturating_add(1) {
                return Err(self.fail(&format!(
                    "thread {} has {} blocks: its main allocation has count {} (N+1, WQ-6)",
                    t,
                    spec.blocks,
                    spec.blocks.saturating_add(1)
                )));
            }
            return Ok(true);
        };
        let all_mains = self.main.iter().all(Option::is_some);
        let why = if self.ret.is_some() {
            "the return block is allocated once only (WQ-7)"
        } else if !all_mains || self.last_main != Some(t) {
            "only the thread making the last main allocation allocates again: the return block \
             (WQ-7)"
        } else if !self.allocs[m].complete() {
            "the return block is allocated only once the thread's own entries are written (WQ-7)"
        } else if count != 2 {
            "the return allocation has count 2: block [WFI, release Y, acquire X] and its guard \
             (WQ-7)"
        } else {
            return Ok(false);
        };
        Err(self.fail(&format!("thread {} allocates again: {}", t, why)))
    }

    fn on_alloc(&mut self, t: usize, first: usize, count: usize, ok: bool) -> Result<(), String> {
        let main = self.attempt_kind(t, count)?;
        let n = self.setup.entries;
        if !ok {
            let mut at_start = self.model;
            at_start.shadow_gp_put = self.shadow_at_cycle_start;
            if at_start.allocate(count).is_some() {
                return Err(self.fail(&format!(
                    "allocation of {} refused although it fits: soft GP_PUT {}, shadow GP_PUT {} \
                     (WQ-6: refused only when it would pass shadow GP_PUT)",
                    count, self.model.soft_gp_put, self.shadow_at_cycle_start
                )));
            }
            self.refused_at[t] = Some(self.cycle);
            self.facts.allocations_refused += 1;
            return Ok(());
        }
        for o in 0..count.min(n) {
            let e = ring((first + o) as i64, n);
            if self.ch[1].slots[e] != Slot::Free {
                return Err(self.fail(&format!(
                    "allocation overwrites entry {}, which is {}: no allocation overwrites an \
                     entry not yet executed (WQ-8)",
                    e,
                    match self.ch[1].slots[e] {
                        Slot::Allocated(_) => "allocated and not yet written",
                        _ => "written and not yet executed",
                    }
                )));
            }
        }
        let before = self.model;
        match self.model.allocate(count) {
            Some(f) if f == first => {}
            Some(f) => {
                self.model = before;
                return Err(self.fail(&format!(
                    "allocation starts at {} but soft GP_PUT is {}: the old soft GP_PUT is the \
                     first entry (WQ-6; allocations are contiguous from wrap(GP_GET + 1))",
                    first, f
                )));
            }
            None => {
                return Err(self.fail(&format!(
                    "allocation of {} at soft GP_PUT {} passes shadow GP_PUT {}: it must be \
                     refused (WQ-6)",
                    count, before.soft_gp_put, before.shadow_gp_put
                )))
            }
        }
        let k = self.allocs.len();
        for o in 0..count {
            self.ch[1].slots[ring((first + o) as i64, n)] = Slot::Allocated(k);
        }
        self.allocs.push(Allocation {
            thread: t,
            first,
            count,
            ret: !main,
            written: 0,
        });
        if main {
            self.main[t] = Some(k);
            self.last_main = Some(t);
        } else {
            self.ret = Some(k);
        }
        self.refused_at[t] = None;
        self.facts.allocations_ok += 1;
        Ok(())
    }

    /// A `written` belongs to the thread's latest successful allocation, once per entry (WQ-6).
    fn on_written(&mut self, t: usize, entry: usize) -> Result<(), String> {
        let k = self
            .allocs
            .iter()
            .rposition(|a| a.thread == t)
            .filter(|&k| self.ch[1].slots[entry] == Slot::Allocated(k));
        let Some(k) = k else {
            return Err(self.fail(&format!(
                "thread {} writes entry {}, which is not an unwritten entry of its latest \
                 successful allocation (WQ-6: a thread writes only the entries it allocated, \
                 each once; a refused allocation writes nothing)",
                t, entry
            )));
        };
        let offset = ring(
            entry as i64 - self.allocs[k].first as i64,
            self.setup.entries,
        );
        self.ch[1].slots[entry] = Slot::Written(Origin::Alloc { k, offset });
        self.allocs[k].written += 1;
        self.facts.entries_written += 1;
        Ok(())
    }

    // --- execution (WQ-3, WQ-4, WQ-8) --------------------------------------------------------

    /// The commands of the block entry `entry` of channel `c` holds (reading 3).
    fn block_of(&self, c: usize, entry: usize, origin: Origin) -> Vec<BlockCmd> {
        match (c, origin) {
            (0, Origin::Driver) => vec![
                BlockCmd::Launch,
                BlockCmd::Wfi,
                BlockCmd::Release(Sem::X),
                BlockCmd::Acquire(Sem::Y),
            ],
            (_, Origin::Driver) => vec![BlockCmd::Acquire(Sem::X)],
            (_, Origin::Alloc { k, offset }) => {
                let a = &self.allocs[k];
                if offset + 1 == a.count {
                    vec![BlockCmd::Acquire(Sem::S(entry))]
                } else if a.ret {
                    vec![
                        BlockCmd::Wfi,
                        BlockCmd::Release(Sem::Y),
                        BlockCmd::Acquire(Sem::X),
                    ]
                } else {
                    vec![BlockCmd::Launch]
                }
            }
        }
    }

    /// The host starts the entry at GP_GET: it must hold a write not yet executed (WQ-3, WQ-8).
    fn start_block(&mut self, c: usize, entry: usize) -> Result<(), String> {
        if self.ch[c].gp_get == self.ch[c].gp_put {
            return Err(self.fail(&format!(
                "channel {} executes with GP_GET == GP_PUT == {}: the host executes only when \
                 GP_GET != GP_PUT (WQ-1, WQ-3)",
                c, entry
            )));
        }
        let origin = match self.ch[c].slots[entry] {
            Slot::Written(o) => o,
            Slot::Allocated(k) => {
                return Err(self.fail(&format!(
                    "entry {} executes before it was written: allocated by thread {}, not yet \
                     written (WQ-8: never before written)",
                    entry, self.allocs[k].thread
                )))
            }
            Slot::Free => {
                return Err(self.fail(&format!(
                    "entry {} executes but holds no write since its last execution (WQ-8: each \
                     exactly once, never before written)",
                    entry
                )))
            }
        };
        let cmds = self.block_of(c, entry, origin);
        self.ch[c].slots[entry] = Slot::Free;
        self.ch[c].block = Some(Block {
            entry,
            origin,
            cmds,
            next: 0,
            acquire: None,
            release: None,
            wfi: false,
        });
        if c == 1 {
            self.facts.entries_executed_gpu += 1;
        }
        Ok(())
    }

    /// The command before the next one has completed: its acquire done, its release event
    /// emitted, its WFI's kernels finished (WQ-4, readings 2-4).
    fn previous_complete(&self, c: usize) -> Result<(), String> {
        let Some(b) = &self.ch[c].block else {
            return Ok(());
        };
        if let Some(a) = b.acquire {
            return Err(self.fail(&format!(
                "channel {} goes on while its acquire {} at entry {} has not completed (WQ-4: \
                 acquire blocks until the condition holds)",
                c, a.sem, b.entry
            )));
        }
        if let Some(s) = b.release {
            return Err(self.fail(&format!(
                "channel {} goes on without the release event of its release {} at entry {} \
                 (reading 2: a release command emits release)",
                c, s, b.entry
            )));
        }
        if b.wfi {
            self.check_wfi(c)?;
        }
        Ok(())
    }

    /// A WFI completes only when every kernel launched from its channel has finished: each
    /// created block ran `block_cycles`, each thread of the kernel wrote its main allocation
    /// (scenario rules of section 4, WQ-4, WQ-7).
    fn check_wfi(&self, c: usize) -> Result<(), String> {
        for k in &self.ch[c].kernels {
            if self.cycle < k.cycle.saturating_add(k.block_cycles) {
                return Err(self.fail(&format!(
                    "channel {}'s WFI completed at cycle {}, before the kernel launched at cycle {} \
                     (entry {}) ran its {} block_cycles (WFI waits until every kernel launched \
                     from its channel finished)",
                    c, self.cycle, k.cycle, k.entry, k.block_cycles
                )));
            }
            for &t in &k.threads {
                if !self.main[t].is_some_and(|m| self.allocs[m].complete()) {
                    return Err(self.fail(&format!(
                        "channel {}'s WFI completed before thread {} of the kernel launched at \
                         entry {} wrote its main allocation (a thread finishes after its last \
                         write; WFI waits for every kernel of its channel)",
                        c, t, k.entry
                    )));
                }
            }
        }
        Ok(())
    }

    /// `exec`: only the entry at GP_GET, its block's commands in order, one at a time (WQ-3,
    /// WQ-4, WQ-8, reading 3).
    fn on_exec(&mut self, c: usize, entry: usize, cmd: Cmd) -> Result<(), String> {
        if entry != self.ch[c].gp_get {
            return Err(self.fail(&format!(
                "channel {} executes entry {} while its GP_GET is {}: entries execute in ring \
                 order, the one at GP_GET (WQ-3, WQ-8)",
                c, entry, self.ch[c].gp_get
            )));
        }
        if self.ch[c].block.is_none() {
            self.start_block(c, entry)?;
        } else {
            self.previous_complete(c)?;
        }
        let cycle = self.cycle;
        let b = self.ch[c].block.as_ref().expect("block started above");
        let Some(&want) = b.cmds.get(b.next) else {
            return Err(self.fail(&format!(
                "all {} command(s) of entry {}'s block have started: a further exec means the \
                 entry executes twice (WQ-8: each exactly once)",
                b.cmds.len(),
                entry
            )));
        };
        if want.name() != cmd {
            return Err(self.fail(&format!(
                "command {} of entry {}'s block is {:?}, not {:?} (reading 3, WQ-5..WQ-7)",
                b.next, entry, want, cmd
            )));
        }
        let origin = b.origin;
        let b = self.ch[c].block.as_mut().expect("block started above");
        b.next += 1;
        b.wfi = false;
        match want {
            BlockCmd::Launch => {}
            BlockCmd::Wfi => b.wfi = true,
            BlockCmd::Release(s) => b.release = Some(s),
            BlockCmd::Acquire(sem) => b.acquire = Some(OpenAcquire { sem, waited: None }),
        }
        if want == BlockCmd::Launch {
            self.launch(c, entry, origin, cycle);
        }
        Ok(())
    }

    /// A kernel launch: the CPU block launches the top-level threads; a created block runs
    /// `block_cycles`, and a thread's first created block launches its children.
    fn launch(&mut self, c: usize, entry: usize, origin: Origin, cycle: u64) {
        let (threads, block_cycles) = match origin {
            Origin::Driver => {
                let top = (0..self.setup.threads.len())
                    .filter(|&t| self.setup.threads[t].top)
                    .collect::<Vec<_>>();
                (top, 0)
            }
            Origin::Alloc { k, offset } => {
                let spec = &self.setup.threads[self.allocs[k].thread];
                let children = if offset == 0 {
                    spec.children.clone()
                } else {
                    vec![]
                };
                (children, spec.block_cycles)
            }
        };
        for &t in &threads {
            self.launched[t] = Some(cycle);
        }
        self.ch[c].kernels.push(Kernel {
            entry,
            cycle,
            block_cycles,
            threads,
        });
    }

    /// `release`: the host executing the release command in progress (reading 2).
    fn on_release(&mut self, c: usize, sem: Sem) -> Result<(), String> {
        let open = self.ch[c].block.as_ref().and_then(|b| b.release);
        if open != Some(sem) {
            return Err(self.fail(&format!(
                "channel {} releases {} but the command in progress is not a release of it \
                 (reading 2: release events are the host executing a release command)",
                c, sem
            )));
        }
        if let Some(b) = self.ch[c].block.as_mut() {
            b.release = None;
        }
        match (c, sem) {
            (0, Sem::X) => self.released_x = true,
            (_, Sem::Y) => self.released_y = true,
            _ => {}
        }
        Ok(())
    }

    /// The acquire in progress on channel `c` is of `sem` (reading 4).
    fn open_acquire(&self, c: usize, sem: Sem) -> Result<(Block, OpenAcquire), String> {
        let b = self.ch[c].block.as_ref();
        match b.and_then(|b| b.acquire).filter(|a| a.sem == sem) {
            Some(a) => Ok((b.expect("acquire of a block").clone(), a)),
            None => Err(self.fail(&format!(
                "channel {} reports an acquire of {} but has no such acquire in progress \
                 (reading 4)",
                c, sem
            ))),
        }
    }

    fn on_acquire_wait(&mut self, c: usize, sem: Sem) -> Result<(), String> {
        let (_, a) = self.open_acquire(c, sem)?;
        if a.waited.is_some() {
            return Err(self.fail(&format!(
                "second acquire_wait of {} on channel {}: at most once per execution (reading 4)",
                sem, c
            )));
        }
        if let Some(a) = self.ch[c].block.as_mut().and_then(|b| b.acquire.as_mut()) {
            a.waited = Some(self.cycle);
        }
        Ok(())
    }

    /// `acquire_done`: only after what releases it (WQ-5..WQ-7), within the watchdog (WQ-10).
    fn on_acquire_done(&mut self, c: usize, sem: Sem) -> Result<(), String> {
        let (b, a) = self.open_acquire(c, sem)?;
        self.check_watchdog(a)?;
        match sem {
            Sem::X if !self.released_x => {
                return Err(self.fail(
                    "acquire X completes before the CPU channel released X (WQ-5, WQ-6: the \
                     first guard is X, released by the CPU channel after its WFI)",
                ))
            }
            Sem::X if matches!(b.origin, Origin::Alloc { .. }) => {
                return Err(self.fail(
                    "the return block's acquire X completes: the GPU channel blocks again (WQ-7)",
                ))
            }
            Sem::Y if !self.released_y => {
                return Err(self.fail(
                    "the CPU channel's acquire Y completes before the return block released Y \
                     (WQ-7)",
                ))
            }
            Sem::Y => {
                self.check_created_work_executed()?;
                self.cpu_returned = true;
            }
            Sem::S(i) => {
                let next = match b.origin {
                    Origin::Alloc { k, .. } => self.allocs.get(k + 1),
                    Origin::Driver => None,
                };
                if !next.is_some_and(|n| n.complete()) {
                    return Err(self.fail(&format!(
                        "guard S[{}] acquired before the next allocation (first {}) had all its \
                         entries written: its thread releases the guard when all are written \
                         (WQ-6)",
                        i,
                        ring(i as i64 + 1, self.setup.entries)
                    )));
                }
            }
            Sem::X => {}
        }
        if let Some(b) = self.ch[c].block.as_mut() {
            b.acquire = None;
        }
        Ok(())
    }

    /// WQ-10: an acquire waiting longer than `watchdog_cycles` is a violation.
    fn check_watchdog(&self, a: OpenAcquire) -> Result<(), String> {
        match a.waited {
            Some(w) if self.cycle - w > self.setup.watchdog_cycles => Err(self.fail(&format!(
                "acquire of {} has waited since cycle {}, longer than watchdog_cycles = {} (WQ-10)",
                a.sem, w, self.setup.watchdog_cycles
            ))),
            _ => Ok(()),
        }
    }

    /// WQ-8: the CPU channel continues only after all created work completed: every written
    /// entry executed, except the return block's guard (behind the blocked return block).
    fn check_created_work_executed(&self) -> Result<(), String> {
        for (e, s) in self.ch[1].slots.iter().enumerate() {
            let bad = match *s {
                Slot::Free => None,
                Slot::Written(Origin::Alloc { k, offset: 1 }) if Some(k) == self.ret => None,
                Slot::Allocated(_) => Some("allocated and not written"),
                Slot::Written(_) => Some("written and not executed"),
            };
            if let Some(what) = bad {
                return Err(self.fail(&format!(
                    "the CPU channel continues while entry {} is {} (WQ-8: the CPU channel \
                     continues only after all created work completed; every created block \
                     executes)",
                    e, what
                )));
            }
        }
        Ok(())
    }

    // --- pointers (WQ-1, WQ-3, WQ-5, WQ-6) ---------------------------------------------------

    /// `gp_get`: the set-up value once, then +1 (wrapping) after a completed block (WQ-3,
    /// WQ-8, reading 5).
    fn on_gp_get(&mut self, c: usize, value: usize) -> Result<(), String> {
        if c == 1 {
            self.check_pending_put()?;
        }
        let first_event = self.ch[c].gp_get_events == 0;
        self.ch[c].gp_get_events += 1;
        let ch = &self.ch[c];
        if value == ch.gp_get && first_event && ch.block.is_none() {
            return Ok(());
        }
        let next = ring(ch.gp_get as i64 + 1, self.setup.entries);
        if value != next {
            return Err(self.fail(&format!(
                "channel {}'s GP_GET goes from {} to {}, not to {}: GP_GET advances by one in \
                 ring order (WQ-3, WQ-8; no entry skipped)",
                c, ch.gp_get, value, next
            )));
        }
        let Some(b) = &ch.block else {
            return Err(self.fail(&format!(
                "channel {}'s GP_GET leaves entry {} without executing it (WQ-8: every entry \
                 executes)",
                c, ch.gp_get
            )));
        };
        if b.next < b.cmds.len() {
            return Err(self.fail(&format!(
                "channel {}'s GP_GET leaves entry {} after {} of its {} commands: GP_GET \
                 advances when the block completes (WQ-3, reading 5)",
                c,
                ch.gp_get,
                b.next,
                b.cmds.len()
            )));
        }
        self.previous_complete(c)?;
        self.ch[c].gp_get = value;
        self.ch[c].block = None;
        if c == 1 {
            self.model.host_advanced(value);
            self.pending_put = Some((self.cycle, self.model.shadow_gp_put));
        }
        Ok(())
    }

    /// `gp_put`: channel 1 keeps GP_PUT = wrap(GP_GET - 1) (WQ-5, WQ-6); channel 0's is the
    /// CPU's submission.
    fn on_gp_put(&mut self, c: usize, value: usize) -> Result<(), String> {
        if c == 1 {
            let want = ring(self.ch[1].gp_get as i64 - 1, self.setup.entries);
            if value != want {
                return Err(self.fail(&format!(
                    "channel 1's GP_PUT is {} while its GP_GET is {}: the host keeps GP_PUT = \
                     wrap(GP_GET - 1) = {} (WQ-5, WQ-6)",
                    value, self.ch[1].gp_get, want
                )));
            }
            self.pending_put = None;
        }
        self.ch[c].gp_put = value;
        Ok(())
    }

    /// `done`: the run's end. Every thread made its main allocation, all allocations are
    /// written, the return block was allocated (WQ-7) and the CPU channel's acquire Y
    /// completed, all created work executed (WQ-8), no acquire over the watchdog (WQ-10).
    fn on_done(&mut self, cycles: u64, cpu_interactions: u64) -> Result<(), String> {
        self.check_pending_put()?;
        if let Some(t) = self.main.iter().position(Option::is_none) {
            return Err(self.fail(&format!(
                "thread {} never made its main allocation (WQ-6: every thread of the scenario \
                 allocates its N+1 entries)",
                t
            )));
        }
        if let Some(a) = self.allocs.iter().find(|a| !a.complete()) {
            return Err(self.fail(&format!(
                "thread {} wrote {} of the {} entries it allocated at {} (WQ-6)",
                a.thread, a.written, a.count, a.first
            )));
        }
        if self.ret.is_none() {
            return Err(self.fail("no return block was allocated (WQ-7)"));
        }
        if !self.cpu_returned {
            return Err(self.fail("the CPU channel's acquire Y never completed (WQ-7)"));
        }
        self.check_created_work_executed()?;
        for c in &self.ch {
            if let Some(a) = c.block.as_ref().and_then(|b| b.acquire) {
                self.check_watchdog(a)?;
            }
        }
        self.facts.cycles = cycles;
        self.facts.cpu_interactions = cpu_interactions;
        self.done = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn wq2_wrap_hand_worked_values() {
        // n = 6 (compare form).
        assert_eq!(wrap_compare(-1, 6), 5);
        assert_eq!(wrap_compare(-6, 6), 0);
        assert_eq!(wrap_compare(0, 6), 0);
        assert_eq!(wrap_compare(5, 6), 5);
        assert_eq!(wrap_compare(6, 6), 0);
        assert_eq!(wrap_compare(11, 6), 5);
        assert_eq!(wrap(7, 6), 1);
        assert_eq!(wrap(-2, 6), 4);
        // n = 8 (AND form).
        assert_eq!(wrap_pow2(-1, 8), 7);
        assert_eq!(wrap_pow2(8, 8), 0);
        assert_eq!(wrap_pow2(13, 8), 5);
        assert_eq!(wrap_pow2(-8, 8), 0);
        assert_eq!(wrap(-3, 8), 5);
        assert_eq!(wrap(15, 8), 7);
        // n = 1 and 5.
        assert_eq!(wrap(-1, 1), 0);
        assert_eq!(wrap(1, 1), 0);
        assert_eq!(wrap(9, 5), 4);
        assert_eq!(wrap(-5, 5), 0);
    }

    #[test]
    fn wq2_both_forms_agree_for_powers_of_two() {
        for s in 0..8 {
            let n = 1u64 << s;
            let m = n as i64;
            for x in -m..2 * m {
                assert_eq!(wrap_compare(x, n), wrap_pow2(x, n), "x={} n={}", x, n);
                assert_eq!(wrap(x, n), x.rem_euclid(m) as u64);
            }
        }
    }

    proptest! {
        #[test]
        fn wq2_wrap_is_the_ring_index(n in 1u64..5000, f in 0.0f64..1.0) {
            let m = n as i64;
            let x = -m + ((3 * m) as f64 * f) as i64;
            let x = x.min(2 * m - 1);
            prop_assert_eq!(wrap(x, n), x.rem_euclid(m) as u64);
            prop_assert_eq!(wrap_compare(x, n), x.rem_euclid(m) as u64);
        }
    }

    #[test]
    fn wq1_ring_full_and_empty_at_every_fill_level() {
        for n in 2..=17usize {
            for start in 0..n {
                let mut r = RingModel::with_pointers(n, start, start);
                for k in 0..n {
                    assert_eq!(r.fill(), k, "n={} start={}", n, start);
                    assert_eq!(r.empty(), k == 0);
                    assert_eq!(r.full(), k == n - 1);
                    assert_eq!(r.full(), r.gp_get == (r.gp_put + 1) % n);
                    if k < n - 1 {
                        assert!(r.submit());
                    }
                }
                let at_full = r;
                assert!(!r.submit(), "a full ring refuses a submission");
                assert_eq!(r, at_full);
                for k in (0..n - 1).rev() {
                    assert!(r.execute());
                    assert_eq!(r.fill(), k);
                }
                assert!(r.empty());
                let at_empty = r;
                assert!(!r.execute(), "an empty ring refuses an execution");
                assert_eq!(r, at_empty);
                assert_eq!(r.gp_get, (start + n - 1) % n);
            }
        }
    }

    #[test]
    fn wq4_acquire_conditions_on_hand_picked_values() {
        use AcquireCondition::*;
        assert_eq!(AcquireCondition::ALL.len(), 5);
        assert!(acquire_satisfied(Equal, 7, 7));
        assert!(!acquire_satisfied(Equal, 7, 8));
        assert!(acquire_satisfied(Geq, 8, 7));
        assert!(acquire_satisfied(Geq, 7, 7));
        assert!(!acquire_satisfied(Geq, 6, 7));
        assert!(acquire_satisfied(Geq, 0xFFFF_FFFF, 1), "unsigned");
        assert!(!acquire_satisfied(Geq, 1, 0xFFFF_FFFF), "unsigned");
        // Circular >= across the 0xFFFF_FFFF -> 0 wrap.
        assert!(acquire_satisfied(CircGeq, 0, 0xFFFF_FFFF));
        assert!(acquire_satisfied(CircGeq, 3, 0xFFFF_FFFE));
        assert!(!acquire_satisfied(CircGeq, 0xFFFF_FFFF, 0));
        assert!(acquire_satisfied(CircGeq, 5, 5));
        assert!(
            acquire_satisfied(CircGeq, 0x8000_0004, 5),
            "difference 0x7FFF_FFFF"
        );
        assert!(
            !acquire_satisfied(CircGeq, 0x8000_0005, 5),
            "difference 0x8000_0000"
        );
        assert!(acquire_satisfied(And, 0b0110, 0b0100));
        assert!(!acquire_satisfied(And, 0b0110, 0b1001));
        assert!(!acquire_satisfied(And, 0, 0));
        assert!(acquire_satisfied(Nor, 0, 0));
        assert!(
            acquire_satisfied(Nor, 0x0F, 0xF0),
            "upper bits clear in both"
        );
        assert!(!acquire_satisfied(Nor, 0xFFFF_0000, 0x0000_FFFF));
        assert!(!acquire_satisfied(Nor, 0xFFFF_FFFF, 0));
    }

    #[test]
    fn wq5_wq6_allocator_set_up_refusal_and_host_advance() {
        let mut a = AllocatorModel::new_after_setup(8, 0);
        assert_eq!((a.soft_gp_put, a.shadow_gp_put), (1, 7));
        assert_eq!(a.free(), 6);
        assert_eq!(a.allocate(4), Some(1));
        assert_eq!(a.allocate(2), Some(5));
        assert_eq!(a.soft_gp_put, 7);
        // Full: soft GP_PUT has reached shadow GP_PUT.
        let full = a;
        assert_eq!(a.allocate(1), None);
        assert_eq!(a, full, "a refusal changes nothing");
        a.host_advanced(3);
        assert_eq!(a.shadow_gp_put, 2);
        assert_eq!(
            a.allocate(4),
            None,
            "7, 0, 1, 2 would reach shadow GP_PUT 2"
        );
        assert_eq!(a.allocate(3), Some(7), "7, 0, 1 fit before shadow GP_PUT 2");
        assert_eq!(a.soft_gp_put, 2);
        let b = AllocatorModel::new_after_setup(6, 5);
        assert_eq!((b.soft_gp_put, b.shadow_gp_put), (0, 4));
    }

    // --- check_trace -------------------------------------------------------------------------

    fn scenario_a() -> Value {
        json!({"unit":"work-queue",
               "config":{"entries":8,"bus_latency":10,"host_cycles_per_command":2,
                         "retry_cycles":20,"watchdog_cycles":1000000},
               "threads":[{"start":5,"blocks":2,"block_cycles":40}]})
    }

    /// Scenario A by hand: entries 8, one thread creating 2 blocks, written from the
    /// specification's steps (WQ-5 set-up, WQ-6 thread, WQ-7 return).
    const TRACE_A: &str = r#"
{"cycle":0,"event":"gp_get","channel":1,"value":0}
{"cycle":0,"event":"gp_put","channel":1,"value":7}
{"cycle":0,"event":"gp_get","channel":0,"value":0}
{"cycle":0,"event":"gp_put","channel":0,"value":1}
{"cycle":0,"event":"exec","channel":1,"entry":0,"command":"acquire"}
{"cycle":0,"event":"acquire_wait","channel":1,"sem":"X"}
{"cycle":10,"event":"exec","channel":0,"entry":0,"command":"launch"}
{"cycle":12,"event":"exec","channel":0,"entry":0,"command":"wfi"}
{"cycle":15,"event":"alloc","thread":0,"first":1,"count":3,"ok":true}
{"cycle":16,"event":"written","thread":0,"entry":1}
{"cycle":17,"event":"written","thread":0,"entry":2}
{"cycle":18,"event":"written","thread":0,"entry":3}
{"cycle":19,"event":"alloc","thread":0,"first":4,"count":2,"ok":true}
{"cycle":20,"event":"written","thread":0,"entry":4}
{"cycle":21,"event":"written","thread":0,"entry":5}
{"cycle":22,"event":"exec","channel":0,"entry":0,"command":"release"}
{"cycle":22,"event":"release","channel":0,"sem":"X","value":1}
{"cycle":24,"event":"exec","channel":0,"entry":0,"command":"acquire"}
{"cycle":24,"event":"acquire_wait","channel":0,"sem":"Y"}
{"cycle":24,"event":"acquire_done","channel":1,"sem":"X"}
{"cycle":24,"event":"gp_get","channel":1,"value":1}
{"cycle":24,"event":"gp_put","channel":1,"value":0}
{"cycle":26,"event":"exec","channel":1,"entry":1,"command":"launch"}
{"cycle":27,"event":"gp_get","channel":1,"value":2}
{"cycle":27,"event":"gp_put","channel":1,"value":1}
{"cycle":28,"event":"exec","channel":1,"entry":2,"command":"launch"}
{"cycle":29,"event":"gp_get","channel":1,"value":3}
{"cycle":29,"event":"gp_put","channel":1,"value":2}
{"cycle":30,"event":"exec","channel":1,"entry":3,"command":"acquire"}
{"cycle":30,"event":"acquire_done","channel":1,"sem":3}
{"cycle":31,"event":"gp_get","channel":1,"value":4}
{"cycle":31,"event":"gp_put","channel":1,"value":3}
{"cycle":32,"event":"exec","channel":1,"entry":4,"command":"wfi"}
{"cycle":68,"event":"exec","channel":1,"entry":4,"command":"release"}
{"cycle":68,"event":"release","channel":1,"sem":"Y","value":1}
{"cycle":70,"event":"exec","channel":1,"entry":4,"command":"acquire"}
{"cycle":70,"event":"acquire_wait","channel":1,"sem":"X"}
{"cycle":78,"event":"acquire_done","channel":0,"sem":"Y"}
{"cycle":79,"event":"gp_get","channel":0,"value":1}
{"cycle":80,"event":"done","cycles":80,"cpu_interactions":2}
"#;

    fn scenario_b() -> Value {
        json!({"unit":"work-queue",
               "config":{"entries":4,"bus_latency":10,"host_cycles_per_command":2,
                         "retry_cycles":20,"watchdog_cycles":1000000},
               "threads":[{"start":5,"blocks":1,"block_cycles":30}]})
    }

    /// Scenario B by hand: entries 4, one thread creating 1 block; the return block is refused
    /// (full ring, WQ-10), retried `retry_cycles` later once the host advanced, and wraps
    /// around the ring (entries 3 and 0).
    const TRACE_B: &str = r#"
{"cycle":0,"event":"exec","channel":1,"entry":0,"command":"acquire"}
{"cycle":0,"event":"acquire_wait","channel":1,"sem":"X"}
{"cycle":10,"event":"exec","channel":0,"entry":0,"command":"launch"}
{"cycle":12,"event":"exec","channel":0,"entry":0,"command":"wfi"}
{"cycle":15,"event":"alloc","thread":0,"first":1,"count":2,"ok":true}
{"cycle":16,"event":"written","thread":0,"entry":1}
{"cycle":17,"event":"written","thread":0,"entry":2}
{"cycle":18,"event":"alloc","thread":0,"first":3,"count":2,"ok":false}
{"cycle":18,"event":"exec","channel":0,"entry":0,"command":"release"}
{"cycle":18,"event":"release","channel":0,"sem":"X","value":1}
{"cycle":20,"event":"exec","channel":0,"entry":0,"command":"acquire"}
{"cycle":20,"event":"acquire_wait","channel":0,"sem":"Y"}
{"cycle":20,"event":"acquire_done","channel":1,"sem":"X"}
{"cycle":20,"event":"gp_get","channel":1,"value":1}
{"cycle":20,"event":"gp_put","channel":1,"value":0}
{"cycle":22,"event":"exec","channel":1,"entry":1,"command":"launch"}
{"cycle":23,"event":"gp_get","channel":1,"value":2}
{"cycle":23,"event":"gp_put","channel":1,"value":1}
{"cycle":25,"event":"exec","channel":1,"entry":2,"command":"acquire"}
{"cycle":25,"event":"acquire_wait","channel":1,"sem":2}
{"cycle":38,"event":"alloc","thread":0,"first":3,"count":2,"ok":true}
{"cycle":39,"event":"written","thread":0,"entry":3}
{"cycle":40,"event":"written","thread":0,"entry":0}
{"cycle":41,"event":"acquire_done","channel":1,"sem":2}
{"cycle":42,"event":"gp_get","channel":1,"value":3}
{"cycle":42,"event":"gp_put","channel":1,"value":2}
{"cycle":44,"event":"exec","channel":1,"entry":3,"command":"wfi"}
{"cycle":52,"event":"exec","channel":1,"entry":3,"command":"release"}
{"cycle":52,"event":"release","channel":1,"sem":"Y","value":1}
{"cycle":54,"event":"exec","channel":1,"entry":3,"command":"acquire"}
{"cycle":54,"event":"acquire_wait","channel":1,"sem":"X"}
{"cycle":62,"event":"acquire_done","channel":0,"sem":"Y"}
{"cycle":63,"event":"gp_get","channel":0,"value":1}
{"cycle":64,"event":"done","cycles":64,"cpu_interactions":2}
"#;

    fn lines(t: &str) -> Vec<String> {
        t.lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }

    fn parse(l: &[String]) -> Vec<Value> {
        l.iter()
            .map(|s| serde_json::from_str(s).expect("test trace line is JSON"))
            .collect()
    }

    fn find(l: &[String], needle: &str) -> usize {
        l.iter()
            .position(|s| s.contains(needle))
            .unwrap_or_else(|| panic!("no line contains {}", needle))
    }

    /// Check trace A after `edit`; the error, which must exist and contain `rule`.
    fn rejected(edit: impl Fn(&mut Vec<String>), rule: &str) -> String {
        let mut l = lines(TRACE_A);
        edit(&mut l);
        let e = check_trace(&scenario_a(), &parse(&l)).expect_err("the mutated trace is rejected");
        assert!(e.contains(rule), "expected {:?} in: {}", rule, e);
        assert!(e.starts_with("line "), "names the line: {}", e);
        eprintln!("rejected: {}", e);
        e
    }

    #[test]
    fn wq8_hand_written_trace_a_is_accepted() {
        let f = check_trace(&scenario_a(), &parse(&lines(TRACE_A))).expect("trace A is valid");
        assert_eq!(
            f,
            TraceFacts {
                allocations_ok: 2,
                allocations_refused: 0,
                entries_written: 5,
                entries_executed_gpu: 5,
                cycles: 80,
                cpu_interactions: 2,
            }
        );
    }

    #[test]
    fn wq10_hand_written_wrapping_trace_b_with_a_refusal_is_accepted() {
        let f = check_trace(&scenario_b(), &parse(&lines(TRACE_B))).expect("trace B is valid");
        assert_eq!(f.allocations_ok, 2);
        assert_eq!(f.allocations_refused, 1);
        assert_eq!(f.entries_written, 4);
        assert_eq!(f.entries_executed_gpu, 4);
    }

    #[test]
    fn wq8_rejects_exec_before_written() {
        // Entry 1 written only after the host executed it (the return allocation and the
        // CPU's WFI notice the missing write first in this order).
        rejected(
            |l| {
                let w = l.remove(find(l, r#""written","thread":0,"entry":1"#));
                let x = find(l, r#""entry":1,"command":"launch""#);
                l.insert(x + 1, w.replace("\"cycle\":16", "\"cycle\":26"));
            },
            "line ",
        );
        // The rule itself, reached directly: GP_GET at an entry allocated and not written.
        let mut c = Checker::new(parse_setup(&scenario_a()).unwrap());
        c.launched[0] = Some(0);
        c.cycle = 20;
        c.on_alloc(0, 1, 3, true).unwrap();
        c.ch[1].gp_get = 1;
        let e = c.on_exec(1, 1, Cmd::Launch).unwrap_err();
        assert!(e.contains("before it was written"), "{}", e);
    }

    #[test]
    fn wq8_rejects_an_entry_executed_twice() {
        rejected(
            |l| {
                let x = find(l, r#""entry":1,"command":"launch""#);
                let dup = l[x].clone();
                l.insert(x + 1, dup);
            },
            "executes twice",
        );
    }

    #[test]
    fn wq8_rejects_a_skipped_gp_get_step() {
        rejected(
            |l| {
                let g = find(l, r#""gp_get","channel":1,"value":2"#);
                l[g] = l[g].replace("\"value\":2", "\"value\":3");
                l[g + 1] = l[g + 1].replace("\"value\":1", "\"value\":2");
            },
            "advances by one",
        );
    }

    #[test]
    fn wq8_rejects_an_overlapping_allocation() {
        rejected(
            |l| {
                let a = find(l, r#""first":4,"count":2"#);
                l[a] = l[a].replace("\"first\":4", "\"first\":3");
            },
            "overwrites entry 3",
        );
    }

    #[test]
    fn x5_rejects_a_renamed_field_an_unknown_event_and_a_missing_done() {
        let r = rejected(
            |l| {
                let w = find(l, r#""written","thread":0,"entry":2"#);
                l[w] = l[w].replace("\"entry\"", "\"entri\"");
            },
            "unknown field \"entri\"",
        );
        assert!(r.starts_with("line 11:"), "{}", r);
        rejected(
            |l| l[3] = l[3].replace("\"gp_put\"", "\"gp_putt\""),
            "unknown event",
        );
        rejected(
            |l| l[3] = l[3].replace(",\"value\":1", ""),
            "lacks the field \"value\"",
        );
        rejected(
            |l| {
                l.pop();
            },
            "the last event is not done",
        );
        rejected(
            |l| {
                let last = l.last().unwrap().clone();
                l.push(last);
            },
            "after done",
        );
        rejected(
            |l| l[6] = l[6].replace("\"cycle\":10", "\"cycle\":30"),
            "non-decreasing",
        );
        assert!(check_trace(&scenario_a(), &[]).is_err());
    }

    #[test]
    fn wq5_to_wq7_reject_broken_semaphore_and_wfi_order() {
        // GPU's acquire X done before the CPU released X.
        rejected(
            |l| {
                let d = l.remove(find(l, r#""acquire_done","channel":1,"sem":"X""#));
                let r = find(l, r#""exec","channel":0,"entry":0,"command":"release""#);
                l.insert(r, d.replace("\"cycle\":24", "\"cycle\":22"));
            },
            "before the CPU channel released X",
        );
        // The return block's WFI before the created kernels ran their block_cycles.
        rejected(
            |l| {
                for s in l.iter_mut().filter(|s| s.contains("\"cycle\":68")) {
                    *s = s.replace("\"cycle\":68", "\"cycle\":60");
                }
            },
            "block_cycles",
        );
        // The return block's acquire X completes: the GPU channel must block again.
        rejected(
            |l| {
                let d = l.len() - 1;
                l.insert(
                    d,
                    r#"{"cycle":80,"event":"acquire_done","channel":1,"sem":"X"}"#.into(),
                );
            },
            "blocks again",
        );
        // GP_PUT not following GP_GET.
        rejected(
            |l| {
                let p = find(l, r#""gp_put","channel":1,"value":2"#);
                l.remove(p);
            },
            "wrap(GP_GET - 1)",
        );
        // The thread acts before its start.
        rejected(
            |l| {
                let a = find(l, r#""first":1,"count":3"#);
                l[a] = l[a].replace("\"cycle\":15", "\"cycle\":12");
            },
            "before its start",
        );
    }

    #[test]
    fn wq6_rejects_wrong_counts_refusals_and_writes() {
        // Main allocation with the wrong count.
        rejected(
            |l| {
                let a = find(l, r#""first":1,"count":3"#);
                l[a] = l[a].replace("\"count\":3", "\"count\":2");
            },
            "count 3",
        );
        // A refusal although the allocation fits.
        rejected(
            |l| {
                let a = find(l, r#""first":1,"count":3"#);
                l[a] = l[a].replace("\"ok\":true", "\"ok\":false");
            },
            "refused although it fits",
        );
        // A write of an entry the thread did not allocate.
        rejected(
            |l| {
                let w = find(l, r#""written","thread":0,"entry":3"#);
                l[w] = l[w].replace("\"entry\":3", "\"entry\":6");
            },
            "not an unwritten entry",
        );
        // No return block.
        rejected(
            |l| {
                l.retain(|s| {
                    !s.contains(r#""first":4,"count":2"#)
                        && !s.contains(r#""written","thread":0,"entry":4"#)
                        && !s.contains(r#""written","thread":0,"entry":5"#)
                });
            },
            "line ",
        );
    }

    #[test]
    fn wq10_trace_b_rejects_an_early_retry_and_a_guard_passed_too_soon() {
        let check = |edit: &dyn Fn(&mut Vec<String>), rule: &str| {
            let mut l = lines(TRACE_B);
            edit(&mut l);
            let e = check_trace(&scenario_b(), &parse(&l)).expect_err("rejected");
            assert!(e.contains(rule), "expected {:?} in: {}", rule, e);
        };
        check(
            &|l| {
                let a = find(l, r#""first":3,"count":2,"ok":true"#);
                l[a] = l[a].replace("\"cycle\":38", "\"cycle\":30");
            },
            "retry_cycles",
        );
        check(
            &|l| {
                let d = l.remove(find(l, r#""acquire_done","channel":1,"sem":2"#));
                let w = find(l, r#""written","thread":0,"entry":0"#);
                l.insert(w, d.replace("\"cycle\":41", "\"cycle\":40"));
            },
            "guard S[2] acquired before",
        );
    }

    #[test]
    fn wq8_every_essential_line_of_trace_a_is_needed() {
        let l = lines(TRACE_A);
        for i in 0..l.len() {
            // Optional: the set-up pointer values, waits, the CPU channel's final GP_GET.
            let optional = i < 4
                || l[i].contains("acquire_wait")
                || l[i].contains(r#""gp_get","channel":0,"value":1"#);
            let mut m = l.clone();
            m.remove(i);
            let r = check_trace(&scenario_a(), &parse(&m));
            assert_eq!(
                r.is_ok(),
                optional,
                "without line {} ({}): {:?}",
                i + 1,
                l[i],
                r
            );
        }
    }

    proptest! {
        #[test]
        fn x5_mutated_traces_never_panic(
            edits in proptest::collection::vec((0usize..4, 0usize..64, 0u64..20), 1..6)
        ) {
            let re = regex::Regex::new(r":(\d+)([,}])").unwrap();
            for (t, scenario) in [(TRACE_A, scenario_a()), (TRACE_B, scenario_b())] {
                let mut l = lines(t);
                for &(kind, at, v) in &edits {
                    let i = at % l.len();
                    match kind {
                        0 => { l.remove(i); }
                        1 => { let d = l[i].clone(); l.insert(i, d); }
                        2 => { let j = (i + 1) % l.len(); l.swap(i, j); }
                        _ => {
                            let mut k = 0;
                            l[i] = re.replace_all(&l[i], |c: &regex::Captures| {
                                k += 1;
                                let n = if k as u64 == v % 4 + 1 { v.to_string() } else { c[1].to_string() };
                                format!(":{}{}", n, &c[2])
                            }).to_string();
                        }
                    }
                    if l.is_empty() { break; }
                }
                let _ = check_trace(&scenario, &parse(&l));
            }
        }
    }

    #[test]
    fn wq_scenario_pre_order_numbering_and_bad_children() {
        let s = json!({"unit":"work-queue","config":{"entries":16},
            "threads":[{"start":5,"blocks":2,"block_cycles":40,
                        "children":[{"start":3,"blocks":1,"block_cycles":30,
                                     "children":[{"start":1,"blocks":1,"block_cycles":9}]}]},
                       {"start":2,"blocks":1,"block_cycles":7}]});
        let setup = parse_setup(&s).unwrap();
        let blocks: Vec<u64> = setup.threads.iter().map(|t| t.block_cycles).collect();
        assert_eq!(blocks, vec![40, 30, 9, 7]);
        assert_eq!(setup.threads[0].children, vec![1]);
        assert_eq!(setup.threads[1].children, vec![2]);
        assert!(setup.threads[3].top && !setup.threads[2].top);
        let bad = json!({"unit":"work-queue","config":{"entries":16},
            "threads":[{"start":5,"blocks":0,"block_cycles":40,
                        "children":[{"start":3,"blocks":1,"block_cycles":30}]}]});
        assert!(parse_setup(&bad).unwrap_err().contains("no blocks"));
    }
}
