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
//! Timing structure: the output decision is one or two LUT levels of registers (the staged
//! item's flag, `stage_flag | stage_pendhit`, joins `stage_free` there), and every register
//! fed by it sees it through one or two more (the unit is mostly routing, so levels are few):
//! - what decides is registered a cycle ahead: the staged item's hold decision apart from its
//!   tile's flag (`stage_free`: it may pass unless its flag is set; `stage_stop`: it is held),
//!   the head's readiness (`head_go`: valid, free to leave, no non-tiled flag, no barrier
//!   passed last cycle) and the queue's fill compares (`hold_empty`, `hold_one`, `hold_many`,
//!   `hold_full`, `nontiled_one`, `nontiled_many`). Their next values are computed from this
//!   cycle's registers once per outcome of this cycle (nothing happens, the staged item
//!   passes, it is queued, the head leaves, both of the last two) and the outcome only
//!   selects: a Shannon expansion on the decision, so no compare or AND-OR follows it;
//! - the queue's head item is a register (`head_item`: the successor's item, an AND-OR over
//!   the one-hot successor, or the staged item when it is queued into the head's place), so
//!   the output, the flag write and the head's tile compares read a register;
//! - every tile compare against this cycle's release or flag write is registered a cycle
//!   ahead, per consumer (`slot_relhit`/`slot_pendhit` per hold slot, `stage_*hit`,
//!   `arr_*hit` per arrival slot): from the release input, and from the passing decision
//!   selecting among compares of the staged item's and the head's tiles with the tile the
//!   consumer holds next cycle;
//! - the release input is registered (`rel_*`) for the flag words and the violation check;
//! - an arriving item first waits in one of two arrival slots (a shift queue whose head is
//!   always slot 0 and whose `in_ready` is a register) with the flag byte that holds its
//!   tile's flag (reloaded every cycle from the stored words, so it is the stored byte of one
//!   cycle ago; a byte, not the 32-bit word, so that its bit is two LUT levels; picked by a
//!   one-hot register of the byte's position, `arr_sel`, as an AND-OR over the 32 bytes, not
//!   by compares of the tile's bits, which make a chain of 32 multiplexers) and two bits
//!   registered from last cycle's state: an older item of its tile is queued (an item that
//!   has left the queue since still counts, which only sends the new item through the
//!   queue) and its tile is the staged item's; as it enters the stage its flag is the word's
//!   bit corrected for last cycle's release and flag write (`arr_prev_*hit`) and this
//!   cycle's (`arr_*hit`);
//! - a barrier that passes in cycle t is written into the flag words at the end of t+1
//!   (`pending_set_*`); the staged item and each hold slot fold it into their flag registers
//!   in t+1 (`stage_pendhit`, `slot_pendhit`): the staged item's decision reads its flag and
//!   `stage_pendhit` (a barrier from the stage sets the flag of the item entering behind it;
//!   one from the queue's head has a tile with items queued, so its items are `stage_stop`),
//!   and the queue's head waits in t+1;
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
use crate::widgets::kept_dff::KeptDff;
use rust_hdl::prelude::*;

/// Slots of the hold queue.
pub const HOLD_SLOTS: usize = 8;
// The successor's AND-OR below lists eight slots.
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
    /// The arrival stage, a two-slot shift queue (slot 0 the older item, slot 1 behind it):
    /// the item taken from `in_*`, its tile, the flag byte holding its tile's flag (the
    /// stored byte of one cycle ago, reloaded every cycle) and its tile's bit in that byte.
    arr_valid: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_item: [DFF<ScreenItem>; ARRIVAL_SLOTS],
    arr_tile: [DFF<Bits<TILE_BITS>>; ARRIVAL_SLOTS],
    arr_byte: [DFF<Bits<8>>; ARRIVAL_SLOTS],
    arr_mask: [DFF<Bits<8>>; ARRIVAL_SLOTS],
    /// The slot's flag byte as a one-hot select over the 32 bytes of the flag words (bit
    /// `4 * word + byte`), so that the byte is an AND-OR, not a chain of 32 multiplexers.
    arr_sel: [DFF<Bits<32>>; ARRIVAL_SLOTS],
    /// The input goes into slot 0 (empty, or its item leaves now) or slot 1; slot 1's item
    /// moves up when slot 0's leaves.
    arr_load_head: Signal<Local, Bit>,
    arr_load_second: Signal<Local, Bit>,
    arr_move: Signal<Local, Bit>,
    /// Each slot's registers as they are next cycle if it keeps its item.
    arr_refresh: [Signal<Local, Bits<8>>; ARRIVAL_SLOTS],
    arr_queued_next: [Signal<Local, Bit>; ARRIVAL_SLOTS],
    arr_stage_tile_next: [Signal<Local, Bit>; ARRIVAL_SLOTS],
    arr_relhit_next: [Signal<Local, Bit>; ARRIVAL_SLOTS],
    arr_pendhit_next: [Signal<Local, Bit>; ARRIVAL_SLOTS],
    /// Per arrival slot, registered from last cycle's state: an older item of its tile may
    /// be queued (an item that has left since still counts: it then goes through the queue),
    /// and its tile is the staged item's tile.
    arr_queued: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_stage_tile: [DFF<Bit>; ARRIVAL_SLOTS],
    /// Per arrival slot (0, 1) and hold slot: their tiles are equal (kept as either is
    /// written), so that `arr_queued` is an AND-OR of registers, not eight tile compares.
    arr_hold_match0: [DFF<Bit>; HOLD_SLOTS],
    arr_hold_match1: [DFF<Bit>; HOLD_SLOTS],
    match_next0: [Signal<Local, Bit>; HOLD_SLOTS],
    match_next1: [Signal<Local, Bit>; HOLD_SLOTS],
    in_match: [Signal<Local, Bit>; HOLD_SLOTS],
    in_hold_tile: [Signal<Local, Bit>; HOLD_SLOTS],
    /// Per arrival slot, its tile against this cycle's release (`rel_*`) and flag write
    /// (`pending_set_*`), and against last cycle's (which `arr_byte` does not hold yet); each
    /// registered a cycle ahead, from the release input and the passing decision.
    arr_relhit: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_pendhit: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_prev_relhit: [DFF<Bit>; ARRIVAL_SLOTS],
    arr_prev_pendhit: [DFF<Bit>; ARRIVAL_SLOTS],
    in_queued_new: Signal<Local, Bit>,
    in_stage_tile_new: Signal<Local, Bit>,
    arr_head_queued: Signal<Local, Bit>,
    arr_head_stage_tile: Signal<Local, Bit>,
    arr_head_valid: Signal<Local, Bit>,
    arr_head_item: Signal<Local, ScreenItem>,
    arr_head_tile: Signal<Local, Bits<TILE_BITS>>,
    arr_head_byte: Signal<Local, Bits<8>>,
    arr_head_mask: Signal<Local, Bits<8>>,
    arr_head_relhit: Signal<Local, Bit>,
    arr_head_pendhit: Signal<Local, Bit>,
    arr_head_prev_relhit: Signal<Local, Bit>,
    arr_head_prev_pendhit: Signal<Local, Bit>,
    arr_head_nontiled: Signal<Local, Bit>,
    arr_head_queued_if_queues: Signal<Local, Bit>,
    in_mask: Signal<Local, Bits<8>>,
    in_sel: Signal<Local, Bits<32>>,
    in_relhit: Signal<Local, Bit>,
    in_pendhit: Signal<Local, Bit>,
    in_prev_relhit: Signal<Local, Bit>,
    in_prev_pendhit: Signal<Local, Bit>,
    violation_q: DFF<Bit>,
    /// The violation check's pipeline stage: the release and its flag word.
    chk_valid: DFF<Bit>,
    chk_tiled: DFF<Bit>,
    chk_word: DFF<Bits<32>>,
    chk_mask: DFF<Bits<32>>,
    chk_nontiled_flag: DFF<Bit>,
    chk_end: DFF<Bit>,
    /// The release input, registered in flip-flops of this PROP's own ([`KeptDff`]: every PROP
    /// of a cluster registers the same release, and Yosys would otherwise make the copies one
    /// register driving every PROP's logic across the chip).
    rel_valid: KeptDff<Bit>,
    rel_tiled: KeptDff<Bit>,
    rel_tile: KeptDff<Bits<TILE_BITS>>,
    /// A tiled release at the input (its hits are registered beside `rel_*`).
    release_in_tiled: Signal<Local, Bit>,
    /// The input stage: the item being decided, its tile's flag and whether an older item of
    /// its tile may be queued (both kept current every cycle).
    stage_valid: DFF<Bit>,
    stage_item: DFF<ScreenItem>,
    stage_tile: DFF<Bits<TILE_BITS>>,
    stage_flag: DFF<Bit>,
    stage_queued: DFF<Bit>,
    /// The staged item's tile against this cycle's release and flag write (registered a
    /// cycle ahead).
    stage_relhit: DFF<Bit>,
    stage_pendhit: DFF<Bit>,
    /// The staged item's decision apart from its tile's flag, registered a cycle ahead:
    /// `stage_free` = it may pass unless its flag is set, `stage_stop` = it is held (a
    /// non-tiled flag or queued non-tiled barrier; a non-tiled barrier and a non-empty queue;
    /// an older item of its tile queued). `stage_valid` = `stage_free | stage_stop`.
    stage_free: DFF<Bit>,
    stage_stop: DFF<Bit>,
    /// Each slot's item, by field.
    hold_kind: [DFF<Bits<2>>; HOLD_SLOTS],
    hold_prim: [DFF<Bits<PRIM_BITS>>; HOLD_SLOTS],
    hold_valid: [DFF<Bit>; HOLD_SLOTS],
    /// Each slot's cache tile and whether that tile's flag is set now, and its tile against
    /// this cycle's release and flag write (registered a cycle ahead).
    hold_tile: [DFF<Bits<TILE_BITS>>; HOLD_SLOTS],
    hold_blocked: [DFF<Bit>; HOLD_SLOTS],
    hold_is_nontiled: [DFF<Bit>; HOLD_SLOTS],
    slot_relhit: [DFF<Bit>; HOLD_SLOTS],
    slot_pendhit: [DFF<Bit>; HOLD_SLOTS],
    /// The head pointer and the tail pointer, one-hot.
    hold_head_onehot: DFF<Bits<HOLD_SLOTS>>,
    hold_tail_onehot: DFF<Bits<HOLD_SLOTS>>,
    head_succ_onehot: Signal<Local, Bits<HOLD_SLOTS>>,
    slot_is_head: [Signal<Local, Bit>; HOLD_SLOTS],
    slot_is_succ: [Signal<Local, Bit>; HOLD_SLOTS],
    slot_written: [Signal<Local, Bit>; HOLD_SLOTS],
    slot_blocked_next: [Signal<Local, Bit>; HOLD_SLOTS],
    /// A slot that is neither written nor left this cycle is valid and free to leave next
    /// cycle (a non-tiled barrier, or its tile's flag clear after this cycle's corrections).
    slot_keep_ready: [Signal<Local, Bit>; HOLD_SLOTS],
    succ_part_kind: [Signal<Local, Bits<2>>; HOLD_SLOTS],
    succ_part_prim: [Signal<Local, Bits<PRIM_BITS>>; HOLD_SLOTS],
    succ_part_tile: [Signal<Local, Bits<TILE_BITS>>; HOLD_SLOTS],
    succ_item: Signal<Local, ScreenItem>,
    head_keep_ready: Signal<Local, Bit>,
    succ_keep_ready: Signal<Local, Bit>,
    head_next_ready: Signal<Local, Bit>,
    slot_bit: [Constant<Bits<HOLD_SLOTS>>; HOLD_SLOTS],
    head_wrap_shift: Constant<Bits<HOLD_SLOTS>>,
    /// The hold queue's head item (a copy of its slot, kept a register so that the output
    /// and the flag write select, not search).
    head_item: DFF<ScreenItem>,
    /// The head may leave: valid, free (a non-tiled barrier or its flag clear), no non-tiled
    /// flag and no barrier passed last cycle; registered a cycle ahead.
    head_go: DFF<Bit>,
    hold_count: DFF<Bits<4>>,
    /// `hold_count` == 0, == 1, > 1 and == HOLD_SLOTS, registered with it.
    hold_empty: DFF<Bit>,
    hold_one: DFF<Bit>,
    hold_many: DFF<Bit>,
    hold_full: DFF<Bit>,
    /// Non-tiled barriers in the hold queue: while any is queued, everything is held.
    hold_nontiled: DFF<Bits<4>>,
    /// `hold_nontiled` == 1 and > 1, registered with it.
    nontiled_one: DFF<Bit>,
    nontiled_many: DFF<Bit>,
    out_valid_reg: DFF<Bit>,
    out_item_reg: DFF<ScreenItem>,
    out_free: Signal<Local, Bit>,
    release_tiled_now: Signal<Local, Bit>,
    head_is_nontiled: Signal<Local, Bit>,
    head_is_tiled: Signal<Local, Bit>,
    head_stage_tile: Signal<Local, Bit>,
    head_leaves: Signal<Local, Bit>,
    stage_blocked: Signal<Local, Bit>,
    stage_wants: Signal<Local, Bit>,
    /// The hold queue's head has the output before the staged item (it lost it last time).
    head_turn: DFF<Bit>,
    stage_is_nontiled: Signal<Local, Bit>,
    stage_is_tiled: Signal<Local, Bit>,
    stage_passes: Signal<Local, Bit>,
    stage_queues: Signal<Local, Bit>,
    stage_flag_now: Signal<Local, Bit>,
    stage_free_if_queued: Signal<Local, Bit>,
    hold_grows: Signal<Local, Bit>,
    hold_shrinks: Signal<Local, Bit>,
    nontiled_grows: Signal<Local, Bit>,
    nontiled_shrinks: Signal<Local, Bit>,
    /// The next staged item's decision, per outcome of this cycle (none, the stage passes,
    /// the stage queues, the head leaves, the stage queues and the head leaves).
    nontiled_flag_stays: Signal<Local, Bit>,
    nontiled_queued: Signal<Local, Bit>,
    nontiled_queued_after_head: Signal<Local, Bit>,
    hold_part_none: Signal<Local, Bit>,
    hold_part_stage: Signal<Local, Bit>,
    hold_part_head: Signal<Local, Bit>,
    hold_part_both: Signal<Local, Bit>,
    take_hold_none: Signal<Local, Bit>,
    take_hold_passes: Signal<Local, Bit>,
    take_hold_queues: Signal<Local, Bit>,
    take_hold_head: Signal<Local, Bit>,
    take_hold_both: Signal<Local, Bit>,
    stay_hold_none: Signal<Local, Bit>,
    stay_hold_head: Signal<Local, Bit>,
    stay_queued_part: Signal<Local, Bit>,
    free_none: Signal<Local, Bit>,
    stop_none: Signal<Local, Bit>,
    free_passes: Signal<Local, Bit>,
    stop_passes: Signal<Local, Bit>,
    free_queues: Signal<Local, Bit>,
    stop_queues: Signal<Local, Bit>,
    free_head: Signal<Local, Bit>,
    stop_head: Signal<Local, Bit>,
    free_both: Signal<Local, Bit>,
    stop_both: Signal<Local, Bit>,
    pass_valid: Signal<Local, Bit>,
    pass_item: Signal<Local, ScreenItem>,
    pass_tile: Signal<Local, Bits<TILE_BITS>>,
    pass_is_tiled: Signal<Local, Bit>,
    take_input: Signal<Local, Bit>,
    take_arrival: Signal<Local, Bit>,
    in_tile: Signal<Local, Bits<TILE_BITS>>,
    in_flag_byte: Signal<Local, Bits<8>>,
    in_flag: Signal<Local, Bit>,
    in_queued: Signal<Local, Bit>,
    set_mask: Signal<Local, Bits<32>>,
    clear_mask: Signal<Local, Bits<32>>,
    release_flag_word: Signal<Local, Bits<32>>,
    flag_word_next: [Signal<Local, Bits<32>>; FLAG_WORDS],
    word_index: [Constant<Bits<3>>; FLAG_WORDS],
    byte_index: [Constant<Bits<2>>; 4],
    kind_tiled: Constant<Bits<2>>,
    kind_nontiled: Constant<Bits<2>>,
    kind_end: Constant<Bits<2>>,
    count_two: Constant<Bits<4>>,
    count_almost_full: Constant<Bits<4>>,
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
            arr_byte: std::array::from_fn(|_| Default::default()),
            arr_mask: std::array::from_fn(|_| Default::default()),
            arr_sel: std::array::from_fn(|_| Default::default()),
            arr_load_head: Default::default(),
            arr_load_second: Default::default(),
            arr_move: Default::default(),
            arr_refresh: std::array::from_fn(|_| Default::default()),
            arr_queued_next: std::array::from_fn(|_| Default::default()),
            arr_stage_tile_next: std::array::from_fn(|_| Default::default()),
            arr_relhit_next: std::array::from_fn(|_| Default::default()),
            arr_pendhit_next: std::array::from_fn(|_| Default::default()),
            arr_queued: std::array::from_fn(|_| Default::default()),
            arr_stage_tile: std::array::from_fn(|_| Default::default()),
            arr_hold_match0: std::array::from_fn(|_| Default::default()),
            arr_hold_match1: std::array::from_fn(|_| Default::default()),
            match_next0: std::array::from_fn(|_| Default::default()),
            match_next1: std::array::from_fn(|_| Default::default()),
            in_match: std::array::from_fn(|_| Default::default()),
            in_hold_tile: std::array::from_fn(|_| Default::default()),
            arr_relhit: std::array::from_fn(|_| Default::default()),
            arr_pendhit: std::array::from_fn(|_| Default::default()),
            arr_prev_relhit: std::array::from_fn(|_| Default::default()),
            arr_prev_pendhit: std::array::from_fn(|_| Default::default()),
            in_queued_new: Default::default(),
            in_stage_tile_new: Default::default(),
            arr_head_queued: Default::default(),
            arr_head_stage_tile: Default::default(),
            arr_head_valid: Default::default(),
            arr_head_item: Default::default(),
            arr_head_tile: Default::default(),
            arr_head_byte: Default::default(),
            arr_head_mask: Default::default(),
            arr_head_relhit: Default::default(),
            arr_head_pendhit: Default::default(),
            arr_head_prev_relhit: Default::default(),
            arr_head_prev_pendhit: Default::default(),
            arr_head_nontiled: Default::default(),
            arr_head_queued_if_queues: Default::default(),
            in_mask: Default::default(),
            in_sel: Default::default(),
            in_relhit: Default::default(),
            in_pendhit: Default::default(),
            in_prev_relhit: Default::default(),
            in_prev_pendhit: Default::default(),
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
            release_in_tiled: Default::default(),
            stage_valid: Default::default(),
            stage_item: Default::default(),
            stage_tile: Default::default(),
            stage_flag: Default::default(),
            stage_queued: Default::default(),
            stage_relhit: Default::default(),
            stage_pendhit: Default::default(),
            stage_free: Default::default(),
            stage_stop: Default::default(),
            hold_kind: std::array::from_fn(|_| Default::default()),
            hold_prim: std::array::from_fn(|_| Default::default()),
            hold_valid: std::array::from_fn(|_| Default::default()),
            hold_tile: std::array::from_fn(|_| Default::default()),
            hold_blocked: std::array::from_fn(|_| Default::default()),
            hold_is_nontiled: std::array::from_fn(|_| Default::default()),
            slot_relhit: std::array::from_fn(|_| Default::default()),
            slot_pendhit: std::array::from_fn(|_| Default::default()),
            hold_head_onehot: Default::default(),
            hold_tail_onehot: Default::default(),
            head_succ_onehot: Default::default(),
            slot_is_head: std::array::from_fn(|_| Default::default()),
            slot_is_succ: std::array::from_fn(|_| Default::default()),
            slot_written: std::array::from_fn(|_| Default::default()),
            slot_blocked_next: std::array::from_fn(|_| Default::default()),
            slot_keep_ready: std::array::from_fn(|_| Default::default()),
            succ_part_kind: std::array::from_fn(|_| Default::default()),
            succ_part_prim: std::array::from_fn(|_| Default::default()),
            succ_part_tile: std::array::from_fn(|_| Default::default()),
            succ_item: Default::default(),
            head_keep_ready: Default::default(),
            succ_keep_ready: Default::default(),
            head_next_ready: Default::default(),
            slot_bit: std::array::from_fn(|i| Constant::new(bits::<HOLD_SLOTS>(1 << i))),
            head_wrap_shift: Constant::new(bits::<HOLD_SLOTS>(HOLD_SLOTS as u64 - 1)),
            head_item: Default::default(),
            head_go: Default::default(),
            hold_count: Default::default(),
            hold_empty: Default::default(),
            hold_one: Default::default(),
            hold_many: Default::default(),
            hold_full: Default::default(),
            hold_nontiled: Default::default(),
            nontiled_one: Default::default(),
            nontiled_many: Default::default(),
            out_valid_reg: Default::default(),
            out_item_reg: Default::default(),
            out_free: Default::default(),
            release_tiled_now: Default::default(),
            head_is_nontiled: Default::default(),
            head_is_tiled: Default::default(),
            head_stage_tile: Default::default(),
            head_leaves: Default::default(),
            stage_blocked: Default::default(),
            stage_wants: Default::default(),
            head_turn: Default::default(),
            stage_is_nontiled: Default::default(),
            stage_is_tiled: Default::default(),
            stage_passes: Default::default(),
            stage_queues: Default::default(),
            stage_flag_now: Default::default(),
            stage_free_if_queued: Default::default(),
            hold_grows: Default::default(),
            hold_shrinks: Default::default(),
            nontiled_grows: Default::default(),
            nontiled_shrinks: Default::default(),
            nontiled_flag_stays: Default::default(),
            nontiled_queued: Default::default(),
            nontiled_queued_after_head: Default::default(),
            hold_part_none: Default::default(),
            hold_part_stage: Default::default(),
            hold_part_head: Default::default(),
            hold_part_both: Default::default(),
            take_hold_none: Default::default(),
            take_hold_passes: Default::default(),
            take_hold_queues: Default::default(),
            take_hold_head: Default::default(),
            take_hold_both: Default::default(),
            stay_hold_none: Default::default(),
            stay_hold_head: Default::default(),
            stay_queued_part: Default::default(),
            free_none: Default::default(),
            stop_none: Default::default(),
            free_passes: Default::default(),
            stop_passes: Default::default(),
            free_queues: Default::default(),
            stop_queues: Default::default(),
            free_head: Default::default(),
            stop_head: Default::default(),
            free_both: Default::default(),
            stop_both: Default::default(),
            pass_valid: Default::default(),
            pass_item: Default::default(),
            pass_tile: Default::default(),
            pass_is_tiled: Default::default(),
            take_input: Default::default(),
            take_arrival: Default::default(),
            in_tile: Default::default(),
            in_flag_byte: Default::default(),
            in_flag: Default::default(),
            in_queued: Default::default(),
            set_mask: Default::default(),
            clear_mask: Default::default(),
            release_flag_word: Default::default(),
            flag_word_next: std::array::from_fn(|_| Default::default()),
            word_index: std::array::from_fn(|i| Constant::new(bits::<3>(i as u64))),
            byte_index: std::array::from_fn(|i| Constant::new(bits::<2>(i as u64))),
            kind_tiled: Constant::new(bits::<2>(KIND_TILED_BARRIER)),
            kind_nontiled: Constant::new(bits::<2>(KIND_NONTILED_BARRIER)),
            kind_end: Constant::new(bits::<2>(KIND_END)),
            count_two: Constant::new(bits::<4>(2)),
            count_almost_full: Constant::new(bits::<4>(HOLD_SLOTS as u64 - 1)),
        }
    }
}

impl Logic for Prop {
    /// Long because one `#[hdl_gen]` function holds the whole unit: the arrival slots, the
    /// stage, the hold queue, the flags, the registered hits and the next decision per outcome.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            nontiled_flag,
            pending_set_valid,
            pending_set_tile,
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
            stage_valid,
            stage_item,
            stage_tile,
            stage_flag,
            stage_queued,
            stage_relhit,
            stage_pendhit,
            stage_free,
            stage_stop,
            hold_head_onehot,
            hold_tail_onehot,
            head_item,
            head_go,
            hold_count,
            hold_empty,
            hold_one,
            hold_many,
            hold_full,
            hold_nontiled,
            nontiled_one,
            nontiled_many,
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
            self.arr_byte[k].clock.next = self.clock.val();
            self.arr_queued[k].clock.next = self.clock.val();
            self.arr_stage_tile[k].clock.next = self.clock.val();
            self.arr_mask[k].clock.next = self.clock.val();
            self.arr_mask[k].d.next = self.arr_mask[k].q.val();
            self.arr_sel[k].clock.next = self.clock.val();
            self.arr_sel[k].d.next = self.arr_sel[k].q.val();
            self.arr_relhit[k].clock.next = self.clock.val();
            self.arr_pendhit[k].clock.next = self.clock.val();
            self.arr_prev_relhit[k].clock.next = self.clock.val();
            self.arr_prev_pendhit[k].clock.next = self.clock.val();
        }
        // The older arrival item (slot 0).
        self.arr_head_valid.next = self.arr_valid[0].q.val();
        self.arr_head_item.next = self.arr_item[0].q.val();
        self.arr_head_tile.next = self.arr_tile[0].q.val();
        self.arr_head_byte.next = self.arr_byte[0].q.val();
        self.arr_head_queued.next = self.arr_queued[0].q.val();
        self.arr_head_stage_tile.next = self.arr_stage_tile[0].q.val();
        self.arr_head_mask.next = self.arr_mask[0].q.val();
        self.arr_head_relhit.next = self.arr_relhit[0].q.val();
        self.arr_head_pendhit.next = self.arr_pendhit[0].q.val();
        self.arr_head_prev_relhit.next = self.arr_prev_relhit[0].q.val();
        self.arr_head_prev_pendhit.next = self.arr_prev_pendhit[0].q.val();
        for i in 0..HOLD_SLOTS {
            self.hold_kind[i].clock.next = self.clock.val();
            self.hold_kind[i].d.next = self.hold_kind[i].q.val();
            self.hold_prim[i].clock.next = self.clock.val();
            self.hold_prim[i].d.next = self.hold_prim[i].q.val();
            self.hold_valid[i].clock.next = self.clock.val();
            self.hold_tile[i].clock.next = self.clock.val();
            self.hold_tile[i].d.next = self.hold_tile[i].q.val();
            self.hold_blocked[i].clock.next = self.clock.val();
            self.hold_is_nontiled[i].clock.next = self.clock.val();
            self.slot_relhit[i].clock.next = self.clock.val();
            self.slot_pendhit[i].clock.next = self.clock.val();
            self.arr_hold_match0[i].clock.next = self.clock.val();
            self.arr_hold_match1[i].clock.next = self.clock.val();
        }
        // The output register is free, or its item leaves this cycle.
        self.out_free.next = !self.out_valid_reg.q.val() | self.out_ready.val();
        // The release is registered at the input: every use of it starts at a register.
        self.rel_valid.d.next = self.release_valid.val();
        self.rel_tiled.d.next = self.release_tiled.val();
        self.rel_tile.d.next = self.release_tile.val();
        self.release_tiled_now.next = self.rel_valid.q.val() & self.rel_tiled.q.val();
        self.release_in_tiled.next = self.release_valid.val() & self.release_tiled.val();
        self.head_is_nontiled.next = self.head_item.q.val().kind == self.kind_nontiled.val();
        self.head_is_tiled.next = self.head_item.q.val().kind == self.kind_tiled.val();
        self.head_stage_tile.next = self.head_item.q.val().tile == self.stage_tile.q.val();
        self.stage_is_nontiled.next = self.stage_item.q.val().kind == self.kind_nontiled.val();
        self.stage_is_tiled.next = self.stage_item.q.val().kind == self.kind_tiled.val();
        // The decision: every input is a register. The staged item is held by its tile's
        // flag, including the flag written at this edge (`stage_pendhit`: a barrier that
        // passed from the stage last cycle with the staged item's tile; one that passed from
        // the head has a tile with items queued, so the item is `stage_stop` anyway).
        self.stage_blocked.next =
            !self.stage_is_nontiled.val() & (self.stage_flag.q.val() | self.stage_pendhit.q.val());
        self.stage_wants.next = self.stage_free.q.val() & !self.stage_blocked.val();
        // The output goes to the staged item unless it is the head's turn.
        self.stage_passes.next =
            self.stage_wants.val() & !self.head_turn.q.val() & self.out_free.val();
        self.head_leaves.next = self.head_go.q.val()
            & self.out_free.val()
            & (self.head_turn.q.val() | !self.stage_wants.val());
        // A head that lost the output to the staged item gets it next time.
        self.head_turn.d.next = self.head_go.q.val()
            & self.out_free.val()
            & self.stage_wants.val()
            & !self.head_turn.q.val();
        self.stage_queues.next = (self.stage_stop.q.val()
            | (self.stage_free.q.val() & self.stage_blocked.val()))
            & !self.hold_full.q.val();
        // The arrival item moves into the stage when the stage is free or its item leaves.
        self.take_arrival.next = self.arr_head_valid.val()
            & (!self.stage_valid.q.val() | self.stage_passes.val() | self.stage_queues.val());
        // A free arrival slot takes the input (a registered ready).
        self.in_ready.next = !self.arr_valid[1].q.val();
        self.take_input.next = self.in_valid.val() & self.in_ready.val();
        // What passes this cycle.
        self.pass_valid.next = self.head_leaves.val() | self.stage_passes.val();
        self.pass_item.next = self.stage_item.q.val();
        if self.head_leaves.val() {
            self.pass_item.next = self.head_item.q.val();
        }
        self.pass_tile.next = self.pass_item.val().tile;
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
        // The staged item's flag, current after this cycle's release and flag write.
        self.stage_flag_now.next =
            (self.stage_flag.q.val() & !self.stage_relhit.q.val()) | self.stage_pendhit.q.val();
        // The arriving item: its tile's flag (its word, last cycle's release and flag write,
        // this cycle's) and whether an older item of its tile is queued.
        self.in_flag.next = (((self.arr_head_byte.val() & self.arr_head_mask.val()).any()
            & !self.arr_head_prev_relhit.val())
            | self.arr_head_prev_pendhit.val()
            | self.arr_head_pendhit.val())
            & !self.arr_head_relhit.val();
        self.in_queued.next =
            self.arr_head_queued.val() | (self.stage_queues.val() & self.arr_head_stage_tile.val());
        // The staged item's hits for the next cycle: the release at the input, and the
        // barrier passing now (from the stage, or the head with its tile).
        self.stage_relhit.d.next =
            self.release_in_tiled.val() & (self.release_tile.val() == self.stage_tile.q.val());
        self.stage_pendhit.d.next = (self.stage_passes.val() & self.stage_is_tiled.val())
            | (self.head_leaves.val() & self.head_is_tiled.val() & self.head_stage_tile.val());
        if self.take_arrival.val() {
            self.stage_valid.d.next = true;
            self.stage_item.d.next = self.arr_head_item.val();
            self.stage_tile.d.next = self.arr_head_tile.val();
            self.stage_flag.d.next = self.in_flag.val();
            self.stage_queued.d.next = self.in_queued.val();
            self.stage_relhit.d.next =
                self.release_in_tiled.val() & (self.release_tile.val() == self.arr_head_tile.val());
            self.stage_pendhit.d.next = (self.stage_passes.val()
                & self.stage_is_tiled.val()
                & self.arr_head_stage_tile.val())
                | (self.head_leaves.val()
                    & self.head_is_tiled.val()
                    & (self.head_item.q.val().tile == self.arr_head_tile.val()));
        } else if self.stage_passes.val() | self.stage_queues.val() {
            self.stage_valid.d.next = false;
        } else {
            self.stage_flag.d.next = self.stage_flag_now.val();
        }
        // The hold queue: every slot keeps its tile's flag current.
        self.head_succ_onehot.next = (self.hold_head_onehot.q.val() << bits::<HOLD_SLOTS>(1))
            | (self.hold_head_onehot.q.val() >> self.head_wrap_shift.val());
        self.head_keep_ready.next = false;
        self.succ_keep_ready.next = false;
        for i in 0..HOLD_SLOTS {
            self.slot_is_head[i].next =
                (self.hold_head_onehot.q.val() & self.slot_bit[i].val()).any();
            self.slot_is_succ[i].next =
                (self.head_succ_onehot.val() & self.slot_bit[i].val()).any();
            self.slot_written[i].next = self.stage_queues.val()
                & (self.hold_tail_onehot.q.val() & self.slot_bit[i].val()).any();
            self.slot_blocked_next[i].next = (self.hold_blocked[i].q.val()
                & !self.slot_relhit[i].q.val())
                | self.slot_pendhit[i].q.val();
            self.slot_keep_ready[i].next = self.hold_valid[i].q.val()
                & (self.hold_is_nontiled[i].q.val() | !self.slot_blocked_next[i].val());
            if self.slot_is_head[i].val() & self.slot_keep_ready[i].val() {
                self.head_keep_ready.next = true;
            }
            if self.slot_is_succ[i].val() & self.slot_keep_ready[i].val() {
                self.succ_keep_ready.next = true;
            }
            self.succ_part_kind[i].next = bits::<2>(0);
            self.succ_part_prim[i].next = bits::<PRIM_BITS>(0);
            self.succ_part_tile[i].next = bits::<TILE_BITS>(0);
            if self.slot_is_succ[i].val() {
                self.succ_part_kind[i].next = self.hold_kind[i].q.val();
                self.succ_part_prim[i].next = self.hold_prim[i].q.val();
                self.succ_part_tile[i].next = self.hold_tile[i].q.val();
            }
            self.hold_valid[i].d.next =
                self.hold_valid[i].q.val() & !(self.head_leaves.val() & self.slot_is_head[i].val());
            self.hold_blocked[i].d.next = self.slot_blocked_next[i].val();
            self.hold_is_nontiled[i].d.next = self.hold_is_nontiled[i].q.val();
            self.slot_relhit[i].d.next = self.release_in_tiled.val()
                & (self.release_tile.val() == self.hold_tile[i].q.val());
            self.slot_pendhit[i].d.next = (self.head_leaves.val()
                & self.head_is_tiled.val()
                & (self.head_item.q.val().tile == self.hold_tile[i].q.val()))
                | (self.stage_passes.val()
                    & self.stage_is_tiled.val()
                    & (self.stage_tile.q.val() == self.hold_tile[i].q.val()));
            if self.slot_written[i].val() {
                self.hold_valid[i].d.next = true;
                self.hold_kind[i].d.next = self.stage_item.q.val().kind;
                self.hold_prim[i].d.next = self.stage_item.q.val().prim;
                self.hold_tile[i].d.next = self.stage_tile.q.val();
                self.hold_blocked[i].d.next = self.stage_flag_now.val();
                self.hold_is_nontiled[i].d.next = self.stage_is_nontiled.val();
                self.slot_relhit[i].d.next = self.release_in_tiled.val()
                    & (self.release_tile.val() == self.stage_tile.q.val());
                self.slot_pendhit[i].d.next =
                    self.head_leaves.val() & self.head_is_tiled.val() & self.head_stage_tile.val();
            }
        }
        self.succ_item.next.kind = self.succ_part_kind[0].val()
            | self.succ_part_kind[1].val()
            | self.succ_part_kind[2].val()
            | self.succ_part_kind[3].val()
            | self.succ_part_kind[4].val()
            | self.succ_part_kind[5].val()
            | self.succ_part_kind[6].val()
            | self.succ_part_kind[7].val();
        self.succ_item.next.prim = self.succ_part_prim[0].val()
            | self.succ_part_prim[1].val()
            | self.succ_part_prim[2].val()
            | self.succ_part_prim[3].val()
            | self.succ_part_prim[4].val()
            | self.succ_part_prim[5].val()
            | self.succ_part_prim[6].val()
            | self.succ_part_prim[7].val();
        self.succ_item.next.tile = self.succ_part_tile[0].val()
            | self.succ_part_tile[1].val()
            | self.succ_part_tile[2].val()
            | self.succ_part_tile[3].val()
            | self.succ_part_tile[4].val()
            | self.succ_part_tile[5].val()
            | self.succ_part_tile[6].val()
            | self.succ_part_tile[7].val();
        // The head item next cycle: its successor, or the staged item when that is queued
        // into the head's place (valid only when the queue is not empty).
        if self.head_leaves.val() {
            self.head_item.d.next = self.succ_item.val();
            if self.hold_one.q.val() {
                self.head_item.d.next = self.stage_item.q.val();
            }
        } else if self.hold_empty.q.val() {
            self.head_item.d.next = self.stage_item.q.val();
        }
        if self.head_leaves.val() {
            self.hold_head_onehot.d.next = self.head_succ_onehot.val();
        }
        if self.stage_queues.val() {
            self.hold_tail_onehot.d.next = (self.hold_tail_onehot.q.val() << bits::<HOLD_SLOTS>(1))
                | (self.hold_tail_onehot.q.val() >> self.head_wrap_shift.val());
        }
        // The queue's fill and its compares, registered together.
        self.hold_grows.next = self.stage_queues.val() & !self.head_leaves.val();
        self.hold_shrinks.next = !self.stage_queues.val() & self.head_leaves.val();
        if self.hold_grows.val() {
            self.hold_count.d.next = self.hold_count.q.val() + bits::<4>(1);
            self.hold_empty.d.next = false;
            self.hold_one.d.next = self.hold_empty.q.val();
            self.hold_many.d.next = !self.hold_empty.q.val();
            self.hold_full.d.next = self.hold_count.q.val() == self.count_almost_full.val();
        }
        if self.hold_shrinks.val() {
            self.hold_count.d.next = self.hold_count.q.val() - bits::<4>(1);
            self.hold_empty.d.next = self.hold_one.q.val();
            self.hold_one.d.next = self.hold_count.q.val() == self.count_two.val();
            self.hold_many.d.next = self.hold_count.q.val() > self.count_two.val();
            self.hold_full.d.next = false;
        }
        self.nontiled_grows.next = (self.stage_queues.val() & self.stage_is_nontiled.val())
            & !(self.head_leaves.val() & self.head_is_nontiled.val());
        self.nontiled_shrinks.next = !(self.stage_queues.val() & self.stage_is_nontiled.val())
            & (self.head_leaves.val() & self.head_is_nontiled.val());
        if self.nontiled_grows.val() {
            self.hold_nontiled.d.next = self.hold_nontiled.q.val() + bits::<4>(1);
            self.nontiled_one.d.next = !self.nontiled_one.q.val() & !self.nontiled_many.q.val();
            self.nontiled_many.d.next = self.nontiled_one.q.val() | self.nontiled_many.q.val();
        }
        if self.nontiled_shrinks.val() {
            self.hold_nontiled.d.next = self.hold_nontiled.q.val() - bits::<4>(1);
            self.nontiled_one.d.next = self.hold_nontiled.q.val() == self.count_two.val();
            self.nontiled_many.d.next = self.hold_nontiled.q.val() > self.count_two.val();
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
        // The arrival stage: its flag byte is the stored byte one cycle ago; the release and
        // the barrier flag written in that cycle are its `arr_prev_*` hits.
        self.in_tile.next = self.in_item.val().tile;
        self.in_mask.next = bits::<8>(1) << self.in_tile.val().get_bits::<3>(0);
        self.in_sel.next = bits::<32>(1) << self.in_tile.val().get_bits::<5>(3);
        // The input's byte by its tile's bits (the input is a register, and a select tree
        // from it is shorter than the decode and the AND-OR the arrival slots use).
        self.in_flag_byte.next = bits::<8>(0);
        for w in 0..FLAG_WORDS {
            if self.in_tile.val().get_bits::<3>(5) == self.word_index[w].val() {
                if self.in_tile.val().get_bits::<2>(3) == self.byte_index[0].val() {
                    self.in_flag_byte.next = self.tile_flags[w].q.val().get_bits::<8>(0);
                }
                if self.in_tile.val().get_bits::<2>(3) == self.byte_index[1].val() {
                    self.in_flag_byte.next = self.tile_flags[w].q.val().get_bits::<8>(8);
                }
                if self.in_tile.val().get_bits::<2>(3) == self.byte_index[2].val() {
                    self.in_flag_byte.next = self.tile_flags[w].q.val().get_bits::<8>(16);
                }
                if self.in_tile.val().get_bits::<2>(3) == self.byte_index[3].val() {
                    self.in_flag_byte.next = self.tile_flags[w].q.val().get_bits::<8>(24);
                }
            }
        }
        self.in_queued_new.next =
            self.stage_queues.val() & (self.stage_tile.q.val() == self.in_tile.val());
        for i in 0..HOLD_SLOTS {
            self.in_hold_tile[i].next = self.hold_tile[i].q.val() == self.in_tile.val();
            if self.hold_valid[i].q.val() & self.in_hold_tile[i].val() {
                self.in_queued_new.next = true;
            }
            // The match bits as they are next cycle: a written hold slot takes the staged
            // item's tile.
            self.in_match[i].next = self.in_hold_tile[i].val();
            self.match_next0[i].next = self.arr_hold_match0[i].q.val();
            self.match_next1[i].next = self.arr_hold_match1[i].q.val();
            if self.slot_written[i].val() {
                self.in_match[i].next = self.stage_tile.q.val() == self.in_tile.val();
                self.match_next0[i].next = self.arr_stage_tile[0].q.val();
                self.match_next1[i].next = self.arr_stage_tile[1].q.val();
            }
            self.arr_hold_match0[i].d.next = self.match_next0[i].val();
            self.arr_hold_match1[i].d.next = self.match_next1[i].val();
        }
        self.in_stage_tile_new.next = self.stage_tile.q.val() == self.in_tile.val();
        if self.take_arrival.val() {
            self.in_stage_tile_new.next = self.arr_head_tile.val() == self.in_tile.val();
        }
        self.in_relhit.next =
            self.release_in_tiled.val() & (self.release_tile.val() == self.in_tile.val());
        self.in_pendhit.next = (self.head_leaves.val()
            & self.head_is_tiled.val()
            & (self.head_item.q.val().tile == self.in_tile.val()))
            | (self.stage_passes.val()
                & self.stage_is_tiled.val()
                & (self.stage_tile.q.val() == self.in_tile.val()));
        self.in_prev_relhit.next =
            self.release_tiled_now.val() & (self.rel_tile.q.val() == self.in_tile.val());
        self.in_prev_pendhit.next =
            self.pending_set_valid.q.val() & (self.pending_set_tile.q.val() == self.in_tile.val());
        for k in 0..ARRIVAL_SLOTS {
            self.arr_refresh[k].next = bits::<8>(0);
            for w in 0..FLAG_WORDS {
                for b in 0..4 {
                    if self.arr_sel[k].q.val().get_bit(4 * w + b) {
                        self.arr_refresh[k].next = self.arr_refresh[k].val()
                            | self.tile_flags[w].q.val().get_bits::<8>(8 * b);
                    }
                }
            }
            // An older item of the slot's tile in the queue or joining it now (from this
            // cycle's registers: an item leaving the queue now still counts), and whether the
            // staged item next cycle has the slot's tile.
            // (Computed for the slot's own tile and for the input's, selected last.)
            self.arr_queued_next[k].next = self.stage_queues.val() & self.arr_stage_tile[k].q.val();
            self.arr_stage_tile_next[k].next = self.stage_tile.q.val() == self.arr_tile[k].q.val();
            if self.take_arrival.val() {
                self.arr_stage_tile_next[k].next =
                    self.arr_head_tile.val() == self.arr_tile[k].q.val();
            }
            // The slot's hits next cycle (this cycle's become last cycle's).
            self.arr_relhit_next[k].next =
                self.release_in_tiled.val() & (self.release_tile.val() == self.arr_tile[k].q.val());
            self.arr_pendhit_next[k].next = (self.head_leaves.val()
                & self.head_is_tiled.val()
                & (self.head_item.q.val().tile == self.arr_tile[k].q.val()))
                | (self.stage_passes.val()
                    & self.stage_is_tiled.val()
                    & self.arr_stage_tile[k].q.val());
        }
        for i in 0..HOLD_SLOTS {
            if self.hold_valid[i].q.val() & self.arr_hold_match0[i].q.val() {
                self.arr_queued_next[0].next = true;
            }
            if self.hold_valid[i].q.val() & self.arr_hold_match1[i].q.val() {
                self.arr_queued_next[1].next = true;
            }
        }
        // The shift queue: the input is loaded into slot 0 when it is empty or its item
        // leaves now (slot 1 is then empty: the input is taken only then), else into slot 1;
        // slot 1's item moves into slot 0 when slot 0's leaves. Only the valid bits depend on
        // the input's handshake: an empty slot's other registers take the input anyway.
        self.arr_load_head.next =
            self.take_input.val() & (!self.arr_valid[0].q.val() | self.take_arrival.val());
        self.arr_load_second.next =
            self.take_input.val() & self.arr_valid[0].q.val() & !self.take_arrival.val();
        self.arr_move.next = self.take_arrival.val() & self.arr_valid[1].q.val();
        self.arr_valid[0].d.next = (self.arr_valid[0].q.val() & !self.take_arrival.val())
            | self.arr_move.val()
            | self.arr_load_head.val();
        self.arr_valid[1].d.next =
            (self.arr_valid[1].q.val() & !self.take_arrival.val()) | self.arr_load_second.val();
        for k in 0..ARRIVAL_SLOTS {
            self.arr_byte[k].d.next = self.arr_refresh[k].val();
            self.arr_queued[k].d.next = self.arr_queued_next[k].val();
            self.arr_stage_tile[k].d.next = self.arr_stage_tile_next[k].val();
            self.arr_relhit[k].d.next = self.arr_relhit_next[k].val();
            self.arr_pendhit[k].d.next = self.arr_pendhit_next[k].val();
            self.arr_prev_relhit[k].d.next = self.arr_relhit[k].q.val();
            self.arr_prev_pendhit[k].d.next = self.arr_pendhit[k].q.val();
        }
        if !self.arr_valid[1].q.val() {
            self.arr_item[1].d.next = self.in_item.val();
            self.arr_tile[1].d.next = self.in_tile.val();
            self.arr_mask[1].d.next = self.in_mask.val();
            self.arr_sel[1].d.next = self.in_sel.val();
            self.arr_byte[1].d.next = self.in_flag_byte.val();
            self.arr_queued[1].d.next = self.in_queued_new.val();
            self.arr_stage_tile[1].d.next = self.in_stage_tile_new.val();
            self.arr_relhit[1].d.next = self.in_relhit.val();
            self.arr_pendhit[1].d.next = self.in_pendhit.val();
            self.arr_prev_relhit[1].d.next = self.in_prev_relhit.val();
            self.arr_prev_pendhit[1].d.next = self.in_prev_pendhit.val();
            for i in 0..HOLD_SLOTS {
                self.arr_hold_match1[i].d.next = self.in_match[i].val();
            }
        }
        // Slot 0 takes slot 1's item or the input when its item leaves or it is empty (the
        // leaving selects last; which of the two, slot 1's valid bit).
        if self.take_arrival.val() | !self.arr_valid[0].q.val() {
            if self.arr_valid[1].q.val() {
                self.arr_item[0].d.next = self.arr_item[1].q.val();
                self.arr_tile[0].d.next = self.arr_tile[1].q.val();
                self.arr_mask[0].d.next = self.arr_mask[1].q.val();
                self.arr_sel[0].d.next = self.arr_sel[1].q.val();
                self.arr_byte[0].d.next = self.arr_refresh[1].val();
                self.arr_queued[0].d.next = self.arr_queued_next[1].val();
                self.arr_stage_tile[0].d.next = self.arr_stage_tile_next[1].val();
                self.arr_relhit[0].d.next = self.arr_relhit_next[1].val();
                self.arr_pendhit[0].d.next = self.arr_pendhit_next[1].val();
                self.arr_prev_relhit[0].d.next = self.arr_relhit[1].q.val();
                self.arr_prev_pendhit[0].d.next = self.arr_pendhit[1].q.val();
                for i in 0..HOLD_SLOTS {
                    self.arr_hold_match0[i].d.next = self.match_next1[i].val();
                }
            } else {
                self.arr_item[0].d.next = self.in_item.val();
                self.arr_tile[0].d.next = self.in_tile.val();
                self.arr_mask[0].d.next = self.in_mask.val();
                self.arr_sel[0].d.next = self.in_sel.val();
                self.arr_byte[0].d.next = self.in_flag_byte.val();
                self.arr_queued[0].d.next = self.in_queued_new.val();
                self.arr_stage_tile[0].d.next = self.in_stage_tile_new.val();
                self.arr_relhit[0].d.next = self.in_relhit.val();
                self.arr_pendhit[0].d.next = self.in_pendhit.val();
                self.arr_prev_relhit[0].d.next = self.in_prev_relhit.val();
                self.arr_prev_pendhit[0].d.next = self.in_prev_pendhit.val();
                for i in 0..HOLD_SLOTS {
                    self.arr_hold_match0[i].d.next = self.in_match[i].val();
                }
            }
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
        // The head's readiness next cycle: its successor's when it leaves, its own otherwise,
        // or the staged item's when that is queued into the head's place; no non-tiled flag
        // and no barrier passing now (its flag is written next cycle, the slots see it after).
        self.stage_free_if_queued.next = self.stage_is_nontiled.val() | !self.stage_flag_now.val();
        self.head_next_ready.next = self.head_keep_ready.val()
            | (self.stage_queues.val() & self.hold_empty.q.val() & self.stage_free_if_queued.val());
        if self.head_leaves.val() {
            self.head_next_ready.next = self.succ_keep_ready.val()
                | (self.stage_queues.val()
                    & self.hold_one.q.val()
                    & self.stage_free_if_queued.val());
        }
        // The staged item's decision next cycle, per outcome of this cycle (each from this
        // cycle's registers), selected by the outcome: the item staged next (the arrival
        // item when it is taken, else the staged item staying) is held by the non-tiled flag
        // or a non-tiled barrier queued (after this cycle's changes), as a non-tiled barrier
        // by a non-empty queue, and by an older item of its tile queued.
        self.arr_head_nontiled.next = self.arr_head_item.val().kind == self.kind_nontiled.val();
        self.arr_head_queued_if_queues.next =
            self.arr_head_queued.val() | self.arr_head_stage_tile.val();
        self.nontiled_flag_stays.next =
            self.nontiled_flag.q.val() & !(self.rel_valid.q.val() & !self.rel_tiled.q.val());
        self.nontiled_queued.next = self.nontiled_one.q.val() | self.nontiled_many.q.val();
        self.nontiled_queued_after_head.next =
            self.nontiled_many.q.val() | (self.nontiled_one.q.val() & !self.head_is_nontiled.val());
        self.hold_part_none.next = self.nontiled_flag_stays.val() | self.nontiled_queued.val();
        self.hold_part_stage.next = self.hold_part_none.val() | self.stage_is_nontiled.val();
        self.hold_part_head.next = self.nontiled_flag_stays.val()
            | self.head_is_nontiled.val()
            | self.nontiled_queued_after_head.val();
        self.hold_part_both.next = self.hold_part_head.val() | self.stage_is_nontiled.val();
        // (The arrival item taken.)
        self.take_hold_none.next =
            self.hold_part_none.val() | (self.arr_head_nontiled.val() & !self.hold_empty.q.val());
        self.take_hold_passes.next =
            self.hold_part_stage.val() | (self.arr_head_nontiled.val() & !self.hold_empty.q.val());
        self.take_hold_queues.next = self.hold_part_stage.val() | self.arr_head_nontiled.val();
        self.take_hold_head.next =
            self.hold_part_head.val() | (self.arr_head_nontiled.val() & self.hold_many.q.val());
        self.take_hold_both.next = self.hold_part_both.val() | self.arr_head_nontiled.val();
        // (The staged item staying.)
        self.stay_hold_none.next =
            self.hold_part_none.val() | (self.stage_is_nontiled.val() & !self.hold_empty.q.val());
        self.stay_hold_head.next =
            self.hold_part_head.val() | (self.stage_is_nontiled.val() & self.hold_many.q.val());
        self.stay_queued_part.next = !self.stage_is_nontiled.val() & self.stage_queued.q.val();
        // Nothing happens: the staged item stays, or the arrival item is taken.
        self.free_none.next = self.arr_head_valid.val()
            & !self.take_hold_none.val()
            & (self.arr_head_nontiled.val() | !self.arr_head_queued.val());
        self.stop_none.next = self.arr_head_valid.val()
            & (self.take_hold_none.val()
                | (!self.arr_head_nontiled.val() & self.arr_head_queued.val()));
        if self.stage_valid.q.val() {
            self.free_none.next = !self.stay_hold_none.val() & !self.stay_queued_part.val();
            self.stop_none.next = self.stay_hold_none.val() | self.stay_queued_part.val();
        }
        // The staged item passes.
        self.free_passes.next = self.arr_head_valid.val()
            & !self.take_hold_passes.val()
            & (self.arr_head_nontiled.val() | !self.arr_head_queued.val());
        self.stop_passes.next = self.arr_head_valid.val()
            & (self.take_hold_passes.val()
                | (!self.arr_head_nontiled.val() & self.arr_head_queued.val()));
        // The staged item is queued.
        self.free_queues.next = self.arr_head_valid.val()
            & !self.take_hold_queues.val()
            & (self.arr_head_nontiled.val() | !self.arr_head_queued_if_queues.val());
        self.stop_queues.next = self.arr_head_valid.val()
            & (self.take_hold_queues.val()
                | (!self.arr_head_nontiled.val() & self.arr_head_queued_if_queues.val()));
        // The head leaves: the staged item stays, or the arrival item is taken.
        self.free_head.next = self.arr_head_valid.val()
            & !self.take_hold_head.val()
            & (self.arr_head_nontiled.val() | !self.arr_head_queued.val());
        self.stop_head.next = self.arr_head_valid.val()
            & (self.take_hold_head.val()
                | (!self.arr_head_nontiled.val() & self.arr_head_queued.val()));
        if self.stage_valid.q.val() {
            self.free_head.next = !self.stay_hold_head.val() & !self.stay_queued_part.val();
            self.stop_head.next = self.stay_hold_head.val() | self.stay_queued_part.val();
        }
        // The staged item is queued and the head leaves.
        self.free_both.next = self.arr_head_valid.val()
            & !self.take_hold_both.val()
            & (self.arr_head_nontiled.val() | !self.arr_head_queued_if_queues.val());
        self.stop_both.next = self.arr_head_valid.val()
            & (self.take_hold_both.val()
                | (!self.arr_head_nontiled.val() & self.arr_head_queued_if_queues.val()));
        self.stage_free.d.next = self.free_none.val();
        self.stage_stop.d.next = self.stop_none.val();
        if self.head_leaves.val() {
            self.stage_free.d.next = self.free_head.val();
            self.stage_stop.d.next = self.stop_head.val();
        }
        if self.stage_queues.val() {
            self.stage_free.d.next = self.free_queues.val();
            self.stage_stop.d.next = self.stop_queues.val();
            if self.head_leaves.val() {
                self.stage_free.d.next = self.free_both.val();
                self.stage_stop.d.next = self.stop_both.val();
            }
        }
        if self.stage_passes.val() {
            self.stage_free.d.next = self.free_passes.val();
            self.stage_stop.d.next = self.stop_passes.val();
        }
        if self.reset.val() {
            for w in 0..FLAG_WORDS {
                self.tile_flags[w].d.next = bits::<32>(0);
            }
            for i in 0..HOLD_SLOTS {
                self.hold_valid[i].d.next = false;
                self.slot_relhit[i].d.next = false;
                self.slot_pendhit[i].d.next = false;
            }
            self.hold_head_onehot.d.next = bits::<HOLD_SLOTS>(1);
            self.hold_tail_onehot.d.next = bits::<HOLD_SLOTS>(1);
            self.nontiled_flag.d.next = false;
            self.pending_set_valid.d.next = false;
            self.rel_valid.d.next = false;
            self.violation_q.d.next = false;
            self.chk_valid.d.next = false;
            self.chk_end.d.next = false;
            self.head_turn.d.next = false;
            for k in 0..ARRIVAL_SLOTS {
                self.arr_valid[k].d.next = false;
                self.arr_relhit[k].d.next = false;
                self.arr_pendhit[k].d.next = false;
                self.arr_prev_relhit[k].d.next = false;
                self.arr_prev_pendhit[k].d.next = false;
            }
            self.stage_valid.d.next = false;
            self.stage_relhit.d.next = false;
            self.stage_pendhit.d.next = false;
            self.stage_free.d.next = false;
            self.stage_stop.d.next = false;
            self.out_valid_reg.d.next = false;
            self.hold_count.d.next = bits::<4>(0);
            self.hold_empty.d.next = true;
            self.hold_one.d.next = false;
            self.hold_many.d.next = false;
            self.hold_full.d.next = false;
            self.hold_nontiled.d.next = bits::<4>(0);
            self.nontiled_one.d.next = false;
            self.nontiled_many.d.next = false;
        }
        // (After the reset block: the non-tiled flag's next value includes the reset.)
        self.head_go.d.next =
            !self.nontiled_flag.d.val() & !self.pass_is_tiled.val() & self.head_next_ready.val();
        if self.reset.val() {
            self.head_go.d.next = false;
        }
    }
}
