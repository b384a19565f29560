//! `TilingUnit` — bins one pipeline's primitives per cache tile and flushes them as cache-tile
//! batches (SPEC BR-3, BR-4, BR-5).
//!
//! Input: one [`ScreenItem`] per cycle, in API order: a primitive's entry for one cache tile
//! (the crossbar sends one per cache tile the primitive reaches on this pipeline, BR-2), a
//! tiled barrier, a non-tiled barrier or the end of the frame. Storage: up to 256 entries in
//! block RAM, one linked list per cache tile (head, tail, next pointers), so a flush reads each
//! entry once.
//!
//! Flushes (`flush_valid` pulses for one cycle with `flush_reason` and `flush_entries`):
//! - `threshold`: the entry that makes the count reach `bin_capacity` is binned, then the unit
//!   flushes (a primitive reaching more cache tiles than that is split across flushes);
//! - `barrier`: a non-tiled barrier flushes (also an empty bin), then goes down the pipeline;
//! - `end`: the end marker flushes (also an empty bin).
//!
//! A tiled barrier does not flush: it is counted (`epochs`) and every entry records how many
//! tiled barriers came before it. At the next flush each cache tile of the screen (`tiles`,
//! empty ones included) gets the barrier after its earlier entries and before its later ones.
//!
//! Order of a flush: cache tiles in ascending order, each tile's entries in API order. With
//! k > 1 tiled barriers in one flush the batches are sent in k rounds: round r sends, tile by
//! tile, the entries before barrier r and barrier r, the last round also the entries after
//! the last barrier. So every pipeline sends its barriers in the same order (barrier 1 of
//! every tile before barrier 2 of any tile) whatever its own flush points; with one batch per
//! tile, two pipelines whose thresholds split the same two barriers differently would each
//! hold the other's next barrier behind a PROP flag (a deadlock). With k <= 1 a flush is
//! exactly one batch per cache tile.
//!
//! Ports: `clock`, `reset`; `tiles` (1..=256), `bin_capacity` (1..=256); `in_valid`/
//! `in_ready`/`in_item`; `out_valid`/`out_ready`/`out_item` (towards setup); `flush_valid`,
//! `flush_reason` (0 threshold, 1 barrier, 2 end), `flush_entries`; `idle` (accepting, bin
//! empty, nothing in flight); `violation` (more than 255 tiled barriers waiting for one
//! flush, or `tiles` not in 1..=256).
//!
//! Timing: an item waits one cycle in an input stage (where its tile's list is looked up),
//! then binning takes one entry per cycle. A flush starts the cycle after the entry or
//! command that causes it; it then sends one entry per two cycles (the block RAMs' words are
//! registered before the decision that follows the list) and one barrier per cycle, plus two
//! cycles per cache tile visited and one more per non-empty tile (its list's head and tail
//! words are registered before they are compared); the output is a register (an item emitted
//! in cycle t is at `out_*` in t+1). The unit bins no input while it flushes: one item may be
//! taken into its empty input stage as the flush starts and waits there until it ends.
//!
//! Latency: an entry is linked into its tile's list over three cycles after it is binned (its
//! old tail's next pointer is written from registers in the third), so `idle` rises one cycle
//! later after the last entry than before session 17; the output and flush timing is as above.
//! Its tile's `tile_nonempty` flag is set one cycle after it is binned, from registers
//! (`set_word`, `set_mask`); the two readers that could see the flag still pending correct for
//! it: the input stage (`stage_hit`: the staged tile is the one binned in this cycle or the
//! last) and the walk's first word at the start of a flush.
//!
//! Storage per entry: its primitive (`entry_prim`) and, beside the pointer to it (its list's
//! head word, or its previous entry's next word), its epoch, so the walk knows whether an entry
//! goes out in this round as it steps onto it (`cur_in_phase`). The epoch is compared with
//! the round in the cycle after its word leaves the block RAM, into a register of its own
//! (`next_in_phase`, `head_in_phase`), and `cur_in_phase` is loaded from that register in the
//! entry's fetch cycle, so no compare or decision follows a block RAM's output directly (a walk
//! step is two cycles either way: the timing above is unchanged).
use super::item::*;
use crate::widgets::block_ram::BlockRam;
use rust_hdl::prelude::*;

/// Width of an entry index: up to 256 (primitive, cache tile) entries in a bin.
pub const ENTRY_BITS: usize = 8;
/// `flush_reason` codes (trace names `threshold`, `barrier`, `end`).
pub const FLUSH_THRESHOLD: u64 = 0;
pub const FLUSH_BARRIER: u64 = 1;
pub const FLUSH_END: u64 = 2;

const ST_ACCEPT: u64 = 0;
const ST_FLUSH_START: u64 = 1;
const ST_TILE_START: u64 = 2;
const ST_TILE_READ: u64 = 3;
const ST_WALK: u64 = 4;
const ST_BARRIER: u64 = 5;
const ST_NEXT_TILE: u64 = 6;
const ST_FLUSH_TAIL: u64 = 7;
const ST_WALK_FETCH: u64 = 8;
const ST_TILE_LOAD: u64 = 9;

#[derive(LogicBlock)]
pub struct TilingUnit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub tiles: Signal<In, Bits<9>>,
    pub bin_capacity: Signal<In, Bits<9>>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_item: Signal<In, ScreenItem>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_item: Signal<Out, ScreenItem>,
    pub flush_valid: Signal<Out, Bit>,
    pub flush_reason: Signal<Out, Bits<2>>,
    pub flush_entries: Signal<Out, Bits<9>>,
    pub idle: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    /// The output register (`out_valid`/`out_item`).
    out_valid_reg: DFF<Bit>,
    out_item_reg: DFF<ScreenItem>,
    entry_prim: BlockRam<Bits<PRIM_BITS>, ENTRY_BITS>,
    /// An entry's next entry (low byte) and that entry's epoch (high byte).
    entry_next: BlockRam<Bits<16>, ENTRY_BITS>,
    /// A tile's first entry (low byte) and its epoch (high byte).
    tile_head: BlockRam<Bits<16>, TILE_BITS>,
    tile_tail: BlockRam<Bits<ENTRY_BITS>, TILE_BITS>,
    tile_nonempty: [DFF<Bits<32>>; FLAG_WORDS],
    state: DFF<Bits<4>>,
    /// Entries in the bin; the next entry's index.
    bin_count: DFF<Bits<9>>,
    /// Tiled barriers waiting for the next flush.
    epochs: DFF<Bits<8>>,
    flush_reason_reg: DFF<Bits<2>>,
    /// Insert, second cycle: link the entry behind its tile's old tail.
    link_valid: DFF<Bit>,
    link_tile: DFF<Bits<TILE_BITS>>,
    link_entry: DFF<Bits<ENTRY_BITS>>,
    link_first: DFF<Bit>,
    link_bypass: DFF<Bit>,
    link_bypass_tail: DFF<Bits<ENTRY_BITS>>,
    /// Flush walk.
    round: DFF<Bits<8>>,
    walk_tile: DFF<Bits<TILE_BITS>>,
    /// The walk tile's word of `tile_nonempty`, shifted so that bit 0 is the walk tile.
    walk_word: DFF<Bits<32>>,
    /// `walk_tile` is the last tile; `round` is the last round; `round` sends barriers.
    at_last_tile: DFF<Bit>,
    last_round: DFF<Bit>,
    barrier_round: DFF<Bit>,
    post_phase: DFF<Bit>,
    cursor: DFF<Bits<ENTRY_BITS>>,
    walk_tail: DFF<Bits<ENTRY_BITS>>,
    /// The entry at `cursor`, registered from the block RAMs.
    cur_prim: DFF<Bits<PRIM_BITS>>,
    /// The epoch of the entry at `cursor`, taken from the word that points to it (the list
    /// head's word, or the previous entry's next word), so that `cur_in_phase` is compared
    /// from registers as the entry becomes the walk's (no compare after a block RAM and none
    /// on the walk decision); kept to rewrite the list's head when the rest waits.
    cur_epoch: DFF<Bits<8>>,
    at_walk_tail: DFF<Bit>,
    /// `bin_count + 1` and `bin_count + 2`, kept with `bin_count` (no adder in front of the
    /// `bin_last` compare).
    bin_count_plus1: DFF<Bits<9>>,
    bin_count_plus2: DFF<Bits<9>>,
    /// Binning one more entry fills the bin (`bin_count + 1 == bin_capacity`).
    bin_last: DFF<Bit>,
    /// The entry after `cursor` (low byte) and its epoch (high byte), raw from the block RAM.
    cur_next_word: DFF<Bits<16>>,
    /// The input stage: the next item, and whether its tile's list is empty (looked up as it
    /// enters, kept current by the entry ahead of it and by the end of a flush).
    stage_valid: DFF<Bit>,
    stage_item: DFF<ScreenItem>,
    stage_tile: DFF<Bits<TILE_BITS>>,
    /// The staged tile's word of `tile_nonempty` and its bit in it.
    stage_word: DFF<Bits<32>>,
    stage_mask: DFF<Bits<32>>,
    /// The staged tile's list got its first entry after `stage_word` was read: the entry binned
    /// as the item was staged, or the one binned the cycle before (its flag was still pending).
    stage_hit: DFF<Bit>,
    /// The entry binned in the last cycle sets its `tile_nonempty` bit now, one cycle after the
    /// binning decision, from registers (its word one-hot, its bit, its tile for the input
    /// stage's check), so the decision reaches these registers and not the 256 flags' enables.
    set_word: DFF<Bits<FLAG_WORDS>>,
    set_mask: DFF<Bits<32>>,
    set_valid: DFF<Bit>,
    set_tile: DFF<Bits<TILE_BITS>>,
    in_take_hit: Signal<Local, Bit>,
    in_set_hit: Signal<Local, Bit>,
    stage_first: Signal<Local, Bit>,
    load_input: Signal<Local, Bit>,
    in_tile: Signal<Local, Bits<TILE_BITS>>,
    in_nonempty_word: Signal<Local, Bits<32>>,
    take_input: Signal<Local, Bit>,
    take_prim: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<9>>,
    walk_nonempty: Signal<Local, Bit>,
    walk_mask: Signal<Local, Bits<32>>,
    walk_next_tile: Signal<Local, Bits<TILE_BITS>>,
    /// The next 32-tile group's word of `tile_nonempty` (loaded every cycle).
    walk_next_word: DFF<Bits<32>>,
    /// The group (32-tile word) after `walk_tile`'s, kept with `walk_tile`.
    walk_next_group: DFF<Bits<3>>,
    /// The list's head and tail words read at the walk tile (and the tail read for binning),
    /// registered raw (on ECP5 they become the block RAMs' output registers).
    head_raw: DFF<Bits<16>>,
    tail_raw: DFF<Bits<ENTRY_BITS>>,
    /// Binning, third cycle: the entry is written as the next entry of its tile's old tail
    /// (`tail_raw`, or the entry linked just before it in the same tile).
    next_link_valid: DFF<Bit>,
    next_link_entry: DFF<Bits<ENTRY_BITS>>,
    /// The linked entry's epoch (stored beside the pointer to it).
    link_epoch: DFF<Bits<8>>,
    next_link_epoch: DFF<Bits<8>>,
    /// Whether the entry at `cursor` goes out in this round, compared when it became the
    /// walk's entry (from the epoch stored beside the pointer to it).
    cur_in_phase: DFF<Bit>,
    /// The next entry's epoch (in `cur_next_word`) against `round`, registered every cycle:
    /// as the walk steps on to that entry (`walk_stepped`), its fetch cycle loads
    /// `cur_in_phase` from this register, so no compare follows the block RAM's output.
    next_in_phase: DFF<Bit>,
    walk_stepped: DFF<Bit>,
    /// The same for a list's first entry: its epoch (in `head_raw`) against `round`, used
    /// in the fetch cycle after the list is loaded (`head_loaded`).
    head_in_phase: DFF<Bit>,
    head_loaded: DFF<Bit>,
    /// `round + 1 <= epochs`, registered every cycle (neither changes in the cycle before a
    /// round ends): the next round sends barriers.
    next_barrier_round: DFF<Bit>,
    next_link_bypass: DFF<Bit>,
    next_link_bypass_tail: DFF<Bits<ENTRY_BITS>>,
    group_last: Constant<Bits<5>>,
    round_next: Signal<Local, Bits<8>>,
    tiles_low: Signal<Local, Bits<TILE_BITS>>,
    last_tile: Signal<Local, Bits<TILE_BITS>>,
    rounds: Signal<Local, Bits<8>>,
    entry_in_phase: Signal<Local, Bit>,
    emit_valid: Signal<Local, Bit>,
    emit_item: Signal<Local, ScreenItem>,
    emit_taken: Signal<Local, Bit>,
    entry_read_address: Signal<Local, Bits<ENTRY_BITS>>,
    clear_walk_bit: Signal<Local, Bit>,
    /// The walk tile's `tile_nonempty` bit is cleared one cycle after the walk decides it
    /// (the decision fans out to these flip-flops instead of 256): its word (one-hot) and bit.
    clear_word: DFF<Bits<FLAG_WORDS>>,
    clear_mask: DFF<Bits<32>>,
    /// The walk tile's head is rewritten (the rest of its list waits for a later round) one
    /// cycle after the walk decides it, from `walk_tile` and `cursor` (unchanged by then).
    head_write_pending: DFF<Bit>,
    flush_done: Signal<Local, Bit>,
    word_index: [Constant<Bits<3>>; FLAG_WORDS],
    st_accept: Constant<Bits<4>>,
    st_flush_start: Constant<Bits<4>>,
    st_tile_start: Constant<Bits<4>>,
    st_tile_read: Constant<Bits<4>>,
    st_tile_load: Constant<Bits<4>>,
    st_walk: Constant<Bits<4>>,
    st_barrier: Constant<Bits<4>>,
    st_next_tile: Constant<Bits<4>>,
    st_flush_tail: Constant<Bits<4>>,
    st_walk_fetch: Constant<Bits<4>>,
    kind_prim: Constant<Bits<2>>,
    kind_tiled: Constant<Bits<2>>,
    kind_nontiled: Constant<Bits<2>>,
    kind_end: Constant<Bits<2>>,
    reason_threshold: Constant<Bits<2>>,
    reason_barrier: Constant<Bits<2>>,
    reason_end: Constant<Bits<2>>,
    max_epochs: Constant<Bits<8>>,
}

impl Default for TilingUnit {
    fn default() -> Self {
        let st = |v: u64| Constant::new(bits::<4>(v));
        let kind = |v: u64| Constant::new(bits::<2>(v));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tiles: Default::default(),
            bin_capacity: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_item: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_item: Default::default(),
            flush_valid: Default::default(),
            flush_reason: Default::default(),
            flush_entries: Default::default(),
            idle: Default::default(),
            violation: Default::default(),
            out_valid_reg: Default::default(),
            out_item_reg: Default::default(),
            entry_prim: Default::default(),
            entry_next: Default::default(),
            tile_head: Default::default(),
            tile_tail: Default::default(),
            tile_nonempty: std::array::from_fn(|_| Default::default()),
            state: Default::default(),
            bin_count: Default::default(),
            bin_count_plus1: Default::default(),
            bin_count_plus2: Default::default(),
            epochs: Default::default(),
            flush_reason_reg: Default::default(),
            link_valid: Default::default(),
            link_tile: Default::default(),
            link_entry: Default::default(),
            link_first: Default::default(),
            link_bypass: Default::default(),
            link_bypass_tail: Default::default(),
            round: Default::default(),
            walk_tile: Default::default(),
            walk_word: Default::default(),
            at_last_tile: Default::default(),
            last_round: Default::default(),
            barrier_round: Default::default(),
            post_phase: Default::default(),
            cursor: Default::default(),
            walk_tail: Default::default(),
            cur_prim: Default::default(),
            cur_epoch: Default::default(),
            at_walk_tail: Default::default(),
            bin_last: Default::default(),
            cur_next_word: Default::default(),
            stage_valid: Default::default(),
            stage_item: Default::default(),
            stage_tile: Default::default(),
            stage_word: Default::default(),
            stage_mask: Default::default(),
            stage_hit: Default::default(),
            set_word: Default::default(),
            set_mask: Default::default(),
            set_valid: Default::default(),
            set_tile: Default::default(),
            in_take_hit: Default::default(),
            in_set_hit: Default::default(),
            stage_first: Default::default(),
            load_input: Default::default(),
            in_tile: Default::default(),
            in_nonempty_word: Default::default(),
            take_input: Default::default(),
            take_prim: Default::default(),
            count_next: Default::default(),
            walk_nonempty: Default::default(),
            walk_mask: Default::default(),
            walk_next_tile: Default::default(),
            walk_next_word: Default::default(),
            walk_next_group: Default::default(),
            head_raw: Default::default(),
            tail_raw: Default::default(),
            next_link_valid: Default::default(),
            next_link_entry: Default::default(),
            link_epoch: Default::default(),
            next_link_epoch: Default::default(),
            cur_in_phase: Default::default(),
            next_in_phase: Default::default(),
            walk_stepped: Default::default(),
            head_in_phase: Default::default(),
            head_loaded: Default::default(),
            next_barrier_round: Default::default(),
            next_link_bypass: Default::default(),
            next_link_bypass_tail: Default::default(),
            group_last: Constant::new(bits::<5>(31)),
            round_next: Default::default(),
            tiles_low: Default::default(),
            last_tile: Default::default(),
            rounds: Default::default(),
            entry_in_phase: Default::default(),
            emit_valid: Default::default(),
            emit_item: Default::default(),
            emit_taken: Default::default(),
            entry_read_address: Default::default(),
            clear_walk_bit: Default::default(),
            clear_word: Default::default(),
            clear_mask: Default::default(),
            head_write_pending: Default::default(),
            flush_done: Default::default(),
            word_index: std::array::from_fn(|i| Constant::new(bits::<3>(i as u64))),
            st_accept: st(ST_ACCEPT),
            st_flush_start: st(ST_FLUSH_START),
            st_tile_start: st(ST_TILE_START),
            st_tile_read: st(ST_TILE_READ),
            st_tile_load: st(ST_TILE_LOAD),
            st_walk: st(ST_WALK),
            st_barrier: st(ST_BARRIER),
            st_next_tile: st(ST_NEXT_TILE),
            st_flush_tail: st(ST_FLUSH_TAIL),
            st_walk_fetch: st(ST_WALK_FETCH),
            kind_prim: kind(KIND_PRIM),
            kind_tiled: kind(KIND_TILED_BARRIER),
            kind_nontiled: kind(KIND_NONTILED_BARRIER),
            kind_end: kind(KIND_END),
            reason_threshold: kind(FLUSH_THRESHOLD),
            reason_barrier: kind(FLUSH_BARRIER),
            reason_end: kind(FLUSH_END),
            max_epochs: Constant::new(bits::<8>(255)),
        }
    }
}

impl Logic for TilingUnit {
    /// Long because one `#[hdl_gen]` function holds the whole next-state function (defaults,
    /// then binning, then the flush walk's states).
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            bin_count,
            bin_count_plus1,
            bin_count_plus2,
            epochs,
            flush_reason_reg,
            link_valid,
            link_tile,
            link_entry,
            link_first,
            link_bypass,
            link_bypass_tail,
            round,
            walk_tile,
            walk_word,
            walk_next_word,
            at_last_tile,
            last_round,
            barrier_round,
            post_phase,
            cursor,
            walk_tail,
            cur_prim,
            cur_epoch,
            at_walk_tail,
            bin_last,
            cur_next_word,
            out_valid_reg,
            out_item_reg,
            stage_valid,
            stage_item,
            stage_tile,
            stage_word,
            stage_mask,
            stage_hit,
            set_word,
            set_mask,
            set_valid,
            set_tile,
            clear_word,
            clear_mask,
            head_write_pending,
            walk_next_group,
            head_raw,
            tail_raw,
            next_link_valid,
            next_link_entry,
            link_epoch,
            next_link_epoch,
            cur_in_phase,
            next_in_phase,
            walk_stepped,
            head_in_phase,
            head_loaded,
            next_barrier_round,
            next_link_bypass,
            next_link_bypass_tail
        );
        clock!(self, clock, entry_prim, entry_next, tile_head, tile_tail);
        for w in 0..FLAG_WORDS {
            self.tile_nonempty[w].clock.next = self.clock.val();
            self.tile_nonempty[w].d.next = self.tile_nonempty[w].q.val();
        }
        // Defaults.
        self.entry_prim.write_enable.next = false;
        self.entry_next.write_enable.next = false;
        self.tile_head.write_enable.next = false;
        self.tile_tail.write_enable.next = false;
        self.entry_prim.write_address.next = self.bin_count.q.val().get_bits::<ENTRY_BITS>(0);
        self.entry_prim.write_data.next = self.stage_item.q.val().prim;
        self.tile_head.write_address.next = self.link_tile.q.val();
        self.tile_head.write_data.next = (bit_cast::<16, 8>(self.link_epoch.q.val())
            << bits::<16>(8))
            | bit_cast::<16, ENTRY_BITS>(self.link_entry.q.val());
        self.tile_head.read_address.next = self.walk_tile.q.val();
        self.tile_tail.read_address.next = self.stage_tile.q.val();
        self.tile_tail.write_address.next = self.link_tile.q.val();
        self.tile_tail.write_data.next = self.link_entry.q.val();
        self.entry_next.write_address.next = self.tail_raw.q.val();
        self.entry_next.write_data.next = (bit_cast::<16, 8>(self.next_link_epoch.q.val())
            << bits::<16>(8))
            | bit_cast::<16, ENTRY_BITS>(self.next_link_entry.q.val());
        self.head_raw.d.next = self.tile_head.read_data.val();
        self.tail_raw.d.next = self.tile_tail.read_data.val();
        self.link_valid.d.next = false;
        self.emit_valid.next = false;
        self.emit_item.next = self.stage_item.q.val();
        self.entry_read_address.next = self.cursor.q.val();
        self.clear_walk_bit.next = false;
        self.flush_done.next = false;
        // Binning: the input's tile and whether its list is empty.
        self.in_tile.next = self.in_item.val().tile;
        self.in_nonempty_word.next = bits::<32>(0);
        for w in 0..FLAG_WORDS {
            if self.in_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                self.in_nonempty_word.next = self.tile_nonempty[w].q.val();
            }
        }
        self.stage_first.next =
            !(self.stage_word.q.val() & self.stage_mask.q.val()).any() & !self.stage_hit.q.val();
        self.take_input.next =
            self.stage_valid.q.val() & (self.state.q.val() == self.st_accept.val());
        self.take_prim.next =
            self.take_input.val() & (self.stage_item.q.val().kind == self.kind_prim.val());
        self.count_next.next = self.bin_count.q.val() + bits::<9>(1);
        if self.take_prim.val() {
            self.entry_prim.write_enable.next = true;
            self.bin_count.d.next = self.count_next.val();
            self.bin_count_plus1.d.next = self.bin_count_plus2.q.val();
            self.bin_count_plus2.d.next = self.bin_count_plus2.q.val() + bits::<9>(1);
            self.link_valid.d.next = true;
            if self.bin_last.q.val() {
                self.state.d.next = self.st_flush_start.val();
                self.flush_reason_reg.d.next = self.reason_threshold.val();
            }
        }
        // The binned entry's flag, set in the next cycle.
        self.set_valid.d.next = self.take_prim.val();
        self.set_tile.d.next = self.stage_tile.q.val();
        self.set_mask.d.next = self.stage_mask.q.val();
        self.set_word.d.next = bits::<FLAG_WORDS>(0);
        if self.take_prim.val() {
            self.set_word.d.next = bits::<FLAG_WORDS>(1)
                << bit_cast::<FLAG_WORDS, 3>(self.stage_tile.q.val().get_bits::<3>(5));
        }
        self.in_take_hit.next =
            self.take_prim.val() & (self.stage_tile.q.val() == self.in_tile.val());
        self.in_set_hit.next =
            self.set_valid.q.val() & (self.set_tile.q.val() == self.in_tile.val());
        // The input stage: load the next item as this one is taken.
        self.load_input.next =
            self.in_valid.val() & (!self.stage_valid.q.val() | self.take_input.val());
        if self.load_input.val() {
            self.stage_valid.d.next = true;
            self.stage_item.d.next = self.in_item.val();
            self.stage_tile.d.next = self.in_tile.val();
            self.stage_mask.d.next = bits::<32>(1) << self.in_tile.val().get_bits::<5>(0);
            self.stage_word.d.next = self.in_nonempty_word.val();
            // The flags read now miss the entry binned now and the one binned last cycle.
            self.stage_hit.d.next = self.in_take_hit.val() | self.in_set_hit.val();
        } else if self.take_input.val() {
            self.stage_valid.d.next = false;
        }
        self.link_tile.d.next = self.stage_tile.q.val();
        self.link_entry.d.next = self.bin_count.q.val().get_bits::<ENTRY_BITS>(0);
        self.link_first.d.next = self.stage_first.val();
        self.link_bypass.d.next =
            self.link_valid.q.val() & (self.link_tile.q.val() == self.stage_tile.q.val());
        self.link_bypass_tail.d.next = self.link_entry.q.val();
        if self.take_input.val()
            & (self.stage_item.q.val().kind == self.kind_tiled.val())
            & (self.epochs.q.val() != self.max_epochs.val())
        {
            self.epochs.d.next = self.epochs.q.val() + bits::<8>(1);
        }
        if self.take_input.val() & (self.stage_item.q.val().kind == self.kind_nontiled.val()) {
            self.state.d.next = self.st_flush_start.val();
            self.flush_reason_reg.d.next = self.reason_barrier.val();
        }
        if self.take_input.val() & (self.stage_item.q.val().kind == self.kind_end.val()) {
            self.state.d.next = self.st_flush_start.val();
            self.flush_reason_reg.d.next = self.reason_end.val();
        }
        // Binning, second cycle: the entry becomes its tile's tail.
        // The first entry of its tile also becomes its head (written from registers, so the
        // block RAM's write enable does not wait for the 32-bit `stage_first` test).
        if self.link_valid.q.val() {
            self.tile_tail.write_enable.next = true;
            self.tile_head.write_enable.next = self.link_first.q.val();
        }
        // Binning, third cycle: the old tail's next pointer (the tail word read for the
        // entry, registered raw, unless the entry linked just before it had the same tile).
        self.next_link_valid.d.next = self.link_valid.q.val() & !self.link_first.q.val();
        self.next_link_entry.d.next = self.link_entry.q.val();
        self.link_epoch.d.next = self.epochs.q.val();
        self.next_link_epoch.d.next = self.link_epoch.q.val();
        self.next_link_bypass.d.next = self.link_bypass.q.val();
        self.next_link_bypass_tail.d.next = self.link_bypass_tail.q.val();
        if self.next_link_valid.q.val() {
            self.entry_next.write_enable.next = true;
            if self.next_link_bypass.q.val() {
                self.entry_next.write_address.next = self.next_link_bypass_tail.q.val();
            }
        }
        // The flush walk.
        // 256 tiles: 0x100, whose low byte minus one is 255.
        self.tiles_low.next = self.tiles.val().get_bits::<TILE_BITS>(0);
        self.last_tile.next = self.tiles_low.val() - bits::<TILE_BITS>(1);
        self.rounds.next = self.epochs.q.val();
        if !self.epochs.q.val().any() {
            self.rounds.next = bits::<8>(1);
        }
        self.round_next.next = self.round.q.val() + bits::<8>(1);
        self.walk_next_tile.next = self.walk_tile.q.val() + bits::<TILE_BITS>(1);
        self.walk_next_word.d.next = self.tile_nonempty[0].q.val();
        for w in 0..FLAG_WORDS {
            if self.walk_next_group.q.val() == self.word_index[w].val() {
                self.walk_next_word.d.next = self.tile_nonempty[w].q.val();
            }
        }
        self.walk_mask.next = bits::<32>(1) << self.walk_tile.q.val().get_bits::<5>(0);
        self.walk_nonempty.next = self.walk_word.q.val().get_bit(0);
        self.entry_in_phase.next = self.cur_in_phase.q.val();
        self.next_in_phase.d.next =
            self.cur_next_word.q.val().get_bits::<8>(8) < self.round.q.val();
        self.walk_stepped.d.next = false;
        self.head_in_phase.d.next = self.head_raw.q.val().get_bits::<8>(8) < self.round.q.val();
        self.head_loaded.d.next = false;
        self.next_barrier_round.d.next = self.round_next.val() <= self.epochs.q.val();
        // Inside a state that emits, the emitted item is taken when the output register is
        // free or leaves this cycle.
        self.emit_taken.next = !self.out_valid_reg.q.val() | self.out_ready.val();
        if self.state.q.val() == self.st_flush_start.val() {
            self.round.d.next = bits::<8>(1);
            self.walk_tile.d.next = bits::<TILE_BITS>(0);
            self.walk_next_group.d.next = bits::<3>(1);
            self.walk_word.d.next = self.tile_nonempty[0].q.val();
            // The flag of the entry binned last cycle (the one that filled the bin).
            if self.set_word.q.val().get_bit(0) {
                self.walk_word.d.next = self.tile_nonempty[0].q.val() | self.set_mask.q.val();
            }
            self.at_last_tile.d.next = !self.last_tile.val().any();
            self.last_round.d.next = self.rounds.val() == bits::<8>(1);
            self.barrier_round.d.next = self.epochs.q.val().any();
            self.post_phase.d.next = false;
            self.state.d.next = self.st_tile_start.val();
            if !self.bin_count.q.val().any() & !self.epochs.q.val().any() {
                self.state.d.next = self.st_flush_tail.val();
            }
        }
        if self.state.q.val() == self.st_tile_start.val() {
            // The head and tail of this tile's list are read this cycle.
            self.tile_tail.read_address.next = self.walk_tile.q.val();
            self.post_phase.d.next = false;
            if self.walk_nonempty.val() {
                self.state.d.next = self.st_tile_read.val();
            } else if self.barrier_round.q.val() {
                self.state.d.next = self.st_barrier.val();
            } else {
                self.state.d.next = self.st_next_tile.val();
            }
        }
        if self.state.q.val() == self.st_tile_read.val() {
            // The list's head and tail words go straight into registers (`head_raw`,
            // `tail_raw`: no logic after the block RAMs); the next state compares them and
            // addresses the first entry.
            self.state.d.next = self.st_tile_load.val();
        }
        if self.state.q.val() == self.st_tile_load.val() {
            self.cursor.d.next = self.head_raw.q.val().get_bits::<ENTRY_BITS>(0);
            self.cur_epoch.d.next = self.head_raw.q.val().get_bits::<8>(8);
            self.head_loaded.d.next = true;
            self.walk_tail.d.next = self.tail_raw.q.val();
            self.at_walk_tail.d.next =
                self.head_raw.q.val().get_bits::<ENTRY_BITS>(0) == self.tail_raw.q.val();
            self.entry_read_address.next = self.head_raw.q.val().get_bits::<ENTRY_BITS>(0);
            self.state.d.next = self.st_walk_fetch.val();
        }
        if self.state.q.val() == self.st_walk_fetch.val() {
            if self.walk_stepped.q.val() {
                self.cur_in_phase.d.next = self.post_phase.q.val() | self.next_in_phase.q.val();
            }
            if self.head_loaded.q.val() {
                self.cur_in_phase.d.next = self.head_in_phase.q.val();
            }
            self.cur_prim.d.next = self.entry_prim.read_data.val();
            self.cur_next_word.d.next = self.entry_next.read_data.val();
            self.state.d.next = self.st_walk.val();
        }
        self.head_write_pending.d.next = false;
        if self.state.q.val() == self.st_walk.val() {
            // The next entry is read whatever the decision (its data is used only when the
            // walk goes on to it), so the RAMs' read address does not wait for the decision.
            if !self.at_walk_tail.q.val() {
                self.entry_read_address.next = self.cur_next_word.q.val().get_bits::<ENTRY_BITS>(0);
            }
            if self.entry_in_phase.val() {
                self.emit_valid.next = true;
                self.emit_item.next.kind = self.kind_prim.val();
                self.emit_item.next.prim = self.cur_prim.q.val();
                self.emit_item.next.tile = self.walk_tile.q.val();
                if self.emit_taken.val() {
                    if self.at_walk_tail.q.val() {
                        self.clear_walk_bit.next = true;
                        if self.barrier_round.q.val() & !self.post_phase.q.val() {
                            self.state.d.next = self.st_barrier.val();
                        } else {
                            self.state.d.next = self.st_next_tile.val();
                        }
                    } else {
                        self.cursor.d.next = self.cur_next_word.q.val().get_bits::<ENTRY_BITS>(0);
                        self.cur_epoch.d.next = self.cur_next_word.q.val().get_bits::<8>(8);
                        self.walk_stepped.d.next = true;
                        self.at_walk_tail.d.next =
                            self.cur_next_word.q.val().get_bits::<ENTRY_BITS>(0)
                                == self.walk_tail.q.val();
                        self.state.d.next = self.st_walk_fetch.val();
                    }
                }
            } else {
                // The rest of the list waits for a later round (its head is written in the
                // barrier state that follows).
                self.head_write_pending.d.next = true;
                self.state.d.next = self.st_barrier.val();
            }
        }
        if self.head_write_pending.q.val() {
            self.tile_head.write_enable.next = true;
            self.tile_head.write_address.next = self.walk_tile.q.val();
            self.tile_head.write_data.next = (bit_cast::<16, 8>(self.cur_epoch.q.val())
                << bits::<16>(8))
                | bit_cast::<16, ENTRY_BITS>(self.cursor.q.val());
        }
        if self.state.q.val() == self.st_barrier.val() {
            self.emit_valid.next = true;
            self.emit_item.next.kind = self.kind_tiled.val();
            self.emit_item.next.prim = bits::<PRIM_BITS>(0);
            self.emit_item.next.tile = self.walk_tile.q.val();
            if self.emit_taken.val() {
                self.state.d.next = self.st_next_tile.val();
                if self.last_round.q.val() & self.walk_nonempty.val() {
                    // The entries after the last barrier: read the entry at `cursor` again.
                    self.post_phase.d.next = true;
                    self.cur_in_phase.d.next = true;
                    self.state.d.next = self.st_walk_fetch.val();
                }
            }
        }
        if self.state.q.val() == self.st_next_tile.val() {
            self.walk_tile.d.next = self.walk_next_tile.val();
            self.walk_word.d.next = self.walk_word.q.val() >> bits::<32>(1);
            if self.walk_tile.q.val().get_bits::<5>(0) == self.group_last.val() {
                self.walk_word.d.next = self.walk_next_word.q.val();
                self.walk_next_group.d.next = self.walk_next_group.q.val() + bits::<3>(1);
            }
            self.at_last_tile.d.next = self.walk_next_tile.val() == self.last_tile.val();
            self.state.d.next = self.st_tile_start.val();
            if self.at_last_tile.q.val() {
                self.walk_tile.d.next = bits::<TILE_BITS>(0);
                self.walk_next_group.d.next = bits::<3>(1);
                self.walk_word.d.next = self.tile_nonempty[0].q.val();
                // A clear still pending in word 0 (the walk tile's, decided last cycle).
                if self.clear_word.q.val().get_bit(0) {
                    self.walk_word.d.next =
                        self.tile_nonempty[0].q.val() & !self.clear_mask.q.val();
                }
                self.at_last_tile.d.next = !self.last_tile.val().any();
                self.round.d.next = self.round_next.val();
                self.last_round.d.next = self.round_next.val() == self.rounds.val();
                self.barrier_round.d.next = self.next_barrier_round.q.val();
                if self.last_round.q.val() {
                    self.state.d.next = self.st_flush_tail.val();
                }
            }
        }
        if self.state.q.val() == self.st_flush_tail.val() {
            if self.flush_reason_reg.q.val() == self.reason_barrier.val() {
                self.emit_valid.next = true;
                self.emit_item.next.kind = self.kind_nontiled.val();
                self.emit_item.next.prim = bits::<PRIM_BITS>(0);
                self.emit_item.next.tile = bits::<TILE_BITS>(0);
            }
            if self.emit_taken.val() | (self.flush_reason_reg.q.val() != self.reason_barrier.val())
            {
                self.flush_done.next = true;
                self.state.d.next = self.st_accept.val();
                self.bin_count.d.next = bits::<9>(0);
                self.bin_count_plus1.d.next = bits::<9>(1);
                self.bin_count_plus2.d.next = bits::<9>(2);
                self.epochs.d.next = bits::<8>(0);
                // Every list is empty again: the staged item's tile too.
                self.stage_word.d.next = bits::<32>(0);
                self.stage_hit.d.next = false;
            }
        }
        if self.clear_walk_bit.val() {
            self.walk_word.d.next = self.walk_word.q.val() & !bits::<32>(1);
        }
        self.clear_word.d.next = bits::<FLAG_WORDS>(0);
        if self.clear_walk_bit.val() {
            self.clear_word.d.next = bits::<FLAG_WORDS>(1)
                << bit_cast::<FLAG_WORDS, 3>(self.walk_tile.q.val().get_bits::<3>(5));
        }
        self.clear_mask.d.next = self.walk_mask.val();
        // A word's flags: the pending set and clear (never in the same cycle: an entry is binned
        // only while the unit accepts, a flag is cleared only by the walk).
        for w in 0..FLAG_WORDS {
            if self.set_word.q.val().get_bit(w) {
                self.tile_nonempty[w].d.next =
                    self.tile_nonempty[w].q.val() | self.set_mask.q.val();
            }
            if self.clear_word.q.val().get_bit(w) {
                self.tile_nonempty[w].d.next =
                    self.tile_nonempty[w].q.val() & !self.clear_mask.q.val();
            }
        }
        // Every list is empty again at the end of a flush: the flags are zeroed in every cycle
        // of the flush's last state (nothing is binned or walked in it), so the 256 flags'
        // clear waits for the state register only, not for the output's handshake.
        if self.state.q.val() == self.st_flush_tail.val() {
            for w in 0..FLAG_WORDS {
                self.tile_nonempty[w].d.next = bits::<32>(0);
            }
        }
        self.entry_prim.read_address.next = self.entry_read_address.val();
        self.entry_next.read_address.next = self.entry_read_address.val();
        if self.out_ready.val() {
            self.out_valid_reg.d.next = false;
        }
        // The output register takes the item whenever it is free or leaves (also with no item
        // to emit: its valid bit is then low), so its enable waits for no state decision.
        if self.emit_taken.val() {
            self.out_item_reg.d.next = self.emit_item.val();
        }
        if self.emit_valid.val() & self.emit_taken.val() {
            self.out_valid_reg.d.next = true;
        }
        self.out_valid.next = self.out_valid_reg.q.val();
        self.out_item.next = self.out_item_reg.q.val();
        self.in_ready.next = !self.stage_valid.q.val() | self.take_input.val();
        self.flush_valid.next = self.state.q.val() == self.st_flush_start.val();
        self.flush_reason.next = self.flush_reason_reg.q.val();
        self.flush_entries.next = self.bin_count.q.val();
        self.idle.next = (self.state.q.val() == self.st_accept.val())
            & !self.bin_count.q.val().any()
            & !self.epochs.q.val().any()
            & !self.link_valid.q.val()
            & !self.next_link_valid.q.val()
            & !self.stage_valid.q.val()
            & !self.out_valid_reg.q.val();
        self.violation.next = (self.take_input.val()
            & (self.stage_item.q.val().kind == self.kind_tiled.val())
            & (self.epochs.q.val() == self.max_epochs.val()))
            | (self.tiles.val() == bits::<9>(0))
            | (self.tiles.val().get_bit(8) & self.tiles_low.val().any());
        // `bin_last` follows `bin_count` (and `bin_capacity`, one cycle later).
        self.bin_last.d.next = self.bin_count_plus1.q.val() == self.bin_capacity.val();
        if self.take_prim.val() {
            self.bin_last.d.next = self.bin_count_plus2.q.val() == self.bin_capacity.val();
        }
        if self.flush_done.val() {
            self.bin_last.d.next = self.bin_capacity.val() == bits::<9>(1);
        }
        if self.reset.val() {
            self.bin_last.d.next = self.bin_capacity.val() == bits::<9>(1);
            self.state.d.next = self.st_accept.val();
            self.walk_stepped.d.next = false;
            self.head_loaded.d.next = false;
            self.bin_count.d.next = bits::<9>(0);
            self.bin_count_plus1.d.next = bits::<9>(1);
            self.bin_count_plus2.d.next = bits::<9>(2);
            self.epochs.d.next = bits::<8>(0);
            self.flush_reason_reg.d.next = bits::<2>(0);
            self.link_valid.d.next = false;
            self.next_link_valid.d.next = false;
            self.clear_word.d.next = bits::<FLAG_WORDS>(0);
            self.set_word.d.next = bits::<FLAG_WORDS>(0);
            self.set_valid.d.next = false;
            self.stage_hit.d.next = false;
            self.head_write_pending.d.next = false;
            self.out_valid_reg.d.next = false;
            self.stage_valid.d.next = false;
            for w in 0..FLAG_WORDS {
                self.tile_nonempty[w].d.next = bits::<32>(0);
            }
        }
    }
}
