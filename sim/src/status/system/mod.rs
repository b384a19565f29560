//! System simulation of unit status reporting (SPEC ST-4..ST-8): a pipeline of behavioural
//! processing units around the status RTL.
//!
//! RTL, stepped in one cycle harness every cycle: the
//! [`StatusCluster`](ppu_hdl::status::status_cluster::StatusCluster) — one status FSM per
//! unit, the roll-up tree, the command tree and the front-end monitor — built for
//! [`MAX_UNITS`] units (unused units sit in no connection, see no activity and stay EMPTY).
//! Behavioural around it:
//!
//! - unit i: input queue ([`IN_QUEUE`] entries) → optional gather (collects `gather` items into
//!   one batch, so that they make one memory access) → memory access of `mem_latency` cycles
//!   (one outstanding; the memory answers NACK with probability [`NACK_PROB`], after which the
//!   unit backs off [`NACK_RETRY`] cycles and retries) → processing pipeline of `latency` cycles
//!   (one item enters per cycle) → output buffer of `out_buffer` entries → unit i+1's input queue
//!   (the last unit's output leaves the pipeline). Its ST-2 inputs are derived from these: e.g.
//!   `pending` is a partial gather or a batch waiting for memory, `can_halt` is "no memory
//!   request outstanding" (everything else is state that can be stored).
//! - a unit that sees `halt` freezes: no transfer in or out, no processing, no new memory
//!   request; only an outstanding memory request completes. A unit that sees its reset command
//!   clears all of its state. A unit that sees `resume` while QUIESCENT (ST-7: the resume is for
//!   the quiescent unit; the line reaches its whole connection) flushes a partial gather as a
//!   batch and retries a NACKed access at once; in any other state it ignores it, as its ST-3
//!   state machine does.
//! - the front end feeds the current context's work items into unit 0 (one per cycle, unless
//!   `feed_stop`), consumes the last unit's output (reporting `progress`), and hands context-switch
//!   commands to the monitor; when the running context has no work left and another has, it
//!   switches by itself. The monitor's `progress` input is "the front end fed a work item into
//!   the pipeline or took one out of it this cycle" (what a front end can see without more
//!   wires): a pipeline that is merely back-pressured still moves work at its ends.
//! - the context store: on `store_req` it saves every unit's state for the running context, on
//!   `restore_req` it loads the next context's saved state. Reading: a unit's state is 1 word
//!   plus 1 per work item it holds, and the words of all units go through memory: a store or
//!   restore takes [`STORE_BASE`] + ceil(`store_cycles_per_word` x words) cycles, so a drained
//!   pipeline (every unit empty) stores less than a halted one.
//!
//! Invariants checked while running (a failure is [`RunError::Violation`]): every work item of
//! every context leaves the pipeline exactly once and in order (ST-8); all units HALTED within
//! [`HALT_LIMIT`] cycles of the halt request (ST-6); the monitor's `violation` output never
//! rises.
//!
//! `SystemConfig::vcd` records the whole cluster: every unit's FSM, the roll-up tree, the
//! command tree and the monitor (top scope `status_cluster`).
//!
//! Files: `config.rs` (limits, configuration, results), `pipeline.rs` (the behavioural units),
//! `front_end.rs` (feeder, contexts, switch commands, context store, switch records),
//! `cluster_io.rs` (driving and observing the cluster), `tracer.rs` (trace events); this file
//! runs them cycle by cycle.
use crate::scenario::RunError;
use crate::status::golden::{ClusterIn, State, UnitActivity};
use crate::trace::TraceWriter;
use cluster_io::{ClusterPort, MonitorView};
use front_end::FrontEnd;
use pipeline::{Pipeline, UnitCommands};
use serde_json::json;
use std::collections::VecDeque;
use tracer::Tracer;

mod cluster_io;
mod config;
mod front_end;
mod pipeline;
mod tracer;

pub use config::*;

/// Run the system; events go to `trace` when given.
pub fn run(cfg: &SystemConfig, trace: Option<&mut TraceWriter>) -> Result<SystemResult, RunError> {
    match cfg.tree_stages {
        1 => run_s::<1>(cfg, trace),
        2 => run_s::<2>(cfg, trace),
        3 => run_s::<3>(cfg, trace),
        4 => run_s::<4>(cfg, trace),
        n => Err(RunError::invalid(
            "config.tree_stages",
            format!("{} is not in 1..=4", n),
        )),
    }
}

fn run_s<const S: usize>(
    cfg: &SystemConfig,
    trace: Option<&mut TraceWriter>,
) -> Result<SystemResult, RunError> {
    let n = cfg.units.len();
    if n == 0 || n > MAX_UNITS {
        return Err(RunError::invalid("config.units", "must be 1..=32"));
    }
    let mut sys = System::<S>::new(cfg, Tracer(trace))?;
    let mut cycle = 0;
    while sys.cycle(cycle)? {
        cycle += 1;
    }
    sys.finish(cycle)
}

/// One run: the RTL cluster, the behavioural pipeline and the front end, cycle by cycle.
struct System<'c, 't, const S: usize> {
    cfg: &'c SystemConfig,
    cluster: ClusterPort<S>,
    pipeline: Pipeline,
    front: FrontEnd,
    /// Each unit's state as its FSM reports it.
    states: Vec<State>,
    /// The units' states of the last `S` + 1 cycles, oldest first: the monitor sees the
    /// states of cycle c - `S` in cycle c (the roll-up's latency).
    history: VecDeque<Vec<State>>,
    /// The last cycle the monitor issued a command into the command tree (a pulse in flight
    /// until it has reached the units `S` cycles later).
    last_command: Option<u64>,
    /// The last cycle a unit took or delivered an item or its memory answered.
    last_progress: u64,
    res: SystemResult,
    trace: Tracer<'t>,
}

impl<'c, 't, const S: usize> System<'c, 't, S> {
    fn new(cfg: &'c SystemConfig, trace: Tracer<'t>) -> Result<Self, RunError> {
        Ok(System {
            cfg,
            cluster: ClusterPort::new(cfg)?,
            pipeline: Pipeline::new(&cfg.units, cfg.seed),
            front: FrontEnd::new(&cfg.contexts, &cfg.commands),
            states: vec![State::Empty; cfg.units.len()],
            history: VecDeque::new(),
            last_command: None,
            last_progress: 0,
            res: SystemResult::default(),
            trace,
        })
    }

    /// One cycle; returns false once the run is over (before anything happens in `cycle`).
    fn cycle(&mut self, cycle: u64) -> Result<bool, RunError> {
        let reset = cycle == 0;
        self.history.push_back(self.states.clone());
        if self.history.len() > S + 1 {
            self.history.pop_front();
        }
        // A. Commands reaching the units this cycle (tree registers).
        let cmds = self.cluster.commands();
        // ST-7: "the monitor sends `resume` to the quiescent unit". The command line reaches
        // every unit of the connection (its roll-up does not say which unit is quiescent); a
        // unit acts on it only while QUIESCENT, as its ST-3 state machine does (resume is in
        // the QUIESCENT row only), so the others neither flush nor show a `resume` event.
        let quiescent = self
            .states
            .iter()
            .enumerate()
            .filter(|(_, st)| **st == State::Quiescent)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        let cmds = UnitCommands {
            resume: cmds.resume & quiescent,
            ..cmds
        };
        // B. Front end: work finished? new switch commands? context store.
        let monitor_phase = self.cluster.phase();
        if self.finished(cycle, monitor_phase)? {
            return Ok(false);
        }
        self.front
            .next_switch(cycle, monitor_phase, self.pipeline.drained());
        let (store_done, restore_done) = self.front.context_store(
            monitor_phase,
            self.pipeline.units(),
            self.cfg.store_cycles_per_word,
        );
        // C. Behavioural units.
        let (units, progress) = self.run_units(cycle, reset, cmds)?;
        if progress != 0 {
            self.last_progress = cycle;
        }
        // D. The cluster's inputs settle; the front end reacts to the monitor.
        let m = self.cluster.drive(&ClusterIn {
            reset,
            units,
            switch_valid: self.front.switch_valid() && !reset,
            drain_mode: self.cfg.drain,
            deadlock_threshold: self.cfg.deadlock_threshold,
            progress,
            store_done,
            restore_done,
        })?;
        self.observe_monitor(cycle, &m)?;
        self.context_store_events(cycle, &m, store_done, restore_done)?;
        // E. Clock edge.
        self.cluster.step()?;
        self.observe_states(cycle)?;
        self.front.watch_halt(cycle, &self.states, self.cfg.drain)?;
        Ok(true)
    }

    /// Whether the run is over: every work item out, no switch asked for or under way and no
    /// command in flight in the tree; or, as quiet, nothing left to feed, nothing in the
    /// pipeline and nothing in a stored context, but work missing (it was lost; the ST-8 check
    /// at the end says which). Running out of cycles is an error.
    fn finished(&self, cycle: u64, monitor_phase: u64) -> Result<bool, RunError> {
        // A command pulse still travelling down the tree has not happened yet.
        let in_flight = self.last_command.is_some_and(|c| cycle <= c + S as u64);
        let quiet = self.front.quiet(monitor_phase) && !in_flight;
        if self.front.all_done() && quiet {
            return Ok(true);
        }
        if quiet && self.front.all_fed_none_saved() && self.pipeline.drained() {
            return Ok(true);
        }
        // Nothing moved for long and nothing will: no switch command left, the monitor idle.
        // With the watchdog on it would have acted within its threshold; a run whose watchdog
        // is off (or cannot help) stops here with the waiting units named, not after
        // its cycle cap.
        let stall_limit = STALL_CYCLES + 4 * self.cfg.deadlock_threshold as u64;
        if quiet && cycle > self.last_progress + stall_limit {
            return Err(RunError::Violation(self.stall_message(cycle, stall_limit)));
        }
        let limit = self.cfg.max_cycles;
        if cycle >= limit {
            return Err(RunError::Violation(format!(
                "the run did not finish within {} cycles, the cap its scenario allows, while \
                 work items still moved",
                limit
            )));
        }
        Ok(false)
    }

    /// Why a run that stopped moving cannot finish (ST-7): the units still waiting.
    fn stall_message(&self, cycle: u64, stall_limit: u64) -> String {
        let waiting: Vec<String> = self
            .states
            .iter()
            .enumerate()
            .filter(|(_, st)| matches!(st, State::Quiescent | State::Stalled))
            .map(|(i, st)| format!("unit {} {}", i, st.name()))
            .collect();
        format!(
            "cycle {}: no work item moved for {} cycles and no switch is left ({}); {}",
            cycle,
            stall_limit,
            if waiting.is_empty() {
                "no unit QUIESCENT or STALLED".to_string()
            } else {
                waiting.join(", ")
            },
            if self.cfg.deadlock_threshold == 0 {
                "the watchdog is off (deadlock_threshold 0), so no deadlock is removed (ST-7)"
            } else {
                "the watchdog did not remove the deadlock (ST-7)"
            }
        )
    }

    /// The behavioural units' cycle under the commands `cmds`, and the feeder's; returns the
    /// units' ST-2 activity (sampled before anything moved) and which units moved work
    /// (`progress`, bit i = unit i took or delivered an item or its memory answered).
    fn run_units(
        &mut self,
        cycle: u64,
        reset: bool,
        cmds: UnitCommands,
    ) -> Result<(Vec<UnitActivity>, u64), RunError> {
        let feed_stop = self.cluster.feed_stop();
        let feeder_offer = self.front.feeder_offer(feed_stop);
        let draining = self.cfg.drain && feed_stop;
        let view = self.pipeline.view(cmds, feeder_offer, reset, draining);
        for i in 0..self.states.len() {
            if cmds.resume(i) {
                self.res.resumes += 1;
                let st = self.states[i];
                self.trace
                    .ev(cycle, "resume", || json!({"unit": i, "state": st.name()}))?;
            }
        }
        if let Some(item) = self.pipeline.move_outputs(&view, cmds, reset) {
            self.front.output(item, cycle)?;
            self.res.outputs += 1;
            let (ctx, idx) = item;
            self.trace
                .ev(cycle, "output", || json!({"context": ctx, "item": idx}))?;
        }
        self.pipeline
            .advance(&view, cmds, reset, &mut self.res.nacks);
        if feeder_offer && view.ready[0] && !reset {
            let item = self.front.take_feed();
            self.pipeline.feed(item);
        }
        Ok((view.activity, self.pipeline.take_progress()))
    }

    /// The monitor's view of this cycle: a violation ends the run; the switch command taken,
    /// all halted seen, a watchdog firing and the resets it sends are traced.
    fn observe_monitor(&mut self, cycle: u64, m: &MonitorView) -> Result<(), RunError> {
        if m.violation {
            return Err(RunError::Violation(format!(
                "cycle {}: front-end monitor violation",
                cycle
            )));
        }
        let protocol = self.cfg.protocol();
        if m.switch_taken {
            let (from, to) = self.front.start_switch(cycle);
            self.trace.ev(
                cycle,
                "halt_request",
                || json!({"from": from, "to": to, "protocol": protocol}),
            )?;
        }
        if m.all_halted_seen {
            self.front.all_halted_seen(cycle);
            self.trace
                .ev(cycle, "all_halted", || json!({"protocol": protocol}))?;
        }
        if m.deadlock {
            self.res.watchdog_actions += 1;
            self.deadlock_events(cycle, m)?;
        }
        if m.cmd_halt || m.cmd_reset || m.line_resume != 0 || m.line_reset != 0 {
            self.last_command = Some(cycle);
        }
        Ok(())
    }

    /// The units the monitor acted on, per connection that fired: the monitor sees the
    /// states of cycle `cycle` - `S` (the roll-up's latency), so a connection it resumes had a
    /// QUIESCENT unit then, and one it resets a STALLED unit (its stalled chain); each of those
    /// units gets a `deadlock` event with that state, the state the monitor acted on. A
    /// connection fired without such a unit is a violation (the RTL acted on a state no unit
    /// was in). The commands are in flight until they reach the units.
    fn deadlock_events(&mut self, cycle: u64, m: &MonitorView) -> Result<(), RunError> {
        let seen = self.history.front().cloned().unwrap_or_default();
        for (g, &members) in self.cfg.groups.iter().enumerate() {
            let (want, action) = if m.line_resume & members != 0 {
                (State::Quiescent, "resume")
            } else if m.line_reset & members != 0 {
                (State::Stalled, "reset")
            } else {
                continue;
            };
            let named: Vec<usize> = (0..seen.len())
                .filter(|&i| members & (1u64 << i) != 0 && seen[i] == want)
                .collect();
            if named.is_empty() || self.history.len() <= S {
                return Err(RunError::Violation(format!(
                    "cycle {}: the watchdog acted ({}) on connection {}, but none of its units \
                     was {} {} cycles before (ST-7)",
                    cycle, action, g, want, S
                )));
            }
            self.res.deadlocks += named.len() as u64;
            for &i in &named {
                self.trace.ev(
                    cycle,
                    "deadlock",
                    || json!({"unit": i, "state": want.name(), "action": action}),
                )?;
            }
            if action == "reset" {
                self.trace
                    .ev(cycle, "reset", || json!({"scope": "chain", "units": named}))?;
            }
        }
        Ok(())
    }

    /// The context store's side of the switch, and its reset: a finished store saves the
    /// running context; the broadcast reset is traced (the watchdog's chain resets are traced
    /// with its `deadlock` events); a
    /// finished restore loads the next context, releases the halt and records the switch.
    fn context_store_events(
        &mut self,
        cycle: u64,
        m: &MonitorView,
        store_done: bool,
        restore_done: bool,
    ) -> Result<(), RunError> {
        if store_done {
            let (c, words) = self.front.store(self.pipeline.units());
            self.trace.ev(
                cycle,
                "context_store",
                || json!({"context": c, "cycles_per_unit_max": words}),
            )?;
        }
        if m.cmd_reset {
            self.trace.ev(cycle, "reset", || json!({"scope": "all"}))?;
        }
        if restore_done {
            let (units, record) = self.front.restore(self.states.len(), cycle);
            self.pipeline.replace(units);
            let c = self.front.current();
            self.trace
                .ev(cycle, "context_restore", || json!({"context": c}))?;
            self.trace
                .ev(cycle, "halt_release", || json!({"context": c}))?;
            self.res.switches.extend(record);
        }
        Ok(())
    }

    /// After the edge: every state change a unit reports is traced.
    fn observe_states(&mut self, cycle: u64) -> Result<(), RunError> {
        for i in 0..self.states.len() {
            let (st, code) = self.cluster.state(i)?;
            if st != self.states[i] {
                self.states[i] = st;
                self.trace.ev(
                    cycle,
                    "state",
                    || json!({"unit": i, "state": st.name(), "code": code}),
                )?;
            }
        }
        Ok(())
    }

    /// The run ended before `cycle`: check that no work was lost (ST-8) and flush the waves.
    fn finish(mut self, cycle: u64) -> Result<SystemResult, RunError> {
        self.front.check_complete(self.res.outputs)?;
        self.res.cycles = cycle;
        self.cluster.finish()?;
        Ok(self.res)
    }
}
