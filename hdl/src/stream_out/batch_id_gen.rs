//! `BatchIdGen` — the work distribution unit's batch-ID generator (SPEC SO-1, SO-2, SO-13).
//!
//! Batch IDs are 14 bits: bit 13 a phase bit, bits 12..0 a wrapping counter; consecutive IDs
//! are handed out (`id_*`, one per cycle), the phase flipping each time the counter wraps
//! (a 14-bit increment). In-flight IDs are tracked in a window of `WINDOW` slots (slot = ID
//! mod `WINDOW`, holding a busy bit and the ID): the next ID is offered only if its slot is
//! free, otherwise the WDU stalls (`stall`, SO-1/SO-13: an ID is never given out twice while
//! in flight). Reading: `WINDOW` (a power of two ≤ 2^13) bounds the batches in flight, which
//! also keeps every in-flight ID within half the ID space of SSYNC's current batch so the
//! phase bit orders them.
//!
//! Retirement (SO-2): `retire_*` from SSYNC (streamed batches, in order) and `done_*` from the
//! pipeline (batches outside stream output, any order) free the slot. A retire of an ID that is
//! not in flight raises `violation` and changes nothing. Both retire channels are registered as
//! they arrive, and each slot's tag compare is done in the arrival cycle against the tag the slot
//! will hold next (its own, or the ID handed out into it in that cycle) and registered beside the
//! message, so the cycle that frees a slot only ANDs a registered match bit with its busy bit.
//! The ID a slot receives next is known in advance (IDs are consecutive, so it is the slot's
//! last ID + `WINDOW`, or the slot's index after reset): each slot keeps it in a register
//! (`slot_next_batch_id`), so no compare with the ID handed out is shared by all slots: the
//! slot's busy bit selects its key from its own registers (`slot_key`: a busy slot's ID, a free
//! slot's next ID, read only if that ID is handed out now, since every use of a match bit ANDs
//! it with the slot's busy bit), and each message is compared with the key. A slot's IDs have
//! its index as their low `WBITS` bits, so only the bits above are compared (synthesis drops
//! the registers' low bits).
//!
//! Parameters: `WINDOW` slots, `WBITS` = log2(WINDOW).
//! Ports: `clock`, `reset`; `id_valid/id_ready/id_batch_id`; `retire_valid/retire_ready/
//! retire_batch_id`; `done_valid/done_ready/done_batch_id`; `stall`; `violation`.
//! Timing: an ID retired in cycle t can be handed out again from cycle t+2; `violation` rises
//! two cycles after the bad message; both retire channels are always ready.
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BatchIdGen<const WINDOW: usize, const WBITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub id_valid: Signal<Out, Bit>,
    pub id_ready: Signal<In, Bit>,
    pub id_batch_id: Signal<Out, Bits<14>>,
    pub retire_valid: Signal<In, Bit>,
    pub retire_ready: Signal<Out, Bit>,
    pub retire_batch_id: Signal<In, Bits<14>>,
    pub done_valid: Signal<In, Bit>,
    pub done_ready: Signal<Out, Bit>,
    pub done_batch_id: Signal<In, Bits<14>>,
    pub stall: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    id_batch_id_reg: DFF<Bits<14>>,
    /// The slot of the next ID (`id_batch_id_reg` mod `WINDOW`), one-hot: its busy bit is set
    /// by one AND, and whether it is busy (`next_slot_busy_q`) is an AND-OR, not a
    /// `WINDOW`-way multiplexer.
    next_slot_onehot: DFF<Bits<WINDOW>>,
    /// `violation`, registered.
    violation_q: DFF<Bit>,
    /// Whether each channel carried a message last cycle (always taken).
    retire_valid_q: DFF<Bit>,
    done_valid_q: DFF<Bit>,
    /// Per slot: the registered retire / done message names the slot's tag (compared as the
    /// message arrived, against the tag after that cycle's allocation; meaningful only while
    /// the slot is busy).
    retire_match: [DFF<Bit>; WINDOW],
    done_match: [DFF<Bit>; WINDOW],
    /// Both channels name the same ID (registered as they arrive).
    same_id_q: DFF<Bit>,
    onehot_wrap: Constant<Bits<WINDOW>>,
    slot_busy: [DFF<Bit>; WINDOW],
    slot_batch_id: [DFF<Bits<14>>; WINDOW],
    /// Per slot: the ID handed out into it next (its ID + `WINDOW`; its index after reset).
    slot_next_batch_id: [DFF<Bits<14>>; WINDOW],
    /// `id_batch_id_reg` + `WINDOW` (the next ID's slot's ID after this one).
    id_plus_window: DFF<Bits<14>>,
    window_step: Constant<Bits<14>>,
    /// The ID bits above the slot index (`!(WINDOW - 1)`): a slot's IDs (busy, or handed out
    /// into it next) have its index as their low bits, so only the bits above are compared
    /// (and the low bits of the slots' ID registers are never read: synthesis removes them).
    id_high_mask: Constant<Bits<14>>,
    slot_index_id: [Constant<Bits<14>>; WINDOW],
    /// Per slot: the ID its match bits are compared with (its ID while busy, else its next
    /// ID), high bits only, its index below.
    slot_key: [Signal<Local, Bits<14>>; WINDOW],
    next_slot_busy: Signal<Local, Bit>,
    /// The next ID's slot is busy (registered, see `update`).
    next_slot_busy_q: DFF<Bit>,
    /// `next_slot_onehot` rotated by one: the slot after the next ID's.
    slot_after: Signal<Local, Bits<WINDOW>>,
    /// After this cycle's retires, the next ID's slot / the slot after it is still busy.
    busy_stays_here: Signal<Local, Bit>,
    busy_stays_after: Signal<Local, Bit>,
    allocate: Signal<Local, Bit>,
    retire_found: Signal<Local, Bit>,
    done_found: Signal<Local, Bit>,
}

impl<const WINDOW: usize, const WBITS: usize> Default for BatchIdGen<WINDOW, WBITS> {
    fn default() -> Self {
        assert!(
            WINDOW.is_power_of_two() && (2..=1 << 13).contains(&WINDOW),
            "BatchIdGen: WINDOW must be a power of two in 2..=8192"
        );
        assert_eq!(1 << WBITS, WINDOW, "BatchIdGen: WBITS must be log2(WINDOW)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            id_valid: Default::default(),
            id_ready: Default::default(),
            id_batch_id: Default::default(),
            retire_valid: Default::default(),
            retire_ready: Default::default(),
            retire_batch_id: Default::default(),
            done_valid: Default::default(),
            done_ready: Default::default(),
            done_batch_id: Default::default(),
            stall: Default::default(),
            violation: Default::default(),
            id_batch_id_reg: Default::default(),
            next_slot_onehot: Default::default(),
            violation_q: Default::default(),
            retire_valid_q: Default::default(),
            done_valid_q: Default::default(),
            retire_match: std::array::from_fn(|_| Default::default()),
            done_match: std::array::from_fn(|_| Default::default()),
            same_id_q: Default::default(),
            onehot_wrap: Constant::new(bits::<WINDOW>((WINDOW - 1) as u64)),
            slot_busy: std::array::from_fn(|_| Default::default()),
            slot_batch_id: std::array::from_fn(|_| Default::default()),
            slot_next_batch_id: std::array::from_fn(|_| Default::default()),
            id_plus_window: Default::default(),
            window_step: Constant::new(bits::<14>(WINDOW as u64)),
            id_high_mask: Constant::new(bits::<14>(0x3fff & !((WINDOW as u64) - 1))),
            slot_index_id: std::array::from_fn(|i| Constant::new(bits::<14>(i as u64))),
            slot_key: std::array::from_fn(|_| Default::default()),
            next_slot_busy: Default::default(),
            next_slot_busy_q: Default::default(),
            slot_after: Default::default(),
            busy_stays_here: Default::default(),
            busy_stays_after: Default::default(),
            allocate: Default::default(),
            retire_found: Default::default(),
            done_found: Default::default(),
        }
    }
}

impl<const WINDOW: usize, const WBITS: usize> Logic for BatchIdGen<WINDOW, WBITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            id_batch_id_reg,
            id_plus_window,
            next_slot_onehot,
            violation_q,
            retire_valid_q,
            done_valid_q,
            same_id_q,
            next_slot_busy_q
        );
        self.retire_valid_q.d.next = self.retire_valid.val();
        self.done_valid_q.d.next = self.done_valid.val();
        self.same_id_q.d.next = self.retire_batch_id.val() == self.done_batch_id.val();
        for i in 0..WINDOW {
            self.slot_busy[i].clock.next = self.clock.val();
            self.slot_batch_id[i].clock.next = self.clock.val();
            self.retire_match[i].clock.next = self.clock.val();
            self.done_match[i].clock.next = self.clock.val();
            self.slot_busy[i].d.next = self.slot_busy[i].q.val();
            self.slot_batch_id[i].d.next = self.slot_batch_id[i].q.val();
            self.slot_next_batch_id[i].clock.next = self.clock.val();
            self.slot_next_batch_id[i].d.next = self.slot_next_batch_id[i].q.val();
        }
        // Whether the next ID's slot is busy is a register: this cycle's value for the slot the
        // next ID will have after this cycle (the same slot, or the one after it when an ID is
        // handed out now), from the slots' busy bits less this cycle's retires.
        self.next_slot_busy.next = self.next_slot_busy_q.q.val();
        self.slot_after.next = (self.next_slot_onehot.q.val() << bits::<WINDOW>(1))
            | (self.next_slot_onehot.q.val() >> self.onehot_wrap.val());
        self.busy_stays_here.next = false;
        self.busy_stays_after.next = false;
        for i in 0..WINDOW {
            if self.slot_busy[i].q.val()
                & !(self.retire_valid_q.q.val() & self.retire_match[i].q.val())
                & !(self.done_valid_q.q.val() & self.done_match[i].q.val())
            {
                if self.next_slot_onehot.q.val().get_bit(i) {
                    self.busy_stays_here.next = true;
                }
                if self.slot_after.val().get_bit(i) {
                    self.busy_stays_after.next = true;
                }
            }
        }
        self.id_valid.next = !self.next_slot_busy.val();
        self.id_batch_id.next = self.id_batch_id_reg.q.val();
        self.stall.next = self.next_slot_busy.val();
        self.allocate.next = self.id_valid.val() & self.id_ready.val();
        self.retire_ready.next = true;
        self.done_ready.next = true;
        self.retire_found.next = false;
        self.done_found.next = false;
        for i in 0..WINDOW {
            // A busy slot keeps its ID this cycle; a free one holds, after this cycle, either
            // the ID handed out into it now (its `slot_next_batch_id`) or nothing (then its
            // match bit is not read: every use ANDs it with the slot's busy bit). A slot freed
            // now is not handed out into in the same cycle (`id_valid` is its registered busy
            // bit), so the match is selected by the busy bit, not by the hand-over.
            self.slot_key[i].next = self.slot_next_batch_id[i].q.val();
            if self.slot_busy[i].q.val() {
                self.slot_key[i].next = self.slot_batch_id[i].q.val();
            }
            self.slot_key[i].next =
                (self.slot_key[i].val() & self.id_high_mask.val()) | self.slot_index_id[i].val();
            self.retire_match[i].d.next = self.slot_key[i].val() == self.retire_batch_id.val();
            self.done_match[i].d.next = self.slot_key[i].val() == self.done_batch_id.val();
            if self.allocate.val() & self.next_slot_onehot.q.val().get_bit(i) {
                self.slot_busy[i].d.next = true;
                self.slot_batch_id[i].d.next = self.id_batch_id_reg.q.val();
                self.slot_next_batch_id[i].d.next = self.id_plus_window.q.val();
            }
            if self.retire_valid_q.q.val()
                & self.slot_busy[i].q.val()
                & self.retire_match[i].q.val()
            {
                self.retire_found.next = true;
                self.slot_busy[i].d.next = false;
            }
            if self.done_valid_q.q.val() & self.slot_busy[i].q.val() & self.done_match[i].q.val() {
                self.done_found.next = true;
                self.slot_busy[i].d.next = false;
            }
        }
        self.violation.next = self.violation_q.q.val();
        self.violation_q.d.next = (self.retire_valid_q.q.val() & !self.retire_found.val())
            | (self.done_valid_q.q.val() & !self.done_found.val())
            | (self.retire_valid_q.q.val() & self.done_valid_q.q.val() & self.same_id_q.q.val());
        self.next_slot_busy_q.d.next = self.busy_stays_here.val();
        if self.allocate.val() {
            self.id_batch_id_reg.d.next = self.id_batch_id_reg.q.val() + bits::<14>(1);
            self.id_plus_window.d.next = self.id_plus_window.q.val() + bits::<14>(1);
            self.next_slot_onehot.d.next = self.slot_after.val();
            self.next_slot_busy_q.d.next = self.busy_stays_after.val();
        }
        if self.reset.val() {
            self.id_batch_id_reg.d.next = bits::<14>(0);
            self.id_plus_window.d.next = self.window_step.val();
            self.next_slot_onehot.d.next = bits::<WINDOW>(1);
            self.next_slot_busy_q.d.next = false;
            self.violation_q.d.next = false;
            self.retire_valid_q.d.next = false;
            self.done_valid_q.d.next = false;
            for i in 0..WINDOW {
                self.slot_busy[i].d.next = false;
                self.slot_batch_id[i].d.next = bits::<14>(0);
                self.slot_next_batch_id[i].d.next = self.slot_index_id[i].val();
            }
        }
    }
}
