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
//! Ports: `clock`, `reset`; `batch_size` (9 bits, 1..=256, static: set it during reset),
//! `layer_offset` (static);
//! in `in_valid`/`in_ready`, `in_mask`, `in_layer`, `in_prim`, `in_instance`, `in_end`; out
//! `out_valid`/`out_ready`, `out_kill`, `out_prim`, `out_instance`, `out_viewport`,
//! `out_layer`, `out_first`, `out_last`; `violation` (batch_size 0 or above 256, registered:
//! one cycle after `batch_size`, or a beat finding the beat FIFO full, which the issue rule
//! rules out).
//!
//! Storage: the batch in block RAM (256 entries: mask, layer, primitive, instance), its count,
//! the OR of its masks and whether it has a mask-0 primitive.
//!
//! Timing: a batch is gathered at one primitive per cycle (`in_ready` low while it is sent),
//! then sent by scanning it once per pass (the kill pass if it has a mask-0 primitive, and
//! one pass per viewport in the OR of its masks; viewports no primitive uses are skipped),
//! one entry read per cycle: the read address is the scan position (a register); the entry
//! read is registered the next cycle (stage T), tested for its pass into a registered beat
//! the cycle after (stage P) and, if it is a beat, written into a 6-entry beat FIFO whose
//! head drives the outputs. Stage T also registers the pass's masks (its viewport's bit, the
//! bits below and above it, zero masks on the kill pass) and the layer addend (the viewport
//! when the offset applies, else 0), decoded from the read's registered pass, so the test is
//! AND-OR reductions of registers and the layer one adder (PA-3, PA-4). A read is issued only while the FIFO holds fewer than 3 beats
//! (room for the three reads that may be on their way), so no path runs from the read data
//! back to the address, the block RAM's outputs go straight into registers, and the FIFO's
//! write comes from registers. A pass over n entries takes n cycles while the consumer keeps
//! up; the first beat of a batch comes five cycles after its last primitive is taken.
//! Latency: unchanged by the PA-4 timing work (the pass's masks ride along stage T); only
//! `violation` for a bad `batch_size` comes one cycle after it (`batch_ok` is registered).
use super::item::*;
use super::lowest_viewport::LowestViewport;
use crate::widgets::block_ram::BlockRam;
use crate::widgets::stream_fifo::StreamFifo;
use rust_hdl::prelude::*;

/// Width of a batch-memory address: batches of up to 256 primitives.
pub const BATCH_ADDR_BITS: usize = 8;
/// Largest batch.
pub const MAX_BATCH: usize = 1 << BATCH_ADDR_BITS;
/// Entries of the beat FIFO.
pub const BEAT_SLOTS: usize = 6;
/// Reads that can be on their way to the FIFO (read, registered, tested): a read is issued
/// only while the FIFO holds fewer than `BEAT_SLOTS - IN_FLIGHT` beats.
pub const IN_FLIGHT: usize = 3;

/// A beat waiting in the sequencer's FIFO.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct SequencedBeat {
    pub kill: Bit,
    pub prim: Bits<PRIM_BITS>,
    pub instance: Bits<INSTANCE_BITS>,
    pub viewport: Bits<VIEWPORT_BITS>,
    pub layer: Bits<LAYER_BITS>,
    pub first: Bit,
    pub last: Bit,
}

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
    /// `batch_size` is valid (1..=256), registered (it is static: set during reset), so the
    /// range compare is not in front of `in_ready`.
    batch_ok: DFF<Bit>,
    /// Gathering (0) or sending (1) the batch.
    sending: DFF<Bit>,
    /// Entries in the batch; the OR of their masks; a mask-0 entry among them.
    count: DFF<Bits<9>>,
    /// The next primitive taken fills the batch (`count + 1 == batch_size`, kept with
    /// `count`).
    count_fills: DFF<Bit>,
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
    /// `scan_index` is the batch's last entry (kept with it, off the issue path).
    scan_last: DFF<Bit>,
    last_entry: Signal<Local, Bit>,
    /// The read issued last cycle (its entry is on the memories' outputs now) and its pass.
    read_valid: DFF<Bit>,
    read_kill: DFF<Bit>,
    read_viewport: DFF<Bits<VIEWPORT_BITS>>,
    /// The entry read, registered (stage T), tested now.
    test_valid: DFF<Bit>,
    test_kill: DFF<Bit>,
    test_viewport: DFF<Bits<VIEWPORT_BITS>>,
    test_mask: DFF<Bits<VIEWPORTS>>,
    test_layer: DFF<Bits<LAYER_BITS>>,
    test_prim: DFF<Bits<PRIM_BITS>>,
    test_instance: DFF<Bits<INSTANCE_BITS>>,
    /// The pass's masks for the entry in T: its viewport's bit, the bits below and above it
    /// (all 0 on the kill pass), and what the layer offset adds (0 when it does not apply).
    test_viewport_bit: DFF<Bits<VIEWPORTS>>,
    test_below: DFF<Bits<VIEWPORTS>>,
    test_above: DFF<Bits<VIEWPORTS>>,
    test_layer_add: DFF<Bits<VIEWPORT_BITS>>,
    read_beat: Signal<Local, Bit>,
    /// Stage P: the beat tested from the registered entry, pushed into the FIFO next.
    push_valid: DFF<Bit>,
    push_beat: DFF<SequencedBeat>,
    issue_fill_limit: Constant<Bits<3>>,
    issue: Signal<Local, Bit>,
    skip_kill_pass: Signal<Local, Bit>,
    /// Viewport numbers, and per viewport its bit and the bits below and above it.
    viewport_number: [Constant<Bits<VIEWPORT_BITS>>; VIEWPORTS],
    viewport_bit: [Constant<Bits<VIEWPORTS>>; VIEWPORTS],
    below_bits: [Constant<Bits<VIEWPORTS>>; VIEWPORTS],
    above_bits: [Constant<Bits<VIEWPORTS>>; VIEWPORTS],
    /// Beats waiting for the output.
    beats: StreamFifo<SequencedBeat, BEAT_SLOTS, 3, 3>,
    beat_in: Signal<Local, SequencedBeat>,
    beat_out: Signal<Local, SequencedBeat>,
    beat_slots: Constant<Bits<3>>,
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
            count_fills: Default::default(),
            batch_viewports: Default::default(),
            batch_kills: Default::default(),
            take: Default::default(),
            closes: Default::default(),
            pass_kill: Default::default(),
            pass_viewport: Default::default(),
            pass_rest: Default::default(),
            scan_index: Default::default(),
            scan_active: Default::default(),
            scan_last: Default::default(),
            last_entry: Default::default(),
            read_valid: Default::default(),
            read_kill: Default::default(),
            read_viewport: Default::default(),
            test_valid: Default::default(),
            test_kill: Default::default(),
            test_viewport: Default::default(),
            test_mask: Default::default(),
            test_layer: Default::default(),
            test_prim: Default::default(),
            test_instance: Default::default(),
            test_viewport_bit: Default::default(),
            test_below: Default::default(),
            test_above: Default::default(),
            test_layer_add: Default::default(),
            read_beat: Default::default(),
            push_valid: Default::default(),
            push_beat: Default::default(),
            issue_fill_limit: Constant::new(bits::<3>((BEAT_SLOTS - IN_FLIGHT) as u64)),
            issue: Default::default(),
            skip_kill_pass: Default::default(),
            viewport_number: std::array::from_fn(|v| {
                Constant::new(bits::<VIEWPORT_BITS>(v as u64))
            }),
            viewport_bit: std::array::from_fn(|v| Constant::new(bits::<VIEWPORTS>(1 << v))),
            below_bits: std::array::from_fn(|v| Constant::new(bits::<VIEWPORTS>((1 << v) - 1))),
            above_bits: std::array::from_fn(|v| {
                Constant::new(bits::<VIEWPORTS>(0xFFFF & !((2u64 << v) - 1)))
            }),
            beats: Default::default(),
            beat_in: Default::default(),
            beat_out: Default::default(),
            beat_slots: Constant::new(bits::<3>(BEAT_SLOTS as u64)),
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
            batch_ok,
            sending,
            count,
            count_fills,
            batch_viewports,
            batch_kills,
            pass_kill,
            pass_viewport,
            pass_rest,
            scan_index,
            scan_active,
            scan_last,
            read_valid,
            read_kill,
            read_viewport,
            test_valid,
            test_kill,
            test_viewport,
            test_mask,
            test_layer,
            test_prim,
            test_instance,
            test_viewport_bit,
            test_below,
            test_above,
            test_layer_add,
            push_valid,
            push_beat
        );
        self.beats.clock.next = self.clock.val();
        self.beats.reset.next = self.reset.val();
        self.entry_mask.clock.next = self.clock.val();
        self.entry_layer.clock.next = self.clock.val();
        self.entry_prim.clock.next = self.clock.val();
        self.entry_instance.clock.next = self.clock.val();
        self.batch_ok.d.next = (self.batch_size.val() != bits::<9>(0))
            & (self.batch_size.val() <= self.max_batch.val());
        self.violation.next = !self.batch_ok.q.val();
        // Gather: one primitive per cycle into the batch memory.
        self.in_ready.next = !self.sending.q.val() & self.batch_ok.q.val();
        self.take.next = self.in_valid.val() & self.in_ready.val();
        self.closes.next = self.in_end.val() | self.count_fills.q.val();
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
            self.count_fills.d.next = self.count.q.val() + bits::<9>(2) == self.batch_size.val();
            self.batch_viewports.d.next = self.batch_viewports.q.val() | self.in_mask.val();
            if self.in_mask.val() == bits::<VIEWPORTS>(0) {
                self.batch_kills.d.next = true;
            }
            if self.closes.val() {
                self.sending.d.next = true;
                self.scan_active.d.next = true;
                self.scan_index.d.next = bits::<9>(0);
                self.scan_last.d.next = self.count.q.val() == bits::<9>(0);
                self.pass_kill.d.next = true;
                self.pass_rest.d.next = self.batch_viewports.q.val() | self.in_mask.val();
                self.pass_viewport.d.next = bits::<VIEWPORT_BITS>(0);
            }
        }
        // Scan: read the entry at the scan position every cycle; issue (advance) when the
        // beat FIFO has room for it, counting the read in flight.
        self.skip_kill_pass.next =
            self.scan_active.q.val() & self.pass_kill.q.val() & !self.batch_kills.q.val();
        self.issue.next = self.scan_active.q.val()
            & !self.skip_kill_pass.val()
            & (self.beats.fill.val() < self.issue_fill_limit.val());
        self.last_entry.next = self.scan_last.q.val();
        self.entry_mask.read_address.next = self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_layer.read_address.next = self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_prim.read_address.next = self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.entry_instance.read_address.next =
            self.scan_index.q.val().get_bits::<BATCH_ADDR_BITS>(0);
        self.read_valid.d.next = self.issue.val();
        self.read_kill.d.next = self.pass_kill.q.val();
        self.read_viewport.d.next = self.pass_viewport.q.val();
        // Advance the scan: the next entry, or the next pass, or the end of the scan.
        if (self.issue.val() & self.last_entry.val()) | self.skip_kill_pass.val() {
            self.scan_index.d.next = bits::<9>(0);
            self.scan_last.d.next = self.count.q.val() == bits::<9>(1);
            self.pass_kill.d.next = false;
            self.pass_viewport.d.next = self.next_pass.viewport.val();
            self.pass_rest.d.next = self.next_pass.rest.val();
            if self.next_pass.empty.val() {
                self.scan_active.d.next = false;
            }
        } else if self.issue.val() {
            self.scan_index.d.next = self.scan_index.q.val() + bits::<9>(1);
            self.scan_last.d.next = self.scan_index.q.val() + bits::<9>(2) == self.count.q.val();
        }
        // The batch is sent when the scan is over and its last read tested; the next batch
        // may be gathered while the FIFO drains.
        if self.sending.q.val()
            & !self.scan_active.q.val()
            & !self.read_valid.q.val()
            & !self.test_valid.q.val()
            & !self.push_valid.q.val()
        {
            self.sending.d.next = false;
            self.count.d.next = bits::<9>(0);
            self.count_fills.d.next = self.batch_size.val() == bits::<9>(1);
            self.batch_viewports.d.next = bits::<VIEWPORTS>(0);
            self.batch_kills.d.next = false;
        }
        // Register the entry read (the block RAM's outputs go straight into registers), and
        // the pass's masks and layer addend decoded from the read's pass (registers).
        self.test_valid.d.next = self.read_valid.q.val();
        self.test_kill.d.next = self.read_kill.q.val();
        self.test_viewport.d.next = self.read_viewport.q.val();
        self.test_mask.d.next = self.entry_mask.read_data.val();
        self.test_layer.d.next = self.entry_layer.read_data.val();
        self.test_prim.d.next = self.entry_prim.read_data.val();
        self.test_instance.d.next = self.entry_instance.read_data.val();
        self.test_viewport_bit.d.next = bits::<VIEWPORTS>(0);
        self.test_below.d.next = bits::<VIEWPORTS>(0);
        self.test_above.d.next = bits::<VIEWPORTS>(0);
        for v in 0..VIEWPORTS {
            if self.read_viewport.q.val() == self.viewport_number[v].val() {
                self.test_viewport_bit.d.next = self.viewport_bit[v].val();
                self.test_below.d.next = self.below_bits[v].val();
                self.test_above.d.next = self.above_bits[v].val();
            }
        }
        self.test_layer_add.d.next = bits::<VIEWPORT_BITS>(0);
        if self.layer_offset.val() {
            self.test_layer_add.d.next = self.read_viewport.q.val();
        }
        if self.read_kill.q.val() {
            // The kill pass: viewport 0, first and last, no offset.
            self.test_viewport.d.next = bits::<VIEWPORT_BITS>(0);
            self.test_viewport_bit.d.next = bits::<VIEWPORTS>(0);
            self.test_below.d.next = bits::<VIEWPORTS>(0);
            self.test_above.d.next = bits::<VIEWPORTS>(0);
            self.test_layer_add.d.next = bits::<VIEWPORT_BITS>(0);
        }
        // Test the registered entry: a beat of this pass goes into the FIFO.
        self.read_beat.next = self.test_valid.q.val()
            & (self.test_mask.q.val() & self.test_viewport_bit.q.val()).any();
        if self.test_kill.q.val() {
            self.read_beat.next =
                self.test_valid.q.val() & (self.test_mask.q.val() == bits::<VIEWPORTS>(0));
        }
        self.beat_in.next.kill = self.test_kill.q.val();
        self.beat_in.next.prim = self.test_prim.q.val();
        self.beat_in.next.instance = self.test_instance.q.val();
        self.beat_in.next.viewport = self.test_viewport.q.val();
        // The layer offset is added before the FIFO, so the outputs are the FIFO's head.
        self.beat_in.next.layer = self.test_layer.q.val()
            + bit_cast::<LAYER_BITS, VIEWPORT_BITS>(self.test_layer_add.q.val());
        self.beat_in.next.first = !(self.test_mask.q.val() & self.test_below.q.val()).any();
        self.beat_in.next.last = !(self.test_mask.q.val() & self.test_above.q.val()).any();
        self.push_valid.d.next = self.read_beat.val();
        self.push_beat.d.next = self.beat_in.val();
        self.beats.wr_valid.next = self.push_valid.q.val();
        // The issue rule makes a full FIFO at a beat impossible; flag it if it ever happens.
        if self.push_valid.q.val() & (self.beats.fill.val() == self.beat_slots.val()) {
            self.violation.next = true;
        }
        self.beats.wr_data.next = self.push_beat.q.val();
        self.beats.rd_ready.next = self.out_ready.val();
        self.beat_out.next = self.beats.rd_data.val();
        self.out_valid.next = self.beats.rd_valid.val();
        self.out_kill.next = self.beat_out.val().kill;
        self.out_prim.next = self.beat_out.val().prim;
        self.out_instance.next = self.beat_out.val().instance;
        self.out_viewport.next = self.beat_out.val().viewport;
        self.out_layer.next = self.beat_out.val().layer;
        self.out_first.next = self.beat_out.val().first;
        self.out_last.next = self.beat_out.val().last;
        if self.reset.val() {
            self.sending.d.next = false;
            self.count.d.next = bits::<9>(0);
            self.count_fills.d.next = self.batch_size.val() == bits::<9>(1);
            self.batch_viewports.d.next = bits::<VIEWPORTS>(0);
            self.batch_kills.d.next = false;
            self.scan_active.d.next = false;
            self.read_valid.d.next = false;
            self.test_valid.d.next = false;
            self.push_valid.d.next = false;
        }
    }
}
