//! `MsgTable` — SSYNC's message table, one entry per SO unit (SPEC SO-8, SO-9, SO-13); a
//! sub-block of [`Ssync`](crate::stream_out::ssync::Ssync).
//!
//! What it does: entry i holds SO unit i's first request (batch, task, last), whether it was
//! answered, and its second request (SBBN) if that came first. This cycle's arrivals are merged
//! into the entries (as if already in the table), so an incoming request is matched in the
//! cycle it arrives; every cycle all merged entries are compared with the current batch/task
//! (while `serving`), so after an advance the waiting entry is answered without a new message.
//! The lowest matching entry is selected: `respond_now` when it was not answered yet and the
//! parent's response register is free (`resp_free`); `commit_now` (account it, SO-7/SO-10) when
//! it is answered or being answered, has its second request, and, if it is the last task of
//! its batch, the retire register is free (`retire_free`). Write-back: the merged entries are
//! stored; the selected entry is marked answered on `respond_now` and cleared on `commit_now`;
//! a stale entry is cleared.
//!
//! Bad input (SO-13): a first request from a unit whose entry is still occupied (one message
//! outstanding per unit, SO-9) is back-pressured (`first_ready` low). `violation_code`:
//! [`VIOL_SECOND_WITHOUT_FIRST`] a second request with no first request from that unit;
//! [`VIOL_OUTSIDE_OPERATION`] a request for a batch outside every operation, its entry is
//! cleared (stale): behind the current batch/task once an operation has been loaded
//! (`started`: never streamed, or already accounted); on arrival for a batch already given out
//! that no operation in the FIFO covers (`arrival_outside`); or, while it waits, when the work
//! token of its batch arrives outside every operation (`unstreamed_valid/unstreamed_batch`).
//! So no request waits forever (SO-13: never a deadlock). [`VIOL_DUPLICATE_SECOND`] a second
//! second-request.
//! The offending message is dropped; nothing already accepted is lost. Several in one cycle:
//! the code of the highest entry is reported.
//!
//! Parameters: `SO_UNITS` entries; `SRC_BITS` = clog2(SO_UNITS) (≥1).
//! Ports: `clock`, `reset`; `first_valid/first_ready/first_data/first_source`,
//! `second_valid/second_ready/second_data/second_source` (as at `Ssync`); from the parent
//! `current_batch`, `current_task`, `started`, `arrival_outside`, `unstreamed_valid`,
//! `unstreamed_batch`, `serving`, `resp_free`, `retire_free`; to the
//! parent `respond_now`, `commit_now` and the selected entry's `selected_unit`,
//! `selected_last`, `selected_sbbn`; `outstanding` (an entry waits for its response, SO-9);
//! `violation` / `violation_code` (combinational, in the cycle of the message).
//! Timing: combinational from requests, current batch/task and the free flags to the decisions
//! and the violation (zero latency); the write-back takes effect in the next cycle. One first
//! and one second request per cycle; `second_ready` is always high. The decisions are made
//! here rather than in `Ssync` so that no parent logic feeds back into this block: the exported
//! Verilog has no combinational loop between the two always blocks (Verilator UNOPTFLAT).
use crate::msg::{FirstRequest, Msg128};
use rust_hdl::prelude::*;

/// `violation_code` when there is no violation.
pub const VIOL_NONE: u64 = 0;
/// `violation_code`: a second request with no first request from that SO unit.
pub const VIOL_SECOND_WITHOUT_FIRST: u64 = 1;
/// `violation_code`: a request for a batch/task outside every operation (behind the current
/// one, or a batch given out while streaming was disabled).
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
    pub second_valid: Signal<In, Bit>,
    pub second_ready: Signal<Out, Bit>,
    pub second_data: Signal<In, Msg128>,
    pub second_source: Signal<In, Bits<SRC_BITS>>,
    // from the parent
    pub current_batch: Signal<In, Bits<14>>,
    pub current_task: Signal<In, Bits<10>>,
    pub started: Signal<In, Bit>,
    /// This cycle's first request is for a batch outside every operation (from the op FIFO's
    /// probe: issued, and no operation covers it).
    pub arrival_outside: Signal<In, Bit>,
    /// A work token outside every operation is accepted this cycle, with its batch ID.
    pub unstreamed_valid: Signal<In, Bit>,
    pub unstreamed_batch: Signal<In, Bits<14>>,
    pub serving: Signal<In, Bit>,
    pub resp_free: Signal<In, Bit>,
    pub retire_free: Signal<In, Bit>,
    // the entry that matches the current batch/task, and what is done with it this cycle
    pub respond_now: Signal<Out, Bit>,
    pub commit_now: Signal<Out, Bit>,
    pub selected_unit: Signal<Out, Bits<SRC_BITS>>,
    pub selected_last: Signal<Out, Bit>,
    pub selected_sbbn: Signal<Out, Msg128>,
    // status
    pub outstanding: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    pub violation_code: Signal<Out, Bits<3>>,
    // the table
    table_first: [DFF<Bit>; SO_UNITS],
    table_answered: [DFF<Bit>; SO_UNITS],
    table_second: [DFF<Bit>; SO_UNITS],
    table_last: [DFF<Bit>; SO_UNITS],
    table_batch: [DFF<Bits<14>>; SO_UNITS],
    table_task: [DFF<Bits<10>>; SO_UNITS],
    table_sbbn: [DFF<Msg128>; SO_UNITS],
    // combinational: the table with this cycle's arrivals merged in
    merged_first: [Signal<Local, Bit>; SO_UNITS],
    merged_second: [Signal<Local, Bit>; SO_UNITS],
    merged_last: [Signal<Local, Bit>; SO_UNITS],
    merged_batch: [Signal<Local, Bits<14>>; SO_UNITS],
    merged_task: [Signal<Local, Bits<10>>; SO_UNITS],
    merged_sbbn: [Signal<Local, Msg128>; SO_UNITS],
    merged_distance: [Signal<Local, Bits<14>>; SO_UNITS],
    merged_stale: [Signal<Local, Bit>; SO_UNITS],
    arrived_outside: [Signal<Local, Bit>; SO_UNITS],
    merged_hit: [Signal<Local, Bit>; SO_UNITS],
    selected_hit: Signal<Local, Bit>,
    selected_answered: Signal<Local, Bit>,
    selected_second: Signal<Local, Bit>,
    unit_index: [Constant<Bits<SRC_BITS>>; SO_UNITS],
    behind: Constant<Bits<14>>,
    code_none: Constant<Bits<3>>,
    code_second_without_first: Constant<Bits<3>>,
    code_outside_operation: Constant<Bits<3>>,
    code_duplicate_second: Constant<Bits<3>>,
    zero_msg: Constant<Msg128>,
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
            second_valid: Default::default(),
            second_ready: Default::default(),
            second_data: Default::default(),
            second_source: Default::default(),
            current_batch: Default::default(),
            current_task: Default::default(),
            started: Default::default(),
            arrival_outside: Default::default(),
            unstreamed_valid: Default::default(),
            unstreamed_batch: Default::default(),
            serving: Default::default(),
            resp_free: Default::default(),
            retire_free: Default::default(),
            respond_now: Default::default(),
            commit_now: Default::default(),
            selected_unit: Default::default(),
            selected_last: Default::default(),
            selected_sbbn: Default::default(),
            outstanding: Default::default(),
            violation: Default::default(),
            violation_code: Default::default(),
            table_first: std::array::from_fn(|_| Default::default()),
            table_answered: std::array::from_fn(|_| Default::default()),
            table_second: std::array::from_fn(|_| Default::default()),
            table_last: std::array::from_fn(|_| Default::default()),
            table_batch: std::array::from_fn(|_| Default::default()),
            table_task: std::array::from_fn(|_| Default::default()),
            table_sbbn: std::array::from_fn(|_| Default::default()),
            merged_first: std::array::from_fn(|_| Default::default()),
            merged_second: std::array::from_fn(|_| Default::default()),
            merged_last: std::array::from_fn(|_| Default::default()),
            merged_batch: std::array::from_fn(|_| Default::default()),
            merged_task: std::array::from_fn(|_| Default::default()),
            merged_sbbn: std::array::from_fn(|_| Default::default()),
            merged_distance: std::array::from_fn(|_| Default::default()),
            merged_stale: std::array::from_fn(|_| Default::default()),
            arrived_outside: std::array::from_fn(|_| Default::default()),
            merged_hit: std::array::from_fn(|_| Default::default()),
            selected_hit: Default::default(),
            selected_answered: Default::default(),
            selected_second: Default::default(),
            unit_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
            behind: Constant::new(bits::<14>(1 << 13)),
            code_none: Constant::new(bits::<3>(VIOL_NONE)),
            code_second_without_first: Constant::new(bits::<3>(VIOL_SECOND_WITHOUT_FIRST)),
            code_outside_operation: Constant::new(bits::<3>(VIOL_OUTSIDE_OPERATION)),
            code_duplicate_second: Constant::new(bits::<3>(VIOL_DUPLICATE_SECOND)),
            zero_msg: Constant::new(Msg128::default()),
        }
    }
}

impl<const SO_UNITS: usize, const SRC_BITS: usize> Logic for MsgTable<SO_UNITS, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..SO_UNITS {
            self.table_first[i].clock.next = self.clock.val();
            self.table_answered[i].clock.next = self.clock.val();
            self.table_second[i].clock.next = self.clock.val();
            self.table_last[i].clock.next = self.clock.val();
            self.table_batch[i].clock.next = self.clock.val();
            self.table_task[i].clock.next = self.clock.val();
            self.table_sbbn[i].clock.next = self.clock.val();
            self.table_answered[i].d.next = self.table_answered[i].q.val();
        }
        // Merge this cycle's arrivals, detect bad input.
        self.first_ready.next = true;
        self.second_ready.next = true;
        self.violation.next = false;
        self.violation_code.next = self.code_none.val();
        for i in 0..SO_UNITS {
            self.merged_first[i].next = self.table_first[i].q.val();
            self.merged_second[i].next = self.table_second[i].q.val();
            self.merged_last[i].next = self.table_last[i].q.val();
            self.merged_batch[i].next = self.table_batch[i].q.val();
            self.merged_task[i].next = self.table_task[i].q.val();
            self.merged_sbbn[i].next = self.table_sbbn[i].q.val();
            self.arrived_outside[i].next = false;
            if self.first_valid.val() & (self.first_source.val() == self.unit_index[i].val()) {
                if self.table_first[i].q.val() {
                    self.first_ready.next = false;
                } else {
                    self.arrived_outside[i].next = self.arrival_outside.val();
                    self.merged_first[i].next = true;
                    self.merged_last[i].next = self.first_data.val().last;
                    self.merged_batch[i].next = self.first_data.val().batch_id;
                    self.merged_task[i].next = self.first_data.val().task_number;
                }
            }
            if self.second_valid.val() & (self.second_source.val() == self.unit_index[i].val()) {
                if !self.merged_first[i].val() {
                    self.violation.next = true;
                    self.violation_code.next = self.code_second_without_first.val();
                } else if self.table_second[i].q.val() {
                    self.violation.next = true;
                    self.violation_code.next = self.code_duplicate_second.val();
                } else {
                    self.merged_second[i].next = true;
                    self.merged_sbbn[i].next = self.second_data.val();
                }
            }
            self.merged_distance[i].next = self.merged_batch[i].val() - self.current_batch.val();
            self.merged_stale[i].next = (self.started.val()
                & self.merged_first[i].val()
                & ((self.merged_distance[i].val() >= self.behind.val())
                    | ((self.merged_distance[i].val() == bits::<14>(0))
                        & (self.merged_task[i].val() < self.current_task.val()))))
                | self.arrived_outside[i].val()
                | (self.unstreamed_valid.val()
                    & self.merged_first[i].val()
                    & (self.merged_batch[i].val() == self.unstreamed_batch.val()));
            self.merged_hit[i].next = self.serving.val()
                & self.merged_first[i].val()
                & (self.merged_batch[i].val() == self.current_batch.val())
                & (self.merged_task[i].val() == self.current_task.val());
            if self.merged_stale[i].val() {
                self.violation.next = true;
                self.violation_code.next = self.code_outside_operation.val();
            }
        }
        // The entry that matches the current batch/task (lowest index first).
        self.selected_hit.next = false;
        self.selected_unit.next = bits::<SRC_BITS>(0);
        self.selected_answered.next = false;
        self.selected_second.next = false;
        self.selected_last.next = false;
        self.selected_sbbn.next = self.merged_sbbn[0].val();
        for i in 0..SO_UNITS {
            if self.merged_hit[i].val() & !self.selected_hit.val() {
                self.selected_hit.next = true;
                self.selected_unit.next = self.unit_index[i].val();
                self.selected_answered.next = self.table_answered[i].q.val();
                self.selected_second.next = self.merged_second[i].val();
                self.selected_last.next = self.merged_last[i].val();
                self.selected_sbbn.next = self.merged_sbbn[i].val();
            }
        }
        self.respond_now.next =
            self.selected_hit.val() & !self.selected_answered.val() & self.resp_free.val();
        self.commit_now.next = self.selected_hit.val()
            & (self.selected_answered.val() | self.respond_now.val())
            & self.selected_second.val()
            & (!self.selected_last.val() | self.retire_free.val());
        // Write-back.
        for i in 0..SO_UNITS {
            self.table_first[i].d.next = self.merged_first[i].val();
            self.table_second[i].d.next = self.merged_second[i].val();
            self.table_last[i].d.next = self.merged_last[i].val();
            self.table_batch[i].d.next = self.merged_batch[i].val();
            self.table_task[i].d.next = self.merged_task[i].val();
            self.table_sbbn[i].d.next = self.merged_sbbn[i].val();
            if self.respond_now.val() & (self.selected_unit.val() == self.unit_index[i].val()) {
                self.table_answered[i].d.next = true;
            }
            if (self.commit_now.val() & (self.selected_unit.val() == self.unit_index[i].val()))
                | self.merged_stale[i].val()
            {
                self.table_first[i].d.next = false;
                self.table_second[i].d.next = false;
                self.table_answered[i].d.next = false;
            }
        }
        self.outstanding.next = false;
        for i in 0..SO_UNITS {
            if self.table_first[i].q.val() & !self.table_answered[i].q.val() {
                self.outstanding.next = true;
            }
        }
        // Synchronous reset.
        if self.reset.val() {
            for i in 0..SO_UNITS {
                self.table_first[i].d.next = false;
                self.table_answered[i].d.next = false;
                self.table_second[i].d.next = false;
                self.table_last[i].d.next = false;
                self.table_batch[i].d.next = bits::<14>(0);
                self.table_task[i].d.next = bits::<10>(0);
                self.table_sbbn[i].d.next = self.zero_msg.val();
            }
        }
    }
}
