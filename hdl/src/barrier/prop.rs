//! `Prop` — the barrier side of a pre-raster-operations unit (SPEC BR-4, BR-5, BR-6, BR-7).
//!
//! A barrier passing PROP sets a flag: the non-tiled flag, or its cache tile's flag (one per
//! cache tile, 256 flags in eight 32-bit words). While a flag is set, PROP holds the work
//! behind it — everything for the non-tiled flag, that cache tile's items for a tile flag —
//! and lets everything else pass. `release` from the back end clears the flag it names.
//!
//! Held items wait in a hold queue of [`HOLD_SLOTS`] slots, in arrival order; only its head
//! leaves, when its flag is clear. An arriving item joins the queue (instead of passing) when
//! a flag holds it or an older item of its cache tile is queued (a search of the queue's
//! tiles), so each cache tile's items leave in API order while other tiles pass. A non-tiled
//! barrier passes only behind every queued item, and everything after it is held. When the
//! queue is full an item to hold waits at the input: the stages before PROP keep working
//! (BR-7) until their own buffers fill.
//!
//! Reading of "holds work behind a set flag" (BR-5): items of other cache tiles pass, so a
//! tile's dependent pass starts as soon as that tile is released.
//!
//! Ports: `clock`, `reset`; `in_valid`/`in_ready`/`in_item`; `out_valid`/`out_ready`/
//! `out_item` (towards ROP); `release_valid`, `release_tiled`, `release_tile`; `hold_fill`
//! (queued items); `violation` (a release for a flag that is not set, or an end marker).
//!
//! Timing: the output is a register, so an item passing in cycle t is at `out_*`
//! in cycle t+1; one item per cycle. A release in cycle t lets a held item leave in cycle t+1
//! (at the output in t+2).
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
    pub violation: Signal<Out, Bit>,
    /// The output register (`out_valid`/`out_item`).
    out_valid_reg: DFF<Bit>,
    out_item_reg: DFF<ScreenItem>,
    out_free: Signal<Local, Bit>,
    tile_flags: [DFF<Bits<32>>; FLAG_WORDS],
    nontiled_flag: DFF<Bit>,
    hold_item: [DFF<ScreenItem>; HOLD_SLOTS],
    hold_valid: [DFF<Bit>; HOLD_SLOTS],
    /// Each slot's cache tile (a copy of `hold_item[i].tile` for the search).
    hold_tile: [DFF<Bits<TILE_BITS>>; HOLD_SLOTS],
    hold_head: DFF<Bits<3>>,
    hold_tail: DFF<Bits<3>>,
    hold_count: DFF<Bits<4>>,
    /// Non-tiled barriers in the hold queue: while any is queued, everything is held.
    hold_nontiled: DFF<Bits<4>>,
    in_tile: Signal<Local, Bits<TILE_BITS>>,
    in_flag_word: Signal<Local, Bits<32>>,
    in_flag: Signal<Local, Bit>,
    in_tile_queued: Signal<Local, Bit>,
    in_is_nontiled: Signal<Local, Bit>,
    in_must_hold: Signal<Local, Bit>,
    head_item: Signal<Local, ScreenItem>,
    head_tile: Signal<Local, Bits<TILE_BITS>>,
    pass_tile: Signal<Local, Bits<TILE_BITS>>,
    head_flag_word: Signal<Local, Bits<32>>,
    head_flag: Signal<Local, Bit>,
    head_is_nontiled: Signal<Local, Bit>,
    head_leaves: Signal<Local, Bit>,
    in_passes: Signal<Local, Bit>,
    in_queues: Signal<Local, Bit>,
    pass_item: Signal<Local, ScreenItem>,
    pass_valid: Signal<Local, Bit>,
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
            violation: Default::default(),
            out_valid_reg: Default::default(),
            out_item_reg: Default::default(),
            out_free: Default::default(),
            tile_flags: std::array::from_fn(|_| Default::default()),
            nontiled_flag: Default::default(),
            hold_item: std::array::from_fn(|_| Default::default()),
            hold_valid: std::array::from_fn(|_| Default::default()),
            hold_tile: std::array::from_fn(|_| Default::default()),
            hold_head: Default::default(),
            hold_tail: Default::default(),
            hold_count: Default::default(),
            hold_nontiled: Default::default(),
            in_tile: Default::default(),
            in_flag_word: Default::default(),
            in_flag: Default::default(),
            in_tile_queued: Default::default(),
            in_is_nontiled: Default::default(),
            in_must_hold: Default::default(),
            head_item: Default::default(),
            head_tile: Default::default(),
            pass_tile: Default::default(),
            head_flag_word: Default::default(),
            head_flag: Default::default(),
            head_is_nontiled: Default::default(),
            head_leaves: Default::default(),
            in_passes: Default::default(),
            in_queues: Default::default(),
            pass_item: Default::default(),
            pass_valid: Default::default(),
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
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            nontiled_flag,
            hold_head,
            hold_tail,
            hold_count,
            hold_nontiled,
            out_valid_reg,
            out_item_reg
        );
        // The output register is free, or its item leaves this cycle.
        self.out_free.next = !self.out_valid_reg.q.val() | self.out_ready.val();
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
        }
        // The arriving item: its tile's flag, and whether an older item of its tile is queued.
        self.in_tile.next = self.in_item.val().tile;
        self.in_is_nontiled.next = self.in_item.val().kind == self.kind_nontiled.val();
        self.in_flag_word.next = bits::<32>(0);
        self.head_item.next = self.hold_item[0].q.val();
        self.in_tile_queued.next = false;
        for w in 0..FLAG_WORDS {
            if self.in_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.in_flag_word.next = self.tile_flags[w].q.val();
            }
        }
        for i in 0..HOLD_SLOTS {
            if self.hold_head.q.val() == self.slot_index[i].val() {
                self.head_item.next = self.hold_item[i].q.val();
            }
            if self.hold_valid[i].q.val() & (self.hold_tile[i].q.val() == self.in_tile.val()) {
                self.in_tile_queued.next = true;
            }
        }
        self.in_flag.next = self
            .in_flag_word
            .val()
            .get_bit(self.in_tile.val().get_bits::<5>(0).index());
        self.in_must_hold.next = self.nontiled_flag.q.val()
            | self.hold_nontiled.q.val().any()
            | (self.in_is_nontiled.val() & self.hold_count.q.val().any())
            | (!self.in_is_nontiled.val() & (self.in_flag.val() | self.in_tile_queued.val()));
        // The head of the hold queue leaves when its flag is clear.
        self.head_is_nontiled.next = self.head_item.val().kind == self.kind_nontiled.val();
        self.head_tile.next = self.head_item.val().tile;
        self.head_flag_word.next = bits::<32>(0);
        for w in 0..FLAG_WORDS {
            if self.head_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.head_flag_word.next = self.tile_flags[w].q.val();
            }
        }
        self.head_flag.next = self
            .head_flag_word
            .val()
            .get_bit(self.head_tile.val().get_bits::<5>(0).index());
        self.head_leaves.next = self.hold_count.q.val().any()
            & !self.nontiled_flag.q.val()
            & (self.head_is_nontiled.val() | !self.head_flag.val())
            & self.out_free.val();
        self.in_passes.next = self.in_valid.val()
            & !self.in_must_hold.val()
            & !self.head_leaves.val()
            & self.out_free.val();
        self.in_queues.next = self.in_valid.val()
            & self.in_must_hold.val()
            & (self.hold_count.q.val() != self.hold_slots.val());
        self.in_ready.next = self.in_passes.val() | self.in_queues.val();
        // What passes this cycle.
        self.pass_valid.next = self.head_leaves.val() | self.in_passes.val();
        self.pass_item.next = self.in_item.val();
        if self.head_leaves.val() {
            self.pass_item.next = self.head_item.val();
        }
        if self.out_ready.val() {
            self.out_valid_reg.d.next = false;
        }
        if self.pass_valid.val() {
            self.out_valid_reg.d.next = true;
            self.out_item_reg.d.next = self.pass_item.val();
        }
        self.out_valid.next = self.out_valid_reg.q.val();
        self.out_item.next = self.out_item_reg.q.val();
        // The hold queue.
        if self.head_leaves.val() {
            self.hold_head.d.next = self.hold_head.q.val() + bits::<3>(1);
            if self.head_is_nontiled.val() {
                self.hold_nontiled.d.next = self.hold_nontiled.q.val() - bits::<4>(1);
            }
        }
        for i in 0..HOLD_SLOTS {
            if self.head_leaves.val() & (self.hold_head.q.val() == self.slot_index[i].val()) {
                self.hold_valid[i].d.next = false;
            }
            if self.in_queues.val() & (self.hold_tail.q.val() == self.slot_index[i].val()) {
                self.hold_valid[i].d.next = true;
                self.hold_item[i].d.next = self.in_item.val();
                self.hold_tile[i].d.next = self.in_tile.val();
            }
        }
        if self.in_queues.val() {
            self.hold_tail.d.next = self.hold_tail.q.val() + bits::<3>(1);
            if self.in_is_nontiled.val() {
                self.hold_nontiled.d.next = self.hold_nontiled.q.val() + bits::<4>(1);
            }
        }
        if self.in_queues.val() & !self.head_leaves.val() {
            self.hold_count.d.next = self.hold_count.q.val() + bits::<4>(1);
        }
        if !self.in_queues.val() & self.head_leaves.val() {
            self.hold_count.d.next = self.hold_count.q.val() - bits::<4>(1);
        }
        if self.in_queues.val()
            & self.in_is_nontiled.val()
            & self.head_leaves.val()
            & self.head_is_nontiled.val()
        {
            self.hold_nontiled.d.next = self.hold_nontiled.q.val();
        }
        // Flags: a passing barrier sets its flag, a release clears its flag.
        self.pass_tile.next = self.pass_item.val().tile;
        self.set_mask.next = bits::<32>(1) << self.pass_tile.val().get_bits::<5>(0);
        self.clear_mask.next = bits::<32>(1) << self.release_tile.val().get_bits::<5>(0);
        self.release_flag_word.next = bits::<32>(0);
        for w in 0..FLAG_WORDS {
            // One word's next value: the release's clear, then the passing barrier's set (a
            // release and a barrier of the same word in one cycle both count).
            self.flag_word_next.next = self.tile_flags[w].q.val();
            if self.release_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.release_flag_word.next = self.tile_flags[w].q.val();
                if self.release_valid.val() & self.release_tiled.val() {
                    self.flag_word_next.next = self.flag_word_next.val() & !self.clear_mask.val();
                }
            }
            if self.pass_valid.val()
                & (self.pass_item.val().kind == self.kind_tiled.val())
                & (self.pass_tile.val().get_bits::<3>(5) == self.word_index[w].val())
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
            self.out_valid_reg.d.next = false;
            self.hold_head.d.next = bits::<3>(0);
            self.hold_tail.d.next = bits::<3>(0);
            self.hold_count.d.next = bits::<4>(0);
            self.hold_nontiled.d.next = bits::<4>(0);
        }
    }
}
