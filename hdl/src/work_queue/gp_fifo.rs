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
//! cycle after reset (the check is registered), as does a GP_PUT written beyond the ring (`put_value` >= n while
//! `put_valid` writes it).
//!
//! Parameters: `IDX_BITS` (index width), `X_BITS` = `IDX_BITS` + 2.
//! Ports: `clock`, `reset` (synchronous: GP_GET = GP_PUT = 0), `ring_entries`, `put_valid`,
//! `put_value`, `put_follow`, `get_advance`, outputs `gp_get`, `gp_put`, `empty`, `empty_next` (the
//! next cycle's `empty`: combinational from the inputs), `full`, `fill`, `violation`.
//! Timing: GP_GET/GP_PUT are registers; a write or advance in cycle t shows in cycle t+1;
//! `empty`/`full`/`fill` are decoded from registers and `ring_entries`. Beside the pointers,
//! registers keep wrap(GP_GET + 1), wrap(GP_GET - 1), wrap(GP_PUT + 1), n - GP_GET, the last
//! index n - 1 and `empty` itself (set at reset from the configured size, so `ring_entries` must
//! be set while `reset` is high and kept). With them every path is short: an advance loads
//! GP_GET from wrap(GP_GET + 1) and that from `x == n - 1 ? 0 : x + 1`; `empty` is decided from
//! the next pointers' sources by one equality; a following GP_PUT and `full` need no arithmetic;
//! and `fill` (compare form) is `GP_PUT - GP_GET` or `GP_PUT + (n - GP_GET)`, both computed at
//! once and chosen by `GP_PUT >= GP_GET`. The cycle behaviour is unchanged by these registers.
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
    /// `empty` of the next cycle (the value its register takes now), for a user that keeps
    /// its own registered copy of a decision that depends on it.
    pub empty_next: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    pub fill: Signal<Out, Bits<IDX_BITS>>,
    pub violation: Signal<Out, Bit>,
    gp_get_reg: DFF<Bits<IDX_BITS>>,
    gp_put_reg: DFF<Bits<IDX_BITS>>,
    /// wrap(GP_GET - 1) and wrap(GP_PUT + 1), kept beside the pointers so that no arithmetic
    /// lies between one pointer and the other or the `full` flag.
    get_prev_reg: DFF<Bits<IDX_BITS>>,
    put_next_reg: DFF<Bits<IDX_BITS>>,
    /// n - GP_GET (for `fill`, compare form) and n - 1, the last index.
    get_comp_reg: DFF<Bits<X_BITS>>,
    last_index_reg: DFF<Bits<IDX_BITS>>,
    /// wrap(GP_GET + 1): where an advance moves GP_GET, kept in a register; and its successor.
    get_next_reg: DFF<Bits<IDX_BITS>>,
    get_next_next: Signal<Local, Bits<IDX_BITS>>,
    get_at_last: Signal<Local, Bit>,
    /// GP_GET == GP_PUT, kept in a register (decided from the next pointers' sources).
    empty_reg: DFF<Bit>,
    /// wrap(-1) and wrap(+1): the reset values of `get_prev_reg` and `put_next_reg`.
    reset_prev: RingWrap<IDX_BITS, X_BITS>,
    reset_next: RingWrap<IDX_BITS, X_BITS>,
    /// wrap(put_value + 1): `put_next_reg` after a write of GP_PUT.
    put_value_next: Signal<Local, Bits<IDX_BITS>>,
    /// GP_PUT + (n - GP_GET): `fill` when GP_PUT < GP_GET (compare form).
    fill_around: Signal<Local, Bits<IDX_BITS>>,
    /// An advance happens this cycle.
    advancing: Signal<Local, Bit>,
    one: Constant<Bits<X_BITS>>,
    minus_one: Constant<Bits<X_BITS>>,
    max_entries: Constant<Bits<X_BITS>>,
    /// The configured size is outside 2..=2^IDX_BITS, or not a power of two for the AND form;
    /// registered (the size is configuration, set from reset on).
    size_bad: Signal<Local, Bit>,
    size_bad_reg: DFF<Bit>,
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
            empty_next: Default::default(),
            full: Default::default(),
            fill: Default::default(),
            violation: Default::default(),
            gp_get_reg: Default::default(),
            gp_put_reg: Default::default(),
            get_prev_reg: Default::default(),
            put_next_reg: Default::default(),
            get_comp_reg: Default::default(),
            last_index_reg: Default::default(),
            get_next_reg: Default::default(),
            get_next_next: Default::default(),
            get_at_last: Default::default(),
            empty_reg: Default::default(),
            reset_prev: RingWrap::new(form),
            reset_next: RingWrap::new(form),
            put_value_next: Default::default(),
            fill_around: Default::default(),
            advancing: Default::default(),
            one: Constant::new(bits::<X_BITS>(1)),
            minus_one: Constant::new(bits::<X_BITS>((1u64 << X_BITS) - 1)),
            max_entries: Constant::new(bits::<X_BITS>(1u64 << IDX_BITS)),
            size_bad: Default::default(),
            size_bad_reg: Default::default(),
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
            put_next_reg,
            get_comp_reg,
            last_index_reg,
            size_bad_reg,
            get_next_reg,
            empty_reg
        );
        self.reset_prev.entries.next = self.ring_entries.val();
        self.reset_next.entries.next = self.ring_entries.val();
        self.size_bad.next = (self.ring_entries.val() < bits::<X_BITS>(2))
            | (self.ring_entries.val() > self.max_entries.val())
            | (self.pow2_form.val()
                & ((self.ring_entries.val() & (self.ring_entries.val() - self.one.val()))
                    != bits::<X_BITS>(0)));
        self.size_bad_reg.d.next = self.size_bad.val()
            | self.reset_prev.out_of_range.val()
            | self.reset_next.out_of_range.val();
        self.reset_prev.x.next = self.minus_one.val();
        self.reset_next.x.next = self.one.val();
        // wrap(x + 1) of an index x < n, in either form: 0 after the last index n - 1.
        self.get_at_last.next = self.gp_get_reg.q.val() == self.last_index_reg.q.val();
        self.get_next_next.next = self.get_next_reg.q.val() + bits::<IDX_BITS>(1);
        if self.get_next_reg.q.val() == self.last_index_reg.q.val() {
            self.get_next_next.next = bits::<IDX_BITS>(0);
        }
        self.put_value_next.next = self.put_value.val() + bits::<IDX_BITS>(1);
        if self.put_value.val() == self.last_index_reg.q.val() {
            self.put_value_next.next = bits::<IDX_BITS>(0);
        }
        self.gp_get.next = self.gp_get_reg.q.val();
        self.gp_put.next = self.gp_put_reg.q.val();
        self.empty.next = self.empty_reg.q.val();
        self.full.next = self.gp_get_reg.q.val() == self.put_next_reg.q.val();
        // fill = wrap(GP_PUT - GP_GET).
        // GP_PUT < GP_GET here, so the sum is below n: index bits suffice.
        self.fill_around.next =
            self.gp_put_reg.q.val() + self.get_comp_reg.q.val().get_bits::<IDX_BITS>(0);
        if self.pow2_form.val() {
            self.fill.next =
                (self.gp_put_reg.q.val() - self.gp_get_reg.q.val()) & self.last_index_reg.q.val();
        } else if self.gp_put_reg.q.val() >= self.gp_get_reg.q.val() {
            self.fill.next = self.gp_put_reg.q.val() - self.gp_get_reg.q.val();
        } else {
            self.fill.next = self.fill_around.val();
        }
        // A GP_PUT written beyond the ring (an index input outside 0..n).
        self.violation.next = (self.get_advance.val() & self.empty.val())
            | self.size_bad_reg.q.val()
            | (self.put_valid.val()
                & !self.put_follow.val()
                & (bit_cast::<X_BITS, IDX_BITS>(self.put_value.val()) >= self.ring_entries.val()));
        self.advancing.next = self.get_advance.val() & !self.empty.val();
        if self.advancing.val() {
            self.gp_get_reg.d.next = self.get_next_reg.q.val();
            self.get_next_reg.d.next = self.get_next_next.val();
            self.empty_reg.d.next = self.gp_put_reg.q.val() == self.get_next_reg.q.val();
            self.get_prev_reg.d.next = self.gp_get_reg.q.val();
            self.get_comp_reg.d.next = self.get_comp_reg.q.val() - self.one.val();
            if self.get_at_last.val() {
                self.get_comp_reg.d.next = self.ring_entries.val();
            }
        }
        if self.put_follow.val() {
            // GP_PUT = wrap(GP_GET - 1) differs from GP_GET (n >= 2): not empty.
            self.empty_reg.d.next = false;
            if self.advancing.val() {
                self.gp_put_reg.d.next = self.gp_get_reg.q.val();
                self.put_next_reg.d.next = self.get_next_reg.q.val();
            } else {
                self.gp_put_reg.d.next = self.get_prev_reg.q.val();
                self.put_next_reg.d.next = self.gp_get_reg.q.val();
            }
        } else if self.put_valid.val() {
            self.gp_put_reg.d.next = self.put_value.val();
            self.put_next_reg.d.next = self.put_value_next.val();
            if self.advancing.val() {
                self.empty_reg.d.next = self.put_value.val() == self.get_next_reg.q.val();
            } else {
                self.empty_reg.d.next = self.put_value.val() == self.gp_get_reg.q.val();
            }
        }
        if self.reset.val() {
            self.gp_get_reg.d.next = bits::<IDX_BITS>(0);
            self.gp_put_reg.d.next = bits::<IDX_BITS>(0);
            self.get_prev_reg.d.next = self.reset_prev.wrapped.val();
            self.put_next_reg.d.next = self.reset_next.wrapped.val();
            self.get_next_reg.d.next = self.reset_next.wrapped.val();
            self.empty_reg.d.next = true;
            self.get_comp_reg.d.next = self.ring_entries.val();
            self.last_index_reg.d.next = self.reset_prev.wrapped.val();
            self.violation.next = false;
        }
        self.empty_next.next = self.empty_reg.d.val();
    }
}
