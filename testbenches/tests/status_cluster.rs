//! StatusCluster testbench (ST-1..ST-7): the composed block against its four unit types
//! (StatusFsm, RollupTree, CommandTree, FrontEndMonitor) stepped as separate harnesses and wired
//! by hand, every output every cycle; its random testbench against the composed golden models;
//! a directed context switch with waves (waves/status_cluster.vcd).
//! Lint and co-simulation of the exported `status_cluster`: tests/verilog.rs.
use ppu_hdl::status::code;
use ppu_hdl::status::command_tree::CommandTree;
use ppu_hdl::status::front_end_monitor::{phase, FrontEndMonitor};
use ppu_hdl::status::rollup_tree::RollupTree;
use ppu_hdl::status::status_cluster::StatusCluster;
use ppu_hdl::status::status_fsm::StatusFsm;
use ppu_sim::harness::Harness;
use ppu_sim::repo_root;
use ppu_sim::status::golden::UnitCommand;
use ppu_sim::status::golden::{ClusterIn, ClusterOut, Flags, MonitorOut, UnitActivity};
use ppu_sim::status::tb::status_cluster::{
    check_cluster_outputs, cluster_outputs, set_cluster_inputs, SWITCH_AT, SWITCH_MEM_WAIT,
};
use ppu_sim::status::tb::{run_cluster_switch, run_status_cluster, ClusterTb, REF_CHAINS};
use ppu_sim::tb::TbOutput;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// The four unit types in separate harnesses, wired by hand as the system simulation wired
/// them before the cluster existed.
struct Parts<const N: usize, const G: usize, const S: usize> {
    fsms: Vec<Harness<StatusFsm>>,
    tree: Harness<RollupTree<N, G, S>>,
    cmd: Harness<CommandTree<N, S>>,
    mon: Harness<FrontEndMonitor<N, G, S>>,
}

fn bit(v: u64, i: usize) -> bool {
    v & (1u64 << i) != 0
}

impl<const N: usize, const G: usize, const S: usize> Parts<N, G, S> {
    fn new(chains: &[u64]) -> Self {
        Parts {
            fsms: (0..N)
                .map(|_| Harness::new(StatusFsm::default(), |u, c| u.clock.next = c.into()))
                .collect(),
            tree: Harness::new(RollupTree::new(chains), |u, c| u.clock.next = c.into()),
            cmd: Harness::new(CommandTree::default(), |u, c| u.clock.next = c.into()),
            mon: Harness::new(FrontEndMonitor::new(chains), |u, c| u.clock.next = c.into()),
        }
    }

    /// Settle one cycle's inputs through the parts in dependency order; their outputs.
    fn settle(&mut self, i: &ClusterIn) -> ClusterOut {
        let c = &self.cmd.uut;
        let (halt, line_or_broadcast, resume) = (
            c.unit_halt.val().to_u64(),
            c.unit_reset.val().to_u64(),
            c.unit_resume.val().to_u64(),
        );
        // A unit takes the broadcast reset always, a watchdog line only while STALLED.
        let broadcast = c.unit_reset_broadcast.val();
        let reset = (0..N)
            .filter(|&k| {
                broadcast
                    || (bit(line_or_broadcast, k)
                        && self.fsms[k].uut.status.val().to_u64() == code::STALLED)
            })
            .fold(0u64, |a, k| a | 1 << k);
        let m = &mut self.mon.uut;
        m.reset.next = i.reset;
        m.switch_valid.next = i.switch_valid;
        m.drain_mode.next = i.drain_mode;
        m.deadlock_threshold.next = bits::<16>(i.deadlock_threshold as u64);
        for g in 0..G {
            m.conn_halted[g].next = self.tree.uut.conn_halted[g].val();
            m.conn_empty[g].next = self.tree.uut.conn_empty[g].val();
            m.conn_not_stalled[g].next = self.tree.uut.conn_not_stalled[g].val();
            m.conn_not_quiescent[g].next = self.tree.uut.conn_not_quiescent[g].val();
        }
        m.progress.next = bits::<N>(i.progress);
        m.store_done.next = i.store_done;
        m.restore_done.next = i.restore_done;
        self.mon.settle().unwrap();
        let m = &self.mon.uut;
        let c = &mut self.cmd.uut;
        c.reset.next = i.reset;
        c.cmd_halt.next = m.cmd_halt.val();
        c.cmd_reset.next = m.cmd_reset.val();
        c.cmd_resume.next = false;
        c.line_reset.next = m.line_reset.val();
        c.line_resume.next = m.line_resume.val();
        self.cmd.settle().unwrap();
        let mut flags = [0u64; 4];
        let mut violation = 0u64;
        for (k, f) in self.fsms.iter_mut().enumerate() {
            let a = i.units[k];
            let u = &mut f.uut;
            u.reset.next = i.reset || bit(reset, k);
            u.halt.next = bit(halt, k);
            u.resume.next = bit(resume, k);
            u.in_active.next = a.in_active;
            u.busy.next = a.busy;
            u.out_valid.next = a.out_valid;
            u.out_blocked.next = a.out_blocked;
            u.mem_pending.next = a.mem_pending;
            u.pending.next = a.pending;
            u.nack.next = a.nack;
            u.can_halt.next = a.can_halt;
            f.settle().unwrap();
            let u = &f.uut;
            for (x, b) in flags.iter_mut().zip([
                u.halted.val(),
                u.empty.val(),
                u.not_stalled.val(),
                u.not_quiescent.val(),
            ]) {
                if b {
                    *x |= 1 << k;
                }
            }
            if u.violation.val() {
                violation |= 1 << k;
            }
        }
        let t = &mut self.tree.uut;
        t.reset.next = i.reset;
        t.halted_in.next = bits::<N>(flags[0]);
        t.empty_in.next = bits::<N>(flags[1]);
        t.not_stalled_in.next = bits::<N>(flags[2]);
        t.not_quiescent_in.next = bits::<N>(flags[3]);
        self.tree.settle().unwrap();
        self.outputs(halt, reset, resume, violation)
    }

    fn outputs(&self, halt: u64, reset: u64, resume: u64, unit_violation: u64) -> ClusterOut {
        let m = &self.mon.uut;
        let t = &self.tree.uut;
        ClusterOut {
            commands: (0..N)
                .map(|k| UnitCommand {
                    halt: bit(halt, k),
                    reset: bit(reset, k),
                    resume: bit(resume, k),
                })
                .collect(),
            status: self
                .fsms
                .iter()
                .map(|f| f.uut.status.val().to_u64())
                .collect(),
            unit_violation,
            rollup: Flags {
                halted: t.all_halted.val(),
                empty: t.all_empty.val(),
                not_stalled: t.none_stalled.val(),
                not_quiescent: t.none_quiescent.val(),
            },
            monitor: MonitorOut {
                switch_ready: m.switch_ready.val(),
                cmd_halt: m.cmd_halt.val(),
                cmd_reset: m.cmd_reset.val(),
                store_req: m.store_req.val(),
                restore_req: m.restore_req.val(),
                feed_stop: m.feed_stop.val(),
                phase: m.phase.val().to_u64(),
                all_halted_seen: m.all_halted_seen.val(),
                deadlock: m.deadlock.val(),
                line_resume: m.line_resume.val().to_u64(),
                line_reset: m.line_reset.val().to_u64(),
                violation: m.violation.val(),
            },
        }
    }

    fn step(&mut self) {
        self.mon.step().unwrap();
        self.cmd.step().unwrap();
        self.tree.step().unwrap();
        for f in self.fsms.iter_mut() {
            f.step().unwrap();
        }
    }
}

/// Random stimulus: wandering activity, switch commands, store/restore dones when asked (and
/// rarely stray ones), drain mode now and then, and frozen spells (activity held, no progress,
/// no switch) in which units sit QUIESCENT or STALLED until the watchdog acts.
struct Stimulus {
    rng: ChaCha8Rng,
    units: Vec<UnitActivity>,
    frozen_for: u32,
    drain: bool,
    threshold: u16,
}

impl Stimulus {
    fn new(seed: u64, n: usize, threshold: u16) -> Self {
        Stimulus {
            rng: ChaCha8Rng::seed_from_u64(seed),
            units: vec![UnitActivity::default(); n],
            frozen_for: 0,
            drain: false,
            threshold,
        }
    }

    fn next(&mut self, cycle: u64, phase_now: u64) -> ClusterIn {
        let r = &mut self.rng;
        let idle = phase_now == phase::IDLE;
        if idle && r.gen_bool(0.01) {
            self.drain = !self.drain;
        }
        if self.frozen_for > 0 {
            self.frozen_for -= 1;
        } else if idle && r.gen_bool(0.015) {
            self.frozen_for = 4 * self.threshold as u32 + 20;
            for a in self.units.iter_mut() {
                *a = match r.gen_range(0..3) {
                    // QUIESCENT from any state but EMPTY.
                    0 => UnitActivity {
                        pending: true,
                        can_halt: true,
                        ..UnitActivity::default()
                    },
                    // STALLED, again and again after each chain reset.
                    1 => UnitActivity {
                        in_active: true,
                        out_valid: true,
                        out_blocked: true,
                        can_halt: true,
                        ..UnitActivity::default()
                    },
                    _ => UnitActivity::default(),
                };
            }
        } else {
            for a in self.units.iter_mut() {
                if r.gen_bool(0.3) {
                    let v: u16 = r.gen();
                    *a = UnitActivity {
                        in_active: v & 1 != 0,
                        busy: v & 2 != 0,
                        out_valid: v & 4 != 0,
                        out_blocked: v & 8 != 0 && v & 16 != 0,
                        mem_pending: v & 32 != 0 && v & 64 != 0,
                        pending: v & 128 != 0,
                        nack: v & 256 != 0 && v & 512 != 0,
                        can_halt: v & 1024 != 0 || v & 2048 != 0,
                    };
                }
            }
        }
        let frozen = self.frozen_for > 0;
        let r = &mut self.rng;
        let stray = r.gen_bool(0.002);
        ClusterIn {
            reset: cycle == 0 || r.gen_bool(0.001),
            units: self.units.clone(),
            switch_valid: !frozen && r.gen_bool(0.04),
            drain_mode: self.drain,
            deadlock_threshold: self.threshold,
            progress: if !frozen && r.gen_bool(0.1) {
                1u64 << r.gen_range(0..self.units.len())
            } else {
                0
            },
            store_done: (phase_now == phase::STORE && r.gen_bool(0.25)) || stray,
            restore_done: phase_now == phase::RESTORE && r.gen_bool(0.25),
        }
    }
}

/// What the equivalence run covered.
#[derive(Debug, Default)]
struct Coverage {
    switches: u64,
    deadlocks: u64,
    line_resets: u64,
    line_resumes: u64,
    unit_resets: u64,
    halted_all: u64,
    violations: u64,
    phases: Vec<u64>,
}

/// Step the cluster and its hand-wired parts side by side for `cycles` cycles; every output of
/// every cycle must be equal.
fn equivalence<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    seed: u64,
    cycles: u64,
) -> Coverage {
    let mut cluster = Harness::new(StatusCluster::<N, G, S>::new(chains), |u, c| {
        u.clock.next = c.into()
    });
    let mut parts = Parts::<N, G, S>::new(chains);
    let mut stim = Stimulus::new(seed, N, 2 * S as u16 + 3);
    let mut cov = Coverage::default();
    for cycle in 0..cycles {
        let i = stim.next(cycle, parts.mon.uut.phase.val().to_u64());
        set_cluster_inputs(&mut cluster.uut, &i);
        cluster.settle().unwrap();
        let got = cluster_outputs(&cluster.uut, N);
        let want = parts.settle(&i);
        if let Err(e) = check_cluster_outputs(&got, &want, "the parts") {
            panic!(
                "N={} G={} S={} seed {} cycle {}: cluster against its parts: {}",
                N, G, S, seed, cycle, e
            );
        }
        let m = &got.monitor;
        cov.switches += (i.switch_valid && m.switch_ready && !i.reset) as u64;
        cov.deadlocks += m.deadlock as u64;
        cov.line_resets += (m.line_reset != 0) as u64;
        cov.line_resumes += (m.line_resume != 0) as u64;
        cov.unit_resets += got.commands.iter().any(|c| c.reset && !c.halt) as u64;
        cov.halted_all += got.status.iter().all(|&s| s == code::HALTED) as u64;
        cov.violations += (m.violation || got.unit_violation != 0) as u64;
        if !cov.phases.contains(&m.phase) {
            cov.phases.push(m.phase);
        }
        cluster.step().unwrap();
        parts.step();
    }
    cov
}

fn assert_covered(cov: &Coverage) {
    assert!(cov.switches >= 3, "{:?}", cov);
    assert!(cov.deadlocks >= 2, "{:?}", cov);
    assert!(cov.line_resets >= 1 && cov.line_resumes >= 1, "{:?}", cov);
    assert!(cov.unit_resets >= 1, "{:?}", cov);
    assert!(cov.halted_all >= 1, "{:?}", cov);
    assert!(cov.violations >= 1, "{:?}", cov);
    assert_eq!(cov.phases.len(), 7, "{:?}", cov);
}

#[test]
fn st5_cluster_equals_its_four_parts_wired_by_hand_8_units_4_chains_3_stages() {
    for seed in 0..2 {
        let cov = equivalence::<8, 4, 3>(&REF_CHAINS, seed, 4000);
        assert_covered(&cov);
    }
}

#[test]
fn st5_cluster_equals_its_four_parts_wired_by_hand_5_units_2_chains_4_stages() {
    for seed in 0..2 {
        let cov = equivalence::<5, 2, 4>(&[0b00111, 0b11000], seed, 4000);
        assert_covered(&cov);
    }
}

#[test]
fn st7_random_cluster_matches_the_composed_golden_models() {
    for seed in 1..3 {
        let cfg = ClusterTb {
            cycles: 3000,
            seed,
            ..ClusterTb::default()
        };
        let run = run_status_cluster::<8, 4, 3>(&REF_CHAINS, &cfg, &TbOutput::default())
            .unwrap_or_else(|e| panic!("seed {}: {}", seed, e));
        assert!(run.switches().len() >= 3, "seed {}", seed);
        assert!(run.deadlocks().len() >= 2, "seed {}", seed);
    }
    let cfg = ClusterTb {
        cycles: 2000,
        seed: 3,
        deadlock_threshold: 11,
        ..ClusterTb::default()
    };
    let run =
        run_status_cluster::<6, 3, 4>(&[0b000011, 0b001100, 0b110000], &cfg, &TbOutput::default())
            .unwrap();
    assert!(!run.switches().is_empty());
}

/// The first cycle at or after `from` in which `f` holds.
fn first(run: &ppu_sim::status::tb::ClusterRun, from: u64, f: impl Fn(&ClusterOut) -> bool) -> u64 {
    (from as usize..run.outputs.len())
        .find(|&c| f(&run.outputs[c]))
        .unwrap_or_else(|| panic!("never after cycle {}", from)) as u64
}

#[test]
fn st5_directed_context_switch_halts_stores_resets_restores_and_releases() {
    const S: u64 = 3;
    let vcd = repo_root().join("waves").join("status_cluster.vcd");
    let run = run_cluster_switch::<8, 4, 3>(
        &REF_CHAINS,
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
            engine: ppu_sim::verilator::Engine::Harness,
        },
    )
    .unwrap();
    // The phases of ST-5, in order, once each.
    let mut phases: Vec<u64> = run.outputs.iter().map(|o| o.monitor.phase).collect();
    phases.dedup();
    assert_eq!(
        phases,
        [
            phase::IDLE,
            phase::WAIT,
            phase::STORE,
            phase::RESET,
            phase::RESET_WAIT,
            phase::RESTORE,
            phase::RELEASE,
            phase::IDLE
        ]
    );
    assert_eq!(run.switches(), [SWITCH_AT]);
    // The halt is raised the cycle after the switch is taken and reaches every unit
    // TREE_STAGES cycles later, all in the same cycle.
    let halt = first(&run, 0, |o| o.monitor.cmd_halt);
    assert_eq!(halt, SWITCH_AT + 1);
    let seen = first(&run, 0, |o| o.commands.iter().any(|c| c.halt));
    assert_eq!(seen, halt + S);
    assert!(run.outputs[seen as usize].commands.iter().all(|c| c.halt));
    // Units without memory outstanding halt at once; unit 2 waits for its memory access.
    let unit0 = first(&run, 0, |o| o.status[0] == code::HALTED);
    let unit2 = first(&run, 0, |o| o.status[2] == code::HALTED);
    assert_eq!(unit0, seen + 1);
    assert_eq!(unit2, seen + SWITCH_MEM_WAIT + 1);
    // The front end trusts "all halted" only after the roll-up carried it back.
    let all = first(&run, 0, |o| o.status.iter().all(|&s| s == code::HALTED));
    assert_eq!(all, unit2);
    let rolled = first(&run, 0, |o| o.rollup.halted);
    assert_eq!(rolled, all + S);
    let trusted = first(&run, 0, |o| o.monitor.all_halted_seen);
    assert_eq!(trusted, rolled.max(halt + 2 * S + 1));
    assert_eq!(
        run.outputs[trusted as usize + 1].monitor.phase,
        phase::STORE
    );
    // The reset reaches every unit TREE_STAGES cycles after it is issued: EMPTY, then HALTED
    // again under the halt still held.
    let reset = first(&run, 0, |o| o.monitor.cmd_reset);
    let unit_reset = first(&run, 0, |o| o.commands.iter().any(|c| c.reset));
    assert_eq!(unit_reset, reset + S);
    assert!(run.outputs[unit_reset as usize]
        .commands
        .iter()
        .all(|c| c.reset && c.halt));
    let o = &run.outputs[unit_reset as usize + 1];
    assert!(o.status.iter().all(|&s| s == code::EMPTY), "{:?}", o.status);
    let o = &run.outputs[unit_reset as usize + 2];
    assert!(
        o.status.iter().all(|&s| s == code::HALTED),
        "{:?}",
        o.status
    );
    // Restore, then the halt is dropped and the units work again.
    let restore = first(&run, 0, |o| o.monitor.restore_req);
    assert!(restore > unit_reset);
    let release = first(&run, restore, |o| o.monitor.phase == phase::RELEASE);
    assert!(!run.outputs[release as usize].monitor.cmd_halt);
    let unhalted = first(&run, release, |o| o.commands.iter().all(|c| !c.halt));
    assert_eq!(unhalted, release + S);
    let o = &run.outputs[unhalted as usize + 1];
    assert!(
        o.status.iter().all(|&s| s == code::ACTIVE),
        "{:?}",
        o.status
    );
    // Nothing went wrong on the way.
    assert!(run
        .outputs
        .iter()
        .all(|o| !o.monitor.violation && !o.monitor.deadlock && o.unit_violation == 0));
}
