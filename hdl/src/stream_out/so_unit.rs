//! `SoUnit` — one distributed stream output unit (SPEC SO-5, SO-7, SO-8, SO-11, SO-12).
//!
//! Two stages, so that the bookkeeping of the next batch overlaps the writes of the current one:
//! - Stage A (request): takes a batch-ID packet from the MPC (`batch_*`, batch ID / task / last
//!   in the first-request layout), sends the first request (SO-5), counts the bytes the shader
//!   writes to L1 per buffer (`attr_*`), takes the batch-end packet (`end_*`) and then sends the
//!   second request with the counts (SO-7). The response (SO-6) may come before or after the
//!   second request (SO-8). When both are done and stage B is free, the job moves to stage B.
//! - Stage B (write): checks that the job fits every buffer (SO-12: offset + bytes <= size,
//!   same test as SSYNC; if not, `overflow` pulses and nothing is written), then writes buffer
//!   0, 1, 2, 3 in turn at the response offsets, `min(remaining, bytes_per_cycle)` bytes per
//!   transfer (`wr_*`, valid/ready: the memory may stall it).
//!
//! Ports: `clock`, `reset`; `bytes_per_cycle` (write bandwidth, must be ≥ 1), `buffer_size`
//! (lane i = size of buffer i); `batch_valid/ready/data`; `attr_valid/ready/buffer/bytes`;
//! `end_valid/ready`; `first_valid/ready/data`; `second_valid/ready/data`;
//! `resp_valid/ready/data`; `wr_valid/ready/buffer/offset/bytes/index/batch_id/task_number`
//! (`wr_index` = byte position inside this job's data for that buffer); status `busy`,
//! `writing`, `overflow` (pulse), `job_done` (pulse: stage B finished a job).
//!
//! Timing: first request the cycle after the batch packet; second request the cycle after the
//! end packet (not before the first request went out); hand-over to stage B one cycle after
//! the last of response / second request; one fit-check cycle; then one write transfer per
//! cycle, plus one cycle per buffer boundary. One message outstanding towards SSYNC at a time
//! (SO-9).
use crate::msg::{FirstRequest, Msg128};
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
    a_busy: DFF<Bit>,
    a_first_pending: DFF<Bit>,
    a_counting: DFF<Bit>,
    a_second_pending: DFF<Bit>,
    a_have_resp: DFF<Bit>,
    a_req: DFF<FirstRequest>,
    a_count: DFF<Msg128>,
    a_offsets: DFF<Msg128>,
    // stage B
    b_busy: DFF<Bit>,
    b_check: DFF<Bit>,
    b_buf: DFF<Bits<2>>,
    b_done: DFF<Bits<32>>,
    b_counts: DFF<Msg128>,
    b_offsets: DFF<Msg128>,
    b_req: DFF<FirstRequest>,
    // combinational
    handover: Signal<Local, Bit>,
    ov: Signal<Local, Bit>,
    cur_count: Signal<Local, Bits<32>>,
    cur_offset: Signal<Local, Bits<32>>,
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
            a_busy: Default::default(),
            a_first_pending: Default::default(),
            a_counting: Default::default(),
            a_second_pending: Default::default(),
            a_have_resp: Default::default(),
            a_req: Default::default(),
            a_count: Default::default(),
            a_offsets: Default::default(),
            b_busy: Default::default(),
            b_check: Default::default(),
            b_buf: Default::default(),
            b_done: Default::default(),
            b_counts: Default::default(),
            b_offsets: Default::default(),
            b_req: Default::default(),
            handover: Default::default(),
            ov: Default::default(),
            cur_count: Default::default(),
            cur_offset: Default::default(),
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
            a_busy,
            a_first_pending,
            a_counting,
            a_second_pending,
            a_have_resp,
            a_req,
            a_count,
            a_offsets,
            b_busy,
            b_check,
            b_buf,
            b_done,
            b_counts,
            b_offsets,
            b_req
        );
        // ---- stage A ----
        self.batch_ready.next = !self.a_busy.q.val();
        self.first_valid.next = self.a_busy.q.val() & self.a_first_pending.q.val();
        self.first_data.next = self.a_req.q.val();
        self.attr_ready.next = self.a_busy.q.val() & self.a_counting.q.val();
        self.end_ready.next = self.a_busy.q.val() & self.a_counting.q.val();
        self.second_valid.next =
            self.a_busy.q.val() & self.a_second_pending.q.val() & !self.a_first_pending.q.val();
        self.second_data.next = self.a_count.q.val();
        self.resp_ready.next =
            self.a_busy.q.val() & !self.a_first_pending.q.val() & !self.a_have_resp.q.val();
        if self.batch_valid.val() & !self.a_busy.q.val() {
            self.a_busy.d.next = true;
            self.a_first_pending.d.next = true;
            self.a_counting.d.next = true;
            self.a_second_pending.d.next = false;
            self.a_have_resp.d.next = false;
            self.a_req.d.next = self.batch_data.val();
            self.a_count.d.next = self.zero_msg.val();
        }
        if self.first_valid.val() & self.first_ready.val() {
            self.a_first_pending.d.next = false;
        }
        if self.attr_valid.val() & self.attr_ready.val() {
            if self.attr_buffer.val() == bits::<2>(0) {
                self.a_count.d.next.lane0 = self.a_count.q.val().lane0 + self.attr_bytes.val();
            }
            if self.attr_buffer.val() == bits::<2>(1) {
                self.a_count.d.next.lane1 = self.a_count.q.val().lane1 + self.attr_bytes.val();
            }
            if self.attr_buffer.val() == bits::<2>(2) {
                self.a_count.d.next.lane2 = self.a_count.q.val().lane2 + self.attr_bytes.val();
            }
            if self.attr_buffer.val() == bits::<2>(3) {
                self.a_count.d.next.lane3 = self.a_count.q.val().lane3 + self.attr_bytes.val();
            }
        }
        if self.end_valid.val() & self.end_ready.val() {
            self.a_counting.d.next = false;
            self.a_second_pending.d.next = true;
        }
        if self.second_valid.val() & self.second_ready.val() {
            self.a_second_pending.d.next = false;
        }
        if self.resp_valid.val() & self.resp_ready.val() {
            self.a_have_resp.d.next = true;
            self.a_offsets.d.next = self.resp_data.val();
        }
        self.handover.next = self.a_busy.q.val()
            & !self.a_first_pending.q.val()
            & !self.a_counting.q.val()
            & !self.a_second_pending.q.val()
            & self.a_have_resp.q.val()
            & !self.b_busy.q.val();
        if self.handover.val() {
            self.a_busy.d.next = false;
            self.b_busy.d.next = true;
            self.b_check.d.next = true;
            self.b_counts.d.next = self.a_count.q.val();
            self.b_offsets.d.next = self.a_offsets.q.val();
            self.b_req.d.next = self.a_req.q.val();
        }
        // ---- stage B ----
        self.ov.next = (self.b_counts.q.val().lane0 > self.buffer_size.val().lane0)
            | (self.b_offsets.q.val().lane0
                > (self.buffer_size.val().lane0 - self.b_counts.q.val().lane0))
            | (self.b_counts.q.val().lane1 > self.buffer_size.val().lane1)
            | (self.b_offsets.q.val().lane1
                > (self.buffer_size.val().lane1 - self.b_counts.q.val().lane1))
            | (self.b_counts.q.val().lane2 > self.buffer_size.val().lane2)
            | (self.b_offsets.q.val().lane2
                > (self.buffer_size.val().lane2 - self.b_counts.q.val().lane2))
            | (self.b_counts.q.val().lane3 > self.buffer_size.val().lane3)
            | (self.b_offsets.q.val().lane3
                > (self.buffer_size.val().lane3 - self.b_counts.q.val().lane3));
        self.cur_count.next = self.b_counts.q.val().lane0;
        self.cur_offset.next = self.b_offsets.q.val().lane0;
        if self.b_buf.q.val() == bits::<2>(1) {
            self.cur_count.next = self.b_counts.q.val().lane1;
            self.cur_offset.next = self.b_offsets.q.val().lane1;
        }
        if self.b_buf.q.val() == bits::<2>(2) {
            self.cur_count.next = self.b_counts.q.val().lane2;
            self.cur_offset.next = self.b_offsets.q.val().lane2;
        }
        if self.b_buf.q.val() == bits::<2>(3) {
            self.cur_count.next = self.b_counts.q.val().lane3;
            self.cur_offset.next = self.b_offsets.q.val().lane3;
        }
        self.remaining.next = self.cur_count.val() - self.b_done.q.val();
        if self.remaining.val() < self.bytes_per_cycle.val() {
            self.chunk.next = self.remaining.val();
        } else {
            self.chunk.next = self.bytes_per_cycle.val();
        }
        self.wr_valid.next = false;
        self.overflow.next = false;
        self.job_done.next = false;
        self.wr_buffer.next = self.b_buf.q.val();
        self.wr_offset.next = self.cur_offset.val() + self.b_done.q.val();
        self.wr_bytes.next = self.chunk.val();
        self.wr_index.next = self.b_done.q.val();
        self.wr_batch_id.next = self.b_req.q.val().batch_id;
        self.wr_task_number.next = self.b_req.q.val().task_number;
        if self.b_busy.q.val() {
            if self.b_check.q.val() {
                self.b_check.d.next = false;
                self.b_buf.d.next = bits::<2>(0);
                self.b_done.d.next = bits::<32>(0);
                if self.ov.val() {
                    self.overflow.next = true;
                    self.job_done.next = true;
                    self.b_busy.d.next = false;
                }
            } else if self.cur_count.val() == self.b_done.q.val() {
                self.b_done.d.next = bits::<32>(0);
                self.b_buf.d.next = self.b_buf.q.val() + bits::<2>(1);
                if self.b_buf.q.val() == bits::<2>(3) {
                    self.b_busy.d.next = false;
                    self.job_done.next = true;
                }
            } else {
                self.wr_valid.next = true;
                if self.wr_ready.val() {
                    self.b_done.d.next = self.b_done.q.val() + self.chunk.val();
                }
            }
        }
        self.busy.next = self.a_busy.q.val() | self.b_busy.q.val();
        self.writing.next = self.b_busy.q.val();
        if self.reset.val() {
            self.a_busy.d.next = false;
            self.a_first_pending.d.next = false;
            self.a_counting.d.next = false;
            self.a_second_pending.d.next = false;
            self.a_have_resp.d.next = false;
            self.a_req.d.next = self.zero_req.val();
            self.a_count.d.next = self.zero_msg.val();
            self.a_offsets.d.next = self.zero_msg.val();
            self.b_busy.d.next = false;
            self.b_check.d.next = false;
            self.b_buf.d.next = bits::<2>(0);
            self.b_done.d.next = bits::<32>(0);
            self.b_counts.d.next = self.zero_msg.val();
            self.b_offsets.d.next = self.zero_msg.val();
            self.b_req.d.next = self.zero_req.val();
        }
    }
}
