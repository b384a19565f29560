//! `OrderSequencer` — viewport order over a batch (SPEC PA-4, with PA-2 and PA-3): the
//! viewport/clip unit reads the masks of a whole batch, then sends all of the batch's
//! primitives for the lowest viewport, then the next viewport.
//!
//! Sequence (reading fixed here; the beat format is [`super::viewport_multicast`]'s):
//! input primitives form batches of `batch_size` consecutive primitives (mask-0 ones
//! included; `in_end` also closes a batch). A batch leaves as: first one kill beat
//! (`out_kill`, viewport 0, layer = its layer, `out_first` = `out_last` = 1) for each of its
//! mask-0 primitives, in primitive order; then, for each viewport v = 0..15 that some
//! primitive of the batch has, one beat for each primitive whose mask has bit v, in primitive
//! order, with `out_viewport` = v, `out_layer` = layer + v when `layer_offset` (modulo 2^32),
//! `out_first` = v is the lowest bit of its mask, `out_last` = v is its highest. With
//! `batch_size` 1 this is strict primitive order.
//!
//! Ports: `clock`, `reset`; `batch_size` (9 bits, 1..=256, static), `layer_offset` (static);
//! in `in_valid`/`in_ready`, `in_mask`, `in_layer`, `in_prim`, `in_instance`, `in_end`; out
//! `out_valid`/`out_ready`, `out_kill`, `out_prim`, `out_instance`, `out_viewport`,
//! `out_layer`, `out_first`, `out_last`; `violation` (batch_size 0 or above 256).
//!
//! Storage: the batch in block RAM (256 entries: mask, layer, primitive, instance), its count,
//! the OR of its masks and whether it has a mask-0 primitive.
//!
//! Timing: a batch is gathered at one primitive per cycle (`in_ready` low while it is sent),
//! then sent by scanning it once per pass (the kill pass if it has a mask-0 primitive, and
//! one pass per viewport in the OR of its masks; viewports no primitive uses are skipped),
//! one entry per cycle through a two-stage read (address, then the entry is evaluated and a
//! beat registered): a pass over n entries takes n cycles, beats leave at most one per cycle,
//! and the first beat of a batch comes three cycles after its last primitive is taken.
use super::item::*;
use super::lowest_viewport::LowestViewport;
use crate::widgets::block_ram::BlockRam;
use rust_hdl::prelude::*;

/// Width of a batch-memory address: batches of up to 256 primitives.
pub const BATCH_ADDR_BITS: usize = 8;
/// Largest batch.
pub const MAX_BATCH: usize = 1 << BATCH_ADDR_BITS;

#[derive(LogicBlock)]
pub struct OrderSequencer {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub batch_size: Signal<In, Bits<9>>,
    pub layer_offset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_mask: Signal<In, Bits<VIEWPORTS>>,
    pub in_layer: Signal<In, Bits<LAYER_BITS>>,
    pub in_prim: Signal<In, Bits<PRIM_BITS>>,
    pub in_instance: Signal<In, Bits<INSTANCE_BITS>>,
    pub in_end: Signal<In, Bit>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_kill: Signal<Out, Bit>,
    pub out_prim: Signal<Out, Bits<PRIM_BITS>>,
    pub out_instance: Signal<Out, Bits<INSTANCE_BITS>>,
    pub out_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub out_layer: Signal<Out, Bits<LAYER_BITS>>,
    pub out_first: Signal<Out, Bit>,
    pub out_last: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    entry_mask: BlockRam<Bits<VIEWPORTS>, BATCH_ADDR_BITS>,
    entry_layer: BlockRam<Bits<LAYER_BITS>, BATCH_ADDR_BITS>,
    entry_prim: BlockRam<Bits<PRIM_BITS>, BATCH_ADDR_BITS>,
    entry_instance: BlockRam<Bits<INSTANCE_BITS>, BATCH_ADDR_BITS>,
    next_pass: LowestViewport,
    batch_ok: Signal<Local, Bit>,
    /// Gathering (0) or sending (1) the batch.
    sending: DFF<Bit>,
    /// Entries in the batch; the OR of their masks; a mask-0 entry among them.
    count: DFF<Bits<9>>,
    batch_viewports: DFF<Bits<VIEWPORTS>>,
    batch_kills: DFF<Bit>,
    take: Signal<Local, Bit>,
    closes: Signal<Local, Bit>,
    /// The scan: the pass (kill pass, or viewport `pass_viewport`), the viewports after it,
    /// the next entry to read, and whether the scan is over.
    pass_kill: DFF<Bit>,
    pass_viewport: DFF<Bits<VIEWPORT_BITS>>,
    pass_rest: DFF<Bits<VIEWPORTS>>,
    scan_index: DFF<Bits<9>>,
    scan_active: DFF<Bit>,
    last_entry: Signal<Local, Bit>,
    /// The entry read last cycle, evaluated now.
    eval_valid: DFF<Bit>,
    eval_index: DFF<Bits<9>>,
    eval_kill: DFF<Bit>,
    eval_viewport: DFF<Bits<VIEWPORT_BITS>>,
    eval_beat: Signal<Local, Bit>,
    eval_done: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    viewport_bit: Signal<Local, Bits<VIEWPORTS>>,
    below_bits: Signal<Local, Bits<VIEWPORTS>>,
    above_bits: Signal<Local, Bits<VIEWPORTS>>,
    /// The beat on offer.
    beat_valid: DFF<Bit>,
    beat_kill: DFF<Bit>,
    beat_prim: DFF<Bits<PRIM_BITS>>,
    beat_instance: DFF<Bits<INSTANCE_BITS>>,
    beat_viewport: DFF<Bits<VIEWPORT_BITS>>,
    beat_layer: DFF<Bits<LAYER_BITS>>,
    beat_first: DFF<Bit>,
    beat_last: DFF<Bit>,
    beat_free: Signal<Local, Bit>,
    max_batch: Constant<Bits<9>>,
}

impl Default for OrderSequencer {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            batch_size: Default::default(),
            layer_offset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_mask: Default::default(),
            in_layer: Default::default(),
            in_prim: Default::default(),
            in_instance: Default::default(),
            in_end: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_kill: Default::default(),
            out_prim: Default::default(),
            out_instance: Default::default(),
            out_viewport: Default::default(),
            out_layer: Default::default(),
            out_first: Default::default(),
            out_last: Default::default(),
            violation: Default::default(),
            entry_mask: Default::default(),
            entry_layer: Default::default(),
            entry_prim: Default::default(),
            entry_instance: Default::default(),
            next_pass: Default::default(),
            batch_ok: Default::default(),
            sending: Default::default(),
            count: Default::default(),
            batch_viewports: Default::default(),
            batch_kills: Default::default(),
            take: Default::default(),
            closes: Default::default(),
            pass_kill: Default::default(),
            pass_viewport: Default::default(),
            pass_rest: Default::default(),
            scan_index: Default::default(),
            scan_active: Default::default(),
            last_entry: Default::default(),
            eval_valid: Default::default(),
            eval_index: Default::default(),
            eval_kill: Default::default(),
            eval_viewport: Default::default(),
            eval_beat: Default::default(),
            eval_done: Default::default(),
            issue: Default::default(),
            viewport_bit: Default::default(),
            below_bits: Default::default(),
            above_bits: Default::default(),
            beat_valid: Default::default(),
            beat_kill: Default::default(),
            beat_prim: Default::default(),
            beat_instance: Default::default(),
            beat_viewport: Default::default(),
            beat_layer: Default::default(),
            beat_first: Default::default(),
            beat_last: Default::default(),
            beat_free: Default::default(),
            max_batch: Constant::new(bits::<9>(MAX_BATCH as u64)),
        }
    }
}

impl Logic for OrderSequencer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sending,
            count,
            batch_viewports,
            batch_kills,
            pass_kill,
            pass_viewport,
            pass_rest,
            scan_index,
            scan_active,
            eval_valid,
            eval_index,
            eval_kill,
            eval_viewport,
            beat_valid,
            beat_kill,
            beat_prim,
            beat_instance,
            beat_viewport,
            beat_layer,
            beat_first,
            beat_last
        );
        self.entry_mask.clock.next = self.clock.val();
        self.entry_layer.clock.next = self.clock.val();
        self.entry_prim.clock.next = self.clock.val();
        self.entry_instance.clock.next = self.clock.val();
        self.batch_ok.next = (self.batch_size.val() != bits::<9>(0))
            & (self.batch_size.val() <= self.max_batch.val());
        self.violation.next = !self.batch_ok.val();
        // Gather: one primitive per cycle into the batch memory.
        self.in_ready.next = !self.sending.q.val() & self.batch_ok.val();
        self.take.next = self.in_valid.val() & self.in_ready.val();
        self.closes.next =
            self.in_end.val() | (self.count.q.val() + bits::<9>(1) == self.batch_size.val());
        self.entry_mask.write_address.next = self.count.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_layer.write_address.next = self.count.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_prim.write_address.next = self.count.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_instance.write_address.next = self.count.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_mask.write_data.next = self.in_mask.val();
        self.entry_layer.write_data.next = self.in_layer.val();
        self.entry_prim.write_data.next = self.in_prim.val();
        self.entry_instance.write_data.next = self.in_instance.val();
        self.entry_mask.write_enable.next = self.take.val();
        self.entry_layer.write_enable.next = self.take.val();
        self.entry_prim.write_enable.next = self.take.val();
        self.entry_instance.write_enable.next = self.take.val();
        // The first pass of a closing batch: kills, else its lowest viewport.
        self.next_pass.mask.next = self.pass_rest.q.val();
        if self.take.val() {
            self.count.d.next = self.count.q.val() + bits::<9>(1);
            self.batch_viewports.d.next = self.batch_viewports.q.val() | self.in_mask.val();
            if self.in_mask.val() == bits::<VIEWPORTS>(0) {
                self.batch_kills.d.next = true;
            }
            if self.closes.val() {
                self.sending.d.next = true;
                self.scan_active.d.next = true;
                self.scan_index.d.next = bits::<9>(0);
                self.pass_kill.d.next = true;
                self.pass_rest.d.next = self.batch_viewports.q.val() | self.in_mask.val();
                self.pass_viewport.d.next = bits::<VIEWPORT_BITS>(0);
            }
        }
        // Scan: issue a read when the evaluated entry is done (or none is there).
        self.beat_free.next = !self.beat_valid.q.val() | self.out_ready.val();
        self.viewport_bit.next = bits::<VIEWPORTS>(1)
            << bit_cast::<VIEWPORTS, VIEWPORT_BITS>(self.eval_viewport.q.val());
        self.eval_beat.next = self.eval_valid.q.val()
            & (self.entry_mask.read_data.val() & self.viewport_bit.val()).any();
        if self.eval_kill.q.val() {
            self.eval_beat.next =
                self.eval_valid.q.val() & (self.entry_mask.read_data.val() == bits::<VIEWPORTS>(0));
        }
        self.eval_done.next =
            self.eval_valid.q.val() & (!self.eval_beat.val() | self.beat_free.val());
        self.issue.next =
            self.scan_active.q.val() & (!self.eval_valid.q.val() | self.eval_done.val());
        // A kill pass is skipped when the batch has no mask-0 entry.
        if self.scan_active.q.val() & self.pass_kill.q.val() & !self.batch_kills.q.val() {
            self.issue.next = false;
        }
        self.last_entry.next = self.scan_index.q.val() + bits::<9>(1) == self.count.q.val();
        self.entry_mask.read_address.next = self.eval_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_layer.read_address.next = self.eval_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_prim.read_address.next = self.eval_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_instance.read_address.next =
            self.eval_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        if self.issue.val() {
            self.entry_mask.read_address.next =
                self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
            self.entry_layer.read_address.next =
                self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
            self.entry_prim.read_address.next =
                self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
            self.entry_instance.read_address.next =
                self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        }
        if self.eval_done.val() | !self.eval_valid.q.val() {
            self.eval_valid.d.next = self.issue.val();
            self.eval_index.d.next = self.scan_index.q.val();
            self.eval_kill.d.next = self.pass_kill.q.val();
            self.eval_viewport.d.next = self.pass_viewport.q.val();
        }
        // Advance the scan: the next entry, or the next pass, or the end of the scan.
        if (self.issue.val() & self.last_entry.val())
            | (self.scan_active.q.val() & self.pass_kill.q.val() & !self.batch_kills.q.val())
        {
            self.scan_index.d.next = bits::<9>(0);
            self.pass_kill.d.next = false;
            self.pass_viewport.d.next = self.next_pass.viewport.val();
            self.pass_rest.d.next = self.next_pass.rest.val();
            if self.next_pass.empty.val() {
                self.scan_active.d.next = false;
            }
        } else if self.issue.val() {
            self.scan_index.d.next = self.scan_index.q.val() + bits::<9>(1);
        }
        // The batch is sent when the scan is over and its last entry evaluated.
        if self.sending.q.val()
            & !self.scan_active.q.val()
            & (!self.eval_valid.q.val() | self.eval_done.val())
            & !self.issue.val()
        {
            self.sending.d.next = false;
            self.count.d.next = bits::<9>(0);
            self.batch_viewports.d.next = bits::<VIEWPORTS>(0);
            self.batch_kills.d.next = false;
        }
        // The beat.
        self.below_bits.next = self.viewport_bit.val() - bits::<VIEWPORTS>(1);
        self.above_bits.next = !(self.below_bits.val() | self.viewport_bit.val());
        if self.beat_free.val() {
            self.beat_valid.d.next = self.eval_beat.val();
        }
        // The payload is loaded with a beat only: the batch memory's words are undefined
        // until written, and an X must not reach a register the outputs show.
        if self.beat_free.val() & self.eval_beat.val() {
            self.beat_kill.d.next = self.eval_kill.q.val();
            self.beat_prim.d.next = self.entry_prim.read_data.val();
            self.beat_instance.d.next = self.entry_instance.read_data.val();
            self.beat_viewport.d.next = self.eval_viewport.q.val();
            self.beat_layer.d.next = self.entry_layer.read_data.val();
            self.beat_first.d.next =
                !(self.entry_mask.read_data.val() & self.below_bits.val()).any();
            self.beat_last.d.next =
                !(self.entry_mask.read_data.val() & self.above_bits.val()).any();
            if self.eval_kill.q.val() {
                self.beat_viewport.d.next = bits::<VIEWPORT_BITS>(0);
                self.beat_first.d.next = true;
                self.beat_last.d.next = true;
            }
        }
        self.out_valid.next = self.beat_valid.q.val();
        self.out_kill.next = self.beat_kill.q.val();
        self.out_prim.next = self.beat_prim.q.val();
        self.out_instance.next = self.beat_instance.q.val();
        self.out_viewport.next = self.beat_viewport.q.val();
        self.out_layer.next = self.beat_layer.q.val();
        if self.layer_offset.val() & !self.beat_kill.q.val() {
            self.out_layer.next = self.beat_layer.q.val()
                + bit_cast::<LAYER_BITS, VIEWPORT_BITS>(self.beat_viewport.q.val());
        }
        self.out_first.next = self.beat_first.q.val();
        self.out_last.next = self.beat_last.q.val();
        if self.reset.val() {
            self.sending.d.next = false;
            self.count.d.next = bits::<9>(0);
            self.batch_viewports.d.next = bits::<VIEWPORTS>(0);
            self.batch_kills.d.next = false;
            self.scan_active.d.next = false;
            self.eval_valid.d.next = false;
            self.beat_valid.d.next = false;
        }
    }
}
