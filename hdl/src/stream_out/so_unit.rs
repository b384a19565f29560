//! `SoUnit` — one distributed stream output unit (SPEC SO-5, SO-7, SO-8, SO-11, SO-12).
//!
//! Two stages, so that the bookkeeping of the next batch overlaps the writes of the current one:
//! - Stage A (request): takes a batch-ID packet from the MPC (`batch_*`, batch ID / task / last
//!   in the first-request layout), sends the first request (SO-5), counts the bytes the shader
//!   writes to L1 per buffer (`attr_*`), takes the batch-end packet (`end_*`) and then sends the
//!   second request with the counts (SO-7). The response (SO-6) may come before or after the
//!   second request (SO-8). When both are done and stage B is free, the job is handed over.
//! - Hand-over: the job is checked against SO-12 with [`FitCheck`] (the definition SSYNC's
//!   accounting stage applies too: a buffer the job writes 0 bytes to always fits). The test
//!   and the set of buffers the job writes are registered, and the hand-over reads them once
//!   stage A's job has been complete for a cycle (`request_settled`). A job that does not fit
//!   pulses `overflow` and writes nothing; a job with 0 bytes everywhere writes nothing; both
//!   pulse `job_done` at once and are handed over only while stage B is idle.
//! - Stage B (write): writes the buffers with bytes to write in order 0..3 at the response
//!   offsets, skipping buffers with 0 bytes, `min(remaining, bytes_per_cycle)` bytes per
//!   transfer (`wr_*`, valid/ready: the memory may stall it), back to back across buffers.
//!   Every transfer comes from registers: the current buffer's bytes left, bytes left after a
//!   full transfer, a last-transfer flag, the write offset (`wr_index` is that offset less the
//!   buffer's first one); per buffer, the same figures are prepared at the hand-over, so
//!   moving to the next buffer is a one-hot select.
//!   `bytes_per_cycle` is sampled the cycle before the hand-over and holds for the whole job.
//!
//! Ports: `clock`, `reset`; `bytes_per_cycle` (write bandwidth, must be ≥ 1), `buffer_size`
//! (lane i = size of buffer i); `batch_valid/ready/data`; `attr_valid/ready/buffer/bytes`;
//! `end_valid/ready`; `first_valid/ready/data`; `second_valid/ready/data`;
//! `resp_valid/ready/data`; `wr_valid/ready/buffer/offset/bytes/index/batch_id/task_number`
//! (`wr_index` = byte position inside this job's data for that buffer); status `busy`,
//! `writing`, `overflow` (pulse), `job_done` (pulse: a job finished, one per job, in order).
//!
//! Timing: first request the cycle after the batch packet; second request the cycle after the
//! end packet (not before the first request went out); hand-over two cycles after the last of
//! response / second request; the first write transfer in the next cycle; then one transfer
//! per cycle with no bubble between buffers or between jobs (the next job is handed over in
//! the cycle the last transfer of the current one is accepted), so a unit sustains
//! `bytes_per_cycle` when the memory accepts every cycle. One message outstanding towards
//! SSYNC at a time (SO-9).
use crate::msg::{FirstRequest, Msg128};
use crate::stream_out::fit_check::FitCheck;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SoUnit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub bytes_per_cycle: Signal<In, Bits<32>>,
    pub buffer_size: Signal<In, Msg128>,
    pub batch_valid: Signal<In, Bit>,
    pub batch_ready: Signal<Out, Bit>,
    pub batch_data: Signal<In, FirstRequest>,
    pub attr_valid: Signal<In, Bit>,
    pub attr_ready: Signal<Out, Bit>,
    pub attr_buffer: Signal<In, Bits<2>>,
    pub attr_bytes: Signal<In, Bits<32>>,
    pub end_valid: Signal<In, Bit>,
    pub end_ready: Signal<Out, Bit>,
    pub first_valid: Signal<Out, Bit>,
    pub first_ready: Signal<In, Bit>,
    pub first_data: Signal<Out, FirstRequest>,
    pub second_valid: Signal<Out, Bit>,
    pub second_ready: Signal<In, Bit>,
    pub second_data: Signal<Out, Msg128>,
    pub resp_valid: Signal<In, Bit>,
    pub resp_ready: Signal<Out, Bit>,
    pub resp_data: Signal<In, Msg128>,
    pub wr_valid: Signal<Out, Bit>,
    pub wr_ready: Signal<In, Bit>,
    pub wr_buffer: Signal<Out, Bits<2>>,
    pub wr_offset: Signal<Out, Bits<32>>,
    pub wr_bytes: Signal<Out, Bits<32>>,
    pub wr_index: Signal<Out, Bits<32>>,
    pub wr_batch_id: Signal<Out, Bits<14>>,
    pub wr_task_number: Signal<Out, Bits<10>>,
    pub busy: Signal<Out, Bit>,
    pub writing: Signal<Out, Bit>,
    pub overflow: Signal<Out, Bit>,
    pub job_done: Signal<Out, Bit>,
    // stage A
    request_busy: DFF<Bit>,
    request_first_pending: DFF<Bit>,
    request_counting: DFF<Bit>,
    request_second_pending: DFF<Bit>,
    request_answered: DFF<Bit>,
    first_data_reg: DFF<FirstRequest>,
    second_data_reg: DFF<Msg128>,
    request_offsets: DFF<Msg128>,
    /// Stage A's job is complete (all flags below settled) since last cycle: `FitCheck`'s
    /// `fits` and `writes_buffer` (the buffers it writes) describe it.
    request_settled: DFF<Bit>,
    // stage B
    writing_reg: DFF<Bit>,
    /// The buffers of the job in stage B, in write order (slot 0 is being written): valid,
    /// buffer, bytes left (this transfer included), bytes left after a full transfer (bytes -
    /// `job_bpc`), whether one transfer writes them all, and the next write offset. Loaded at
    /// the hand-over; slot 0 steps on each transfer; the slots shift down when its last
    /// transfer is accepted.
    slot_valid: [DFF<Bit>; 4],
    slot_buffer: [DFF<Bits<2>>; 4],
    slot_bytes: [DFF<Bits<32>>; 4],
    slot_excess: [DFF<Bits<32>>; 4],
    slot_last: [DFF<Bit>; 4],
    slot_offset: [DFF<Bits<32>>; 4],
    /// Slot 0's offset when it entered slot 0: `wr_index` (the byte index inside the job's
    /// data for that buffer) is `slot_offset[0]` less it, so no adder of its own.
    slot0_start: DFF<Bits<32>>,
    /// `bytes_per_cycle` as sampled before the hand-over (steady for the whole job).
    job_bpc: DFF<Bits<32>>,
    write_request: DFF<FirstRequest>,
    /// Stage A's job, registered every cycle (valid once its counts are final, as the
    /// hand-over requires): per buffer the bytes after one full transfer and whether one
    /// transfer writes them all, the `bytes_per_cycle` they were computed with, and for each
    /// write-order slot the buffer that goes there (one-hot, 0: none; from `writes_buffer`, so
    /// one cycle later than the rest, still before the hand-over reads it).
    prep_excess: [DFF<Bits<32>>; 4],
    prep_last: [DFF<Bit>; 4],
    prep_bpc: DFF<Bits<32>>,
    prep_order0: DFF<Bits<4>>,
    prep_order1: DFF<Bits<4>>,
    prep_order2: DFF<Bits<4>>,
    prep_order3: DFF<Bits<4>>,
    /// The SO-12 test, shared with SSYNC.
    fit_check: FitCheck,
    // combinational
    request_complete: Signal<Local, Bit>,
    handover: Signal<Local, Bit>,
    transfer: Signal<Local, Bit>,
    excess0: Signal<Local, Bits<32>>,
    bpc0: Signal<Local, Bits<32>>,
    excess_within_bpc: Signal<Local, Bit>,
    job_end: Signal<Local, Bit>,
    stage_b_free: Signal<Local, Bit>,
    load_slots: Signal<Local, Bit>,
    /// Slot 0's registers take a new value this cycle (a transfer, or stage B idle).
    slot0_advance: Signal<Local, Bit>,
    /// Slot 0's transfer is the job's last (its buffer's last, no slot behind it).
    slot0_final: Signal<Local, Bit>,
    /// Write order: which buffers have bytes, and the one-hot buffer of each slot.
    p0: Signal<Local, Bit>,
    p1: Signal<Local, Bit>,
    p2: Signal<Local, Bit>,
    p3: Signal<Local, Bit>,
    order0: Signal<Local, Bits<4>>,
    order1: Signal<Local, Bits<4>>,
    order2: Signal<Local, Bits<4>>,
    order3: Signal<Local, Bits<4>>,
    load_buffer0: Signal<Local, Bits<2>>,
    load_bytes0: Signal<Local, Bits<32>>,
    load_excess0: Signal<Local, Bits<32>>,
    load_last0: Signal<Local, Bit>,
    load_offset0: Signal<Local, Bits<32>>,
    load_buffer1: Signal<Local, Bits<2>>,
    load_bytes1: Signal<Local, Bits<32>>,
    load_excess1: Signal<Local, Bits<32>>,
    load_last1: Signal<Local, Bit>,
    load_offset1: Signal<Local, Bits<32>>,
    load_buffer2: Signal<Local, Bits<2>>,
    load_bytes2: Signal<Local, Bits<32>>,
    load_excess2: Signal<Local, Bits<32>>,
    load_last2: Signal<Local, Bit>,
    load_offset2: Signal<Local, Bits<32>>,
    load_buffer3: Signal<Local, Bits<2>>,
    load_bytes3: Signal<Local, Bits<32>>,
    load_excess3: Signal<Local, Bits<32>>,
    load_last3: Signal<Local, Bit>,
    load_offset3: Signal<Local, Bits<32>>,
    /// Stage A's job per buffer: bytes and the response's offset.
    job_bytes: [Signal<Local, Bits<32>>; 4],
    job_offset: [Signal<Local, Bits<32>>; 4],
    buffer_of: [Constant<Bits<2>>; 4],
    zero_msg: Constant<Msg128>,
    zero_req: Constant<FirstRequest>,
}

impl Default for SoUnit {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            bytes_per_cycle: Default::default(),
            buffer_size: Default::default(),
            batch_valid: Default::default(),
            batch_ready: Default::default(),
            batch_data: Default::default(),
            attr_valid: Default::default(),
            attr_ready: Default::default(),
            attr_buffer: Default::default(),
            attr_bytes: Default::default(),
            end_valid: Default::default(),
            end_ready: Default::default(),
            first_valid: Default::default(),
            first_ready: Default::default(),
            first_data: Default::default(),
            second_valid: Default::default(),
            second_ready: Default::default(),
            second_data: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_data: Default::default(),
            wr_valid: Default::default(),
            wr_ready: Default::default(),
            wr_buffer: Default::default(),
            wr_offset: Default::default(),
            wr_bytes: Default::default(),
            wr_index: Default::default(),
            wr_batch_id: Default::default(),
            wr_task_number: Default::default(),
            busy: Default::default(),
            writing: Default::default(),
            overflow: Default::default(),
            job_done: Default::default(),
            request_busy: Default::default(),
            request_first_pending: Default::default(),
            request_counting: Default::default(),
            request_second_pending: Default::default(),
            request_answered: Default::default(),
            first_data_reg: Default::default(),
            second_data_reg: Default::default(),
            request_offsets: Default::default(),
            request_settled: Default::default(),
            writing_reg: Default::default(),
            slot_valid: std::array::from_fn(|_| Default::default()),
            slot_buffer: std::array::from_fn(|_| Default::default()),
            slot_bytes: std::array::from_fn(|_| Default::default()),
            slot_excess: std::array::from_fn(|_| Default::default()),
            slot_last: std::array::from_fn(|_| Default::default()),
            slot_offset: std::array::from_fn(|_| Default::default()),
            slot0_start: Default::default(),
            job_bpc: Default::default(),
            write_request: Default::default(),
            prep_excess: std::array::from_fn(|_| Default::default()),
            prep_last: std::array::from_fn(|_| Default::default()),
            prep_bpc: Default::default(),
            prep_order0: Default::default(),
            prep_order1: Default::default(),
            prep_order2: Default::default(),
            prep_order3: Default::default(),
            fit_check: Default::default(),
            request_complete: Default::default(),
            handover: Default::default(),
            transfer: Default::default(),
            excess0: Default::default(),
            bpc0: Default::default(),
            excess_within_bpc: Default::default(),
            job_end: Default::default(),
            stage_b_free: Default::default(),
            load_slots: Default::default(),
            slot0_advance: Default::default(),
            slot0_final: Default::default(),
            p0: Default::default(),
            p1: Default::default(),
            p2: Default::default(),
            p3: Default::default(),
            order0: Default::default(),
            order1: Default::default(),
            order2: Default::default(),
            order3: Default::default(),
            load_buffer0: Default::default(),
            load_bytes0: Default::default(),
            load_excess0: Default::default(),
            load_last0: Default::default(),
            load_offset0: Default::default(),
            load_buffer1: Default::default(),
            load_bytes1: Default::default(),
            load_excess1: Default::default(),
            load_last1: Default::default(),
            load_offset1: Default::default(),
            load_buffer2: Default::default(),
            load_bytes2: Default::default(),
            load_excess2: Default::default(),
            load_last2: Default::default(),
            load_offset2: Default::default(),
            load_buffer3: Default::default(),
            load_bytes3: Default::default(),
            load_excess3: Default::default(),
            load_last3: Default::default(),
            load_offset3: Default::default(),
            job_bytes: std::array::from_fn(|_| Default::default()),
            job_offset: std::array::from_fn(|_| Default::default()),
            buffer_of: std::array::from_fn(|i| Constant::new(bits::<2>(i as u64))),
            zero_msg: Constant::new(Msg128::default()),
            zero_req: Constant::new(FirstRequest::default()),
        }
    }
}

impl Logic for SoUnit {
    /// Long because one `#[hdl_gen]` function holds both stages and the hand-over, with the
    /// four buffer lanes written out.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            request_busy,
            request_first_pending,
            request_counting,
            request_second_pending,
            request_answered,
            first_data_reg,
            second_data_reg,
            request_offsets,
            request_settled,
            writing_reg,
            slot0_start,
            job_bpc,
            prep_bpc,
            prep_order0,
            prep_order1,
            prep_order2,
            prep_order3,
            write_request
        );
        for i in 0..4 {
            self.prep_excess[i].clock.next = self.clock.val();
            self.prep_last[i].clock.next = self.clock.val();
            self.slot_valid[i].clock.next = self.clock.val();
            self.slot_buffer[i].clock.next = self.clock.val();
            self.slot_bytes[i].clock.next = self.clock.val();
            self.slot_excess[i].clock.next = self.clock.val();
            self.slot_last[i].clock.next = self.clock.val();
            self.slot_offset[i].clock.next = self.clock.val();
            self.slot_valid[i].d.next = self.slot_valid[i].q.val();
            self.slot_buffer[i].d.next = self.slot_buffer[i].q.val();
            self.slot_bytes[i].d.next = self.slot_bytes[i].q.val();
            self.slot_excess[i].d.next = self.slot_excess[i].q.val();
            self.slot_last[i].d.next = self.slot_last[i].q.val();
            self.slot_offset[i].d.next = self.slot_offset[i].q.val();
        }
        // ---- stage A ----
        self.batch_ready.next = !self.request_busy.q.val();
        self.first_valid.next = self.request_busy.q.val() & self.request_first_pending.q.val();
        self.first_data.next = self.first_data_reg.q.val();
        self.attr_ready.next = self.request_busy.q.val() & self.request_counting.q.val();
        self.end_ready.next = self.request_busy.q.val() & self.request_counting.q.val();
        self.second_valid.next = self.request_busy.q.val()
            & self.request_second_pending.q.val()
            & !self.request_first_pending.q.val();
        self.second_data.next = self.second_data_reg.q.val();
        self.resp_ready.next = self.request_busy.q.val()
            & !self.request_first_pending.q.val()
            & !self.request_answered.q.val();
        if self.batch_valid.val() & !self.request_busy.q.val() {
            self.request_first_pending.d.next = true;
            self.request_counting.d.next = true;
            self.request_second_pending.d.next = false;
            self.request_answered.d.next = false;
            self.first_data_reg.d.next = self.batch_data.val();
            self.second_data_reg.d.next = self.zero_msg.val();
        }
        if self.first_valid.val() & self.first_ready.val() {
            self.request_first_pending.d.next = false;
        }
        if self.attr_valid.val() & self.attr_ready.val() {
            if self.attr_buffer.val() == bits::<2>(0) {
                self.second_data_reg.d.next.lane0 =
                    self.second_data_reg.q.val().lane0 + self.attr_bytes.val();
            }
            if self.attr_buffer.val() == bits::<2>(1) {
                self.second_data_reg.d.next.lane1 =
                    self.second_data_reg.q.val().lane1 + self.attr_bytes.val();
            }
            if self.attr_buffer.val() == bits::<2>(2) {
                self.second_data_reg.d.next.lane2 =
                    self.second_data_reg.q.val().lane2 + self.attr_bytes.val();
            }
            if self.attr_buffer.val() == bits::<2>(3) {
                self.second_data_reg.d.next.lane3 =
                    self.second_data_reg.q.val().lane3 + self.attr_bytes.val();
            }
        }
        if self.end_valid.val() & self.end_ready.val() {
            self.request_counting.d.next = false;
            self.request_second_pending.d.next = true;
        }
        if self.second_valid.val() & self.second_ready.val() {
            self.request_second_pending.d.next = false;
        }
        if self.resp_valid.val() & self.resp_ready.val() {
            self.request_answered.d.next = true;
            self.request_offsets.d.next = self.resp_data.val();
        }
        // The job waiting in stage A: which buffers it writes, whether it fits (SO-12). Both
        // registered, with `request_settled`: the hand-over reads them once stage A's job has
        // been complete for a cycle, so they describe its final counts and offsets.
        self.fit_check.clock.next = self.clock.val();
        self.fit_check.offsets.next = self.request_offsets.q.val();
        self.fit_check.bytes.next = self.second_data_reg.q.val();
        self.fit_check.size.next = self.buffer_size.val();
        self.job_bytes[0].next = self.second_data_reg.q.val().lane0;
        self.job_bytes[1].next = self.second_data_reg.q.val().lane1;
        self.job_bytes[2].next = self.second_data_reg.q.val().lane2;
        self.job_bytes[3].next = self.second_data_reg.q.val().lane3;
        self.job_offset[0].next = self.request_offsets.q.val().lane0;
        self.job_offset[1].next = self.request_offsets.q.val().lane1;
        self.job_offset[2].next = self.request_offsets.q.val().lane2;
        self.job_offset[3].next = self.request_offsets.q.val().lane3;
        for i in 0..4 {
            self.prep_excess[i].d.next = self.job_bytes[i].val() - self.bytes_per_cycle.val();
            // `!(bpc < bytes)`, not `bytes <= bpc`: one borrow chain of its own (Yosys builds
            // `<=` from the subtract beside it, a borrow plus a 32-bit zero test).
            self.prep_last[i].d.next = !(self.bytes_per_cycle.val() < self.job_bytes[i].val());
        }
        self.prep_bpc.d.next = self.bytes_per_cycle.val();
        // Write order, from the registered set of buffers with bytes: slot k gets the k-th
        // lowest one (each bit one 4-input function of the set).
        self.p0.next = self.fit_check.writes_buffer.val().get_bit(0);
        self.p1.next = self.fit_check.writes_buffer.val().get_bit(1);
        self.p2.next = self.fit_check.writes_buffer.val().get_bit(2);
        self.p3.next = self.fit_check.writes_buffer.val().get_bit(3);
        self.order0.next = bits::<4>(0);
        self.order1.next = bits::<4>(0);
        self.order2.next = bits::<4>(0);
        self.order3.next = bits::<4>(0);
        if self.p0.val() {
            self.order0.next = bits::<4>(1);
        } else if self.p1.val() {
            self.order0.next = bits::<4>(2);
        } else if self.p2.val() {
            self.order0.next = bits::<4>(4);
        } else if self.p3.val() {
            self.order0.next = bits::<4>(8);
        }
        if self.p0.val() & self.p1.val() {
            self.order1.next = bits::<4>(2);
        } else if self.p2.val() & (self.p0.val() ^ self.p1.val()) {
            self.order1.next = bits::<4>(4);
        } else if self.p3.val()
            & ((self.p0.val() & !self.p1.val() & !self.p2.val())
                | (!self.p0.val() & self.p1.val() & !self.p2.val())
                | (!self.p0.val() & !self.p1.val() & self.p2.val()))
        {
            self.order1.next = bits::<4>(8);
        }
        if self.p0.val() & self.p1.val() & self.p2.val() {
            self.order2.next = bits::<4>(4);
        } else if self.p3.val()
            & ((self.p0.val() & self.p1.val())
                | (self.p0.val() & self.p2.val())
                | (self.p1.val() & self.p2.val()))
        {
            self.order2.next = bits::<4>(8);
        }
        if self.p0.val() & self.p1.val() & self.p2.val() & self.p3.val() {
            self.order3.next = bits::<4>(8);
        }
        self.prep_order0.d.next = self.order0.val();
        self.prep_order1.d.next = self.order1.val();
        self.prep_order2.d.next = self.order2.val();
        self.prep_order3.d.next = self.order3.val();
        self.request_complete.next = self.request_busy.q.val()
            & !self.request_first_pending.q.val()
            & !self.request_counting.q.val()
            & !self.request_second_pending.q.val()
            & self.request_answered.q.val();
        // ---- stage B: slot 0's transfer, from registers ----
        self.wr_valid.next = self.writing_reg.q.val();
        self.wr_buffer.next = self.slot_buffer[0].q.val();
        self.wr_offset.next = self.slot_offset[0].q.val();
        self.wr_bytes.next = self.job_bpc.q.val();
        if self.slot_last[0].q.val() {
            self.wr_bytes.next = self.slot_bytes[0].q.val();
        }
        self.wr_index.next = self.slot_offset[0].q.val() - self.slot0_start.q.val();
        self.wr_batch_id.next = self.write_request.q.val().batch_id;
        self.wr_task_number.next = self.write_request.q.val().task_number;
        self.overflow.next = false;
        self.job_done.next = false;
        self.transfer.next = self.writing_reg.q.val() & self.wr_ready.val();
        // slot 0's bytes after this transfer fit one more transfer (excess <= bytes_per_cycle),
        // compared in 16-bit halves that run side by side (two short carry chains).
        self.excess0.next = self.slot_excess[0].q.val();
        self.bpc0.next = self.job_bpc.q.val();
        self.excess_within_bpc.next = (self.excess0.val().get_bits::<16>(16)
            < self.bpc0.val().get_bits::<16>(16))
            | ((self.excess0.val().get_bits::<16>(16) == self.bpc0.val().get_bits::<16>(16))
                & (self.excess0.val().get_bits::<16>(0) <= self.bpc0.val().get_bits::<16>(0)));
        self.job_end.next =
            self.transfer.val() & self.slot_last[0].q.val() & !self.slot_valid[1].q.val();
        // The job's figures are loaded whenever they are not needed (stage B idle, or its last
        // transfer accepted; slots 1..3 whenever slot 1 is empty), so the wide registers'
        // enables do not wait for the hand-over decision; only the valid bits do.
        self.load_slots.next = !self.writing_reg.q.val() | self.job_end.val();
        // The slots' valid bits and the job's end.
        if self.transfer.val() & self.slot_last[0].q.val() {
            self.slot_valid[0].d.next = self.slot_valid[1].q.val();
            self.slot_valid[1].d.next = self.slot_valid[2].q.val();
            self.slot_valid[2].d.next = self.slot_valid[3].q.val();
            self.slot_valid[3].d.next = false;
            if !self.slot_valid[1].q.val() {
                self.writing_reg.d.next = false;
                self.job_done.next = true;
            }
        }
        // ---- hand-over: stage A's job enters stage B ----
        // Stage B takes a job to write in the cycle its last transfer is accepted; a job that
        // writes nothing (overflow, or 0 bytes) is handed over only while stage B is idle, so
        // `job_done` pulses once per job, in job order.
        self.stage_b_free.next = !self.writing_reg.q.val()
            | (self.job_end.val()
                & self.fit_check.fits.val()
                & (self.fit_check.writes_buffer.val() != bits::<4>(0)));
        self.handover.next = self.request_settled.q.val() & self.stage_b_free.val();
        self.request_settled.d.next = self.request_complete.val() & !self.handover.val();
        // The slots of stage A's job, in write order (AND-OR over the buffers).
        self.load_buffer0.next = bits::<2>(0);
        self.load_bytes0.next = bits::<32>(0);
        self.load_excess0.next = bits::<32>(0);
        self.load_last0.next = false;
        self.load_offset0.next = bits::<32>(0);
        self.load_buffer1.next = bits::<2>(0);
        self.load_bytes1.next = bits::<32>(0);
        self.load_excess1.next = bits::<32>(0);
        self.load_last1.next = false;
        self.load_offset1.next = bits::<32>(0);
        self.load_buffer2.next = bits::<2>(0);
        self.load_bytes2.next = bits::<32>(0);
        self.load_excess2.next = bits::<32>(0);
        self.load_last2.next = false;
        self.load_offset2.next = bits::<32>(0);
        self.load_buffer3.next = bits::<2>(0);
        self.load_bytes3.next = bits::<32>(0);
        self.load_excess3.next = bits::<32>(0);
        self.load_last3.next = false;
        self.load_offset3.next = bits::<32>(0);
        for i in 0..4 {
            if self.prep_order0.q.val().get_bit(i) {
                self.load_buffer0.next = self.load_buffer0.val() | self.buffer_of[i].val();
                self.load_bytes0.next = self.load_bytes0.val() | self.job_bytes[i].val();
                self.load_excess0.next = self.load_excess0.val() | self.prep_excess[i].q.val();
                self.load_last0.next = self.load_last0.val() | self.prep_last[i].q.val();
                self.load_offset0.next = self.load_offset0.val() | self.job_offset[i].val();
            }
            if self.prep_order1.q.val().get_bit(i) {
                self.load_buffer1.next = self.load_buffer1.val() | self.buffer_of[i].val();
                self.load_bytes1.next = self.load_bytes1.val() | self.job_bytes[i].val();
                self.load_excess1.next = self.load_excess1.val() | self.prep_excess[i].q.val();
                self.load_last1.next = self.load_last1.val() | self.prep_last[i].q.val();
                self.load_offset1.next = self.load_offset1.val() | self.job_offset[i].val();
            }
            if self.prep_order2.q.val().get_bit(i) {
                self.load_buffer2.next = self.load_buffer2.val() | self.buffer_of[i].val();
                self.load_bytes2.next = self.load_bytes2.val() | self.job_bytes[i].val();
                self.load_excess2.next = self.load_excess2.val() | self.prep_excess[i].q.val();
                self.load_last2.next = self.load_last2.val() | self.prep_last[i].q.val();
                self.load_offset2.next = self.load_offset2.val() | self.job_offset[i].val();
            }
            if self.prep_order3.q.val().get_bit(i) {
                self.load_buffer3.next = self.load_buffer3.val() | self.buffer_of[i].val();
                self.load_bytes3.next = self.load_bytes3.val() | self.job_bytes[i].val();
                self.load_excess3.next = self.load_excess3.val() | self.prep_excess[i].q.val();
                self.load_last3.next = self.load_last3.val() | self.prep_last[i].q.val();
                self.load_offset3.next = self.load_offset3.val() | self.job_offset[i].val();
            }
        }
        // Each register group's enable is written as the outermost condition, the fewest
        // inputs it needs, and the choice of its next value below it reads registers only:
        // `wr_ready` reaches a clock-enable net through one LUT (iCE40: the hand-over's loads
        // were three LUTs deep behind it).
        // Slot 0 steps, shifts or loads on every transfer, and loads while stage B is idle.
        self.slot0_advance.next = !self.writing_reg.q.val() | self.wr_ready.val();
        // Slot 0's current transfer is the job's last: slot 0 then loads stage A's job.
        self.slot0_final.next = self.slot_last[0].q.val() & !self.slot_valid[1].q.val();
        if self.slot0_advance.val() {
            if !self.writing_reg.q.val() | self.slot0_final.val() {
                self.slot_buffer[0].d.next = self.load_buffer0.val();
                self.slot_bytes[0].d.next = self.load_bytes0.val();
                self.slot_excess[0].d.next = self.load_excess0.val();
                self.slot_last[0].d.next = self.load_last0.val();
                self.slot_offset[0].d.next = self.load_offset0.val();
            } else if self.slot_last[0].q.val() {
                // The buffer is written: the next one moves into slot 0.
                self.slot_buffer[0].d.next = self.slot_buffer[1].q.val();
                self.slot_bytes[0].d.next = self.slot_bytes[1].q.val();
                self.slot_excess[0].d.next = self.slot_excess[1].q.val();
                self.slot_last[0].d.next = self.slot_last[1].q.val();
                self.slot_offset[0].d.next = self.slot_offset[1].q.val();
            } else {
                self.slot_bytes[0].d.next = self.slot_excess[0].q.val();
                self.slot_excess[0].d.next = self.slot_excess[0].q.val() - self.job_bpc.q.val();
                self.slot_last[0].d.next = self.excess_within_bpc.val();
                self.slot_offset[0].d.next = self.slot_offset[0].q.val() + self.job_bpc.q.val();
            }
        }
        // Slot 0's start (for `wr_index`) changes when slot 0 takes another buffer.
        if !self.writing_reg.q.val() | (self.wr_ready.val() & self.slot_last[0].q.val()) {
            self.slot0_start.d.next = self.load_offset0.val();
            if self.writing_reg.q.val() & self.slot_valid[1].q.val() {
                self.slot0_start.d.next = self.slot_offset[1].q.val();
            }
        }
        // The job's batch/task: replaced when stage B is idle or the job's last transfer is
        // accepted (`load_slots`).
        if self.load_slots.val() {
            self.write_request.d.next = self.first_data_reg.q.val();
        }
        // `job_bpc` is read only while slot 0 is not the job's final transfer (`wr_bytes` of
        // a final transfer is `slot_bytes`, and its step is not kept), so it loads whenever
        // that holds, without waiting for `wr_ready`: its last load before a job's first
        // transfer is at the hand-over, as the slots' figures are.
        if !self.writing_reg.q.val() | self.slot0_final.val() {
            self.job_bpc.d.next = self.prep_bpc.q.val();
        }
        // Slots 1..3 shift down with slot 0's last transfer, and load stage A's job whenever
        // slot 1 is empty.
        if !self.slot_valid[1].q.val() {
            self.slot_buffer[1].d.next = self.load_buffer1.val();
            self.slot_bytes[1].d.next = self.load_bytes1.val();
            self.slot_excess[1].d.next = self.load_excess1.val();
            self.slot_last[1].d.next = self.load_last1.val();
            self.slot_offset[1].d.next = self.load_offset1.val();
            self.slot_buffer[2].d.next = self.load_buffer2.val();
            self.slot_bytes[2].d.next = self.load_bytes2.val();
            self.slot_excess[2].d.next = self.load_excess2.val();
            self.slot_last[2].d.next = self.load_last2.val();
            self.slot_offset[2].d.next = self.load_offset2.val();
            self.slot_buffer[3].d.next = self.load_buffer3.val();
            self.slot_bytes[3].d.next = self.load_bytes3.val();
            self.slot_excess[3].d.next = self.load_excess3.val();
            self.slot_last[3].d.next = self.load_last3.val();
            self.slot_offset[3].d.next = self.load_offset3.val();
        } else if self.wr_ready.val() & self.slot_last[0].q.val() {
            self.slot_buffer[1].d.next = self.slot_buffer[2].q.val();
            self.slot_bytes[1].d.next = self.slot_bytes[2].q.val();
            self.slot_excess[1].d.next = self.slot_excess[2].q.val();
            self.slot_last[1].d.next = self.slot_last[2].q.val();
            self.slot_offset[1].d.next = self.slot_offset[2].q.val();
            self.slot_buffer[2].d.next = self.slot_buffer[3].q.val();
            self.slot_bytes[2].d.next = self.slot_bytes[3].q.val();
            self.slot_excess[2].d.next = self.slot_excess[3].q.val();
            self.slot_last[2].d.next = self.slot_last[3].q.val();
            self.slot_offset[2].d.next = self.slot_offset[3].q.val();
        }
        // Stage A is busy from the batch packet to the hand-over, written as one expression
        // (not an enable) so that the hand-over reaches the flip-flop through one LUT in its
        // cell instead of a clock-enable net.
        self.request_busy.d.next = (self.request_busy.q.val() & !self.handover.val())
            | (!self.request_busy.q.val() & self.batch_valid.val());
        if self.handover.val() {
            if !self.fit_check.fits.val() {
                self.overflow.next = true;
                self.job_done.next = true;
            } else if self.fit_check.writes_buffer.val() == bits::<4>(0) {
                self.job_done.next = true;
            } else {
                self.writing_reg.d.next = true;
                self.slot_valid[0].d.next = self.prep_order0.q.val() != bits::<4>(0);
                self.slot_valid[1].d.next = self.prep_order1.q.val() != bits::<4>(0);
                self.slot_valid[2].d.next = self.prep_order2.q.val() != bits::<4>(0);
                self.slot_valid[3].d.next = self.prep_order3.q.val() != bits::<4>(0);
            }
        }
        self.busy.next = self.request_busy.q.val() | self.writing_reg.q.val();
        self.writing.next = self.writing_reg.q.val();
        if self.reset.val() {
            self.request_busy.d.next = false;
            self.request_first_pending.d.next = false;
            self.request_counting.d.next = false;
            self.request_second_pending.d.next = false;
            self.request_answered.d.next = false;
            self.request_settled.d.next = false;
            self.first_data_reg.d.next = self.zero_req.val();
            self.second_data_reg.d.next = self.zero_msg.val();
            self.request_offsets.d.next = self.zero_msg.val();
            self.writing_reg.d.next = false;
            for i in 0..4 {
                self.slot_valid[i].d.next = false;
            }
        }
    }
}
