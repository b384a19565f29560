//! `RingWrap` — the ring-index wrap of SPEC WQ-2, combinational.
//!
//! wrap(x, n): for n not a power of two, x+n if x<0, x-n if x>=n, else x; for a power of two,
//! x & (n-1). Both forms are built; the constructor chooses one ([`WrapForm`]). The compare
//! form is correct for every n; the AND form only for powers of two, and costs no adder.
//!
//! Reading: the ring size n is a configuration input (`entries`, like the GPFIFO size register
//! of a real host interface), at most 2^`IDX_BITS`; the const parameter fixes the widths and
//! the form. A ring whose owner configures a size that is not a power of two must use the
//! compare form ([`super::gp_fifo::GpFifo`] flags the mismatch).
//!
//! Parameters: `IDX_BITS` (width of a ring index: n <= 2^`IDX_BITS`), `X_BITS` = `IDX_BITS` + 2
//! (x in [-n, 2n) in two's complement).
//!
//! Ports: `x` (`X_BITS`, two's complement, defined for [-n, 2n)), `entries` (`X_BITS`, n >= 1),
//! `wrapped` (`IDX_BITS`), `out_of_range` (x was outside [-n, 2n): `wrapped` is not an index;
//! the owners raise `violation`). Timing: combinational (a compare and an add or subtract, or an AND);
//! no clock. A sub-block of `GpFifo` and `SoftPutAllocator`, whose exported Verilog carries it
//! into lint, co-simulation and synthesis.
use rust_hdl::prelude::*;

/// Which of the two WQ-2 forms a [`RingWrap`] builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WrapForm {
    /// x & (n-1): powers of two only.
    Pow2,
    /// x+n if x<0, x-n if x>=n, else x: any n.
    Compare,
}

impl WrapForm {
    /// The form WQ-2 chooses for a ring of `entries`.
    pub fn natural(entries: usize) -> WrapForm {
        if entries.is_power_of_two() {
            WrapForm::Pow2
        } else {
            WrapForm::Compare
        }
    }
}

#[derive(LogicBlock)]
pub struct RingWrap<const IDX_BITS: usize, const X_BITS: usize> {
    pub x: Signal<In, Bits<X_BITS>>,
    pub entries: Signal<In, Bits<X_BITS>>,
    pub wrapped: Signal<Out, Bits<IDX_BITS>>,
    pub out_of_range: Signal<Out, Bit>,
    /// x wrapped, still `X_BITS` wide.
    in_range: Signal<Local, Bits<X_BITS>>,
    pow2_form: Constant<Bit>,
    /// 2^(X_BITS-1): x at or above it is negative.
    negative_from: Constant<Bits<X_BITS>>,
    /// 2^IDX_BITS - 1: a wrapped value above it means x was outside [-n, 2n).
    index_max: Constant<Bits<X_BITS>>,
}

impl<const IDX_BITS: usize, const X_BITS: usize> RingWrap<IDX_BITS, X_BITS> {
    /// A wrap of the given form.
    pub fn new(form: WrapForm) -> Self {
        assert!(
            IDX_BITS >= 1 && X_BITS == IDX_BITS + 2,
            "RingWrap: X_BITS = IDX_BITS + 2"
        );
        Self {
            x: Default::default(),
            entries: Default::default(),
            wrapped: Default::default(),
            out_of_range: Default::default(),
            in_range: Default::default(),
            pow2_form: Constant::new(form == WrapForm::Pow2),
            negative_from: Constant::new(bits::<X_BITS>(1u64 << (X_BITS - 1))),
            index_max: Constant::new(bits::<X_BITS>((1u64 << IDX_BITS) - 1)),
        }
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> Default for RingWrap<IDX_BITS, X_BITS> {
    fn default() -> Self {
        Self::new(WrapForm::Compare)
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize> Logic for RingWrap<IDX_BITS, X_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        self.in_range.next = self.x.val();
        if self.pow2_form.val() {
            self.in_range.next = self.x.val() & (self.entries.val() - bits::<X_BITS>(1));
        } else if self.x.val() >= self.negative_from.val() {
            self.in_range.next = self.x.val() + self.entries.val();
        } else if self.x.val() >= self.entries.val() {
            self.in_range.next = self.x.val() - self.entries.val();
        }
        self.wrapped.next = self.in_range.val().get_bits::<IDX_BITS>(0);
        self.out_of_range.next = self.in_range.val() > self.index_max.val();
    }
}
