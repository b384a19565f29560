//! `OpFifo` — SSYNC's stream-output operation FIFO with its command decoder (SPEC SO-3, SO-13);
//! a sub-block of [`Ssync`](crate::stream_out::ssync::Ssync).
//!
//! What it does: decodes the WDU's commands in driver order (`cmd_kind`: [`CMD_WORK`] work
//! token, [`CMD_ENABLE`] stream enable `E`, [`CMD_DISABLE`] stream disable `D`, [`CMD_OFFSET`]
//! offset bundle `O`) into `OPS` entries in stream order. An entry is either an offset bundle
//! (128-bit word) or an operation: start = batch ID of the first work token after `E`, end =
//! batch ID of the first work token after the following `D` (exclusive), with an `end_known`
//! bit. Reading (SO-3): an operation is pushed at the first work token after `E` (its start is
//! then known) and served at once; its end — the batch ID of the first work token after the
//! following `D` — is written into the same entry when the `D` arrives: batch IDs are
//! consecutive (SO-1), so that token will carry `next_work_id`, the ID after the last work token
//! seen. Each `E ... D` is its own operation, so an offset bundle between a `D` and the next `E`
//! sits between the two operations in the FIFO and takes effect between them, in stream order;
//! a bundle received while an operation is open follows that operation. `E D` with no work
//! token between is an empty operation (nothing is pushed). A repeated `E` or `D` is ignored.
//! A push into a full FIFO is back-pressured (`cmd_ready` low, SO-13); other commands keep
//! flowing. An offset bundle right behind another bundle that is not at the head overwrites
//! that bundle's word (with no operation between them only the later one can ever take
//! effect): behind an open operation the FIFO holds at most one bundle, so bundles inside an
//! operation never fill it ahead of the `D` that ends the operation (no deadlock; `OPS` >= 2).
//!
//! Bad-input probe (SO-13): `probe_issued` — `probe_batch` was carried by a work token already
//! seen (at most half the 14-bit ID ring behind `next_work_id`: the phase bit's window of
//! batches in flight, SO-1); `probe_covered` — it lies inside a closed operation still in the
//! FIFO (`[start, end)`, exact in modular arithmetic) or inside the open one (given out since
//! its start; every batch given out once it is half the ring long);
//! `unstreamed_valid/unstreamed_batch` — a work token accepted while streaming is disabled (its
//! batch is outside every operation). [`Ssync`](crate::stream_out::ssync::Ssync) flags a
//! request for an issued batch that no operation covers, or for the batch of an unstreamed
//! token, instead of letting it wait forever. A batch ID collision (SO-1, SO-13): a work token,
//! after the first one seen, whose ID is not `next_work_id` is taken and dropped
//! (`id_skipped`, flagged by the parent): it pushes, ends and advances nothing, so the
//! operations and the issued window stay those of the consecutive IDs already seen.
//!
//! Storage: the offset-bundle words are in an SRAM (`entry_word`, a [`BlockRam`] of
//! 2^`OP_BITS` x 128 bits, synchronous read, no reset; iCE40 block RAM), indexed like the
//! entries; the small fields (kind, start, end, `end_known`; the end is written later) are
//! registers. The SRAM is read every cycle at the head's slot (`read_slot`, a register: no
//! decision of the cycle reaches the RAM's read address), so a head's word is ready one cycle
//! after its entry reaches the head by a `pop`, or after it is written into the head's slot
//! (a block-RAM read of the address being written is undefined): `head_word_ok` is low in that
//! cycle. An entry that reaches the head by a push into an empty FIFO has its word written in
//! that push's cycle, so it too is ready one cycle later. `head_word` is the SRAM
//! word read at the head's slot, not gated (it may be uninitialized SRAM, X in Verilog): it is
//! the head's offset bundle only with `head_is_offset & head_word_ok & !empty`, and the parent
//! takes it only then (its accounting registers it and selects it only for that bundle).
//!
//! Parameters: `OPS` >= 2 entries, `OP_BITS` = clog2(OPS) (≥1), `FILL_BITS` = clog2(OPS+1).
//! Ports: `clock`, `reset`; `cmd_valid/cmd_ready/cmd_kind/cmd_batch_id/cmd_offsets` (as at
//! `Ssync`); `pop` (the head entry is done, from the parent); the head: `head_is_offset`,
//! `head_start`, `head_end`, `head_end_known`, `head_word_ok`, `head_word`; `empty`, `full`,
//! `fill` (entries held); `next_work_id`; the probe `probe_batch` -> `probe_issued`,
//! `probe_covered`; `unstreamed_valid/unstreamed_batch`; `id_skipped`.
//! Timing: one command and one pop per cycle; an entry pushed in cycle t can be at the head
//! from cycle t+1. An offset bundle's `head_word_ok` is high from the cycle after it reaches
//! the head (by a `pop`, or by a push into an empty FIFO); `pop` and `cmd_*` reach only
//! registers (the read slot, `head_word_ok`, the write side). Head outputs and
//! `empty/full/fill` come from registers and the SRAM (no combinational path from `pop` or
//! `cmd_*`); `cmd_ready` is combinational from `cmd_kind`, the decoder state and the fill
//! level; the probe outputs are registers: `probe_issued`/`probe_covered` in cycle t+1 answer
//! the `probe_batch` of cycle t against the FIFO's state in cycle t (a subtract and a compare
//! per entry, registered before the OR over the entries); `unstreamed_*`
//! from `cmd_*`.
use crate::msg::Msg128;
use crate::widgets::block_ram::BlockRam;
use crate::widgets::kept_net::KeptNet;
use rust_hdl::prelude::*;

/// `cmd_kind` of a work token.
pub const CMD_WORK: u64 = 0;
/// `cmd_kind` of a stream-enable bundle.
pub const CMD_ENABLE: u64 = 1;
/// `cmd_kind` of a stream-disable bundle.
pub const CMD_DISABLE: u64 = 2;
/// `cmd_kind` of an offset bundle.
pub const CMD_OFFSET: u64 = 3;

#[derive(LogicBlock)]
pub struct OpFifo<const OPS: usize, const OP_BITS: usize, const FILL_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // WDU command stream
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_kind: Signal<In, Bits<2>>,
    pub cmd_batch_id: Signal<In, Bits<14>>,
    pub cmd_offsets: Signal<In, Msg128>,
    // from the parent
    pub pop: Signal<In, Bit>,
    /// Bad-input probe (SO-13): the batch ID of this cycle's first request (answered in the
    /// next cycle).
    pub probe_batch: Signal<In, Bits<14>>,
    // head entry and fill level
    pub head_is_offset: Signal<Out, Bit>,
    pub head_start: Signal<Out, Bits<14>>,
    pub head_end: Signal<Out, Bits<14>>,
    pub head_end_known: Signal<Out, Bit>,
    pub head_word_ok: Signal<Out, Bit>,
    pub head_word: Signal<Out, Msg128>,
    pub empty: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    pub fill: Signal<Out, Bits<FILL_BITS>>,
    /// The batch ID the next work token will carry (SO-1: IDs are consecutive).
    pub next_work_id: Signal<Out, Bits<14>>,
    /// Last cycle's `probe_batch` had been given out by a work token then.
    pub probe_issued: Signal<Out, Bit>,
    /// Last cycle's `probe_batch` lay inside an operation then in the FIFO (or the open one).
    pub probe_covered: Signal<Out, Bit>,
    /// A work token outside every operation (not streamed) is accepted this cycle.
    pub unstreamed_valid: Signal<Out, Bit>,
    pub unstreamed_batch: Signal<Out, Bits<14>>,
    /// A work token after the first whose batch ID is not `next_work_id` (a batch ID
    /// collision, SO-1, SO-13) is taken this cycle and dropped: it changes nothing.
    pub id_skipped: Signal<Out, Bit>,
    // entries
    entry_valid: [DFF<Bit>; OPS],
    entry_is_offset: [DFF<Bit>; OPS],
    entry_start: [DFF<Bits<14>>; OPS],
    entry_end: [DFF<Bits<14>>; OPS],
    entry_end_known: [DFF<Bit>; OPS],
    /// Offset-bundle words: SRAM, one 128-bit word per entry (synchronous read).
    entry_word: BlockRam<Msg128, OP_BITS>,
    /// `entry_word.read_data` holds the word of the entry at the head (read after its write).
    head_word_ok_reg: DFF<Bit>,
    write_slot: DFF<Bits<OP_BITS>>,
    read_slot: DFF<Bits<OP_BITS>>,
    fill_reg: DFF<Bits<FILL_BITS>>,
    /// Slot of the most recent push, and whether it was an offset bundle.
    tail_slot: DFF<Bits<OP_BITS>>,
    tail_is_offset: DFF<Bit>,
    // command decoder state
    decoder_enabled: DFF<Bit>,
    decoder_await_start: DFF<Bit>,
    decoder_open_slot: DFF<Bits<OP_BITS>>,
    next_work_id_reg: DFF<Bits<14>>,
    decoder_any_work: DFF<Bit>,
    /// Start of the open operation, and whether it has covered half the ID ring or more.
    open_start: DFF<Bits<14>>,
    open_long: DFF<Bit>,
    /// The probe, registered halfway: per entry whether it holds `probe_batch`, whether the
    /// open operation holds it, whether it was given out (all from this cycle's state).
    probe_hit: [DFF<Bit>; OPS],
    probe_open_hit: DFF<Bit>,
    probe_issued_reg: DFF<Bit>,
    // combinational
    next_read_slot: Signal<Local, Bits<OP_BITS>>,
    cmd_needs_slot: Signal<Local, Bit>,
    /// The command transfers, per kind (each with only its own kind's ready condition, so a
    /// kind that never needs a slot does not wait for the fill and coalescing logic).
    fire_work: Signal<Local, Bit>,
    /// A work token is taken (good or dropped).
    work_taken: Signal<Local, Bit>,
    /// The work token carries the ID after the previous one (or is the first one seen).
    work_id_ok: Signal<Local, Bit>,
    /// The command's batch ID is `next_work_id`: a 14-bit compare kept as its own LUT tree
    /// ([`KeptNet`]), so that the mapper does not chain it with the command's kind and the
    /// FIFO's state in front of the entries' enables.
    cmd_id_next: KeptNet<Bit>,
    fire_offset: Signal<Local, Bit>,
    fire_enable: Signal<Local, Bit>,
    fire_disable: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    coalesce: Signal<Local, Bit>,
    probe_distance: [Signal<Local, Bits<14>>; OPS],
    op_length: [Signal<Local, Bits<14>>; OPS],
    probe_in_entry: [Signal<Local, Bit>; OPS],
    probe_back: Signal<Local, Bits<14>>,
    probe_in_open: Signal<Local, Bit>,
    last_half: Constant<Bits<14>>,
    half_window: Constant<Bits<14>>,
    kind_work: Constant<Bits<2>>,
    kind_enable: Constant<Bits<2>>,
    kind_disable: Constant<Bits<2>>,
    kind_offset: Constant<Bits<2>>,
    slot_index: [Constant<Bits<OP_BITS>>; OPS],
    last_slot: Constant<Bits<OP_BITS>>,
    depth: Constant<Bits<FILL_BITS>>,
}

impl<const OPS: usize, const OP_BITS: usize, const FILL_BITS: usize> Default
    for OpFifo<OPS, OP_BITS, FILL_BITS>
{
    fn default() -> Self {
        assert!(
            OPS >= 2,
            "OpFifo: OPS must be at least 2 (an open operation and a bundle)"
        );
        assert_eq!(OP_BITS, clog2(OPS).max(1), "OpFifo: OP_BITS");
        assert_eq!(FILL_BITS, clog2(OPS + 1), "OpFifo: FILL_BITS");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_kind: Default::default(),
            cmd_batch_id: Default::default(),
            cmd_offsets: Default::default(),
            pop: Default::default(),
            probe_batch: Default::default(),
            head_is_offset: Default::default(),
            head_start: Default::default(),
            head_end: Default::default(),
            head_end_known: Default::default(),
            head_word_ok: Default::default(),
            head_word: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            fill: Default::default(),
            next_work_id: Default::default(),
            probe_issued: Default::default(),
            probe_covered: Default::default(),
            unstreamed_valid: Default::default(),
            unstreamed_batch: Default::default(),
            entry_valid: std::array::from_fn(|_| Default::default()),
            entry_is_offset: std::array::from_fn(|_| Default::default()),
            entry_start: std::array::from_fn(|_| Default::default()),
            entry_end: std::array::from_fn(|_| Default::default()),
            entry_end_known: std::array::from_fn(|_| Default::default()),
            entry_word: Default::default(),
            head_word_ok_reg: Default::default(),
            write_slot: Default::default(),
            read_slot: Default::default(),
            fill_reg: Default::default(),
            tail_slot: Default::default(),
            tail_is_offset: Default::default(),
            decoder_enabled: Default::default(),
            decoder_await_start: Default::default(),
            decoder_open_slot: Default::default(),
            next_work_id_reg: Default::default(),
            decoder_any_work: Default::default(),
            open_start: Default::default(),
            open_long: Default::default(),
            probe_hit: std::array::from_fn(|_| Default::default()),
            probe_open_hit: Default::default(),
            probe_issued_reg: Default::default(),
            next_read_slot: Default::default(),
            cmd_needs_slot: Default::default(),
            fire_work: Default::default(),
            work_taken: Default::default(),
            work_id_ok: Default::default(),
            cmd_id_next: Default::default(),
            id_skipped: Default::default(),
            fire_offset: Default::default(),
            fire_enable: Default::default(),
            fire_disable: Default::default(),
            push: Default::default(),
            coalesce: Default::default(),
            probe_distance: std::array::from_fn(|_| Default::default()),
            op_length: std::array::from_fn(|_| Default::default()),
            probe_in_entry: std::array::from_fn(|_| Default::default()),
            probe_back: Default::default(),
            probe_in_open: Default::default(),
            last_half: Constant::new(bits::<14>((1 << 13) - 1)),
            half_window: Constant::new(bits::<14>(1 << 13)),
            kind_work: Constant::new(bits::<2>(CMD_WORK)),
            kind_enable: Constant::new(bits::<2>(CMD_ENABLE)),
            kind_disable: Constant::new(bits::<2>(CMD_DISABLE)),
            kind_offset: Constant::new(bits::<2>(CMD_OFFSET)),
            slot_index: std::array::from_fn(|i| Constant::new(bits::<OP_BITS>(i as u64))),
            last_slot: Constant::new(bits::<OP_BITS>((OPS - 1) as u64)),
            depth: Constant::new(bits::<FILL_BITS>(OPS as u64)),
        }
    }
}

impl<const OPS: usize, const OP_BITS: usize, const FILL_BITS: usize> Logic
    for OpFifo<OPS, OP_BITS, FILL_BITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            head_word_ok_reg,
            write_slot,
            read_slot,
            fill_reg,
            tail_slot,
            tail_is_offset,
            decoder_enabled,
            decoder_await_start,
            decoder_open_slot,
            next_work_id_reg,
            decoder_any_work,
            open_start,
            open_long,
            probe_open_hit,
            probe_issued_reg
        );
        for i in 0..OPS {
            self.probe_hit[i].clock.next = self.clock.val();
            self.probe_hit[i].d.next = false;
            self.entry_valid[i].clock.next = self.clock.val();
            self.entry_valid[i].d.next = self.entry_valid[i].q.val();
            self.entry_is_offset[i].clock.next = self.clock.val();
            self.entry_start[i].clock.next = self.clock.val();
            self.entry_end[i].clock.next = self.clock.val();
            self.entry_end_known[i].clock.next = self.clock.val();
            self.entry_is_offset[i].d.next = self.entry_is_offset[i].q.val();
            self.entry_start[i].d.next = self.entry_start[i].q.val();
            self.entry_end[i].d.next = self.entry_end[i].q.val();
            self.entry_end_known[i].d.next = self.entry_end_known[i].q.val();
        }
        // Head entry and fill level.
        self.head_is_offset.next = self.entry_is_offset[0].q.val();
        self.head_start.next = self.entry_start[0].q.val();
        self.head_end.next = self.entry_end[0].q.val();
        self.head_end_known.next = self.entry_end_known[0].q.val();
        for i in 0..OPS {
            if self.read_slot.q.val() == self.slot_index[i].val() {
                self.head_is_offset.next = self.entry_is_offset[i].q.val();
                self.head_start.next = self.entry_start[i].q.val();
                self.head_end.next = self.entry_end[i].q.val();
                self.head_end_known.next = self.entry_end_known[i].q.val();
            }
        }
        self.empty.next = self.fill_reg.q.val() == bits::<FILL_BITS>(0);
        self.full.next = self.fill_reg.q.val() == self.depth.val();
        self.fill.next = self.fill_reg.q.val();
        self.head_word_ok.next = self.head_word_ok_reg.q.val();
        // The SRAM word as read, not gated: the parent takes it only for a written offset
        // bundle at the head (no gate fanning out to 128 bits behind the head's kind).
        self.head_word.next = self.entry_word.read_data.val();
        // Command decoder (SO-3). An offset bundle right behind another one that is not at the
        // head replaces it (only the later one can take effect before the next operation), so
        // bundles inside an open operation never fill the FIFO ahead of its `D`.
        self.coalesce.next = (self.cmd_kind.val() == self.kind_offset.val())
            & self.tail_is_offset.q.val()
            & (self.fill_reg.q.val() > bits::<FILL_BITS>(1));
        self.cmd_needs_slot.next = ((self.cmd_kind.val() == self.kind_offset.val())
            & !self.coalesce.val())
            | ((self.cmd_kind.val() == self.kind_work.val()) & self.decoder_await_start.q.val());
        self.cmd_ready.next = !(self.cmd_needs_slot.val() & self.full.val());
        // The transfer (`cmd_valid & cmd_ready`) written per kind: `E` and `D` never need a
        // slot, a work token needs one only while the decoder awaits an operation's start, an
        // offset bundle unless it coalesces. A work token with another ID than the one after
        // the previous token is taken and dropped (`id_skipped`): it pushes, ends and advances
        // nothing.
        self.cmd_id_next.d.next = self.cmd_batch_id.val() == self.next_work_id_reg.q.val();
        self.work_id_ok.next = !self.decoder_any_work.q.val() | self.cmd_id_next.q.val();
        self.work_taken.next = self.cmd_valid.val()
            & (self.cmd_kind.val() == self.kind_work.val())
            & !(self.decoder_await_start.q.val() & self.full.val());
        self.fire_work.next = self.work_taken.val() & self.work_id_ok.val();
        self.id_skipped.next = self.work_taken.val() & !self.work_id_ok.val();
        self.fire_offset.next = self.cmd_valid.val()
            & (self.cmd_kind.val() == self.kind_offset.val())
            & (self.coalesce.val() | !self.full.val());
        self.fire_enable.next =
            self.cmd_valid.val() & (self.cmd_kind.val() == self.kind_enable.val());
        self.fire_disable.next =
            self.cmd_valid.val() & (self.cmd_kind.val() == self.kind_disable.val());
        self.push.next = (self.fire_offset.val() & !self.coalesce.val())
            | (self.fire_work.val() & self.decoder_await_start.q.val());
        self.unstreamed_valid.next = self.fire_work.val() & !self.decoder_enabled.q.val();
        self.unstreamed_batch.next = self.cmd_batch_id.val();
        if self.fire_work.val() {
            self.next_work_id_reg.d.next = self.cmd_batch_id.val() + bits::<14>(1);
            self.decoder_any_work.d.next = true;
            if self.decoder_await_start.q.val() {
                self.decoder_await_start.d.next = false;
                self.decoder_open_slot.d.next = self.write_slot.q.val();
                self.open_start.d.next = self.cmd_batch_id.val();
                self.open_long.d.next = false;
            } else if (self.cmd_batch_id.val() - self.open_start.q.val()) >= self.last_half.val() {
                self.open_long.d.next = true;
            }
        }
        if self.fire_enable.val() & !self.decoder_enabled.q.val() {
            self.decoder_enabled.d.next = true;
            self.decoder_await_start.d.next = true;
        }
        if self.fire_disable.val() & self.decoder_enabled.q.val() {
            self.decoder_enabled.d.next = false;
            self.decoder_await_start.d.next = false;
        }
        // Entry writes: a new entry at the write slot; the end of the open operation at its `D`
        // (the batch ID of the first work token after `D` is the next one, SO-1).
        for i in 0..OPS {
            if self.pop.val() & (self.read_slot.q.val() == self.slot_index[i].val()) {
                self.entry_valid[i].d.next = false;
            }
            if self.push.val() & (self.write_slot.q.val() == self.slot_index[i].val()) {
                self.entry_valid[i].d.next = true;
                self.entry_is_offset[i].d.next = self.cmd_kind.val() == self.kind_offset.val();
                self.entry_start[i].d.next = self.cmd_batch_id.val();
                self.entry_end[i].d.next = self.cmd_batch_id.val();
                self.entry_end_known[i].d.next = false;
            }
            if self.fire_disable.val()
                & self.decoder_enabled.q.val()
                & !self.decoder_await_start.q.val()
                & (self.decoder_open_slot.q.val() == self.slot_index[i].val())
            {
                self.entry_end[i].d.next = self.next_work_id_reg.q.val();
                self.entry_end_known[i].d.next = true;
            }
        }
        // Bad-input probe (SO-13): was `probe_batch` given out, and is it inside an operation
        // still held (half-window ring compares against each operation's start)?
        self.next_work_id.next = self.next_work_id_reg.q.val();
        // Given out: at most half the ring behind `next_work_id` (the phase bit's window, SO-1).
        self.probe_back.next = self.next_work_id_reg.q.val() - self.probe_batch.val();
        self.probe_issued_reg.d.next = self.decoder_any_work.q.val()
            & (self.probe_back.val() != bits::<14>(0))
            & (self.probe_back.val() <= self.half_window.val());
        self.probe_issued.next = self.probe_issued_reg.q.val();
        // The open operation holds every batch given out since its start (all of them once it
        // is half the ring long).
        self.probe_in_open.next = self.decoder_enabled.q.val()
            & !self.decoder_await_start.q.val()
            & (self.open_long.q.val()
                | (self.probe_back.val()
                    <= (self.next_work_id_reg.q.val() - self.open_start.q.val())));
        // A closed operation holds [start, end): exact in modular arithmetic.
        self.probe_open_hit.d.next = self.probe_in_open.val();
        self.probe_covered.next = self.probe_open_hit.q.val();
        for i in 0..OPS {
            self.probe_distance[i].next = self.probe_batch.val() - self.entry_start[i].q.val();
            self.op_length[i].next = self.entry_end[i].q.val() - self.entry_start[i].q.val();
            self.probe_in_entry[i].next = self.entry_valid[i].q.val()
                & !self.entry_is_offset[i].q.val()
                & self.entry_end_known[i].q.val()
                & (self.probe_distance[i].val() < self.op_length[i].val());
            self.probe_hit[i].d.next = self.probe_in_entry[i].val();
            if self.probe_hit[i].q.val() {
                self.probe_covered.next = true;
            }
        }
        // Slots wrap at OPS.
        if self.push.val() {
            if self.write_slot.q.val() == self.last_slot.val() {
                self.write_slot.d.next = bits::<OP_BITS>(0);
            } else {
                self.write_slot.d.next = self.write_slot.q.val() + bits::<OP_BITS>(1);
            }
        }
        self.next_read_slot.next = self.read_slot.q.val();
        if self.pop.val() {
            if self.read_slot.q.val() == self.last_slot.val() {
                self.next_read_slot.next = bits::<OP_BITS>(0);
            } else {
                self.next_read_slot.next = self.read_slot.q.val() + bits::<OP_BITS>(1);
            }
        }
        self.read_slot.d.next = self.next_read_slot.val();
        // Offset-bundle words: written at the write slot; read every cycle at the head's slot
        // (a register). After a pop, or a write into the slot being read, the head's word is
        // the one read in the next cycle (`head_word_ok_reg` low for a cycle).
        self.entry_word.clock.next = self.clock.val();
        self.entry_word.write_address.next = self.write_slot.q.val();
        if self.coalesce.val() {
            self.entry_word.write_address.next = self.tail_slot.q.val();
        }
        self.entry_word.write_data.next = self.cmd_offsets.val();
        self.entry_word.write_enable.next = self.fire_offset.val();
        self.entry_word.read_address.next = self.read_slot.q.val();
        self.head_word_ok_reg.d.next = !self.pop.val()
            & !(self.entry_word.write_enable.val()
                & (self.entry_word.write_address.val() == self.read_slot.q.val()));
        if self.push.val() {
            self.tail_slot.d.next = self.write_slot.q.val();
            self.tail_is_offset.d.next = self.cmd_kind.val() == self.kind_offset.val();
        }
        if self.push.val() & !self.pop.val() {
            self.fill_reg.d.next = self.fill_reg.q.val() + bits::<FILL_BITS>(1);
        }
        if self.pop.val() & !self.push.val() {
            self.fill_reg.d.next = self.fill_reg.q.val() - bits::<FILL_BITS>(1);
        }
        // Synchronous reset.
        if self.reset.val() {
            self.write_slot.d.next = bits::<OP_BITS>(0);
            self.read_slot.d.next = bits::<OP_BITS>(0);
            self.fill_reg.d.next = bits::<FILL_BITS>(0);
            self.tail_slot.d.next = bits::<OP_BITS>(0);
            self.tail_is_offset.d.next = false;
            self.head_word_ok_reg.d.next = false;
            self.entry_word.write_enable.next = false;
            self.decoder_enabled.d.next = false;
            self.decoder_await_start.d.next = false;
            self.decoder_open_slot.d.next = bits::<OP_BITS>(0);
            self.next_work_id_reg.d.next = bits::<14>(0);
            self.decoder_any_work.d.next = false;
            for i in 0..OPS {
                self.entry_valid[i].d.next = false;
                self.entry_is_offset[i].d.next = false;
                self.entry_start[i].d.next = bits::<14>(0);
                self.entry_end[i].d.next = bits::<14>(0);
                self.entry_end_known[i].d.next = false;
            }
        }
    }
}
