//! `ProvokingVertexCache` — the viewport/clip unit's vertex cache with a unique provoking
//! vertex per primitive (SPEC PA-6).
//!
//! It holds tags only (the vertex data lives in a memory indexed by the slot, beside it):
//! 64 entries in two [`CacheBank`]s, fully associative, tag = (vertex, viewport) because the
//! cache holds per-viewport processed (swizzled, clipped) vertices and adjacent primitives
//! share vertices only within one viewport. `capacity` (1..=64, static during a run) entries
//! are used; replacement is FIFO: an allocation pointer starting at 0 after reset allocates
//! at the pointer (replacing whatever that entry held) and advances, wrapping from
//! `capacity - 1` to 0.
//!
//! - A lookup that is not provoking: a valid entry with the tag is a hit (its slot); otherwise
//!   a miss allocates an entry (the vertex is fetched and processed into that slot).
//! - A provoking lookup never hits (the reading of PA-6 and of its source: "the vertex is
//!   ignored, a miss is returned and a new instance of the provoking vertex is created; a tag
//!   associated with the vertex is invalidated"): when a valid entry has the tag (the vertex
//!   is shared, present in the cache), that entry is invalidated (`result_invalidated`); in
//!   every case a new entry is allocated, the primitive's own copy into which its
//!   per-primitive attributes go. When the pointer is the matched entry, it is reallocated.
//! - Never two valid entries with the same tag. Every lookup sees the effect of every earlier
//!   one, as if they were processed one at a time.
//!
//! Ports: `clock`, `reset`, `capacity` (7 bits); lookup channel `lookup_valid`/
//! `lookup_ready`, `lookup_vertex` (16 bits), `lookup_viewport` (4), `lookup_provoking`;
//! result channel `result_valid`/`result_ready`, `result_hit`, `result_slot` (6 bits),
//! `result_invalidated`, and the lookup echoed (`result_vertex`, `result_viewport`,
//! `result_provoking`); `violation` (registered: capacity 0 or above 64, nothing is allocated).
//!
//! Timing: four stages, one lookup per cycle, a result four cycles after its lookup is taken
//! (Latency: 4, unchanged by the PA-6 timing work). Stage A holds the lookup and compares its
//! tag with all 64 entries; the raw match vector is registered into stage M together with the
//! two commits the entries did not show yet, as two masks, the entries to keep and those to
//! add, so that M applies them entry by entry with no select shared by all 64: B's commit of
//! that cycle, and B's allocation of the cycle before, whose tag is written into its entry one
//! cycle after the decision (`w_*`: A's own tag gains that entry, another tag loses it; its
//! invalidation is already in the entries, and the bank lets an invalidation win over that
//! cycle's write). M then applies the one B makes in M's cycle, as it moves on to B: for the
//! committing lookup's own tag, the entry its result names (its hit, or the entry it
//! allocates; none after a provoking lookup that cannot allocate); for another tag, the
//! matches less the entry its allocation overwrites (invalidation only concerns its own tag).
//! Whether A's and M's tags are B's is registered a cycle ahead: every pair of stages that can
//! meet next cycle is compared from registers (the lookup at the input with M and B, A with M
//! and B, M with B) and the stages' moves select one, so no compare waits for a handshake;
//! whether A's tag is the pending write's is the same compares a cycle later. A lookup
//! therefore sees every earlier commit: those written before its compare in the entries, the
//! pending one and the two after it in the corrections. M also registers whether the vector is
//! non-zero as two ORs per group of eight entries (eight groups), the matches other than at
//! the pointer and the match at the pointer, beside whether B allocates now (overwriting the
//! entry at the pointer) and, for B's own tag, whether its commit left an entry, so that no
//! select follows the ORs and each is two LUT levels after the entries' own terms; stage B's
//! `b_found` and its allocation decision (allocate = provoking or not found, the capacity
//! valid) are each a function of registers loaded with it (the 16 group bits, three LUT
//! levels). The pointer's wrap compares it with a register of `capacity - 1`, beside its
//! increment. B registers its allocation as a one-hot mask (from a one-hot copy of the
//! pointer) beside its tag, written into the entries next cycle (an entry's write enable is a
//! register), invalidates, advances the pointer and registers the result. Matches are one-hot
//! by the invariant, so the slot is an OR-encode. Back-pressure on the result stalls the
//! stages behind it; a second result slot lets B commit whenever it is empty (a registered
//! condition).
use super::cache_bank::{CacheBank, BANK_ENTRIES};
use super::item::*;
use rust_hdl::prelude::*;

/// A lookup's result as it waits on the result channel (`result_*` but `result_valid`).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct CacheResult {
    pub hit: Bit,
    pub slot: Bits<SLOT_BITS>,
    pub invalidated: Bit,
    pub vertex: Bits<VERTEX_BITS>,
    pub viewport: Bits<VIEWPORT_BITS>,
    pub provoking: Bit,
}

/// Entries of the cache.
pub const CACHE_ENTRIES: usize = 64;
/// Width of a slot number.
pub const SLOT_BITS: usize = 6;
/// Entries per group whose OR stage M registers for stage B (eight, so that each group's OR
/// is two LUT levels after the entries' own terms).
const GROUP_ENTRIES: usize = 8;
/// Groups per bank.
const GROUPS: usize = BANK_ENTRIES / GROUP_ENTRIES;
const _: () = assert!(GROUPS * GROUP_ENTRIES == BANK_ENTRIES);

#[derive(LogicBlock)]
pub struct ProvokingVertexCache {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub capacity: Signal<In, Bits<7>>,
    pub lookup_valid: Signal<In, Bit>,
    pub lookup_ready: Signal<Out, Bit>,
    pub lookup_vertex: Signal<In, Bits<VERTEX_BITS>>,
    pub lookup_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub lookup_provoking: Signal<In, Bit>,
    pub result_valid: Signal<Out, Bit>,
    pub result_ready: Signal<In, Bit>,
    pub result_hit: Signal<Out, Bit>,
    pub result_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub result_invalidated: Signal<Out, Bit>,
    pub result_vertex: Signal<Out, Bits<VERTEX_BITS>>,
    pub result_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub result_provoking: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    bank_lo: CacheBank,
    bank_hi: CacheBank,
    /// `capacity` is not valid, registered (the capacity is static during a run).
    capacity_bad: DFF<Bit>,
    /// `capacity - 1` (7 bits, wrapping), registered: the pointer wraps after this entry.
    /// With `capacity` 0 or above 64 nothing is allocated, so its value then does not matter.
    cap_last: DFF<Bits<7>>,
    /// Stage A: the lookup being compared.
    a_valid: DFF<Bit>,
    a_vertex: DFF<Bits<VERTEX_BITS>>,
    a_viewport: DFF<Bits<VIEWPORT_BITS>>,
    a_provoking: DFF<Bit>,
    /// Stage M: the lookup compared last cycle, with its match vector (current after every
    /// commit up to this cycle's).
    m_valid: DFF<Bit>,
    m_vertex: DFF<Bits<VERTEX_BITS>>,
    m_viewport: DFF<Bits<VIEWPORT_BITS>>,
    m_provoking: DFF<Bit>,
    m_raw_lo: DFF<Bits<BANK_ENTRIES>>,
    m_raw_hi: DFF<Bits<BANK_ENTRIES>>,
    /// The commit of the cycle M's compare was made in (not yet in `m_raw`), as two masks
    /// applied entry by entry (`m_cur = m_raw & p_keep | p_add`): when M's tag was that
    /// lookup's, keep none and add the entry its result names; otherwise keep all but the
    /// entry it allocated and add none.
    p_keep_lo: DFF<Bits<BANK_ENTRIES>>,
    p_keep_hi: DFF<Bits<BANK_ENTRIES>>,
    p_add_lo: DFF<Bits<BANK_ENTRIES>>,
    p_add_hi: DFF<Bits<BANK_ENTRIES>>,
    /// M's matches after that commit.
    m_cur_lo: Signal<Local, Bits<BANK_ENTRIES>>,
    m_cur_hi: Signal<Local, Bits<BANK_ENTRIES>>,
    m_free: Signal<Local, Bit>,
    /// Stage M's tag is stage B's; its matches other than at the pointer; at the pointer.
    same_mb: Signal<Local, Bit>,
    m_excl_any_lo: [Signal<Local, Bit>; GROUPS],
    m_excl_any_hi: [Signal<Local, Bit>; GROUPS],
    m_at_ptr_lo: [Signal<Local, Bit>; GROUPS],
    m_at_ptr_hi: [Signal<Local, Bit>; GROUPS],
    /// What stage B's commit leaves for its own tag: the entry its result names, if any.
    b_result_lo: Signal<Local, Bits<BANK_ENTRIES>>,
    b_result_hi: Signal<Local, Bits<BANK_ENTRIES>>,
    b_result_found: Signal<Local, Bit>,
    /// Stage B: the lookup being decided, with its match vector.
    b_valid: DFF<Bit>,
    b_vertex: DFF<Bits<VERTEX_BITS>>,
    b_viewport: DFF<Bits<VIEWPORT_BITS>>,
    b_provoking: DFF<Bit>,
    b_match_lo: DFF<Bits<BANK_ENTRIES>>,
    b_match_hi: DFF<Bits<BANK_ENTRIES>>,
    /// Whether a valid entry holds stage B's tag (its match vector is not zero), as registers
    /// loaded with it: a match other than at the pointer of M's cycle and the match at that
    /// pointer, each per group of [`GROUP_ENTRIES`] entries of a bank (`_lo`, `_hi`), whether
    /// that entry was overwritten in M's cycle (all 0 for B's own tag), and for B's own tag
    /// whether its commit left an entry (`b_found = b_found_same | found_excl | found_at &
    /// !b_at_taken`, the ORs over the groups: a function of registers).
    b_found_excl_lo: [DFF<Bit>; GROUPS],
    b_found_excl_hi: [DFF<Bit>; GROUPS],
    b_found_at_lo: [DFF<Bit>; GROUPS],
    b_found_at_hi: [DFF<Bit>; GROUPS],
    /// The OR of each kind of group register.
    found_excl: Signal<Local, Bit>,
    found_at: Signal<Local, Bit>,
    /// Each group's entries in its bank.
    group_entries: [Constant<Bits<BANK_ENTRIES>>; GROUPS],
    b_at_taken: DFF<Bit>,
    b_found_same: DFF<Bit>,
    b_found: Signal<Local, Bit>,
    /// B's allocation condition in the same form, loaded with it: allocates whatever it
    /// finds (provoking, the capacity valid), allocates unless the three `b_found_*` ORs find
    /// (the capacity valid, B's own tag's commit left no entry), so that `alloc_now` is one
    /// LUT of these and the commit.
    b_alloc_forced: DFF<Bit>,
    b_alloc_open: DFF<Bit>,
    /// The result on offer.
    r_valid: DFF<Bit>,
    r_result: DFF<CacheResult>,
    /// A second result slot, filled when B commits while the offered result is not taken,
    /// so that B commits whenever this slot is empty (a registered condition).
    s_valid: DFF<Bit>,
    s_result: DFF<CacheResult>,
    /// Stage B's result.
    b_outcome: Signal<Local, CacheResult>,
    result_taken: Signal<Local, Bit>,
    /// The allocation pointer and the entry after it (precomputed).
    alloc_ptr: DFF<Bits<SLOT_BITS>>,
    alloc_next: DFF<Bits<SLOT_BITS>>,
    /// `alloc_ptr` one-hot, per bank (the allocation mask is one AND per entry).
    alloc_onehot_lo: DFF<Bits<BANK_ENTRIES>>,
    alloc_onehot_hi: DFF<Bits<BANK_ENTRIES>>,
    /// Stage B's allocation of last cycle, written into the entries now: one cycle after the
    /// decision and from registers, so that the decision does not reach the 64 entries' write
    /// enables and B's tag register does not drive their write data. The entry (one-hot, 0
    /// when nothing was allocated) and B's tag of last cycle.
    w_mask_lo: DFF<Bits<BANK_ENTRIES>>,
    w_mask_hi: DFF<Bits<BANK_ENTRIES>>,
    w_vertex: DFF<Bits<VERTEX_BITS>>,
    w_viewport: DFF<Bits<VIEWPORT_BITS>>,
    /// Stage A's tag is the one `w_*` writes (B's tag of last cycle), registered a cycle ahead.
    a_same_w: DFF<Bit>,
    /// Stage B allocates now (it commits, misses or is provoking, and the capacity is valid).
    alloc_now: Signal<Local, Bit>,
    alloc_after_next: Signal<Local, Bits<SLOT_BITS>>,
    r_advance: Signal<Local, Bit>,
    b_free: Signal<Local, Bit>,
    a_free: Signal<Local, Bit>,
    b_commit: Signal<Local, Bit>,
    b_allocates: Signal<Local, Bit>,
    b_hit_slot: Signal<Local, Bits<SLOT_BITS>>,
    slot_bit: [Signal<Local, Bits<SLOT_BITS>>; SLOT_BITS],
    /// Stage B's effect on stage A's match vector this cycle.
    alloc_mask_lo: Signal<Local, Bits<BANK_ENTRIES>>,
    alloc_mask_hi: Signal<Local, Bits<BANK_ENTRIES>>,
    invalid_mask_lo: Signal<Local, Bits<BANK_ENTRIES>>,
    invalid_mask_hi: Signal<Local, Bits<BANK_ENTRIES>>,
    same_tag: Signal<Local, Bit>,
    /// Whether stage A's and stage M's tags equal stage B's, registered a cycle ahead (for
    /// the tags the stages hold next cycle), so that no tag compare sits in front of the
    /// 64-bit masks.
    a_same_b: DFF<Bit>,
    m_same_b: DFF<Bit>,
    /// Tag compares of every pair of stages that can meet next cycle (the lookup at the
    /// input with M and B, A with M and B, M with B): the stages' moves select among them.
    tag_lm: Signal<Local, Bit>,
    tag_lb: Signal<Local, Bit>,
    tag_am: Signal<Local, Bit>,
    tag_ab: Signal<Local, Bit>,
    tag_mb: Signal<Local, Bit>,
    odd_entries: Constant<Bits<BANK_ENTRIES>>,
    entries_2_3: Constant<Bits<BANK_ENTRIES>>,
    entries_4_7: Constant<Bits<BANK_ENTRIES>>,
    entries_8_15: Constant<Bits<BANK_ENTRIES>>,
    entries_16_31: Constant<Bits<BANK_ENTRIES>>,
    max_capacity: Constant<Bits<7>>,
}

impl Default for ProvokingVertexCache {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            capacity: Default::default(),
            lookup_valid: Default::default(),
            lookup_ready: Default::default(),
            lookup_vertex: Default::default(),
            lookup_viewport: Default::default(),
            lookup_provoking: Default::default(),
            result_valid: Default::default(),
            result_ready: Default::default(),
            result_hit: Default::default(),
            result_slot: Default::default(),
            result_invalidated: Default::default(),
            result_vertex: Default::default(),
            result_viewport: Default::default(),
            result_provoking: Default::default(),
            violation: Default::default(),
            bank_lo: Default::default(),
            bank_hi: Default::default(),
            capacity_bad: Default::default(),
            cap_last: Default::default(),
            a_valid: Default::default(),
            a_vertex: Default::default(),
            a_viewport: Default::default(),
            a_provoking: Default::default(),
            m_valid: Default::default(),
            m_vertex: Default::default(),
            m_viewport: Default::default(),
            m_provoking: Default::default(),
            m_raw_lo: Default::default(),
            m_raw_hi: Default::default(),
            p_keep_lo: Default::default(),
            p_keep_hi: Default::default(),
            p_add_lo: Default::default(),
            p_add_hi: Default::default(),
            m_cur_lo: Default::default(),
            m_cur_hi: Default::default(),
            m_free: Default::default(),
            same_mb: Default::default(),
            m_excl_any_lo: std::array::from_fn(|_| Default::default()),
            m_excl_any_hi: std::array::from_fn(|_| Default::default()),
            m_at_ptr_lo: std::array::from_fn(|_| Default::default()),
            m_at_ptr_hi: std::array::from_fn(|_| Default::default()),
            b_result_lo: Default::default(),
            b_result_hi: Default::default(),
            b_result_found: Default::default(),
            b_valid: Default::default(),
            b_vertex: Default::default(),
            b_viewport: Default::default(),
            b_provoking: Default::default(),
            b_match_lo: Default::default(),
            b_match_hi: Default::default(),
            b_found_excl_lo: std::array::from_fn(|_| Default::default()),
            b_found_excl_hi: std::array::from_fn(|_| Default::default()),
            b_found_at_lo: std::array::from_fn(|_| Default::default()),
            b_found_at_hi: std::array::from_fn(|_| Default::default()),
            found_excl: Default::default(),
            found_at: Default::default(),
            group_entries: std::array::from_fn(|g| {
                Constant::new(bits::<BANK_ENTRIES>(
                    ((1u64 << GROUP_ENTRIES) - 1) << (GROUP_ENTRIES * g),
                ))
            }),
            b_at_taken: Default::default(),
            b_found_same: Default::default(),
            b_found: Default::default(),
            b_alloc_forced: Default::default(),
            b_alloc_open: Default::default(),
            r_valid: Default::default(),
            r_result: Default::default(),
            s_valid: Default::default(),
            s_result: Default::default(),
            b_outcome: Default::default(),
            result_taken: Default::default(),
            alloc_ptr: Default::default(),
            alloc_next: Default::default(),
            alloc_onehot_lo: Default::default(),
            alloc_onehot_hi: Default::default(),
            w_mask_lo: Default::default(),
            w_mask_hi: Default::default(),
            w_vertex: Default::default(),
            w_viewport: Default::default(),
            a_same_w: Default::default(),
            alloc_now: Default::default(),
            alloc_after_next: Default::default(),
            r_advance: Default::default(),
            b_free: Default::default(),
            a_free: Default::default(),
            b_commit: Default::default(),
            b_allocates: Default::default(),
            b_hit_slot: Default::default(),
            slot_bit: std::array::from_fn(|_| Default::default()),
            alloc_mask_lo: Default::default(),
            alloc_mask_hi: Default::default(),
            invalid_mask_lo: Default::default(),
            invalid_mask_hi: Default::default(),
            same_tag: Default::default(),
            a_same_b: Default::default(),
            m_same_b: Default::default(),
            tag_lm: Default::default(),
            tag_lb: Default::default(),
            tag_am: Default::default(),
            tag_ab: Default::default(),
            tag_mb: Default::default(),
            odd_entries: Constant::new(bits::<BANK_ENTRIES>(0xAAAA_AAAA)),
            entries_2_3: Constant::new(bits::<BANK_ENTRIES>(0xCCCC_CCCC)),
            entries_4_7: Constant::new(bits::<BANK_ENTRIES>(0xF0F0_F0F0)),
            entries_8_15: Constant::new(bits::<BANK_ENTRIES>(0xFF00_FF00)),
            entries_16_31: Constant::new(bits::<BANK_ENTRIES>(0xFFFF_0000)),
            max_capacity: Constant::new(bits::<7>(CACHE_ENTRIES as u64)),
        }
    }
}

impl Logic for ProvokingVertexCache {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            capacity_bad,
            cap_last,
            a_valid,
            a_vertex,
            a_viewport,
            a_provoking,
            m_valid,
            m_vertex,
            m_viewport,
            m_provoking,
            m_raw_lo,
            m_raw_hi,
            p_keep_lo,
            p_keep_hi,
            p_add_lo,
            p_add_hi,
            b_valid,
            b_vertex,
            b_viewport,
            b_provoking,
            b_match_lo,
            b_match_hi,
            b_at_taken,
            b_found_same,
            b_alloc_forced,
            b_alloc_open,
            r_valid,
            r_result,
            s_valid,
            s_result,
            alloc_ptr,
            alloc_next,
            alloc_onehot_lo,
            alloc_onehot_hi,
            w_mask_lo,
            w_mask_hi,
            w_vertex,
            w_viewport,
            a_same_w,
            a_same_b,
            m_same_b
        );
        self.bank_lo.clock.next = self.clock.val();
        self.bank_hi.clock.next = self.clock.val();
        self.bank_lo.reset.next = self.reset.val();
        self.bank_hi.reset.next = self.reset.val();
        self.capacity_bad.d.next =
            (self.capacity.val() == bits::<7>(0)) | (self.capacity.val() > self.max_capacity.val());
        self.violation.next = self.capacity_bad.q.val();
        // Handshakes: each stage moves when the one after it is free or moving.
        self.r_advance.next = !self.s_valid.q.val();
        self.result_taken.next = self.r_valid.q.val() & self.result_ready.val();
        self.b_commit.next = self.b_valid.q.val() & self.r_advance.val();
        self.b_free.next = !self.b_valid.q.val() | self.r_advance.val();
        self.m_free.next = !self.m_valid.q.val() | self.b_free.val();
        self.a_free.next = !self.a_valid.q.val() | self.m_free.val();
        self.lookup_ready.next = self.a_free.val();
        // Stage B: decide.
        self.found_excl.next = false;
        self.found_at.next = false;
        for g in 0..GROUPS {
            self.b_found_excl_lo[g].clock.next = self.clock.val();
            self.b_found_excl_hi[g].clock.next = self.clock.val();
            self.b_found_at_lo[g].clock.next = self.clock.val();
            self.b_found_at_hi[g].clock.next = self.clock.val();
            self.b_found_excl_lo[g].d.next = self.b_found_excl_lo[g].q.val();
            self.b_found_excl_hi[g].d.next = self.b_found_excl_hi[g].q.val();
            self.b_found_at_lo[g].d.next = self.b_found_at_lo[g].q.val();
            self.b_found_at_hi[g].d.next = self.b_found_at_hi[g].q.val();
            if self.b_found_excl_lo[g].q.val() | self.b_found_excl_hi[g].q.val() {
                self.found_excl.next = true;
            }
            if self.b_found_at_lo[g].q.val() | self.b_found_at_hi[g].q.val() {
                self.found_at.next = true;
            }
        }
        self.b_found.next = self.b_found_same.q.val()
            | self.found_excl.val()
            | (self.found_at.val() & !self.b_at_taken.q.val());
        self.b_allocates.next = self.b_provoking.q.val() | !self.b_found.val();
        // One-hot match: each slot bit is an OR of the entries with that bit.
        self.slot_bit[0].next = bits::<SLOT_BITS>(0);
        if (self.b_match_lo.q.val() & self.odd_entries.val()).any()
            | (self.b_match_hi.q.val() & self.odd_entries.val()).any()
        {
            self.slot_bit[0].next = bits::<SLOT_BITS>(1);
        }
        self.slot_bit[1].next = bits::<SLOT_BITS>(0);
        if (self.b_match_lo.q.val() & self.entries_2_3.val()).any()
            | (self.b_match_hi.q.val() & self.entries_2_3.val()).any()
        {
            self.slot_bit[1].next = bits::<SLOT_BITS>(2);
        }
        self.slot_bit[2].next = bits::<SLOT_BITS>(0);
        if (self.b_match_lo.q.val() & self.entries_4_7.val()).any()
            | (self.b_match_hi.q.val() & self.entries_4_7.val()).any()
        {
            self.slot_bit[2].next = bits::<SLOT_BITS>(4);
        }
        self.slot_bit[3].next = bits::<SLOT_BITS>(0);
        if (self.b_match_lo.q.val() & self.entries_8_15.val()).any()
            | (self.b_match_hi.q.val() & self.entries_8_15.val()).any()
        {
            self.slot_bit[3].next = bits::<SLOT_BITS>(8);
        }
        self.slot_bit[4].next = bits::<SLOT_BITS>(0);
        if (self.b_match_lo.q.val() & self.entries_16_31.val()).any()
            | (self.b_match_hi.q.val() & self.entries_16_31.val()).any()
        {
            self.slot_bit[4].next = bits::<SLOT_BITS>(16);
        }
        self.slot_bit[5].next = bits::<SLOT_BITS>(0);
        if self.b_match_hi.q.val().any() {
            self.slot_bit[5].next = bits::<SLOT_BITS>(32);
        }
        self.b_hit_slot.next = self.slot_bit[0].val()
            | self.slot_bit[1].val()
            | self.slot_bit[2].val()
            | self.slot_bit[3].val()
            | self.slot_bit[4].val()
            | self.slot_bit[5].val();
        // Stage B's updates: allocate at the pointer, invalidate a shared provoking vertex.
        self.alloc_now.next = self.b_commit.val()
            & (self.b_alloc_forced.q.val()
                | (self.b_alloc_open.q.val()
                    & !self.found_excl.val()
                    & !(self.found_at.val() & !self.b_at_taken.q.val())));
        self.alloc_mask_lo.next = bits::<BANK_ENTRIES>(0);
        self.alloc_mask_hi.next = bits::<BANK_ENTRIES>(0);
        if self.alloc_now.val() {
            self.alloc_mask_lo.next = self.alloc_onehot_lo.q.val();
            self.alloc_mask_hi.next = self.alloc_onehot_hi.q.val();
        }
        self.invalid_mask_lo.next = bits::<BANK_ENTRIES>(0);
        self.invalid_mask_hi.next = bits::<BANK_ENTRIES>(0);
        if self.b_commit.val() & self.b_provoking.q.val() {
            self.invalid_mask_lo.next = self.b_match_lo.q.val();
            self.invalid_mask_hi.next = self.b_match_hi.q.val();
        }
        // The allocation is written into its entry next cycle (`w_*`); the invalidation now
        // (the bank lets it win over that cycle's write: it is the later decision).
        self.w_mask_lo.d.next = self.alloc_mask_lo.val();
        self.w_mask_hi.d.next = self.alloc_mask_hi.val();
        self.w_vertex.d.next = self.b_vertex.q.val();
        self.w_viewport.d.next = self.b_viewport.q.val();
        self.bank_lo.write_mask.next = self.w_mask_lo.q.val();
        self.bank_hi.write_mask.next = self.w_mask_hi.q.val();
        self.bank_lo.write_vertex.next = self.w_vertex.q.val();
        self.bank_hi.write_vertex.next = self.w_vertex.q.val();
        self.bank_lo.write_viewport.next = self.w_viewport.q.val();
        self.bank_hi.write_viewport.next = self.w_viewport.q.val();
        self.bank_lo.invalidate.next = self.invalid_mask_lo.val();
        self.bank_hi.invalidate.next = self.invalid_mask_hi.val();
        // The pointer: wraps at capacity.
        self.alloc_after_next.next = self.alloc_next.q.val() + bits::<SLOT_BITS>(1);
        // `alloc_next + 1 >= capacity`, written against the registered `capacity - 1` so that
        // the compare runs beside the increment, not behind it.
        self.cap_last.d.next = self.capacity.val() - bits::<7>(1);
        if bit_cast::<7, SLOT_BITS>(self.alloc_next.q.val()) >= self.cap_last.q.val() {
            self.alloc_after_next.next = bits::<SLOT_BITS>(0);
        }
        if self.alloc_now.val() {
            self.alloc_ptr.d.next = self.alloc_next.q.val();
            self.alloc_next.d.next = self.alloc_after_next.val();
            self.alloc_onehot_lo.d.next = bits::<BANK_ENTRIES>(0);
            self.alloc_onehot_hi.d.next = bits::<BANK_ENTRIES>(0);
            if self.alloc_next.q.val().get_bit(5) {
                self.alloc_onehot_hi.d.next =
                    bits::<BANK_ENTRIES>(1) << self.alloc_next.q.val().get_bits::<5>(0);
            } else {
                self.alloc_onehot_lo.d.next =
                    bits::<BANK_ENTRIES>(1) << self.alloc_next.q.val().get_bits::<5>(0);
            }
        }
        // The result.
        self.b_outcome.next.hit = self.b_found.val() & !self.b_provoking.q.val();
        self.b_outcome.next.slot = self.b_hit_slot.val();
        if self.b_allocates.val() {
            self.b_outcome.next.slot = self.alloc_ptr.q.val();
        }
        self.b_outcome.next.invalidated = self.b_found.val() & self.b_provoking.q.val();
        self.b_outcome.next.vertex = self.b_vertex.q.val();
        self.b_outcome.next.viewport = self.b_viewport.q.val();
        self.b_outcome.next.provoking = self.b_provoking.q.val();
        if self.result_taken.val() {
            // The second slot moves up (or the offer ends).
            self.r_valid.d.next = self.s_valid.q.val();
            self.r_result.d.next = self.s_result.q.val();
            self.s_valid.d.next = false;
        }
        if self.b_commit.val() {
            if self.r_valid.q.val() & !self.result_ready.val() {
                self.s_valid.d.next = true;
                self.s_result.d.next = self.b_outcome.val();
            } else {
                // (B commits only when the second slot is empty.)
                self.r_valid.d.next = true;
                self.r_result.d.next = self.b_outcome.val();
            }
        }
        // Stage A: compare with every entry (registered into M below).
        self.bank_lo.probe_vertex.next = self.a_vertex.q.val();
        self.bank_hi.probe_vertex.next = self.a_vertex.q.val();
        self.bank_lo.probe_viewport.next = self.a_viewport.q.val();
        self.bank_hi.probe_viewport.next = self.a_viewport.q.val();
        // What B's commit leaves for its own tag (used by a later lookup with that tag).
        self.b_result_lo.next = self.alloc_mask_lo.val();
        self.b_result_hi.next = self.alloc_mask_hi.val();
        if !self.b_provoking.q.val() {
            self.b_result_lo.next = self.b_match_lo.q.val() | self.alloc_mask_lo.val();
            self.b_result_hi.next = self.b_match_hi.q.val() | self.alloc_mask_hi.val();
        }
        self.b_result_found.next =
            (self.b_found.val() & !self.b_provoking.q.val()) | self.alloc_now.val();
        // Stage M -> B: M's matches after the commit of its compare cycle (`m_cur`), corrected
        // for B's commit of this cycle (another tag: B's allocation may overwrite the entry
        // that holds it; B's invalidation concerns B's tag only).
        self.same_mb.next = self.b_valid.q.val() & self.m_same_b.q.val();
        self.m_cur_lo.next =
            (self.m_raw_lo.q.val() & self.p_keep_lo.q.val()) | self.p_add_lo.q.val();
        self.m_cur_hi.next =
            (self.m_raw_hi.q.val() & self.p_keep_hi.q.val()) | self.p_add_hi.q.val();
        for g in 0..GROUPS {
            self.m_excl_any_lo[g].next =
                (self.m_cur_lo.val() & !self.alloc_onehot_lo.q.val() & self.group_entries[g].val())
                    .any();
            self.m_excl_any_hi[g].next =
                (self.m_cur_hi.val() & !self.alloc_onehot_hi.q.val() & self.group_entries[g].val())
                    .any();
            self.m_at_ptr_lo[g].next =
                (self.m_cur_lo.val() & self.alloc_onehot_lo.q.val() & self.group_entries[g].val())
                    .any();
            self.m_at_ptr_hi[g].next =
                (self.m_cur_hi.val() & self.alloc_onehot_hi.q.val() & self.group_entries[g].val())
                    .any();
        }
        if self.b_free.val() {
            self.b_valid.d.next = self.m_valid.q.val();
            self.b_vertex.d.next = self.m_vertex.q.val();
            self.b_viewport.d.next = self.m_viewport.q.val();
            self.b_provoking.d.next = self.m_provoking.q.val();
            self.b_match_lo.d.next = self.m_cur_lo.val() & !self.alloc_mask_lo.val();
            self.b_match_hi.d.next = self.m_cur_hi.val() & !self.alloc_mask_hi.val();
            for g in 0..GROUPS {
                self.b_found_excl_lo[g].d.next = self.m_excl_any_lo[g].val() & !self.same_mb.val();
                self.b_found_excl_hi[g].d.next = self.m_excl_any_hi[g].val() & !self.same_mb.val();
                self.b_found_at_lo[g].d.next = self.m_at_ptr_lo[g].val() & !self.same_mb.val();
                self.b_found_at_hi[g].d.next = self.m_at_ptr_hi[g].val() & !self.same_mb.val();
            }
            self.b_at_taken.d.next = self.alloc_now.val() & !self.same_mb.val();
            self.b_found_same.d.next = self.b_result_found.val() & self.same_mb.val();
            self.b_alloc_forced.d.next = self.m_provoking.q.val() & !self.capacity_bad.q.val();
            self.b_alloc_open.d.next =
                !self.capacity_bad.q.val() & !(self.b_result_found.val() & self.same_mb.val());
            // B's tag (B is valid, so it commits now).
            if self.same_mb.val() {
                self.b_match_lo.d.next = self.b_result_lo.val();
                self.b_match_hi.d.next = self.b_result_hi.val();
            }
        }
        // Stage A -> M: compare with every entry, and keep B's commit of this cycle beside the
        // matches (`p_*`: zero masks when B does not commit); stage M applies it (`m_cur`).
        self.same_tag.next = self.b_valid.q.val() & self.a_same_b.q.val();
        if self.m_free.val() {
            self.m_valid.d.next = self.a_valid.q.val();
            self.m_vertex.d.next = self.a_vertex.q.val();
            self.m_viewport.d.next = self.a_viewport.q.val();
            self.m_provoking.d.next = self.a_provoking.q.val();
            self.m_raw_lo.d.next = self.bank_lo.probe_match.val();
            self.m_raw_hi.d.next = self.bank_hi.probe_match.val();
            // Last cycle's commit (its write pending in `w_*`; its invalidation is in the
            // entries): A's own tag gains the written entry, another tag loses it. Then this
            // cycle's: another tag loses the entry B allocates now.
            self.p_keep_lo.d.next = !self.alloc_mask_lo.val() & !self.w_mask_lo.q.val();
            self.p_keep_hi.d.next = !self.alloc_mask_hi.val() & !self.w_mask_hi.q.val();
            self.p_add_lo.d.next = bits::<BANK_ENTRIES>(0);
            self.p_add_hi.d.next = bits::<BANK_ENTRIES>(0);
            if self.a_same_w.q.val() {
                self.p_keep_lo.d.next = !self.alloc_mask_lo.val();
                self.p_keep_hi.d.next = !self.alloc_mask_hi.val();
                self.p_add_lo.d.next = self.w_mask_lo.q.val() & !self.alloc_mask_lo.val();
                self.p_add_hi.d.next = self.w_mask_hi.q.val() & !self.alloc_mask_hi.val();
            }
            if self.same_tag.val() & self.b_commit.val() {
                self.p_keep_lo.d.next = bits::<BANK_ENTRIES>(0);
                self.p_keep_hi.d.next = bits::<BANK_ENTRIES>(0);
                self.p_add_lo.d.next = self.b_result_lo.val();
                self.p_add_hi.d.next = self.b_result_hi.val();
            }
        }
        if self.a_free.val() {
            self.a_valid.d.next = self.lookup_valid.val();
            self.a_vertex.d.next = self.lookup_vertex.val();
            self.a_viewport.d.next = self.lookup_viewport.val();
            self.a_provoking.d.next = self.lookup_provoking.val();
        }
        // The tags the stages hold next cycle, compared now (`a_same_b`, `m_same_b`): each
        // pair from registers (and the lookup input), selected by the moves.
        self.tag_lm.next = (self.lookup_vertex.val() == self.m_vertex.q.val())
            & (self.lookup_viewport.val() == self.m_viewport.q.val());
        self.tag_lb.next = (self.lookup_vertex.val() == self.b_vertex.q.val())
            & (self.lookup_viewport.val() == self.b_viewport.q.val());
        self.tag_am.next = (self.a_vertex.q.val() == self.m_vertex.q.val())
            & (self.a_viewport.q.val() == self.m_viewport.q.val());
        self.tag_ab.next = (self.a_vertex.q.val() == self.b_vertex.q.val())
            & (self.a_viewport.q.val() == self.b_viewport.q.val());
        self.tag_mb.next = (self.m_vertex.q.val() == self.b_vertex.q.val())
            & (self.m_viewport.q.val() == self.b_viewport.q.val());
        // A stage that holds has every stage after it holding too (a_free needs m_free,
        // m_free needs b_free when M is valid), so three pairs per register suffice.
        self.a_same_b.d.next = self.tag_ab.val();
        if self.a_free.val() {
            self.a_same_b.d.next = self.tag_lb.val();
            if self.b_free.val() {
                self.a_same_b.d.next = self.tag_lm.val();
            }
        }
        self.a_same_w.d.next = self.tag_ab.val();
        if self.a_free.val() {
            self.a_same_w.d.next = self.tag_lb.val();
        }
        self.m_same_b.d.next = self.tag_mb.val();
        if self.m_free.val() {
            self.m_same_b.d.next = self.tag_ab.val();
            if self.b_free.val() {
                self.m_same_b.d.next = self.tag_am.val();
            }
        }
        self.result_valid.next = self.r_valid.q.val();
        self.result_hit.next = self.r_result.q.val().hit;
        self.result_slot.next = self.r_result.q.val().slot;
        self.result_invalidated.next = self.r_result.q.val().invalidated;
        self.result_vertex.next = self.r_result.q.val().vertex;
        self.result_viewport.next = self.r_result.q.val().viewport;
        self.result_provoking.next = self.r_result.q.val().provoking;
        if self.reset.val() {
            self.a_valid.d.next = false;
            self.m_valid.d.next = false;
            self.b_valid.d.next = false;
            self.r_valid.d.next = false;
            self.s_valid.d.next = false;
            self.alloc_ptr.d.next = bits::<SLOT_BITS>(0);
            self.alloc_next.d.next = bits::<SLOT_BITS>(1);
            if self.capacity.val() == bits::<7>(1) {
                self.alloc_next.d.next = bits::<SLOT_BITS>(0);
            }
            self.alloc_onehot_lo.d.next = bits::<BANK_ENTRIES>(1);
            self.alloc_onehot_hi.d.next = bits::<BANK_ENTRIES>(0);
            self.w_mask_lo.d.next = bits::<BANK_ENTRIES>(0);
            self.w_mask_hi.d.next = bits::<BANK_ENTRIES>(0);
        }
    }
}
