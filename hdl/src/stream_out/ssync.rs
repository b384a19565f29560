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
//! Parameters: `SO_UNITS` SO units (message table entries); `SRC_BITS` = clog2(SO_UNITS) (≥1);
//! `OPS` operation-FIFO entries, `OP_BITS` = clog2(OPS) (≥1), `FILL_BITS` = clog2(OPS+1).
//!
//! Ports:
//! - `cmd_valid/cmd_ready`, `cmd_kind` (0 work token, 1 stream enable `E`, 2 stream disable `D`,
//!   3 offset bundle `O`), `cmd_batch_id` (work token), `cmd_offsets` (offset bundle, lane i =
//!   new SSOBO\[i\]): the WDU's state bundles and work tokens in driver order (SO-3).
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
//! Operation FIFO (SO-3): `OPS` entries in stream order. An entry is either an offset bundle
//! (128-bit word) or an operation: start = batch ID of the first work token after `E`, end =
//! batch ID of the first work token after the following `D` (exclusive), with an `end_known`
//! bit. Reading (SO-3): an operation is pushed when its start is known and served at once; its
//! end is written into the same entry when the first work token after `D` arrives. `E D` with
//! no work token between is an empty operation (nothing is pushed); `D E` with no work token
//! between continues the open operation. A repeated `E` or `D` is ignored. Storage: the
//! offset-bundle words are in an SRAM (`f_word`, a [`BlockRam`] of 2^`OP_BITS` x 128 bits,
//! synchronous read, no reset; iCE40 block RAM), indexed like the entries; the small fields
//! (kind, start, end, `end_known`; the end is written later) are registers.
//! An offset bundle is applied when it reaches the head and no operation is active, so it
//! takes effect between operations in stream order. The SRAM is read one cycle ahead at the
//! next read pointer (the pointer after this cycle's pop), so the word is ready when its entry
//! reaches the head; a bundle written into the slot being read in the same cycle (pushed into
//! an empty FIFO, or behind one entry that is popped) has its word read again in the next
//! cycle (a block-RAM read of the address being written is undefined) and is applied one
//! cycle later (`word_ok`). The read data is used only for an offset
//! bundle at the head whose word was read after it was written (otherwise a zero word), so
//! uninitialized SRAM never reaches an output. A push into a full FIFO is back-pressured
//! (`cmd_ready` low, SO-13); other commands keep flowing.
//!
//! Message table (SO-8, SO-9): entry i holds SO unit i's first request (batch, task, last),
//! whether it was answered, and its second request if that came first. An incoming request is
//! matched in the cycle it arrives (as if already in the table) and stored otherwise; every
//! cycle all entries are compared with the current batch/task, so after an advance the waiting
//! entry is answered without a new message.
//!
//! Bad input (SO-13): a first request from a unit whose entry is still occupied (one message
//! outstanding per unit, SO-9; e.g. its previous batch waits for the retire channel) is
//! back-pressured (`first_ready` low for that source). `violation_code`: 1 second request with
//! no first request from that unit; 3 a request for a batch/task behind the current one once an operation has been
//! loaded (outside every operation: never streamed, or already accounted); 4 a second second-request. The offending
//! message is dropped (code 3 clears the entry); nothing already accepted is lost.
//!
//! Overflow (SO-12): a batch/task fits when SSOBO\[i\] + SBBN\[i\] <= size\[i\] for every buffer
//! (a buffer with SBBN = 0 always fits). If it does not fit, the SSOBOs are left unchanged
//! (nothing is written by the SO unit, which applies the same test) and `overflow_count`
//! increments; later batch-tasks that fit are still appended. Reading: per batch/task.
//!
//! Timing: a first request that matches the current batch/task on arrival is answered in the
//! next cycle (latency 1; `resp_valid` comes from a register). A second request is accounted in
//! the cycle it arrives if its response has been (or is being) sent. With both messages waiting
//! in the table, SSYNC sustains one response and one accounted batch/task per cycle. Between
//! operations: 2 cycles (end detect, load next); an offset bundle between them adds 1 cycle
//! (2 if its word was written in the cycle it was read, see above). One command per cycle.
use crate::msg::{FirstRequest, Msg128};
use crate::widgets::block_ram::BlockRam;
use rust_hdl::prelude::*;

/// `cmd_kind` of a work token.
pub const CMD_WORK: u64 = 0;
/// `cmd_kind` of a stream-enable bundle.
pub const CMD_ENABLE: u64 = 1;
/// `cmd_kind` of a stream-disable bundle.
pub const CMD_DISABLE: u64 = 2;
/// `cmd_kind` of an offset bundle.
pub const CMD_OFFSET: u64 = 3;

/// `violation_code` values (SO-13).
pub const VIOL_SECOND_WITHOUT_FIRST: u64 = 1;
pub const VIOL_OUTSIDE_OPERATION: u64 = 3;
pub const VIOL_DUPLICATE_SECOND: u64 = 4;

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
    // SSOBOs, current batch/task
    ssobo_q: DFF<Msg128>,
    cur_batch: DFF<Bits<14>>,
    cur_task: DFF<Bits<10>>,
    active: DFF<Bit>,
    /// An operation has been loaded since reset: `cur_batch` orders the batch IDs.
    started: DFF<Bit>,
    // message table
    t_first: [DFF<Bit>; SO_UNITS],
    t_resp: [DFF<Bit>; SO_UNITS],
    t_second: [DFF<Bit>; SO_UNITS],
    t_last: [DFF<Bit>; SO_UNITS],
    t_batch: [DFF<Bits<14>>; SO_UNITS],
    t_task: [DFF<Bits<10>>; SO_UNITS],
    t_sbbn: [DFF<Msg128>; SO_UNITS],
    // operation FIFO
    f_is_offset: [DFF<Bit>; OPS],
    /// Offset-bundle words: SRAM, one 128-bit word per entry (synchronous read).
    f_word: BlockRam<Msg128, OP_BITS>,
    /// `f_word.read_data` holds the word of the entry at the head (read after its write).
    word_ok: DFF<Bit>,
    f_start: [DFF<Bits<14>>; OPS],
    f_end: [DFF<Bits<14>>; OPS],
    f_end_known: [DFF<Bit>; OPS],
    wr_ptr: DFF<Bits<OP_BITS>>,
    rd_ptr: DFF<Bits<OP_BITS>>,
    fill: DFF<Bits<FILL_BITS>>,
    rd_next: Signal<Local, Bits<OP_BITS>>,
    // command decoder state
    enabled: DFF<Bit>,
    await_start: DFF<Bit>,
    await_end: DFF<Bit>,
    open_op: DFF<Bit>,
    open_ptr: DFF<Bits<OP_BITS>>,
    // output registers
    resp_v: DFF<Bit>,
    resp_word: DFF<Msg128>,
    resp_to: DFF<Bits<SRC_BITS>>,
    ret_v: DFF<Bit>,
    ret_id: DFF<Bits<14>>,
    needed: DFF<Msg128>,
    written: DFF<Msg128>,
    ovf_count: DFF<Bits<16>>,
    viol: DFF<Bit>,
    viol_code: DFF<Bits<3>>,
    // combinational
    e_first: [Signal<Local, Bit>; SO_UNITS],
    e_second: [Signal<Local, Bit>; SO_UNITS],
    e_last: [Signal<Local, Bit>; SO_UNITS],
    e_batch: [Signal<Local, Bits<14>>; SO_UNITS],
    e_task: [Signal<Local, Bits<10>>; SO_UNITS],
    e_sbbn: [Signal<Local, Msg128>; SO_UNITS],
    e_dist: [Signal<Local, Bits<14>>; SO_UNITS],
    e_stale: [Signal<Local, Bit>; SO_UNITS],
    e_hit: [Signal<Local, Bit>; SO_UNITS],
    h_is_offset: Signal<Local, Bit>,
    h_word: Signal<Local, Msg128>,
    h_start: Signal<Local, Bits<14>>,
    h_end: Signal<Local, Bits<14>>,
    h_end_known: Signal<Local, Bit>,
    empty: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    op_done: Signal<Local, Bit>,
    serving: Signal<Local, Bit>,
    resp_free: Signal<Local, Bit>,
    ret_free: Signal<Local, Bit>,
    hit_any: Signal<Local, Bit>,
    sel: Signal<Local, Bits<SRC_BITS>>,
    s_resp: Signal<Local, Bit>,
    s_second: Signal<Local, Bit>,
    s_last: Signal<Local, Bit>,
    s_sbbn: Signal<Local, Msg128>,
    respond_now: Signal<Local, Bit>,
    commit_now: Signal<Local, Bit>,
    ov0: Signal<Local, Bit>,
    ov1: Signal<Local, Bit>,
    ov2: Signal<Local, Bit>,
    ov3: Signal<Local, Bit>,
    any_ov: Signal<Local, Bit>,
    needs_push: Signal<Local, Bit>,
    cmd_fire: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    viol_now: Signal<Local, Bit>,
    viol_code_now: Signal<Local, Bits<3>>,
    unit_index: [Constant<Bits<SRC_BITS>>; SO_UNITS],
    slot_index: [Constant<Bits<OP_BITS>>; OPS],
    last_slot: Constant<Bits<OP_BITS>>,
    depth: Constant<Bits<FILL_BITS>>,
    behind: Constant<Bits<14>>,
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
        assert!(OPS >= 1, "Ssync: OPS must be at least 1");
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
            ssobo_q: Default::default(),
            cur_batch: Default::default(),
            cur_task: Default::default(),
            active: Default::default(),
            started: Default::default(),
            t_first: std::array::from_fn(|_| Default::default()),
            t_resp: std::array::from_fn(|_| Default::default()),
            t_second: std::array::from_fn(|_| Default::default()),
            t_last: std::array::from_fn(|_| Default::default()),
            t_batch: std::array::from_fn(|_| Default::default()),
            t_task: std::array::from_fn(|_| Default::default()),
            t_sbbn: std::array::from_fn(|_| Default::default()),
            f_is_offset: std::array::from_fn(|_| Default::default()),
            f_word: Default::default(),
            word_ok: Default::default(),
            f_start: std::array::from_fn(|_| Default::default()),
            f_end: std::array::from_fn(|_| Default::default()),
            f_end_known: std::array::from_fn(|_| Default::default()),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            fill: Default::default(),
            rd_next: Default::default(),
            enabled: Default::default(),
            await_start: Default::default(),
            await_end: Default::default(),
            open_op: Default::default(),
            open_ptr: Default::default(),
            resp_v: Default::default(),
            resp_word: Default::default(),
            resp_to: Default::default(),
            ret_v: Default::default(),
            ret_id: Default::default(),
            needed: Default::default(),
            written: Default::default(),
            ovf_count: Default::default(),
            viol: Default::default(),
            viol_code: Default::default(),
            e_first: std::array::from_fn(|_| Default::default()),
            e_second: std::array::from_fn(|_| Default::default()),
            e_last: std::array::from_fn(|_| Default::default()),
            e_batch: std::array::from_fn(|_| Default::default()),
            e_task: std::array::from_fn(|_| Default::default()),
            e_sbbn: std::array::from_fn(|_| Default::default()),
            e_dist: std::array::from_fn(|_| Default::default()),
            e_stale: std::array::from_fn(|_| Default::default()),
            e_hit: std::array::from_fn(|_| Default::default()),
            h_is_offset: Default::default(),
            h_word: Default::default(),
            h_start: Default::default(),
            h_end: Default::default(),
            h_end_known: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            op_done: Default::default(),
            serving: Default::default(),
            resp_free: Default::default(),
            ret_free: Default::default(),
            hit_any: Default::default(),
            sel: Default::default(),
            s_resp: Default::default(),
            s_second: Default::default(),
            s_last: Default::default(),
            s_sbbn: Default::default(),
            respond_now: Default::default(),
            commit_now: Default::default(),
            ov0: Default::default(),
            ov1: Default::default(),
            ov2: Default::default(),
            ov3: Default::default(),
            any_ov: Default::default(),
            needs_push: Default::default(),
            cmd_fire: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            viol_now: Default::default(),
            viol_code_now: Default::default(),
            unit_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
            slot_index: std::array::from_fn(|i| Constant::new(bits::<OP_BITS>(i as u64))),
            last_slot: Constant::new(bits::<OP_BITS>((OPS - 1) as u64)),
            depth: Constant::new(bits::<FILL_BITS>(OPS as u64)),
            behind: Constant::new(bits::<14>(1 << 13)),
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
            ssobo_q,
            cur_batch,
            cur_task,
            active,
            started,
            wr_ptr,
            rd_ptr,
            fill,
            word_ok,
            enabled,
            await_start,
            await_end,
            open_op,
            open_ptr,
            resp_v,
            resp_word,
            resp_to,
            ret_v,
            ret_id,
            needed,
            written,
            ovf_count,
            viol,
            viol_code
        );
        for i in 0..SO_UNITS {
            self.t_first[i].clock.next = self.clock.val();
            self.t_resp[i].clock.next = self.clock.val();
            self.t_second[i].clock.next = self.clock.val();
            self.t_last[i].clock.next = self.clock.val();
            self.t_batch[i].clock.next = self.clock.val();
            self.t_task[i].clock.next = self.clock.val();
            self.t_sbbn[i].clock.next = self.clock.val();
            self.t_resp[i].d.next = self.t_resp[i].q.val();
        }
        for i in 0..OPS {
            self.f_is_offset[i].clock.next = self.clock.val();
            self.f_start[i].clock.next = self.clock.val();
            self.f_end[i].clock.next = self.clock.val();
            self.f_end_known[i].clock.next = self.clock.val();
            self.f_is_offset[i].d.next = self.f_is_offset[i].q.val();
            self.f_start[i].d.next = self.f_start[i].q.val();
            self.f_end[i].d.next = self.f_end[i].q.val();
            self.f_end_known[i].d.next = self.f_end_known[i].q.val();
        }
        // Output registers drain.
        self.resp_free.next = !self.resp_v.q.val() | self.resp_ready.val();
        self.ret_free.next = !self.ret_v.q.val() | self.retire_ready.val();
        if self.resp_v.q.val() & self.resp_ready.val() {
            self.resp_v.d.next = false;
        }
        if self.ret_v.q.val() & self.retire_ready.val() {
            self.ret_v.d.next = false;
        }
        // Head of the operation FIFO.
        self.h_is_offset.next = self.f_is_offset[0].q.val();
        self.h_start.next = self.f_start[0].q.val();
        self.h_end.next = self.f_end[0].q.val();
        self.h_end_known.next = self.f_end_known[0].q.val();
        for i in 0..OPS {
            if self.rd_ptr.q.val() == self.slot_index[i].val() {
                self.h_is_offset.next = self.f_is_offset[i].q.val();
                self.h_start.next = self.f_start[i].q.val();
                self.h_end.next = self.f_end[i].q.val();
                self.h_end_known.next = self.f_end_known[i].q.val();
            }
        }
        self.empty.next = self.fill.q.val() == bits::<FILL_BITS>(0);
        self.full.next = self.fill.q.val() == self.depth.val();
        // The SRAM word is used only for a written offset bundle at the head (no X escapes).
        self.h_word.next = self.zero_msg.val();
        if self.word_ok.q.val() & self.h_is_offset.val() & !self.empty.val() {
            self.h_word.next = self.f_word.read_data.val();
        }
        self.op_done.next = self.active.q.val()
            & self.h_end_known.val()
            & (self.h_end.val() == self.cur_batch.q.val());
        self.serving.next = self.active.q.val() & !self.op_done.val();
        // Message table: merge this cycle's arrivals, detect bad input.
        self.first_ready.next = true;
        self.second_ready.next = true;
        self.viol_now.next = false;
        self.viol_code_now.next = bits::<3>(0);
        for i in 0..SO_UNITS {
            self.e_first[i].next = self.t_first[i].q.val();
            self.e_second[i].next = self.t_second[i].q.val();
            self.e_last[i].next = self.t_last[i].q.val();
            self.e_batch[i].next = self.t_batch[i].q.val();
            self.e_task[i].next = self.t_task[i].q.val();
            self.e_sbbn[i].next = self.t_sbbn[i].q.val();
            if self.first_valid.val() & (self.first_source.val() == self.unit_index[i].val()) {
                if self.t_first[i].q.val() {
                    self.first_ready.next = false;
                } else {
                    self.e_first[i].next = true;
                    self.e_last[i].next = self.first_data.val().last;
                    self.e_batch[i].next = self.first_data.val().batch_id;
                    self.e_task[i].next = self.first_data.val().task_number;
                }
            }
            if self.second_valid.val() & (self.second_source.val() == self.unit_index[i].val()) {
                if !self.e_first[i].val() {
                    self.viol_now.next = true;
                    self.viol_code_now.next = bits::<3>(1);
                } else if self.t_second[i].q.val() {
                    self.viol_now.next = true;
                    self.viol_code_now.next = bits::<3>(4);
                } else {
                    self.e_second[i].next = true;
                    self.e_sbbn[i].next = self.second_data.val();
                }
            }
            self.e_dist[i].next = self.e_batch[i].val() - self.cur_batch.q.val();
            self.e_stale[i].next = self.started.q.val()
                & self.e_first[i].val()
                & ((self.e_dist[i].val() >= self.behind.val())
                    | ((self.e_dist[i].val() == bits::<14>(0))
                        & (self.e_task[i].val() < self.cur_task.q.val())));
            self.e_hit[i].next = self.serving.val()
                & self.e_first[i].val()
                & (self.e_batch[i].val() == self.cur_batch.q.val())
                & (self.e_task[i].val() == self.cur_task.q.val());
            if self.e_stale[i].val() {
                self.viol_now.next = true;
                self.viol_code_now.next = bits::<3>(3);
            }
        }
        // The entry that matches the current batch/task.
        self.hit_any.next = false;
        self.sel.next = bits::<SRC_BITS>(0);
        self.s_resp.next = false;
        self.s_second.next = false;
        self.s_last.next = false;
        self.s_sbbn.next = self.e_sbbn[0].val();
        for i in 0..SO_UNITS {
            if self.e_hit[i].val() & !self.hit_any.val() {
                self.hit_any.next = true;
                self.sel.next = self.unit_index[i].val();
                self.s_resp.next = self.t_resp[i].q.val();
                self.s_second.next = self.e_second[i].val();
                self.s_last.next = self.e_last[i].val();
                self.s_sbbn.next = self.e_sbbn[i].val();
            }
        }
        self.respond_now.next = self.hit_any.val() & !self.s_resp.val() & self.resp_free.val();
        self.commit_now.next = self.hit_any.val()
            & (self.s_resp.val() | self.respond_now.val())
            & self.s_second.val()
            & (!self.s_last.val() | self.ret_free.val());
        // SO-12: does the batch/task fit in every buffer?
        self.ov0.next = (self.s_sbbn.val().lane0 > self.buffer_size.val().lane0)
            | (self.ssobo_q.q.val().lane0
                > (self.buffer_size.val().lane0 - self.s_sbbn.val().lane0));
        self.ov1.next = (self.s_sbbn.val().lane1 > self.buffer_size.val().lane1)
            | (self.ssobo_q.q.val().lane1
                > (self.buffer_size.val().lane1 - self.s_sbbn.val().lane1));
        self.ov2.next = (self.s_sbbn.val().lane2 > self.buffer_size.val().lane2)
            | (self.ssobo_q.q.val().lane2
                > (self.buffer_size.val().lane2 - self.s_sbbn.val().lane2));
        self.ov3.next = (self.s_sbbn.val().lane3 > self.buffer_size.val().lane3)
            | (self.ssobo_q.q.val().lane3
                > (self.buffer_size.val().lane3 - self.s_sbbn.val().lane3));
        self.any_ov.next = self.ov0.val() | self.ov1.val() | self.ov2.val() | self.ov3.val();
        self.commit.next = self.commit_now.val();
        self.commit_overflow.next = self.commit_now.val() & self.any_ov.val();
        if self.respond_now.val() {
            self.resp_v.d.next = true;
            self.resp_word.d.next = self.ssobo_q.q.val();
            self.resp_to.d.next = self.sel.val();
        }
        if self.commit_now.val() {
            self.needed.d.next.lane0 = self.needed.q.val().lane0 + self.s_sbbn.val().lane0;
            self.needed.d.next.lane1 = self.needed.q.val().lane1 + self.s_sbbn.val().lane1;
            self.needed.d.next.lane2 = self.needed.q.val().lane2 + self.s_sbbn.val().lane2;
            self.needed.d.next.lane3 = self.needed.q.val().lane3 + self.s_sbbn.val().lane3;
            if self.any_ov.val() {
                self.ovf_count.d.next = self.ovf_count.q.val() + bits::<16>(1);
            } else {
                self.ssobo_q.d.next.lane0 = self.ssobo_q.q.val().lane0 + self.s_sbbn.val().lane0;
                self.ssobo_q.d.next.lane1 = self.ssobo_q.q.val().lane1 + self.s_sbbn.val().lane1;
                self.ssobo_q.d.next.lane2 = self.ssobo_q.q.val().lane2 + self.s_sbbn.val().lane2;
                self.ssobo_q.d.next.lane3 = self.ssobo_q.q.val().lane3 + self.s_sbbn.val().lane3;
                self.written.d.next.lane0 = self.written.q.val().lane0 + self.s_sbbn.val().lane0;
                self.written.d.next.lane1 = self.written.q.val().lane1 + self.s_sbbn.val().lane1;
                self.written.d.next.lane2 = self.written.q.val().lane2 + self.s_sbbn.val().lane2;
                self.written.d.next.lane3 = self.written.q.val().lane3 + self.s_sbbn.val().lane3;
            }
            if self.s_last.val() {
                self.cur_batch.d.next = self.cur_batch.q.val() + bits::<14>(1);
                self.cur_task.d.next = bits::<10>(0);
                self.ret_v.d.next = true;
                self.ret_id.d.next = self.cur_batch.q.val();
            } else {
                self.cur_task.d.next = self.cur_task.q.val() + bits::<10>(1);
            }
        }
        // Table write-back.
        for i in 0..SO_UNITS {
            self.t_first[i].d.next = self.e_first[i].val();
            self.t_second[i].d.next = self.e_second[i].val();
            self.t_last[i].d.next = self.e_last[i].val();
            self.t_batch[i].d.next = self.e_batch[i].val();
            self.t_task[i].d.next = self.e_task[i].val();
            self.t_sbbn[i].d.next = self.e_sbbn[i].val();
            if self.respond_now.val() & (self.sel.val() == self.unit_index[i].val()) {
                self.t_resp[i].d.next = true;
            }
            if (self.commit_now.val() & (self.sel.val() == self.unit_index[i].val()))
                | self.e_stale[i].val()
            {
                self.t_first[i].d.next = false;
                self.t_second[i].d.next = false;
                self.t_resp[i].d.next = false;
            }
        }
        // Operation FIFO: serve the head.
        self.pop.next = false;
        if !self.active.q.val() & !self.empty.val() {
            if self.h_is_offset.val() {
                if self.word_ok.q.val() {
                    self.ssobo_q.d.next = self.h_word.val();
                    self.pop.next = true;
                }
            } else {
                self.active.d.next = true;
                self.started.d.next = true;
                self.cur_batch.d.next = self.h_start.val();
                self.cur_task.d.next = bits::<10>(0);
            }
        }
        if self.op_done.val() {
            self.active.d.next = false;
            self.pop.next = true;
        }
        // Command decoder (SO-3).
        self.needs_push.next = (self.cmd_kind.val() == bits::<2>(3))
            | ((self.cmd_kind.val() == bits::<2>(0)) & self.await_start.q.val());
        self.cmd_ready.next = !(self.needs_push.val() & self.full.val());
        self.cmd_fire.next = self.cmd_valid.val() & self.cmd_ready.val();
        self.push.next = self.cmd_fire.val() & self.needs_push.val();
        if self.cmd_fire.val() {
            if self.cmd_kind.val() == bits::<2>(0) {
                if self.await_start.q.val() {
                    self.await_start.d.next = false;
                    self.open_op.d.next = true;
                    self.open_ptr.d.next = self.wr_ptr.q.val();
                } else if self.await_end.q.val() {
                    self.await_end.d.next = false;
                    self.open_op.d.next = false;
                }
            }
            if (self.cmd_kind.val() == bits::<2>(1)) & !self.enabled.q.val() {
                self.enabled.d.next = true;
                if self.await_end.q.val() {
                    self.await_end.d.next = false;
                } else {
                    self.await_start.d.next = true;
                }
            }
            if (self.cmd_kind.val() == bits::<2>(2)) & self.enabled.q.val() {
                self.enabled.d.next = false;
                if self.await_start.q.val() {
                    self.await_start.d.next = false;
                } else if self.open_op.q.val() {
                    self.await_end.d.next = true;
                }
            }
        }
        for i in 0..OPS {
            if self.push.val() & (self.wr_ptr.q.val() == self.slot_index[i].val()) {
                self.f_is_offset[i].d.next = self.cmd_kind.val() == bits::<2>(3);
                self.f_start[i].d.next = self.cmd_batch_id.val();
                self.f_end[i].d.next = self.cmd_batch_id.val();
                self.f_end_known[i].d.next = false;
            }
            if self.cmd_fire.val()
                & (self.cmd_kind.val() == bits::<2>(0))
                & self.await_end.q.val()
                & (self.open_ptr.q.val() == self.slot_index[i].val())
            {
                self.f_end[i].d.next = self.cmd_batch_id.val();
                self.f_end_known[i].d.next = true;
            }
        }
        if self.push.val() {
            if self.wr_ptr.q.val() == self.last_slot.val() {
                self.wr_ptr.d.next = bits::<OP_BITS>(0);
            } else {
                self.wr_ptr.d.next = self.wr_ptr.q.val() + bits::<OP_BITS>(1);
            }
        }
        self.rd_next.next = self.rd_ptr.q.val();
        if self.pop.val() {
            if self.rd_ptr.q.val() == self.last_slot.val() {
                self.rd_next.next = bits::<OP_BITS>(0);
            } else {
                self.rd_next.next = self.rd_ptr.q.val() + bits::<OP_BITS>(1);
            }
        }
        self.rd_ptr.d.next = self.rd_next.val();
        // Offset-bundle words: written at the write pointer; read one cycle ahead at the next
        // read pointer, so the word is ready when its entry reaches the head. A word written
        // into the slot read in the same cycle is read again in the next cycle (`word_ok`).
        self.f_word.clock.next = self.clock.val();
        self.f_word.write_address.next = self.wr_ptr.q.val();
        self.f_word.write_data.next = self.cmd_offsets.val();
        self.f_word.write_enable.next = self.push.val() & (self.cmd_kind.val() == bits::<2>(3));
        self.f_word.read_address.next = self.rd_next.val();
        self.word_ok.d.next =
            !(self.f_word.write_enable.val() & (self.wr_ptr.q.val() == self.rd_next.val()));
        if self.push.val() & !self.pop.val() {
            self.fill.d.next = self.fill.q.val() + bits::<FILL_BITS>(1);
        }
        if self.pop.val() & !self.push.val() {
            self.fill.d.next = self.fill.q.val() - bits::<FILL_BITS>(1);
        }
        self.viol.d.next = self.viol_now.val();
        self.viol_code.d.next = self.viol_code_now.val();
        // Outputs.
        self.resp_valid.next = self.resp_v.q.val();
        self.resp_data.next = self.resp_word.q.val();
        self.resp_dest.next = self.resp_to.q.val();
        self.retire_valid.next = self.ret_v.q.val();
        self.retire_batch_id.next = self.ret_id.q.val();
        self.ssobo.next = self.ssobo_q.q.val();
        self.current_batch_id.next = self.cur_batch.q.val();
        self.current_task.next = self.cur_task.q.val();
        self.op_active.next = self.active.q.val();
        self.op_fill.next = self.fill.q.val();
        self.op_full.next = self.full.val();
        self.stat_needed.next = self.needed.q.val();
        self.stat_written.next = self.written.q.val();
        self.overflow_count.next = self.ovf_count.q.val();
        self.violation.next = self.viol.q.val();
        self.violation_code.next = self.viol_code.q.val();
        self.outstanding.next = false;
        for i in 0..SO_UNITS {
            if self.t_first[i].q.val() & !self.t_resp[i].q.val() {
                self.outstanding.next = true;
            }
        }
        // Synchronous reset.
        if self.reset.val() {
            self.ssobo_q.d.next = self.zero_msg.val();
            self.needed.d.next = self.zero_msg.val();
            self.written.d.next = self.zero_msg.val();
            self.cur_batch.d.next = bits::<14>(0);
            self.cur_task.d.next = bits::<10>(0);
            self.active.d.next = false;
            self.started.d.next = false;
            self.wr_ptr.d.next = bits::<OP_BITS>(0);
            self.rd_ptr.d.next = bits::<OP_BITS>(0);
            self.fill.d.next = bits::<FILL_BITS>(0);
            self.word_ok.d.next = false;
            self.f_word.write_enable.next = false;
            self.enabled.d.next = false;
            self.await_start.d.next = false;
            self.await_end.d.next = false;
            self.open_op.d.next = false;
            self.open_ptr.d.next = bits::<OP_BITS>(0);
            self.resp_v.d.next = false;
            self.resp_to.d.next = bits::<SRC_BITS>(0);
            self.resp_word.d.next = self.zero_msg.val();
            self.ret_v.d.next = false;
            self.ret_id.d.next = bits::<14>(0);
            self.ovf_count.d.next = bits::<16>(0);
            self.viol.d.next = false;
            self.viol_code.d.next = bits::<3>(0);
            for i in 0..SO_UNITS {
                self.t_first[i].d.next = false;
                self.t_resp[i].d.next = false;
                self.t_second[i].d.next = false;
                self.t_last[i].d.next = false;
                self.t_batch[i].d.next = bits::<14>(0);
                self.t_task[i].d.next = bits::<10>(0);
                self.t_sbbn[i].d.next = self.zero_msg.val();
            }
            for i in 0..OPS {
                self.f_is_offset[i].d.next = false;
                self.f_start[i].d.next = bits::<14>(0);
                self.f_end[i].d.next = bits::<14>(0);
                self.f_end_known[i].d.next = false;
            }
        }
    }
}
