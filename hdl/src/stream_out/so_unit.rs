//! `SoUnit` — one distributed stream output unit (SPEC SO-5, SO-7, SO-8, SO-11, SO-12).
//!
//! Two stages, so that the bookkeeping of the next batch overlaps the writes of the current one:
//! - Stage A (request): takes a batch-ID packet from the MPC (`batch_*`, batch ID / task / last
//!   in the first-request layout), sends the first request (SO-5), counts the bytes the shader
//!   writes to L1 per buffer (`attr_*`), takes the batch-end packet (`end_*`) and then sends the
//!   second request with the counts (SO-7). The response (SO-6) may come before or after the
//!   second request (SO-8). When both are done and stage B is free, the job is handed over.
//! - Hand-over: the job is checked against SO-12 with [`FitCheck`], the block SSYNC uses (a
//!   buffer the job writes 0 bytes to always fits). A job that does not fit pulses `overflow`
//!   and writes nothing; a job with 0 bytes everywhere writes nothing; both pulse `job_done`
//!   at once and are handed over only while stage B is idle.
//! - Stage B (write): writes the buffers with bytes to write in order 0..3 at the response
//!   offsets, skipping buffers with 0 bytes, `min(remaining, bytes_per_cycle)` bytes per
//!   transfer (`wr_*`, valid/ready: the memory may stall it), back to back across buffers.
//!
//! Ports: `clock`, `reset`; `bytes_per_cycle` (write bandwidth, must be ≥ 1), `buffer_size`
//! (lane i = size of buffer i); `batch_valid/ready/data`; `attr_valid/ready/buffer/bytes`;
//! `end_valid/ready`; `first_valid/ready/data`; `second_valid/ready/data`;
//! `resp_valid/ready/data`; `wr_valid/ready/buffer/offset/bytes/index/batch_id/task_number`
//! (`wr_index` = byte position inside this job's data for that buffer); status `busy`,
//! `writing`, `overflow` (pulse), `job_done` (pulse: a job finished, one per job, in order).
//!
//! Timing: first request the cycle after the batch packet; second request the cycle after the
//! end packet (not before the first request went out); hand-over one cycle after the last of
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
    // stage B
    writing_reg: DFF<Bit>,
    /// Bit i: buffer i still has bytes to write for the job in stage B.
    write_pending: DFF<Bits<4>>,
    wr_index_reg: DFF<Bits<32>>,
    write_bytes: DFF<Msg128>,
    write_offsets: DFF<Msg128>,
    write_request: DFF<FirstRequest>,
    /// The SO-12 test, shared with SSYNC.
    fit_check: FitCheck,
    // combinational
    handover: Signal<Local, Bit>,
    stage_b_free: Signal<Local, Bit>,
    job_pending: Signal<Local, Bits<4>>,
    current_buffer: Signal<Local, Bits<2>>,
    last_chunk: Signal<Local, Bit>,
    pending_after: Signal<Local, Bits<4>>,
    current_bytes: Signal<Local, Bits<32>>,
    current_offset: Signal<Local, Bits<32>>,
    remaining: Signal<Local, Bits<32>>,
    chunk: Signal<Local, Bits<32>>,
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
            writing_reg: Default::default(),
            write_pending: Default::default(),
            wr_index_reg: Default::default(),
            write_bytes: Default::default(),
            write_offsets: Default::default(),
            write_request: Default::default(),
            fit_check: Default::default(),
            handover: Default::default(),
            stage_b_free: Default::default(),
            job_pending: Default::default(),
            current_buffer: Default::default(),
            last_chunk: Default::default(),
            pending_after: Default::default(),
            current_bytes: Default::default(),
            current_offset: Default::default(),
            remaining: Default::default(),
            chunk: Default::default(),
            zero_msg: Constant::new(Msg128::default()),
            zero_req: Constant::new(FirstRequest::default()),
        }
    }
}

impl Logic for SoUnit {
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
            writing_reg,
            write_pending,
            wr_index_reg,
            write_bytes,
            write_offsets,
            write_request
        );
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
            self.request_busy.d.next = true;
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
        // The job waiting in stage A: does it fit (SO-12), which buffers does it write?
        self.fit_check.offsets.next = self.request_offsets.q.val();
        self.fit_check.bytes.next = self.second_data_reg.q.val();
        self.fit_check.size.next = self.buffer_size.val();
        self.job_pending.next = bits::<4>(0);
        if self.second_data_reg.q.val().lane0 != bits::<32>(0) {
            self.job_pending.next = self.job_pending.val() | bits::<4>(0b0001);
        }
        if self.second_data_reg.q.val().lane1 != bits::<32>(0) {
            self.job_pending.next = self.job_pending.val() | bits::<4>(0b0010);
        }
        if self.second_data_reg.q.val().lane2 != bits::<32>(0) {
            self.job_pending.next = self.job_pending.val() | bits::<4>(0b0100);
        }
        if self.second_data_reg.q.val().lane3 != bits::<32>(0) {
            self.job_pending.next = self.job_pending.val() | bits::<4>(0b1000);
        }
        // ---- stage B: the buffer being written is the lowest one with bytes pending ----
        self.current_buffer.next = bits::<2>(3);
        if self.write_pending.q.val().get_bit(2) {
            self.current_buffer.next = bits::<2>(2);
        }
        if self.write_pending.q.val().get_bit(1) {
            self.current_buffer.next = bits::<2>(1);
        }
        if self.write_pending.q.val().get_bit(0) {
            self.current_buffer.next = bits::<2>(0);
        }
        self.current_bytes.next = self.write_bytes.q.val().lane0;
        self.current_offset.next = self.write_offsets.q.val().lane0;
        if self.current_buffer.val() == bits::<2>(1) {
            self.current_bytes.next = self.write_bytes.q.val().lane1;
            self.current_offset.next = self.write_offsets.q.val().lane1;
        }
        if self.current_buffer.val() == bits::<2>(2) {
            self.current_bytes.next = self.write_bytes.q.val().lane2;
            self.current_offset.next = self.write_offsets.q.val().lane2;
        }
        if self.current_buffer.val() == bits::<2>(3) {
            self.current_bytes.next = self.write_bytes.q.val().lane3;
            self.current_offset.next = self.write_offsets.q.val().lane3;
        }
        self.remaining.next = self.current_bytes.val() - self.wr_index_reg.q.val();
        self.last_chunk.next = true;
        self.chunk.next = self.remaining.val();
        if self.remaining.val() > self.bytes_per_cycle.val() {
            self.last_chunk.next = false;
            self.chunk.next = self.bytes_per_cycle.val();
        }
        self.pending_after.next = self.write_pending.q.val();
        if self.current_buffer.val() == bits::<2>(0) {
            self.pending_after.next = self.write_pending.q.val() & bits::<4>(0b1110);
        }
        if self.current_buffer.val() == bits::<2>(1) {
            self.pending_after.next = self.write_pending.q.val() & bits::<4>(0b1101);
        }
        if self.current_buffer.val() == bits::<2>(2) {
            self.pending_after.next = self.write_pending.q.val() & bits::<4>(0b1011);
        }
        if self.current_buffer.val() == bits::<2>(3) {
            self.pending_after.next = self.write_pending.q.val() & bits::<4>(0b0111);
        }
        self.wr_valid.next = self.writing_reg.q.val();
        self.overflow.next = false;
        self.job_done.next = false;
        self.wr_buffer.next = self.current_buffer.val();
        self.wr_offset.next = self.current_offset.val() + self.wr_index_reg.q.val();
        self.wr_bytes.next = self.chunk.val();
        self.wr_index.next = self.wr_index_reg.q.val();
        self.wr_batch_id.next = self.write_request.q.val().batch_id;
        self.wr_task_number.next = self.write_request.q.val().task_number;
        // Stage B takes a job to write in the cycle its last transfer is accepted; a job that
        // writes nothing (overflow, or 0 bytes) is handed over only while stage B is idle, so
        // `job_done` pulses once per job, in job order.
        self.stage_b_free.next = !self.writing_reg.q.val();
        if self.writing_reg.q.val() & self.wr_ready.val() {
            if self.last_chunk.val() {
                self.wr_index_reg.d.next = bits::<32>(0);
                self.write_pending.d.next = self.pending_after.val();
                if self.pending_after.val() == bits::<4>(0) {
                    self.writing_reg.d.next = false;
                    self.job_done.next = true;
                    self.stage_b_free.next =
                        self.fit_check.fits.val() & (self.job_pending.val() != bits::<4>(0));
                }
            } else {
                self.wr_index_reg.d.next = self.wr_index_reg.q.val() + self.chunk.val();
            }
        }
        // ---- hand-over: stage A's job enters stage B ----
        self.handover.next = self.request_busy.q.val()
            & !self.request_first_pending.q.val()
            & !self.request_counting.q.val()
            & !self.request_second_pending.q.val()
            & self.request_answered.q.val()
            & self.stage_b_free.val();
        if self.handover.val() {
            self.request_busy.d.next = false;
            if !self.fit_check.fits.val() {
                self.overflow.next = true;
                self.job_done.next = true;
            } else if self.job_pending.val() == bits::<4>(0) {
                self.job_done.next = true;
            } else {
                self.writing_reg.d.next = true;
                self.write_pending.d.next = self.job_pending.val();
                self.wr_index_reg.d.next = bits::<32>(0);
                self.write_bytes.d.next = self.second_data_reg.q.val();
                self.write_offsets.d.next = self.request_offsets.q.val();
                self.write_request.d.next = self.first_data_reg.q.val();
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
            self.first_data_reg.d.next = self.zero_req.val();
            self.second_data_reg.d.next = self.zero_msg.val();
            self.request_offsets.d.next = self.zero_msg.val();
            self.writing_reg.d.next = false;
            self.write_pending.d.next = bits::<4>(0);
            self.wr_index_reg.d.next = bits::<32>(0);
            self.write_bytes.d.next = self.zero_msg.val();
            self.write_offsets.d.next = self.zero_msg.val();
            self.write_request.d.next = self.zero_req.val();
        }
    }
}
