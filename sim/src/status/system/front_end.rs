//! The front end of the status system (behavioural): the contexts and their work items, the
//! feeder, the scoreboard of items leaving the pipeline (ST-8), the context-switch commands
//! (given, or its own when the running context has no work left), the context store, and the
//! record of each switch (ST-6).
use super::config::{SwitchRecord, HALT_LIMIT, STORE_BASE};
use super::pipeline::{store_words, Item, UnitState};
use crate::scenario::RunError;
use crate::status::golden::State;
use ppu_hdl::status::front_end_monitor::phase;
use std::collections::VecDeque;

/// Where a switch stands, for the records.
#[derive(Debug, Clone, Default)]
struct Ongoing {
    rec: SwitchRecord,
    halted_at: Option<u64>,
    seen_at: Option<u64>,
    store_left: Option<u64>,
    restore_left: Option<u64>,
}

/// The front end and the context store.
#[derive(Debug, Clone)]
pub struct FrontEnd {
    /// Work items per context.
    contexts: Vec<u32>,
    next_feed: Vec<u32>,
    next_out: Vec<u32>,
    /// The running context.
    cur: usize,
    /// The context the switch under way goes to.
    target: usize,
    commands: VecDeque<(u64, usize)>,
    pending_switch: Option<usize>,
    pending_commanded: bool,
    ongoing: Option<Ongoing>,
    saved: Vec<Option<Vec<UnitState>>>,
}

impl FrontEnd {
    /// `contexts`: work items per context (context 0 runs first); `commands`: (cycle,
    /// context) switch commands, sorted by cycle.
    pub fn new(contexts: &[u32], commands: &[(u64, usize)]) -> Self {
        FrontEnd {
            contexts: contexts.to_vec(),
            next_feed: vec![0; contexts.len()],
            next_out: vec![0; contexts.len()],
            cur: 0,
            target: 0,
            commands: commands.iter().copied().collect(),
            pending_switch: None,
            pending_commanded: false,
            ongoing: None,
            saved: vec![None; contexts.len()],
        }
    }

    /// The running context.
    pub fn current(&self) -> usize {
        self.cur
    }

    /// No switch is asked for or under way (`phase`: the monitor's).
    pub fn quiet(&self, monitor_phase: u64) -> bool {
        self.commands.is_empty() && self.pending_switch.is_none() && monitor_phase == phase::IDLE
    }

    /// Every work item of every context has left the pipeline.
    pub fn all_done(&self) -> bool {
        (0..self.contexts.len()).all(|c| self.next_out[c] == self.contexts[c])
    }

    /// Every work item of every context was fed, and no stored context holds a work item.
    pub fn all_fed_none_saved(&self) -> bool {
        (0..self.contexts.len()).all(|c| self.next_feed[c] == self.contexts[c])
            && self
                .saved
                .iter()
                .flatten()
                .all(|units| units.iter().all(|u| u.items() == 0))
    }

    /// Take the next switch command once its cycle has come (one at a time); when the running
    /// context is finished, switch by itself to the next context with work left.
    pub fn next_switch(&mut self, cycle: u64, monitor_phase: u64, pipeline_drained: bool) {
        if self.pending_switch.is_none() {
            if let Some(&(c, ctx)) = self.commands.front() {
                if c <= cycle {
                    self.pending_switch = Some(ctx);
                    self.pending_commanded = true;
                    self.commands.pop_front();
                }
            }
        }
        let cur = self.cur;
        if self.pending_switch.is_none()
            && monitor_phase == phase::IDLE
            && self.ongoing.is_none()
            && self.next_feed[cur] == self.contexts[cur]
            && pipeline_drained
        {
            let k = self.contexts.len();
            self.pending_switch = (1..k)
                .map(|d| (cur + d) % k)
                .find(|&c| self.next_out[c] < self.contexts[c]);
            self.pending_commanded = false;
        }
    }

    /// The context store's cycle: returns (store done, restore done). A store or restore takes
    /// [`STORE_BASE`] cycles plus `cycles_per_word` per word of all units' state (through the
    /// one memory path), rounded up.
    pub fn context_store(
        &mut self,
        monitor_phase: u64,
        units: &[UnitState],
        cycles_per_word: f64,
    ) -> (bool, bool) {
        let cost = |words: u64| STORE_BASE + (words as f64 * cycles_per_word).ceil() as u64;
        let mut store_done = false;
        let mut restore_done = false;
        if let Some(o) = self.ongoing.as_mut() {
            if monitor_phase == phase::STORE {
                let left = o
                    .store_left
                    .get_or_insert_with(|| cost(store_words(units).1));
                *left = left.saturating_sub(1);
                store_done = *left == 0;
            }
            if monitor_phase == phase::RESTORE {
                let words = self
                    .saved
                    .get(self.target)
                    .and_then(|s| s.as_ref())
                    .map(|s| store_words(s).1)
                    .unwrap_or(units.len() as u64);
                let left = o.restore_left.get_or_insert(cost(words));
                *left = left.saturating_sub(1);
                restore_done = *left == 0;
            }
        }
        (store_done, restore_done)
    }

    /// The feeder offers the running context's next item unless the monitor stops the feed.
    pub fn feeder_offer(&self, feed_stop: bool) -> bool {
        !feed_stop && self.next_feed[self.cur] < self.contexts[self.cur]
    }

    /// The item the feeder hands to unit 0 (taken).
    pub fn take_feed(&mut self) -> Item {
        let item = (self.cur, self.next_feed[self.cur]);
        self.next_feed[self.cur] += 1;
        item
    }

    /// An item left the pipeline in `cycle`: it must be its context's next one (ST-8).
    pub fn output(&mut self, item: Item, cycle: u64) -> Result<(), RunError> {
        let (ctx, idx) = item;
        if self.next_out[ctx] != idx {
            return Err(RunError::Violation(format!(
                "cycle {}: context {} output item {} but item {} was due (ST-8)",
                cycle, ctx, idx, self.next_out[ctx]
            )));
        }
        self.next_out[ctx] += 1;
        Ok(())
    }

    /// A switch command is on offer to the monitor.
    pub fn switch_valid(&self) -> bool {
        self.pending_switch.is_some()
    }

    /// The monitor took the switch command in `cycle`: returns (from, to).
    pub fn start_switch(&mut self, cycle: u64) -> (usize, usize) {
        let to = self.pending_switch.take().unwrap_or(self.cur);
        self.target = to;
        self.ongoing = Some(Ongoing {
            rec: SwitchRecord {
                from: self.cur,
                to,
                requested: cycle,
                commanded: self.pending_commanded,
                ..SwitchRecord::default()
            },
            ..Ongoing::default()
        });
        (self.cur, to)
    }

    /// The monitor saw every unit halted (drain: empty) in `cycle`.
    pub fn all_halted_seen(&mut self, cycle: u64) {
        if let Some(o) = self.ongoing.as_mut() {
            o.seen_at = Some(cycle);
        }
    }

    /// The store completes: the running context's units are saved. Returns (context, the
    /// largest unit's words).
    pub fn store(&mut self, units: &[UnitState]) -> (usize, u64) {
        let (max, sum) = store_words(units);
        if let Some(slot) = self.saved.get_mut(self.cur) {
            *slot = Some(units.to_vec());
        }
        if let Some(o) = self.ongoing.as_mut() {
            o.rec.words_stored = sum;
        }
        (self.cur, max)
    }

    /// The restore completes in `cycle`: the target context becomes the running one. Returns
    /// its `n` units' saved state (empty units if it never ran) and the finished switch's
    /// record.
    pub fn restore(&mut self, n: usize, cycle: u64) -> (Vec<UnitState>, Option<SwitchRecord>) {
        let restored = self
            .saved
            .get_mut(self.target)
            .and_then(|s| s.take())
            .unwrap_or_else(|| vec![UnitState::default(); n]);
        if let Some(o) = self.ongoing.as_mut() {
            o.rec.words_restored = store_words(&restored).1;
        }
        self.cur = self.target;
        let rec = self.ongoing.take().map(|mut o| {
            let req = o.rec.requested + 1;
            o.rec.switch_cycles = cycle - o.rec.requested;
            o.rec.halt_latency = o.halted_at.map_or(0, |h| h - req);
            o.rec.seen_latency = o.seen_at.map_or(0, |h| h - req);
            o.rec
        });
        (restored, rec)
    }

    /// After the clock edge of `cycle`, with the units' `states`: note when every unit reached
    /// the switch's target state (HALTED; drain: EMPTY), and fail if a halt takes longer than
    /// [`HALT_LIMIT`] (ST-6).
    pub fn watch_halt(
        &mut self,
        cycle: u64,
        states: &[State],
        drain: bool,
    ) -> Result<(), RunError> {
        let Some(o) = self.ongoing.as_mut() else {
            return Ok(());
        };
        let want = if drain { State::Empty } else { State::Halted };
        if o.halted_at.is_none() && states.iter().all(|s| *s == want) {
            // The state after this cycle's edge: reported from cycle + 1.
            o.halted_at = Some(cycle + 1);
        }
        let waited = cycle + 1 - (o.rec.requested + 1);
        if !drain && o.halted_at.is_none() && waited > HALT_LIMIT {
            return Err(RunError::Violation(format!(
                "cycle {}: not every unit HALTED {} cycles after the halt request (ST-6)",
                cycle, HALT_LIMIT
            )));
        }
        Ok(())
    }

    /// At the end: every work item of every context left the pipeline (ST-8), `outputs` in
    /// all.
    pub fn check_complete(&self, outputs: u64) -> Result<(), RunError> {
        for (c, &want) in self.contexts.iter().enumerate() {
            if self.next_out[c] != want {
                return Err(RunError::Violation(format!(
                    "context {}: {} of {} work items left the pipeline (ST-8)",
                    c, self.next_out[c], want
                )));
            }
        }
        let total: u64 = self.contexts.iter().map(|&c| c as u64).sum();
        if outputs != total {
            return Err(RunError::Violation(format!(
                "{} outputs for {} work items (ST-8)",
                outputs, total
            )));
        }
        Ok(())
    }
}
