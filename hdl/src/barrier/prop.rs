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
//!
//! Reading of "holds work behind a set flag" (BR-5): items of other cache tiles pass, so a
//! tile's dependent pass starts as soon as that tile is released.
//!
//! Timing structure (no flag lookup on the decision path): an arriving item first enters an
//! input stage register together with its tile's flag, looked up as it enters and kept current
//! every cycle by comparing its tile with this cycle's release and passing barrier; each hold
//! slot keeps its tile's flag the same way (`hold_blocked`). Whether an older item of the tile
//! is queued is decided as the item enters (from the queue's tiles; an item that leaves the
//! queue in that cycle still counts, which only sends the new item through the queue). A
//! passing barrier's flag is written into the flag words one cycle later (`pending_set_*`),
//! and the lookup also compares with that pending tile.
//!
//! Ports: `clock`, `reset`; `in_valid`/`in_ready`/`in_item`; `out_valid`/`out_ready`/
//! `out_item` (towards ROP); `release_valid`, `release_tiled`, `release_tile`; `hold_fill`
//! (queued items); `busy` (an item in the stage, the queue or the output register);
//! `violation` (a release for a flag that is not set, or an end marker).
//!
//! Timing: an item taken in cycle t is decided in t+1 and at `out_*` in t+2 when it passes;
//! one item per cycle. A release in cycle t lets a held item leave in cycle t+1 (at the
//! output in t+2).
use super::item::*;
use rust_hdl::prelude::*;

/// Slots of the hold queue.
pub const HOLD_SLOTS: usize = 8;

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
    /// The input stage: the item being decided, its tile's flag and whether an older item of
    /// its tile may be queued (both kept current every cycle).
    stage_valid: DFF<Bit>,
    stage_item: DFF<ScreenItem>,
    stage_tile: DFF<Bits<TILE_BITS>>,
    stage_flag: DFF<Bit>,
    stage_queued: DFF<Bit>,
    hold_item: [DFF<ScreenItem>; HOLD_SLOTS],
    hold_valid: [DFF<Bit>; HOLD_SLOTS],
    /// Each slot's cache tile and whether that tile's flag is set now.
    hold_tile: [DFF<Bits<TILE_BITS>>; HOLD_SLOTS],
    hold_blocked: [DFF<Bit>; HOLD_SLOTS],
    hold_head: DFF<Bits<3>>,
    hold_tail: DFF<Bits<3>>,
    hold_count: DFF<Bits<4>>,
    /// Non-tiled barriers in the hold queue: while any is queued, everything is held.
    hold_nontiled: DFF<Bits<4>>,
    out_valid_reg: DFF<Bit>,
    out_item_reg: DFF<ScreenItem>,
    out_free: Signal<Local, Bit>,
    release_tiled_now: Signal<Local, Bit>,
    head_item: Signal<Local, ScreenItem>,
    head_blocked: Signal<Local, Bit>,
    head_is_nontiled: Signal<Local, Bit>,
    head_leaves: Signal<Local, Bit>,
    stage_is_nontiled: Signal<Local, Bit>,
    stage_must_hold: Signal<Local, Bit>,
    stage_passes: Signal<Local, Bit>,
    stage_queues: Signal<Local, Bit>,
    stage_flag_now: Signal<Local, Bit>,
    pass_valid: Signal<Local, Bit>,
    pass_item: Signal<Local, ScreenItem>,
    pass_tile: Signal<Local, Bits<TILE_BITS>>,
    pass_is_tiled: Signal<Local, Bit>,
    head_tile: Signal<Local, Bits<TILE_BITS>>,
    head_is_tiled: Signal<Local, Bit>,
    stage_is_tiled: Signal<Local, Bit>,
    take_input: Signal<Local, Bit>,
    in_tile: Signal<Local, Bits<TILE_BITS>>,
    in_flag_word: Signal<Local, Bits<32>>,
    in_mask: Signal<Local, Bits<32>>,
    in_flag: Signal<Local, Bit>,
    in_queued: Signal<Local, Bit>,
    slot_release_hit: Signal<Local, Bit>,
    slot_pass_hit: Signal<Local, Bit>,
    set_mask: Signal<Local, Bits<32>>,
    clear_mask: Signal<Local, Bits<32>>,
    release_flag_word: Signal<Local, Bits<32>>,
    flag_word_next: Signal<Local, Bits<32>>,
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
            stage_valid: Default::default(),
            stage_item: Default::default(),
            stage_tile: Default::default(),
            stage_flag: Default::default(),
            stage_queued: Default::default(),
            hold_item: std::array::from_fn(|_| Default::default()),
            hold_valid: std::array::from_fn(|_| Default::default()),
            hold_tile: std::array::from_fn(|_| Default::default()),
            hold_blocked: std::array::from_fn(|_| Default::default()),
            hold_head: Default::default(),
            hold_tail: Default::default(),
            hold_count: Default::default(),
            hold_nontiled: Default::default(),
            out_valid_reg: Default::default(),
            out_item_reg: Default::default(),
            out_free: Default::default(),
            release_tiled_now: Default::default(),
            head_item: Default::default(),
            head_blocked: Default::default(),
            head_is_nontiled: Default::default(),
            head_leaves: Default::default(),
            stage_is_nontiled: Default::default(),
            stage_must_hold: Default::default(),
            stage_passes: Default::default(),
            stage_queues: Default::default(),
            stage_flag_now: Default::default(),
            pass_valid: Default::default(),
            pass_item: Default::default(),
            pass_tile: Default::default(),
            pass_is_tiled: Default::default(),
            head_tile: Default::default(),
            head_is_tiled: Default::default(),
            stage_is_tiled: Default::default(),
            take_input: Default::default(),
            in_tile: Default::default(),
            in_flag_word: Default::default(),
            in_mask: Default::default(),
            in_flag: Default::default(),
            in_queued: Default::default(),
            slot_release_hit: Default::default(),
            slot_pass_hit: Default::default(),
            set_mask: Default::default(),
            clear_mask: Default::default(),
            release_flag_word: Default::default(),
            flag_word_next: Default::default(),
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
            stage_valid,
            stage_item,
            stage_tile,
            stage_flag,
            stage_queued,
            hold_head,
            hold_tail,
            hold_count,
            hold_nontiled,
            out_valid_reg,
            out_item_reg
        );
        for w in 0..FLAG_WORDS {
            self.tile_flags[w].clock.next = self.clock.val();
            self.tile_flags[w].d.next = self.tile_flags[w].q.val();
        }
        for i in 0..HOLD_SLOTS {
            self.hold_item[i].clock.next = self.clock.val();
            self.hold_item[i].d.next = self.hold_item[i].q.val();
            self.hold_valid[i].clock.next = self.clock.val();
            self.hold_valid[i].d.next = self.hold_valid[i].q.val();
            self.hold_tile[i].clock.next = self.clock.val();
            self.hold_tile[i].d.next = self.hold_tile[i].q.val();
            self.hold_blocked[i].clock.next = self.clock.val();
            self.hold_blocked[i].d.next = self.hold_blocked[i].q.val();
        }
        // The output register is free, or its item leaves this cycle.
        self.out_free.next = !self.out_valid_reg.q.val() | self.out_ready.val();
        self.release_tiled_now.next = self.release_valid.val() & self.release_tiled.val();
        // The head of the hold queue leaves when its tile's flag is clear.
        self.head_item.next = self.hold_item[0].q.val();
        self.head_blocked.next = self.hold_blocked[0].q.val();
        for i in 0..HOLD_SLOTS {
            if self.hold_head.q.val() == self.slot_index[i].val() {
                self.head_item.next = self.hold_item[i].q.val();
                self.head_blocked.next = self.hold_blocked[i].q.val();
            }
        }
        self.head_is_nontiled.next = self.head_item.val().kind == self.kind_nontiled.val();
        self.head_is_tiled.next = self.head_item.val().kind == self.kind_tiled.val();
        self.head_tile.next = self.head_item.val().tile;
        self.head_leaves.next = self.hold_count.q.val().any()
            & !self.nontiled_flag.q.val()
            & (self.head_is_nontiled.val() | !self.head_blocked.val())
            & self.out_free.val();
        // The staged item passes, joins the queue, or waits.
        self.stage_is_nontiled.next = self.stage_item.q.val().kind == self.kind_nontiled.val();
        self.stage_is_tiled.next = self.stage_item.q.val().kind == self.kind_tiled.val();
        self.stage_must_hold.next = self.nontiled_flag.q.val()
            | self.hold_nontiled.q.val().any()
            | (self.stage_is_nontiled.val() & self.hold_count.q.val().any())
            | (!self.stage_is_nontiled.val()
                & (self.stage_flag.q.val() | self.stage_queued.q.val()));
        self.stage_passes.next = self.stage_valid.q.val()
            & !self.stage_must_hold.val()
            & !self.head_leaves.val()
            & self.out_free.val();
        self.stage_queues.next = self.stage_valid.q.val()
            & self.stage_must_hold.val()
            & (self.hold_count.q.val() != self.hold_slots.val());
        self.in_ready.next =
            !self.stage_valid.q.val() | self.stage_passes.val() | self.stage_queues.val();
        self.take_input.next = self.in_valid.val()
            & (!self.stage_valid.q.val() | self.stage_passes.val() | self.stage_queues.val());
        // What passes this cycle.
        self.pass_valid.next = self.head_leaves.val() | self.stage_passes.val();
        self.pass_item.next = self.stage_item.q.val();
        if self.head_leaves.val() {
            self.pass_item.next = self.head_item.val();
        }
        self.pass_tile.next = self.pass_item.val().tile;
        self.pass_is_tiled.next =
            self.pass_valid.val() & (self.pass_item.val().kind == self.kind_tiled.val());
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
            & !(self.release_tiled_now.val()
                & (self.release_tile.val() == self.stage_tile.q.val())))
            | (self.head_leaves.val()
                & self.head_is_tiled.val()
                & (self.head_tile.val() == self.stage_tile.q.val()));
        // The arriving item: its tile's flag and whether an older item of its tile is queued.
        self.in_tile.next = self.in_item.val().tile;
        self.in_flag_word.next = bits::<32>(0);
        for w in 0..FLAG_WORDS {
            if self.in_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.in_flag_word.next = self.tile_flags[w].q.val();
            }
        }
        self.in_mask.next = bits::<32>(1) << self.in_tile.val().get_bits::<5>(0);
        self.in_flag.next = ((self.in_flag_word.val() & self.in_mask.val()).any()
            | (self.pending_set_valid.q.val()
                & (self.pending_set_tile.q.val() == self.in_tile.val()))
            | (self.head_leaves.val()
                & self.head_is_tiled.val()
                & (self.head_tile.val() == self.in_tile.val()))
            | (self.stage_passes.val()
                & self.stage_is_tiled.val()
                & (self.stage_tile.q.val() == self.in_tile.val())))
            & !(self.release_tiled_now.val() & (self.release_tile.val() == self.in_tile.val()));
        self.in_queued.next =
            self.stage_queues.val() & (self.stage_tile.q.val() == self.in_tile.val());
        for i in 0..HOLD_SLOTS {
            if self.hold_valid[i].q.val() & (self.hold_tile[i].q.val() == self.in_tile.val()) {
                self.in_queued.next = true;
            }
        }
        if self.take_input.val() {
            self.stage_valid.d.next = true;
            self.stage_item.d.next = self.in_item.val();
            self.stage_tile.d.next = self.in_tile.val();
            self.stage_flag.d.next = self.in_flag.val();
            self.stage_queued.d.next = self.in_queued.val();
        } else if self.stage_passes.val() | self.stage_queues.val() {
            self.stage_valid.d.next = false;
        } else {
            self.stage_flag.d.next = self.stage_flag_now.val();
        }
        // The hold queue: every slot keeps its tile's flag current.
        for i in 0..HOLD_SLOTS {
            self.slot_release_hit.next = self.release_tiled_now.val()
                & (self.release_tile.val() == self.hold_tile[i].q.val());
            // The barrier passing now (from the head or the stage) sets this slot's flag; both
            // candidates are compared in parallel with the decision.
            self.slot_pass_hit.next = (self.head_leaves.val()
                & self.head_is_tiled.val()
                & (self.head_tile.val() == self.hold_tile[i].q.val()))
                | (self.stage_passes.val()
                    & self.stage_is_tiled.val()
                    & (self.stage_tile.q.val() == self.hold_tile[i].q.val()));
            self.hold_blocked[i].d.next = (self.hold_blocked[i].q.val()
                & !self.slot_release_hit.val())
                | self.slot_pass_hit.val();
            if self.head_leaves.val() & (self.hold_head.q.val() == self.slot_index[i].val()) {
                self.hold_valid[i].d.next = false;
            }
            if self.stage_queues.val() & (self.hold_tail.q.val() == self.slot_index[i].val()) {
                self.hold_valid[i].d.next = true;
                self.hold_item[i].d.next = self.stage_item.q.val();
                self.hold_tile[i].d.next = self.stage_tile.q.val();
                self.hold_blocked[i].d.next = self.stage_flag_now.val();
            }
        }
        if self.head_leaves.val() {
            self.hold_head.d.next = self.hold_head.q.val() + bits::<3>(1);
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
        self.clear_mask.next = bits::<32>(1) << self.release_tile.val().get_bits::<5>(0);
        self.release_flag_word.next = bits::<32>(0);
        for w in 0..FLAG_WORDS {
            self.flag_word_next.next = self.tile_flags[w].q.val();
            if self.release_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.release_flag_word.next = self.tile_flags[w].q.val();
                if self.release_tiled_now.val() {
                    self.flag_word_next.next = self.flag_word_next.val() & !self.clear_mask.val();
                }
            }
            if self.pending_set_valid.q.val()
                & (self.pending_set_tile.q.val().get_bits::<3>(5) == self.word_index[w].val())
            {
                self.flag_word_next.next = self.flag_word_next.val() | self.set_mask.val();
            }
            self.tile_flags[w].d.next = self.flag_word_next.val();
        }
        if self.release_valid.val() & !self.release_tiled.val() {
            self.nontiled_flag.d.next = false;
        }
        if self.pass_valid.val() & (self.pass_item.val().kind == self.kind_nontiled.val()) {
            self.nontiled_flag.d.next = true;
        }
        self.hold_fill.next = self.hold_count.q.val();
        self.busy.next =
            self.stage_valid.q.val() | self.hold_count.q.val().any() | self.out_valid_reg.q.val();
        self.violation.next = (self.release_valid.val()
            & ((self.release_tiled.val()
                & !(self.release_flag_word.val() & self.clear_mask.val()).any())
                | (!self.release_tiled.val() & !self.nontiled_flag.q.val())))
            | (self.in_valid.val() & (self.in_item.val().kind == self.kind_end.val()));
        if self.reset.val() {
            for w in 0..FLAG_WORDS {
                self.tile_flags[w].d.next = bits::<32>(0);
            }
            for i in 0..HOLD_SLOTS {
                self.hold_valid[i].d.next = false;
            }
            self.nontiled_flag.d.next = false;
            self.pending_set_valid.d.next = false;
            self.stage_valid.d.next = false;
            self.out_valid_reg.d.next = false;
            self.hold_head.d.next = bits::<3>(0);
            self.hold_tail.d.next = bits::<3>(0);
            self.hold_count.d.next = bits::<4>(0);
            self.hold_nontiled.d.next = bits::<4>(0);
        }
    }
}
