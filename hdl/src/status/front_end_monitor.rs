//! `FrontEndMonitor` — the front end's side of unit status reporting (SPEC ST-5, ST-7): it
//! sequences a context switch from the rolled-up status, and watches for deadlocks.
//!
//! Context switch (ST-5), one `phase` per step:
//!
//! | phase | code | drives | leaves when |
//! | --- | --- | --- | --- |
//! | IDLE | 0 | `switch_ready` | `switch_valid` (the switch command is taken) |
//! | WAIT | 1 | `cmd_halt` (halt protocol) or nothing (drain protocol), `feed_stop` | the roll-up shows all halted (drain: all empty), trusted only once a round trip (2·TREE_STAGES+1 cycles) has passed since WAIT began |
//! | STORE | 2 | `cmd_halt`, `store_req`, `feed_stop` | `store_done` |
//! | RESET | 3 | `cmd_halt`, `cmd_reset`, `feed_stop` | after one cycle |
//! | RESET_WAIT | 4 | `cmd_halt`, `feed_stop` | `TREE_STAGES` cycles (the reset has reached every unit) |
//! | RESTORE | 5 | `cmd_halt`, `restore_req`, `feed_stop` | `restore_done` |
//! | RELEASE | 6 | nothing (halt dropped) | a round trip, so no stale "all halted" is seen by the next switch |
//!
//! With `drain_mode` high the monitor runs the prior-art protocol that ST-9 compares against:
//! no halt; the front end stops feeding (`feed_stop`) and waits until every unit reports EMPTY.
//! `drain_mode` is sampled throughout (a configuration register, keep it steady during a switch).
//!
//! Deadlock watchdog (ST-7), per roll-up connection g: a counter runs while the connection
//! shows a QUIESCENT unit (`conn_not_quiescent[g]` low) or a STALLED unit (`conn_not_stalled[g]`
//! low) and connection g does not move: none of its own units reports `progress` (bit i: unit i
//! took or delivered a work item, or its memory answered) and its own four flags are the same
//! as in the previous cycle. Progress elsewhere never clears g's counter, so a live pipeline
//! cannot mask a deadlock in another connection. When the counter has reached
//! `deadlock_threshold` the monitor pulses the per-unit lines of g's units for one cycle:
//! `line_resume` if g shows a QUIESCENT unit (the quiescent unit is resumed; ST-3 lets only a
//! QUIESCENT unit act on resume), otherwise `line_reset` (the stalled chain: the
//! [`super::status_cluster::StatusCluster`] lets a unit take this reset only while it reports
//! STALLED, so the reset reaches the stalled units of g and no other), raises `deadlock`, and
//! g's counter starts again from 0. Several connections may fire in the same cycle. The
//! watchdog runs in IDLE, and in WAIT of the drain protocol (a safety net: the draining
//! pipeline flushes its partial gathers by itself); not while halt is held.
//! `deadlock_threshold` 0 disables it; choose it above a round trip (2·TREE_STAGES+2) so that
//! the effect of one action is reported before the next can fire.
//!
//! Parameters: `N` units (1..=32), `G` connections (1..=N), `TREE_STAGES` (1..=8). The units
//! of each connection are fixed at construction ([`FrontEndMonitor::new`], the same masks as
//! the [`super::rollup_tree::RollupTree`]).
//!
//! Ports: `clock`, `reset` (synchronous: IDLE, counters cleared); `switch_valid`/`switch_ready`
//! (the context-switch command channel, no payload: which context comes next is the context
//! store's business); `drain_mode`, `deadlock_threshold` (16 bits) configuration inputs;
//! `conn_halted[g]`, `conn_empty[g]`, `conn_not_stalled[g]`, `conn_not_quiescent[g]` from the
//! roll-up tree; `progress` (`Bits<N>`, bit i: unit i moved work this cycle);
//! `store_req`/`store_done`,
//! `restore_req`/`restore_done` (level request, one-cycle done from the context store);
//! outputs `cmd_halt`, `cmd_reset` (broadcast, into the command tree), `line_resume`,
//! `line_reset` (`Bits<N>`, per-unit lines), `feed_stop`, `phase` (3 bits, table above),
//! `all_halted_seen` (one cycle: WAIT ends), `deadlock` (one cycle: a watchdog fired),
//! `violation` (a done without its request).
//!
//! Timing: all outputs are decoded from registers (phase, counters) and the current inputs;
//! the minimum halt latency seen by the front end is 2·TREE_STAGES+1 cycles.
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct FrontEndMonitor<const N: usize, const G: usize, const TREE_STAGES: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub switch_valid: Signal<In, Bit>,
    pub switch_ready: Signal<Out, Bit>,
    pub drain_mode: Signal<In, Bit>,
    pub deadlock_threshold: Signal<In, Bits<16>>,
    pub conn_halted: [Signal<In, Bit>; G],
    pub conn_empty: [Signal<In, Bit>; G],
    pub conn_not_stalled: [Signal<In, Bit>; G],
    pub conn_not_quiescent: [Signal<In, Bit>; G],
    pub progress: Signal<In, Bits<N>>,
    pub store_req: Signal<Out, Bit>,
    pub store_done: Signal<In, Bit>,
    pub restore_req: Signal<Out, Bit>,
    pub restore_done: Signal<In, Bit>,
    pub cmd_halt: Signal<Out, Bit>,
    pub cmd_reset: Signal<Out, Bit>,
    pub line_resume: Signal<Out, Bits<N>>,
    pub line_reset: Signal<Out, Bits<N>>,
    pub feed_stop: Signal<Out, Bit>,
    pub phase: Signal<Out, Bits<3>>,
    pub all_halted_seen: Signal<Out, Bit>,
    pub deadlock: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    /// The current phase, driving `phase`.
    phase_reg: DFF<Bits<3>>,
    /// Cycles since the current timed phase (WAIT, RESET_WAIT, RELEASE) began, saturating at
    /// `phase_cycles_max`.
    phase_cycles: DFF<Bits<8>>,
    /// Per connection, the cycles its watchdog condition has held, and whether that count
    /// has reached `deadlock_threshold` (registered beside it: compared one count early
    /// against `threshold_minus_one`, so the firing decision is no compare).
    watchdog_cycles: [DFF<Bits<16>>; G],
    watchdog_reached: [DFF<Bit>; G],
    threshold_minus_one: DFF<Bits<16>>,
    /// Last cycle's roll-up flags, to see status changes.
    previous_conn_halted: [DFF<Bit>; G],
    previous_conn_empty: [DFF<Bit>; G],
    previous_conn_not_stalled: [DFF<Bit>; G],
    previous_conn_not_quiescent: [DFF<Bit>; G],
    /// Connection g (the one the watchdog loop is at) moves this cycle: one of its units
    /// reports `progress`, or its flags changed since the previous cycle.
    conn_moving: Signal<Local, Bit>,
    all_halted_now: Signal<Local, Bit>,
    all_empty_now: Signal<Local, Bit>,
    target_met: Signal<Local, Bit>,
    watchdog_enable: Signal<Local, Bit>,
    watchdog_fired: Signal<Local, Bit>,
    line_resume_acc: Signal<Local, Bits<N>>,
    line_reset_acc: Signal<Local, Bits<N>>,
    members: [Constant<Bits<N>>; G],
    round_trip: Constant<Bits<8>>,
    reset_settle: Constant<Bits<8>>,
    phase_cycles_max: Constant<Bits<8>>,
    /// The phase codes ([`phase`]), named in the Verilog too.
    phase_idle: Constant<Bits<3>>,
    phase_wait: Constant<Bits<3>>,
    phase_store: Constant<Bits<3>>,
    phase_reset: Constant<Bits<3>>,
    phase_reset_wait: Constant<Bits<3>>,
    phase_restore: Constant<Bits<3>>,
    phase_release: Constant<Bits<3>>,
}

impl<const N: usize, const G: usize, const TREE_STAGES: usize> FrontEndMonitor<N, G, TREE_STAGES> {
    /// A monitor whose connection g carries the units set in `chains[g]`.
    pub fn new(chains: &[u64]) -> Self {
        assert!((1..=32).contains(&N), "FrontEndMonitor: N must be 1..=32");
        assert!((1..=N).contains(&G), "FrontEndMonitor: G must be 1..=N");
        assert!(
            (1..=8).contains(&TREE_STAGES),
            "FrontEndMonitor: TREE_STAGES must be 1..=8"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            switch_valid: Default::default(),
            switch_ready: Default::default(),
            drain_mode: Default::default(),
            deadlock_threshold: Default::default(),
            conn_halted: std::array::from_fn(|_| Default::default()),
            conn_empty: std::array::from_fn(|_| Default::default()),
            conn_not_stalled: std::array::from_fn(|_| Default::default()),
            conn_not_quiescent: std::array::from_fn(|_| Default::default()),
            progress: Default::default(),
            store_req: Default::default(),
            store_done: Default::default(),
            restore_req: Default::default(),
            restore_done: Default::default(),
            cmd_halt: Default::default(),
            cmd_reset: Default::default(),
            line_resume: Default::default(),
            line_reset: Default::default(),
            feed_stop: Default::default(),
            phase: Default::default(),
            all_halted_seen: Default::default(),
            deadlock: Default::default(),
            violation: Default::default(),
            phase_reg: Default::default(),
            phase_cycles: Default::default(),
            watchdog_cycles: std::array::from_fn(|_| Default::default()),
            watchdog_reached: std::array::from_fn(|_| Default::default()),
            threshold_minus_one: Default::default(),
            previous_conn_halted: std::array::from_fn(|_| Default::default()),
            previous_conn_empty: std::array::from_fn(|_| Default::default()),
            previous_conn_not_stalled: std::array::from_fn(|_| Default::default()),
            previous_conn_not_quiescent: std::array::from_fn(|_| Default::default()),
            conn_moving: Default::default(),
            all_halted_now: Default::default(),
            all_empty_now: Default::default(),
            target_met: Default::default(),
            watchdog_enable: Default::default(),
            watchdog_fired: Default::default(),
            line_resume_acc: Default::default(),
            line_reset_acc: Default::default(),
            members: std::array::from_fn(|g| {
                Constant::new(bits::<N>(chains.get(g).copied().unwrap_or(0)))
            }),
            round_trip: Constant::new(bits::<8>(2 * TREE_STAGES as u64 + 1)),
            reset_settle: Constant::new(bits::<8>(TREE_STAGES as u64)),
            phase_cycles_max: Constant::new(bits::<8>(PHASE_CYCLES_MAX)),
            phase_idle: Constant::new(bits::<3>(phase::IDLE)),
            phase_wait: Constant::new(bits::<3>(phase::WAIT)),
            phase_store: Constant::new(bits::<3>(phase::STORE)),
            phase_reset: Constant::new(bits::<3>(phase::RESET)),
            phase_reset_wait: Constant::new(bits::<3>(phase::RESET_WAIT)),
            phase_restore: Constant::new(bits::<3>(phase::RESTORE)),
            phase_release: Constant::new(bits::<3>(phase::RELEASE)),
        }
    }
}

/// Where `phase_cycles` saturates.
pub const PHASE_CYCLES_MAX: u64 = 255;

/// Phase codes of [`FrontEndMonitor`] (its `phase` output).
pub mod phase {
    pub const IDLE: u64 = 0;
    pub const WAIT: u64 = 1;
    pub const STORE: u64 = 2;
    pub const RESET: u64 = 3;
    pub const RESET_WAIT: u64 = 4;
    pub const RESTORE: u64 = 5;
    pub const RELEASE: u64 = 6;
}

impl<const N: usize, const G: usize, const TREE_STAGES: usize> Logic
    for FrontEndMonitor<N, G, TREE_STAGES>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase_reg, phase_cycles, threshold_minus_one);
        self.threshold_minus_one.d.next = self.deadlock_threshold.val() - bits::<16>(1);
        // Front-end AND of the roll-up connections.
        self.all_halted_now.next = true;
        self.all_empty_now.next = true;
        for g in 0..G {
            self.all_halted_now.next = self.all_halted_now.val() & self.conn_halted[g].val();
            self.all_empty_now.next = self.all_empty_now.val() & self.conn_empty[g].val();
        }
        if self.drain_mode.val() {
            self.target_met.next = self.all_empty_now.val();
        } else {
            self.target_met.next = self.all_halted_now.val();
        }
        // Defaults.
        self.phase.next = self.phase_reg.q.val();
        self.switch_ready.next = false;
        self.cmd_halt.next = false;
        self.cmd_reset.next = false;
        self.store_req.next = false;
        self.restore_req.next = false;
        self.feed_stop.next = false;
        self.all_halted_seen.next = false;
        self.violation.next = false;
        self.watchdog_enable.next = false;
        if self.phase_cycles.q.val() != self.phase_cycles_max.val() {
            self.phase_cycles.d.next = self.phase_cycles.q.val() + bits::<8>(1);
        }
        // Context-switch sequence (ST-5).
        if self.phase_reg.q.val() == self.phase_idle.val() {
            self.switch_ready.next = true;
            self.watchdog_enable.next = true;
            if self.switch_valid.val() {
                self.phase_reg.d.next = self.phase_wait.val();
                self.phase_cycles.d.next = bits::<8>(0);
            }
        } else if self.phase_reg.q.val() == self.phase_wait.val() {
            self.cmd_halt.next = !self.drain_mode.val();
            self.watchdog_enable.next = self.drain_mode.val();
            self.feed_stop.next = true;
            if (self.phase_cycles.q.val() >= self.round_trip.val()) & self.target_met.val() {
                self.all_halted_seen.next = true;
                self.phase_reg.d.next = self.phase_store.val();
            }
        } else if self.phase_reg.q.val() == self.phase_store.val() {
            self.cmd_halt.next = !self.drain_mode.val();
            self.feed_stop.next = true;
            self.store_req.next = true;
            if self.store_done.val() {
                self.phase_reg.d.next = self.phase_reset.val();
            }
        } else if self.phase_reg.q.val() == self.phase_reset.val() {
            self.cmd_halt.next = !self.drain_mode.val();
            self.feed_stop.next = true;
            self.cmd_reset.next = true;
            self.phase_reg.d.next = self.phase_reset_wait.val();
            self.phase_cycles.d.next = bits::<8>(0);
        } else if self.phase_reg.q.val() == self.phase_reset_wait.val() {
            self.cmd_halt.next = !self.drain_mode.val();
            self.feed_stop.next = true;
            if self.phase_cycles.q.val() >= self.reset_settle.val() {
                self.phase_reg.d.next = self.phase_restore.val();
            }
        } else if self.phase_reg.q.val() == self.phase_restore.val() {
            self.cmd_halt.next = !self.drain_mode.val();
            self.feed_stop.next = true;
            self.restore_req.next = true;
            if self.restore_done.val() {
                self.phase_reg.d.next = self.phase_release.val();
                self.phase_cycles.d.next = bits::<8>(0);
            }
        } else if self.phase_reg.q.val() == self.phase_release.val() {
            if self.phase_cycles.q.val() >= self.round_trip.val() {
                self.phase_reg.d.next = self.phase_idle.val();
            }
        } else {
            self.phase_reg.d.next = self.phase_idle.val();
        }
        self.violation.next = (self.store_done.val() & !self.store_req.val())
            | (self.restore_done.val() & !self.restore_req.val());
        // Deadlock watchdog (ST-7), one counter per connection, each with its own progress.
        self.line_resume_acc.next = bits::<N>(0);
        self.line_reset_acc.next = bits::<N>(0);
        self.watchdog_fired.next = false;
        for g in 0..G {
            self.previous_conn_halted[g].clock.next = self.clock.val();
            self.previous_conn_empty[g].clock.next = self.clock.val();
            self.previous_conn_not_stalled[g].clock.next = self.clock.val();
            self.previous_conn_not_quiescent[g].clock.next = self.clock.val();
            self.watchdog_cycles[g].clock.next = self.clock.val();
            self.watchdog_reached[g].clock.next = self.clock.val();
            self.previous_conn_halted[g].d.next = self.conn_halted[g].val();
            self.previous_conn_empty[g].d.next = self.conn_empty[g].val();
            self.previous_conn_not_stalled[g].d.next = self.conn_not_stalled[g].val();
            self.previous_conn_not_quiescent[g].d.next = self.conn_not_quiescent[g].val();
            self.conn_moving.next = (self.progress.val() & self.members[g].val()).any()
                | (self.previous_conn_halted[g].q.val() != self.conn_halted[g].val())
                | (self.previous_conn_empty[g].q.val() != self.conn_empty[g].val())
                | (self.previous_conn_not_stalled[g].q.val() != self.conn_not_stalled[g].val())
                | (self.previous_conn_not_quiescent[g].q.val() != self.conn_not_quiescent[g].val());
            self.watchdog_cycles[g].d.next = bits::<16>(0);
            self.watchdog_reached[g].d.next = false;
            if self.watchdog_enable.val()
                & !self.conn_moving.val()
                & (self.deadlock_threshold.val() != bits::<16>(0))
                & (!self.conn_not_quiescent[g].val() | !self.conn_not_stalled[g].val())
            {
                if self.watchdog_reached[g].q.val() {
                    self.watchdog_fired.next = true;
                    if !self.conn_not_quiescent[g].val() {
                        self.line_resume_acc.next =
                            self.line_resume_acc.val() | self.members[g].val();
                    } else {
                        self.line_reset_acc.next =
                            self.line_reset_acc.val() | self.members[g].val();
                    }
                } else {
                    self.watchdog_cycles[g].d.next =
                        self.watchdog_cycles[g].q.val() + bits::<16>(1);
                    // count + 1 >= threshold (threshold >= 1 while the watchdog runs).
                    self.watchdog_reached[g].d.next =
                        self.watchdog_cycles[g].q.val() >= self.threshold_minus_one.q.val();
                }
            }
            if self.reset.val() {
                self.previous_conn_halted[g].d.next = false;
                self.previous_conn_empty[g].d.next = false;
                self.previous_conn_not_stalled[g].d.next = false;
                self.previous_conn_not_quiescent[g].d.next = false;
                self.watchdog_cycles[g].d.next = bits::<16>(0);
                self.watchdog_reached[g].d.next = false;
            }
        }
        self.line_resume.next = self.line_resume_acc.val();
        self.line_reset.next = self.line_reset_acc.val();
        self.deadlock.next = self.watchdog_fired.val();
        if self.reset.val() {
            self.phase_reg.d.next = self.phase_idle.val();
            self.phase_cycles.d.next = bits::<8>(0);
        }
    }
}
