//! `LowestViewport` — the lowest set bit of a 16-bit viewport mask (SPEC PA-2, PA-4): its
//! viewport number, the mask without it, and whether the mask is 0. Combinational.
//!
//! Ports: `mask` (16 bits, in); `viewport` (4 bits: the lowest set bit, 0 for mask 0),
//! `rest` (`mask & (mask - 1)`: the mask without that bit), `empty` (mask is 0).
use super::item::*;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LowestViewport {
    pub mask: Signal<In, Bits<VIEWPORTS>>,
    pub viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub rest: Signal<Out, Bits<VIEWPORTS>>,
    pub empty: Signal<Out, Bit>,
    /// Viewport numbers from the top: 15, 14, ..., 0.
    descending: [Constant<Bits<VIEWPORT_BITS>>; VIEWPORTS],
}

impl Default for LowestViewport {
    fn default() -> Self {
        Self {
            mask: Default::default(),
            viewport: Default::default(),
            rest: Default::default(),
            empty: Default::default(),
            descending: std::array::from_fn(|i| {
                Constant::new(bits::<VIEWPORT_BITS>((VIEWPORTS - 1 - i) as u64))
            }),
        }
    }
}

impl Logic for LowestViewport {
    #[hdl_gen]
    fn update(&mut self) {
        // The last assignment wins: scanning down leaves the lowest set bit.
        self.viewport.next = bits::<VIEWPORT_BITS>(0);
        for i in 0..VIEWPORTS {
            if self.mask.val().get_bit(self.descending[i].val().index()) {
                self.viewport.next = self.descending[i].val();
            }
        }
        self.rest.next = self.mask.val() & (self.mask.val() - bits::<VIEWPORTS>(1));
        self.empty.next = self.mask.val() == bits::<VIEWPORTS>(0);
    }
}
