//! `RetireQueue` — SSYNC's batch-ID retire channel to the WDU (SPEC SO-2): a retire message
//! leaves after the last task of its batch is accounted for and answered; a sub-block of
//! [`Ssync`](crate::stream_out::ssync::Ssync).
//!
//! What it does: the message table decides the last task of a streamed batch in its decision
//! stage (cycle t: `decide`, with the batch ID `decide_batch`). That task's accounting finishes
//! in the accounting stage S at t+3 (`commit`), and the responses decided up to t (its own, or
//! the earlier one when its response went out before its second request) leave the response
//! queue at t+3 or later, as the receiver takes them. The retire waits for both:
//! - the held stage (t+1) registers the decision and learns the responses still owed ahead
//!   of it (`resp_owed`: decided up to t and not taken before t+1, its own included);
//! - a queue of [`RETIRE_SLOTS`] entries in decision order (t+2 on), each with that count,
//!   which every response taken lowers while it is not zero;
//! - the output register (`retire_valid`, `retire_batch_id`), which the queue's head enters
//!   when its count is zero, or one with a response taken in that cycle.
//!
//! So a retire is offered at t+3 at the earliest (in the cycle of the task's `commit`, never
//! before it) and never before the cycle after its batch's last response is taken. Reading of
//! SO-2's "accounted for": the SSOBO arithmetic is done and the batch/task answered.
//!
//! Ports: `clock`, `reset`; `decide`, `decide_batch`; `resp_owed` (3 bits, responses decided
//! and not yet taken at the start of the cycle), `resp_taken`; `retire_valid`/`retire_ready`/
//! `retire_batch_id` (from registers); `room` (from a register: a retire may be decided this
//! cycle; a credit counter keeps the held stage and the queue within [`RETIRE_SLOTS`]).
//!
//! Timing: a retire decided in t is offered in t+3 when no response is owed ahead of it after
//! t+2, otherwise in the cycle after its last owed response is taken. One retire per cycle
//! while responses leave one per cycle (three decisions in flight: held, two waiting for their
//! responses, within the four credits).
use rust_hdl::prelude::*;

/// Entries of the queue behind the held stage; the held stage and the queue together hold at
/// most this many retires (the credits).
pub const RETIRE_SLOTS: usize = 4;
/// Width of a queue pointer.
const PTR_BITS: usize = 2;
const _: () = assert!(1 << PTR_BITS == RETIRE_SLOTS);
// `credits` resets to RETIRE_SLOTS, written as the literal 4 in `update` (`#[hdl_gen]` takes no
// cast of a Rust constant, and a named one would export as an undeclared Verilog identifier).
const _: () = assert!(RETIRE_SLOTS == 4);

#[derive(LogicBlock)]
pub struct RetireQueue {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub decide: Signal<In, Bit>,
    pub decide_batch: Signal<In, Bits<14>>,
    pub resp_owed: Signal<In, Bits<3>>,
    pub resp_taken: Signal<In, Bit>,
    pub retire_valid: Signal<Out, Bit>,
    pub retire_ready: Signal<In, Bit>,
    pub retire_batch_id: Signal<Out, Bits<14>>,
    pub room: Signal<Out, Bit>,
    /// The held stage: a retire decided last cycle.
    held_valid: DFF<Bit>,
    held_batch: DFF<Bits<14>>,
    /// The queue: per entry, valid, batch ID and responses still owed ahead of it.
    slot_valid: [DFF<Bit>; RETIRE_SLOTS],
    slot_batch: [DFF<Bits<14>>; RETIRE_SLOTS],
    slot_owed: [DFF<Bits<3>>; RETIRE_SLOTS],
    wr_ptr: DFF<Bits<PTR_BITS>>,
    rd_ptr: DFF<Bits<PTR_BITS>>,
    /// The retire on offer.
    out_valid: DFF<Bit>,
    out_batch: DFF<Bits<14>>,
    /// [`RETIRE_SLOTS`] less the retires held or queued.
    credits: DFF<Bits<3>>,
    head_valid: Signal<Local, Bit>,
    head_batch: Signal<Local, Bits<14>>,
    head_owed: Signal<Local, Bits<3>>,
    /// The head enters the output register this cycle.
    head_moves: Signal<Local, Bit>,
    push_owed: Signal<Local, Bits<3>>,
    slot_index: [Constant<Bits<PTR_BITS>>; RETIRE_SLOTS],
}

impl Default for RetireQueue {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            decide: Default::default(),
            decide_batch: Default::default(),
            resp_owed: Default::default(),
            resp_taken: Default::default(),
            retire_valid: Default::default(),
            retire_ready: Default::default(),
            retire_batch_id: Default::default(),
            room: Default::default(),
            held_valid: Default::default(),
            held_batch: Default::default(),
            slot_valid: std::array::from_fn(|_| Default::default()),
            slot_batch: std::array::from_fn(|_| Default::default()),
            slot_owed: std::array::from_fn(|_| Default::default()),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            out_valid: Default::default(),
            out_batch: Default::default(),
            credits: Default::default(),
            head_valid: Default::default(),
            head_batch: Default::default(),
            head_owed: Default::default(),
            head_moves: Default::default(),
            push_owed: Default::default(),
            slot_index: std::array::from_fn(|i| Constant::new(bits::<PTR_BITS>(i as u64))),
        }
    }
}

impl Logic for RetireQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, held_valid, held_batch, wr_ptr, rd_ptr, out_valid, out_batch, credits
        );
        // The held stage.
        self.held_valid.d.next = self.decide.val();
        self.held_batch.d.next = self.decide_batch.val();
        // The head of the queue.
        self.head_valid.next = false;
        self.head_batch.next = bits::<14>(0);
        self.head_owed.next = bits::<3>(0);
        for i in 0..RETIRE_SLOTS {
            if self.rd_ptr.q.val() == self.slot_index[i].val() {
                self.head_valid.next = self.slot_valid[i].q.val();
                self.head_batch.next = self.slot_batch[i].q.val();
                self.head_owed.next = self.slot_owed[i].q.val();
            }
        }
        self.head_moves.next = self.head_valid.val()
            & ((self.head_owed.val() == bits::<3>(0))
                | ((self.head_owed.val() == bits::<3>(1)) & self.resp_taken.val()))
            & (!self.out_valid.q.val() | self.retire_ready.val());
        // The held retire enters the queue with the responses owed ahead of it after this
        // cycle's (a response taken is one of those: they are the oldest).
        self.push_owed.next = self.resp_owed.val();
        if self.resp_taken.val() {
            self.push_owed.next = self.resp_owed.val() - bits::<3>(1);
        }
        for i in 0..RETIRE_SLOTS {
            self.slot_valid[i].clock.next = self.clock.val();
            self.slot_batch[i].clock.next = self.clock.val();
            self.slot_owed[i].clock.next = self.clock.val();
            self.slot_valid[i].d.next = self.slot_valid[i].q.val();
            self.slot_batch[i].d.next = self.slot_batch[i].q.val();
            self.slot_owed[i].d.next = self.slot_owed[i].q.val();
            if self.resp_taken.val() & (self.slot_owed[i].q.val() != bits::<3>(0)) {
                self.slot_owed[i].d.next = self.slot_owed[i].q.val() - bits::<3>(1);
            }
            if self.head_moves.val() & (self.rd_ptr.q.val() == self.slot_index[i].val()) {
                self.slot_valid[i].d.next = false;
            }
            if self.held_valid.q.val() & (self.wr_ptr.q.val() == self.slot_index[i].val()) {
                self.slot_valid[i].d.next = true;
                self.slot_batch[i].d.next = self.held_batch.q.val();
                self.slot_owed[i].d.next = self.push_owed.val();
            }
            if self.reset.val() {
                self.slot_valid[i].d.next = false;
            }
        }
        if self.held_valid.q.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + bits::<PTR_BITS>(1);
        }
        if self.head_moves.val() {
            self.rd_ptr.d.next = self.rd_ptr.q.val() + bits::<PTR_BITS>(1);
            self.out_batch.d.next = self.head_batch.val();
        }
        self.out_valid.d.next =
            self.head_moves.val() | (self.out_valid.q.val() & !self.retire_ready.val());
        // Credits: one taken by a decision, one returned as the head leaves the queue.
        if self.decide.val() & !self.head_moves.val() {
            self.credits.d.next = self.credits.q.val() - bits::<3>(1);
        }
        if !self.decide.val() & self.head_moves.val() {
            self.credits.d.next = self.credits.q.val() + bits::<3>(1);
        }
        self.room.next = self.credits.q.val() != bits::<3>(0);
        self.retire_valid.next = self.out_valid.q.val();
        self.retire_batch_id.next = self.out_batch.q.val();
        if self.reset.val() {
            self.held_valid.d.next = false;
            self.wr_ptr.d.next = bits::<PTR_BITS>(0);
            self.rd_ptr.d.next = bits::<PTR_BITS>(0);
            self.out_valid.d.next = false;
            self.out_batch.d.next = bits::<14>(0);
            self.credits.d.next = bits::<3>(4);
        }
    }
}
