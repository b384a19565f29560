//! System simulation of unit status reporting (SPEC ST-4..ST-8): a pipeline of behavioural
//! processing units around the status RTL.
//!
//! RTL, stepped in the cycle harness every cycle: one [`StatusFsm`] per unit, the
//! [`RollupTree`], the [`CommandTree`] and the [`FrontEndMonitor`] (each built for up to
//! [`MAX_UNITS`] units; unused units sit in no connection). Behavioural around them:
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
//!   clears all of its state. A unit that sees `resume` flushes a partial gather as a batch and
//!   retries a NACKed access at once.
//! - the front end feeds the current context's work items into unit 0 (one per cycle, unless
//!   `feed_stop`), consumes the last unit's output (reporting `progress`), and hands context-switch
//!   commands to the monitor; when the running context has no work left and another has, it
//!   switches by itself. The monitor's `progress` input is "the front end fed a work item into
//!   the pipeline or took one out of it this cycle" (what a front end can see without more
//!   wires): a pipeline that is merely back-pressured still moves work at its ends.
//! - the context store: on `store_req` it saves every unit's state for the running context, on
//!   `restore_req` it loads the next context's saved state. Reading: each unit saves and
//!   restores its own state in parallel (the seed's "stored locally within each processing
//!   unit"), one word per cycle: a store or restore takes [`STORE_BASE`] + max over units of
//!   (1 + items the unit holds) cycles.
//!
//! Invariants checked while running (a failure is [`RunError::Violation`]): every work item of
//! every context leaves the pipeline exactly once and in order (ST-8); all units HALTED within
//! [`HALT_LIMIT`] cycles of the halt request (ST-6); no RTL `violation` output rises.
use super::golden::State;
use crate::harness::Harness;
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use ppu_hdl::status::command_tree::CommandTree;
use ppu_hdl::status::front_end_monitor::{phase, FrontEndMonitor};
use ppu_hdl::status::rollup_tree::RollupTree;
use ppu_hdl::status::status_fsm::StatusFsm;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use serde_json::json;
use std::collections::VecDeque;

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
/// ST-6: every halt completes within this many cycles.
pub const HALT_LIMIT: u64 = 200;
/// Longest memory latency a scenario may ask for (keeps ST-6 satisfiable: a halt waits at most
/// for one outstanding access).
pub const MAX_MEM_LATENCY: u32 = 150;
/// A run that has not finished after this many cycles is stopped with an error.
pub const MAX_CYCLES: u64 = 5_000_000;

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
    /// Stop with an error after this many cycles (at most [`MAX_CYCLES`]).
    pub max_cycles: u64,
    /// Record the front-end monitor's waves here.
    pub vcd: Option<std::path::PathBuf>,
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
    pub deadlocks: u64,
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

type Item = (usize, u32);

/// One batch waiting on memory.
#[derive(Debug, Clone, Default, PartialEq)]
struct MemAccess {
    items: Vec<Item>,
    /// Cycles until the answer (0: backing off after a NACK).
    remaining: u32,
    will_nack: bool,
    /// After a NACK: cycles until the retry.
    retry_in: u32,
}

/// The storable state of one unit (what the context store saves).
#[derive(Debug, Clone, Default, PartialEq)]
struct UnitState {
    in_q: VecDeque<Item>,
    gather: Vec<Item>,
    mem: Option<MemAccess>,
    staged: VecDeque<Item>,
    /// (item, cycles left).
    proc: VecDeque<(Item, u32)>,
    out_buf: VecDeque<Item>,
}

impl UnitState {
    fn items(&self) -> usize {
        self.in_q.len()
            + self.gather.len()
            + self.mem.as_ref().map_or(0, |m| m.items.len())
            + self.staged.len()
            + self.proc.len()
            + self.out_buf.len()
    }
}

/// The ST-2 inputs a unit reports in one cycle (besides reset/halt/resume).
#[derive(Debug, Clone, Copy, Default)]
struct Activity {
    in_active: bool,
    busy: bool,
    out_valid: bool,
    out_blocked: bool,
    mem_pending: bool,
    pending: bool,
    nack: bool,
}

fn activity(
    p: &UnitParams,
    s: &UnitState,
    upstream_offer: bool,
    downstream_ready: bool,
) -> Activity {
    let mem_pending = s.mem.as_ref().is_some_and(|m| m.remaining > 0);
    Activity {
        in_active: !s.in_q.is_empty() || upstream_offer,
        busy: !s.proc.is_empty() || !s.staged.is_empty(),
        out_valid: !s.out_buf.is_empty(),
        out_blocked: s.out_buf.len() >= p.out_buffer as usize && !downstream_ready,
        mem_pending,
        pending: !s.gather.is_empty() || s.mem.is_some(),
        nack: s
            .mem
            .as_ref()
            .is_some_and(|m| m.remaining == 1 && m.will_nack),
    }
}

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

fn ev(
    trace: &mut Option<&mut TraceWriter>,
    cycle: u64,
    event: &str,
    fields: impl FnOnce() -> serde_json::Value,
) -> Result<(), RunError> {
    if let Some(t) = trace.as_deref_mut() {
        t.event(cycle, event, fields())?;
    }
    Ok(())
}

fn hw<T>(r: Result<T, crate::harness::NoConvergence>) -> Result<T, RunError> {
    r.map_err(|e| RunError::Violation(e.to_string()))
}

/// Where a switch stands, for the records.
#[derive(Debug, Clone, Default)]
struct Ongoing {
    rec: SwitchRecord,
    halted_at: Option<u64>,
    seen_at: Option<u64>,
    store_left: Option<u64>,
    restore_left: Option<u64>,
}

fn run_s<const S: usize>(
    cfg: &SystemConfig,
    mut trace: Option<&mut TraceWriter>,
) -> Result<SystemResult, RunError> {
    let n = cfg.units.len();
    if n == 0 || n > MAX_UNITS {
        return Err(RunError::invalid("config.units", "must be 1..=32"));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let clk_fsm: fn(&mut StatusFsm, bool) = |u, c| u.clock.next = c.into();
    let mut fsms: Vec<Harness<StatusFsm>> = (0..n)
        .map(|_| Harness::new(StatusFsm::default(), clk_fsm))
        .collect();
    let mut tree = Harness::new(
        RollupTree::<MAX_UNITS, MAX_UNITS, S>::new(&cfg.groups),
        |u, c| u.clock.next = c.into(),
    );
    let mut cmd = Harness::new(CommandTree::<MAX_UNITS, S>::default(), |u, c| {
        u.clock.next = c.into()
    });
    let mut mon = Harness::new(
        FrontEndMonitor::<MAX_UNITS, MAX_UNITS, S>::new(&cfg.groups),
        |u, c| u.clock.next = c.into(),
    );
    if let Some(p) = &cfg.vcd {
        mon = mon
            .with_vcd(p, "front_end_monitor")
            .map_err(|e| RunError::Output(format!("{}: {}", p.display(), e)))?;
    }
    let mut units: Vec<UnitState> = vec![UnitState::default(); n];
    let mut saved: Vec<Option<Vec<UnitState>>> = vec![None; cfg.contexts.len()];
    let mut next_feed = vec![0u32; cfg.contexts.len()];
    let mut next_out = vec![0u32; cfg.contexts.len()];
    let mut cur = 0usize;
    let mut target = 0usize;
    let mut states = vec![State::Empty; n];
    let mut commands: VecDeque<(u64, usize)> = cfg.commands.iter().copied().collect();
    let mut pending_switch: Option<usize> = None;
    let mut pending_commanded = false;
    let mut ongoing: Option<Ongoing> = None;
    let mut res = SystemResult::default();
    let total: u64 = cfg.contexts.iter().map(|&c| c as u64).sum();
    let mut cycle: u64 = 0;
    loop {
        let reset = cycle == 0;
        // A. commands reaching the units this cycle (tree registers).
        let (u_halt, u_reset, u_resume) = {
            let u = &cmd.uut;
            (
                u.unit_halt.val().to_u64(),
                u.unit_reset.val().to_u64(),
                u.unit_resume.val().to_u64(),
            )
        };
        let bit = |v: u64, i: usize| v & (1u64 << i) != 0;
        // B. front end: work finished? new switch commands? context store.
        let all_done = (0..cfg.contexts.len()).all(|c| next_out[c] == cfg.contexts[c]);
        let ph = mon.uut.phase.val().to_u64();
        let quiet = commands.is_empty() && pending_switch.is_none() && ph == phase::IDLE;
        if all_done && quiet {
            break;
        }
        // Nothing left to feed and nothing in the pipeline, but work missing: it was lost
        // (the ST-8 check below says which).
        let all_fed = (0..cfg.contexts.len()).all(|c| next_feed[c] == cfg.contexts[c]);
        if quiet
            && all_fed
            && units.iter().all(|u| u.items() == 0)
            && saved.iter().all(Option::is_none)
        {
            break;
        }
        if cycle >= cfg.max_cycles.min(MAX_CYCLES) {
            return Err(RunError::Violation(format!(
                "the run did not finish within {} cycles (a deadlock that was not removed?)",
                cfg.max_cycles.min(MAX_CYCLES)
            )));
        }
        if pending_switch.is_none() {
            if let Some(&(c, ctx)) = commands.front() {
                if c <= cycle {
                    pending_switch = Some(ctx);
                    pending_commanded = true;
                    commands.pop_front();
                }
            }
        }
        if pending_switch.is_none()
            && ph == phase::IDLE
            && ongoing.is_none()
            && next_feed[cur] == cfg.contexts[cur]
            && units.iter().all(|u| u.items() == 0)
        {
            // The running context is finished: switch to the next one with work left.
            let k = cfg.contexts.len();
            pending_switch = (1..k)
                .map(|d| (cur + d) % k)
                .find(|&c| next_out[c] < cfg.contexts[c]);
            pending_commanded = false;
        }
        let mut store_done = false;
        let mut restore_done = false;
        if let Some(o) = ongoing.as_mut() {
            if ph == phase::STORE {
                let left = o.store_left.get_or_insert_with(|| {
                    STORE_BASE
                        + units
                            .iter()
                            .map(|u| 1 + u.items() as u64)
                            .max()
                            .unwrap_or(1)
                });
                *left = left.saturating_sub(1);
                store_done = *left == 0;
            }
            if ph == phase::RESTORE {
                let words = saved
                    .get(target)
                    .and_then(|s| s.as_ref())
                    .map(|s| s.iter().map(|u| 1 + u.items() as u64).max().unwrap_or(1))
                    .unwrap_or(1);
                let left = o.restore_left.get_or_insert(STORE_BASE + words);
                *left = left.saturating_sub(1);
                restore_done = *left == 0;
            }
        }
        // C. behavioural units.
        let feed_stop = mon.uut.feed_stop.val();
        let feeder_offer = !feed_stop && next_feed[cur] < cfg.contexts[cur];
        let frozen: Vec<bool> = (0..n).map(|i| bit(u_halt, i) && !reset).collect();
        let ready: Vec<bool> = (0..n)
            .map(|i| units[i].in_q.len() < IN_QUEUE && !frozen[i] && !bit(u_reset, i))
            .collect();
        let offers: Vec<bool> = (0..n)
            .map(|i| {
                if i == 0 {
                    feeder_offer
                } else {
                    !units[i - 1].out_buf.is_empty() && !frozen[i - 1] && !bit(u_reset, i - 1)
                }
            })
            .collect();
        let acts: Vec<Activity> = (0..n)
            .map(|i| {
                let down = if i + 1 < n { ready[i + 1] } else { true };
                activity(&cfg.units[i], &units[i], offers[i], down)
            })
            .collect();
        let mut progress = false;
        for i in 0..n {
            if bit(u_resume, i) {
                res.resumes += 1;
                let st = states[i];
                ev(
                    &mut trace,
                    cycle,
                    "resume",
                    || json!({"unit": i, "state": st.name()}),
                )?;
            }
        }
        // Outputs move first (from the last unit backwards), using start-of-cycle readiness.
        for i in (0..n).rev() {
            if bit(u_reset, i) || frozen[i] || reset {
                continue;
            }
            let down = if i + 1 < n { ready[i + 1] } else { true };
            if !down {
                continue;
            }
            if let Some(item) = units[i].out_buf.pop_front() {
                if i + 1 < n {
                    units[i + 1].in_q.push_back(item);
                } else {
                    let (ctx, idx) = item;
                    if next_out[ctx] != idx {
                        return Err(RunError::Violation(format!(
                            "cycle {}: context {} output item {} but item {} was due (ST-8)",
                            cycle, ctx, idx, next_out[ctx]
                        )));
                    }
                    next_out[ctx] += 1;
                    res.outputs += 1;
                    progress = true;
                    ev(
                        &mut trace,
                        cycle,
                        "output",
                        || json!({"context": ctx, "item": idx}),
                    )?;
                }
            }
        }
        for i in 0..n {
            let p = cfg.units[i];
            let s = &mut units[i];
            if bit(u_reset, i) || reset {
                *s = UnitState::default();
                continue;
            }
            // Memory completes even while frozen.
            let mut answered = false;
            if let Some(m) = s.mem.as_mut() {
                if m.remaining > 0 {
                    m.remaining -= 1;
                    if m.remaining == 0 {
                        answered = true;
                        if m.will_nack {
                            res.nacks += 1;
                            m.retry_in = NACK_RETRY;
                        } else {
                            let items = std::mem::take(&mut m.items);
                            s.staged.extend(items);
                            s.mem = None;
                        }
                    }
                }
            }
            if frozen[i] {
                continue;
            }
            let resume = bit(u_resume, i);
            // Processing pipeline.
            let head_done = s.proc.front().is_some_and(|(_, left)| *left == 0);
            if !(head_done && s.out_buf.len() >= p.out_buffer as usize) {
                if head_done {
                    if let Some((item, _)) = s.proc.pop_front() {
                        s.out_buf.push_back(item);
                    }
                }
                for e in s.proc.iter_mut() {
                    e.1 = e.1.saturating_sub(1);
                }
            }
            if s.proc.len() < p.latency as usize {
                if let Some(item) = s.staged.pop_front() {
                    s.proc.push_back((item, p.latency - 1));
                }
            }
            // Memory retry after NACK.
            if !answered {
                if let Some(m) = s.mem.as_mut() {
                    if m.remaining == 0 {
                        m.retry_in = m.retry_in.saturating_sub(1);
                        if m.retry_in == 0 || resume {
                            m.remaining = p.mem_latency.max(1);
                            m.will_nack = rng.gen_bool(NACK_PROB);
                        }
                    }
                }
            }
            // Batch formation.
            if s.mem.is_none() && s.staged.is_empty() {
                let batch: Vec<Item> = if p.gather >= 2 {
                    if s.gather.len() >= p.gather as usize || (resume && !s.gather.is_empty()) {
                        std::mem::take(&mut s.gather)
                    } else {
                        vec![]
                    }
                } else {
                    s.in_q.pop_front().into_iter().collect()
                };
                if !batch.is_empty() {
                    if p.mem_latency > 0 {
                        s.mem = Some(MemAccess {
                            items: batch,
                            remaining: p.mem_latency,
                            will_nack: rng.gen_bool(NACK_PROB),
                            retry_in: 0,
                        });
                    } else {
                        s.staged.extend(batch);
                    }
                }
            }
            if p.gather >= 2 && s.gather.len() < p.gather as usize {
                if let Some(item) = s.in_q.pop_front() {
                    s.gather.push(item);
                }
            }
        }
        // The feeder.
        if feeder_offer && ready[0] && !reset {
            units[0].in_q.push_back((cur, next_feed[cur]));
            next_feed[cur] += 1;
            progress = true;
        }
        // D. monitor, command tree, FSMs, roll-up.
        {
            let m = &mut mon.uut;
            m.reset.next = reset;
            m.switch_valid.next = pending_switch.is_some() && !reset;
            m.drain_mode.next = cfg.drain;
            m.deadlock_threshold.next = bits::<16>(cfg.deadlock_threshold as u64);
            for g in 0..MAX_UNITS {
                m.conn_halted[g].next = tree.uut.conn_halted[g].val();
                m.conn_empty[g].next = tree.uut.conn_empty[g].val();
                m.conn_not_stalled[g].next = tree.uut.conn_not_stalled[g].val();
                m.conn_not_quiescent[g].next = tree.uut.conn_not_quiescent[g].val();
            }
            m.progress.next = progress;
            m.store_done.next = store_done;
            m.restore_done.next = restore_done;
        }
        hw(mon.settle())?;
        let m = &mon.uut;
        if m.violation.val() {
            return Err(RunError::Violation(format!(
                "cycle {}: front-end monitor violation",
                cycle
            )));
        }
        let (line_resume, line_reset) = (m.line_resume.val().to_u64(), m.line_reset.val().to_u64());
        if m.switch_valid.val() && m.switch_ready.val() {
            let to = pending_switch.take().unwrap_or(cur);
            target = to;
            ev(
                &mut trace,
                cycle,
                "halt_request",
                || json!({"from": cur, "to": to, "protocol": if cfg.drain {"drain"} else {"halt"}}),
            )?;
            ongoing = Some(Ongoing {
                rec: SwitchRecord {
                    from: cur,
                    to,
                    requested: cycle,
                    commanded: pending_commanded,
                    ..SwitchRecord::default()
                },
                ..Ongoing::default()
            });
        }
        if m.all_halted_seen.val() {
            if let Some(o) = ongoing.as_mut() {
                o.seen_at = Some(cycle);
            }
            ev(
                &mut trace,
                cycle,
                "all_halted",
                || json!({"protocol": if cfg.drain {"drain"} else {"halt"}}),
            )?;
        }
        if m.deadlock.val() {
            res.deadlocks += 1;
            // Name the units of the fired connections that are in the watched state (all of
            // the connection's units if none is any more).
            let watched = |i: usize| {
                if bit(line_resume, i) {
                    Some(State::Quiescent)
                } else if bit(line_reset, i) {
                    Some(State::Stalled)
                } else {
                    None
                }
            };
            let mut named: Vec<usize> = (0..n).filter(|&i| watched(i) == Some(states[i])).collect();
            if named.is_empty() {
                named = (0..n).filter(|&i| watched(i).is_some()).collect();
            }
            for i in named {
                let st = states[i];
                let action = if bit(line_resume, i) {
                    "resume"
                } else {
                    "reset"
                };
                ev(
                    &mut trace,
                    cycle,
                    "deadlock",
                    || json!({"unit": i, "state": st.name(), "action": action}),
                )?;
            }
        }
        if store_done {
            let words = units
                .iter()
                .map(|u| 1 + u.items() as u64)
                .max()
                .unwrap_or(1);
            if let Some(slot) = saved.get_mut(cur) {
                *slot = Some(units.clone());
            }
            if let Some(o) = ongoing.as_mut() {
                o.rec.words_stored = units.iter().map(|u| 1 + u.items() as u64).sum();
            }
            let c = cur;
            ev(
                &mut trace,
                cycle,
                "context_store",
                || json!({"context": c, "cycles_per_unit_max": words}),
            )?;
        }
        if m.cmd_reset.val() {
            ev(&mut trace, cycle, "reset", || json!({"scope": "all"}))?;
        }
        if line_reset != 0 {
            let list: Vec<usize> = (0..n).filter(|&i| bit(line_reset, i)).collect();
            ev(
                &mut trace,
                cycle,
                "reset",
                || json!({"scope": "chain", "units": list}),
            )?;
        }
        if restore_done {
            let restored = saved
                .get_mut(target)
                .and_then(|s| s.take())
                .unwrap_or_else(|| vec![UnitState::default(); n]);
            if let Some(o) = ongoing.as_mut() {
                o.rec.words_restored = restored.iter().map(|u| 1 + u.items() as u64).sum();
            }
            units = restored;
            cur = target;
            let c = cur;
            ev(
                &mut trace,
                cycle,
                "context_restore",
                || json!({"context": c}),
            )?;
            ev(&mut trace, cycle, "halt_release", || json!({"context": c}))?;
            if let Some(mut o) = ongoing.take() {
                let req = o.rec.requested + 1;
                o.rec.switch_cycles = cycle - o.rec.requested;
                o.rec.halt_latency = o.halted_at.map_or(0, |h| h - req);
                o.rec.seen_latency = o.seen_at.map_or(0, |h| h - req);
                res.switches.push(o.rec);
            }
        }
        {
            let c = &mut cmd.uut;
            c.reset.next = reset;
            c.cmd_halt.next = m.cmd_halt.val();
            c.cmd_reset.next = m.cmd_reset.val();
            c.cmd_resume.next = false;
            c.line_reset.next = bits::<MAX_UNITS>(line_reset);
            c.line_resume.next = bits::<MAX_UNITS>(line_resume);
        }
        let mut fl = [0u64; 4];
        for i in 0..n {
            let a = &acts[i];
            let f = &mut fsms[i].uut;
            f.reset.next = reset || bit(u_reset, i);
            f.halt.next = bit(u_halt, i);
            f.resume.next = bit(u_resume, i);
            f.in_active.next = a.in_active;
            f.busy.next = a.busy;
            f.out_valid.next = a.out_valid;
            f.out_blocked.next = a.out_blocked;
            f.mem_pending.next = a.mem_pending;
            f.pending.next = a.pending;
            f.nack.next = a.nack;
            f.can_halt.next = !a.mem_pending;
            hw(fsms[i].settle())?;
            let f = &fsms[i].uut;
            for (k, b) in [
                f.halted.val(),
                f.empty.val(),
                f.not_stalled.val(),
                f.not_quiescent.val(),
            ]
            .into_iter()
            .enumerate()
            {
                if b {
                    fl[k] |= 1 << i;
                }
            }
        }
        {
            let t = &mut tree.uut;
            t.reset.next = reset;
            t.halted_in.next = bits::<MAX_UNITS>(fl[0]);
            t.empty_in.next = bits::<MAX_UNITS>(fl[1]);
            t.not_stalled_in.next = bits::<MAX_UNITS>(fl[2]);
            t.not_quiescent_in.next = bits::<MAX_UNITS>(fl[3]);
        }
        // E. clock edge.
        hw(mon.step())?;
        hw(cmd.step())?;
        hw(tree.step())?;
        for f in fsms.iter_mut() {
            hw(f.step())?;
        }
        for (i, f) in fsms.iter().enumerate() {
            let code = f.uut.status.val().to_u64();
            let st = State::from_code(code).ok_or_else(|| {
                RunError::Violation(format!("unit {} reports the illegal code {}", i, code))
            })?;
            if st != states[i] {
                states[i] = st;
                ev(
                    &mut trace,
                    cycle,
                    "state",
                    || json!({"unit": i, "state": st.name(), "code": code}),
                )?;
            }
        }
        // Halt latency: every unit HALTED (drain: EMPTY) while a switch waits.
        if let Some(o) = ongoing.as_mut() {
            let want = if cfg.drain {
                State::Empty
            } else {
                State::Halted
            };
            if o.halted_at.is_none() && states.iter().all(|s| *s == want) {
                // The state after this cycle's edge: reported from cycle + 1.
                o.halted_at = Some(cycle + 1);
            }
            let waited = cycle + 1 - (o.rec.requested + 1);
            if !cfg.drain && o.halted_at.is_none() && waited > HALT_LIMIT {
                return Err(RunError::Violation(format!(
                    "cycle {}: not every unit HALTED {} cycles after the halt request (ST-6)",
                    cycle, HALT_LIMIT
                )));
            }
        }
        cycle += 1;
    }
    for (c, &want) in cfg.contexts.iter().enumerate() {
        if next_out[c] != want {
            return Err(RunError::Violation(format!(
                "context {}: {} of {} work items left the pipeline (ST-8)",
                c, next_out[c], want
            )));
        }
    }
    if res.outputs != total {
        return Err(RunError::Violation(format!(
            "{} outputs for {} work items (ST-8)",
            res.outputs, total
        )));
    }
    res.cycles = cycle;
    mon.finish().map_err(|e| RunError::Output(e.to_string()))?;
    Ok(res)
}
