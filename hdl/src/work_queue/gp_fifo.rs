//! `GpFifo` — one channel's ring of work-queue entries (SPEC WQ-1, WQ-2): the GP_GET and GP_PUT
//! registers, with empty and full exactly as WQ-1 defines them.
//!
//! - Empty: GP_GET == GP_PUT. Full: GP_GET == wrap(GP_PUT + 1). `fill` = wrap(GP_PUT - GP_GET),
//!   the entries submitted and not yet executed (0..=n-1).
//! - `put_valid` writes `put_value` into GP_PUT (software submits the entries up to, not
//!   including, `put_value`). Reading: GP_PUT is a software register, so any index is
//!   accepted; the owner of the ring keeps it within WQ-1.
//! - `put_follow` (a GPU-owned ring, WQ-5/WQ-6): GP_PUT is kept at wrap(GP_GET - 1), updated in
//!   the same edge as GP_GET (after an advance GP_PUT becomes the old GP_GET); `put_valid` is
//!   then ignored. The ring is full all the time: the host is held back by semaphores, not by
//!   GP_PUT.
//! - `get_advance` moves GP_GET to wrap(GP_GET + 1): the host finished the entry at GP_GET
//!   (WQ-3). An advance while empty is refused and raises `violation` for that cycle.
//!
//! Reading: the ring size n is the configuration input `ring_entries` (2..=2^`IDX_BITS`), as the
//! GPFIFO size is a register of a real host interface; the wrap form (WQ-2) is a construction
//! parameter ([`GpFifo::with_form`]; the default is the AND form, for power-of-two sizes). A size
//! outside 2..=2^`IDX_BITS`, or not a power of two with the AND form, raises `violation` every
//! cycle it is configured, as does a GP_PUT written beyond the ring (a wrap out of range).
//!
//! Parameters: `IDX_BITS` (index width), `X_BITS` = `IDX_BITS` + 2.
//! Ports: `clock`, `reset` (synchronous: GP_GET = GP_PUT = 0), `ring_entries`, `put_valid`,
//! `put_value`, `put_follow`, `get_advance`, outputs `gp_get`, `gp_put`, `empty`, `full`, `fill`, `violation`.
//! Timing: GP_GET/GP_PUT are registers; a write or advance in cycle t shows in cycle t+1;
//! `empty`/`full`/`fill` are decoded from the registers and `ring_entries`. wrap(GP_GET - 1) and
//! wrap(GP_PUT + 1) are kept in registers beside the pointers (set at reset from the configured
//! size, so `ring_entries` must be set while `reset` is high and kept), so a following GP_PUT and
//! `full` need no arithmetic.
use super::ring_wrap::{RingWrap, WrapForm};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct GpFifo<const IDX_BITS: usize, const X_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ring_entries: Signal<In, Bits<X_BITS>>,
    pub put_valid: Signal<In, Bit>,
    pub put_value: Signal<In, Bits<IDX_BITS>>,
    pub put_follow: Signal<In, Bit>,
    pub get_advance: Signal<In, Bit>,
    pub gp_get: Signal<Out, Bits<IDX_BITS>>,
    pub gp_put: Signal<Out, Bits<IDX_BITS>>,
    pub empty: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    pub fill: Signal<Out, Bits<IDX_BITS>>,
    pub violation: Signal<Out, Bit>,
    gp_get_reg: DFF<Bits<IDX_BITS>>,
    gp_put_reg: DFF<Bits<IDX_BITS>>,
    /// wrap(GP_GET - 1) and wrap(GP_PUT + 1), kept beside the pointers so that no arithmetic
    /// lies between one pointer and the other or the `full` flag.
    get_prev_reg: DFF<Bits<IDX_BITS>>,
    put_next_reg: DFF<Bits<IDX_BITS>>,
    /// wrap(GP_GET + 1): where an advance moves GP_GET.
    get_next: RingWrap<IDX_BITS, X_BITS>,
    /// wrap(-1) and wrap(+1): the reset values of `get_prev_reg` and `put_next_reg`.
    reset_prev: RingWrap<IDX_BITS, X_BITS>,
    reset_next: RingWrap<IDX_BITS, X_BITS>,
    /// wrap(put_value + 1): `put_next_reg` after a write of GP_PUT.
    put_value_next: RingWrap<IDX_BITS, X_BITS>,
    /// wrap(GP_PUT - GP_GET).
    fill_wrap: RingWrap<IDX_BITS, X_BITS>,
    one: Constant<Bits<X_BITS>>,
    minus_one: Constant<Bits<X_BITS>>,
    max_entries: Constant<Bits<X_BITS>>,
    /// The configured size is outside 2..=2^IDX_BITS, or not a power of two for the AND form.
    size_bad: Signal<Local, Bit>,
    pow2_form: Constant<Bit>,
}

impl<const IDX_BITS: usize, const X_BITS: usize> GpFifo<IDX_BITS, X_BITS> {
    /// A ring using the given wrap form (see [`RingWrap::new`]).
    pub fn with_form(form: WrapForm) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ring_entries: Default::default(),
            put_valid: Default::default(),
            put_value: Default::default(),
            put_follow: Default::default(),
            get_advance: Default::default(),
            gp_get: Default::default(),
            gp_put: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            fill: Default::default(),
            violation: Default::default(),
            gp_get_reg: Default::default(),
            gp_put_reg: Default::default(),
            get_prev_reg: Default::default(),
            put_next_reg: Default::default(),
            get_next: RingWrap::new(form),
            reset_prev: RingWrap::new(form),
            reset_next: RingWrap::new(form),
            put_value_next: RingWrap::new(form),
            fill_wrap: RingWrap::new(form),
            one: Constant::new(bits::<X_BITS>(1)),
            minus_one: Constant::new(bits::<X_BITS>((1u64 << X_BITS) - 1)),
            max_entries: Constant::new(bits::<X_BITS>(1u64 << IDX_BITS)),
            size_bad: Default::default(),
            pow2_form: Constant::new(form == WrapForm::Pow2),
        }
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> Default for GpFifo<IDX_BITS, X_BITS> {
    fn default() -> Self {
        Self::with_form(WrapForm::Pow2)
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> Logic for GpFifo<IDX_BITS, X_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            gp_get_reg,
            gp_put_reg,
            get_prev_reg,
            put_next_reg
        );
        self.get_next.entries.next = self.ring_entries.val();
        self.reset_prev.entries.next = self.ring_entries.val();
        self.reset_next.entries.next = self.ring_entries.val();
        self.put_value_next.entries.next = self.ring_entries.val();
        self.fill_wrap.entries.next = self.ring_entries.val();
        self.size_bad.next = (self.ring_entries.val() < bits::<X_BITS>(2))
            | (self.ring_entries.val() > self.max_entries.val())
            | (self.pow2_form.val()
                & ((self.ring_entries.val() & (self.ring_entries.val() - self.one.val()))
                    != bits::<X_BITS>(0)));
        self.get_next.x.next =
            bit_cast::<X_BITS, IDX_BITS>(self.gp_get_reg.q.val()) + self.one.val();
        self.reset_prev.x.next = self.minus_one.val();
        self.reset_next.x.next = self.one.val();
        self.put_value_next.x.next =
            bit_cast::<X_BITS, IDX_BITS>(self.put_value.val()) + self.one.val();
        self.fill_wrap.x.next = bit_cast::<X_BITS, IDX_BITS>(self.gp_put_reg.q.val())
            - bit_cast::<X_BITS, IDX_BITS>(self.gp_get_reg.q.val());
        self.gp_get.next = self.gp_get_reg.q.val();
        self.gp_put.next = self.gp_put_reg.q.val();
        self.empty.next = self.gp_get_reg.q.val() == self.gp_put_reg.q.val();
        self.full.next = self.gp_get_reg.q.val() == self.put_next_reg.q.val();
        self.fill.next = self.fill_wrap.wrapped.val();
        self.violation.next = (self.get_advance.val() & self.empty.val())
            | self.size_bad.val()
            | self.get_next.out_of_range.val()
            | self.put_value_next.out_of_range.val()
            | self.reset_prev.out_of_range.val()
            | self.reset_next.out_of_range.val()
            | self.fill_wrap.out_of_range.val();
        if self.get_advance.val() & !self.empty.val() {
            self.gp_get_reg.d.next = self.get_next.wrapped.val();
            self.get_prev_reg.d.next = self.gp_get_reg.q.val();
        }
        if self.put_follow.val() {
            if self.get_advance.val() & !self.empty.val() {
                self.gp_put_reg.d.next = self.gp_get_reg.q.val();
                self.put_next_reg.d.next = self.get_next.wrapped.val();
            } else {
                self.gp_put_reg.d.next = self.get_prev_reg.q.val();
                self.put_next_reg.d.next = self.gp_get_reg.q.val();
            }
        } else if self.put_valid.val() {
            self.gp_put_reg.d.next = self.put_value.val();
            self.put_next_reg.d.next = self.put_value_next.wrapped.val();
        }
        if self.reset.val() {
            self.gp_get_reg.d.next = bits::<IDX_BITS>(0);
            self.gp_put_reg.d.next = bits::<IDX_BITS>(0);
            self.get_prev_reg.d.next = self.reset_prev.wrapped.val();
            self.put_next_reg.d.next = self.reset_next.wrapped.val();
            self.violation.next = false;
        }
    }
}
