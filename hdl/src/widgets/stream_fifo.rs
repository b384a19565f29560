//! `StreamFifo` — a valid/ready FIFO of any depth (power of two or not), first-word fall-through.
//!
//! Implements the channel rules of SPEC X-2: a word is written on a cycle where `wr_valid` and
//! `wr_ready` are both high, and read on a cycle where `rd_valid` and `rd_ready` are both high;
//! `rd_data` stays stable while `rd_valid` is high and `rd_ready` is low.
//!
//! Parameters (const generics, derived widths passed explicitly and checked once in `new`):
//! - `DEPTH`: number of entries (1..=2^`PTR_BITS`), any value, not only powers of two;
//! - `PTR_BITS` = clog2(DEPTH) (at least 1), width of the read/write pointers;
//! - `COUNT_BITS` = clog2(DEPTH + 1), width of the `fill` output.
//!
//! Ports: `clock`, `reset` (synchronous, active high: empties the FIFO), `wr_valid`/`wr_ready`/
//! `wr_data`, `rd_valid`/`rd_ready`/`rd_data`, `fill` (entries held).
//!
//! Timing: storage is registers; a word written in cycle t is readable in cycle t+1 (latency 1);
//! one write and one read per cycle (throughput 1/cycle), also when full (`wr_ready` is low
//! when full, so a simultaneous read frees the slot one cycle later) — i.e. no fall-through
//! bypass, no combinational path from `rd_ready` to `wr_ready`.
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct StreamFifo<T: Synth, const DEPTH: usize, const PTR_BITS: usize, const COUNT_BITS: usize>
{
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub wr_valid: Signal<In, Bit>,
    pub wr_ready: Signal<Out, Bit>,
    pub wr_data: Signal<In, T>,
    pub rd_valid: Signal<Out, Bit>,
    pub rd_ready: Signal<In, Bit>,
    pub rd_data: Signal<Out, T>,
    pub fill: Signal<Out, Bits<COUNT_BITS>>,
    slots: [DFF<T>; DEPTH],
    wr_ptr: DFF<Bits<PTR_BITS>>,
    rd_ptr: DFF<Bits<PTR_BITS>>,
    count: DFF<Bits<COUNT_BITS>>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    slot_index: [Constant<Bits<PTR_BITS>>; DEPTH],
    last_index: Constant<Bits<PTR_BITS>>,
    depth: Constant<Bits<COUNT_BITS>>,
}

impl<T: Synth, const DEPTH: usize, const PTR_BITS: usize, const COUNT_BITS: usize> Default
    for StreamFifo<T, DEPTH, PTR_BITS, COUNT_BITS>
{
    fn default() -> Self {
        assert!(DEPTH >= 1, "StreamFifo: DEPTH must be at least 1");
        assert_eq!(
            PTR_BITS,
            clog2(DEPTH).max(1),
            "StreamFifo: PTR_BITS must be clog2(DEPTH)"
        );
        assert_eq!(
            COUNT_BITS,
            clog2(DEPTH + 1),
            "StreamFifo: COUNT_BITS must be clog2(DEPTH+1)"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wr_valid: Default::default(),
            wr_ready: Default::default(),
            wr_data: Default::default(),
            rd_valid: Default::default(),
            rd_ready: Default::default(),
            rd_data: Default::default(),
            fill: Default::default(),
            slots: std::array::from_fn(|_| Default::default()),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            count: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            slot_index: std::array::from_fn(|i| Constant::new(bits::<PTR_BITS>(i as u64))),
            last_index: Constant::new(bits::<PTR_BITS>((DEPTH - 1) as u64)),
            depth: Constant::new(bits::<COUNT_BITS>(DEPTH as u64)),
        }
    }
}

impl<T: Synth, const DEPTH: usize, const PTR_BITS: usize, const COUNT_BITS: usize> Logic
    for StreamFifo<T, DEPTH, PTR_BITS, COUNT_BITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, count);
        for i in 0..DEPTH {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].d.next = self.slots[i].q.val();
        }
        // Handshake
        self.wr_ready.next = self.count.q.val() != self.depth.val();
        self.rd_valid.next = self.count.q.val() != bits::<COUNT_BITS>(0);
        self.fill.next = self.count.q.val();
        self.push.next = self.wr_valid.val() & self.wr_ready.val();
        self.pop.next = self.rd_valid.val() & self.rd_ready.val();
        // Read mux (first-word fall-through)
        self.rd_data.next = self.slots[0].q.val();
        for i in 0..DEPTH {
            if self.rd_ptr.q.val() == self.slot_index[i].val() {
                self.rd_data.next = self.slots[i].q.val();
            }
        }
        // Write decode
        for i in 0..DEPTH {
            if self.push.val() & (self.wr_ptr.q.val() == self.slot_index[i].val()) {
                self.slots[i].d.next = self.wr_data.val();
            }
        }
        // Pointers wrap at DEPTH, not at 2^PTR_BITS
        if self.push.val() {
            if self.wr_ptr.q.val() == self.last_index.val() {
                self.wr_ptr.d.next = bits::<PTR_BITS>(0);
            } else {
                self.wr_ptr.d.next = self.wr_ptr.q.val() + bits::<PTR_BITS>(1);
            }
        }
        if self.pop.val() {
            if self.rd_ptr.q.val() == self.last_index.val() {
                self.rd_ptr.d.next = bits::<PTR_BITS>(0);
            } else {
                self.rd_ptr.d.next = self.rd_ptr.q.val() + bits::<PTR_BITS>(1);
            }
        }
        if self.push.val() & !self.pop.val() {
            self.count.d.next = self.count.q.val() + bits::<COUNT_BITS>(1);
        }
        if self.pop.val() & !self.push.val() {
            self.count.d.next = self.count.q.val() - bits::<COUNT_BITS>(1);
        }
        if self.reset.val() {
            self.wr_ptr.d.next = bits::<PTR_BITS>(0);
            self.rd_ptr.d.next = bits::<PTR_BITS>(0);
            self.count.d.next = bits::<COUNT_BITS>(0);
        }
    }
}

/// A skid buffer (SPEC X-1 widget): a two-entry [`StreamFifo`]. `wr_ready` comes from a register
/// (no combinational path from `rd_ready` back to `wr_ready`), and the second entry catches the
/// word that arrives in the cycle the downstream stalls, so a pipeline stage can be cut with
/// one word per cycle of throughput and one cycle of latency.
pub type SkidBuffer<T> = StreamFifo<T, 2, 1, 2>;
