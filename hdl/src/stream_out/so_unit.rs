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
    write_checking: DFF<Bit>,
    wr_buffer_reg: DFF<Bits<2>>,
    wr_index_reg: DFF<Bits<32>>,
    write_bytes: DFF<Msg128>,
    write_offsets: DFF<Msg128>,
    write_request: DFF<FirstRequest>,
    // combinational
    handover: Signal<Local, Bit>,
    overflow_any: Signal<Local, Bit>,
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
            write_checking: Default::default(),
            wr_buffer_reg: Default::default(),
            wr_index_reg: Default::default(),
            write_bytes: Default::default(),
            write_offsets: Default::default(),
            write_request: Default::default(),
            handover: Default::default(),
            overflow_any: Default::default(),
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
            write_checking,
            wr_buffer_reg,
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
        self.handover.next = self.request_busy.q.val()
            & !self.request_first_pending.q.val()
            & !self.request_counting.q.val()
            & !self.request_second_pending.q.val()
            & self.request_answered.q.val()
            & !self.writing_reg.q.val();
        if self.handover.val() {
            self.request_busy.d.next = false;
            self.writing_reg.d.next = true;
            self.write_checking.d.next = true;
            self.write_bytes.d.next = self.second_data_reg.q.val();
            self.write_offsets.d.next = self.request_offsets.q.val();
            self.write_request.d.next = self.first_data_reg.q.val();
        }
        // ---- stage B ----
        self.overflow_any.next = (self.write_bytes.q.val().lane0 > self.buffer_size.val().lane0)
            | (self.write_offsets.q.val().lane0
                > (self.buffer_size.val().lane0 - self.write_bytes.q.val().lane0))
            | (self.write_bytes.q.val().lane1 > self.buffer_size.val().lane1)
            | (self.write_offsets.q.val().lane1
                > (self.buffer_size.val().lane1 - self.write_bytes.q.val().lane1))
            | (self.write_bytes.q.val().lane2 > self.buffer_size.val().lane2)
            | (self.write_offsets.q.val().lane2
                > (self.buffer_size.val().lane2 - self.write_bytes.q.val().lane2))
            | (self.write_bytes.q.val().lane3 > self.buffer_size.val().lane3)
            | (self.write_offsets.q.val().lane3
                > (self.buffer_size.val().lane3 - self.write_bytes.q.val().lane3));
        self.current_bytes.next = self.write_bytes.q.val().lane0;
        self.current_offset.next = self.write_offsets.q.val().lane0;
        if self.wr_buffer_reg.q.val() == bits::<2>(1) {
            self.current_bytes.next = self.write_bytes.q.val().lane1;
            self.current_offset.next = self.write_offsets.q.val().lane1;
        }
        if self.wr_buffer_reg.q.val() == bits::<2>(2) {
            self.current_bytes.next = self.write_bytes.q.val().lane2;
            self.current_offset.next = self.write_offsets.q.val().lane2;
        }
        if self.wr_buffer_reg.q.val() == bits::<2>(3) {
            self.current_bytes.next = self.write_bytes.q.val().lane3;
            self.current_offset.next = self.write_offsets.q.val().lane3;
        }
        self.remaining.next = self.current_bytes.val() - self.wr_index_reg.q.val();
        if self.remaining.val() < self.bytes_per_cycle.val() {
            self.chunk.next = self.remaining.val();
        } else {
            self.chunk.next = self.bytes_per_cycle.val();
        }
        self.wr_valid.next = false;
        self.overflow.next = false;
        self.job_done.next = false;
        self.wr_buffer.next = self.wr_buffer_reg.q.val();
        self.wr_offset.next = self.current_offset.val() + self.wr_index_reg.q.val();
        self.wr_bytes.next = self.chunk.val();
        self.wr_index.next = self.wr_index_reg.q.val();
        self.wr_batch_id.next = self.write_request.q.val().batch_id;
        self.wr_task_number.next = self.write_request.q.val().task_number;
        if self.writing_reg.q.val() {
            if self.write_checking.q.val() {
                self.write_checking.d.next = false;
                self.wr_buffer_reg.d.next = bits::<2>(0);
                self.wr_index_reg.d.next = bits::<32>(0);
                if self.overflow_any.val() {
                    self.overflow.next = true;
                    self.job_done.next = true;
                    self.writing_reg.d.next = false;
                }
            } else if self.current_bytes.val() == self.wr_index_reg.q.val() {
                self.wr_index_reg.d.next = bits::<32>(0);
                self.wr_buffer_reg.d.next = self.wr_buffer_reg.q.val() + bits::<2>(1);
                if self.wr_buffer_reg.q.val() == bits::<2>(3) {
                    self.writing_reg.d.next = false;
                    self.job_done.next = true;
                }
            } else {
                self.wr_valid.next = true;
                if self.wr_ready.val() {
                    self.wr_index_reg.d.next = self.wr_index_reg.q.val() + self.chunk.val();
                }
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
            self.write_checking.d.next = false;
            self.wr_buffer_reg.d.next = bits::<2>(0);
            self.wr_index_reg.d.next = bits::<32>(0);
            self.write_bytes.d.next = self.zero_msg.val();
            self.write_offsets.d.next = self.zero_msg.val();
            self.write_request.d.next = self.zero_req.val();
        }
    }
}
