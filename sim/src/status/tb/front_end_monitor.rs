//! Testbench driver of [`FrontEndMonitor`] (SPEC ST-5, ST-7): a random environment of roll-up
//! flags, switch commands, per-unit progress and context-store acknowledgements; every output of
//! every cycle judged by [`MonitorModel`] (the ST-5 sequence and the ST-7 rule, written from the
//! SPEC).
use crate::harness::PortTrace;
use crate::status::golden::{Flags, MonitorIn, MonitorModel, MonitorOut, State, Step};
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::status::front_end_monitor::FrontEndMonitor;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

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

/// The random environment of the monitor: roll-up flags that drift towards the protocol's
/// target while a switch waits, switch commands, progress and acknowledgements.
struct MonitorEnv {
    rng: ChaCha8Rng,
    drain: bool,
    conn: Vec<Flags>,
    /// Units behind the connections (the width of `progress`).
    units: usize,
}

impl MonitorEnv {
    fn new(cfg: &MonitorTb, connections: usize, units: usize) -> Self {
        MonitorEnv {
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            drain: cfg.drain_mode.unwrap_or(false),
            conn: vec![State::Empty.flags(); connections],
            units,
        }
    }

    /// This cycle's reset and inputs.
    fn next(&mut self, cycle: u64, cfg: &MonitorTb, model: &MonitorModel) -> (bool, MonitorIn) {
        let rng = &mut self.rng;
        let reset = cycle == 0 || rng.gen_bool(0.002);
        if cfg.drain_mode.is_none() && model.step == Step::Idle && rng.gen_bool(0.02) {
            self.drain = !self.drain;
        }
        let drain = self.drain;
        let waiting = model.step != Step::Idle;
        for f in self.conn.iter_mut() {
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
        // The requests the monitor holds this cycle, as the checker follows the sequence.
        let store_req = model.step == Step::Storing;
        let restore_req = model.step == Step::Restoring;
        let stray = rng.gen_bool(0.003);
        let i = MonitorIn {
            switch_valid: rng.gen_bool(0.05),
            drain_mode: drain,
            deadlock_threshold: cfg.deadlock_threshold,
            conn: self.conn.clone(),
            progress: if rng.gen_bool(0.1) {
                1u64 << rng.gen_range(0..self.units)
            } else {
                0
            },
            store_done: (store_req && rng.gen_bool(cfg.done_prob)) || stray,
            restore_done: restore_req && rng.gen_bool(cfg.done_prob),
        };
        (reset, i)
    }
}

fn set_monitor_inputs<const N: usize, const G: usize, const S: usize>(
    u: &mut FrontEndMonitor<N, G, S>,
    reset: bool,
    i: &MonitorIn,
) {
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
    u.progress.next = bits::<N>(i.progress);
    u.store_done.next = i.store_done;
    u.restore_done.next = i.restore_done;
}

fn monitor_outputs<const N: usize, const G: usize, const S: usize>(
    u: &FrontEndMonitor<N, G, S>,
) -> MonitorOut {
    MonitorOut {
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
    }
}

/// Drive a [`FrontEndMonitor`] from a random environment (switch commands, roll-up flags that
/// go all-halted some time after halt is raised, progress, store/restore acknowledgements and
/// rare stray acknowledgements) and have [`MonitorModel`] judge every output every cycle.
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
    let mut env = MonitorEnv::new(cfg, G, N);
    let mut model = MonitorModel::new(chains, S);
    let mut run = MonitorRun::default();
    for cycle in 0..cfg.cycles {
        let (reset, i) = env.next(cycle, cfg, &model);
        set_monitor_inputs(&mut h.uut, reset, &i);
        h.settle().map_err(|e| e.to_string())?;
        let got = monitor_outputs(&h.uut);
        model
            .check(&i, &got, reset)
            .map_err(|e| format!("cycle {}: {} (inputs {:?})", cycle, e, i))?;
        if !run.phases_seen.contains(&got.phase) {
            run.phases_seen.push(got.phase);
        }
        if got.switch_ready && i.switch_valid && !reset {
            run.switches += 1;
        }
        if got.deadlock && !reset {
            run.deadlocks += 1;
        }
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
