//! What a status-system run is given and what it produces: the limits, the units' behavioural
//! parameters, the configuration, the switch records and the result.

/// Largest pipeline the system simulation builds.
pub const MAX_UNITS: usize = 32;
/// Entries of every unit's input queue.
pub const IN_QUEUE: usize = 2;
/// Probability that the memory answers an access with NACK.
pub const NACK_PROB: f64 = 0.02;
/// Cycles a unit waits after a NACK before it retries.
pub const NACK_RETRY: u32 = 6;
/// Fixed cost of a context store or restore, in cycles.
pub const STORE_BASE: u64 = 8;
/// Default cost of moving one word of unit state through memory in a store or a restore, in
/// cycles (ST-9 sweeps it: `SystemConfig::store_cycles_per_word`).
pub const STORE_CYCLES_PER_WORD: f64 = 1.0;
/// ST-6: every halt completes within this many cycles.
pub const HALT_LIMIT: u64 = 200;
/// Longest memory latency a scenario may ask for (keeps ST-6 satisfiable: a halt waits at most
/// for one outstanding access).
pub const MAX_MEM_LATENCY: u32 = 150;
/// The least cycle cap of a run (the benches' cap; a scenario's is [`cycle_cap`]).
pub const MAX_CYCLES: u64 = 5_000_000;
/// Cycles a scenario's cap allows per context-switch command.
pub const CAP_PER_COMMAND: u64 = 100_000;
/// A run in which no work item moves for this many cycles plus four deadlock thresholds, with
/// no switch command left, has a deadlock nothing will remove: it stops with a violation that
/// names the waiting units (far longer than any memory latency or watchdog action).
pub const STALL_CYCLES: u64 = 20_000;

/// The cycle cap of a scenario run: a run not finished within it stops with a violation.
/// Deadlocks end a run much sooner (a stall, [`STALL_CYCLES`]); the cap only stops a run that
/// keeps moving and never ends, so it lies far above the time the scenario's work can take:
/// [`MAX_CYCLES`], plus the last command's cycle, plus [`CAP_PER_COMMAND`] per command, plus,
/// for every work item and every unit, four times the sum over the units of latency, memory
/// latency and 8 (a unit's longest step with a NACK's retry), plus four deadlock thresholds.
/// A pipeline of one unit with memory latency 150 moves one item per about 150 cycles, so
/// 40,000 items take about 6,000,000 cycles: more than a fixed 5,000,000-cycle cap.
pub fn cycle_cap(
    units: &[UnitParams],
    items: u64,
    commands: &[(u64, usize)],
    deadlock_threshold: u16,
) -> u64 {
    let step: u64 = units
        .iter()
        .map(|u| u.latency as u64 + u.mem_latency as u64 + 8)
        .sum();
    let per_item = 4 * step + 4 * deadlock_threshold as u64;
    let last_command = commands.iter().map(|c| c.0).max().unwrap_or(0);
    MAX_CYCLES
        .saturating_add(last_command)
        .saturating_add(CAP_PER_COMMAND.saturating_mul(commands.len() as u64))
        .saturating_add((items + units.len() as u64).saturating_mul(per_item))
}

/// Behavioural parameters of one processing unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitParams {
    pub latency: u32,
    /// Items gathered into one batch (0 or 1: no gathering).
    pub gather: u32,
    pub out_buffer: u32,
    /// 0: the unit makes no memory access.
    pub mem_latency: u32,
}

/// A validated system configuration.
#[derive(Debug, Clone)]
pub struct SystemConfig {
    pub units: Vec<UnitParams>,
    /// Roll-up connections: one unit mask per connection; every unit in exactly one.
    pub groups: Vec<u64>,
    pub tree_stages: usize,
    /// 0: watchdog off.
    pub deadlock_threshold: u16,
    /// Work items per context.
    pub contexts: Vec<u32>,
    /// (cycle, context): context-switch commands, sorted by cycle.
    pub commands: Vec<(u64, usize)>,
    /// Prior-art protocol: drain until empty instead of halting.
    pub drain: bool,
    pub seed: u64,
    /// Cycles per word of unit state moved through memory by a context store or restore
    /// (each unit's state is 1 word plus 1 per work item it holds; the words of all units go
    /// through the one memory path, so draining, which empties the units, shrinks a store).
    pub store_cycles_per_word: f64,
    /// Stop with an error after this many cycles ([`cycle_cap`] for a scenario).
    pub max_cycles: u64,
    /// Record the waves of the whole status cluster (every unit's FSM, the roll-up tree, the
    /// command tree and the front-end monitor) here.
    pub vcd: Option<std::path::PathBuf>,
    /// The engine that runs the RTL.
    pub engine: crate::verilator::Engine,
}

impl SystemConfig {
    /// The protocol's name in the trace.
    pub fn protocol(&self) -> &'static str {
        if self.drain {
            "drain"
        } else {
            "halt"
        }
    }
}

/// One context switch as it happened.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SwitchRecord {
    pub from: usize,
    pub to: usize,
    /// Cycle the monitor took the command.
    pub requested: u64,
    /// Cycles from the halt request to every unit HALTED (drain: every unit EMPTY).
    pub halt_latency: u64,
    /// Cycles from the halt request until the front end saw it through the roll-up.
    pub seen_latency: u64,
    /// Cycles from the command to the halt release (the new context runs).
    pub switch_cycles: u64,
    pub words_stored: u64,
    pub words_restored: u64,
    /// Asked for by a command (not the front end's own switch after a context finished).
    pub commanded: bool,
}

/// What a system run produced.
#[derive(Debug, Clone, Default)]
pub struct SystemResult {
    pub cycles: u64,
    pub outputs: u64,
    pub switches: Vec<SwitchRecord>,
    /// Units detected deadlocked (ST-7): the trace's `deadlock` events, one per unit the
    /// watchdog acted on.
    pub deadlocks: u64,
    /// Cycles in which the monitor's watchdog fired (several connections, and several units
    /// of one, may be acted on in one of them).
    pub watchdog_actions: u64,
    pub resumes: u64,
    pub nacks: u64,
}

impl SystemResult {
    pub fn max_halt_latency(&self) -> u64 {
        self.switches
            .iter()
            .map(|s| s.halt_latency)
            .max()
            .unwrap_or(0)
    }
}
