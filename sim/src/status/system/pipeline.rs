//! The behavioural processing units of the status system, chained into a pipeline: each unit's
//! input queue, gather, memory access, processing pipeline and output buffer, how it reacts to
//! the commands that reach it, and the ST-2 activity it reports to its status FSM.
//!
//! Reset without loss (ST-7, ST-8): a unit that takes a reset command (the watchdog's reset of
//! a stalled chain, or the broadcast reset of a context switch) clears its gather, memory
//! access, processing pipeline and output buffer, and REPLAYS the work items it had accepted
//! but not yet output: they go, oldest first, into its replay queue, which the unit consumes
//! before any new input (the replay queue is part of the unit's state: counted in what the
//! unit holds, in `in_active`, and saved and restored by the context store). Nothing accepted
//! is dropped, and the order of every context's items is kept.
use super::config::{UnitParams, IN_QUEUE, NACK_PROB, NACK_RETRY};
use crate::status::golden::UnitActivity;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// A work item: (context, index within the context).
pub type Item = (usize, u32);

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
pub struct UnitState {
    /// Accepted items to be processed again after a reset, oldest first; consumed before
    /// `in_q`.
    replay: VecDeque<Item>,
    in_q: VecDeque<Item>,
    gather: Vec<Item>,
    mem: Option<MemAccess>,
    staged: VecDeque<Item>,
    /// (item, cycles left).
    proc: VecDeque<(Item, u32)>,
    out_buf: VecDeque<Item>,
}

/// Words the context store moves for `units`: the largest unit's (each unit stores its own
/// state in parallel, one word per cycle) and the sum over the units.
pub fn store_words(units: &[UnitState]) -> (u64, u64) {
    let words = units.iter().map(|u| 1 + u.items() as u64);
    (words.clone().max().unwrap_or(1), words.sum())
}

impl UnitState {
    /// Work items the unit holds.
    pub fn items(&self) -> usize {
        self.replay.len()
            + self.in_q.len()
            + self.gather.len()
            + self.mem.as_ref().map_or(0, |m| m.items.len())
            + self.staged.len()
            + self.proc.len()
            + self.out_buf.len()
    }

    /// The ST-2 inputs the unit reports this cycle; `can_halt` is "no memory request
    /// outstanding".
    fn activity(
        &self,
        p: &UnitParams,
        upstream_offer: bool,
        downstream_ready: bool,
    ) -> UnitActivity {
        let mem_pending = self.mem.as_ref().is_some_and(|m| m.remaining > 0);
        UnitActivity {
            in_active: !self.replay.is_empty() || !self.in_q.is_empty() || upstream_offer,
            busy: !self.proc.is_empty() || !self.staged.is_empty(),
            out_valid: !self.out_buf.is_empty(),
            out_blocked: self.out_buf.len() >= p.out_buffer as usize && !downstream_ready,
            mem_pending,
            pending: !self.gather.is_empty() || self.mem.is_some(),
            nack: self
                .mem
                .as_ref()
                .is_some_and(|m| m.remaining == 1 && m.will_nack),
            can_halt: !mem_pending,
        }
    }

    /// A reset command: every accepted item goes into the replay queue, oldest first (output
    /// buffer, processing pipeline, staged, memory access, gather, earlier replay, input
    /// queue); everything else is cleared.
    fn reset_with_replay(&mut self) {
        let mut replay: VecDeque<Item> = VecDeque::with_capacity(self.items());
        replay.extend(self.out_buf.drain(..));
        replay.extend(self.proc.drain(..).map(|(item, _)| item));
        replay.extend(self.staged.drain(..));
        if let Some(m) = self.mem.take() {
            replay.extend(m.items);
        }
        replay.extend(self.gather.drain(..));
        replay.extend(self.replay.drain(..));
        replay.extend(self.in_q.drain(..));
        *self = UnitState {
            replay,
            ..UnitState::default()
        };
    }

    /// The next input item: the replay queue first, then the input queue.
    fn next_input(&mut self) -> Option<Item> {
        self.replay.pop_front().or_else(|| self.in_q.pop_front())
    }

    /// One cycle of a unit not in reset: memory answers even while `frozen` (halted); the rest
    /// only runs when not frozen. `flush`: a partial gather becomes a batch (a resume, or the
    /// end of the input of a draining pipeline). Returns whether the memory answered.
    fn advance(
        &mut self,
        p: &UnitParams,
        frozen: bool,
        resume: bool,
        flush: bool,
        rng: &mut ChaCha8Rng,
        nacks: &mut u64,
    ) -> bool {
        let answered = self.memory_answer(nacks);
        if frozen {
            return answered;
        }
        self.process(p);
        if !answered {
            self.retry_after_nack(p, resume, rng);
        }
        self.form_batch(p, resume || flush, rng);
        if p.gather >= 2 && self.gather.len() < p.gather as usize {
            if let Some(item) = self.next_input() {
                self.gather.push(item);
            }
        }
        answered
    }

    /// The outstanding memory access counts down; returns whether it was answered this cycle.
    fn memory_answer(&mut self, nacks: &mut u64) -> bool {
        let mut answered = false;
        if let Some(m) = self.mem.as_mut() {
            if m.remaining > 0 {
                m.remaining -= 1;
                if m.remaining == 0 {
                    answered = true;
                    if m.will_nack {
                        *nacks += 1;
                        m.retry_in = NACK_RETRY;
                    } else {
                        let items = std::mem::take(&mut m.items);
                        self.staged.extend(items);
                        self.mem = None;
                    }
                }
            }
        }
        answered
    }

    /// The processing pipeline: the finished head moves to the output buffer if there is room,
    /// everything advances, and one staged item enters.
    fn process(&mut self, p: &UnitParams) {
        let head_done = self.proc.front().is_some_and(|(_, left)| *left == 0);
        if !(head_done && self.out_buf.len() >= p.out_buffer as usize) {
            if head_done {
                if let Some((item, _)) = self.proc.pop_front() {
                    self.out_buf.push_back(item);
                }
            }
            for e in self.proc.iter_mut() {
                e.1 = e.1.saturating_sub(1);
            }
        }
        if self.proc.len() < p.latency as usize {
            if let Some(item) = self.staged.pop_front() {
                self.proc.push_back((item, p.latency - 1));
            }
        }
    }

    /// After a NACK, the access is retried when the back-off ends, or at once on `resume`.
    fn retry_after_nack(&mut self, p: &UnitParams, resume: bool, rng: &mut ChaCha8Rng) {
        if let Some(m) = self.mem.as_mut() {
            if m.remaining == 0 {
                m.retry_in = m.retry_in.saturating_sub(1);
                if m.retry_in == 0 || resume {
                    m.remaining = p.mem_latency.max(1);
                    m.will_nack = rng.gen_bool(NACK_PROB);
                }
            }
        }
    }

    /// With memory and staging free, a full gather (or, on `flush`, a partial one) or the next
    /// input becomes a batch: a memory access, or staged at once without memory.
    fn form_batch(&mut self, p: &UnitParams, flush: bool, rng: &mut ChaCha8Rng) {
        if self.mem.is_some() || !self.staged.is_empty() {
            return;
        }
        let batch: Vec<Item> = if p.gather >= 2 {
            if self.gather.len() >= p.gather as usize || (flush && !self.gather.is_empty()) {
                std::mem::take(&mut self.gather)
            } else {
                vec![]
            }
        } else {
            self.next_input().into_iter().collect()
        };
        if batch.is_empty() {
            return;
        }
        if p.mem_latency > 0 {
            self.mem = Some(MemAccess {
                items: batch,
                remaining: p.mem_latency,
                will_nack: rng.gen_bool(NACK_PROB),
                retry_in: 0,
            });
        } else {
            self.staged.extend(batch);
        }
    }
}

/// The commands reaching the units in one cycle, bit i = unit i.
#[derive(Debug, Clone, Copy, Default)]
pub struct UnitCommands {
    pub halt: u64,
    pub reset: u64,
    pub resume: u64,
}

fn bit(v: u64, i: usize) -> bool {
    v & (1u64 << i) != 0
}

impl UnitCommands {
    pub fn halt(&self, i: usize) -> bool {
        bit(self.halt, i)
    }
    pub fn reset(&self, i: usize) -> bool {
        bit(self.reset, i)
    }
    pub fn resume(&self, i: usize) -> bool {
        bit(self.resume, i)
    }
}

/// The pipeline at the start of a cycle, before anything moves.
#[derive(Debug, Clone)]
pub struct CycleView {
    /// Unit i sees halt (and the system is not in reset): it freezes.
    pub frozen: Vec<bool>,
    /// Unit i's input queue takes an item this cycle.
    pub ready: Vec<bool>,
    /// The ST-2 inputs each unit reports this cycle.
    pub activity: Vec<UnitActivity>,
    /// Unit i flushes a partial gather this cycle: the pipeline drains (the prior-art switch
    /// of ST-9) and no more input can reach the unit (nothing in it or upstream of it).
    pub flush: Vec<bool>,
}

/// The chain of behavioural units; unit i's output feeds unit i+1, the last unit's output
/// leaves the pipeline. Memory NACKs are drawn from the run's seed.
pub struct Pipeline {
    params: Vec<UnitParams>,
    units: Vec<UnitState>,
    rng: ChaCha8Rng,
    /// This cycle's progress so far, bit i = unit i took or delivered a work item or its
    /// memory answered (the monitor's per-unit `progress`, ST-7).
    progress: u64,
}

impl Pipeline {
    pub fn new(params: &[UnitParams], seed: u64) -> Self {
        Pipeline {
            params: params.to_vec(),
            units: vec![UnitState::default(); params.len()],
            rng: ChaCha8Rng::seed_from_u64(seed),
            progress: 0,
        }
    }

    /// The cycle's per-unit progress (bit i = unit i moved work), cleared for the next cycle.
    pub fn take_progress(&mut self) -> u64 {
        std::mem::take(&mut self.progress)
    }

    pub fn units(&self) -> &[UnitState] {
        &self.units
    }

    /// No unit holds a work item.
    pub fn drained(&self) -> bool {
        self.units.iter().all(|u| u.items() == 0)
    }

    /// Load the units' state (a context restore).
    pub fn replace(&mut self, units: Vec<UnitState>) {
        self.units = units;
    }

    /// What each unit does this cycle under the commands `cmds`, with the front end offering
    /// a work item to unit 0 if `feeder_offer`; `draining`: the front end drains the pipeline
    /// (drain protocol, feed stopped), so a unit with no input left flushes a partial gather.
    pub fn view(
        &self,
        cmds: UnitCommands,
        feeder_offer: bool,
        reset: bool,
        draining: bool,
    ) -> CycleView {
        let n = self.units.len();
        let frozen: Vec<bool> = (0..n).map(|i| cmds.halt(i) && !reset).collect();
        let ready: Vec<bool> = (0..n)
            .map(|i| self.units[i].in_q.len() < IN_QUEUE && !frozen[i] && !cmds.reset(i))
            .collect();
        let offer = |i: usize| {
            if i == 0 {
                feeder_offer
            } else {
                !self.units[i - 1].out_buf.is_empty() && !frozen[i - 1] && !cmds.reset(i - 1)
            }
        };
        let activity = (0..n)
            .map(|i| {
                let down = if i + 1 < n { ready[i + 1] } else { true };
                self.units[i].activity(&self.params[i], offer(i), down)
            })
            .collect();
        let flush = (0..n)
            .map(|i| {
                draining
                    && !feeder_offer
                    && self.units[..i].iter().all(|u| u.items() == 0)
                    && self.units[i].replay.is_empty()
                    && self.units[i].in_q.is_empty()
            })
            .collect();
        CycleView {
            frozen,
            ready,
            activity,
            flush,
        }
    }

    /// Outputs move first (from the last unit backwards), using start-of-cycle readiness;
    /// returns the item that left the last unit, if any.
    pub fn move_outputs(
        &mut self,
        view: &CycleView,
        cmds: UnitCommands,
        reset: bool,
    ) -> Option<Item> {
        let n = self.units.len();
        let mut left = None;
        for i in (0..n).rev() {
            if cmds.reset(i) || view.frozen[i] || reset {
                continue;
            }
            let down = if i + 1 < n { view.ready[i + 1] } else { true };
            if !down {
                continue;
            }
            if let Some(item) = self.units[i].out_buf.pop_front() {
                self.progress |= 1u64 << i;
                if i + 1 < n {
                    self.progress |= 1u64 << (i + 1);
                    self.units[i + 1].in_q.push_back(item);
                } else {
                    left = Some(item);
                }
            }
        }
        left
    }

    /// Every unit's cycle: the system reset clears every unit (it holds nothing yet); a unit
    /// that takes its reset command replays what it holds (see the module doc); the others
    /// advance. NACKs are counted in `nacks`.
    pub fn advance(&mut self, view: &CycleView, cmds: UnitCommands, reset: bool, nacks: &mut u64) {
        for i in 0..self.units.len() {
            if reset {
                self.units[i] = UnitState::default();
                continue;
            }
            if cmds.reset(i) {
                self.units[i].reset_with_replay();
                continue;
            }
            let p = self.params[i];
            let answered = self.units[i].advance(
                &p,
                view.frozen[i],
                cmds.resume(i),
                view.flush[i],
                &mut self.rng,
                nacks,
            );
            if answered {
                self.progress |= 1u64 << i;
            }
        }
    }

    /// The front end's work item enters unit 0.
    pub fn feed(&mut self, item: Item) {
        self.progress |= 1;
        self.units[0].in_q.push_back(item);
    }
}
