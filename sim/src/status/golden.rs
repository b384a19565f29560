//! Golden models of the status-reporting RTL (SPEC ST-1..ST-5, ST-7), written from the SPEC
//! independently of the `#[hdl_gen]` code: the ST-3 table as data, the roll-up as a delay line
//! of ANDs, the command tree as a delay line, the front-end monitor as a checker of the ST-5
//! sequence and the ST-7 rule (order of events and bounds, no copy of the RTL's counters), and
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

/// Golden model of the command tree: broadcast OR per-unit line, delayed by `stages` cycles;
/// it also tells whether the broadcast reset (the context switch's) is among what arrives.
#[derive(Debug, Clone)]
pub struct CommandModel {
    pub units: usize,
    pub stages: usize,
    history: VecDeque<(Vec<UnitCommand>, bool)>,
}

impl CommandModel {
    pub fn new(units: usize, stages: usize) -> Self {
        CommandModel {
            units,
            stages,
            history: (0..stages)
                .map(|_| (vec![UnitCommand::default(); units], false))
                .collect(),
        }
    }
    /// What reaches each unit this cycle (`reset`: the broadcast or the unit's line).
    pub fn output(&self) -> &[UnitCommand] {
        &self.history[0].0
    }
    /// The broadcast reset reaches the units this cycle.
    pub fn broadcast_reset(&self) -> bool {
        self.history[0].1
    }
    /// Clock edge with this cycle's broadcast `cmd` and per-unit lines (bit i = unit i).
    pub fn clock(&mut self, cmd: UnitCommand, line_reset: u64, line_resume: u64, reset: bool) {
        if reset {
            *self = CommandModel::new(self.units, self.stages);
            return;
        }
        self.history.pop_front();
        self.history.push_back((
            (0..self.units)
                .map(|i| UnitCommand {
                    halt: cmd.halt,
                    reset: cmd.reset || line_reset & (1 << i) != 0,
                    resume: cmd.resume || line_resume & (1 << i) != 0,
                })
                .collect(),
            cmd.reset,
        ));
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

/// Where a context switch stands, in the words of ST-5's sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// No switch: a switch command may be taken; the watchdog watches (ST-7).
    Idle,
    /// Taken: halt raised (drain: feed stopped), waiting until the roll-up shows all halted
    /// (drain: all empty).
    Halting,
    /// Storing every unit's state, halt held.
    Storing,
    /// Stored: reset issued, halt held, until the restore begins.
    Resetting,
    /// Restoring the next context, halt held.
    Restoring,
    /// Restored and halt dropped; the monitor may take a while before it takes the next
    /// switch (its own settling), within a bound.
    Released,
}

/// The phase codes the monitor publishes on `phase` (the public encoding of
/// `ppu_hdl::status::front_end_monitor::phase`, SPEC ST-5).
pub mod phase_code {
    pub const IDLE: u64 = 0;
    pub const WAIT: u64 = 1;
    pub const STORE: u64 = 2;
    pub const RESET: u64 = 3;
    pub const RESET_WAIT: u64 = 4;
    pub const RESTORE: u64 = 5;
    pub const RELEASE: u64 = 6;
}

/// Golden model of the front-end monitor, written from the SPEC's words (ST-4 latencies, the
/// ST-5 sequence, the ST-7 rule) and not from the RTL: a checker that follows the switch
/// sequence and the watchdog's conditions cycle by cycle and says whether the outputs the
/// monitor gave in a cycle are allowed, as an order of events and bounds. It holds no copy of
/// the RTL's timers or constants: every bound is derived from the tree latency `stages` (a
/// command takes `stages` cycles down the command tree, a unit's state changes at the edge
/// after its inputs, and takes `stages` cycles up the roll-up).
///
/// ST-5, the sequence: a switch is taken only when no switch is under way (and at the latest
/// a round trip plus one cycle after the previous release); then halt is raised (drain
/// protocol: the feed stopped) and held through the store, the reset and the restore; the
/// monitor decides "all halted" exactly when the roll-up shows every connection halted
/// (drain: empty) in a snapshot taken after the halt could have reached the units and been
/// reported, never on an older snapshot; it asks for the store until it is done, issues the
/// reset, asks for the restore only once the reset has reached every unit (and at the latest
/// two cycles later), drops halt and restarts the feed once the restore is done. A done
/// without its request raises `violation`.
///
/// ST-7, per connection g: the watchdog condition holds in a cycle when the watchdog may run
/// (no switch under way, or waiting for a drain), the threshold is not 0, g shows a QUIESCENT
/// or STALLED unit, none of g's units reports progress and g's flags are those of the cycle
/// before. The monitor acts on g in the first cycle in which the condition has held for more
/// than `threshold` cycles in a row since g's last action (beyond the threshold), never
/// earlier and never later; it resumes
/// g's units if g shows a QUIESCENT unit, otherwise resets them (the stalled chain), with
/// every unit of g on the line and no other, and raises `deadlock` exactly when it acts.
#[derive(Debug, Clone)]
pub struct MonitorModel {
    pub chains: Vec<u64>,
    pub stages: u64,
    /// Where the switch stands after the cycles checked so far.
    pub step: Step,
    cycle: u64,
    /// The cycle halt was first raised (drain: the feed stopped) in the running switch.
    halt_raised: Option<u64>,
    /// The cycle the running switch's reset was issued.
    reset_issued: Option<u64>,
    /// The first cycle after the last switch released its halt.
    released: Option<u64>,
    /// Per connection: cycles in a row the watchdog condition has held since its last action.
    still: Vec<u64>,
    /// Last cycle's connection flags (power-on and reset: all low, as the registers are).
    prev: Vec<Flags>,
}

impl MonitorModel {
    pub fn new(chains: &[u64], stages: usize) -> Self {
        MonitorModel {
            chains: chains.to_vec(),
            stages: stages as u64,
            step: Step::Idle,
            cycle: 0,
            halt_raised: None,
            reset_issued: None,
            released: None,
            still: vec![0; chains.len()],
            prev: vec![Flags::default(); chains.len()],
        }
    }

    /// A command issued in cycle t reaches the units in t + stages, changes their state at
    /// that cycle's edge, and the new state reaches the front end `stages` cycles after it is
    /// first reported: the round trip of ST-4's two trees.
    fn round_trip(&self) -> u64 {
        self.stages + 1 + self.stages
    }

    /// Check this cycle's outputs `o` for the inputs `i` (`reset`: the monitor's synchronous
    /// reset is high this cycle), then advance to the next cycle.
    pub fn check(&mut self, i: &MonitorIn, o: &MonitorOut, reset: bool) -> Result<(), String> {
        let want_violation = (i.store_done && !o.store_req) || (i.restore_done && !o.restore_req);
        if o.violation != want_violation {
            return Err(format!(
                "violation {} with store_done {} / store_req {}, restore_done {} / restore_req {}",
                o.violation, i.store_done, o.store_req, i.restore_done, o.restore_req
            ));
        }
        check_phase_code(o)?;
        // The steps before this cycle's switch command decide what the watchdog may do.
        let step_before = self.step;
        self.check_sequence(i, o)?;
        self.check_watchdog(step_before, i, o)?;
        if reset {
            *self = MonitorModel {
                cycle: self.cycle + 1,
                ..MonitorModel::new(&self.chains, self.stages as usize)
            };
        } else {
            self.prev = i.conn.clone();
            self.cycle += 1;
        }
        Ok(())
    }

    /// The ST-5 sequence in this cycle. Long because it is the sequence, one arm per step.
    fn check_sequence(&mut self, i: &MonitorIn, o: &MonitorOut) -> Result<(), String> {
        let halting = !i.drain_mode;
        let held = o.cmd_halt == halting && o.feed_stop;
        let c = self.cycle;
        match self.step {
            Step::Idle | Step::Released => {
                if o.cmd_halt || o.cmd_reset || o.store_req || o.restore_req || o.feed_stop {
                    return Err(format!("no switch under way, yet {:?}", o));
                }
                if self.step == Step::Released && !o.switch_ready {
                    let since = c - self.released.unwrap_or(c);
                    if since > self.round_trip() + 1 {
                        return Err(format!(
                            "still not ready for a switch {} cycles after the release",
                            since
                        ));
                    }
                }
            }
            Step::Halting => {
                if o.switch_ready || !held || o.cmd_reset || o.store_req || o.restore_req {
                    return Err(format!("waiting for all halted, yet {:?}", o));
                }
                let raised = *self.halt_raised.get_or_insert(c);
                let target = if i.drain_mode {
                    i.conn.iter().all(|f| f.empty)
                } else {
                    i.conn.iter().all(|f| f.halted)
                };
                // The roll-up shows the units' states of cycle c - stages: they tell about the
                // halt only if it had reached the units and they had reacted by then.
                let trusted = c >= raised + self.round_trip();
                if o.all_halted_seen != (target && trusted) {
                    return Err(format!(
                        "all_halted_seen {} with the roll-up showing the target {} and the \
                         halt raised {} cycles ago",
                        o.all_halted_seen,
                        target,
                        c - raised
                    ));
                }
                if o.all_halted_seen {
                    self.step = Step::Storing;
                }
            }
            Step::Storing => {
                if o.switch_ready || !held || !o.store_req || o.cmd_reset || o.restore_req {
                    return Err(format!("storing, yet {:?}", o));
                }
                if i.store_done {
                    self.step = Step::Resetting;
                }
            }
            Step::Resetting => {
                if o.switch_ready || !held || o.store_req || (o.restore_req && o.cmd_reset) {
                    return Err(format!("after the store, yet {:?}", o));
                }
                if o.cmd_reset {
                    self.reset_issued.get_or_insert(c);
                }
                match self.reset_issued {
                    None if o.restore_req => {
                        return Err("restore asked for before any reset".into());
                    }
                    None => {}
                    Some(r) if o.restore_req && c < r + self.stages => {
                        return Err(format!(
                            "restore asked for {} cycles after the reset, before it reached \
                             the units",
                            c - r
                        ));
                    }
                    Some(r) if !o.restore_req && c > r + self.stages + 2 => {
                        return Err(format!("no restore {} cycles after the reset", c - r));
                    }
                    Some(_) => {}
                }
                if o.restore_req {
                    self.step = Step::Restoring;
                }
            }
            Step::Restoring => {
                if o.switch_ready || !held || !o.restore_req || o.cmd_reset || o.store_req {
                    return Err(format!("restoring, yet {:?}", o));
                }
            }
        }
        if self.step == Step::Restoring && i.restore_done {
            self.step = Step::Released;
            self.released = Some(c + 1);
        }
        if o.switch_ready {
            if !matches!(self.step, Step::Idle | Step::Released) {
                return Err(format!("ready for a switch while {:?}", self.step));
            }
            self.step = Step::Idle;
            if i.switch_valid {
                self.step = Step::Halting;
                self.halt_raised = None;
                self.reset_issued = None;
            }
        }
        Ok(())
    }

    /// The ST-7 rule in this cycle (`step`: where the switch stood at the cycle's start).
    fn check_watchdog(&mut self, step: Step, i: &MonitorIn, o: &MonitorOut) -> Result<(), String> {
        let may_run = match step {
            Step::Idle => true,
            Step::Released => o.switch_ready,
            Step::Halting => i.drain_mode,
            _ => false,
        };
        let watching = may_run && i.deadlock_threshold != 0;
        let threshold = i.deadlock_threshold as u64;
        let (mut resumed, mut reset) = (0u64, 0u64);
        for (g, f) in i.conn.iter().enumerate() {
            let members = self.chains[g];
            let waiting = !f.not_quiescent || !f.not_stalled;
            let moved = i.progress & members != 0 || *f != self.prev[g];
            self.still[g] = if watching && waiting && !moved {
                self.still[g] + 1
            } else {
                0
            };
            let (on_resume, on_reset) = (o.line_resume & members, o.line_reset & members);
            if on_resume == 0 && on_reset == 0 {
                if self.still[g] > threshold {
                    return Err(format!(
                        "connection {} has waited without progress for {} cycles (threshold \
                         {}) and the watchdog has not acted",
                        g, self.still[g], threshold
                    ));
                }
                continue;
            }
            if self.still[g] <= threshold {
                return Err(format!(
                    "the watchdog acted on connection {} after {} cycles without progress \
                     (threshold {})",
                    g, self.still[g], threshold
                ));
            }
            let quiescent = !f.not_quiescent;
            let (on, off) = if quiescent {
                (on_resume, on_reset)
            } else {
                (on_reset, on_resume)
            };
            if on != members || off != 0 {
                return Err(format!(
                    "connection {} shows {:?}: expected a {} of all its units {:#x}, got \
                     line_resume {:#x} line_reset {:#x}",
                    g,
                    f,
                    if quiescent { "resume" } else { "reset" },
                    members,
                    o.line_resume,
                    o.line_reset
                ));
            }
            self.still[g] = 0;
            if quiescent {
                resumed |= members;
            } else {
                reset |= members;
            }
        }
        let acted = resumed | reset != 0;
        if o.line_resume != resumed || o.line_reset != reset || o.deadlock != acted {
            return Err(format!(
                "watchdog lines resume {:#x} reset {:#x} deadlock {}, expected {:#x} {:#x} {}",
                o.line_resume, o.line_reset, o.deadlock, resumed, reset, acted
            ));
        }
        Ok(())
    }
}

/// The phase code the monitor publishes agrees with what it does.
fn check_phase_code(o: &MonitorOut) -> Result<(), String> {
    use phase_code::*;
    let ok = (o.switch_ready == (o.phase == IDLE))
        && (o.store_req == (o.phase == STORE))
        && (o.restore_req == (o.phase == RESTORE))
        && (o.cmd_reset == (o.phase == RESET))
        && (!o.all_halted_seen || o.phase == WAIT)
        && o.phase <= RELEASE
        && (o.phase != RESET_WAIT || o.feed_stop);
    if ok {
        Ok(())
    } else {
        Err(format!("phase {} does not agree with {:?}", o.phase, o))
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

/// Golden model of the status cluster: the ST-3 table per unit, the roll-up and the command
/// tree models wired as the cluster wires the RTL, and the monitor checker ([`MonitorModel`])
/// judging the monitor's outputs. The exactly defined parts (unit states, commands reaching
/// the units, roll-up) are predicted; the monitor's outputs are checked against the ST-5/ST-7
/// rules and then drive the command tree model. A watchdog reset line is taken only by a unit
/// in STALLED (ST-7: the stalled chain); the broadcast reset by every unit.
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

    /// The commands each unit takes this cycle: a line reset only while the unit is STALLED.
    pub fn unit_commands(&self) -> Vec<UnitCommand> {
        let broadcast = self.commands.broadcast_reset();
        self.commands
            .output()
            .iter()
            .zip(&self.states)
            .map(|(c, s)| UnitCommand {
                reset: broadcast || (c.reset && *s == State::Stalled),
                ..*c
            })
            .collect()
    }

    /// Check the cluster's outputs `got` for this cycle's inputs `i`, then clock the model.
    pub fn check(&mut self, i: &ClusterIn, got: &ClusterOut) -> Result<(), String> {
        let cmds = self.unit_commands();
        let conn = self.rollup.output().to_vec();
        let mut unit_violation = 0;
        for (k, a) in i.units.iter().enumerate() {
            if a.out_blocked && !a.out_valid {
                unit_violation |= 1 << k;
            }
        }
        if got.commands != cmds {
            return Err(format!("commands {:?}, the model {:?}", got.commands, cmds));
        }
        let status: Vec<u64> = self.states.iter().map(|s| s.code()).collect();
        if got.status != status {
            return Err(format!("status {:?}, the model {:?}", got.status, status));
        }
        if got.unit_violation != unit_violation {
            return Err(format!(
                "unit_violation {:#x}, the model {:#x}",
                got.unit_violation, unit_violation
            ));
        }
        let rollup = conn.iter().fold(Flags::ONES, |a, f| a.and(*f));
        if got.rollup != rollup {
            return Err(format!("roll-up {:?}, the model {:?}", got.rollup, rollup));
        }
        self.monitor
            .check(&i.monitor(&conn), &got.monitor, i.reset)
            .map_err(|e| format!("monitor: {}", e))?;
        let flags: Vec<Flags> = self.states.iter().map(|s| s.flags()).collect();
        for (k, s) in self.states.iter_mut().enumerate() {
            *s = next_state(*s, &i.units[k].inputs(i.reset, cmds[k])).1;
        }
        self.rollup.clock(&flags, i.reset);
        let broadcast = UnitCommand {
            halt: got.monitor.cmd_halt,
            reset: got.monitor.cmd_reset,
            resume: false,
        };
        self.commands.clock(
            broadcast,
            got.monitor.line_reset,
            got.monitor.line_resume,
            i.reset,
        );
        Ok(())
    }
}
