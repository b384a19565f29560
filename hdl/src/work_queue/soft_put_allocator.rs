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
//!   refused and raises `violation`, as does an index input outside the ring (a wrap out of
//!   range).
//! - `resp_lap` counts how often soft GP_PUT has wrapped before the first entry: with the index
//!   it numbers the allocation uniquely, which the threads use as the value of their guard
//!   semaphores (a semaphore per entry is reused on every lap of the ring). Reading: the
//!   specification's soft GP_PUT is the index; the lap is this design's addition, kept beside it.
//! - Shadow (`shadow_valid` with `shadow_gp_put_value`): the host advanced GP_GET and wrote the
//!   new shadow GP_PUT = wrap(GP_GET - 1) (the GPU channel keeps GP_PUT = shadow GP_PUT =
//!   wrap(GP_GET - 1); after an advance that is the GP_GET just left).
//!   Set-up wins over an allocation in the same cycle; an allocation in the cycle of a shadow
//!   update is checked against the shadow before the update.
//!
//! Parameters: `IDX_BITS` (ring index width), `X_BITS` = `IDX_BITS` + 2; the ring size n is the
//! configuration input `ring_entries` (as in [`super::gp_fifo::GpFifo`]), the wrap form a
//! construction parameter ([`SoftPutAllocator::with_form`]).
//! Ports: `clock`, `reset`, `ring_entries`, the set-up and shadow inputs above, `alloc_valid`/`alloc_ready`/
//! `alloc_count` (`X_BITS`), `resp_valid`/`resp_ok`/`resp_first`/`resp_lap` (16 bits),
//! `soft_gp_put`, `shadow_gp_put`, `violation`.
//! Timing: `alloc_ready` is high except in reset; the response is registered, one cycle after
//! the request (latency 1, one allocation per cycle).
use super::ring_wrap::{RingWrap, WrapForm};
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
    soft_gp_put_reg: DFF<Bits<IDX_BITS>>,
    soft_lap: DFF<Bits<16>>,
    shadow_gp_put_reg: DFF<Bits<IDX_BITS>>,
    resp_valid_reg: DFF<Bit>,
    resp_ok_reg: DFF<Bit>,
    resp_first_reg: DFF<Bits<IDX_BITS>>,
    resp_lap_reg: DFF<Bits<16>>,
    /// wrap(shadow - soft): free entries ahead of soft GP_PUT.
    free_wrap: RingWrap<IDX_BITS, X_BITS>,
    /// wrap(setup_gp_get + 1) and wrap(setup_gp_get - 1).
    setup_soft: RingWrap<IDX_BITS, X_BITS>,
    setup_shadow: RingWrap<IDX_BITS, X_BITS>,
    soft_plus_count: Signal<Local, Bits<X_BITS>>,
    soft_next: Signal<Local, Bits<X_BITS>>,
    pow2_form: Constant<Bit>,
    index_max: Constant<Bits<X_BITS>>,
    fits: Signal<Local, Bit>,
    grant: Signal<Local, Bit>,
    one: Constant<Bits<X_BITS>>,
}

impl<const IDX_BITS: usize, const X_BITS: usize> Default for SoftPutAllocator<IDX_BITS, X_BITS> {
    fn default() -> Self {
        Self::with_form(WrapForm::Pow2)
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> SoftPutAllocator<IDX_BITS, X_BITS> {
    /// An allocator whose wraps use `form` (WQ-2).
    pub fn with_form(form: WrapForm) -> Self {
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
            soft_gp_put_reg: Default::default(),
            soft_lap: Default::default(),
            shadow_gp_put_reg: Default::default(),
            resp_valid_reg: Default::default(),
            resp_ok_reg: Default::default(),
            resp_first_reg: Default::default(),
            resp_lap_reg: Default::default(),
            free_wrap: RingWrap::new(form),
            setup_soft: RingWrap::new(form),
            setup_shadow: RingWrap::new(form),
            soft_plus_count: Default::default(),
            soft_next: Default::default(),
            pow2_form: Constant::new(form == WrapForm::Pow2),
            index_max: Constant::new(bits::<X_BITS>((1u64 << IDX_BITS) - 1)),
            fits: Default::default(),
            grant: Default::default(),
            one: Constant::new(bits::<X_BITS>(1)),
        }
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> Logic for SoftPutAllocator<IDX_BITS, X_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            soft_gp_put_reg,
            soft_lap,
            shadow_gp_put_reg,
            resp_valid_reg,
            resp_ok_reg,
            resp_first_reg,
            resp_lap_reg
        );
        self.free_wrap.entries.next = self.ring_entries.val();
        self.setup_soft.entries.next = self.ring_entries.val();
        self.setup_shadow.entries.next = self.ring_entries.val();
        self.free_wrap.x.next = bit_cast::<X_BITS, IDX_BITS>(self.shadow_gp_put_reg.q.val())
            - bit_cast::<X_BITS, IDX_BITS>(self.soft_gp_put_reg.q.val());
        self.soft_plus_count.next =
            bit_cast::<X_BITS, IDX_BITS>(self.soft_gp_put_reg.q.val()) + self.alloc_count.val();
        // wrap(soft + count), inline (0 <= soft + count < 2n): the input-dependent value is
        // decided here, not in a sub-block that feeds back (Verilator UNOPTFLAT).
        self.soft_next.next = self.soft_plus_count.val();
        if self.pow2_form.val() {
            self.soft_next.next =
                self.soft_plus_count.val() & (self.ring_entries.val() - self.one.val());
        } else if self.soft_plus_count.val() >= self.ring_entries.val() {
            self.soft_next.next = self.soft_plus_count.val() - self.ring_entries.val();
        }
        self.setup_soft.x.next =
            bit_cast::<X_BITS, IDX_BITS>(self.setup_gp_get.val()) + self.one.val();
        self.setup_shadow.x.next =
            bit_cast::<X_BITS, IDX_BITS>(self.setup_gp_get.val()) - self.one.val();
        self.alloc_ready.next = !self.reset.val();
        self.fits.next = (self.alloc_count.val()
            <= bit_cast::<X_BITS, IDX_BITS>(self.free_wrap.wrapped.val()))
            & (self.alloc_count.val() != bits::<X_BITS>(0));
        self.grant.next = self.alloc_valid.val() & self.fits.val() & !self.setup_valid.val();
        self.violation.next = (self.alloc_valid.val()
            & (self.alloc_count.val() == bits::<X_BITS>(0)))
            | self.free_wrap.out_of_range.val()
            | (self.grant.val() & (self.soft_next.val() > self.index_max.val()))
            | (self.setup_valid.val()
                & (self.setup_soft.out_of_range.val() | self.setup_shadow.out_of_range.val()));
        // The response of this cycle's request, registered.
        self.resp_valid_reg.d.next = self.alloc_valid.val() & !self.setup_valid.val();
        self.resp_ok_reg.d.next = self.grant.val();
        self.resp_first_reg.d.next = self.soft_gp_put_reg.q.val();
        self.resp_lap_reg.d.next = self.soft_lap.q.val();
        if self.grant.val() {
            self.soft_gp_put_reg.d.next = self.soft_next.val().get_bits::<IDX_BITS>(0);
            if self.soft_plus_count.val() >= self.ring_entries.val() {
                self.soft_lap.d.next = self.soft_lap.q.val() + bits::<16>(1);
            }
        }
        if self.shadow_valid.val() {
            self.shadow_gp_put_reg.d.next = self.shadow_gp_put_value.val();
        }
        if self.setup_valid.val() {
            self.soft_gp_put_reg.d.next = self.setup_soft.wrapped.val();
            self.shadow_gp_put_reg.d.next = self.setup_shadow.wrapped.val();
            self.soft_lap.d.next = bits::<16>(0);
        }
        self.resp_valid.next = self.resp_valid_reg.q.val();
        self.resp_ok.next = self.resp_ok_reg.q.val();
        self.resp_first.next = self.resp_first_reg.q.val();
        self.resp_lap.next = self.resp_lap_reg.q.val();
        self.soft_gp_put.next = self.soft_gp_put_reg.q.val();
        self.shadow_gp_put.next = self.shadow_gp_put_reg.q.val();
        if self.reset.val() {
            self.soft_gp_put_reg.d.next = bits::<IDX_BITS>(0);
            self.soft_lap.d.next = bits::<16>(0);
            self.shadow_gp_put_reg.d.next = bits::<IDX_BITS>(0);
            self.resp_valid_reg.d.next = false;
            self.resp_ok_reg.d.next = false;
            self.resp_first_reg.d.next = bits::<IDX_BITS>(0);
            self.resp_lap_reg.d.next = bits::<16>(0);
            self.violation.next = false;
        }
    }
}
