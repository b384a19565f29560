//! `SoftPutAllocator` — the atomic allocation of ring entries by GPU threads (SPEC WQ-5, WQ-6):
//! a fetch-and-add on soft GP_PUT, checked against shadow GP_PUT.
//!
//! - Set-up (WQ-5, `setup_valid` with `setup_gp_get` = GP_GET): soft GP_PUT = wrap(GP_GET+1),
//!   shadow GP_PUT = wrap(GP_GET-1), lap 0.
//! - Allocation (`alloc_valid` with `alloc_count` = N+1), one atomic operation per cycle: if the
//!   `alloc_count` entries soft..soft+count-1 all lie before shadow GP_PUT in ring order
//!   (count <= wrap(shadow - soft)), soft GP_PUT advances to wrap(soft + count) and the old
//!   value is returned as the thread's first entry (`resp_ok` high); otherwise nothing changes
//!   (`resp_ok` low: the thread backs off without writing and retries later). A count of 0 is
//!   refused and raises `violation`, as does an index input outside the ring (`setup_gp_get` or
//!   `shadow_gp_put_value` >= n while valid), in that same cycle.
//! - `resp_lap` counts how often soft GP_PUT has wrapped before the first entry: with the index
//!   it numbers the allocation uniquely, which the threads use as the value of their guard
//!   semaphores (a semaphore per entry is reused on every lap of the ring). Reading: the
//!   specification's soft GP_PUT is the index; the lap is this design's addition, kept beside it.
//! - Shadow (`shadow_valid` with `shadow_gp_put_value`): the host advanced GP_GET and wrote the
//!   new shadow GP_PUT = wrap(GP_GET - 1) (the GPU channel keeps GP_PUT = shadow GP_PUT =
//!   wrap(GP_GET - 1); after an advance that is the GP_GET just left). Shadow GP_PUT only moves
//!   forward and never past soft GP_PUT (the host executes only allocated entries); an update
//!   that would leave more than n - 1 free entries broke that rule and raises `violation` two
//!   cycles after it (t+2, with the responses of that cycle's requests). Set-up wins over a
//!   shadow update of the same cycle (the update is ignored), and inputs seen while `reset` is
//!   high change nothing.
//!
//! Pipeline (latency 2, one allocation per cycle): the request (count, set-up) is registered in
//! the cycle it arrives, with what can be computed from the inputs alone: count - n, the set-up
//! values, the distance the shadow moved, d = wrap(value - shadow), and n - d (shadow GP_PUT
//! and shadow GP_PUT -/+ n are registers of this first stage; a shadow update passes soft
//! GP_PUT when free >= n - d, one compare in the next stage). The atomic operation is in the next
//! cycle, on the registers soft GP_PUT, lap and free = wrap(shadow - soft): it sees every shadow
//! update up to the cycle of its request (the registered d of that cycle is added to free in
//! the compare), so an allocation requested in the cycle of a shadow update is checked against
//! the updated shadow, and the result of this operation shows one cycle later. free is kept as
//! both outcomes of the previous operation (granted or not) with a bit saying which one holds:
//! free + d - count is computed from each (two carry chains from registers, d = 0 without a
//! shadow update), its sign decides the grant, and the previous grant picks one of the two
//! signs, so the loop through the atomic operation is a multiplexer and an AND (both outcomes
//! of this operation, free + d and free + d - count, are the next pair). soft + count and
//! soft + (count - n), the next soft GP_PUT if granted, are chosen by the sign of the second
//! (compare form) or masked with n - 1 (AND form), and soft GP_PUT is kept as both outcomes
//! too (granted or not, picked by the same bit), so the grant enables no register; the lap steps one cycle after a granted wrap (`lap_wrap`),
//! the response reading the lap with that step applied.
//! Set-up wins over an allocation requested in the same cycle (which is not answered).
//!
//! Parameters: `IDX_BITS` (ring index width), `X_BITS` = `IDX_BITS` + 2; the ring size n is the
//! configuration input `ring_entries` (as in [`super::gp_fifo::GpFifo`]: set while `reset` is
//! high and kept), the wrap form a construction parameter ([`SoftPutAllocator::with_form`]).
//! Ports: `clock`, `reset`, `ring_entries`, the set-up and shadow inputs above, `alloc_valid`/`alloc_ready`/
//! `alloc_count` (`X_BITS`), `resp_valid`/`resp_ok`/`resp_first`/`resp_lap` (16 bits),
//! `soft_gp_put`, `shadow_gp_put`, `violation`.
//! Timing: `alloc_ready` is high except in reset; the response is registered, two cycles after
//! the request (latency 2, one allocation per cycle). `shadow_gp_put` shows an update in the
//! next cycle, `soft_gp_put` the result of an allocation with its response.
use super::ring_wrap::WrapForm;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SoftPutAllocator<const IDX_BITS: usize, const X_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ring_entries: Signal<In, Bits<X_BITS>>,
    pub setup_valid: Signal<In, Bit>,
    pub setup_gp_get: Signal<In, Bits<IDX_BITS>>,
    pub shadow_valid: Signal<In, Bit>,
    pub shadow_gp_put_value: Signal<In, Bits<IDX_BITS>>,
    pub alloc_valid: Signal<In, Bit>,
    pub alloc_ready: Signal<Out, Bit>,
    pub alloc_count: Signal<In, Bits<X_BITS>>,
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ok: Signal<Out, Bit>,
    pub resp_first: Signal<Out, Bits<IDX_BITS>>,
    pub resp_lap: Signal<Out, Bits<16>>,
    pub soft_gp_put: Signal<Out, Bits<IDX_BITS>>,
    pub shadow_gp_put: Signal<Out, Bits<IDX_BITS>>,
    pub violation: Signal<Out, Bit>,
    // Stage 1: the request and what the inputs alone decide.
    req_valid: DFF<Bit>,
    req_count: DFF<Bits<X_BITS>>,
    /// A request whose count can fit: not 0, nor 2^(X_BITS-1) or more (free is below that).
    req_countable: DFF<Bit>,
    /// count - n: soft + count wraps when soft + (count - n) >= 0.
    req_count_minus_n: DFF<Bits<X_BITS>>,
    req_setup: DFF<Bit>,
    /// wrap(GP_GET + 1) and n - 2 = wrap(shadow - soft) after a set-up.
    req_setup_soft: DFF<Bits<IDX_BITS>>,
    req_setup_free: DFF<Bits<X_BITS>>,
    req_shadow: DFF<Bit>,
    /// wrap(value - shadow): how far the shadow moved.
    req_shadow_delta: DFF<Bits<X_BITS>>,
    /// Shadow GP_PUT, updated with the input.
    shadow_gp_put_reg: DFF<Bits<IDX_BITS>>,
    /// shadow GP_PUT - n (mod 2^X_BITS), for the shadow's move and the request's need below.
    shadow_minus_n: DFF<Bits<X_BITS>>,
    /// shadow GP_PUT + n, for the room a shadow move leaves (`req_room`).
    shadow_plus_n: DFF<Bits<X_BITS>>,
    /// n - d: the shadow update passes soft GP_PUT when free >= n - d (one compare in stage 2,
    /// no adder before it).
    req_room: DFF<Bits<X_BITS>>,
    /// The request's need against free: count - d (mod 2^X_BITS; d = 0 without a shadow
    /// update), so stage 2 decides with one subtraction: free - need >= 0.
    req_need: DFF<Bits<X_BITS>>,
    /// n - 1 and n + 1, set at reset.
    last_index: DFF<Bits<IDX_BITS>>,
    entries_plus_one: DFF<Bits<X_BITS>>,
    // Stage 2: the atomic operation.
    /// Soft GP_PUT, kept like free as both outcomes of the last cycle's operation:
    /// `soft_granted` = wrap(soft + count) if it was granted, `soft_kept` if not;
    /// `last_granted` picks one (`soft_now`), so the grant drives one flip-flop, not the
    /// enable of the index register.
    soft_granted: DFF<Bits<IDX_BITS>>,
    soft_kept: DFF<Bits<IDX_BITS>>,
    soft_now: Signal<Local, Bits<IDX_BITS>>,
    /// The lap before the last cycle's allocation; `lap_wrap` says that allocation wraps if
    /// granted, so the lap now is `soft_lap + (last_granted & lap_wrap)` (the grant drives one
    /// flip-flop, `last_granted`, not 16 enables).
    soft_lap: DFF<Bits<16>>,
    lap_wrap: DFF<Bit>,
    /// free = wrap(shadow - soft), the entries ahead of soft GP_PUT (shadow updates included),
    /// kept as both outcomes of the last cycle's operation: `free_granted` if it was granted,
    /// `free_kept` if not; `last_granted` picks one. The grant decision compares the request
    /// with both (two carry chains from registers) and `last_granted` selects one bit, so the
    /// loop through the atomic operation is a multiplexer and an AND, not a carry chain.
    free_granted: DFF<Bits<X_BITS>>,
    free_kept: DFF<Bits<X_BITS>>,
    last_granted: DFF<Bit>,
    resp_valid_reg: DFF<Bit>,
    resp_ok_reg: DFF<Bit>,
    resp_first_reg: DFF<Bits<IDX_BITS>>,
    resp_lap_reg: DFF<Bits<16>>,
    shadow_passed_soft: DFF<Bit>,
    lap_now: Signal<Local, Bits<16>>,
    shadow_delta: Signal<Local, Bits<X_BITS>>,
    shadow_ahead: Signal<Local, Bits<X_BITS>>,
    shadow_behind: Signal<Local, Bits<X_BITS>>,
    room_ahead: Signal<Local, Bits<X_BITS>>,
    room_behind: Signal<Local, Bits<X_BITS>>,
    /// free + d (d = the shadow's move, 0 without an update) and free + d - count, from each
    /// outcome, and as picked by `last_granted`.
    granted_shadowed: Signal<Local, Bits<X_BITS>>,
    kept_shadowed: Signal<Local, Bits<X_BITS>>,
    granted_after: Signal<Local, Bits<X_BITS>>,
    kept_after: Signal<Local, Bits<X_BITS>>,
    free_shadowed: Signal<Local, Bits<X_BITS>>,
    free_shadowed_after: Signal<Local, Bits<X_BITS>>,
    need_ahead_sum: Signal<Local, Bits<X_BITS>>,
    need_ahead_carry: Signal<Local, Bits<X_BITS>>,
    need_behind_sum: Signal<Local, Bits<X_BITS>>,
    need_behind_carry: Signal<Local, Bits<X_BITS>>,
    fits_granted: Signal<Local, Bit>,
    passed_granted: Signal<Local, Bit>,
    passed_kept: Signal<Local, Bit>,
    fits_kept: Signal<Local, Bit>,
    soft_plus_count: Signal<Local, Bits<IDX_BITS>>,
    soft_past_end: Signal<Local, Bits<X_BITS>>,
    entries_minus_one: Signal<Local, Bits<IDX_BITS>>,
    fits: Signal<Local, Bit>,
    grant: Signal<Local, Bit>,
    pow2_form: Constant<Bit>,
    one: Constant<Bits<X_BITS>>,
    two: Constant<Bits<X_BITS>>,
    sign_bit: Constant<Bits<X_BITS>>,
}

impl<const IDX_BITS: usize, const X_BITS: usize> Default for SoftPutAllocator<IDX_BITS, X_BITS> {
    fn default() -> Self {
        Self::with_form(WrapForm::Pow2)
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> SoftPutAllocator<IDX_BITS, X_BITS> {
    /// An allocator whose wraps use `form` (WQ-2).
    pub fn with_form(form: WrapForm) -> Self {
        assert!(
            IDX_BITS >= 1 && X_BITS == IDX_BITS + 2,
            "SoftPutAllocator: X_BITS = IDX_BITS + 2"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ring_entries: Default::default(),
            setup_valid: Default::default(),
            setup_gp_get: Default::default(),
            shadow_valid: Default::default(),
            shadow_gp_put_value: Default::default(),
            alloc_valid: Default::default(),
            alloc_ready: Default::default(),
            alloc_count: Default::default(),
            resp_valid: Default::default(),
            resp_ok: Default::default(),
            resp_first: Default::default(),
            resp_lap: Default::default(),
            soft_gp_put: Default::default(),
            shadow_gp_put: Default::default(),
            violation: Default::default(),
            req_valid: Default::default(),
            req_count: Default::default(),
            req_countable: Default::default(),
            req_count_minus_n: Default::default(),
            req_setup: Default::default(),
            req_setup_soft: Default::default(),
            req_setup_free: Default::default(),
            req_shadow: Default::default(),
            req_shadow_delta: Default::default(),
            shadow_gp_put_reg: Default::default(),
            shadow_minus_n: Default::default(),
            shadow_plus_n: Default::default(),
            req_room: Default::default(),
            req_need: Default::default(),
            last_index: Default::default(),
            entries_plus_one: Default::default(),
            soft_granted: Default::default(),
            soft_kept: Default::default(),
            soft_now: Default::default(),
            soft_lap: Default::default(),
            lap_wrap: Default::default(),
            free_granted: Default::default(),
            free_kept: Default::default(),
            last_granted: Default::default(),
            resp_valid_reg: Default::default(),
            resp_ok_reg: Default::default(),
            resp_first_reg: Default::default(),
            resp_lap_reg: Default::default(),
            shadow_passed_soft: Default::default(),
            lap_now: Default::default(),
            shadow_delta: Default::default(),
            shadow_ahead: Default::default(),
            shadow_behind: Default::default(),
            room_ahead: Default::default(),
            room_behind: Default::default(),
            granted_shadowed: Default::default(),
            kept_shadowed: Default::default(),
            granted_after: Default::default(),
            kept_after: Default::default(),
            free_shadowed: Default::default(),
            free_shadowed_after: Default::default(),
            need_ahead_sum: Default::default(),
            need_ahead_carry: Default::default(),
            need_behind_sum: Default::default(),
            need_behind_carry: Default::default(),
            fits_granted: Default::default(),
            passed_granted: Default::default(),
            passed_kept: Default::default(),
            fits_kept: Default::default(),
            soft_plus_count: Default::default(),
            soft_past_end: Default::default(),
            entries_minus_one: Default::default(),
            fits: Default::default(),
            grant: Default::default(),
            pow2_form: Constant::new(form == WrapForm::Pow2),
            one: Constant::new(bits::<X_BITS>(1)),
            two: Constant::new(bits::<X_BITS>(2)),
            sign_bit: Constant::new(bits::<X_BITS>(1u64 << (X_BITS - 1))),
        }
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> Logic for SoftPutAllocator<IDX_BITS, X_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            req_valid,
            req_count,
            req_countable,
            req_count_minus_n,
            req_setup,
            req_setup_soft,
            req_setup_free,
            req_shadow,
            req_shadow_delta,
            shadow_gp_put_reg,
            shadow_minus_n,
            shadow_plus_n,
            req_room,
            req_need,
            last_index,
            entries_plus_one,
            soft_granted,
            soft_kept,
            soft_lap,
            lap_wrap,
            free_granted,
            free_kept,
            last_granted,
            resp_valid_reg,
            resp_ok_reg,
            resp_first_reg,
            resp_lap_reg,
            shadow_passed_soft
        );
        self.entries_minus_one.next =
            self.ring_entries.val().get_bits::<IDX_BITS>(0) - bits::<IDX_BITS>(1);
        // ---- Stage 1: register the request, compute what the inputs alone decide.
        self.alloc_ready.next = !self.reset.val();
        self.req_valid.d.next = self.alloc_valid.val() & !self.setup_valid.val();
        self.req_count.d.next = self.alloc_count.val();
        self.req_countable.d.next = self.alloc_valid.val()
            & !self.setup_valid.val()
            & (self.alloc_count.val() != bits::<X_BITS>(0))
            & ((self.alloc_count.val() & self.sign_bit.val()) == bits::<X_BITS>(0));
        self.req_count_minus_n.d.next = self.alloc_count.val() - self.ring_entries.val();
        self.req_setup.d.next = self.setup_valid.val();
        // wrap(GP_GET + 1) of an index: 0 after the last index.
        self.req_setup_soft.d.next = self.setup_gp_get.val() + bits::<IDX_BITS>(1);
        if self.setup_gp_get.val() == self.last_index.q.val() {
            self.req_setup_soft.d.next = bits::<IDX_BITS>(0);
        }
        self.req_setup_free.d.next = self.ring_entries.val() - self.two.val();
        self.req_shadow.d.next = self.shadow_valid.val() & !self.setup_valid.val();
        // d = wrap(value - shadow): value - shadow, or value - (shadow - n) when negative.
        self.shadow_ahead.next = bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val())
            - bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_reg.q.val());
        self.shadow_behind.next = bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val())
            - self.shadow_minus_n.q.val();
        self.shadow_delta.next = self.shadow_ahead.val();
        if self.shadow_gp_put_value.val() < self.shadow_gp_put_reg.q.val() {
            self.shadow_delta.next = self.shadow_behind.val();
        }
        // n - d: (shadow + n) - value, or shadow - value when the shadow wraps (each one
        // subtraction from registers and the input, beside d's).
        self.room_ahead.next = self.shadow_plus_n.q.val()
            - bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val());
        self.room_behind.next = bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_reg.q.val())
            - bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val());
        self.req_room.d.next = self.room_ahead.val();
        if self.shadow_gp_put_value.val() < self.shadow_gp_put_reg.q.val() {
            self.req_room.d.next = self.room_behind.val();
        }
        // d is 0 in a cycle without a shadow update, so stage 2 always adds it.
        // need = count - d: count + shadow - value, or count + (shadow - n) - value when the
        // shadow wraps; each one carry chain after a carry-save step (-value = !value + 1).
        self.need_ahead_sum.next = self.alloc_count.val()
            ^ bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_reg.q.val())
            ^ !bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val());
        self.need_ahead_carry.next = (self.alloc_count.val()
            & bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_reg.q.val()))
            | (self.alloc_count.val()
                & !bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val()))
            | (bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_reg.q.val())
                & !bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val()));
        self.need_behind_sum.next = self.alloc_count.val()
            ^ self.shadow_minus_n.q.val()
            ^ !bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val());
        self.need_behind_carry.next = (self.alloc_count.val() & self.shadow_minus_n.q.val())
            | (self.alloc_count.val()
                & !bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val()))
            | (self.shadow_minus_n.q.val()
                & !bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val()));
        self.req_shadow_delta.d.next = bits::<X_BITS>(0);
        self.req_need.d.next = self.alloc_count.val();
        if self.shadow_valid.val() & !self.setup_valid.val() {
            self.req_shadow_delta.d.next = self.shadow_delta.val();
            if self.shadow_gp_put_value.val() < self.shadow_gp_put_reg.q.val() {
                self.req_need.d.next = self.need_behind_sum.val()
                    + ((self.need_behind_carry.val() << bits::<X_BITS>(1)) | self.one.val());
            } else {
                self.req_need.d.next = self.need_ahead_sum.val()
                    + ((self.need_ahead_carry.val() << bits::<X_BITS>(1)) | self.one.val());
            }
        }
        if self.shadow_valid.val() {
            self.shadow_gp_put_reg.d.next = self.shadow_gp_put_value.val();
            self.shadow_minus_n.d.next =
                bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val())
                    - self.ring_entries.val();
            self.shadow_plus_n.d.next =
                bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_value.val())
                    + self.ring_entries.val();
        }
        if self.setup_valid.val() {
            // Shadow GP_PUT = wrap(GP_GET - 1): the last index before 0.
            self.shadow_gp_put_reg.d.next = self.setup_gp_get.val() - bits::<IDX_BITS>(1);
            self.shadow_minus_n.d.next = bit_cast::<X_BITS, IDX_BITS>(self.setup_gp_get.val())
                - self.entries_plus_one.q.val();
            // wrap(GP_GET - 1) + n = GP_GET + (n - 1), or (n - 1) + n at GP_GET 0.
            self.shadow_plus_n.d.next = bit_cast::<X_BITS, IDX_BITS>(self.setup_gp_get.val())
                + bit_cast::<X_BITS, IDX_BITS>(self.last_index.q.val());
            if self.setup_gp_get.val() == bits::<IDX_BITS>(0) {
                self.shadow_gp_put_reg.d.next = self.last_index.q.val();
                self.shadow_minus_n.d.next = !bits::<X_BITS>(0);
                self.shadow_plus_n.d.next =
                    bit_cast::<X_BITS, IDX_BITS>(self.last_index.q.val()) + self.ring_entries.val();
            }
        }
        // ---- Stage 2: the atomic operation on soft GP_PUT and free.
        // From each outcome of the last operation: free + d, and free + d - count = free -
        // need (need registered in stage 1).
        self.granted_shadowed.next = self.free_granted.q.val() + self.req_shadow_delta.q.val();
        self.kept_shadowed.next = self.free_kept.q.val() + self.req_shadow_delta.q.val();
        self.granted_after.next = self.free_granted.q.val() - self.req_need.q.val();
        self.kept_after.next = self.free_kept.q.val() - self.req_need.q.val();
        // count <= free (with this request's cycle's shadow update): no borrow.
        self.fits_granted.next =
            (self.granted_after.val() & self.sign_bit.val()) == bits::<X_BITS>(0);
        self.fits_kept.next = (self.kept_after.val() & self.sign_bit.val()) == bits::<X_BITS>(0);
        self.fits.next = self.fits_kept.val();
        self.free_shadowed.next = self.kept_shadowed.val();
        self.free_shadowed_after.next = self.kept_after.val();
        if self.last_granted.q.val() {
            self.fits.next = self.fits_granted.val();
            self.free_shadowed.next = self.granted_shadowed.val();
            self.free_shadowed_after.next = self.granted_after.val();
        }
        self.grant.next = self.req_countable.q.val() & self.fits.val();
        self.soft_now.next = self.soft_kept.q.val();
        if self.last_granted.q.val() {
            self.soft_now.next = self.soft_granted.q.val();
        }
        self.soft_plus_count.next =
            self.soft_now.val() + self.req_count.q.val().get_bits::<IDX_BITS>(0);
        self.soft_past_end.next =
            bit_cast::<X_BITS, IDX_BITS>(self.soft_now.val()) + self.req_count_minus_n.q.val();
        // The response of the request, registered.
        self.resp_valid_reg.d.next = self.req_valid.q.val();
        self.resp_ok_reg.d.next = self.grant.val();
        self.resp_first_reg.d.next = self.soft_now.val();
        // The lap now: the registered lap plus last cycle's wrap, applied here.
        self.lap_now.next = self.soft_lap.q.val();
        if self.last_granted.q.val() & self.lap_wrap.q.val() {
            self.lap_now.next = self.soft_lap.q.val() + bits::<16>(1);
        }
        self.soft_lap.d.next = self.lap_now.val();
        self.resp_lap_reg.d.next = self.lap_now.val();
        self.lap_wrap.d.next =
            (self.soft_past_end.val() & self.sign_bit.val()) == bits::<X_BITS>(0);
        // Both outcomes of this operation; the grant only picks which one is free next.
        self.free_kept.d.next = self.free_shadowed.val();
        self.free_granted.d.next = self.free_shadowed_after.val();
        self.last_granted.d.next = self.grant.val();
        // Both outcomes of soft GP_PUT: kept, or wrap(soft + count), 0 <= soft + count < 2n.
        self.soft_kept.d.next = self.soft_now.val();
        if self.pow2_form.val() {
            self.soft_granted.d.next = self.soft_plus_count.val() & self.last_index.q.val();
        } else if (self.soft_past_end.val() & self.sign_bit.val()) == bits::<X_BITS>(0) {
            self.soft_granted.d.next = self.soft_past_end.val().get_bits::<IDX_BITS>(0);
        } else {
            self.soft_granted.d.next = self.soft_plus_count.val();
        }
        // Shadow GP_PUT never passes soft GP_PUT: free + d stays below n, i.e. free < n - d
        // (compared from each outcome, so the pick is after the compare, not before it).
        self.passed_granted.next = self.free_granted.q.val() >= self.req_room.q.val();
        self.passed_kept.next = self.free_kept.q.val() >= self.req_room.q.val();
        self.shadow_passed_soft.d.next = self.req_shadow.q.val() & self.passed_kept.val();
        if self.last_granted.q.val() {
            self.shadow_passed_soft.d.next = self.req_shadow.q.val() & self.passed_granted.val();
        }
        if self.req_setup.q.val() {
            self.soft_kept.d.next = self.req_setup_soft.q.val();
            self.free_kept.d.next = self.req_setup_free.q.val();
            self.last_granted.d.next = false;
            self.soft_lap.d.next = bits::<16>(0);
            self.lap_wrap.d.next = false;
        }
        self.violation.next = (self.alloc_valid.val()
            & (self.alloc_count.val() == bits::<X_BITS>(0)))
            // index >= n, as index > n - 1 (the registered last index: IDX_BITS-bit compares)
            | (self.setup_valid.val() & (self.setup_gp_get.val() > self.last_index.q.val()))
            | (self.shadow_valid.val()
                & (self.shadow_gp_put_value.val() > self.last_index.q.val()))
            | self.shadow_passed_soft.q.val();
        self.resp_valid.next = self.resp_valid_reg.q.val();
        self.resp_ok.next = self.resp_ok_reg.q.val();
        self.resp_first.next = self.resp_first_reg.q.val();
        self.resp_lap.next = self.resp_lap_reg.q.val();
        self.soft_gp_put.next = self.soft_now.val();
        self.shadow_gp_put.next = self.shadow_gp_put_reg.q.val();
        if self.reset.val() {
            self.req_valid.d.next = false;
            self.req_countable.d.next = false;
            self.req_setup.d.next = false;
            self.req_shadow.d.next = false;
            // A shadow update seen in reset moves nothing: free after reset is 0 + d = 0.
            self.req_shadow_delta.d.next = bits::<X_BITS>(0);
            self.req_need.d.next = self.alloc_count.val();
            self.shadow_gp_put_reg.d.next = bits::<IDX_BITS>(0);
            self.shadow_minus_n.d.next = bits::<X_BITS>(0) - self.ring_entries.val();
            self.shadow_plus_n.d.next = self.ring_entries.val();
            self.last_index.d.next = self.entries_minus_one.val();
            self.entries_plus_one.d.next = self.ring_entries.val() + self.one.val();
            self.soft_kept.d.next = bits::<IDX_BITS>(0);
            self.soft_lap.d.next = bits::<16>(0);
            self.lap_wrap.d.next = false;
            self.free_kept.d.next = bits::<X_BITS>(0);
            self.free_granted.d.next = bits::<X_BITS>(0);
            self.last_granted.d.next = false;
            self.resp_valid_reg.d.next = false;
            self.resp_ok_reg.d.next = false;
            self.resp_first_reg.d.next = bits::<IDX_BITS>(0);
            self.resp_lap_reg.d.next = bits::<16>(0);
            self.shadow_passed_soft.d.next = false;
            self.violation.next = false;
        }
    }
}
