//! Testbench driver of [`StatusCluster`] (SPEC ST-1..ST-7): every output compared every cycle
//! with [`ClusterModel`] (the golden models of the FSM, the roll-up, the monitor and the
//! command tree, wired as the cluster wires the RTL), under a random environment or a directed
//! context switch; the cluster's GTKWave groups, also used for the status system's waves.
use crate::harness::PortTrace;
use crate::status::golden::{ClusterIn, ClusterModel, ClusterOut, Flags, Step, UnitActivity};
use crate::status::golden::{MonitorOut, UnitCommand};
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::status::status_cluster::StatusCluster;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::path::Path;

/// Set the cluster's inputs of one cycle; units beyond `i.units` see no activity (and cannot
/// halt: they stay EMPTY).
pub fn set_cluster_inputs<const N: usize, const G: usize, const S: usize>(
    u: &mut StatusCluster<N, G, S>,
    i: &ClusterIn,
) {
    let mut v = [0u64; 8];
    for (k, a) in i.units.iter().enumerate() {
        let flags = [
            a.in_active,
            a.busy,
            a.out_valid,
            a.out_blocked,
            a.mem_pending,
            a.pending,
            a.nack,
            a.can_halt,
        ];
        for (x, f) in v.iter_mut().zip(flags) {
            if f {
                *x |= 1 << k;
            }
        }
    }
    u.reset.next = i.reset;
    u.in_active.next = bits::<N>(v[0]);
    u.busy.next = bits::<N>(v[1]);
    u.out_valid.next = bits::<N>(v[2]);
    u.out_blocked.next = bits::<N>(v[3]);
    u.mem_pending.next = bits::<N>(v[4]);
    u.pending.next = bits::<N>(v[5]);
    u.nack.next = bits::<N>(v[6]);
    u.can_halt.next = bits::<N>(v[7]);
    u.switch_valid.next = i.switch_valid;
    u.drain_mode.next = i.drain_mode;
    u.deadlock_threshold.next = bits::<16>(i.deadlock_threshold as u64);
    u.progress.next = bits::<N>(i.progress);
    u.store_done.next = i.store_done;
    u.restore_done.next = i.restore_done;
}

/// The settled outputs of the cluster's first `units` units and its front end.
pub fn cluster_outputs<const N: usize, const G: usize, const S: usize>(
    u: &StatusCluster<N, G, S>,
    units: usize,
) -> ClusterOut {
    let (halt, reset, resume) = (
        u.unit_halt.val().to_u64(),
        u.unit_reset.val().to_u64(),
        u.unit_resume.val().to_u64(),
    );
    ClusterOut {
        commands: (0..units)
            .map(|k| UnitCommand {
                halt: halt & (1 << k) != 0,
                reset: reset & (1 << k) != 0,
                resume: resume & (1 << k) != 0,
            })
            .collect(),
        status: (0..units).map(|k| u.status[k].val().to_u64()).collect(),
        unit_violation: u.unit_violation.val().to_u64(),
        rollup: Flags {
            halted: u.all_halted.val(),
            empty: u.all_empty.val(),
            not_stalled: u.none_stalled.val(),
            not_quiescent: u.none_quiescent.val(),
        },
        monitor: MonitorOut {
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
        },
    }
}

/// Compare the cluster's outputs with those of a reference (`reference` names it in the
/// message, e.g. "the model"); the message names the first difference.
pub fn check_cluster_outputs(
    got: &ClusterOut,
    want: &ClusterOut,
    reference: &str,
) -> Result<(), String> {
    if got.commands.len() != want.commands.len() || got.status.len() != want.status.len() {
        return Err(format!(
            "{} units against {} of {}",
            got.status.len(),
            want.status.len(),
            reference
        ));
    }
    for (k, (g, w)) in got.commands.iter().zip(&want.commands).enumerate() {
        if g != w {
            return Err(format!(
                "unit {} receives {:?}, {} {:?}",
                k, g, reference, w
            ));
        }
    }
    for (k, (g, w)) in got.status.iter().zip(&want.status).enumerate() {
        if g != w {
            return Err(format!(
                "unit {} reports status {}, {} {}",
                k, g, reference, w
            ));
        }
    }
    if got.unit_violation != want.unit_violation {
        return Err(format!(
            "unit_violation {:#x}, {} {:#x}",
            got.unit_violation, reference, want.unit_violation
        ));
    }
    if got.rollup != want.rollup {
        return Err(format!(
            "roll-up {:?}, {} {:?}",
            got.rollup, reference, want.rollup
        ));
    }
    if got.monitor != want.monitor {
        return Err(format!(
            "monitor outputs {:?}, {} {:?}",
            got.monitor, reference, want.monitor
        ));
    }
    Ok(())
}

/// What a cluster testbench saw: every cycle's inputs and (checked) outputs.
#[derive(Debug, Clone, Default)]
pub struct ClusterRun {
    pub inputs: Vec<ClusterIn>,
    pub outputs: Vec<ClusterOut>,
    pub ports: Option<PortTrace>,
}

impl ClusterRun {
    /// Cycles in which the monitor took a switch command.
    pub fn switches(&self) -> Vec<u64> {
        self.cycles_where(|i, o| !i.reset && i.switch_valid && o.monitor.switch_ready)
    }
    /// Cycles in which a watchdog fired.
    pub fn deadlocks(&self) -> Vec<u64> {
        self.cycles_where(|i, o| !i.reset && o.monitor.deadlock)
    }
    /// Cycles in which `f(inputs, outputs)` holds.
    pub fn cycles_where(&self, f: impl Fn(&ClusterIn, &ClusterOut) -> bool) -> Vec<u64> {
        (0..self.outputs.len())
            .filter(|&c| f(&self.inputs[c], &self.outputs[c]))
            .map(|c| c as u64)
            .collect()
    }
}

/// Step a [`StatusCluster`] for `cycles` cycles with the inputs `env(cycle, model)` gives and
/// compare every output every cycle with [`ClusterModel`].
pub fn run_cluster<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    cycles: u64,
    out: &TbOutput,
    mut env: impl FnMut(u64, &ClusterModel) -> ClusterIn,
) -> Result<ClusterRun, String> {
    let mut h = harness(
        StatusCluster::<N, G, S>::new(chains),
        |u, c| u.clock.next = c.into(),
        out,
        "status_cluster",
    )?;
    let mut model = ClusterModel::new(chains, N, S);
    let mut run = ClusterRun::default();
    for cycle in 0..cycles {
        let i = env(cycle, &model);
        set_cluster_inputs(&mut h.uut, &i);
        h.settle().map_err(|e| e.to_string())?;
        let got = cluster_outputs(&h.uut, N);
        model
            .check(&i, &got)
            .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        h.step().map_err(|e| e.to_string())?;
        run.inputs.push(i);
        run.outputs.push(got);
    }
    run.ports = finish_waves(h, out, |vars| cluster_groups(vars, N))?;
    Ok(run)
}

/// Random environment of the cluster testbench.
#[derive(Debug, Clone)]
pub struct ClusterTb {
    pub cycles: u64,
    pub seed: u64,
    /// Drain protocol (prior art) instead of halting; `None`: changes at random.
    pub drain_mode: Option<bool>,
    pub deadlock_threshold: u16,
    /// Probability per cycle that the context store acknowledges a pending request.
    pub done_prob: f64,
}

impl Default for ClusterTb {
    fn default() -> Self {
        ClusterTb {
            cycles: 1500,
            seed: 1,
            drain_mode: None,
            deadlock_threshold: 9,
            done_prob: 0.2,
        }
    }
}

/// The random environment: units whose activity wanders (rarely inconsistent), switch
/// commands, context-store acknowledgements (rarely a stray one), and spells in which the
/// units freeze with one of them waiting (QUIESCENT) or blocked (STALLED) and nothing
/// progresses, until the watchdog acts.
struct ClusterEnv {
    rng: ChaCha8Rng,
    drain: bool,
    units: Vec<UnitActivity>,
    /// Cycles left of a frozen spell.
    frozen_for: u64,
    /// The unit a frozen spell is about, and the cycles it still receives input to start.
    frozen_unit: usize,
    kick_for: u64,
}

fn random_activity(rng: &mut ChaCha8Rng, halting: bool) -> UnitActivity {
    let mem_pending = rng.gen_bool(if halting { 0.1 } else { 0.25 });
    let out_valid = rng.gen_bool(0.3);
    UnitActivity {
        in_active: rng.gen_bool(0.3),
        busy: rng.gen_bool(0.25),
        out_valid,
        out_blocked: rng.gen_bool(if out_valid { 0.4 } else { 0.03 }),
        mem_pending,
        pending: rng.gen_bool(0.25),
        nack: rng.gen_bool(0.1),
        can_halt: !mem_pending || rng.gen_bool(0.1),
    }
}

impl ClusterEnv {
    fn new(cfg: &ClusterTb, units: usize) -> Self {
        ClusterEnv {
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            drain: cfg.drain_mode.unwrap_or(false),
            units: vec![UnitActivity::default(); units],
            frozen_for: 0,
            frozen_unit: 0,
            kick_for: 0,
        }
    }

    fn freeze(&mut self, cfg: &ClusterTb) {
        let k = self.rng.gen_range(0..self.units.len());
        let stalled = self.rng.gen_bool(0.5);
        for a in self.units.iter_mut() {
            *a = UnitActivity {
                can_halt: true,
                ..UnitActivity::default()
            };
        }
        // A unit reaches QUIESCENT or STALLED only from ACTIVE: in_active first.
        self.units[k] = UnitActivity {
            in_active: true,
            out_valid: stalled,
            out_blocked: stalled,
            pending: !stalled,
            can_halt: true,
            ..UnitActivity::default()
        };
        self.frozen_unit = k;
        self.kick_for = 2;
        self.frozen_for = 3 * cfg.deadlock_threshold as u64 + 30;
    }

    fn next(&mut self, cycle: u64, cfg: &ClusterTb, model: &ClusterModel) -> ClusterIn {
        let reset = cycle == 0 || self.rng.gen_bool(0.002);
        let idle = model.monitor.step == Step::Idle;
        if cfg.drain_mode.is_none() && idle && self.rng.gen_bool(0.02) {
            self.drain = !self.drain;
        }
        if self.frozen_for > 0 {
            self.frozen_for -= 1;
            if self.kick_for > 0 {
                self.kick_for -= 1;
                self.units[self.frozen_unit].in_active = self.kick_for > 0;
            }
        } else if idle && self.rng.gen_bool(0.01) {
            self.freeze(cfg);
        } else {
            for a in self.units.iter_mut() {
                if self.rng.gen_bool(0.3) {
                    *a = random_activity(&mut self.rng, !idle);
                }
            }
        }
        let frozen = self.frozen_for > 0;
        let stray = self.rng.gen_bool(0.003);
        ClusterIn {
            reset,
            units: self.units.clone(),
            switch_valid: !frozen && self.rng.gen_bool(0.05),
            drain_mode: self.drain,
            deadlock_threshold: cfg.deadlock_threshold,
            progress: if !frozen && self.rng.gen_bool(0.1) {
                1u64 << self.rng.gen_range(0..self.units.len())
            } else {
                0
            },
            store_done: (model.monitor.step == Step::Storing && self.rng.gen_bool(cfg.done_prob))
                || stray,
            restore_done: model.monitor.step == Step::Restoring && self.rng.gen_bool(cfg.done_prob),
        }
    }
}

/// Drive a [`StatusCluster`] from the random environment of `cfg` and compare every output
/// every cycle with [`ClusterModel`].
pub fn run_status_cluster<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    cfg: &ClusterTb,
    out: &TbOutput,
) -> Result<ClusterRun, String> {
    let mut env = ClusterEnv::new(cfg, N);
    run_cluster::<N, G, S>(chains, cfg.cycles, out, |cycle, model| {
        env.next(cycle, cfg, model)
    })
}

/// Cycles of the directed context switch.
pub const SWITCH_CYCLES: u64 = 70;
/// The cycle the directed context switch is commanded.
pub const SWITCH_AT: u64 = 8;
/// Unit 2's memory access outstanding when the halt reaches it: it halts this many cycles
/// after the others.
pub const SWITCH_MEM_WAIT: u64 = 5;
/// Cycles the context store takes to acknowledge a store or a restore.
pub const SWITCH_STORE_CYCLES: u64 = 4;

/// A directed context switch (ST-5): every unit works (unit 2 with a memory access that keeps
/// it from halting for [`SWITCH_MEM_WAIT`] cycles after the halt reaches it), the switch is
/// commanded in cycle [`SWITCH_AT`], the store and the restore take
/// [`SWITCH_STORE_CYCLES`] cycles each, and the units work again after the release. Every
/// output is compared every cycle with [`ClusterModel`].
pub fn run_cluster_switch<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    out: &TbOutput,
) -> Result<ClusterRun, String> {
    let mut halt_seen: Option<u64> = None;
    let mut in_phase = 0u64;
    let mut last_phase = Step::Idle;
    run_cluster::<N, G, S>(chains, SWITCH_CYCLES, out, |cycle, model| {
        if model.commands.output().first().is_some_and(|c| c.halt) {
            halt_seen.get_or_insert(cycle);
        }
        let memory_busy = halt_seen.map_or(cycle >= 2, |h| cycle < h + SWITCH_MEM_WAIT);
        in_phase = if model.monitor.step == last_phase {
            in_phase + 1
        } else {
            0
        };
        last_phase = model.monitor.step;
        let working = UnitActivity {
            in_active: true,
            busy: true,
            out_valid: true,
            can_halt: true,
            ..UnitActivity::default()
        };
        let mut units = vec![working; N];
        if N > 2 {
            units[2].mem_pending = memory_busy;
            units[2].can_halt = !memory_busy;
        }
        let acknowledge = in_phase + 1 == SWITCH_STORE_CYCLES;
        ClusterIn {
            reset: cycle == 0,
            units,
            switch_valid: cycle == SWITCH_AT,
            drain_mode: false,
            deadlock_threshold: 0,
            progress: (1u64 << N) - 1,
            store_done: model.monitor.step == Step::Storing && acknowledge,
            restore_done: model.monitor.step == Step::Restoring && acknowledge,
        }
    })
}

/// The GTKWave groups of a status cluster VCD showing its first `units` units: the switch
/// sequence (the monitor's phase), the commands to the units, their status codes, the roll-up,
/// the context store and the watchdog.
pub fn cluster_groups(vars: &[(String, u32)], units: usize) -> Vec<Group> {
    let t = "status_cluster";
    let status: Vec<String> = (0..units).map(|k| format!("status${}", k)).collect();
    let status: Vec<&str> = status.iter().map(String::as_str).collect();
    vec![
        Group::new("front end").sigs(
            t,
            &[
                "clock",
                "reset",
                "drain_mode",
                "switch_valid",
                "switch_ready",
                "phase",
                "feed_stop",
            ],
            vars,
        ),
        Group::new("commands to the units").sigs(
            t,
            &[
                "cmd_halt",
                "cmd_reset",
                "unit_halt",
                "unit_reset",
                "unit_resume",
            ],
            vars,
        ),
        Group::new("unit status").sigs(t, &status, vars),
        Group::new("roll-up").sigs(
            t,
            &[
                "all_halted",
                "all_empty",
                "none_stalled",
                "none_quiescent",
                "all_halted_seen",
            ],
            vars,
        ),
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
            &[
                "progress",
                "deadlock",
                "line_resume",
                "line_reset",
                "unit_violation",
            ],
            vars,
        ),
    ]
}

/// Check a status cluster VCD written by a status-system run (`SystemConfig::vcd`) of `units`
/// units and write its GTKWave save file, the view opening at `from_cycle`.
pub fn system_save_file(vcd: &Path, from_cycle: u64, units: usize) -> Result<(), String> {
    let summary = crate::vcd::checker::check_vcd(vcd)?;
    let start = crate::harness::PERIOD * from_cycle;
    crate::vcd::gtkw::write_beside_from(
        vcd,
        start,
        summary.end_time,
        &cluster_groups(&summary.vars, units),
    )
    .map_err(|e| e.to_string())
}
