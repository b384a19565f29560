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
//! Composition: four sub-blocks, wired in `update` (every input of a sub-block comes from a
//! port or a register, or is the message table's decision, whose own inputs come from ports
//! and registers; so the exported Verilog has no combinational loop between them):
//! - [`OpFifo`] (`op_fifo`): the operation FIFO with the decoder of the WDU's commands (SO-3)
//!   and the block RAM of offset-bundle words; `Ssync` serves its head and drives its `pop`.
//! - [`MsgTable`] (`msg_table`): the message table (SO-8, SO-9), bad-input detection (SO-13)
//!   and the hit — the entry that holds the current batch/task — which it answers
//!   (`respond_now`) and accounts (`commit_now`).
//! - [`SsoboAccount`] (`account`): the accounting stages behind the decision (R: the SBBN is
//!   read from the table's block RAM; F: the SO-12 fit test; S: the SSOBOs and the
//!   needed/written/overflow statistics).
//! - [`RetireQueue`] (`retire_queue`): the retire messages (SO-2), each held until its batch's
//!   last task is accounted (stage S) and every response decided up to it has been taken.
//! - `Ssync` itself: current batch/task, the match selects, operation load / end, the response
//!   queue, the violation register.
//!
//! Pipeline (each step a register stage, so every path is short): a request is written into
//! its table entry as it arrives, with match bits against the current batch/task; in the next
//! cycle (C) the hit is found from those bits and the parent's registered selects (the current
//! batch/task moves at most one step per cycle: same, next task, next batch), and answered and
//! accounted at once when both messages are there. The accounting runs three cycles behind
//! (R, F, S); a response decided in cycle t enters the response queue in t+2 with the SSOBOs
//! stage S produces then (`ssobo_next`: every batch/task decided before t is accounted).
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
//!   `commit` / `commit_overflow` (a batch/task is applied to the SSOBOs this cycle, and
//!   whether it did not fit), `violation` / `violation_code` (SO-13, registered).
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
//! is ignored. An offset bundle is applied in the cycle after it reaches the head (its word is
//! read from the FIFO's RAM at the head's slot), when no operation is active; a bundle whose
//! word was written in that cycle is applied one cycle later. A push into a full FIFO is back-pressured (`cmd_ready` low, SO-13); other commands
//! keep flowing. A batch/task is matched only once its work token has been seen (the current
//! batch ID differs from the op FIFO's `next_work_id`).
//!
//! Bad input (SO-13): a first request from a unit whose entry is still occupied (one message
//! outstanding per unit, SO-9; e.g. its previous batch waits for the retire queue) is
//! back-pressured (`first_ready` low for that source). `violation_code`:
//! [`VIOL_SECOND_WITHOUT_FIRST`] (1) second request with no first request from that unit;
//! [`VIOL_OUTSIDE_OPERATION`] (3) a request for a batch/task outside every operation: behind
//! the current one once an operation has been loaded (never streamed, or already accounted),
//! for a batch given out that no operation in the FIFO covers (the op FIFO's probe, one cycle
//! after the request is written, answering a cycle later), for the batch of a work token that arrives while streaming
//! is disabled, or a batch/task another unit already asked for; so no request waits forever;
//! [`VIOL_DUPLICATE_SECOND`] (4) a second second-request. The offending message is dropped
//! (code 3 clears the entry); nothing already accepted is lost. `violation` rises two cycles
//! after a bad second request or a duplicate first request, and up to six cycles after a
//! request found to be outside every operation (the table registers each cause, then the
//! code). [`VIOL_ID_COLLISION`] (2): a batch ID
//! collision, a work token (after the first) whose ID is not the one after the previous token
//! (SO-1); it is taken and dropped (it neither starts, ends nor advances anything), and
//! `violation` rises one cycle later (when the table flags in the same cycle, its code is
//! shown). So the work tokens SSYNC acts on carry consecutive IDs, and an unstreamed token
//! never reaches the table in the cycle the entry of its batch is accounted (it could flag
//! the entry then freed, and the flag clear the unit's next request): until the token is
//! taken, `next_work_id` is that batch's ID, so the batch is not matched (it is not yet given
//! out), and the token reaches the table one cycle after it is taken. (Only a ring's worth of
//! tokens past a batch still in flight, which SO-1 forbids, names a batch being matched.)
//!
//! Overflow (SO-12, [`SsoboAccount`], the same definition as the SO unit's `FitCheck`): a
//! batch/task fits when SSOBO\[i\] + SBBN\[i\] <= size\[i\] for every buffer it writes (a buffer
//! with SBBN = 0 always fits, even when an offset bundle or earlier batches left its SSOBO past
//! its end). If it does not fit, the SSOBOs are left unchanged (nothing is written by the SO
//! unit, which applies the same test) and `overflow_count` increments; later batch-tasks that
//! fit are still appended. Reading: per batch/task. A change of `buffer_size` pauses the
//! decisions for three cycles while the accounting stages drain and follow it.
//!
//! Timing: a first request that is current when it arrives is answered [`RESPONSE_LATENCY`]
//! (4) cycles later (`resp_valid` from the response queue). With both messages of the current
//! batch/task in the table, it is answered and accounted in the same cycle, and the next one is
//! matched in the next cycle: SSYNC sustains one response and one accounted batch/task per
//! cycle (the queues' room is judged from registers and allows a push every cycle while the
//! receiver takes one). A second request that arrives after the response is accounted (C) in the
//! cycle it arrives; `commit` / `commit_overflow` and the SSOBOs follow three cycles
//! later. A retire decided with a batch's last task in cycle t is offered in t+3 (the cycle of
//! that task's `commit`) or, while a response decided up to t is still waiting to be taken, in
//! the cycle after the last of them is taken; one per cycle while responses flow one per
//! cycle. Between operations: the end is seen one cycle after the last batch is accounted, the
//! next operation loads in the cycle after, and matching resumes one cycle after the load; an
//! offset bundle between them adds two cycles (three if its word was written in the cycle its
//! slot was read). One command per cycle.
use crate::msg::{FirstRequest, Msg128};
use crate::stream_out::msg_table::MsgTable;
pub use crate::stream_out::msg_table::{
    VIOL_DUPLICATE_SECOND, VIOL_ID_COLLISION, VIOL_NONE, VIOL_OUTSIDE_OPERATION,
    VIOL_SECOND_WITHOUT_FIRST,
};
use crate::stream_out::op_fifo::OpFifo;
pub use crate::stream_out::op_fifo::{CMD_DISABLE, CMD_ENABLE, CMD_OFFSET, CMD_WORK};
use crate::stream_out::retire_queue::RetireQueue;
use crate::stream_out::ssobo_account::SsoboAccount;
use crate::widgets::stream_fifo::StreamFifo;
use rust_hdl::prelude::*;

/// Cycles from a first request that is current when it arrives to `resp_valid` (SO-14's
/// in-order latency): written into the table, matched and answered, entered into the response
/// queue with the SSOBOs, out of the queue.
pub const RESPONSE_LATENCY: u64 = 4;

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
    account: SsoboAccount,
    // current batch/task (b, t), with b+1 and t+1 kept beside them
    current_batch_id_reg: DFF<Bits<14>>,
    current_batch_next: DFF<Bits<14>>,
    current_task_reg: DFF<Bits<10>>,
    current_task_next: DFF<Bits<10>>,
    /// How the current batch/task moved last cycle (none / next task / next batch), each
    /// gated with "an operation is served": the message table's match selects.
    sel_same: DFF<Bit>,
    sel_task: DFF<Bit>,
    sel_batch: DFF<Bit>,
    /// An operation is being served (loaded from the FIFO head, its end not yet reached).
    op_active_reg: DFF<Bit>,
    /// The operation ends this cycle (its end batch became current last cycle).
    op_done: DFF<Bit>,
    /// An operation has been loaded since reset: `current_batch_id_reg` orders the batch IDs.
    started: DFF<Bit>,
    // the first request written last cycle (probed against the operation FIFO), the work
    // token accepted outside every operation last cycle
    arrival_valid: DFF<Bit>,
    arrival_source: DFF<Bits<SRC_BITS>>,
    arrival_batch: DFF<Bits<14>>,
    unstreamed_valid: DFF<Bit>,
    unstreamed_batch: DFF<Bits<14>>,
    /// Last cycle's arrival, while the operation FIFO's probe of it answers (registered).
    probe_valid: DFF<Bit>,
    probe_source: DFF<Bits<SRC_BITS>>,
    /// The probe's answer for the arrival two cycles ago: outside every operation.
    outside_valid: DFF<Bit>,
    outside_source: DFF<Bits<SRC_BITS>>,
    /// Responses decided one and two cycles ago (to `resp_pending*_dest`): the older enters
    /// the response queue now, with the accounting stages' `ssobo_next`.
    resp_pending: DFF<Bit>,
    resp_pending_dest: DFF<Bits<SRC_BITS>>,
    resp_pending2: DFF<Bit>,
    resp_pending2_dest: DFF<Bits<SRC_BITS>>,
    /// Room for responses: 4 - the queue's fill - the responses decided and not yet in it
    /// (a credit counter: - a decision, + a response taken), so the room test is one
    /// register's non-zero test.
    resp_credits: DFF<Bits<3>>,
    resp_taken: Signal<Local, Bit>,
    /// Response queue (4 entries: one leaving, one entering, two decided), data and
    /// destination in lockstep.
    resp_queue: StreamFifo<Msg128, 4, 2, 3>,
    resp_queue_dest: StreamFifo<Bits<SRC_BITS>, 4, 2, 3>,
    /// Retire messages (SO-2), offered once the batch's last task is accounted and answered.
    retire_queue: RetireQueue,
    violation_reg: DFF<Bit>,
    violation_code_reg: DFF<Bits<3>>,
    // combinational
    load_now: Signal<Local, Bit>,
    offset_now: Signal<Local, Bit>,
    keep_active: Signal<Local, Bit>,
    end_same: Signal<Local, Bit>,
    end_next: Signal<Local, Bit>,
    serve_same: Signal<Local, Bit>,
    serve_next: Signal<Local, Bit>,
    code_none: Constant<Bits<3>>,
    code_id_collision: Constant<Bits<3>>,
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
            account: Default::default(),
            current_batch_id_reg: Default::default(),
            current_batch_next: Default::default(),
            current_task_reg: Default::default(),
            current_task_next: Default::default(),
            sel_same: Default::default(),
            sel_task: Default::default(),
            sel_batch: Default::default(),
            op_active_reg: Default::default(),
            op_done: Default::default(),
            started: Default::default(),
            arrival_valid: Default::default(),
            arrival_source: Default::default(),
            arrival_batch: Default::default(),
            unstreamed_valid: Default::default(),
            unstreamed_batch: Default::default(),
            probe_valid: Default::default(),
            probe_source: Default::default(),
            outside_valid: Default::default(),
            outside_source: Default::default(),
            resp_pending: Default::default(),
            resp_pending_dest: Default::default(),
            resp_pending2: Default::default(),
            resp_pending2_dest: Default::default(),
            resp_credits: Default::default(),
            resp_taken: Default::default(),
            resp_queue: Default::default(),
            resp_queue_dest: Default::default(),
            retire_queue: Default::default(),
            violation_reg: Default::default(),
            violation_code_reg: Default::default(),
            load_now: Default::default(),
            offset_now: Default::default(),
            keep_active: Default::default(),
            end_same: Default::default(),
            end_next: Default::default(),
            serve_same: Default::default(),
            serve_next: Default::default(),
            code_none: Constant::new(bits::<3>(VIOL_NONE)),
            code_id_collision: Constant::new(bits::<3>(VIOL_ID_COLLISION)),
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
    /// Long because one `#[hdl_gen]` function wires three sub-blocks and holds the current
    /// batch/task, the operation's load and end, and the two output queues.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            current_batch_id_reg,
            current_batch_next,
            current_task_reg,
            current_task_next,
            sel_same,
            sel_task,
            sel_batch,
            op_active_reg,
            op_done,
            started,
            arrival_valid,
            arrival_source,
            arrival_batch,
            unstreamed_valid,
            unstreamed_batch,
            probe_valid,
            probe_source,
            outside_valid,
            outside_source,
            resp_pending,
            resp_pending_dest,
            resp_pending2,
            resp_pending2_dest,
            resp_credits,
            violation_reg,
            violation_code_reg
        );
        // Operation FIFO: the WDU's commands in, the head out; the probe of last cycle's
        // arrival (SO-13: a request for a batch outside every operation is flagged).
        self.op_fifo.clock.next = self.clock.val();
        self.op_fifo.reset.next = self.reset.val();
        self.op_fifo.cmd_valid.next = self.cmd_valid.val();
        self.op_fifo.cmd_kind.next = self.cmd_kind.val();
        self.op_fifo.cmd_batch_id.next = self.cmd_batch_id.val();
        self.op_fifo.cmd_offsets.next = self.cmd_offsets.val();
        self.cmd_ready.next = self.op_fifo.cmd_ready.val();
        self.op_fifo.probe_batch.next = self.arrival_batch.q.val();
        // Message table: every input from a port or a register of this block.
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
        self.msg_table.current_batch_next.next = self.current_batch_next.q.val();
        self.msg_table.current_task.next = self.current_task_reg.q.val();
        self.msg_table.current_task_next.next = self.current_task_next.q.val();
        self.msg_table.started.next = self.started.q.val();
        self.msg_table.sel_same.next = self.sel_same.q.val();
        self.msg_table.sel_task.next = self.sel_task.q.val();
        self.msg_table.sel_batch.next = self.sel_batch.q.val();
        // Room for a response decided now: it enters the queue two cycles later, after the
        // two decided before it: fill + pending + pending2 < 4, kept as credits.
        self.msg_table.resp_free.next = self.resp_credits.q.val() != bits::<3>(0);
        self.resp_taken.next = self.resp_queue.rd_valid.val() & self.resp_ready.val();
        if self.resp_taken.val() & !self.msg_table.respond_now.val() {
            self.resp_credits.d.next = self.resp_credits.q.val() + bits::<3>(1);
        }
        if !self.resp_taken.val() & self.msg_table.respond_now.val() {
            self.resp_credits.d.next = self.resp_credits.q.val() - bits::<3>(1);
        }
        self.msg_table.retire_free.next = self.retire_queue.room.val();
        self.probe_valid.d.next = self.arrival_valid.q.val();
        self.probe_source.d.next = self.arrival_source.q.val();
        self.outside_valid.d.next = self.probe_valid.q.val()
            & self.op_fifo.probe_issued.val()
            & !self.op_fifo.probe_covered.val();
        self.outside_source.d.next = self.probe_source.q.val();
        self.msg_table.arrival_outside.next = self.outside_valid.q.val();
        self.msg_table.arrival_source.next = self.outside_source.q.val();
        self.msg_table.unstreamed_valid.next = self.unstreamed_valid.q.val();
        self.msg_table.unstreamed_batch.next = self.unstreamed_batch.q.val();
        self.arrival_valid.d.next = self.msg_table.first_written.val();
        self.arrival_source.d.next = self.first_source.val();
        self.arrival_batch.d.next = self.first_data.val().batch_id;
        self.unstreamed_valid.d.next = self.op_fifo.unstreamed_valid.val();
        self.unstreamed_batch.d.next = self.op_fifo.unstreamed_batch.val();
        // Serve the head of the operation FIFO while no operation is active: load an
        // operation, or send an offset bundle to the accounting stage. The head is popped when
        // the bundle is sent or the operation ends.
        self.load_now.next = !self.op_active_reg.q.val()
            & !self.op_fifo.empty.val()
            & !self.op_fifo.head_is_offset.val();
        self.offset_now.next = !self.op_active_reg.q.val()
            & !self.op_fifo.empty.val()
            & self.op_fifo.head_is_offset.val()
            & self.op_fifo.head_word_ok.val()
            & !self.account.pause.val();
        self.op_fifo.pop.next = self.offset_now.val() | self.op_done.q.val();
        // Accounting stages (SO-7, SO-12): the decision now, the accounted batch/task's SBBN
        // one cycle later from the message table's RAM, or the bundle's word now.
        self.account.clock.next = self.clock.val();
        self.account.reset.next = self.reset.val();
        self.account.buffer_size.next = self.buffer_size.val();
        self.account.in_commit.next = self.msg_table.commit_now.val();
        self.account.in_offset.next = self.offset_now.val();
        self.account.in_word.next = self.op_fifo.head_word.val();
        self.account.in_sbbn_late.next = self.msg_table.selected_sbbn.val();
        self.account.in_nonzero_late.next = self.msg_table.selected_nonzero.val();
        // The current batch/task: loaded with the operation, advanced by an accounted one.
        if self.op_done.q.val() {
            self.op_active_reg.d.next = false;
        }
        if self.load_now.val() {
            self.op_active_reg.d.next = true;
            self.started.d.next = true;
            self.current_batch_id_reg.d.next = self.op_fifo.head_start.val();
            self.current_batch_next.d.next = self.op_fifo.head_start.val() + bits::<14>(1);
            self.current_task_reg.d.next = bits::<10>(0);
            self.current_task_next.d.next = bits::<10>(1);
        }
        if self.msg_table.commit_now.val() {
            if self.msg_table.commit_last.val() {
                self.current_batch_id_reg.d.next = self.current_batch_next.q.val();
                self.current_batch_next.d.next = self.current_batch_next.q.val() + bits::<14>(1);
                self.current_task_reg.d.next = bits::<10>(0);
                self.current_task_next.d.next = bits::<10>(1);
            } else {
                self.current_task_reg.d.next = self.current_task_next.q.val();
                self.current_task_next.d.next = self.current_task_next.q.val() + bits::<10>(1);
            }
        }
        // Next cycle's match selects and operation end, from this cycle's registers. The
        // current batch is served while the operation is active, its end not reached, the batch
        // given out (its work token seen, so nothing is answered ahead of a `D` that may end
        // the operation before it) and the buffer sizes steady. A flag read one cycle stale
        // errs only towards waiting: the end is written with the next work ID, which is then
        // not given out.
        self.keep_active.next = self.op_active_reg.q.val() & !self.op_done.q.val();
        self.end_same.next = self.op_fifo.head_end_known.val()
            & (self.op_fifo.head_end.val() == self.current_batch_id_reg.q.val());
        self.end_next.next = self.op_fifo.head_end_known.val()
            & (self.op_fifo.head_end.val() == self.current_batch_next.q.val());
        self.serve_same.next = self.keep_active.val()
            & !self.end_same.val()
            & (self.current_batch_id_reg.q.val() != self.op_fifo.next_work_id.val())
            & !self.account.pause_next.val();
        self.serve_next.next = self.keep_active.val()
            & !self.end_next.val()
            & (self.current_batch_next.q.val() != self.op_fifo.next_work_id.val())
            & !self.account.pause_next.val();
        self.sel_same.d.next = !self.msg_table.commit_now.val() & self.serve_same.val();
        self.sel_task.d.next = self.msg_table.commit_now.val()
            & !self.msg_table.commit_last.val()
            & self.serve_same.val();
        self.sel_batch.d.next = self.msg_table.commit_last.val() & self.serve_next.val();
        self.op_done.d.next = self.keep_active.val()
            & ((self.msg_table.commit_last.val() & self.end_next.val())
                | (!self.msg_table.commit_last.val() & self.end_same.val()));
        // Response queue (SO-6): a response decided two cycles ago enters with the SSOBOs after
        // every batch/task accounted before it (`ssobo_next`, see `SsoboAccount`).
        self.resp_pending.d.next = self.msg_table.respond_now.val();
        self.resp_pending_dest.d.next = self.msg_table.selected_unit.val();
        self.resp_pending2.d.next = self.resp_pending.q.val();
        self.resp_pending2_dest.d.next = self.resp_pending_dest.q.val();
        self.resp_queue.clock.next = self.clock.val();
        self.resp_queue.reset.next = self.reset.val();
        self.resp_queue.wr_valid.next = self.resp_pending2.q.val();
        self.resp_queue.wr_data.next = self.account.ssobo_next.val();
        self.resp_queue.rd_ready.next = self.resp_ready.val();
        self.resp_queue_dest.clock.next = self.clock.val();
        self.resp_queue_dest.reset.next = self.reset.val();
        self.resp_queue_dest.wr_valid.next = self.resp_pending2.q.val();
        self.resp_queue_dest.wr_data.next = self.resp_pending2_dest.q.val();
        self.resp_queue_dest.rd_ready.next = self.resp_ready.val();
        // Retire queue (SO-2): after the last task of a streamed batch is accounted and its
        // responses are taken (the responses owed are the response credits used).
        self.retire_queue.clock.next = self.clock.val();
        self.retire_queue.reset.next = self.reset.val();
        self.retire_queue.decide.next = self.msg_table.commit_last.val();
        self.retire_queue.decide_batch.next = self.current_batch_id_reg.q.val();
        self.retire_queue.resp_owed.next = bits::<3>(4) - self.resp_credits.q.val();
        self.retire_queue.resp_taken.next = self.resp_taken.val();
        self.retire_queue.retire_ready.next = self.retire_ready.val();
        // The table's violations first; a dropped work token (ID collision) otherwise.
        self.violation_reg.d.next = self.msg_table.violation.val() | self.op_fifo.id_skipped.val();
        self.violation_code_reg.d.next = self.msg_table.violation_code.val();
        if !self.msg_table.violation.val() & self.op_fifo.id_skipped.val() {
            self.violation_code_reg.d.next = self.code_id_collision.val();
        }
        // Outputs.
        self.resp_valid.next = self.resp_queue.rd_valid.val();
        self.resp_data.next = self.resp_queue.rd_data.val();
        self.resp_dest.next = self.resp_queue_dest.rd_data.val();
        self.retire_valid.next = self.retire_queue.retire_valid.val();
        self.retire_batch_id.next = self.retire_queue.retire_batch_id.val();
        self.ssobo.next = self.account.ssobo.val();
        self.current_batch_id.next = self.current_batch_id_reg.q.val();
        self.current_task.next = self.current_task_reg.q.val();
        self.op_active.next = self.op_active_reg.q.val();
        self.op_fill.next = self.op_fifo.fill.val();
        self.op_full.next = self.op_fifo.full.val();
        self.outstanding.next = self.msg_table.outstanding.val();
        self.stat_needed.next = self.account.stat_needed.val();
        self.stat_written.next = self.account.stat_written.val();
        self.overflow_count.next = self.account.overflow_count.val();
        self.commit.next = self.account.commit.val();
        self.commit_overflow.next = self.account.commit_overflow.val();
        self.violation.next = self.violation_reg.q.val();
        self.violation_code.next = self.violation_code_reg.q.val();
        // Synchronous reset.
        if self.reset.val() {
            self.current_batch_id_reg.d.next = bits::<14>(0);
            self.current_batch_next.d.next = bits::<14>(1);
            self.current_task_reg.d.next = bits::<10>(0);
            self.current_task_next.d.next = bits::<10>(1);
            self.sel_same.d.next = false;
            self.sel_task.d.next = false;
            self.sel_batch.d.next = false;
            self.op_active_reg.d.next = false;
            self.op_done.d.next = false;
            self.started.d.next = false;
            self.arrival_valid.d.next = false;
            self.probe_valid.d.next = false;
            self.unstreamed_valid.d.next = false;
            self.outside_valid.d.next = false;
            self.resp_pending.d.next = false;
            self.resp_pending2.d.next = false;
            self.resp_credits.d.next = bits::<3>(4);
            self.violation_reg.d.next = false;
            self.violation_code_reg.d.next = self.code_none.val();
        }
    }
}
