//! `CacheBank` — 32 tag entries of the vertex cache (SPEC PA-6), as used twice by
//! [`super::provoking_vertex_cache::ProvokingVertexCache`].
//!
//! Each entry: a valid bit and a tag (vertex: 16 bits, viewport: 4 bits). `probe_match`
//! (combinational) has bit i set when entry i is valid and holds the probed tag. At the clock
//! edge, every entry whose bit is set in `write_mask` (one-hot: the parent keeps its allocation
//! pointer one-hot, so an entry's write enable is one bit) becomes valid with the written tag,
//! and every entry whose bit is set in `invalidate` becomes invalid (an invalidation of the
//! entry being written wins: the parent writes an allocation one cycle after deciding it and
//! invalidates in the cycle it decides, so the invalidation is the later decision); `reset`
//! invalidates all.
//!
//! Ports: `clock`, `reset`; `probe_vertex`, `probe_viewport`, `probe_match` (32 bits);
//! `write_mask` (32 bits), `write_vertex`, `write_viewport`; `invalidate` (32 bits).
use super::item::*;
use rust_hdl::prelude::*;

/// Entries of one bank.
pub const BANK_ENTRIES: usize = 32;

#[derive(LogicBlock)]
pub struct CacheBank {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub probe_vertex: Signal<In, Bits<VERTEX_BITS>>,
    pub probe_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub probe_match: Signal<Out, Bits<BANK_ENTRIES>>,
    pub write_mask: Signal<In, Bits<BANK_ENTRIES>>,
    pub write_vertex: Signal<In, Bits<VERTEX_BITS>>,
    pub write_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub invalidate: Signal<In, Bits<BANK_ENTRIES>>,
    valid: [DFF<Bit>; BANK_ENTRIES],
    tag_vertex: [DFF<Bits<VERTEX_BITS>>; BANK_ENTRIES],
    tag_viewport: [DFF<Bits<VIEWPORT_BITS>>; BANK_ENTRIES],
    entry_match: [Signal<Local, Bit>; BANK_ENTRIES],
    /// Entry i's bit of `probe_match` (0 or 1 << i).
    entry_word: [Signal<Local, Bits<BANK_ENTRIES>>; BANK_ENTRIES],
    entry_bit: [Constant<Bits<BANK_ENTRIES>>; BANK_ENTRIES],
}

impl Default for CacheBank {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            probe_vertex: Default::default(),
            probe_viewport: Default::default(),
            probe_match: Default::default(),
            write_mask: Default::default(),
            write_vertex: Default::default(),
            write_viewport: Default::default(),
            invalidate: Default::default(),
            valid: std::array::from_fn(|_| Default::default()),
            tag_vertex: std::array::from_fn(|_| Default::default()),
            tag_viewport: std::array::from_fn(|_| Default::default()),
            entry_match: std::array::from_fn(|_| Default::default()),
            entry_word: std::array::from_fn(|_| Default::default()),
            entry_bit: std::array::from_fn(|i| Constant::new(bits::<BANK_ENTRIES>(1 << i))),
        }
    }
}

impl Logic for CacheBank {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..BANK_ENTRIES {
            self.valid[i].clock.next = self.clock.val();
            self.tag_vertex[i].clock.next = self.clock.val();
            self.tag_viewport[i].clock.next = self.clock.val();
            self.valid[i].d.next = self.valid[i].q.val();
            self.tag_vertex[i].d.next = self.tag_vertex[i].q.val();
            self.tag_viewport[i].d.next = self.tag_viewport[i].q.val();
            if self.write_mask.val().get_bit(i) {
                self.valid[i].d.next = true;
                self.tag_vertex[i].d.next = self.write_vertex.val();
                self.tag_viewport[i].d.next = self.write_viewport.val();
            }
            if self.invalidate.val().get_bit(i) {
                self.valid[i].d.next = false;
            }
            if self.reset.val() {
                self.valid[i].d.next = false;
            }
            self.entry_match[i].next = self.valid[i].q.val()
                & (self.tag_vertex[i].q.val() == self.probe_vertex.val())
                & (self.tag_viewport[i].q.val() == self.probe_viewport.val());
            self.entry_word[i].next = bits::<BANK_ENTRIES>(0);
            if self.entry_match[i].val() {
                self.entry_word[i].next = self.entry_bit[i].val();
            }
        }
        // One word per entry, OR-ed (no read-modify-write of a signal in `update`).
        self.probe_match.next = self.entry_word[0].val()
            | self.entry_word[1].val()
            | self.entry_word[2].val()
            | self.entry_word[3].val()
            | self.entry_word[4].val()
            | self.entry_word[5].val()
            | self.entry_word[6].val()
            | self.entry_word[7].val()
            | self.entry_word[8].val()
            | self.entry_word[9].val()
            | self.entry_word[10].val()
            | self.entry_word[11].val()
            | self.entry_word[12].val()
            | self.entry_word[13].val()
            | self.entry_word[14].val()
            | self.entry_word[15].val()
            | self.entry_word[16].val()
            | self.entry_word[17].val()
            | self.entry_word[18].val()
            | self.entry_word[19].val()
            | self.entry_word[20].val()
            | self.entry_word[21].val()
            | self.entry_word[22].val()
            | self.entry_word[23].val()
            | self.entry_word[24].val()
            | self.entry_word[25].val()
            | self.entry_word[26].val()
            | self.entry_word[27].val()
            | self.entry_word[28].val()
            | self.entry_word[29].val()
            | self.entry_word[30].val()
            | self.entry_word[31].val();
    }
}
