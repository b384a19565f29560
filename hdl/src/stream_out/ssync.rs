//! `Ssync` — the stream synchronization unit of distributed stream output (SPEC SO-2..SO-4,
//! SO-6..SO-10, SO-12, SO-13).
//!
//! What it does: keeps the stream-output operation FIFO fed by the work distribution unit
//! (WDU), the four starting stream output buffer offsets SSOBO\[0..3\], the current batch ID and
//! task, and a message table with one entry per SO unit. It answers a first request (SO-5) with
//! the SSOBOs (SO-6) only when the request's batch/task is current, adds the second request's
//! bytes needed (SO-7) to the SSOBOs, advances task / batch (SO-10) and sends a batch-ID retire
//! message to the WDU after the last task of a streamed batch (SO-2).
//!
//! Composition: two sub-blocks, wired in `update` (combinational signals cross between them,
//! every register belongs to exactly one block):
//! - [`OpFifo`] (`op_fifo`): the operation FIFO with the decoder of the WDU's commands (SO-3)
//!   and the block RAM of offset-bundle words; `Ssync` serves its head and drives its `pop`.
//! - [`MsgTable`] (`msg_table`): the message table (SO-8, SO-9), bad-input detection (SO-13)
//!   and the select of the entry that matches the current batch/task, which it answers
//!   (`respond_now`) and accounts (`commit_now`); `Ssync` drives its current batch/task,
//!   `started`, `serving` and whether the response / retire registers are free.
//! - `Ssync` itself: the SSOBOs, current batch/task, operation active / started, the SO-12
//!   fit test and the needed/written/overflow counters, the response and retire output
//!   registers, the violation register.
//!
//! Parameters: `SO_UNITS` SO units (message table entries); `SRC_BITS` = clog2(SO_UNITS) (≥1);
//! `OPS` (>= 2) operation-FIFO entries, `OP_BITS` = clog2(OPS) (≥1), `FILL_BITS` = clog2(OPS+1).
//!
//! Ports:
//! - `cmd_valid/cmd_ready`, `cmd_kind` (0 work token, 1 stream enable `E`, 2 stream disable `D`,
//!   3 offset bundle `O`: [`CMD_WORK`], [`CMD_ENABLE`], [`CMD_DISABLE`], [`CMD_OFFSET`]),
//!   `cmd_batch_id` (work token), `cmd_offsets` (offset bundle, lane i = new SSOBO\[i\]): the
//!   WDU's state bundles and work tokens in driver order (SO-3).
//! - `first_valid/first_ready/first_data/first_source`: first requests from the crossbar (SO-5).
//! - `second_valid/second_ready/second_data/second_source`: second requests (SO-7).
//! - `resp_valid/resp_ready/resp_data/resp_dest`: responses to SO unit `resp_dest` (SO-6).
//! - `retire_valid/retire_ready/retire_batch_id`: batch-ID retire messages to the WDU (SO-2).
//! - `buffer_size` (lane i = size of buffer i in bytes, API state, SO-12).
//! - status: `ssobo`, `current_batch_id`, `current_task`, `op_active`, `op_fill`, `op_full`,
//!   `outstanding` (the outstanding-message flag, SO-9), `stat_needed` / `stat_written` (bytes
//!   per buffer needed by / written for accounted batch-tasks, SO-12), `overflow_count`,
//!   `commit` / `commit_overflow` (a batch/task is accounted this cycle, and whether it did
//!   not fit), `violation` / `violation_code` (SO-13, registered: one cycle after the cause).
//!
//! Operation FIFO (SO-3, [`OpFifo`]): `OPS` entries in stream order. An entry is either an
//! offset bundle (128-bit word) or an operation: start = batch ID of the first work token after
//! `E`, end = batch ID of the first work token after the following `D` (exclusive), with an
//! `end_known` bit. Reading (SO-3): an operation is pushed when its start is known and served
//! at once; its end is written when its `D` arrives (by SO-1 the first work token after `D`
//! carries the ID after the last one seen). Every `E ... D` is its own operation, so an offset
//! bundle between `D` and the next `E` takes effect between the two operations, in stream
//! order; one received while an operation is open takes effect when that operation ends. `E D`
//! with no work token between is an empty operation (nothing is pushed). A repeated `E` or `D`
//! is ignored. An offset bundle is applied when it reaches the head and no operation is
//! active; a bundle whose word was written in the cycle its slot was read is applied one cycle
//! later. A push into a full FIFO is back-pressured (`cmd_ready` low, SO-13); other commands
//! keep flowing. A batch/task is matched only once its work token has been seen (the current
//! batch ID differs from the op FIFO's `next_work_id`).
//!
//! Message table (SO-8, SO-9, [`MsgTable`]): entry i holds SO unit i's first request (batch,
//! task, last), whether it was answered, and its second request if that came first. An incoming
//! request is matched in the cycle it arrives (as if already in the table) and stored
//! otherwise; every cycle all entries are compared with the current batch/task, so after an
//! advance the waiting entry is answered without a new message.
//!
//! Bad input (SO-13): a first request from a unit whose entry is still occupied (one message
//! outstanding per unit, SO-9; e.g. its previous batch waits for the retire channel) is
//! back-pressured (`first_ready` low for that source). `violation_code`:
//! [`VIOL_SECOND_WITHOUT_FIRST`] (1) second request with no first request from that unit;
//! [`VIOL_OUTSIDE_OPERATION`] (3) a request for a batch/task outside every operation: behind
//! the current one once an operation has been loaded (never streamed, or already accounted), or
//! for a batch given out that no operation in the FIFO covers (checked on arrival against the
//! op FIFO's probe, and again when the work token of a waiting request's batch arrives while
//! streaming is disabled), so no request waits forever;
//! [`VIOL_DUPLICATE_SECOND`] (4) a second second-request. The offending message is dropped
//! (code 3 clears the entry); nothing already accepted is lost.
//!
//! Overflow (SO-12, [`FitCheck`], the same block the SO unit uses): a batch/task fits when
//! SSOBO\[i\] + SBBN\[i\] <= size\[i\] for every buffer it writes (a buffer with SBBN = 0 always
//! fits, even when an offset bundle or earlier batches left its SSOBO past its end). If it does
//! not fit, the SSOBOs are left unchanged (nothing is written by the SO unit, which applies the
//! same test) and `overflow_count` increments; later batch-tasks that fit are still appended.
//! Reading: per batch/task.
//!
//! Timing: a first request that matches the current batch/task on arrival is answered in the
//! next cycle (latency 1; `resp_valid` comes from a register). A second request is accounted in
//! the cycle it arrives if its response has been (or is being) sent. With both messages waiting
//! in the table, SSYNC sustains one response and one accounted batch/task per cycle. Between
//! operations: 2 cycles (end detect, load next); an offset bundle between them adds 1 cycle
//! (2 if its word was written in the cycle it was read, see above). One command per cycle.
use crate::msg::{FirstRequest, Msg128};
use crate::stream_out::fit_check::FitCheck;
use crate::stream_out::msg_table::MsgTable;
pub use crate::stream_out::msg_table::{
    VIOL_DUPLICATE_SECOND, VIOL_NONE, VIOL_OUTSIDE_OPERATION, VIOL_SECOND_WITHOUT_FIRST,
};
use crate::stream_out::op_fifo::OpFifo;
pub use crate::stream_out::op_fifo::{CMD_DISABLE, CMD_ENABLE, CMD_OFFSET, CMD_WORK};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Ssync<
    const SO_UNITS: usize,
    const SRC_BITS: usize,
    const OPS: usize,
    const OP_BITS: usize,
    const FILL_BITS: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // WDU command stream
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_kind: Signal<In, Bits<2>>,
    pub cmd_batch_id: Signal<In, Bits<14>>,
    pub cmd_offsets: Signal<In, Msg128>,
    // requests from the crossbar
    pub first_valid: Signal<In, Bit>,
    pub first_ready: Signal<Out, Bit>,
    pub first_data: Signal<In, FirstRequest>,
    pub first_source: Signal<In, Bits<SRC_BITS>>,
    pub second_valid: Signal<In, Bit>,
    pub second_ready: Signal<Out, Bit>,
    pub second_data: Signal<In, Msg128>,
    pub second_source: Signal<In, Bits<SRC_BITS>>,
    // responses
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_data: Signal<Out, Msg128>,
    pub resp_dest: Signal<Out, Bits<SRC_BITS>>,
    // retire messages to the WDU
    pub retire_valid: Signal<Out, Bit>,
    pub retire_ready: Signal<In, Bit>,
    pub retire_batch_id: Signal<Out, Bits<14>>,
    // configuration and status
    pub buffer_size: Signal<In, Msg128>,
    pub ssobo: Signal<Out, Msg128>,
    pub current_batch_id: Signal<Out, Bits<14>>,
    pub current_task: Signal<Out, Bits<10>>,
    pub op_active: Signal<Out, Bit>,
    pub op_fill: Signal<Out, Bits<FILL_BITS>>,
    pub op_full: Signal<Out, Bit>,
    pub outstanding: Signal<Out, Bit>,
    pub stat_needed: Signal<Out, Msg128>,
    pub stat_written: Signal<Out, Msg128>,
    pub overflow_count: Signal<Out, Bits<16>>,
    pub commit: Signal<Out, Bit>,
    pub commit_overflow: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    pub violation_code: Signal<Out, Bits<3>>,
    // sub-blocks
    op_fifo: OpFifo<OPS, OP_BITS, FILL_BITS>,
    msg_table: MsgTable<SO_UNITS, SRC_BITS>,
    fit_check: FitCheck,
    // SSOBOs, current batch/task
    ssobo_reg: DFF<Msg128>,
    current_batch_id_reg: DFF<Bits<14>>,
    current_task_reg: DFF<Bits<10>>,
    /// An operation is being served (loaded from the FIFO head, its end not yet reached).
    op_active_reg: DFF<Bit>,
    /// An operation has been loaded since reset: `current_batch_id_reg` orders the batch IDs.
    started: DFF<Bit>,
    // output registers
    resp_valid_reg: DFF<Bit>,
    resp_data_reg: DFF<Msg128>,
    resp_dest_reg: DFF<Bits<SRC_BITS>>,
    retire_valid_reg: DFF<Bit>,
    retire_batch_id_reg: DFF<Bits<14>>,
    stat_needed_reg: DFF<Msg128>,
    stat_written_reg: DFF<Msg128>,
    overflow_count_reg: DFF<Bits<16>>,
    violation_reg: DFF<Bit>,
    violation_code_reg: DFF<Bits<3>>,
    // combinational
    operation_done: Signal<Local, Bit>,
    overflow_any: Signal<Local, Bit>,
    code_none: Constant<Bits<3>>,
    zero_msg: Constant<Msg128>,
}

impl<
        const SO_UNITS: usize,
        const SRC_BITS: usize,
        const OPS: usize,
        const OP_BITS: usize,
        const FILL_BITS: usize,
    > Default for Ssync<SO_UNITS, SRC_BITS, OPS, OP_BITS, FILL_BITS>
{
    fn default() -> Self {
        assert!(SO_UNITS >= 1, "Ssync: SO_UNITS must be at least 1");
        assert_eq!(SRC_BITS, clog2(SO_UNITS).max(1), "Ssync: SRC_BITS");
        assert!(OPS >= 2, "Ssync: OPS must be at least 2");
        assert_eq!(OP_BITS, clog2(OPS).max(1), "Ssync: OP_BITS");
        assert_eq!(FILL_BITS, clog2(OPS + 1), "Ssync: FILL_BITS");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_kind: Default::default(),
            cmd_batch_id: Default::default(),
            cmd_offsets: Default::default(),
            first_valid: Default::default(),
            first_ready: Default::default(),
            first_data: Default::default(),
            first_source: Default::default(),
            second_valid: Default::default(),
            second_ready: Default::default(),
            second_data: Default::default(),
            second_source: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_data: Default::default(),
            resp_dest: Default::default(),
            retire_valid: Default::default(),
            retire_ready: Default::default(),
            retire_batch_id: Default::default(),
            buffer_size: Default::default(),
            ssobo: Default::default(),
            current_batch_id: Default::default(),
            current_task: Default::default(),
            op_active: Default::default(),
            op_fill: Default::default(),
            op_full: Default::default(),
            outstanding: Default::default(),
            stat_needed: Default::default(),
            stat_written: Default::default(),
            overflow_count: Default::default(),
            commit: Default::default(),
            commit_overflow: Default::default(),
            violation: Default::default(),
            violation_code: Default::default(),
            op_fifo: Default::default(),
            msg_table: Default::default(),
            fit_check: Default::default(),
            ssobo_reg: Default::default(),
            current_batch_id_reg: Default::default(),
            current_task_reg: Default::default(),
            op_active_reg: Default::default(),
            started: Default::default(),
            resp_valid_reg: Default::default(),
            resp_data_reg: Default::default(),
            resp_dest_reg: Default::default(),
            retire_valid_reg: Default::default(),
            retire_batch_id_reg: Default::default(),
            stat_needed_reg: Default::default(),
            stat_written_reg: Default::default(),
            overflow_count_reg: Default::default(),
            violation_reg: Default::default(),
            violation_code_reg: Default::default(),
            operation_done: Default::default(),
            overflow_any: Default::default(),
            code_none: Constant::new(bits::<3>(VIOL_NONE)),
            zero_msg: Constant::new(Msg128::default()),
        }
    }
}

impl<
        const SO_UNITS: usize,
        const SRC_BITS: usize,
        const OPS: usize,
        const OP_BITS: usize,
        const FILL_BITS: usize,
    > Logic for Ssync<SO_UNITS, SRC_BITS, OPS, OP_BITS, FILL_BITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ssobo_reg,
            current_batch_id_reg,
            current_task_reg,
            op_active_reg,
            started,
            resp_valid_reg,
            resp_data_reg,
            resp_dest_reg,
            retire_valid_reg,
            retire_batch_id_reg,
            stat_needed_reg,
            stat_written_reg,
            overflow_count_reg,
            violation_reg,
            violation_code_reg
        );
        // Operation FIFO: the WDU's commands in, the head out.
        self.op_fifo.clock.next = self.clock.val();
        self.op_fifo.reset.next = self.reset.val();
        self.op_fifo.cmd_valid.next = self.cmd_valid.val();
        self.op_fifo.cmd_kind.next = self.cmd_kind.val();
        self.op_fifo.cmd_batch_id.next = self.cmd_batch_id.val();
        self.op_fifo.cmd_offsets.next = self.cmd_offsets.val();
        self.cmd_ready.next = self.op_fifo.cmd_ready.val();
        // Message table: the requests in, the current batch/task.
        self.msg_table.clock.next = self.clock.val();
        self.msg_table.reset.next = self.reset.val();
        self.msg_table.first_valid.next = self.first_valid.val();
        self.msg_table.first_data.next = self.first_data.val();
        self.msg_table.first_source.next = self.first_source.val();
        self.first_ready.next = self.msg_table.first_ready.val();
        self.msg_table.second_valid.next = self.second_valid.val();
        self.msg_table.second_data.next = self.second_data.val();
        self.msg_table.second_source.next = self.second_source.val();
        self.second_ready.next = self.msg_table.second_ready.val();
        self.msg_table.current_batch.next = self.current_batch_id_reg.q.val();
        self.msg_table.current_task.next = self.current_task_reg.q.val();
        self.msg_table.started.next = self.started.q.val();
        // SO-13: a request for a batch outside every operation is flagged, never left waiting.
        self.op_fifo.probe_batch.next = self.first_data.val().batch_id;
        self.msg_table.arrival_outside.next =
            self.op_fifo.probe_issued.val() & !self.op_fifo.probe_covered.val();
        self.msg_table.unstreamed_valid.next = self.op_fifo.unstreamed_valid.val();
        self.msg_table.unstreamed_batch.next = self.op_fifo.unstreamed_batch.val();
        // Output registers drain.
        if self.resp_valid_reg.q.val() & self.resp_ready.val() {
            self.resp_valid_reg.d.next = false;
        }
        if self.retire_valid_reg.q.val() & self.retire_ready.val() {
            self.retire_valid_reg.d.next = false;
        }
        // The current operation ends at the first batch ID after it.
        self.operation_done.next = self.op_active_reg.q.val()
            & self.op_fifo.head_end_known.val()
            & (self.op_fifo.head_end.val() == self.current_batch_id_reg.q.val());
        // Inputs of the message table, each from registers and ports only (no logic shared with
        // what reads the table's outputs, so the Verilog has no false combinational loop):
        // entries are matched while an operation is served (active, its end not reached), and
        // answered / accounted when the response / retire register is free this cycle.
        // The current batch must also have been given out (its work token seen), so that no
        // request is answered ahead of the `D` that may end the operation before it.
        self.msg_table.serving.next = self.op_active_reg.q.val()
            & !(self.op_fifo.head_end_known.val()
                & (self.op_fifo.head_end.val() == self.current_batch_id_reg.q.val()))
            & (self.current_batch_id_reg.q.val() != self.op_fifo.next_work_id.val());
        self.msg_table.resp_free.next = !self.resp_valid_reg.q.val() | self.resp_ready.val();
        self.msg_table.retire_free.next = !self.retire_valid_reg.q.val() | self.retire_ready.val();
        // SO-12: does the batch/task fit in every buffer? (the shared test, as in the SO unit)
        self.fit_check.offsets.next = self.ssobo_reg.q.val();
        self.fit_check.bytes.next = self.msg_table.selected_sbbn.val();
        self.fit_check.size.next = self.buffer_size.val();
        self.overflow_any.next = !self.fit_check.fits.val();
        self.commit.next = self.msg_table.commit_now.val();
        self.commit_overflow.next = self.msg_table.commit_now.val() & self.overflow_any.val();
        if self.msg_table.respond_now.val() {
            self.resp_valid_reg.d.next = true;
            self.resp_data_reg.d.next = self.ssobo_reg.q.val();
            self.resp_dest_reg.d.next = self.msg_table.selected_unit.val();
        }
        if self.msg_table.commit_now.val() {
            self.stat_needed_reg.d.next.lane0 =
                self.stat_needed_reg.q.val().lane0 + self.msg_table.selected_sbbn.val().lane0;
            self.stat_needed_reg.d.next.lane1 =
                self.stat_needed_reg.q.val().lane1 + self.msg_table.selected_sbbn.val().lane1;
            self.stat_needed_reg.d.next.lane2 =
                self.stat_needed_reg.q.val().lane2 + self.msg_table.selected_sbbn.val().lane2;
            self.stat_needed_reg.d.next.lane3 =
                self.stat_needed_reg.q.val().lane3 + self.msg_table.selected_sbbn.val().lane3;
            if self.overflow_any.val() {
                self.overflow_count_reg.d.next = self.overflow_count_reg.q.val() + bits::<16>(1);
            } else {
                self.ssobo_reg.d.next.lane0 =
                    self.ssobo_reg.q.val().lane0 + self.msg_table.selected_sbbn.val().lane0;
                self.ssobo_reg.d.next.lane1 =
                    self.ssobo_reg.q.val().lane1 + self.msg_table.selected_sbbn.val().lane1;
                self.ssobo_reg.d.next.lane2 =
                    self.ssobo_reg.q.val().lane2 + self.msg_table.selected_sbbn.val().lane2;
                self.ssobo_reg.d.next.lane3 =
                    self.ssobo_reg.q.val().lane3 + self.msg_table.selected_sbbn.val().lane3;
                self.stat_written_reg.d.next.lane0 =
                    self.stat_written_reg.q.val().lane0 + self.msg_table.selected_sbbn.val().lane0;
                self.stat_written_reg.d.next.lane1 =
                    self.stat_written_reg.q.val().lane1 + self.msg_table.selected_sbbn.val().lane1;
                self.stat_written_reg.d.next.lane2 =
                    self.stat_written_reg.q.val().lane2 + self.msg_table.selected_sbbn.val().lane2;
                self.stat_written_reg.d.next.lane3 =
                    self.stat_written_reg.q.val().lane3 + self.msg_table.selected_sbbn.val().lane3;
            }
            if self.msg_table.selected_last.val() {
                self.current_batch_id_reg.d.next =
                    self.current_batch_id_reg.q.val() + bits::<14>(1);
                self.current_task_reg.d.next = bits::<10>(0);
                self.retire_valid_reg.d.next = true;
                self.retire_batch_id_reg.d.next = self.current_batch_id_reg.q.val();
            } else {
                self.current_task_reg.d.next = self.current_task_reg.q.val() + bits::<10>(1);
            }
        }
        // Serve the head of the operation FIFO: apply an offset bundle, or load an operation.
        if !self.op_active_reg.q.val() & !self.op_fifo.empty.val() {
            if self.op_fifo.head_is_offset.val() {
                if self.op_fifo.head_word_ok.val() {
                    self.ssobo_reg.d.next = self.op_fifo.head_word.val();
                }
            } else {
                self.op_active_reg.d.next = true;
                self.started.d.next = true;
                self.current_batch_id_reg.d.next = self.op_fifo.head_start.val();
                self.current_task_reg.d.next = bits::<10>(0);
            }
        }
        if self.operation_done.val() {
            self.op_active_reg.d.next = false;
        }
        // The head is done: an offset bundle applied, or the operation ended. Assigned once (a
        // glitch on a sub-block input re-runs its always block, whose glitching outputs re-run
        // this one: an endless zero-delay loop in an event-driven simulator such as Icarus).
        self.op_fifo.pop.next = (!self.op_active_reg.q.val()
            & !self.op_fifo.empty.val()
            & self.op_fifo.head_is_offset.val()
            & self.op_fifo.head_word_ok.val())
            | self.operation_done.val();
        self.violation_reg.d.next = self.msg_table.violation.val();
        self.violation_code_reg.d.next = self.msg_table.violation_code.val();
        // Outputs.
        self.resp_valid.next = self.resp_valid_reg.q.val();
        self.resp_data.next = self.resp_data_reg.q.val();
        self.resp_dest.next = self.resp_dest_reg.q.val();
        self.retire_valid.next = self.retire_valid_reg.q.val();
        self.retire_batch_id.next = self.retire_batch_id_reg.q.val();
        self.ssobo.next = self.ssobo_reg.q.val();
        self.current_batch_id.next = self.current_batch_id_reg.q.val();
        self.current_task.next = self.current_task_reg.q.val();
        self.op_active.next = self.op_active_reg.q.val();
        self.op_fill.next = self.op_fifo.fill.val();
        self.op_full.next = self.op_fifo.full.val();
        self.outstanding.next = self.msg_table.outstanding.val();
        self.stat_needed.next = self.stat_needed_reg.q.val();
        self.stat_written.next = self.stat_written_reg.q.val();
        self.overflow_count.next = self.overflow_count_reg.q.val();
        self.violation.next = self.violation_reg.q.val();
        self.violation_code.next = self.violation_code_reg.q.val();
        // Synchronous reset.
        if self.reset.val() {
            self.ssobo_reg.d.next = self.zero_msg.val();
            self.stat_needed_reg.d.next = self.zero_msg.val();
            self.stat_written_reg.d.next = self.zero_msg.val();
            self.current_batch_id_reg.d.next = bits::<14>(0);
            self.current_task_reg.d.next = bits::<10>(0);
            self.op_active_reg.d.next = false;
            self.started.d.next = false;
            self.resp_valid_reg.d.next = false;
            self.resp_dest_reg.d.next = bits::<SRC_BITS>(0);
            self.resp_data_reg.d.next = self.zero_msg.val();
            self.retire_valid_reg.d.next = false;
            self.retire_batch_id_reg.d.next = bits::<14>(0);
            self.overflow_count_reg.d.next = bits::<16>(0);
            self.violation_reg.d.next = false;
            self.violation_code_reg.d.next = self.code_none.val();
        }
    }
}
