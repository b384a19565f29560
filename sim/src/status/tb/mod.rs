//! Testbench drivers of the unit-status RTL (SPEC ST-1..ST-7): every driver steps the RTL in the
//! cycle harness, compares every output in every cycle against the golden models of
//! [`super::golden`], and can write waves and record ports for co-simulation.
use super::golden::{
    next_state, CommandModel, Flags, Inputs, MonitorIn, MonitorModel, RollupModel, State,
    UnitCommand,
};
use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::status::command_tree::CommandTree;
use ppu_hdl::status::front_end_monitor::FrontEndMonitor;
use ppu_hdl::status::rollup_tree::RollupTree;
use ppu_hdl::status::status_fsm::StatusFsm;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::path::Path;

/// Reference topology of the exported roll-up tree and monitor: 8 units in 4 connections —
/// units 0..2 chained, unit 3 reporting directly, 4..5 chained, 6..7 chained.
pub const REF_CHAINS: [u64; 4] = [0b0000_0111, 0b0000_1000, 0b0011_0000, 0b1100_0000];
/// Reference tree depth of the exported units.
pub const REF_STAGES: usize = 3;
pub type RefRollupTree = RollupTree<8, 4, REF_STAGES>;
pub type RefCommandTree = CommandTree<8, REF_STAGES>;
pub type RefMonitor = FrontEndMonitor<8, 4, REF_STAGES>;

fn trace_of(p: Option<PortTrace>) -> Result<PortTrace, String> {
    p.ok_or_else(|| "no port trace".to_string())
}

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "status_fsm",
            mechanism: "status",
            summary: "five-state unit status machine (ST-1..ST-3)",
            verilog: || verilog_of(StatusFsm::default(), "status_fsm"),
            cosim_trace: || {
                let v = random_vectors(800, 5);
                trace_of(
                    run_status_fsm(
                        &v,
                        &TbOutput {
                            vcd: None,
                            record_ports: true,
                        },
                    )?
                    .ports,
                )
            },
        },
        Unit {
            name: "rollup_tree",
            mechanism: "status",
            summary: "status roll-up, 8 units in 4 connections, TREE_STAGES=3 (ST-4)",
            verilog: || verilog_of(RefRollupTree::new(&REF_CHAINS), "rollup_tree"),
            cosim_trace: || {
                trace_of(
                    run_rollup_tree::<8, 4, REF_STAGES>(
                        &REF_CHAINS,
                        600,
                        3,
                        &TbOutput {
                            vcd: None,
                            record_ports: true,
                        },
                    )?
                    .ports,
                )
            },
        },
        Unit {
            name: "command_tree",
            mechanism: "status",
            summary: "halt/reset/resume distribution to 8 units, TREE_STAGES=3 (ST-4, ST-5)",
            verilog: || verilog_of(RefCommandTree::default(), "command_tree"),
            cosim_trace: || {
                trace_of(
                    run_command_tree::<8, REF_STAGES>(
                        600,
                        4,
                        &TbOutput {
                            vcd: None,
                            record_ports: true,
                        },
                    )?
                    .ports,
                )
            },
        },
        Unit {
            name: "front_end_monitor",
            mechanism: "status",
            summary: "context-switch sequencer and deadlock watchdog, 8 units, 4 connections, TREE_STAGES=3 (ST-5, ST-7)",
            verilog: || verilog_of(RefMonitor::new(&REF_CHAINS), "front_end_monitor"),
            cosim_trace: || {
                trace_of(
                    run_front_end_monitor::<8, 4, REF_STAGES>(
                        &REF_CHAINS,
                        &MonitorTb {
                            cycles: 1500,
                            seed: 6,
                            ..MonitorTb::default()
                        },
                        &TbOutput {
                            vcd: None,
                            record_ports: true,
                        },
                    )?
                    .ports,
                )
            },
        },
    ]
}

/// Random input vectors for the FSM, biased so that every row of ST-3 is reached often:
/// rare resets, halt held in bursts, can_halt mostly high.
pub fn random_vectors(n: usize, seed: u64) -> Vec<Inputs> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut halt = false;
    (0..n)
        .map(|c| {
            if rng.gen_bool(0.08) {
                halt = !halt;
            }
            let mut p = |x: f64| rng.gen_bool(x);
            Inputs {
                reset: c == 0 || p(0.02),
                halt,
                resume: p(0.15),
                in_active: p(0.3),
                busy: p(0.25),
                out_valid: p(0.25),
                out_blocked: p(0.25),
                mem_pending: p(0.25),
                pending: p(0.25),
                nack: p(0.15),
                can_halt: p(0.7),
            }
        })
        .collect()
}

/// What [`run_status_fsm`] saw.
#[derive(Debug, Clone, Default)]
pub struct FsmRun {
    /// The state after each cycle's edge (the golden model agreed with the RTL).
    pub states: Vec<State>,
    /// The ST-3 row taken in each cycle.
    pub rows: Vec<usize>,
    pub ports: Option<PortTrace>,
}

fn set_fsm_inputs(u: &mut StatusFsm, i: &Inputs) {
    u.reset.next = i.reset;
    u.halt.next = i.halt;
    u.resume.next = i.resume;
    u.in_active.next = i.in_active;
    u.busy.next = i.busy;
    u.out_valid.next = i.out_valid;
    u.out_blocked.next = i.out_blocked;
    u.mem_pending.next = i.mem_pending;
    u.pending.next = i.pending;
    u.nack.next = i.nack;
    u.can_halt.next = i.can_halt;
}

/// Drive [`StatusFsm`] with `vectors` (one per cycle) and check, every cycle, its `status`
/// code and flags against the ST-3 golden model and its `violation` against its definition.
/// The model starts in EMPTY (the register's power-on value).
pub fn run_status_fsm(vectors: &[Inputs], out: &TbOutput) -> Result<FsmRun, String> {
    let mut h = harness(
        StatusFsm::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "status_fsm",
    )?;
    let mut state = State::Empty;
    let mut run = FsmRun::default();
    for (cycle, i) in vectors.iter().enumerate() {
        set_fsm_inputs(&mut h.uut, i);
        h.settle().map_err(|e| e.to_string())?;
        check_fsm_outputs(&h.uut, state, i).map_err(|e| format!("cycle {}: {}", cycle, e))?;
        let (row, next) = next_state(state, i);
        h.step().map_err(|e| e.to_string())?;
        state = next;
        run.states.push(state);
        run.rows.push(row);
    }
    run.ports = finish_waves(h, out, |vars| {
        let t = "status_fsm";
        vec![
            Group::new("control").sigs(t, &["clock", "reset", "halt", "resume", "can_halt"], vars),
            Group::new("unit activity").sigs(
                t,
                &[
                    "in_active",
                    "busy",
                    "out_valid",
                    "out_blocked",
                    "mem_pending",
                    "pending",
                    "nack",
                ],
                vars,
            ),
            Group::new("status").sigs(
                t,
                &[
                    "status",
                    "halted",
                    "empty",
                    "not_stalled",
                    "not_quiescent",
                    "violation",
                ],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// Check one settled [`StatusFsm`] against the state the model says it is in.
pub fn check_fsm_outputs(u: &StatusFsm, state: State, i: &Inputs) -> Result<(), String> {
    let code = u.status.val().to_u64();
    if code != state.code() {
        return Err(format!(
            "status {} but the ST-3 model is in {} ({})",
            code,
            state,
            state.code()
        ));
    }
    let f = state.flags();
    let got = Flags {
        halted: u.halted.val(),
        empty: u.empty.val(),
        not_stalled: u.not_stalled.val(),
        not_quiescent: u.not_quiescent.val(),
    };
    if got != f {
        return Err(format!(
            "flags {:?} in state {}, expected {:?}",
            got, state, f
        ));
    }
    if u.violation.val() != (i.out_blocked && !i.out_valid) {
        return Err(format!("violation {} for {:?}", u.violation.val(), i));
    }
    Ok(())
}

/// What [`run_rollup_tree`] saw.
#[derive(Debug, Clone, Default)]
pub struct RollupRun {
    /// Cycles in which every unit was HALTED.
    pub all_halted_true: Vec<u64>,
    /// Cycles in which the tree's `all_halted` output was high (after the reset snapshot).
    pub all_halted_seen: Vec<u64>,
    /// Cycles with `reset` raised.
    pub resets: Vec<u64>,
    pub ports: Option<PortTrace>,
}

fn flag_vectors(states: &[State]) -> [u64; 4] {
    let mut v = [0u64; 4];
    for (i, s) in states.iter().enumerate() {
        let f = s.flags();
        for (k, b) in [f.halted, f.empty, f.not_stalled, f.not_quiescent]
            .into_iter()
            .enumerate()
        {
            if b {
                v[k] |= 1 << i;
            }
        }
    }
    v
}

/// Drive a [`RollupTree`] with random unit states (in phases where most units go HALTED, as in
/// a halt, so that "all halted" actually happens) and check every connection and the front-end
/// ANDs every cycle against [`RollupModel`].
pub fn run_rollup_tree<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    cycles: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<RollupRun, String> {
    let mut h = harness(
        RollupTree::<N, G, S>::new(chains),
        |u, c| u.clock.next = c.into(),
        out,
        "rollup_tree",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut model = RollupModel::new(chains, S);
    let mut states = vec![State::Empty; N];
    let mut halting = false;
    let mut run = RollupRun::default();
    for cycle in 0..cycles {
        let reset = cycle == 0 || rng.gen_bool(0.005);
        if rng.gen_bool(0.05) {
            halting = !halting;
        }
        for s in states.iter_mut() {
            if halting {
                if rng.gen_bool(0.3) {
                    *s = State::Halted;
                }
            } else if rng.gen_bool(0.2) {
                *s = State::ALL[rng.gen_range(0..5)];
            }
        }
        let v = flag_vectors(&states);
        h.uut.reset.next = reset;
        h.uut.halted_in.next = bits::<N>(v[0]);
        h.uut.empty_in.next = bits::<N>(v[1]);
        h.uut.not_stalled_in.next = bits::<N>(v[2]);
        h.uut.not_quiescent_in.next = bits::<N>(v[3]);
        h.settle().map_err(|e| e.to_string())?;
        let want = model.output().to_vec();
        let u = &h.uut;
        for (g, w) in want.iter().enumerate() {
            let got = Flags {
                halted: u.conn_halted[g].val(),
                empty: u.conn_empty[g].val(),
                not_stalled: u.conn_not_stalled[g].val(),
                not_quiescent: u.conn_not_quiescent[g].val(),
            };
            if got != *w {
                return Err(format!(
                    "cycle {}: connection {} shows {:?}, the model {:?}",
                    cycle, g, got, w
                ));
            }
        }
        let all = want.iter().fold(Flags::ONES, |a, f| a.and(*f));
        let got_all = Flags {
            halted: u.all_halted.val(),
            empty: u.all_empty.val(),
            not_stalled: u.none_stalled.val(),
            not_quiescent: u.none_quiescent.val(),
        };
        if got_all != all {
            return Err(format!(
                "cycle {}: front-end AND {:?}, the model {:?}",
                cycle, got_all, all
            ));
        }
        if states.iter().all(|s| *s == State::Halted) {
            run.all_halted_true.push(cycle);
        }
        if got_all.halted {
            run.all_halted_seen.push(cycle);
        }
        model.clock(&states.iter().map(|s| s.flags()).collect::<Vec<_>>(), reset);
        h.step().map_err(|e| e.to_string())?;
        if reset {
            run.resets.push(cycle);
            // The units are in reset too: the next cycle starts from EMPTY.
            states.iter_mut().for_each(|s| *s = State::Empty);
            run.all_halted_true.retain(|&c| c != cycle);
        }
    }
    run.ports = finish_waves(h, out, |vars| {
        let t = "rollup_tree";
        let mut conns = vec![];
        for g in 0..G.min(4) {
            conns.push(format!("conn_halted${}", g));
        }
        let conns: Vec<&str> = conns.iter().map(String::as_str).collect();
        vec![
            Group::new("control").sigs(t, &["clock", "reset"], vars),
            Group::new("unit flags").sigs(
                t,
                &[
                    "halted_in",
                    "empty_in",
                    "not_stalled_in",
                    "not_quiescent_in",
                ],
                vars,
            ),
            Group::new("connections").sigs(t, &conns, vars),
            Group::new("front end").sigs(
                t,
                &["all_halted", "all_empty", "none_stalled", "none_quiescent"],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// What [`run_command_tree`] saw.
#[derive(Debug, Clone, Default)]
pub struct CommandRun {
    /// (cycle issued, cycle first seen by unit 0) of each rising broadcast halt.
    pub halt_latency: Vec<(u64, u64)>,
    pub ports: Option<PortTrace>,
}

/// Drive a [`CommandTree`] with random broadcast commands and per-unit lines and check every
/// unit's command lines every cycle against [`CommandModel`].
pub fn run_command_tree<const N: usize, const S: usize>(
    cycles: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<CommandRun, String> {
    let mut h = harness(
        CommandTree::<N, S>::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "command_tree",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut model = CommandModel::new(N, S);
    let mut halt = false;
    let mut run = CommandRun::default();
    let mut issued: Option<u64> = None;
    // Cycles since halt was last high: a rise counts only after the tree has emptied of halts.
    let mut low_for: u64 = 0;
    let mask = if N >= 64 { u64::MAX } else { (1u64 << N) - 1 };
    for cycle in 0..cycles {
        let reset = cycle == 0 || rng.gen_bool(0.005);
        if rng.gen_bool(0.06) {
            halt = !halt;
            if halt && issued.is_none() && low_for >= S as u64 {
                issued = Some(cycle);
            }
        }
        low_for = if halt { 0 } else { low_for + 1 };
        let cmd = UnitCommand {
            halt,
            reset: rng.gen_bool(0.05),
            resume: rng.gen_bool(0.05),
        };
        let lr = if rng.gen_bool(0.1) {
            rng.gen::<u64>() & mask
        } else {
            0
        };
        let lm = if rng.gen_bool(0.1) {
            rng.gen::<u64>() & mask
        } else {
            0
        };
        h.uut.reset.next = reset;
        h.uut.cmd_halt.next = cmd.halt;
        h.uut.cmd_reset.next = cmd.reset;
        h.uut.cmd_resume.next = cmd.resume;
        h.uut.line_reset.next = bits::<N>(lr);
        h.uut.line_resume.next = bits::<N>(lm);
        h.settle().map_err(|e| e.to_string())?;
        let want = model.output().to_vec();
        let u = &h.uut;
        let (gh, gr, gm) = (
            u.unit_halt.val().to_u64(),
            u.unit_reset.val().to_u64(),
            u.unit_resume.val().to_u64(),
        );
        for (i, w) in want.iter().enumerate() {
            let got = UnitCommand {
                halt: gh & (1 << i) != 0,
                reset: gr & (1 << i) != 0,
                resume: gm & (1 << i) != 0,
            };
            if got != *w {
                return Err(format!(
                    "cycle {}: unit {} receives {:?}, the model {:?}",
                    cycle, i, got, w
                ));
            }
        }
        if let Some(c) = issued {
            if gh & 1 != 0 {
                run.halt_latency.push((c, cycle));
                issued = None;
            }
        }
        model.clock(cmd, lr, lm, reset);
        h.step().map_err(|e| e.to_string())?;
        if reset {
            issued = None;
            low_for = 0;
        }
    }
    run.ports = finish_waves(h, out, |vars| {
        let t = "command_tree";
        vec![
            Group::new("control").sigs(t, &["clock", "reset"], vars),
            Group::new("front end").sigs(
                t,
                &[
                    "cmd_halt",
                    "cmd_reset",
                    "cmd_resume",
                    "line_reset",
                    "line_resume",
                ],
                vars,
            ),
            Group::new("units").sigs(t, &["unit_halt", "unit_reset", "unit_resume"], vars),
        ]
    })?;
    Ok(run)
}

/// Random environment of the monitor testbench.
#[derive(Debug, Clone)]
pub struct MonitorTb {
    pub cycles: u64,
    pub seed: u64,
    /// Drain protocol (prior art) instead of halting; `None`: changes at random.
    pub drain_mode: Option<bool>,
    pub deadlock_threshold: u16,
    /// Probability per cycle that the context store acknowledges a pending request.
    pub done_prob: f64,
}

impl Default for MonitorTb {
    fn default() -> Self {
        MonitorTb {
            cycles: 2000,
            seed: 1,
            drain_mode: None,
            deadlock_threshold: 9,
            done_prob: 0.2,
        }
    }
}

/// What [`run_front_end_monitor`] saw.
#[derive(Debug, Clone, Default)]
pub struct MonitorRun {
    pub switches: u64,
    pub deadlocks: u64,
    pub phases_seen: Vec<u64>,
    pub ports: Option<PortTrace>,
}

/// Drive a [`FrontEndMonitor`] from a random environment (switch commands, roll-up flags that
/// go all-halted some time after halt is raised, progress, store/restore acknowledgements and
/// rare stray acknowledgements) and compare every output every cycle with [`MonitorModel`].
pub fn run_front_end_monitor<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    cfg: &MonitorTb,
    out: &TbOutput,
) -> Result<MonitorRun, String> {
    let mut h = harness(
        FrontEndMonitor::<N, G, S>::new(chains),
        |u, c| u.clock.next = c.into(),
        out,
        "front_end_monitor",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut model = MonitorModel::new(chains, S);
    let mut drain = cfg.drain_mode.unwrap_or(false);
    let mut conn = vec![State::Empty.flags(); G];
    let mut run = MonitorRun::default();
    for cycle in 0..cfg.cycles {
        let reset = cycle == 0 || rng.gen_bool(0.002);
        if cfg.drain_mode.is_none() && model.phase == super::golden::Phase::Idle {
            if rng.gen_bool(0.02) {
                drain = !drain;
            }
        }
        // Roll-up flags: they drift towards the protocol's target while a switch waits.
        let waiting = model.phase != super::golden::Phase::Idle;
        for f in conn.iter_mut() {
            if rng.gen_bool(0.15) {
                let s = if waiting && rng.gen_bool(0.7) {
                    if drain {
                        State::Empty
                    } else {
                        State::Halted
                    }
                } else {
                    State::ALL[rng.gen_range(0..5)]
                };
                *f = s.flags();
            }
        }
        let o_req = model.outputs(&MonitorIn {
            conn: conn.clone(),
            drain_mode: drain,
            deadlock_threshold: cfg.deadlock_threshold,
            ..MonitorIn::default()
        });
        let stray = rng.gen_bool(0.003);
        let i = MonitorIn {
            switch_valid: rng.gen_bool(0.05),
            drain_mode: drain,
            deadlock_threshold: cfg.deadlock_threshold,
            conn: conn.clone(),
            progress: rng.gen_bool(0.1),
            store_done: (o_req.store_req && rng.gen_bool(cfg.done_prob)) || stray,
            restore_done: o_req.restore_req && rng.gen_bool(cfg.done_prob),
        };
        {
            let u = &mut h.uut;
            u.reset.next = reset;
            u.switch_valid.next = i.switch_valid;
            u.drain_mode.next = i.drain_mode;
            u.deadlock_threshold.next = bits::<16>(i.deadlock_threshold as u64);
            for (g, f) in i.conn.iter().enumerate() {
                u.conn_halted[g].next = f.halted;
                u.conn_empty[g].next = f.empty;
                u.conn_not_stalled[g].next = f.not_stalled;
                u.conn_not_quiescent[g].next = f.not_quiescent;
            }
            u.progress.next = i.progress;
            u.store_done.next = i.store_done;
            u.restore_done.next = i.restore_done;
        }
        h.settle().map_err(|e| e.to_string())?;
        let want = model.outputs(&i);
        let u = &h.uut;
        let got = super::golden::MonitorOut {
            switch_ready: u.switch_ready.val(),
            cmd_halt: u.cmd_halt.val(),
            cmd_reset: u.cmd_reset.val(),
            store_req: u.store_req.val(),
            restore_req: u.restore_req.val(),
            feed_stop: u.feed_stop.val(),
            phase: u.phase.val().to_u64(),
            all_halted_seen: u.all_halted_seen.val(),
            deadlock: u.deadlock.val(),
            line_resume: u.line_resume.val().to_u64(),
            line_reset: u.line_reset.val().to_u64(),
            violation: u.violation.val(),
        };
        if got != want {
            return Err(format!(
                "cycle {}: monitor outputs {:?}, the model {:?}",
                cycle, got, want
            ));
        }
        if !run.phases_seen.contains(&got.phase) {
            run.phases_seen.push(got.phase);
        }
        if got.switch_ready && i.switch_valid && !reset {
            run.switches += 1;
        }
        if got.deadlock && !reset {
            run.deadlocks += 1;
        }
        model.clock(&i, reset);
        h.step().map_err(|e| e.to_string())?;
    }
    run.ports = finish_waves(h, out, monitor_groups)?;
    Ok(run)
}

/// The GTKWave groups of a front-end monitor VCD (`vars` from the VCD).
fn monitor_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let t = "front_end_monitor";
    vec![
        Group::new("control").sigs(
            t,
            &[
                "clock",
                "reset",
                "drain_mode",
                "switch_valid",
                "switch_ready",
                "phase",
            ],
            vars,
        ),
        Group::new("roll-up").sigs(
            t,
            &[
                "conn_halted$0",
                "conn_halted$1",
                "conn_empty$0",
                "conn_not_quiescent$0",
                "all_halted_seen",
            ],
            vars,
        ),
        Group::new("commands").sigs(t, &["cmd_halt", "cmd_reset", "feed_stop"], vars),
        Group::new("context store").sigs(
            t,
            &[
                "store_req",
                "store_done",
                "restore_req",
                "restore_done",
                "violation",
            ],
            vars,
        ),
        Group::new("watchdog").sigs(
            t,
            &["progress", "deadlock", "line_resume", "line_reset"],
            vars,
        ),
    ]
}

/// Check a front-end monitor VCD written by a status-system run (`SystemConfig::vcd`) and write
/// its GTKWave save file, the view opening at `from_cycle`.
pub fn monitor_save_file(vcd: &Path, from_cycle: u64) -> Result<(), String> {
    let summary = crate::vcd::checker::check_vcd(vcd)?;
    let start = crate::harness::PERIOD * from_cycle;
    crate::vcd::gtkw::write_beside_from(
        vcd,
        start,
        summary.end_time,
        &monitor_groups(&summary.vars),
    )
    .map_err(|e| e.to_string())
}
