//! `SwizzleAdapter` — the public swizzle register layout to the packed 12-bit code (SPEC PA-5).
//!
//! The public register has one 3-bit field per output component at bits 2:0 (x), 6:4 (y),
//! 10:8 (z) and 14:12 (w); the packed code has them at bits 2:0, 5:3, 8:6 and 11:9. Bits 3, 7,
//! 11 and 15 of the register are reserved: `reserved_set` says one of them is set (the table
//! refuses such a write).
//!
//! Ports: `register` (16 bits, in), `code` (12 bits, out), `reserved_set` (out).
//! Timing: combinational.
use super::item::*;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct SwizzleAdapter {
    pub register_value: Signal<In, Bits<SWIZZLE_REGISTER_BITS>>,
    pub code: Signal<Out, Bits<SWIZZLE_BITS>>,
    pub reserved_set: Signal<Out, Bit>,
}

impl Logic for SwizzleAdapter {
    #[hdl_gen]
    fn update(&mut self) {
        self.code.next = bit_cast::<SWIZZLE_BITS, 3>(self.register_value.val().get_bits::<3>(0))
            | (bit_cast::<SWIZZLE_BITS, 3>(self.register_value.val().get_bits::<3>(4))
                << bits::<SWIZZLE_BITS>(3))
            | (bit_cast::<SWIZZLE_BITS, 3>(self.register_value.val().get_bits::<3>(8))
                << bits::<SWIZZLE_BITS>(6))
            | (bit_cast::<SWIZZLE_BITS, 3>(self.register_value.val().get_bits::<3>(12))
                << bits::<SWIZZLE_BITS>(9));
        self.reserved_set.next = self.register_value.val().get_bit(3)
            | self.register_value.val().get_bit(7)
            | self.register_value.val().get_bit(11)
            | self.register_value.val().get_bit(15);
    }
}
