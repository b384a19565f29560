//! Golden models of the status-reporting RTL (SPEC ST-1..ST-5, ST-7), written from the SPEC
//! independently of the `#[hdl_gen]` code: the ST-3 table as data, the roll-up as a delay line
//! of ANDs, the command tree as a delay line, the front-end monitor as a Rust state machine, and
//! the status cluster (ST-1..ST-7) as these models wired together.
use std::collections::VecDeque;
use std::fmt;

/// The five states of ST-1 with their public codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    Empty,
    Active,
    Quiescent,
    Stalled,
    Halted,
}

impl State {
    pub const ALL: [State; 5] = [
        State::Empty,
        State::Active,
        State::Quiescent,
        State::Stalled,
        State::Halted,
    ];
    /// The 3-bit code of ST-1.
    pub fn code(self) -> u64 {
        match self {
            State::Empty => 0,
            State::Active => 1,
            State::Quiescent => 3,
            State::Stalled => 5,
            State::Halted => 7,
        }
    }
    pub fn from_code(code: u64) -> Option<State> {
        State::ALL.into_iter().find(|s| s.code() == code)
    }
    /// The upper-case name used in traces.
    pub fn name(self) -> &'static str {
        match self {
            State::Empty => "EMPTY",
            State::Active => "ACTIVE",
            State::Quiescent => "QUIESCENT",
            State::Stalled => "STALLED",
            State::Halted => "HALTED",
        }
    }
    /// The ST-4 flags {halted, empty, not_stalled, not_quiescent}.
    pub fn flags(self) -> Flags {
        Flags {
            halted: self == State::Halted,
            empty: self == State::Empty,
            not_stalled: self != State::Stalled,
            not_quiescent: self != State::Quiescent,
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The roll-up flags of ST-4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags {
    pub halted: bool,
    pub empty: bool,
    pub not_stalled: bool,
    pub not_quiescent: bool,
}

impl Flags {
    pub const ONES: Flags = Flags {
        halted: true,
        empty: true,
        not_stalled: true,
        not_quiescent: true,
    };
    pub fn and(self, o: Flags) -> Flags {
        Flags {
            halted: self.halted && o.halted,
            empty: self.empty && o.empty,
            not_stalled: self.not_stalled && o.not_stalled,
            not_quiescent: self.not_quiescent && o.not_quiescent,
        }
    }
}

/// The inputs of ST-2 sampled at one rising edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Inputs {
    pub reset: bool,
    pub halt: bool,
    pub resume: bool,
    pub in_active: bool,
    pub busy: bool,
    pub out_valid: bool,
    pub out_blocked: bool,
    pub mem_pending: bool,
    pub pending: bool,
    pub nack: bool,
    pub can_halt: bool,
}

impl Inputs {
    /// The 11 inputs from the low 11 bits of `v`, in the order of the struct.
    pub fn from_bits(v: u16) -> Inputs {
        let b = |i: u32| v & (1 << i) != 0;
        Inputs {
            reset: b(0),
            halt: b(1),
            resume: b(2),
            in_active: b(3),
            busy: b(4),
            out_valid: b(5),
            out_blocked: b(6),
            mem_pending: b(7),
            pending: b(8),
            nack: b(9),
            can_halt: b(10),
        }
    }
}

/// Which states a row of the ST-3 table applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum From {
    Any,
    Only(State),
}

/// One row of the ST-3 table.
pub struct Row {
    pub from: From,
    pub condition: &'static str,
    pub holds: fn(&Inputs) -> bool,
    pub to: State,
}

fn work(i: &Inputs) -> bool {
    i.in_active || i.busy || i.out_valid
}

/// The ST-3 table, rows in SPEC order (the first matching row wins).
pub const TABLE: [Row; 20] = {
    use State::*;
    [
        Row {
            from: From::Any,
            condition: "reset",
            holds: |i| i.reset,
            to: Empty,
        },
        Row {
            from: From::Only(Empty),
            condition: "halt and can_halt",
            holds: |i| i.halt && i.can_halt,
            to: Halted,
        },
        Row {
            from: From::Only(Empty),
            condition: "in_active",
            holds: |i| i.in_active,
            to: Active,
        },
        Row {
            from: From::Only(Empty),
            condition: "otherwise",
            holds: |_| true,
            to: Empty,
        },
        Row {
            from: From::Only(Active),
            condition: "halt and can_halt",
            holds: |i| i.halt && i.can_halt,
            to: Halted,
        },
        Row {
            from: From::Only(Active),
            condition: "nack",
            holds: |i| i.nack,
            to: Quiescent,
        },
        Row {
            from: From::Only(Active),
            condition: "out_blocked",
            holds: |i| i.out_blocked,
            to: Stalled,
        },
        Row {
            from: From::Only(Active),
            condition: "in_active or busy or out_valid",
            holds: work,
            to: Active,
        },
        Row {
            from: From::Only(Active),
            condition: "pending or mem_pending",
            holds: |i| i.pending || i.mem_pending,
            to: Quiescent,
        },
        Row {
            from: From::Only(Active),
            condition: "otherwise",
            holds: |_| true,
            to: Empty,
        },
        Row {
            from: From::Only(Stalled),
            condition: "halt and can_halt",
            holds: |i| i.halt && i.can_halt,
            to: Halted,
        },
        Row {
            from: From::Only(Stalled),
            condition: "out_blocked",
            holds: |i| i.out_blocked,
            to: Stalled,
        },
        Row {
            from: From::Only(Stalled),
            condition: "otherwise",
            holds: |_| true,
            to: Active,
        },
        Row {
            from: From::Only(Quiescent),
            condition: "halt and can_halt",
            holds: |i| i.halt && i.can_halt,
            to: Halted,
        },
        Row {
            from: From::Only(Quiescent),
            condition: "in_active or busy or out_valid or resume",
            holds: |i| work(i) || i.resume,
            to: Active,
        },
        Row {
            from: From::Only(Quiescent),
            condition: "otherwise",
            holds: |_| true,
            to: Quiescent,
        },
        Row {
            from: From::Only(Halted),
            condition: "halt",
            holds: |i| i.halt,
            to: Halted,
        },
        Row {
            from: From::Only(Halted),
            condition: "in_active or busy or out_valid",
            holds: work,
            to: Active,
        },
        Row {
            from: From::Only(Halted),
            condition: "pending or mem_pending",
            holds: |i| i.pending || i.mem_pending,
            to: Quiescent,
        },
        Row {
            from: From::Only(Halted),
            condition: "otherwise",
            holds: |_| true,
            to: Empty,
        },
    ]
};

/// The first row of the ST-3 table that matches, and the next state it gives.
pub fn next_state(s: State, i: &Inputs) -> (usize, State) {
    for (k, row) in TABLE.iter().enumerate() {
        let applies = match row.from {
            From::Any => true,
            From::Only(f) => f == s,
        };
        if applies && (row.holds)(i) {
            return (k, row.to);
        }
    }
    // Every state has an "otherwise" row.
    (TABLE.len() - 1, State::Empty)
}

/// Golden model of the roll-up tree: per connection the AND of its units' flags, delayed by
/// `stages` cycles. At power-on the pipeline registers hold 0 (every flag low); a reset loads
/// the snapshot of units in reset (all EMPTY).
#[derive(Debug, Clone)]
pub struct RollupModel {
    pub chains: Vec<u64>,
    pub stages: usize,
    history: VecDeque<Vec<Flags>>,
}

impl RollupModel {
    pub fn new(chains: &[u64], stages: usize) -> Self {
        let mut m = RollupModel {
            chains: chains.to_vec(),
            stages,
            history: VecDeque::new(),
        };
        let zero = Flags {
            halted: false,
            empty: false,
            not_stalled: false,
            not_quiescent: false,
        };
        m.history = (0..stages).map(|_| vec![zero; chains.len()]).collect();
        m
    }
    pub fn reset(&mut self) {
        let empty = State::Empty.flags();
        self.history = (0..self.stages)
            .map(|_| vec![empty; self.chains.len()])
            .collect();
    }
    /// The connections' AND of the unit flags `units` (bit i of a chain = units[i]).
    pub fn and_of(&self, units: &[Flags]) -> Vec<Flags> {
        self.chains
            .iter()
            .map(|&mask| {
                units
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1u64 << i) != 0)
                    .fold(Flags::ONES, |a, (_, f)| a.and(*f))
            })
            .collect()
    }
    /// What the front end sees this cycle, per connection.
    pub fn output(&self) -> &[Flags] {
        &self.history[0]
    }
    /// Clock edge with the units' flags of this cycle (or reset).
    pub fn clock(&mut self, units: &[Flags], reset: bool) {
        if reset {
            self.reset();
            return;
        }
        self.history.pop_front();
        let v = self.and_of(units);
        self.history.push_back(v);
    }
}

/// One command vector of the command tree, per unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnitCommand {
    pub halt: bool,
    pub reset: bool,
    pub resume: bool,
}

/// Golden model of the command tree: broadcast OR per-unit line, delayed by `stages` cycles.
#[derive(Debug, Clone)]
pub struct CommandModel {
    pub units: usize,
    pub stages: usize,
    history: VecDeque<Vec<UnitCommand>>,
}

impl CommandModel {
    pub fn new(units: usize, stages: usize) -> Self {
        CommandModel {
            units,
            stages,
            history: (0..stages)
                .map(|_| vec![UnitCommand::default(); units])
                .collect(),
        }
    }
    pub fn output(&self) -> &[UnitCommand] {
        &self.history[0]
    }
    /// Clock edge with this cycle's broadcast `cmd` and per-unit lines (bit i = unit i).
    pub fn clock(&mut self, cmd: UnitCommand, line_reset: u64, line_resume: u64, reset: bool) {
        if reset {
            *self = CommandModel::new(self.units, self.stages);
            return;
        }
        self.history.pop_front();
        self.history.push_back(
            (0..self.units)
                .map(|i| UnitCommand {
                    halt: cmd.halt,
                    reset: cmd.reset || line_reset & (1 << i) != 0,
                    resume: cmd.resume || line_resume & (1 << i) != 0,
                })
                .collect(),
        );
    }
}

/// Phases of the front-end monitor (ST-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Idle,
    Wait,
    Store,
    Reset,
    ResetWait,
    Restore,
    Release,
}

impl Phase {
    pub fn code(self) -> u64 {
        match self {
            Phase::Idle => 0,
            Phase::Wait => 1,
            Phase::Store => 2,
            Phase::Reset => 3,
            Phase::ResetWait => 4,
            Phase::Restore => 5,
            Phase::Release => 6,
        }
    }
}

/// Inputs of the front-end monitor in one cycle.
#[derive(Debug, Clone, Default)]
pub struct MonitorIn {
    pub switch_valid: bool,
    pub drain_mode: bool,
    pub deadlock_threshold: u16,
    pub conn: Vec<Flags>,
    /// Bit i: unit i moved work this cycle.
    pub progress: u64,
    pub store_done: bool,
    pub restore_done: bool,
}

/// Outputs of the front-end monitor in one cycle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MonitorOut {
    pub switch_ready: bool,
    pub cmd_halt: bool,
    pub cmd_reset: bool,
    pub store_req: bool,
    pub restore_req: bool,
    pub feed_stop: bool,
    pub phase: u64,
    pub all_halted_seen: bool,
    pub deadlock: bool,
    pub line_resume: u64,
    pub line_reset: u64,
    pub violation: bool,
}

/// Golden model of the front-end monitor (ST-5 sequence, ST-7 watchdog).
#[derive(Debug, Clone)]
pub struct MonitorModel {
    pub chains: Vec<u64>,
    pub stages: u64,
    pub phase: Phase,
    timer: u64,
    counts: Vec<u64>,
    /// Last cycle's connection flags (power-on and reset: all low).
    prev: Vec<Flags>,
}

impl MonitorModel {
    pub fn new(chains: &[u64], stages: usize) -> Self {
        MonitorModel {
            chains: chains.to_vec(),
            stages: stages as u64,
            phase: Phase::Idle,
            timer: 0,
            counts: vec![0; chains.len()],
            prev: vec![
                Flags {
                    halted: false,
                    empty: false,
                    not_stalled: false,
                    not_quiescent: false,
                };
                chains.len()
            ],
        }
    }

    fn round_trip(&self) -> u64 {
        2 * self.stages + 1
    }

    /// Outputs for this cycle's inputs (combinational view).
    pub fn outputs(&self, i: &MonitorIn) -> MonitorOut {
        let halting = !i.drain_mode;
        let target = if i.drain_mode {
            i.conn.iter().all(|f| f.empty)
        } else {
            i.conn.iter().all(|f| f.halted)
        };
        let mut o = MonitorOut {
            phase: self.phase.code(),
            ..MonitorOut::default()
        };
        match self.phase {
            Phase::Idle => o.switch_ready = true,
            Phase::Wait => {
                o.cmd_halt = halting;
                o.feed_stop = true;
                o.all_halted_seen = self.timer >= self.round_trip() && target;
            }
            Phase::Store => {
                o.cmd_halt = halting;
                o.feed_stop = true;
                o.store_req = true;
            }
            Phase::Reset => {
                o.cmd_halt = halting;
                o.feed_stop = true;
                o.cmd_reset = true;
            }
            Phase::ResetWait => {
                o.cmd_halt = halting;
                o.feed_stop = true;
            }
            Phase::Restore => {
                o.cmd_halt = halting;
                o.feed_stop = true;
                o.restore_req = true;
            }
            Phase::Release => {}
        }
        o.violation = (i.store_done && !o.store_req) || (i.restore_done && !o.restore_req);
        for (g, f) in i.conn.iter().enumerate() {
            if self.watching(i, f) && self.counts[g] >= i.deadlock_threshold as u64 {
                o.deadlock = true;
                if !f.not_quiescent {
                    o.line_resume |= self.chains[g];
                } else {
                    o.line_reset |= self.chains[g];
                }
            }
        }
        o
    }

    fn watching(&self, i: &MonitorIn, f: &Flags) -> bool {
        let enabled = self.phase == Phase::Idle || (self.phase == Phase::Wait && i.drain_mode);
        let g = i.conn.iter().position(|x| std::ptr::eq(x, f)).unwrap_or(0);
        let moving = i.progress & self.chains[g] != 0 || i.conn[g] != self.prev[g];
        enabled && !moving && i.deadlock_threshold != 0 && (!f.not_quiescent || !f.not_stalled)
    }

    /// Clock edge.
    pub fn clock(&mut self, i: &MonitorIn, reset: bool) {
        if reset {
            *self = MonitorModel::new(&self.chains, self.stages as usize);
            return;
        }
        let o = self.outputs(i);
        for (g, f) in i.conn.iter().enumerate() {
            if self.watching(i, f) && self.counts[g] < i.deadlock_threshold as u64 {
                self.counts[g] += 1;
            } else {
                self.counts[g] = 0;
            }
        }
        self.prev = i.conn.clone();
        let timer = (self.timer + 1).min(255);
        let (phase, timer) = match self.phase {
            Phase::Idle if i.switch_valid => (Phase::Wait, 0),
            Phase::Wait if o.all_halted_seen => (Phase::Store, timer),
            Phase::Store if i.store_done => (Phase::Reset, timer),
            Phase::Reset => (Phase::ResetWait, 0),
            Phase::ResetWait if self.timer >= self.stages => (Phase::Restore, timer),
            Phase::Restore if i.restore_done => (Phase::Release, 0),
            Phase::Release if self.timer >= self.round_trip() => (Phase::Idle, timer),
            p => (p, timer),
        };
        self.phase = phase;
        self.timer = timer;
    }
}

/// The ST-2 inputs of one unit that the unit itself drives (reset, halt and resume come from
/// the command tree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnitActivity {
    pub in_active: bool,
    pub busy: bool,
    pub out_valid: bool,
    pub out_blocked: bool,
    pub mem_pending: bool,
    pub pending: bool,
    pub nack: bool,
    pub can_halt: bool,
}

impl UnitActivity {
    /// The unit's full ST-2 input vector under `reset` and the command it receives.
    pub fn inputs(self, reset: bool, cmd: UnitCommand) -> Inputs {
        Inputs {
            reset: reset || cmd.reset,
            halt: cmd.halt,
            resume: cmd.resume,
            in_active: self.in_active,
            busy: self.busy,
            out_valid: self.out_valid,
            out_blocked: self.out_blocked,
            mem_pending: self.mem_pending,
            pending: self.pending,
            nack: self.nack,
            can_halt: self.can_halt,
        }
    }
}

/// Inputs of the whole status cluster in one cycle.
#[derive(Debug, Clone, Default)]
pub struct ClusterIn {
    pub reset: bool,
    /// One per unit.
    pub units: Vec<UnitActivity>,
    pub switch_valid: bool,
    pub drain_mode: bool,
    pub deadlock_threshold: u16,
    /// Bit i: unit i moved work this cycle.
    pub progress: u64,
    pub store_done: bool,
    pub restore_done: bool,
}

impl ClusterIn {
    /// The monitor's inputs, with the connections' flags `conn` from the roll-up.
    pub fn monitor(&self, conn: &[Flags]) -> MonitorIn {
        MonitorIn {
            switch_valid: self.switch_valid,
            drain_mode: self.drain_mode,
            deadlock_threshold: self.deadlock_threshold,
            conn: conn.to_vec(),
            progress: self.progress,
            store_done: self.store_done,
            restore_done: self.restore_done,
        }
    }
}

/// Outputs of the whole status cluster in one cycle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterOut {
    /// What reaches each unit.
    pub commands: Vec<UnitCommand>,
    /// Each unit's ST-1 code.
    pub status: Vec<u64>,
    /// Bit i: unit i's ST-2 inputs are inconsistent (`out_blocked` without `out_valid`).
    pub unit_violation: u64,
    /// The AND of the connections (`all_halted`, `all_empty`, `none_stalled`,
    /// `none_quiescent`).
    pub rollup: Flags,
    pub monitor: MonitorOut,
}

/// Golden model of the status cluster: the ST-3 table per unit, the roll-up, the monitor and
/// the command tree models wired as the cluster wires the RTL.
#[derive(Debug, Clone)]
pub struct ClusterModel {
    pub states: Vec<State>,
    pub rollup: RollupModel,
    pub monitor: MonitorModel,
    pub commands: CommandModel,
}

impl ClusterModel {
    /// `units` units, connection g carrying the units of `chains[g]`, `stages` tree stages.
    pub fn new(chains: &[u64], units: usize, stages: usize) -> Self {
        ClusterModel {
            states: vec![State::Empty; units],
            rollup: RollupModel::new(chains, stages),
            monitor: MonitorModel::new(chains, stages),
            commands: CommandModel::new(units, stages),
        }
    }

    /// Outputs for this cycle's inputs (combinational view).
    pub fn outputs(&self, i: &ClusterIn) -> ClusterOut {
        let conn = self.rollup.output();
        let mut unit_violation = 0;
        for (k, a) in i.units.iter().enumerate() {
            if a.out_blocked && !a.out_valid {
                unit_violation |= 1 << k;
            }
        }
        ClusterOut {
            commands: self.commands.output().to_vec(),
            status: self.states.iter().map(|s| s.code()).collect(),
            unit_violation,
            rollup: conn.iter().fold(Flags::ONES, |a, f| a.and(*f)),
            monitor: self.monitor.outputs(&i.monitor(conn)),
        }
    }

    /// Clock edge.
    pub fn clock(&mut self, i: &ClusterIn) {
        let mi = i.monitor(self.rollup.output());
        let mo = self.monitor.outputs(&mi);
        let flags: Vec<Flags> = self.states.iter().map(|s| s.flags()).collect();
        let cmds = self.commands.output().to_vec();
        for (k, s) in self.states.iter_mut().enumerate() {
            *s = next_state(*s, &i.units[k].inputs(i.reset, cmds[k])).1;
        }
        self.rollup.clock(&flags, i.reset);
        self.monitor.clock(&mi, i.reset);
        let broadcast = UnitCommand {
            halt: mo.cmd_halt,
            reset: mo.cmd_reset,
            resume: false,
        };
        self.commands
            .clock(broadcast, mo.line_reset, mo.line_resume, i.reset);
    }
}
