//! `MsgTable` — SSYNC's message table, one entry per SO unit (SPEC SO-8, SO-9, SO-13); a
//! sub-block of [`Ssync`](crate::stream_out::ssync::Ssync).
//!
//! What it does: entry i holds SO unit i's first request (batch, task, last), whether it was
//! answered, and its second request (SBBN, and which of its lanes are non-zero) if that came.
//! A request is written into its unit's entry in the cycle it arrives and takes part in the
//! matching from the next cycle. Every cycle the entry that holds the current batch/task (the
//! "hit") is answered (`respond_now`, when it was not answered yet and the parent's response
//! queue has room, `resp_free`) and accounted (`commit_now`, SO-7/SO-10: it is answered or being
//! answered, has its second request, and, if it is the last task of its batch, the retire
//! queue has room, `retire_free`); the accounted entry is cleared. So after an advance the
//! waiting entry is answered without a new message.
//!
//! Matching without compares on the decision path: each entry keeps three match bits,
//! registered from last cycle's contents against last cycle's current batch/task (b, t):
//! `match_same` (it is (b, t)), `match_task` (it is (b, t+1)) and `match_batch` (it is
//! (b+1, 0)). The current batch/task moves at most one step per cycle, and the parent tells
//! which step with three registered selects (`sel_same`, `sel_task`, `sel_batch`, already gated
//! with "an operation is being served"): the hit is an AND-OR of these six bits. The parent
//! keeps (b, t), (b+1) and (t+1) in registers. After an operation is loaded (the current
//! batch jumps) all selects are low for one cycle while the bits are computed afresh.
//! No two valid entries ever hold the same batch/task (a duplicate first request is dropped,
//! below), so the hit is one-hot and the selected entry's fields are AND-ORs too.
//!
//! Bad input (SO-13): a first request from a unit whose entry is still occupied (one message
//! outstanding per unit, SO-9; e.g. its previous batch waits for the retire queue) is
//! back-pressured (`first_ready` low). `violation_code` (decided from the causes registered
//! in the cycle they are found, so one cycle after them; the parent registers it again):
//! [`VIOL_SECOND_WITHOUT_FIRST`] a second request with no first request from that unit;
//! [`VIOL_OUTSIDE_OPERATION`] a request for a batch outside every operation, its entry is
//! cleared: behind the current batch/task once an operation has been loaded (`started`:
//! never streamed, or already accounted); for a batch already given out that no operation in
//! the FIFO covers (`arrival_outside`, the parent's registered probe of the entry written three
//! cycles before, `arrival_source`); for the batch of a work token that came while streaming was disabled
//! (`unstreamed_valid/unstreamed_batch`, registered by the parent); or a first request for a
//! batch/task another unit already asked for (dropped on arrival: it can never be answered to
//! this unit). So no request waits forever (SO-13: never a deadlock).
//! [`VIOL_DUPLICATE_SECOND`] a second second-request. The offending message is dropped;
//! nothing already accepted is lost. A bad entry is found from registers in one cycle
//! (`entry_bad`) and cleared in the next, its violation shown in the cycle after. Several in
//! one cycle: code 3 wins, then code 4, then code 1.
//!
//! Parameters: `SO_UNITS` entries; `SRC_BITS` = clog2(SO_UNITS) (≥1).
//! Ports: `clock`, `reset`; `first_valid/first_ready/first_data/first_source`,
//! `second_valid/second_ready/second_data/second_source` (as at `Ssync`); `first_written`
//! (this cycle's first request is written into its entry); from the parent's registers
//! `current_batch`, `current_batch_next` (+1), `current_task`, `current_task_next` (+1),
//! `started`, `sel_same/sel_task/sel_batch`, `resp_free`, `retire_free`, `arrival_outside`,
//! `arrival_source`, `unstreamed_valid/unstreamed_batch`; to the parent `respond_now`,
//! `commit_now`, `commit_last` and the hit entry's `selected_unit`, and one cycle later its
//! `selected_sbbn` (block-RAM read data) and `selected_nonzero` (lane i of that SBBN is not 0,
//! from registers), both valid in the cycle after a `commit_now`, not otherwise; `outstanding`
//! (an entry waits for its response, SO-9); `violation` / `violation_code`.
//! Timing: a first request takes part in matching one cycle after it arrives; a second request
//! counts for the hit entry in the cycle it arrives (its RAM word is written one cycle later,
//! from registers; a hit that needs the word before it is in the RAM gets it from the
//! registered write word of that cycle or of the cycle before); one first and one second request per cycle
//! (`second_ready` is always high); decisions are 2 LUT levels of
//! AND-OR from registers plus the OR over the entries. The decisions are made here rather than
//! in `Ssync` so that no parent logic feeds back into this block (Verilator UNOPTFLAT).
use crate::msg::{FirstRequest, Msg128};
use crate::widgets::block_ram::BlockRam;
use crate::widgets::kept_net::KeptNet;
use rust_hdl::prelude::*;

/// `violation_code` when there is no violation.
pub const VIOL_NONE: u64 = 0;
/// `violation_code`: a second request with no first request from that SO unit.
pub const VIOL_SECOND_WITHOUT_FIRST: u64 = 1;
/// `violation_code`: a batch ID collision: a work token whose ID is not the one after the
/// previous token's (SO-1); it is dropped (raised by [`Ssync`](super::ssync::Ssync) from its
/// operation FIFO, not by this table).
pub const VIOL_ID_COLLISION: u64 = 2;
/// `violation_code`: a request for a batch/task outside every operation (behind the current
/// one, given out while streaming was disabled, or already asked for by another unit).
pub const VIOL_OUTSIDE_OPERATION: u64 = 3;
/// `violation_code`: a second second-request from the same SO unit.
pub const VIOL_DUPLICATE_SECOND: u64 = 4;

#[derive(LogicBlock)]
pub struct MsgTable<const SO_UNITS: usize, const SRC_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // requests from the crossbar
    pub first_valid: Signal<In, Bit>,
    pub first_ready: Signal<Out, Bit>,
    pub first_data: Signal<In, FirstRequest>,
    pub first_source: Signal<In, Bits<SRC_BITS>>,
    pub first_written: Signal<Out, Bit>,
    pub second_valid: Signal<In, Bit>,
    pub second_ready: Signal<Out, Bit>,
    pub second_data: Signal<In, Msg128>,
    pub second_source: Signal<In, Bits<SRC_BITS>>,
    // from the parent's registers
    pub current_batch: Signal<In, Bits<14>>,
    pub current_batch_next: Signal<In, Bits<14>>,
    pub current_task: Signal<In, Bits<10>>,
    pub current_task_next: Signal<In, Bits<10>>,
    pub started: Signal<In, Bit>,
    pub sel_same: Signal<In, Bit>,
    pub sel_task: Signal<In, Bit>,
    pub sel_batch: Signal<In, Bit>,
    pub resp_free: Signal<In, Bit>,
    pub retire_free: Signal<In, Bit>,
    /// The first request written three cycles ago (entry `arrival_source`) is for a batch
    /// outside every operation (the parent's registered probe of the operation FIFO).
    pub arrival_outside: Signal<In, Bit>,
    pub arrival_source: Signal<In, Bits<SRC_BITS>>,
    /// A work token outside every operation was accepted last cycle, with its batch ID.
    pub unstreamed_valid: Signal<In, Bit>,
    pub unstreamed_batch: Signal<In, Bits<14>>,
    // the entry that holds the current batch/task, and what is done with it this cycle
    pub respond_now: Signal<Out, Bit>,
    pub commit_now: Signal<Out, Bit>,
    pub commit_last: Signal<Out, Bit>,
    pub selected_unit: Signal<Out, Bits<SRC_BITS>>,
    pub selected_sbbn: Signal<Out, Msg128>,
    pub selected_nonzero: Signal<Out, Bits<4>>,
    // status
    pub outstanding: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    pub violation_code: Signal<Out, Bits<3>>,
    // the table
    entry_valid: [DFF<Bit>; SO_UNITS],
    entry_answered: [DFF<Bit>; SO_UNITS],
    entry_second: [DFF<Bit>; SO_UNITS],
    entry_last: [DFF<Bit>; SO_UNITS],
    entry_batch: [DFF<Bits<14>>; SO_UNITS],
    entry_task: [DFF<Bits<10>>; SO_UNITS],
    /// The entries' SBBNs: block RAM, one 128-bit word per SO unit, written by a second
    /// request, read at the hit's index (so `selected_sbbn` comes one cycle after the hit).
    sbbn_ram: BlockRam<Msg128, SRC_BITS>,
    entry_nonzero: [DFF<Bits<4>>; SO_UNITS],
    match_same: [DFF<Bit>; SO_UNITS],
    match_task: [DFF<Bit>; SO_UNITS],
    match_batch: [DFF<Bit>; SO_UNITS],
    /// The entry is bad (SO-13) and is cleared, with a violation, this cycle.
    entry_bad: [DFF<Bit>; SO_UNITS],
    /// Last cycle's hit (one-hot): `selected_nonzero` is its entry's `entry_nonzero` now, which
    /// holds its stored lanes, or the lanes of the second request that arrived in the hit's
    /// cycle (an entry without its second request captures every cycle's).
    hit_before: [DFF<Bit>; SO_UNITS],
    /// The SBBN RAM's write, one cycle after the second request is accepted (from registers).
    ram_write: DFF<Bit>,
    ram_write_unit: DFF<Bits<SRC_BITS>>,
    ram_write_word: DFF<Msg128>,
    /// The hit's word is not in the RAM's read data (it is written in the hit's cycle, or its
    /// second request arrives in that cycle): it is in `ram_write_word` (arrived in the hit's
    /// cycle, `bypass_arrived`) or in `ram_write_word_before` (written in the hit's cycle); used
    /// the cycle after the hit, with the read data. Both candidates are kept as registers and
    /// the registered bits pick one, so no decision of the hit's cycle drives a 128-bit
    /// multiplexer.
    bypass: DFF<Bit>,
    bypass_arrived: DFF<Bit>,
    ram_write_word_before: DFF<Msg128>,
    // combinational
    first_busy: Signal<Local, Bit>,
    first_duplicate: Signal<Local, Bit>,
    second_nonzero: Signal<Local, Bits<4>>,
    second_accepted: Signal<Local, Bit>,
    arrive: [Signal<Local, Bit>; SO_UNITS],
    /// A first request from unit i into its free entry (before the duplicate check).
    arrive_raw: [Signal<Local, Bit>; SO_UNITS],
    /// A second request from this entry's unit is offered now (what the hit's decision reads:
    /// the hit entry is valid, so its second request is written unless it is a duplicate,
    /// and no arriving first request reaches the decision).
    second_for: [Signal<Local, Bit>; SO_UNITS],
    second_write: [Signal<Local, Bit>; SO_UNITS],
    hit: [Signal<Local, Bit>; SO_UNITS],
    commit_ok: [Signal<Local, Bit>; SO_UNITS],
    hit_unanswered: Signal<Local, Bit>,
    /// The hit entry's second request arrives in this cycle.
    hit_second_now: Signal<Local, Bit>,
    next_valid: [Signal<Local, Bit>; SO_UNITS],
    /// The match bits' compares, made side by side and selected by the arrival: the arriving
    /// request's key against (b, t), (b, t+1) and (b+1, 0), once for all entries, and each
    /// stored key against the same. The arrival's three are [`KeptNet`]s, so the mapper keeps
    /// each a tree from the input and does not fold the entry's arrival into their start.
    arrive_same: KeptNet<Bit>,
    arrive_task: KeptNet<Bit>,
    arrive_batch: KeptNet<Bit>,
    entry_same: [Signal<Local, Bit>; SO_UNITS],
    entry_task_next: [Signal<Local, Bit>; SO_UNITS],
    entry_batch_next: [Signal<Local, Bit>; SO_UNITS],
    /// Each valid entry's key against the arriving request's (the duplicate check), kept for
    /// the same reason.
    dup_hit: [KeptNet<Bit>; SO_UNITS],
    distance: [Signal<Local, Bits<14>>; SO_UNITS],
    stale: [Signal<Local, Bit>; SO_UNITS],
    any_bad: Signal<Local, Bit>,
    /// The violation causes found this cycle, registered: `violation` and its code are
    /// decided from them one cycle later (no cause's logic reaches the code's priority).
    viol_outside: DFF<Bit>,
    viol_dup_second: DFF<Bit>,
    viol_no_first: DFF<Bit>,
    unit_index: [Constant<Bits<SRC_BITS>>; SO_UNITS],
    behind: Constant<Bits<14>>,
    code_none: Constant<Bits<3>>,
    code_second_without_first: Constant<Bits<3>>,
    code_outside_operation: Constant<Bits<3>>,
    code_duplicate_second: Constant<Bits<3>>,
}

impl<const SO_UNITS: usize, const SRC_BITS: usize> Default for MsgTable<SO_UNITS, SRC_BITS> {
    fn default() -> Self {
        assert!(SO_UNITS >= 1, "MsgTable: SO_UNITS must be at least 1");
        assert_eq!(SRC_BITS, clog2(SO_UNITS).max(1), "MsgTable: SRC_BITS");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            first_valid: Default::default(),
            first_ready: Default::default(),
            first_data: Default::default(),
            first_source: Default::default(),
            first_written: Default::default(),
            second_valid: Default::default(),
            second_ready: Default::default(),
            second_data: Default::default(),
            second_source: Default::default(),
            current_batch: Default::default(),
            current_batch_next: Default::default(),
            current_task: Default::default(),
            current_task_next: Default::default(),
            started: Default::default(),
            sel_same: Default::default(),
            sel_task: Default::default(),
            sel_batch: Default::default(),
            resp_free: Default::default(),
            retire_free: Default::default(),
            arrival_outside: Default::default(),
            arrival_source: Default::default(),
            unstreamed_valid: Default::default(),
            unstreamed_batch: Default::default(),
            respond_now: Default::default(),
            commit_now: Default::default(),
            commit_last: Default::default(),
            selected_unit: Default::default(),
            selected_sbbn: Default::default(),
            selected_nonzero: Default::default(),
            outstanding: Default::default(),
            violation: Default::default(),
            violation_code: Default::default(),
            entry_valid: std::array::from_fn(|_| Default::default()),
            entry_answered: std::array::from_fn(|_| Default::default()),
            entry_second: std::array::from_fn(|_| Default::default()),
            entry_last: std::array::from_fn(|_| Default::default()),
            entry_batch: std::array::from_fn(|_| Default::default()),
            entry_task: std::array::from_fn(|_| Default::default()),
            sbbn_ram: Default::default(),
            entry_nonzero: std::array::from_fn(|_| Default::default()),
            match_same: std::array::from_fn(|_| Default::default()),
            match_task: std::array::from_fn(|_| Default::default()),
            match_batch: std::array::from_fn(|_| Default::default()),
            entry_bad: std::array::from_fn(|_| Default::default()),
            hit_before: std::array::from_fn(|_| Default::default()),
            ram_write: Default::default(),
            ram_write_unit: Default::default(),
            ram_write_word: Default::default(),
            bypass: Default::default(),
            bypass_arrived: Default::default(),
            ram_write_word_before: Default::default(),
            first_busy: Default::default(),
            first_duplicate: Default::default(),
            second_nonzero: Default::default(),
            second_accepted: Default::default(),
            arrive: std::array::from_fn(|_| Default::default()),
            arrive_raw: std::array::from_fn(|_| Default::default()),
            second_for: std::array::from_fn(|_| Default::default()),
            second_write: std::array::from_fn(|_| Default::default()),
            hit: std::array::from_fn(|_| Default::default()),
            commit_ok: std::array::from_fn(|_| Default::default()),
            hit_unanswered: Default::default(),
            hit_second_now: Default::default(),
            next_valid: std::array::from_fn(|_| Default::default()),
            arrive_same: Default::default(),
            arrive_task: Default::default(),
            arrive_batch: Default::default(),
            entry_same: std::array::from_fn(|_| Default::default()),
            entry_task_next: std::array::from_fn(|_| Default::default()),
            entry_batch_next: std::array::from_fn(|_| Default::default()),
            dup_hit: std::array::from_fn(|_| Default::default()),
            distance: std::array::from_fn(|_| Default::default()),
            stale: std::array::from_fn(|_| Default::default()),
            any_bad: Default::default(),
            viol_outside: Default::default(),
            viol_dup_second: Default::default(),
            viol_no_first: Default::default(),
            unit_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
            behind: Constant::new(bits::<14>(1 << 13)),
            code_none: Constant::new(bits::<3>(VIOL_NONE)),
            code_second_without_first: Constant::new(bits::<3>(VIOL_SECOND_WITHOUT_FIRST)),
            code_outside_operation: Constant::new(bits::<3>(VIOL_OUTSIDE_OPERATION)),
            code_duplicate_second: Constant::new(bits::<3>(VIOL_DUPLICATE_SECOND)),
        }
    }
}

impl<const SO_UNITS: usize, const SRC_BITS: usize> Logic for MsgTable<SO_UNITS, SRC_BITS> {
    /// Long because: arrivals, the hit and its decisions, write-back, match bits and bad-entry
    /// detection of every entry are one unrolled pass over the table; split, the parts would
    /// pass per-entry vectors between blocks (a Verilator loop, see the module doc).
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ram_write,
            ram_write_unit,
            ram_write_word,
            bypass,
            bypass_arrived,
            ram_write_word_before
        );
        for i in 0..SO_UNITS {
            self.entry_valid[i].clock.next = self.clock.val();
            self.entry_answered[i].clock.next = self.clock.val();
            self.entry_second[i].clock.next = self.clock.val();
            self.entry_last[i].clock.next = self.clock.val();
            self.entry_batch[i].clock.next = self.clock.val();
            self.entry_task[i].clock.next = self.clock.val();
            self.entry_nonzero[i].clock.next = self.clock.val();
            self.match_same[i].clock.next = self.clock.val();
            self.match_task[i].clock.next = self.clock.val();
            self.match_batch[i].clock.next = self.clock.val();
            self.entry_bad[i].clock.next = self.clock.val();
            self.hit_before[i].clock.next = self.clock.val();
        }
        self.viol_outside.clock.next = self.clock.val();
        self.viol_dup_second.clock.next = self.clock.val();
        self.viol_no_first.clock.next = self.clock.val();
        // First requests: back-pressure while the unit's entry is occupied (SO-9); a request
        // for a batch/task already in the table is dropped (SO-13).
        self.first_busy.next = false;
        self.first_duplicate.next = false;
        for i in 0..SO_UNITS {
            if (self.first_source.val() == self.unit_index[i].val()) & self.entry_valid[i].q.val() {
                self.first_busy.next = true;
            }
            self.dup_hit[i].d.next = self.entry_valid[i].q.val()
                & (self.entry_batch[i].q.val() == self.first_data.val().batch_id)
                & (self.entry_task[i].q.val() == self.first_data.val().task_number);
            if self.dup_hit[i].q.val() {
                self.first_duplicate.next = true;
            }
        }
        self.first_ready.next = !self.first_busy.val();
        self.second_ready.next = true;
        self.first_written.next =
            self.first_valid.val() & !self.first_busy.val() & !self.first_duplicate.val();
        self.viol_dup_second.d.next = false;
        self.viol_no_first.d.next = false;
        self.second_nonzero.next = bits::<4>(0);
        if self.second_data.val().lane0 != bits::<32>(0) {
            self.second_nonzero.next = self.second_nonzero.val() | bits::<4>(1);
        }
        if self.second_data.val().lane1 != bits::<32>(0) {
            self.second_nonzero.next = self.second_nonzero.val() | bits::<4>(2);
        }
        if self.second_data.val().lane2 != bits::<32>(0) {
            self.second_nonzero.next = self.second_nonzero.val() | bits::<4>(4);
        }
        if self.second_data.val().lane3 != bits::<32>(0) {
            self.second_nonzero.next = self.second_nonzero.val() | bits::<4>(8);
        }

        self.arrive_same.d.next = (self.first_data.val().batch_id == self.current_batch.val())
            & (self.first_data.val().task_number == self.current_task.val());
        self.arrive_task.d.next = (self.first_data.val().batch_id == self.current_batch.val())
            & (self.first_data.val().task_number == self.current_task_next.val());
        self.arrive_batch.d.next = (self.first_data.val().batch_id
            == self.current_batch_next.val())
            & (self.first_data.val().task_number == bits::<10>(0));
        for i in 0..SO_UNITS {
            self.arrive_raw[i].next = self.first_valid.val()
                & (self.first_source.val() == self.unit_index[i].val())
                & !self.entry_valid[i].q.val();
            self.arrive[i].next = self.arrive_raw[i].val() & !self.first_duplicate.val();
            self.second_write[i].next = false;
            self.second_for[i].next =
                self.second_valid.val() & (self.second_source.val() == self.unit_index[i].val());
            // (A second request that comes with its unit's first request is written even if
            // that first request turns out to be a duplicate: the entry stays invalid, and its
            // next first request clears the second-request bit.)
            if self.second_for[i].val() {
                if !(self.entry_valid[i].q.val() | self.arrive_raw[i].val()) {
                    self.viol_no_first.d.next = true;
                } else if self.entry_second[i].q.val() {
                    self.viol_dup_second.d.next = true;
                } else {
                    self.second_write[i].next = true;
                }
            }
        }
        // The hit: the entry holding the current batch/task (one-hot), and the decisions.
        self.hit_unanswered.next = false;
        self.hit_second_now.next = false;
        self.commit_now.next = false;
        self.commit_last.next = false;
        self.selected_unit.next = bits::<SRC_BITS>(0);
        for i in 0..SO_UNITS {
            self.hit[i].next = (self.sel_same.val() & self.match_same[i].q.val())
                | (self.sel_task.val() & self.match_task[i].q.val())
                | (self.sel_batch.val() & self.match_batch[i].q.val());
            // A second request arriving now for the hit entry counts at once (it is merged
            // into the decision; its word reaches the accounting through the bypass).
            self.commit_ok[i].next = self.hit[i].val()
                & (self.entry_second[i].q.val() | self.second_for[i].val())
                & (self.entry_answered[i].q.val() | self.resp_free.val())
                & (!self.entry_last[i].q.val() | self.retire_free.val());
            if self.hit[i].val() {
                self.hit_unanswered.next =
                    self.hit_unanswered.val() | !self.entry_answered[i].q.val();
                self.selected_unit.next = self.selected_unit.val() | self.unit_index[i].val();
                if self.second_for[i].val() & !self.entry_second[i].q.val() {
                    self.hit_second_now.next = true;
                }
            }
            if self.commit_ok[i].val() {
                self.commit_now.next = true;
                self.commit_last.next = self.commit_last.val() | self.entry_last[i].q.val();
            }
        }
        self.respond_now.next = self.hit_unanswered.val() & self.resp_free.val();
        // The hit's non-zero lanes, one cycle later (with its SBBN): an AND-OR of registers.
        self.selected_nonzero.next = bits::<4>(0);
        for i in 0..SO_UNITS {
            self.hit_before[i].d.next = self.hit[i].val();
            if self.hit_before[i].q.val() {
                self.selected_nonzero.next =
                    self.selected_nonzero.val() | self.entry_nonzero[i].q.val();
            }
        }
        // SBBN storage: an accepted second request writes its unit's word; the hit's word is
        // read (a hit's second request was written in an earlier cycle, never in this one).
        self.second_accepted.next = false;
        for i in 0..SO_UNITS {
            if self.second_write[i].val() {
                self.second_accepted.next = true;
            }
        }
        self.sbbn_ram.clock.next = self.clock.val();
        self.ram_write.d.next = self.second_accepted.val();
        self.ram_write_unit.d.next = self.second_source.val();
        self.ram_write_word.d.next = self.second_data.val();
        self.sbbn_ram.write_address.next = self.ram_write_unit.q.val();
        self.sbbn_ram.write_data.next = self.ram_write_word.q.val();
        self.sbbn_ram.write_enable.next = self.ram_write.q.val();
        self.sbbn_ram.read_address.next = self.selected_unit.val();
        self.bypass.d.next = self.hit_second_now.val()
            | (self.ram_write.q.val() & (self.ram_write_unit.q.val() == self.selected_unit.val()));
        self.bypass_arrived.d.next = self.hit_second_now.val();
        self.ram_write_word_before.d.next = self.ram_write_word.q.val();
        self.selected_sbbn.next = self.sbbn_ram.read_data.val();
        if self.bypass.q.val() {
            if self.bypass_arrived.q.val() {
                self.selected_sbbn.next = self.ram_write_word.q.val();
            } else {
                self.selected_sbbn.next = self.ram_write_word_before.q.val();
            }
        }
        // Write-back: arrivals, second requests, answered, then the clears (accounted, bad).
        self.any_bad.next = false;
        for i in 0..SO_UNITS {
            self.entry_valid[i].d.next = self.entry_valid[i].q.val();
            self.entry_answered[i].d.next = self.entry_answered[i].q.val();
            self.entry_second[i].d.next = self.entry_second[i].q.val();
            self.entry_last[i].d.next = self.entry_last[i].q.val();
            self.entry_batch[i].d.next = self.entry_batch[i].q.val();
            self.entry_task[i].d.next = self.entry_task[i].q.val();
            self.entry_nonzero[i].d.next = self.entry_nonzero[i].q.val();
            // The fields are captured whenever they are free (an invalid entry's key, the lanes
            // of an entry without its second request), so their enables are plain registers.
            if !self.entry_valid[i].q.val() {
                self.entry_last[i].d.next = self.first_data.val().last;
                self.entry_batch[i].d.next = self.first_data.val().batch_id;
                self.entry_task[i].d.next = self.first_data.val().task_number;
            }
            if !self.entry_second[i].q.val() {
                self.entry_nonzero[i].d.next = self.second_nonzero.val();
            }
            // (A free entry's flags are reset by any arrival into it, the valid bit only by one
            // that is not a duplicate: the flags of an invalid entry are never read.)
            if self.arrive_raw[i].val() {
                self.entry_answered[i].d.next = false;
                self.entry_second[i].d.next = false;
            }
            if self.arrive[i].val() {
                self.entry_valid[i].d.next = true;
            }
            if self.second_write[i].val() {
                self.entry_second[i].d.next = true;
            }
            if self.hit[i].val() & self.resp_free.val() {
                self.entry_answered[i].d.next = true;
            }
            if self.commit_ok[i].val() | self.entry_bad[i].q.val() {
                self.entry_valid[i].d.next = false;
                self.entry_answered[i].d.next = false;
                self.entry_second[i].d.next = false;
            }
            if self.entry_bad[i].q.val() {
                self.any_bad.next = true;
            }
            // Match bits for next cycle, against this cycle's current batch/task (an entry
            // accounted now still matches (b, t), but then `sel_same` is low): the stored
            // key's compares, or the arriving request's (compared once for all entries) when
            // one arrives into the entry; its duplicate check only enters the final AND
            // through `next_valid`, so the compares and the check run side by side.
            self.next_valid[i].next =
                (self.entry_valid[i].q.val() & !self.entry_bad[i].q.val()) | self.arrive[i].val();
            self.entry_same[i].next = (self.entry_batch[i].q.val() == self.current_batch.val())
                & (self.entry_task[i].q.val() == self.current_task.val());
            self.entry_task_next[i].next = (self.entry_batch[i].q.val()
                == self.current_batch.val())
                & (self.entry_task[i].q.val() == self.current_task_next.val());
            self.entry_batch_next[i].next = (self.entry_batch[i].q.val()
                == self.current_batch_next.val())
                & (self.entry_task[i].q.val() == bits::<10>(0));
            self.match_same[i].d.next = self.next_valid[i].val() & self.entry_same[i].val();
            self.match_task[i].d.next = self.next_valid[i].val() & self.entry_task_next[i].val();
            self.match_batch[i].d.next = self.next_valid[i].val() & self.entry_batch_next[i].val();
            if self.arrive_raw[i].val() {
                self.match_same[i].d.next = self.next_valid[i].val() & self.arrive_same.q.val();
                self.match_task[i].d.next = self.next_valid[i].val() & self.arrive_task.q.val();
                self.match_batch[i].d.next = self.next_valid[i].val() & self.arrive_batch.q.val();
            }
            // Bad entries (SO-13), found from registers, cleared next cycle.
            self.distance[i].next = self.entry_batch[i].q.val() - self.current_batch.val();
            self.stale[i].next = self.started.val()
                & ((self.distance[i].val() >= self.behind.val())
                    | ((self.distance[i].val() == bits::<14>(0))
                        & (self.entry_task[i].q.val() < self.current_task.val())));
            self.entry_bad[i].d.next = self.entry_valid[i].q.val()
                & !self.entry_bad[i].q.val()
                & (self.stale[i].val()
                    | (self.unstreamed_valid.val()
                        & (self.entry_batch[i].q.val() == self.unstreamed_batch.val()))
                    | (self.arrival_outside.val()
                        & (self.arrival_source.val() == self.unit_index[i].val())));
        }
        self.viol_outside.d.next = self.any_bad.val()
            | (self.first_valid.val() & !self.first_busy.val() & self.first_duplicate.val());
        // The violation, one cycle after its causes: code 3 wins, then 4, then 1.
        self.violation.next =
            self.viol_outside.q.val() | self.viol_dup_second.q.val() | self.viol_no_first.q.val();
        self.violation_code.next = self.code_none.val();
        if self.viol_no_first.q.val() {
            self.violation_code.next = self.code_second_without_first.val();
        }
        if self.viol_dup_second.q.val() {
            self.violation_code.next = self.code_duplicate_second.val();
        }
        if self.viol_outside.q.val() {
            self.violation_code.next = self.code_outside_operation.val();
        }
        self.outstanding.next = false;
        for i in 0..SO_UNITS {
            if self.entry_valid[i].q.val() & !self.entry_answered[i].q.val() {
                self.outstanding.next = true;
            }
        }
        // Synchronous reset.
        if self.reset.val() {
            self.ram_write.d.next = false;
            self.bypass.d.next = false;
            for i in 0..SO_UNITS {
                self.entry_valid[i].d.next = false;
                self.entry_answered[i].d.next = false;
                self.entry_second[i].d.next = false;
                self.entry_last[i].d.next = false;
                self.entry_batch[i].d.next = bits::<14>(0);
                self.entry_task[i].d.next = bits::<10>(0);
                self.entry_nonzero[i].d.next = bits::<4>(0);
                self.match_same[i].d.next = false;
                self.match_task[i].d.next = false;
                self.match_batch[i].d.next = false;
                self.entry_bad[i].d.next = false;
                self.hit_before[i].d.next = false;
            }
            self.viol_outside.d.next = false;
            self.viol_dup_second.d.next = false;
            self.viol_no_first.d.next = false;
        }
    }
}
