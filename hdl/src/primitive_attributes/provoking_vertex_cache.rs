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
//! Timing: five stages, one lookup per cycle, a result five cycles after its lookup is taken
//! (Latency: 5; 4 before the Session 19 timing work, which added stage N). Stage A holds the
//! lookup and compares its tag with all 64 entries; the raw match vector is registered into
//! stage M together with the commit stage B made in that cycle (which the entries did not
//! show yet) as two masks, the entries to keep and those to add, so that M applies it entry by
//! entry with no select shared by all 64. Stage M reduces the vector to 16-entry group ORs,
//! split at the allocation pointer (matches other than at it, at it, at the entry after it),
//! and registers them into stage N with the vector corrected for the commit B makes in M's
//! cycle and what that commit did (allocated; for M's own tag, allocated or invalidated).
//! Stage N combines the groups into the split at its own cycle's pointer (an allocation in
//! M's cycle overwrote the entry at the old pointer and moved the pointer to the entry after
//! it) and, as it moves on to B, applies the commit B makes in N's cycle: for the committing
//! lookup's own tag, the entry its result names (its hit, or the entry it allocates; none
//! after a provoking lookup that cannot allocate); for another tag, the matches less the entry
//! its allocation overwrites (invalidation only concerns its own tag). Whether A's, M's and
//! N's tags are B's is registered a cycle ahead, selected by the handshakes from compares of
//! the stages' current tags (no handshake in front of a compare). A lookup therefore sees
//! every earlier commit: those before its compare in the entries, the three after it in the
//! corrections (a commit happens only when B moves on, so a stage that waits sees none).
//! Whether B finds its tag, whether it allocates when it commits (provoking or not found,
//! the capacity valid) and its hit slot (the OR-encode of N's vector) are registers loaded
//! from N, so `alloc_now` is one LUT of registers. B writes the tag through a one-hot copy of
//! the allocation pointer (an entry's write enable is one AND), invalidates, advances the
//! pointer (its wrap a registered "the next entry is the last" bit, its one-hot copies
//! shifted along) and registers the result. Stage A drives the upper bank's compare from a
//! copy of its tag (half the fan-out each). Matches are one-hot by the invariant, so the
//! slot is an OR-encode. Back-pressure on the result stalls the stages behind it; a second
//! result slot lets B commit whenever it is empty (a registered condition).
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
    /// Stage A: the lookup being compared.
    a_valid: DFF<Bit>,
    a_vertex: DFF<Bits<VERTEX_BITS>>,
    a_viewport: DFF<Bits<VIEWPORT_BITS>>,
    a_provoking: DFF<Bit>,
    /// A copy of A's tag driving the upper bank's compare (half the fan-out each). Reset to 0,
    /// which `a_vertex`/`a_viewport` are not, so that Yosys does not merge the two copies.
    a_vertex_hi: DFF<Bits<VERTEX_BITS>>,
    a_viewport_hi: DFF<Bits<VIEWPORT_BITS>>,
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
    /// Stage M's matches, in four 16-entry groups (two per bank): other than at the pointer,
    /// at the pointer, at the entry after it (loaded into stage N).
    m_excl_part_lo: [Signal<Local, Bit>; 2],
    m_excl_part_hi: [Signal<Local, Bit>; 2],
    m_at_part_lo: [Signal<Local, Bit>; 2],
    m_at_part_hi: [Signal<Local, Bit>; 2],
    m_next_part_lo: [Signal<Local, Bit>; 2],
    m_next_part_hi: [Signal<Local, Bit>; 2],
    /// Stage B's commit of this cycle concerns stage M's tag.
    same_mb_commit: Signal<Local, Bit>,
    /// Stage N: the lookup whose matches are being reduced, its match vector after the
    /// commit of M's cycle, and the group ORs of M's matches (before that commit) beside
    /// what that commit did: allocated (`n_alloc_before`, at the pointer the groups split
    /// at), replaced the vector for N's own tag by nothing at that pointer
    /// (`n_void`: it allocated or was provoking) or by the entry it allocated (`n_fill`).
    n_valid: DFF<Bit>,
    n_vertex: DFF<Bits<VERTEX_BITS>>,
    n_viewport: DFF<Bits<VIEWPORT_BITS>>,
    n_provoking: DFF<Bit>,
    n_vec_lo: DFF<Bits<BANK_ENTRIES>>,
    n_vec_hi: DFF<Bits<BANK_ENTRIES>>,
    n_excl_part_lo: [DFF<Bit>; 2],
    n_excl_part_hi: [DFF<Bit>; 2],
    n_at_part_lo: [DFF<Bit>; 2],
    n_at_part_hi: [DFF<Bit>; 2],
    n_next_part_lo: [DFF<Bit>; 2],
    n_next_part_hi: [DFF<Bit>; 2],
    n_alloc_before: DFF<Bit>,
    n_void: DFF<Bit>,
    n_fill: DFF<Bit>,
    /// N's matches other than at this cycle's pointer, and at it (after the commit of M's
    /// cycle): what B's found bits are loaded from.
    n_excl_any: Signal<Local, Bit>,
    n_at_ptr: Signal<Local, Bit>,
    n_excl_raw: Signal<Local, Bit>,
    n_at_raw: Signal<Local, Bit>,
    n_next_raw: Signal<Local, Bit>,
    same_nb: Signal<Local, Bit>,
    n_free: Signal<Local, Bit>,
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
    /// Whether a valid entry holds stage B's tag (its match vector is not zero), and whether B
    /// allocates when it commits (provoking or not found, the capacity valid), as registers
    /// loaded with it: N's split at the pointer less the entry N's cycle overwrote, or for
    /// B's own tag whether its commit left an entry. `alloc_now` is one LUT of registers.
    b_tag_found: DFF<Bit>,
    b_alloc_wanted: DFF<Bit>,
    b_found: Signal<Local, Bit>,
    n_found_next: Signal<Local, Bit>,
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
    /// The allocation pointer and the entry after it (precomputed), and whether that entry is
    /// the last one (`capacity - 1`, so the pointer wraps after it; registered).
    alloc_ptr: DFF<Bits<SLOT_BITS>>,
    alloc_next: DFF<Bits<SLOT_BITS>>,
    next_at_last: DFF<Bit>,
    /// `capacity` is 1 (the pointer and the entry after it are entry 0), and the entry before
    /// the last (`capacity - 2`), registered (the capacity is static during a run).
    capacity_one: DFF<Bit>,
    before_last: DFF<Bits<7>>,
    /// `alloc_ptr` and `alloc_next` one-hot, per bank (an entry's write enable is one AND).
    alloc_onehot_lo: DFF<Bits<BANK_ENTRIES>>,
    alloc_onehot_hi: DFF<Bits<BANK_ENTRIES>>,
    next_onehot_lo: DFF<Bits<BANK_ENTRIES>>,
    next_onehot_hi: DFF<Bits<BANK_ENTRIES>>,
    /// Stage B allocates now (it commits, misses or is provoking, and the capacity is valid).
    alloc_now: Signal<Local, Bit>,
    alloc_after_next: Signal<Local, Bits<SLOT_BITS>>,
    after_next_at_last: Signal<Local, Bit>,
    r_advance: Signal<Local, Bit>,
    b_free: Signal<Local, Bit>,
    a_free: Signal<Local, Bit>,
    b_commit: Signal<Local, Bit>,
    b_allocates: Signal<Local, Bit>,
    /// B's hit slot, registered: the OR-encode of N's vector, or for N's own tag the slot of
    /// B's result in N's cycle (what that commit left). It matters only when B finds its tag,
    /// and then that entry is not the one N's cycle overwrote.
    b_hit_slot: DFF<Bits<SLOT_BITS>>,
    n_slot: Signal<Local, Bits<SLOT_BITS>>,
    slot_bit: [Signal<Local, Bits<SLOT_BITS>>; SLOT_BITS],
    /// Stage B's effect on stage A's match vector this cycle.
    alloc_mask_lo: Signal<Local, Bits<BANK_ENTRIES>>,
    alloc_mask_hi: Signal<Local, Bits<BANK_ENTRIES>>,
    invalid_mask_lo: Signal<Local, Bits<BANK_ENTRIES>>,
    invalid_mask_hi: Signal<Local, Bits<BANK_ENTRIES>>,
    same_tag: Signal<Local, Bit>,
    /// Whether stage A's, M's and N's tags equal stage B's, registered: compared on the
    /// stages' next values, so that no tag compare sits in front of the 64-bit masks.
    a_same_b: DFF<Bit>,
    m_same_b: DFF<Bit>,
    n_same_b: DFF<Bit>,
    /// Tag equalities of the stages' current tags (and of the lookup on offer), from which
    /// `a_same_b`, `m_same_b` and `n_same_b` select by the handshakes: a stage that is not free
    /// keeps its tag, and B is then not free either.
    eq_in_n: Signal<Local, Bit>,
    eq_in_b: Signal<Local, Bit>,
    eq_a_n: Signal<Local, Bit>,
    eq_a_b: Signal<Local, Bit>,
    eq_m_n: Signal<Local, Bit>,
    eq_m_b: Signal<Local, Bit>,
    eq_n_b: Signal<Local, Bit>,
    /// A bank's two 16-entry groups.
    half: [Constant<Bits<BANK_ENTRIES>>; 2],
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
            a_valid: Default::default(),
            a_vertex: Default::default(),
            a_viewport: Default::default(),
            a_provoking: Default::default(),
            a_vertex_hi: Default::default(),
            a_viewport_hi: Default::default(),
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
            m_excl_part_lo: Default::default(),
            m_excl_part_hi: Default::default(),
            m_at_part_lo: Default::default(),
            m_at_part_hi: Default::default(),
            m_next_part_lo: Default::default(),
            m_next_part_hi: Default::default(),
            same_mb_commit: Default::default(),
            n_valid: Default::default(),
            n_vertex: Default::default(),
            n_viewport: Default::default(),
            n_provoking: Default::default(),
            n_vec_lo: Default::default(),
            n_vec_hi: Default::default(),
            n_excl_part_lo: Default::default(),
            n_excl_part_hi: Default::default(),
            n_at_part_lo: Default::default(),
            n_at_part_hi: Default::default(),
            n_next_part_lo: Default::default(),
            n_next_part_hi: Default::default(),
            n_alloc_before: Default::default(),
            n_void: Default::default(),
            n_fill: Default::default(),
            n_excl_any: Default::default(),
            n_at_ptr: Default::default(),
            n_excl_raw: Default::default(),
            n_at_raw: Default::default(),
            n_next_raw: Default::default(),
            same_nb: Default::default(),
            n_free: Default::default(),
            b_result_lo: Default::default(),
            b_result_hi: Default::default(),
            b_result_found: Default::default(),
            b_valid: Default::default(),
            b_vertex: Default::default(),
            b_viewport: Default::default(),
            b_provoking: Default::default(),
            b_match_lo: Default::default(),
            b_match_hi: Default::default(),
            b_tag_found: Default::default(),
            b_alloc_wanted: Default::default(),
            b_found: Default::default(),
            n_found_next: Default::default(),
            r_valid: Default::default(),
            r_result: Default::default(),
            s_valid: Default::default(),
            s_result: Default::default(),
            b_outcome: Default::default(),
            result_taken: Default::default(),
            alloc_ptr: Default::default(),
            alloc_next: Default::default(),
            next_at_last: Default::default(),
            capacity_one: Default::default(),
            before_last: Default::default(),
            alloc_onehot_lo: Default::default(),
            alloc_onehot_hi: Default::default(),
            next_onehot_lo: Default::default(),
            next_onehot_hi: Default::default(),
            alloc_now: Default::default(),
            alloc_after_next: Default::default(),
            after_next_at_last: Default::default(),
            r_advance: Default::default(),
            b_free: Default::default(),
            a_free: Default::default(),
            b_commit: Default::default(),
            b_allocates: Default::default(),
            b_hit_slot: Default::default(),
            n_slot: Default::default(),
            slot_bit: std::array::from_fn(|_| Default::default()),
            alloc_mask_lo: Default::default(),
            alloc_mask_hi: Default::default(),
            invalid_mask_lo: Default::default(),
            invalid_mask_hi: Default::default(),
            same_tag: Default::default(),
            a_same_b: Default::default(),
            m_same_b: Default::default(),
            n_same_b: Default::default(),
            eq_in_n: Default::default(),
            eq_in_b: Default::default(),
            eq_a_n: Default::default(),
            eq_a_b: Default::default(),
            eq_m_n: Default::default(),
            eq_m_b: Default::default(),
            eq_n_b: Default::default(),
            half: [
                Constant::new(bits::<BANK_ENTRIES>(0x0000_FFFF)),
                Constant::new(bits::<BANK_ENTRIES>(0xFFFF_0000)),
            ],
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
            capacity_one,
            before_last,
            a_valid,
            a_vertex,
            a_viewport,
            a_provoking,
            a_vertex_hi,
            a_viewport_hi,
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
            n_valid,
            n_vertex,
            n_viewport,
            n_provoking,
            n_vec_lo,
            n_vec_hi,
            n_alloc_before,
            n_void,
            n_fill,
            b_valid,
            b_vertex,
            b_viewport,
            b_provoking,
            b_match_lo,
            b_match_hi,
            b_hit_slot,
            b_tag_found,
            b_alloc_wanted,
            r_valid,
            r_result,
            s_valid,
            s_result,
            alloc_ptr,
            alloc_next,
            next_at_last,
            alloc_onehot_lo,
            alloc_onehot_hi,
            next_onehot_lo,
            next_onehot_hi,
            a_same_b,
            m_same_b,
            n_same_b
        );
        for g in 0..2 {
            self.n_excl_part_lo[g].clock.next = self.clock.val();
            self.n_excl_part_hi[g].clock.next = self.clock.val();
            self.n_at_part_lo[g].clock.next = self.clock.val();
            self.n_at_part_hi[g].clock.next = self.clock.val();
            self.n_next_part_lo[g].clock.next = self.clock.val();
            self.n_next_part_hi[g].clock.next = self.clock.val();
            self.n_excl_part_lo[g].d.next = self.n_excl_part_lo[g].q.val();
            self.n_excl_part_hi[g].d.next = self.n_excl_part_hi[g].q.val();
            self.n_at_part_lo[g].d.next = self.n_at_part_lo[g].q.val();
            self.n_at_part_hi[g].d.next = self.n_at_part_hi[g].q.val();
            self.n_next_part_lo[g].d.next = self.n_next_part_lo[g].q.val();
            self.n_next_part_hi[g].d.next = self.n_next_part_hi[g].q.val();
        }
        self.bank_lo.clock.next = self.clock.val();
        self.bank_hi.clock.next = self.clock.val();
        self.bank_lo.reset.next = self.reset.val();
        self.bank_hi.reset.next = self.reset.val();
        self.capacity_bad.d.next =
            (self.capacity.val() == bits::<7>(0)) | (self.capacity.val() > self.max_capacity.val());
        self.capacity_one.d.next = self.capacity.val() == bits::<7>(1);
        self.before_last.d.next = self.capacity.val() - bits::<7>(2);
        self.violation.next = self.capacity_bad.q.val();
        // Handshakes: each stage moves when the one after it is free or moving.
        self.r_advance.next = !self.s_valid.q.val();
        self.result_taken.next = self.r_valid.q.val() & self.result_ready.val();
        self.b_commit.next = self.b_valid.q.val() & self.r_advance.val();
        self.b_free.next = !self.b_valid.q.val() | self.r_advance.val();
        self.n_free.next = !self.n_valid.q.val() | self.b_free.val();
        self.m_free.next = !self.m_valid.q.val() | self.n_free.val();
        self.a_free.next = !self.a_valid.q.val() | self.m_free.val();
        self.lookup_ready.next = self.a_free.val();
        // Stage B: decide.
        self.b_found.next = self.b_tag_found.q.val();
        self.b_allocates.next = self.b_provoking.q.val() | !self.b_found.val();
        // Stage B's updates: allocate at the pointer, invalidate a shared provoking vertex.
        self.alloc_now.next = self.b_commit.val() & self.b_alloc_wanted.q.val();
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
        self.bank_lo.write_mask.next = self.alloc_mask_lo.val();
        self.bank_hi.write_mask.next = self.alloc_mask_hi.val();
        self.bank_lo.write_vertex.next = self.b_vertex.q.val();
        self.bank_hi.write_vertex.next = self.b_vertex.q.val();
        self.bank_lo.write_viewport.next = self.b_viewport.q.val();
        self.bank_hi.write_viewport.next = self.b_viewport.q.val();
        self.bank_lo.invalidate.next = self.invalid_mask_lo.val();
        self.bank_hi.invalidate.next = self.invalid_mask_hi.val();
        // The pointer: wraps after the last entry (`next_at_last`, registered); the entry after
        // the next one is the last when the next one is the one before the last (an equality:
        // the pointers stay below the capacity), or, after a wrap, when the capacity is 1. The
        // one-hot copies move along (the next one rotates by one).
        self.alloc_after_next.next = self.alloc_next.q.val() + bits::<SLOT_BITS>(1);
        self.after_next_at_last.next =
            bit_cast::<7, SLOT_BITS>(self.alloc_next.q.val()) == self.before_last.q.val();
        if self.next_at_last.q.val() {
            self.alloc_after_next.next = bits::<SLOT_BITS>(0);
            self.after_next_at_last.next = self.capacity_one.q.val();
        }
        if self.alloc_now.val() {
            self.alloc_ptr.d.next = self.alloc_next.q.val();
            self.alloc_next.d.next = self.alloc_after_next.val();
            self.next_at_last.d.next = self.after_next_at_last.val();
            self.alloc_onehot_lo.d.next = self.next_onehot_lo.q.val();
            self.alloc_onehot_hi.d.next = self.next_onehot_hi.q.val();
            self.next_onehot_lo.d.next = self.next_onehot_lo.q.val() << bits::<BANK_ENTRIES>(1);
            self.next_onehot_hi.d.next = self.next_onehot_hi.q.val() << bits::<BANK_ENTRIES>(1);
            if self.next_onehot_lo.q.val().get_bit(31) {
                self.next_onehot_hi.d.next = bits::<BANK_ENTRIES>(1);
            }
            if self.next_at_last.q.val() {
                self.next_onehot_lo.d.next = bits::<BANK_ENTRIES>(1);
                self.next_onehot_hi.d.next = bits::<BANK_ENTRIES>(0);
            }
        }
        // The result.
        self.b_outcome.next.hit = self.b_found.val() & !self.b_provoking.q.val();
        self.b_outcome.next.slot = self.b_hit_slot.q.val();
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
        self.bank_hi.probe_vertex.next = self.a_vertex_hi.q.val();
        self.bank_lo.probe_viewport.next = self.a_viewport.q.val();
        self.bank_hi.probe_viewport.next = self.a_viewport_hi.q.val();
        // What B's commit leaves for its own tag (used by a later lookup with that tag).
        self.b_result_lo.next = self.alloc_mask_lo.val();
        self.b_result_hi.next = self.alloc_mask_hi.val();
        if !self.b_provoking.q.val() {
            self.b_result_lo.next = self.b_match_lo.q.val() | self.alloc_mask_lo.val();
            self.b_result_hi.next = self.b_match_hi.q.val() | self.alloc_mask_hi.val();
        }
        self.b_result_found.next =
            (self.b_found.val() & !self.b_provoking.q.val()) | self.alloc_now.val();
        // Stage N -> B: N's matches corrected for B's commit of this cycle (another tag: B's
        // allocation may overwrite the entry at the pointer; B's invalidation concerns B's tag
        // only). The group ORs split at the pointer of M's cycle become the split at this
        // cycle's pointer: when M's cycle allocated, it overwrote that entry and the pointer
        // moved to the entry after it (matches are one-hot, so "other than at either" is
        // `excl & !next`); when it was for N's own tag and allocated, the only match is the
        // entry it allocated (at the pointer only when the capacity is 1).
        self.n_excl_raw.next = self.n_excl_part_lo[0].q.val()
            | self.n_excl_part_lo[1].q.val()
            | self.n_excl_part_hi[0].q.val()
            | self.n_excl_part_hi[1].q.val();
        self.n_at_raw.next = self.n_at_part_lo[0].q.val()
            | self.n_at_part_lo[1].q.val()
            | self.n_at_part_hi[0].q.val()
            | self.n_at_part_hi[1].q.val();
        self.n_next_raw.next = self.n_next_part_lo[0].q.val()
            | self.n_next_part_lo[1].q.val()
            | self.n_next_part_hi[0].q.val()
            | self.n_next_part_hi[1].q.val();
        self.n_excl_any.next = self.n_fill.q.val() & !self.capacity_one.q.val();
        self.n_at_ptr.next = self.n_fill.q.val() & self.capacity_one.q.val();
        if !self.n_void.q.val() {
            if self.n_alloc_before.q.val() {
                self.n_excl_any.next = self.n_excl_raw.val() & !self.n_next_raw.val();
                self.n_at_ptr.next = self.n_next_raw.val() & !self.capacity_one.q.val();
            } else {
                self.n_excl_any.next = self.n_excl_raw.val();
                self.n_at_ptr.next = self.n_at_raw.val();
            }
        }
        // N's slot (matches are one-hot): each slot bit is an OR of the entries with that bit.
        self.slot_bit[0].next = bits::<SLOT_BITS>(0);
        if (self.n_vec_lo.q.val() & self.odd_entries.val()).any()
            | (self.n_vec_hi.q.val() & self.odd_entries.val()).any()
        {
            self.slot_bit[0].next = bits::<SLOT_BITS>(1);
        }
        self.slot_bit[1].next = bits::<SLOT_BITS>(0);
        if (self.n_vec_lo.q.val() & self.entries_2_3.val()).any()
            | (self.n_vec_hi.q.val() & self.entries_2_3.val()).any()
        {
            self.slot_bit[1].next = bits::<SLOT_BITS>(2);
        }
        self.slot_bit[2].next = bits::<SLOT_BITS>(0);
        if (self.n_vec_lo.q.val() & self.entries_4_7.val()).any()
            | (self.n_vec_hi.q.val() & self.entries_4_7.val()).any()
        {
            self.slot_bit[2].next = bits::<SLOT_BITS>(4);
        }
        self.slot_bit[3].next = bits::<SLOT_BITS>(0);
        if (self.n_vec_lo.q.val() & self.entries_8_15.val()).any()
            | (self.n_vec_hi.q.val() & self.entries_8_15.val()).any()
        {
            self.slot_bit[3].next = bits::<SLOT_BITS>(8);
        }
        self.slot_bit[4].next = bits::<SLOT_BITS>(0);
        if (self.n_vec_lo.q.val() & self.entries_16_31.val()).any()
            | (self.n_vec_hi.q.val() & self.entries_16_31.val()).any()
        {
            self.slot_bit[4].next = bits::<SLOT_BITS>(16);
        }
        self.slot_bit[5].next = bits::<SLOT_BITS>(0);
        if self.n_vec_hi.q.val().any() {
            self.slot_bit[5].next = bits::<SLOT_BITS>(32);
        }
        self.n_slot.next = self.slot_bit[0].val()
            | self.slot_bit[1].val()
            | self.slot_bit[2].val()
            | self.slot_bit[3].val()
            | self.slot_bit[4].val()
            | self.slot_bit[5].val();
        self.same_nb.next = self.b_valid.q.val() & self.n_same_b.q.val();
        self.n_found_next.next =
            self.n_excl_any.val() | (self.n_at_ptr.val() & !self.alloc_now.val());
        if self.same_nb.val() {
            self.n_found_next.next = self.b_result_found.val();
        }
        if self.b_free.val() {
            self.b_valid.d.next = self.n_valid.q.val();
            self.b_vertex.d.next = self.n_vertex.q.val();
            self.b_viewport.d.next = self.n_viewport.q.val();
            self.b_provoking.d.next = self.n_provoking.q.val();
            self.b_match_lo.d.next = self.n_vec_lo.q.val() & !self.alloc_mask_lo.val();
            self.b_match_hi.d.next = self.n_vec_hi.q.val() & !self.alloc_mask_hi.val();
            self.b_hit_slot.d.next = self.n_slot.val();
            self.b_tag_found.d.next = self.n_found_next.val();
            self.b_alloc_wanted.d.next =
                !self.capacity_bad.q.val() & (self.n_provoking.q.val() | !self.n_found_next.val());
            // B's tag (B is valid, so it commits now).
            if self.same_nb.val() {
                self.b_match_lo.d.next = self.b_result_lo.val();
                self.b_match_hi.d.next = self.b_result_hi.val();
                self.b_hit_slot.d.next = self.b_outcome.val().slot;
            }
        }
        // Stage M -> N: M's matches after the commit of its compare cycle (`m_cur`), corrected
        // into N's vector for B's commit of this cycle (as N -> B does), and reduced to group
        // ORs split at this cycle's pointer and the entry after it, beside what that commit
        // did (it happens only when B commits: N may be loaded while B waits).
        self.m_cur_lo.next =
            (self.m_raw_lo.q.val() & self.p_keep_lo.q.val()) | self.p_add_lo.q.val();
        self.m_cur_hi.next =
            (self.m_raw_hi.q.val() & self.p_keep_hi.q.val()) | self.p_add_hi.q.val();
        for g in 0..2 {
            self.m_excl_part_lo[g].next =
                (self.m_cur_lo.val() & !self.alloc_onehot_lo.q.val() & self.half[g].val()).any();
            self.m_excl_part_hi[g].next =
                (self.m_cur_hi.val() & !self.alloc_onehot_hi.q.val() & self.half[g].val()).any();
            self.m_at_part_lo[g].next =
                (self.m_cur_lo.val() & self.alloc_onehot_lo.q.val() & self.half[g].val()).any();
            self.m_at_part_hi[g].next =
                (self.m_cur_hi.val() & self.alloc_onehot_hi.q.val() & self.half[g].val()).any();
            self.m_next_part_lo[g].next =
                (self.m_cur_lo.val() & self.next_onehot_lo.q.val() & self.half[g].val()).any();
            self.m_next_part_hi[g].next =
                (self.m_cur_hi.val() & self.next_onehot_hi.q.val() & self.half[g].val()).any();
            if self.n_free.val() {
                self.n_excl_part_lo[g].d.next = self.m_excl_part_lo[g].val();
                self.n_excl_part_hi[g].d.next = self.m_excl_part_hi[g].val();
                self.n_at_part_lo[g].d.next = self.m_at_part_lo[g].val();
                self.n_at_part_hi[g].d.next = self.m_at_part_hi[g].val();
                self.n_next_part_lo[g].d.next = self.m_next_part_lo[g].val();
                self.n_next_part_hi[g].d.next = self.m_next_part_hi[g].val();
            }
        }
        self.same_mb_commit.next = self.b_commit.val() & self.m_same_b.q.val();
        if self.n_free.val() {
            self.n_valid.d.next = self.m_valid.q.val();
            self.n_vertex.d.next = self.m_vertex.q.val();
            self.n_viewport.d.next = self.m_viewport.q.val();
            self.n_provoking.d.next = self.m_provoking.q.val();
            self.n_vec_lo.d.next = self.m_cur_lo.val() & !self.alloc_mask_lo.val();
            self.n_vec_hi.d.next = self.m_cur_hi.val() & !self.alloc_mask_hi.val();
            self.n_alloc_before.d.next = self.alloc_now.val();
            self.n_void.d.next =
                self.same_mb_commit.val() & (self.alloc_now.val() | self.b_provoking.q.val());
            self.n_fill.d.next = self.same_mb_commit.val() & self.alloc_now.val();
            if self.same_mb_commit.val() {
                self.n_vec_lo.d.next = self.b_result_lo.val();
                self.n_vec_hi.d.next = self.b_result_hi.val();
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
            self.p_keep_lo.d.next = !self.alloc_mask_lo.val();
            self.p_keep_hi.d.next = !self.alloc_mask_hi.val();
            self.p_add_lo.d.next = bits::<BANK_ENTRIES>(0);
            self.p_add_hi.d.next = bits::<BANK_ENTRIES>(0);
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
            self.a_vertex_hi.d.next = self.lookup_vertex.val();
            self.a_viewport_hi.d.next = self.lookup_viewport.val();
        }
        // The tags the stages hold next cycle, compared now (`a_same_b`, `m_same_b`,
        // `n_same_b`): every pair of current tags is compared, and the handshakes select.
        self.eq_in_n.next = (self.lookup_vertex.val() == self.n_vertex.q.val())
            & (self.lookup_viewport.val() == self.n_viewport.q.val());
        self.eq_in_b.next = (self.lookup_vertex.val() == self.b_vertex.q.val())
            & (self.lookup_viewport.val() == self.b_viewport.q.val());
        self.eq_a_n.next = (self.a_vertex.q.val() == self.n_vertex.q.val())
            & (self.a_viewport.q.val() == self.n_viewport.q.val());
        self.eq_a_b.next = (self.a_vertex.q.val() == self.b_vertex.q.val())
            & (self.a_viewport.q.val() == self.b_viewport.q.val());
        self.eq_m_n.next = (self.m_vertex.q.val() == self.n_vertex.q.val())
            & (self.m_viewport.q.val() == self.n_viewport.q.val());
        self.eq_m_b.next = (self.m_vertex.q.val() == self.b_vertex.q.val())
            & (self.m_viewport.q.val() == self.b_viewport.q.val());
        self.eq_n_b.next = (self.n_vertex.q.val() == self.b_vertex.q.val())
            & (self.n_viewport.q.val() == self.b_viewport.q.val());
        self.a_same_b.d.next = self.eq_a_b.val();
        if self.a_free.val() {
            self.a_same_b.d.next = self.eq_in_b.val();
            if self.b_free.val() {
                self.a_same_b.d.next = self.eq_in_n.val();
            }
        }
        self.m_same_b.d.next = self.eq_m_b.val();
        if self.m_free.val() {
            self.m_same_b.d.next = self.eq_a_b.val();
            if self.b_free.val() {
                self.m_same_b.d.next = self.eq_a_n.val();
            }
        }
        self.n_same_b.d.next = self.eq_n_b.val();
        if self.n_free.val() {
            self.n_same_b.d.next = self.eq_m_b.val();
            if self.b_free.val() {
                self.n_same_b.d.next = self.eq_m_n.val();
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
            self.a_vertex_hi.d.next = bits::<VERTEX_BITS>(0);
            self.a_viewport_hi.d.next = bits::<VIEWPORT_BITS>(0);
            self.m_valid.d.next = false;
            self.n_valid.d.next = false;
            self.b_valid.d.next = false;
            self.r_valid.d.next = false;
            self.s_valid.d.next = false;
            self.alloc_ptr.d.next = bits::<SLOT_BITS>(0);
            self.alloc_next.d.next = bits::<SLOT_BITS>(1);
            self.next_onehot_lo.d.next = bits::<BANK_ENTRIES>(2);
            if self.capacity.val() == bits::<7>(1) {
                self.alloc_next.d.next = bits::<SLOT_BITS>(0);
                self.next_onehot_lo.d.next = bits::<BANK_ENTRIES>(1);
            }
            self.next_onehot_hi.d.next = bits::<BANK_ENTRIES>(0);
            self.next_at_last.d.next = self.capacity.val() <= bits::<7>(2);
            self.alloc_onehot_lo.d.next = bits::<BANK_ENTRIES>(1);
            self.alloc_onehot_hi.d.next = bits::<BANK_ENTRIES>(0);
        }
    }
}
