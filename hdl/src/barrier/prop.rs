//! `Prop` — the barrier side of a pre-raster-operations unit (SPEC BR-4, BR-5, BR-6, BR-7).
//!
//! A barrier passing PROP sets a flag: the non-tiled flag, or its cache tile's flag (one per
//! cache tile, 256 flags in eight 32-bit words). While a flag is set, PROP holds the work
//! behind it — everything for the non-tiled flag, that cache tile's items for a tile flag —
//! and lets everything else pass. `release` from the back end clears the flag it names.
//!
//! Held items wait in a hold queue of [`HOLD_SLOTS`] slots, in arrival order; only its head
//! leaves, when its tile's flag is clear. An arriving item joins the queue (instead of passing)
//! when a flag holds it or an older item of its cache tile may be queued, so each cache tile's
//! items leave in API order while other tiles pass. A non-tiled barrier passes only behind
//! every queued item, and everything after it is held. When the queue is full an item to hold
//! waits at the input: the stages before PROP keep working (BR-7) until their own buffers fill.
//! The output takes one item per cycle: the staged item when it may pass, except right after
//! the queue's head was ready and lost to it (`head_turn`: then the head goes first), so the
//! two alternate and neither starves, and the staged item's decision never waits for the
//! head's (a tile's items never compete: a staged item with an older item of its tile queued
//! joins the queue).
//!
//! Reading of "holds work behind a set flag" (BR-5): items of other cache tiles pass, so a
//! tile's dependent pass starts as soon as that tile is released.
//!
//! Timing structure (every decision reads registers; no flag lookup and no same-cycle
//! correction on the output decision):
//! - the release input is registered (`rel_*`) before any use;
//! - an arriving item first waits in one of two arrival slots (a queue whose `in_ready` is a
//!   register) with the 32-bit flag word that holds its tile's flag (reloaded every cycle
//!   from the stored words, so it is the stored word of one cycle ago) and two bits
//!   registered from last cycle's state: an older item of its tile is queued (an item that
//!   has left the queue since still counts, which only sends the new item through the
//!   queue) and its tile is the staged item's; as it enters the input stage its flag is the
//!   word's bit corrected for last cycle's release and flag write (`prev_*`), the flag
//!   written at this edge, a tiled barrier passing from the stage now and the release now;
//! - a barrier that passes in cycle t is written into the flag words at the end of t+1
//!   (`pending_set_*`); the staged item and each hold slot fold it into their flag registers
//!   in t+1 (`stage_flag`, `hold_blocked`, `hold_ready`); the staged item needs no correction
//!   in t+1 (a barrier from the stage set the flag of the item entering behind it; one from
//!   the queue's head has a tile with items queued, so its items are `stage_queued`), and the
//!   queue's head waits in t+1;
//! - the part of the staged item's hold decision that does not depend on its tile is a
//!   register (`stage_hold`) computed from the next values of what it reads;
//! - the head pointer is also kept one-hot, so the head's readiness and its item are
//!   AND-ORs of per-slot registers, not muxes;
//! - the violation check is pipelined (`chk_*`).
//!
//! Ports: `clock`, `reset`; `in_valid`/`in_ready`/`in_item`; `out_valid`/`out_ready`/
//! `out_item` (towards ROP); `release_valid`, `release_tiled`, `release_tile`; `hold_fill`
//! (queued items); `busy` (an item in an arrival slot, the stage, the queue or the output
//! register); `violation` (a release for a flag that is not set, or an end marker).
//!
//! Timing: an item taken in cycle t is in an arrival slot in t+1, decided in t+2 and at
//! `out_*` in t+3 when it passes; one item per cycle. A release given in cycle t clears its
//! flag at the end of t+1 and lets a held item leave in t+2 (at the output in t+3);
//! `violation` shows three cycles after the release or end marker that causes it.
use super::item::*;
use rust_hdl::prelude::*;

/// Slots of the hold queue.
pub const HOLD_SLOTS: usize = 8;
// The head's AND-OR below lists eight slots.
const _: () = assert!(HOLD_SLOTS == 8);
/// Slots of the arrival queue (two, so that its ready is a register at full rate).
pub const ARRIVAL_SLOTS: usize = 2;

#[derive(LogicBlock)]
pub struct Prop {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_item: Signal<In, ScreenItem>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_item: Signal<Out, ScreenItem>,
    pub release_valid: Signal<In, Bit>,
    pub release_tiled: Signal<In, Bit>,
    pub release_tile: Signal<In, Bits<TILE_BITS>>,
    pub hold_fill: Signal<Out, Bits<4>>,
    pub busy: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    tile_flags: [DFF<Bits<32>>; FLAG_WORDS],
    nontiled_flag: DFF<Bit>,
    /// A tiled barrier passed last cycle: its flag is set in `tile_flags` at this clock edge.
    pending_set_valid: DFF<Bit>,
    pending_set_tile: DFF<Bits<TILE_BITS>>,
    /// The arrival stage: the item taken from `in_*`, its tile, the flag word holding its
    /// tile's flag (kept equal to that word of `tile_flags` every cycle) and its tile's bit.
    arr_valid: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_item: [DFF<ScreenItem>; ARRIVAL_SLOTS],
    arr_tile: [DFF<Bits<TILE_BITS>>; ARRIVAL_SLOTS],
    arr_word: [DFF<Bits<32>>; ARRIVAL_SLOTS],
    arr_mask: [DFF<Bits<32>>; ARRIVAL_SLOTS],
    /// The arrival slot written next and the one read next (the older item).
    arr_wr: DFF<Bits<1>>,
    arr_rd: DFF<Bits<1>>,
    arr_slot: [Constant<Bits<1>>; ARRIVAL_SLOTS],
    arr_refresh: [Signal<Local, Bits<32>>; ARRIVAL_SLOTS],
    /// Per arrival slot, registered from last cycle's state: an older item of its tile may
    /// be queued (an item that has left since still counts: it then goes through the queue),
    /// and its tile is the staged item's tile.
    arr_queued: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_stage_tile: [DFF<Bit>; ARRIVAL_SLOTS],
    in_queued_new: Signal<Local, Bit>,
    in_stage_tile_new: Signal<Local, Bit>,
    arr_head_queued: Signal<Local, Bit>,
    arr_head_stage_tile: Signal<Local, Bit>,
    arr_head_valid: Signal<Local, Bit>,
    arr_head_item: Signal<Local, ScreenItem>,
    arr_head_tile: Signal<Local, Bits<TILE_BITS>>,
    arr_head_word: Signal<Local, Bits<32>>,
    arr_head_mask: Signal<Local, Bits<32>>,
    in_mask: Signal<Local, Bits<32>>,
    violation_q: DFF<Bit>,
    /// The violation check's pipeline stage: the release and its flag word.
    chk_valid: DFF<Bit>,
    chk_tiled: DFF<Bit>,
    chk_word: DFF<Bits<32>>,
    chk_mask: DFF<Bits<32>>,
    chk_nontiled_flag: DFF<Bit>,
    chk_end: DFF<Bit>,
    /// The release input, registered.
    rel_valid: DFF<Bit>,
    rel_tiled: DFF<Bit>,
    rel_tile: DFF<Bits<TILE_BITS>>,
    /// Last cycle's tiled release and flag write, which `arr_word` does not hold yet.
    prev_release_valid: DFF<Bit>,
    prev_release_tile: DFF<Bits<TILE_BITS>>,
    prev_set_valid: DFF<Bit>,
    prev_set_tile: DFF<Bits<TILE_BITS>>,
    /// The input stage: the item being decided, its tile's flag and whether an older item of
    /// its tile may be queued (both kept current every cycle).
    stage_valid: DFF<Bit>,
    stage_item: DFF<ScreenItem>,
    stage_tile: DFF<Bits<TILE_BITS>>,
    stage_flag: DFF<Bit>,
    stage_queued: DFF<Bit>,
    /// The part of the staged item's hold decision that does not depend on its tile (a
    /// non-tiled flag or queued non-tiled barrier; a non-tiled barrier and a non-empty
    /// queue), computed at each clock edge from the next values of the registers it reads
    /// (a retiming: it always equals that function of the current registers).
    stage_hold: DFF<Bit>,
    stage_next_nontiled: Signal<Local, Bit>,
    /// Each slot's item, by field (the head is read as an AND-OR over the one-hot head).
    hold_kind: [DFF<Bits<2>>; HOLD_SLOTS],
    hold_prim: [DFF<Bits<PRIM_BITS>>; HOLD_SLOTS],
    head_part_kind: [Signal<Local, Bits<2>>; HOLD_SLOTS],
    head_part_prim: [Signal<Local, Bits<PRIM_BITS>>; HOLD_SLOTS],
    head_part_tile: [Signal<Local, Bits<TILE_BITS>>; HOLD_SLOTS],
    hold_valid: [DFF<Bit>; HOLD_SLOTS],
    /// Each slot's cache tile and whether that tile's flag is set now.
    hold_tile: [DFF<Bits<TILE_BITS>>; HOLD_SLOTS],
    hold_blocked: [DFF<Bit>; HOLD_SLOTS],
    hold_head: DFF<Bits<3>>,
    /// `hold_head` one-hot, and per slot: valid and free to leave (a non-tiled barrier, or
    /// its tile's flag clear), so the head's readiness is an AND-OR, not a mux.
    hold_head_onehot: DFF<Bits<HOLD_SLOTS>>,
    hold_ready: [DFF<Bit>; HOLD_SLOTS],
    hold_is_nontiled: [DFF<Bit>; HOLD_SLOTS],
    slot_valid_next: [Signal<Local, Bit>; HOLD_SLOTS],
    slot_blocked_next: [Signal<Local, Bit>; HOLD_SLOTS],
    slot_nontiled_next: [Signal<Local, Bit>; HOLD_SLOTS],
    slot_bit: [Constant<Bits<HOLD_SLOTS>>; HOLD_SLOTS],
    head_wrap_shift: Constant<Bits<HOLD_SLOTS>>,
    hold_tail: DFF<Bits<3>>,
    hold_count: DFF<Bits<4>>,
    /// Non-tiled barriers in the hold queue: while any is queued, everything is held.
    hold_nontiled: DFF<Bits<4>>,
    out_valid_reg: DFF<Bit>,
    out_item_reg: DFF<ScreenItem>,
    out_free: Signal<Local, Bit>,
    release_tiled_now: Signal<Local, Bit>,
    head_item: Signal<Local, ScreenItem>,
    head_is_nontiled: Signal<Local, Bit>,
    head_leaves: Signal<Local, Bit>,
    head_eligible: Signal<Local, Bit>,
    stage_wants: Signal<Local, Bit>,
    /// The hold queue's head has the output before the staged item (it lost it last time).
    head_turn: DFF<Bit>,
    stage_is_nontiled: Signal<Local, Bit>,
    stage_is_tiled: Signal<Local, Bit>,
    head_is_tiled: Signal<Local, Bit>,
    stage_must_hold: Signal<Local, Bit>,
    stage_passes: Signal<Local, Bit>,
    stage_queues: Signal<Local, Bit>,
    stage_flag_now: Signal<Local, Bit>,
    pass_valid: Signal<Local, Bit>,
    pass_item: Signal<Local, ScreenItem>,
    pass_tile: Signal<Local, Bits<TILE_BITS>>,
    pass_is_tiled: Signal<Local, Bit>,
    take_input: Signal<Local, Bit>,
    take_arrival: Signal<Local, Bit>,
    in_tile: Signal<Local, Bits<TILE_BITS>>,
    in_flag_word: Signal<Local, Bits<32>>,
    in_flag: Signal<Local, Bit>,
    in_queued: Signal<Local, Bit>,
    slot_release_hit: Signal<Local, Bit>,
    slot_pending_hit: [Signal<Local, Bit>; HOLD_SLOTS],
    stage_pending_hit: Signal<Local, Bit>,
    set_mask: Signal<Local, Bits<32>>,
    clear_mask: Signal<Local, Bits<32>>,
    release_flag_word: Signal<Local, Bits<32>>,
    flag_word_next: [Signal<Local, Bits<32>>; FLAG_WORDS],
    word_index: [Constant<Bits<3>>; FLAG_WORDS],
    slot_index: [Constant<Bits<3>>; HOLD_SLOTS],
    kind_tiled: Constant<Bits<2>>,
    kind_nontiled: Constant<Bits<2>>,
    kind_end: Constant<Bits<2>>,
    hold_slots: Constant<Bits<4>>,
}

impl Default for Prop {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_item: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_item: Default::default(),
            release_valid: Default::default(),
            release_tiled: Default::default(),
            release_tile: Default::default(),
            hold_fill: Default::default(),
            busy: Default::default(),
            violation: Default::default(),
            tile_flags: std::array::from_fn(|_| Default::default()),
            nontiled_flag: Default::default(),
            pending_set_valid: Default::default(),
            pending_set_tile: Default::default(),
            arr_valid: std::array::from_fn(|_| Default::default()),
            arr_item: std::array::from_fn(|_| Default::default()),
            arr_tile: std::array::from_fn(|_| Default::default()),
            arr_word: std::array::from_fn(|_| Default::default()),
            arr_mask: std::array::from_fn(|_| Default::default()),
            arr_wr: Default::default(),
            arr_rd: Default::default(),
            arr_slot: std::array::from_fn(|k| Constant::new(bits::<1>(k as u64))),
            arr_refresh: std::array::from_fn(|_| Default::default()),
            arr_queued: std::array::from_fn(|_| Default::default()),
            arr_stage_tile: std::array::from_fn(|_| Default::default()),
            in_queued_new: Default::default(),
            in_stage_tile_new: Default::default(),
            arr_head_queued: Default::default(),
            arr_head_stage_tile: Default::default(),
            arr_head_valid: Default::default(),
            arr_head_item: Default::default(),
            arr_head_tile: Default::default(),
            arr_head_word: Default::default(),
            arr_head_mask: Default::default(),
            in_mask: Default::default(),
            violation_q: Default::default(),
            chk_valid: Default::default(),
            chk_tiled: Default::default(),
            chk_word: Default::default(),
            chk_mask: Default::default(),
            chk_nontiled_flag: Default::default(),
            chk_end: Default::default(),
            rel_valid: Default::default(),
            rel_tiled: Default::default(),
            rel_tile: Default::default(),
            prev_release_valid: Default::default(),
            prev_release_tile: Default::default(),
            prev_set_valid: Default::default(),
            prev_set_tile: Default::default(),
            stage_valid: Default::default(),
            stage_item: Default::default(),
            stage_tile: Default::default(),
            stage_flag: Default::default(),
            stage_queued: Default::default(),
            stage_hold: Default::default(),
            stage_next_nontiled: Default::default(),
            hold_kind: std::array::from_fn(|_| Default::default()),
            hold_prim: std::array::from_fn(|_| Default::default()),
            head_part_kind: std::array::from_fn(|_| Default::default()),
            head_part_prim: std::array::from_fn(|_| Default::default()),
            head_part_tile: std::array::from_fn(|_| Default::default()),
            hold_valid: std::array::from_fn(|_| Default::default()),
            hold_tile: std::array::from_fn(|_| Default::default()),
            hold_blocked: std::array::from_fn(|_| Default::default()),
            hold_head: Default::default(),
            hold_head_onehot: Default::default(),
            hold_ready: std::array::from_fn(|_| Default::default()),
            hold_is_nontiled: std::array::from_fn(|_| Default::default()),
            slot_valid_next: std::array::from_fn(|_| Default::default()),
            slot_blocked_next: std::array::from_fn(|_| Default::default()),
            slot_nontiled_next: std::array::from_fn(|_| Default::default()),
            slot_bit: std::array::from_fn(|i| Constant::new(bits::<HOLD_SLOTS>(1 << i))),
            head_wrap_shift: Constant::new(bits::<HOLD_SLOTS>(HOLD_SLOTS as u64 - 1)),
            hold_tail: Default::default(),
            hold_count: Default::default(),
            hold_nontiled: Default::default(),
            out_valid_reg: Default::default(),
            out_item_reg: Default::default(),
            out_free: Default::default(),
            release_tiled_now: Default::default(),
            head_item: Default::default(),
            head_is_nontiled: Default::default(),
            head_leaves: Default::default(),
            head_eligible: Default::default(),
            stage_wants: Default::default(),
            head_turn: Default::default(),
            stage_is_nontiled: Default::default(),
            stage_is_tiled: Default::default(),
            head_is_tiled: Default::default(),
            stage_must_hold: Default::default(),
            stage_passes: Default::default(),
            stage_queues: Default::default(),
            stage_flag_now: Default::default(),
            pass_valid: Default::default(),
            pass_item: Default::default(),
            pass_tile: Default::default(),
            pass_is_tiled: Default::default(),
            take_input: Default::default(),
            take_arrival: Default::default(),
            in_tile: Default::default(),
            in_flag_word: Default::default(),
            in_flag: Default::default(),
            in_queued: Default::default(),
            slot_release_hit: Default::default(),
            slot_pending_hit: std::array::from_fn(|_| Default::default()),
            stage_pending_hit: Default::default(),
            set_mask: Default::default(),
            clear_mask: Default::default(),
            release_flag_word: Default::default(),
            flag_word_next: std::array::from_fn(|_| Default::default()),
            word_index: std::array::from_fn(|i| Constant::new(bits::<3>(i as u64))),
            slot_index: std::array::from_fn(|i| Constant::new(bits::<3>(i as u64))),
            kind_tiled: Constant::new(bits::<2>(KIND_TILED_BARRIER)),
            kind_nontiled: Constant::new(bits::<2>(KIND_NONTILED_BARRIER)),
            kind_end: Constant::new(bits::<2>(KIND_END)),
            hold_slots: Constant::new(bits::<4>(HOLD_SLOTS as u64)),
        }
    }
}

impl Logic for Prop {
    /// Long because one `#[hdl_gen]` function holds the whole decision: the input stage, the
    /// hold queue, the flags and their per-item copies.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            nontiled_flag,
            pending_set_valid,
            pending_set_tile,
            arr_wr,
            arr_rd,
            violation_q,
            chk_valid,
            chk_tiled,
            chk_word,
            chk_mask,
            chk_nontiled_flag,
            chk_end,
            rel_valid,
            rel_tiled,
            rel_tile,
            prev_release_valid,
            prev_release_tile,
            prev_set_valid,
            prev_set_tile,
            stage_valid,
            stage_item,
            stage_tile,
            stage_flag,
            stage_queued,
            stage_hold,
            hold_head,
            hold_head_onehot,
            hold_tail,
            hold_count,
            hold_nontiled,
            out_valid_reg,
            out_item_reg,
            head_turn
        );
        for w in 0..FLAG_WORDS {
            self.tile_flags[w].clock.next = self.clock.val();
            self.tile_flags[w].d.next = self.tile_flags[w].q.val();
        }
        for k in 0..ARRIVAL_SLOTS {
            self.arr_valid[k].clock.next = self.clock.val();
            self.arr_valid[k].d.next = self.arr_valid[k].q.val();
            self.arr_item[k].clock.next = self.clock.val();
            self.arr_item[k].d.next = self.arr_item[k].q.val();
            self.arr_tile[k].clock.next = self.clock.val();
            self.arr_tile[k].d.next = self.arr_tile[k].q.val();
            self.arr_word[k].clock.next = self.clock.val();
            self.arr_queued[k].clock.next = self.clock.val();
            self.arr_stage_tile[k].clock.next = self.clock.val();
            self.arr_mask[k].clock.next = self.clock.val();
            self.arr_mask[k].d.next = self.arr_mask[k].q.val();
        }
        // The older arrival item.
        self.arr_head_valid.next = self.arr_valid[0].q.val();
        self.arr_head_item.next = self.arr_item[0].q.val();
        self.arr_head_tile.next = self.arr_tile[0].q.val();
        self.arr_head_word.next = self.arr_word[0].q.val();
        self.arr_head_queued.next = self.arr_queued[0].q.val();
        self.arr_head_stage_tile.next = self.arr_stage_tile[0].q.val();
        self.arr_head_mask.next = self.arr_mask[0].q.val();
        for k in 0..ARRIVAL_SLOTS {
            if self.arr_rd.q.val() == self.arr_slot[k].val() {
                self.arr_head_valid.next = self.arr_valid[k].q.val();
                self.arr_head_item.next = self.arr_item[k].q.val();
                self.arr_head_tile.next = self.arr_tile[k].q.val();
                self.arr_head_word.next = self.arr_word[k].q.val();
                self.arr_head_queued.next = self.arr_queued[k].q.val();
                self.arr_head_stage_tile.next = self.arr_stage_tile[k].q.val();
                self.arr_head_mask.next = self.arr_mask[k].q.val();
            }
        }
        for i in 0..HOLD_SLOTS {
            self.hold_kind[i].clock.next = self.clock.val();
            self.hold_kind[i].d.next = self.hold_kind[i].q.val();
            self.hold_prim[i].clock.next = self.clock.val();
            self.hold_prim[i].d.next = self.hold_prim[i].q.val();
            self.hold_valid[i].clock.next = self.clock.val();
            self.hold_valid[i].d.next = self.hold_valid[i].q.val();
            self.hold_tile[i].clock.next = self.clock.val();
            self.hold_tile[i].d.next = self.hold_tile[i].q.val();
            self.hold_blocked[i].clock.next = self.clock.val();
            self.hold_blocked[i].d.next = self.hold_blocked[i].q.val();
            self.hold_ready[i].clock.next = self.clock.val();
            self.hold_is_nontiled[i].clock.next = self.clock.val();
        }
        // The output register is free, or its item leaves this cycle.
        self.out_free.next = !self.out_valid_reg.q.val() | self.out_ready.val();
        // The release is registered at the input: every use of it starts at a register.
        self.rel_valid.d.next = self.release_valid.val();
        self.rel_tiled.d.next = self.release_tiled.val();
        self.rel_tile.d.next = self.release_tile.val();
        self.release_tiled_now.next = self.rel_valid.q.val() & self.rel_tiled.q.val();
        // The head of the hold queue leaves when its tile's flag is clear.
        for i in 0..HOLD_SLOTS {
            self.head_part_kind[i].next = bits::<2>(0);
            self.head_part_prim[i].next = bits::<PRIM_BITS>(0);
            self.head_part_tile[i].next = bits::<TILE_BITS>(0);
            if (self.hold_head_onehot.q.val() & self.slot_bit[i].val()).any() {
                self.head_part_kind[i].next = self.hold_kind[i].q.val();
                self.head_part_prim[i].next = self.hold_prim[i].q.val();
                self.head_part_tile[i].next = self.hold_tile[i].q.val();
            }
        }
        self.head_item.next.kind = self.head_part_kind[0].val()
            | self.head_part_kind[1].val()
            | self.head_part_kind[2].val()
            | self.head_part_kind[3].val()
            | self.head_part_kind[4].val()
            | self.head_part_kind[5].val()
            | self.head_part_kind[6].val()
            | self.head_part_kind[7].val();
        self.head_item.next.prim = self.head_part_prim[0].val()
            | self.head_part_prim[1].val()
            | self.head_part_prim[2].val()
            | self.head_part_prim[3].val()
            | self.head_part_prim[4].val()
            | self.head_part_prim[5].val()
            | self.head_part_prim[6].val()
            | self.head_part_prim[7].val();
        self.head_item.next.tile = self.head_part_tile[0].val()
            | self.head_part_tile[1].val()
            | self.head_part_tile[2].val()
            | self.head_part_tile[3].val()
            | self.head_part_tile[4].val()
            | self.head_part_tile[5].val()
            | self.head_part_tile[6].val()
            | self.head_part_tile[7].val();
        self.head_is_nontiled.next = self.head_item.val().kind == self.kind_nontiled.val();
        // The staged item passes, joins the queue, or waits.
        self.stage_is_nontiled.next = self.stage_item.q.val().kind == self.kind_nontiled.val();
        // A flag register does not yet hold the barrier that passed last cycle (its flag is
        // written at this edge): every reader adds the pending tile.
        self.stage_pending_hit.next = self.pending_set_valid.q.val()
            & (self.pending_set_tile.q.val() == self.stage_tile.q.val());
        // (`stage_flag` already holds a pending flag of its tile: a barrier that passes from
        // the stage sets the flag of the item entering behind it (`in_flag`), and one that
        // passes from the queue's head has a tile whose items are queued, so `stage_queued`.)
        // Held: a non-tiled flag or queued non-tiled barrier holds everything; a non-tiled
        // barrier waits for an empty queue (`stage_hold`, registered from the next values
        // at the end of `update`); other items wait on their flag or an older queued item of
        // their tile.
        self.stage_must_hold.next = self.stage_hold.q.val()
            | (!self.stage_is_nontiled.val()
                & (self.stage_flag.q.val() | self.stage_queued.q.val()));
        // The output goes to the staged item unless it is the head's turn.
        self.stage_wants.next = self.stage_valid.q.val() & !self.stage_must_hold.val();
        self.stage_passes.next =
            self.stage_wants.val() & !self.head_turn.q.val() & self.out_free.val();
        self.head_eligible.next = false;
        for i in 0..HOLD_SLOTS {
            self.slot_pending_hit[i].next = self.pending_set_valid.q.val()
                & (self.pending_set_tile.q.val() == self.hold_tile[i].q.val());
            if (self.hold_head_onehot.q.val() & self.slot_bit[i].val()).any()
                & self.hold_ready[i].q.val()
            {
                self.head_eligible.next = true;
            }
        }
        // The slots' registers do not hold the flag of the barrier that passed last cycle:
        // the head waits one cycle after a tiled barrier passes.
        self.head_eligible.next = self.head_eligible.val()
            & !self.nontiled_flag.q.val()
            & !self.pending_set_valid.q.val();
        self.head_leaves.next = self.head_eligible.val()
            & self.out_free.val()
            & (self.head_turn.q.val() | !self.stage_wants.val());
        // A head that lost the output to the staged item gets it next time.
        self.head_turn.d.next = self.head_eligible.val()
            & self.out_free.val()
            & self.stage_wants.val()
            & !self.head_turn.q.val();
        self.stage_queues.next = self.stage_valid.q.val()
            & self.stage_must_hold.val()
            & (self.hold_count.q.val() != self.hold_slots.val());
        // The arrival item moves into the stage when the stage is free or its item leaves.
        self.take_arrival.next = self.arr_head_valid.val()
            & (!self.stage_valid.q.val() | self.stage_passes.val() | self.stage_queues.val());
        // A free arrival slot takes the input (a registered ready).
        self.in_ready.next = !self.arr_valid[0].q.val();
        for k in 0..ARRIVAL_SLOTS {
            if self.arr_wr.q.val() == self.arr_slot[k].val() {
                self.in_ready.next = !self.arr_valid[k].q.val();
            }
        }
        self.take_input.next = self.in_valid.val() & self.in_ready.val();
        // What passes this cycle.
        self.pass_valid.next = self.head_leaves.val() | self.stage_passes.val();
        self.pass_item.next = self.stage_item.q.val();
        if self.head_leaves.val() {
            self.pass_item.next = self.head_item.val();
        }
        self.pass_tile.next = self.pass_item.val().tile;
        // (From each source's own kind, not through the pass mux.)
        self.head_is_tiled.next = self.head_item.val().kind == self.kind_tiled.val();
        self.stage_is_tiled.next = self.stage_item.q.val().kind == self.kind_tiled.val();
        self.pass_is_tiled.next = (self.head_leaves.val() & self.head_is_tiled.val())
            | (self.stage_passes.val() & self.stage_is_tiled.val());
        if self.out_ready.val() {
            self.out_valid_reg.d.next = false;
        }
        if self.pass_valid.val() {
            self.out_valid_reg.d.next = true;
            self.out_item_reg.d.next = self.pass_item.val();
        }
        self.out_valid.next = self.out_valid_reg.q.val();
        self.out_item.next = self.out_item_reg.q.val();
        // The staged item's flag, current after this cycle's release and passing barrier.
        self.stage_flag_now.next = (self.stage_flag.q.val()
            & !(self.release_tiled_now.val() & (self.rel_tile.q.val() == self.stage_tile.q.val())))
            | self.stage_pending_hit.val();
        // The arriving item: its tile's flag (its word, last cycle's release and flag write,
        // the flag written at this edge, a barrier passing from the stage now, the release
        // now) and whether an older item of its tile is queued.
        self.in_flag.next = (((self.arr_head_word.val() & self.arr_head_mask.val()).any()
            & !(self.prev_release_valid.q.val()
                & (self.prev_release_tile.q.val() == self.arr_head_tile.val())))
            | (self.prev_set_valid.q.val()
                & (self.prev_set_tile.q.val() == self.arr_head_tile.val()))
            | (self.pending_set_valid.q.val()
                & (self.pending_set_tile.q.val() == self.arr_head_tile.val()))
            | (self.stage_passes.val()
                & self.stage_is_tiled.val()
                & (self.stage_tile.q.val() == self.arr_head_tile.val())))
            & !(self.release_tiled_now.val() & (self.rel_tile.q.val() == self.arr_head_tile.val()));
        self.in_queued.next =
            self.arr_head_queued.val() | (self.stage_queues.val() & self.arr_head_stage_tile.val());
        if self.take_arrival.val() {
            self.stage_valid.d.next = true;
            self.stage_item.d.next = self.arr_head_item.val();
            self.stage_tile.d.next = self.arr_head_tile.val();
            self.stage_flag.d.next = self.in_flag.val();
            self.stage_queued.d.next = self.in_queued.val();
        } else if self.stage_passes.val() | self.stage_queues.val() {
            self.stage_valid.d.next = false;
        } else {
            self.stage_flag.d.next = self.stage_flag_now.val();
        }
        // The hold queue: every slot keeps its tile's flag current.
        for i in 0..HOLD_SLOTS {
            self.slot_release_hit.next =
                self.release_tiled_now.val() & (self.rel_tile.q.val() == self.hold_tile[i].q.val());
            // The barrier that passed last cycle sets this slot's flag now.
            self.slot_blocked_next[i].next = (self.hold_blocked[i].q.val()
                & !self.slot_release_hit.val())
                | self.slot_pending_hit[i].val();
            self.slot_valid_next[i].next = self.hold_valid[i].q.val()
                & !(self.head_leaves.val()
                    & (self.hold_head_onehot.q.val() & self.slot_bit[i].val()).any());
            self.slot_nontiled_next[i].next = self.hold_is_nontiled[i].q.val();
            if self.stage_queues.val() & (self.hold_tail.q.val() == self.slot_index[i].val()) {
                self.slot_valid_next[i].next = true;
                self.hold_kind[i].d.next = self.stage_item.q.val().kind;
                self.hold_prim[i].d.next = self.stage_item.q.val().prim;
                self.hold_tile[i].d.next = self.stage_tile.q.val();
                self.slot_blocked_next[i].next = self.stage_flag_now.val();
                self.slot_nontiled_next[i].next = self.stage_is_nontiled.val();
            }
            self.hold_valid[i].d.next = self.slot_valid_next[i].val();
            self.hold_blocked[i].d.next = self.slot_blocked_next[i].val();
            self.hold_is_nontiled[i].d.next = self.slot_nontiled_next[i].val();
            self.hold_ready[i].d.next = self.slot_valid_next[i].val()
                & (self.slot_nontiled_next[i].val() | !self.slot_blocked_next[i].val());
        }
        if self.head_leaves.val() {
            self.hold_head.d.next = self.hold_head.q.val() + bits::<3>(1);
            self.hold_head_onehot.d.next = (self.hold_head_onehot.q.val() << bits::<HOLD_SLOTS>(1))
                | (self.hold_head_onehot.q.val() >> self.head_wrap_shift.val());
        }
        if self.stage_queues.val() {
            self.hold_tail.d.next = self.hold_tail.q.val() + bits::<3>(1);
        }
        if self.stage_queues.val() & !self.head_leaves.val() {
            self.hold_count.d.next = self.hold_count.q.val() + bits::<4>(1);
        }
        if !self.stage_queues.val() & self.head_leaves.val() {
            self.hold_count.d.next = self.hold_count.q.val() - bits::<4>(1);
        }
        if (self.stage_queues.val() & self.stage_is_nontiled.val())
            & !(self.head_leaves.val() & self.head_is_nontiled.val())
        {
            self.hold_nontiled.d.next = self.hold_nontiled.q.val() + bits::<4>(1);
        }
        if !(self.stage_queues.val() & self.stage_is_nontiled.val())
            & (self.head_leaves.val() & self.head_is_nontiled.val())
        {
            self.hold_nontiled.d.next = self.hold_nontiled.q.val() - bits::<4>(1);
        }
        // Flags: a release clears its flag now; a passing barrier's flag is written next cycle.
        self.pending_set_valid.d.next = self.pass_is_tiled.val();
        self.pending_set_tile.d.next = self.pass_tile.val();
        self.set_mask.next = bits::<32>(1) << self.pending_set_tile.q.val().get_bits::<5>(0);
        self.clear_mask.next = bits::<32>(1) << self.rel_tile.q.val().get_bits::<5>(0);
        self.release_flag_word.next = bits::<32>(0);
        for w in 0..FLAG_WORDS {
            self.flag_word_next[w].next = self.tile_flags[w].q.val();
            if self.rel_tile.q.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.release_flag_word.next = self.tile_flags[w].q.val();
                if self.release_tiled_now.val() {
                    self.flag_word_next[w].next =
                        self.tile_flags[w].q.val() & !self.clear_mask.val();
                }
            }
            if self.pending_set_valid.q.val()
                & (self.pending_set_tile.q.val().get_bits::<3>(5) == self.word_index[w].val())
            {
                self.flag_word_next[w].next = self.flag_word_next[w].val() | self.set_mask.val();
            }
            self.tile_flags[w].d.next = self.flag_word_next[w].val();
        }
        // The arrival stage: its flag word is the stored word one cycle ago; the release and
        // the barrier flag written in that cycle are kept beside it (`prev_*`).
        self.prev_release_valid.d.next = self.release_tiled_now.val();
        self.prev_release_tile.d.next = self.rel_tile.q.val();
        self.prev_set_valid.d.next = self.pending_set_valid.q.val();
        self.prev_set_tile.d.next = self.pending_set_tile.q.val();
        self.in_tile.next = self.in_item.val().tile;
        self.in_mask.next = bits::<32>(1) << self.in_tile.val().get_bits::<5>(0);
        self.in_flag_word.next = self.tile_flags[0].q.val();
        for w in 0..FLAG_WORDS {
            if self.in_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.in_flag_word.next = self.tile_flags[w].q.val();
            }
        }
        self.in_queued_new.next =
            self.stage_queues.val() & (self.stage_tile.q.val() == self.in_tile.val());
        for i in 0..HOLD_SLOTS {
            if self.hold_valid[i].q.val() & (self.hold_tile[i].q.val() == self.in_tile.val()) {
                self.in_queued_new.next = true;
            }
        }
        self.in_stage_tile_new.next = self.stage_tile.q.val() == self.in_tile.val();
        if self.take_arrival.val() {
            self.in_stage_tile_new.next = self.arr_head_tile.val() == self.in_tile.val();
        }
        for k in 0..ARRIVAL_SLOTS {
            self.arr_refresh[k].next = self.tile_flags[0].q.val();
            for w in 0..FLAG_WORDS {
                if self.arr_tile[k].q.val().get_bits::<3>(5) == self.word_index[w].val() {
                    self.arr_refresh[k].next = self.tile_flags[w].q.val();
                }
            }
            self.arr_word[k].d.next = self.arr_refresh[k].val();
            // An older item of the slot's tile in the queue or joining it now (from this
            // cycle's registers: an item leaving the queue now still counts), and whether the
            // staged item next cycle has the slot's tile.
            // (Computed for the slot's own tile and for the input's, selected last.)
            self.arr_queued[k].d.next =
                self.stage_queues.val() & (self.stage_tile.q.val() == self.arr_tile[k].q.val());
            for i in 0..HOLD_SLOTS {
                if self.hold_valid[i].q.val()
                    & (self.hold_tile[i].q.val() == self.arr_tile[k].q.val())
                {
                    self.arr_queued[k].d.next = true;
                }
            }
            self.arr_stage_tile[k].d.next = self.stage_tile.q.val() == self.arr_tile[k].q.val();
            if self.take_arrival.val() {
                self.arr_stage_tile[k].d.next =
                    self.arr_head_tile.val() == self.arr_tile[k].q.val();
            }
            // Only a free slot is written, so never the one read now.
            if self.take_input.val() & (self.arr_wr.q.val() == self.arr_slot[k].val()) {
                self.arr_queued[k].d.next = self.in_queued_new.val();
                self.arr_stage_tile[k].d.next = self.in_stage_tile_new.val();
                self.arr_valid[k].d.next = true;
                self.arr_item[k].d.next = self.in_item.val();
                self.arr_tile[k].d.next = self.in_tile.val();
                self.arr_word[k].d.next = self.in_flag_word.val();
                self.arr_mask[k].d.next = self.in_mask.val();
            }
            if self.take_arrival.val() & (self.arr_rd.q.val() == self.arr_slot[k].val()) {
                self.arr_valid[k].d.next = false;
            }
        }
        if self.take_input.val() {
            self.arr_wr.d.next = !self.arr_wr.q.val();
        }
        if self.take_arrival.val() {
            self.arr_rd.d.next = !self.arr_rd.q.val();
        }
        // The non-tiled flag: cleared by its release, set by a non-tiled barrier passing.
        if self.rel_valid.q.val() & !self.rel_tiled.q.val() {
            self.nontiled_flag.d.next = false;
        }
        if (self.head_leaves.val() & self.head_is_nontiled.val())
            | (self.stage_passes.val() & self.stage_is_nontiled.val())
        {
            self.nontiled_flag.d.next = true;
        }
        self.hold_fill.next = self.hold_count.q.val();
        self.busy.next = self.arr_valid[0].q.val()
            | self.arr_valid[1].q.val()
            | self.stage_valid.q.val()
            | self.hold_count.q.val().any()
            | self.out_valid_reg.q.val();
        // Registered: a release for a clear flag shows three cycles after it is given.
        self.violation.next = self.violation_q.q.val();
        // The check is pipelined: the release's flag word is registered, then tested.
        self.chk_valid.d.next = self.rel_valid.q.val();
        self.chk_tiled.d.next = self.rel_tiled.q.val();
        self.chk_word.d.next = self.release_flag_word.val();
        self.chk_mask.d.next = self.clear_mask.val();
        self.chk_nontiled_flag.d.next = self.nontiled_flag.q.val();
        self.chk_end.d.next =
            self.in_valid.val() & (self.in_item.val().kind == self.kind_end.val());
        self.violation_q.d.next = (self.chk_valid.q.val()
            & ((self.chk_tiled.q.val() & !(self.chk_word.q.val() & self.chk_mask.q.val()).any())
                | (!self.chk_tiled.q.val() & !self.chk_nontiled_flag.q.val())))
            | self.chk_end.q.val();
        if self.reset.val() {
            for w in 0..FLAG_WORDS {
                self.tile_flags[w].d.next = bits::<32>(0);
            }
            for i in 0..HOLD_SLOTS {
                self.hold_valid[i].d.next = false;
                self.hold_ready[i].d.next = false;
            }
            self.hold_head_onehot.d.next = bits::<HOLD_SLOTS>(1);
            self.nontiled_flag.d.next = false;
            self.pending_set_valid.d.next = false;
            self.prev_set_valid.d.next = false;
            self.prev_release_valid.d.next = false;
            self.rel_valid.d.next = false;
            self.violation_q.d.next = false;
            self.chk_valid.d.next = false;
            self.chk_end.d.next = false;
            self.head_turn.d.next = false;
            for k in 0..ARRIVAL_SLOTS {
                self.arr_valid[k].d.next = false;
            }
            self.arr_wr.d.next = bits::<1>(0);
            self.arr_rd.d.next = bits::<1>(0);
            self.stage_valid.d.next = false;
            self.out_valid_reg.d.next = false;
            self.hold_head.d.next = bits::<3>(0);
            self.hold_tail.d.next = bits::<3>(0);
            self.hold_count.d.next = bits::<4>(0);
            self.hold_nontiled.d.next = bits::<4>(0);
        }
        // The hold decision for the item staged next cycle, from the registers' next values
        // (the queue counters' next values written out as "not empty next cycle").
        self.stage_next_nontiled.next = self.stage_item.d.val().kind == self.kind_nontiled.val();
        self.stage_hold.d.next = self.nontiled_flag.d.val()
            | (self.stage_queues.val() & self.stage_is_nontiled.val())
            | (self.hold_nontiled.q.val() > bits::<4>(1))
            | ((self.hold_nontiled.q.val() == bits::<4>(1))
                & !(self.head_leaves.val() & self.head_is_nontiled.val()))
            | (self.stage_next_nontiled.val()
                & (self.stage_queues.val()
                    | (self.hold_count.q.val() > bits::<4>(1))
                    | ((self.hold_count.q.val() == bits::<4>(1)) & !self.head_leaves.val())));
        if self.reset.val() {
            self.stage_hold.d.next = false;
        }
    }
}
