//! Work-queue entry format (WQ-9): the public 8-byte GPFIFO entry of NVIDIA's host interface.
//!
//! A work-queue entry is one GPFIFO ("GP") entry: two little-endian 32-bit words, `entry0` at
//! the lower address and `entry1` 4 bytes above it. An entry either points at a pushbuffer
//! segment (a 4-byte aligned run of 32-bit pushbuffer words in a 40-bit address space) or,
//! when its length is 0, is a *control* entry that fetches nothing and carries an opcode and a
//! 32-bit operand instead.
//!
//! ## Source
//!
//! The layout is the one published by NVIDIA in its open-gpu-doc repository, host class
//! headers `classes/host/cl*6f.h` (the `*_CHANNEL_GPFIFO` classes), "GPFIFO entry format"
//! section. This model follows class **906F** (`GF100_CHANNEL_GPFIFO`, Fermi host,
//! `cl906f.h`), the one class that defines every field carried by [`GpEntry`]:
//!
//! ```text
//! /* GPFIFO entry format */
//! #define NV906F_GP_ENTRY__SIZE                                   8
//! #define NV906F_GP_ENTRY0_FETCH                                0:0
//! #define NV906F_GP_ENTRY0_FETCH_UNCONDITIONAL           0x00000000
//! #define NV906F_GP_ENTRY0_FETCH_CONDITIONAL             0x00000001
//! #define NV906F_GP_ENTRY0_NO_CONTEXT_SWITCH                    1:1
//! #define NV906F_GP_ENTRY0_NO_CONTEXT_SWITCH_FALSE       0x00000000
//! #define NV906F_GP_ENTRY0_NO_CONTEXT_SWITCH_TRUE        0x00000001
//! #define NV906F_GP_ENTRY0_GET                                 31:2
//! #define NV906F_GP_ENTRY0_OPERAND                             31:0
//! #define NV906F_GP_ENTRY1_GET_HI                               7:0
//! #define NV906F_GP_ENTRY1_PRIV                                 8:8
//! #define NV906F_GP_ENTRY1_PRIV_USER                     0x00000000
//! #define NV906F_GP_ENTRY1_PRIV_KERNEL                   0x00000001
//! #define NV906F_GP_ENTRY1_LEVEL                                9:9
//! #define NV906F_GP_ENTRY1_LEVEL_MAIN                    0x00000000
//! #define NV906F_GP_ENTRY1_LEVEL_SUBROUTINE              0x00000001
//! #define NV906F_GP_ENTRY1_LENGTH                             30:10
//! #define NV906F_GP_ENTRY1_SYNC                               31:31
//! #define NV906F_GP_ENTRY1_SYNC_PROCEED                  0x00000000
//! #define NV906F_GP_ENTRY1_SYNC_WAIT                     0x00000001
//! #define NV906F_GP_ENTRY1_OPCODE                               7:0
//! #define NV906F_GP_ENTRY1_OPCODE_NOP                    0x00000000
//! #define NV906F_GP_ENTRY1_OPCODE_ILLEGAL                0x00000001
//! #define NV906F_GP_ENTRY1_OPCODE_GP_CRC                 0x00000002
//! #define NV906F_GP_ENTRY1_OPCODE_PB_CRC                 0x00000003
//! ```
//!
//! The Volta host class **C36F** (`VOLTA_CHANNEL_GPFIFO_A`, `clc36f.h`) has the same lines
//! with the `NVC36F_` prefix, except that it has no `GP_ENTRY0_NO_CONTEXT_SWITCH` line (see
//! "Differences between classes"). The meaning of each field is documented in NVIDIA's
//! open-gpu-doc Volta manual `dev_pbdma.ref` ("GP_ENTRY0 and GP_ENTRY1 - GP-Entry Memory
//! Format", `NV_PPBDMA_GP_ENTRY*`), which the class headers point to.
//!
//! ## Fields
//!
//! | word | bits | header field | [`GpEntry`] field | meaning |
//! | --- | --- | --- | --- | --- |
//! | entry0 | 0:0 | `GP_ENTRY0_FETCH` | `fetch_conditional` | 0 `UNCONDITIONAL`: always fetch the segment; 1 `CONDITIONAL`: fetch only while the subdevice mask selects this device (otherwise the entry acts as a NOP) |
//! | entry0 | 1:1 | `GP_ENTRY0_NO_CONTEXT_SWITCH` | `no_context_switch` | 906F and older only: 1 `TRUE` = do not switch channel context at this entry |
//! | entry0 | 31:2 | `GP_ENTRY0_GET` | `address_words` bits 29:0 | byte address bits 31:2 of the segment's first pushbuffer word |
//! | entry0 | 31:0 | `GP_ENTRY0_OPERAND` | (control entries) | operand of a control entry ([`GpEntry::control_operand`]) |
//! | entry1 | 7:0 | `GP_ENTRY1_GET_HI` | `address_words` bits 37:30 | byte address bits 39:32 |
//! | entry1 | 7:0 | `GP_ENTRY1_OPCODE` | (control entries) | opcode of a control entry: `NOP` 0, `ILLEGAL` 1, `GP_CRC` 2, `PB_CRC` 3 ([`GpEntry::control_opcode`]) |
//! | entry1 | 8:8 | `GP_ENTRY1_PRIV` | `privileged` | 0 `USER`, 1 `KERNEL` |
//! | entry1 | 9:9 | `GP_ENTRY1_LEVEL` | `subroutine` | 0 `MAIN`: progress is reported in the top-level GET; 1 `SUBROUTINE`: it is not |
//! | entry1 | 30:10 | `GP_ENTRY1_LENGTH` | `length_words` | segment length in 32-bit words; 0 (`LENGTH_CONTROL` in `dev_pbdma.ref`) = control entry |
//! | entry1 | 31:31 | `GP_ENTRY1_SYNC` | `sync_wait` | 0 `PROCEED`; 1 `WAIT`: do not fetch this segment until the previous one has been processed by the host (also honoured by control entries) |
//!
//! `GET` and `GET_HI` together hold the 38-bit *word* address of the segment (the byte address
//! is `(GET_HI << 32) + (GET << 2)`, as `dev_pbdma.ref` puts it); [`GpEntry::address_words`] is
//! that byte address shifted right by 2. `OPCODE` overlays `GET_HI` and `OPERAND` overlays all
//! of `entry0`: [`GpEntry::unpack`] decodes every pair of words, control entries included, into
//! the same fields, and [`GpEntry::control_opcode`] / [`GpEntry::control_operand`] read them
//! back under their control-entry names.
//!
//! Every bit of both words belongs to exactly one field of the 906F segment layout, so
//! `pack(unpack(w)) == w` for every `w`, and `unpack(pack(e)) == e` for every entry that packs.
//!
//! ## Differences between classes
//!
//! * 506F / 826F / 866F (`NV50_CHANNEL_GPFIFO`, Tesla): entry0 bit 0 is `GP_ENTRY0_DISABLE`
//!   (`NOT` / `SKIP`) rather than `FETCH`, `GP_ENTRY1_LENGTH` is `31:10` and there is no
//!   `SYNC`, `OPCODE` or `OPERAND`. Not modelled.
//! * 906F (Fermi): the layout above, the only class with both `NO_CONTEXT_SWITCH` (`1:1`)
//!   and `SYNC`/`OPCODE`.
//! * A06F, A16F, A26F, B06F, C06F, C36F (Kepler to Volta): as 906F but without
//!   `GP_ENTRY0_NO_CONTEXT_SWITCH`; bit 1 of entry0 is not defined (`GET` still starts at
//!   bit 2), so `no_context_switch` must be `false` for these classes.
//! * C46F, C56F, C76F (Turing, Ampere): also without `GP_ENTRY1_PRIV`; bit 8 is not defined
//!   (NVIDIA's UVM driver notes that `GP_ENTRY1_PRIV_KERNEL` "has been deprecated in
//!   Turing+"), so `privileged` must be `false` there. The Volta `dev_pbdma.ref` already omits
//!   `PRIV`, although `clc36f.h` still lists it.
//! * C86F (Hopper, published in NVIDIA's open-gpu-kernel-modules): adds control opcode 4
//!   `SET_PB_SEGMENT_EXTENDED_BASE` with an entry0 operand `PB_EXTENDED_BASE_OPERAND 24:8`;
//!   the segment layout is the C46F one. Not modelled.
//!
//! We chose 906F because it is the superset: every field position is the same in all classes
//! from 906F to C86F, so an entry built for a newer class (with `no_context_switch` and, from
//! Turing on, `privileged` left `false`) packs to the identical words. [`GpEntry::pack`] does
//! not know the target class and does not police those two bits.
use bitvec::prelude::*;
use std::fmt;
use std::ops::Range;

/// Size of one entry in bytes (`GP_ENTRY__SIZE`).
pub const GP_ENTRY_SIZE: usize = 8;

/// `GP_ENTRY0_FETCH` 0:0 (0 unconditional, 1 conditional).
pub const ENTRY0_FETCH_BIT: usize = 0;
/// `GP_ENTRY0_NO_CONTEXT_SWITCH` 1:1 (class 906F and older).
pub const ENTRY0_NO_CONTEXT_SWITCH_BIT: usize = 1;
/// `GP_ENTRY0_GET` 31:2, low bit: byte address bit 2 (= word address bit 0).
pub const ENTRY0_GET_LSB: usize = 2;
/// `GP_ENTRY0_GET` 31:2, high bit.
pub const ENTRY0_GET_MSB: usize = 31;
/// Width of `GP_ENTRY0_GET` (word address bits 29:0).
pub const ENTRY0_GET_BITS: usize = ENTRY0_GET_MSB - ENTRY0_GET_LSB + 1;
/// `GP_ENTRY1_GET_HI` 7:0, low bit: byte address bit 32 (= word address bit 30).
pub const ENTRY1_GET_HI_LSB: usize = 0;
/// `GP_ENTRY1_GET_HI` 7:0, high bit: byte address bit 39.
pub const ENTRY1_GET_HI_MSB: usize = 7;
/// Width of `GP_ENTRY1_GET_HI` (word address bits 37:30).
pub const ENTRY1_GET_HI_BITS: usize = ENTRY1_GET_HI_MSB - ENTRY1_GET_HI_LSB + 1;
/// `GP_ENTRY1_PRIV` 8:8 (0 user, 1 kernel; absent from class C46F on).
pub const ENTRY1_PRIV_BIT: usize = 8;
/// `GP_ENTRY1_LEVEL` 9:9 (0 main, 1 subroutine).
pub const ENTRY1_LEVEL_BIT: usize = 9;
/// `GP_ENTRY1_LENGTH` 30:10, low bit.
pub const ENTRY1_LENGTH_LSB: usize = 10;
/// Width of `GP_ENTRY1_LENGTH` (30:10).
pub const ENTRY1_LENGTH_BITS: usize = 21;
/// `GP_ENTRY1_LENGTH` 30:10, high bit.
pub const ENTRY1_LENGTH_MSB: usize = ENTRY1_LENGTH_LSB + ENTRY1_LENGTH_BITS - 1;
/// `GP_ENTRY1_SYNC` 31:31 (0 proceed, 1 wait).
pub const ENTRY1_SYNC_BIT: usize = 31;
/// `GP_ENTRY1_OPCODE` 7:0 of a control entry (overlays `GET_HI`), low bit.
pub const ENTRY1_OPCODE_LSB: usize = 0;
/// `GP_ENTRY1_OPCODE` 7:0, high bit.
pub const ENTRY1_OPCODE_MSB: usize = 7;

/// Width of the word address held in `GET` + `GET_HI` (a 40-bit byte address >> 2).
pub const ADDRESS_WORD_BITS: usize = ENTRY0_GET_BITS + ENTRY1_GET_HI_BITS;
/// Largest `address_words` that packs.
pub const MAX_ADDRESS_WORDS: u64 = (1 << ADDRESS_WORD_BITS) - 1;
/// Largest `length_words` that packs.
pub const MAX_LENGTH_WORDS: u32 = (1 << ENTRY1_LENGTH_BITS) - 1;

/// `GP_ENTRY1_OPCODE_NOP`: do nothing (the `SYNC` bit is still honoured).
pub const OPCODE_NOP: u8 = 0;
/// `GP_ENTRY1_OPCODE_ILLEGAL`: raises the GP-entry interrupt.
pub const OPCODE_ILLEGAL: u8 = 1;
/// `GP_ENTRY1_OPCODE_GP_CRC`: compare the operand with the CRC over previous GP entries.
pub const OPCODE_GP_CRC: u8 = 2;
/// `GP_ENTRY1_OPCODE_PB_CRC`: compare the operand with the CRC of the previous segment.
pub const OPCODE_PB_CRC: u8 = 3;

/// Offset of `entry1` bit 0 in the 64-bit view `entry0 | entry1 << 32`.
const E1: usize = 32;
/// Bit ranges in the 64-bit view, derived from the constants above.
const GET: Range<usize> = ENTRY0_GET_LSB..ENTRY0_GET_MSB + 1;
const GET_HI: Range<usize> = E1 + ENTRY1_GET_HI_LSB..E1 + ENTRY1_GET_HI_MSB + 1;
const LENGTH: Range<usize> = E1 + ENTRY1_LENGTH_LSB..E1 + ENTRY1_LENGTH_MSB + 1;
const OPCODE: Range<usize> = E1 + ENTRY1_OPCODE_LSB..E1 + ENTRY1_OPCODE_MSB + 1;

/// One 8-byte GPFIFO entry (two 32-bit words, entry0 at the lower address).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GpEntry {
    /// 38-bit word address of the segment: byte address >> 2 (`GET_HI`:`GET`).
    pub address_words: u64,
    /// Segment length in 32-bit words, 21 bits (`LENGTH`); 0 = control entry.
    pub length_words: u32,
    /// `SYNC_WAIT` (true) / `SYNC_PROCEED` (false).
    pub sync_wait: bool,
    /// `NO_CONTEXT_SWITCH_TRUE` (class 906F and older; must be false for A06F and newer).
    pub no_context_switch: bool,
    /// `FETCH_CONDITIONAL` (true) / `FETCH_UNCONDITIONAL` (false).
    pub fetch_conditional: bool,
    /// `PRIV_KERNEL` (true) / `PRIV_USER` (false); must be false for C46F and newer.
    pub privileged: bool,
    /// `LEVEL_SUBROUTINE` (true) / `LEVEL_MAIN` (false).
    pub subroutine: bool,
}

/// A [`GpEntry`] field that does not fit its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpEntryError {
    /// `address_words` wider than the 38 bits of `GET_HI`:`GET`.
    AddressWords(u64),
    /// `length_words` wider than the 21 bits of `LENGTH`.
    LengthWords(u32),
}

impl fmt::Display for GpEntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GpEntryError::AddressWords(v) => write!(
                f,
                "address_words = {v:#x} does not fit GP_ENTRY1_GET_HI:GP_ENTRY0_GET \
                 ({ADDRESS_WORD_BITS}-bit word address, max {MAX_ADDRESS_WORDS:#x})"
            ),
            GpEntryError::LengthWords(v) => write!(
                f,
                "length_words = {v} does not fit GP_ENTRY1_LENGTH 30:10 \
                 ({ENTRY1_LENGTH_BITS} bits, max {MAX_LENGTH_WORDS})"
            ),
        }
    }
}

impl std::error::Error for GpEntryError {}

impl GpEntry {
    /// Pack into `[entry0, entry1]`; errors name the field that does not fit.
    pub fn pack(&self) -> Result<[u32; 2], GpEntryError> {
        if self.address_words > MAX_ADDRESS_WORDS {
            return Err(GpEntryError::AddressWords(self.address_words));
        }
        if self.length_words > MAX_LENGTH_WORDS {
            return Err(GpEntryError::LengthWords(self.length_words));
        }
        let mut bits: BitArray<[u32; 2], Lsb0> = BitArray::ZERO;
        bits.set(ENTRY0_FETCH_BIT, self.fetch_conditional);
        bits.set(ENTRY0_NO_CONTEXT_SWITCH_BIT, self.no_context_switch);
        bits[GET].store_le(self.address_words & ((1 << ENTRY0_GET_BITS) - 1));
        bits[GET_HI].store_le(self.address_words >> ENTRY0_GET_BITS);
        bits.set(E1 + ENTRY1_PRIV_BIT, self.privileged);
        bits.set(E1 + ENTRY1_LEVEL_BIT, self.subroutine);
        bits[LENGTH].store_le(self.length_words);
        bits.set(E1 + ENTRY1_SYNC_BIT, self.sync_wait);
        Ok(bits.into_inner())
    }

    /// Unpack `[entry0, entry1]`. Total: every pair of words decodes, control entries
    /// (length 0) included; their opcode and operand land in `address_words`,
    /// `fetch_conditional` and `no_context_switch` and are read back with
    /// [`control_opcode`](Self::control_opcode) / [`control_operand`](Self::control_operand).
    pub fn unpack(words: [u32; 2]) -> GpEntry {
        let bits: BitArray<[u32; 2], Lsb0> = BitArray::new(words);
        GpEntry {
            address_words: bits[GET].load_le::<u64>()
                | bits[GET_HI].load_le::<u64>() << ENTRY0_GET_BITS,
            length_words: bits[LENGTH].load_le::<u32>(),
            sync_wait: bits[E1 + ENTRY1_SYNC_BIT],
            no_context_switch: bits[ENTRY0_NO_CONTEXT_SWITCH_BIT],
            fetch_conditional: bits[ENTRY0_FETCH_BIT],
            privileged: bits[E1 + ENTRY1_PRIV_BIT],
            subroutine: bits[E1 + ENTRY1_LEVEL_BIT],
        }
    }

    /// A control entry (length 0): `OPCODE` = `opcode`, `OPERAND` = `operand`, other bits 0.
    pub fn control(opcode: u8, operand: u32, sync_wait: bool) -> GpEntry {
        let mut bits: BitArray<[u32; 2], Lsb0> = BitArray::new([operand, 0]);
        bits[OPCODE].store_le(opcode);
        bits.set(E1 + ENTRY1_SYNC_BIT, sync_wait);
        GpEntry::unpack(bits.into_inner())
    }

    /// `LENGTH` is 0 (`LENGTH_CONTROL`): the entry fetches nothing and carries an opcode.
    pub fn is_control(&self) -> bool {
        self.length_words == 0
    }

    /// `GP_ENTRY1_OPCODE` of a control entry (`None` for a segment entry).
    pub fn control_opcode(&self) -> Option<u8> {
        self.is_control()
            .then(|| (self.address_words >> ENTRY0_GET_BITS) as u8)
    }

    /// `GP_ENTRY0_OPERAND` (all of entry0) of a control entry (`None` for a segment entry).
    pub fn control_operand(&self) -> Option<u32> {
        self.is_control().then(|| {
            let mut bits: BitArray<u32, Lsb0> = BitArray::ZERO;
            bits.set(ENTRY0_FETCH_BIT, self.fetch_conditional);
            bits.set(ENTRY0_NO_CONTEXT_SWITCH_BIT, self.no_context_switch);
            bits[ENTRY0_GET_LSB..ENTRY0_GET_MSB + 1].store_le(self.address_words);
            bits.into_inner()
        })
    }

    /// Byte address of the segment's first word: `(GET_HI << 32) + (GET << 2)`.
    pub fn byte_address(&self) -> u64 {
        self.address_words << 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(address_words: u64, length_words: u32) -> GpEntry {
        GpEntry {
            address_words,
            length_words,
            ..GpEntry::default()
        }
    }

    // ---- hand-worked examples from real entry builders ----

    /// Linux nouveau, `nvif_chan506f_gpfifo_push()` (drivers/gpu/drm/nouveau/nvif/chan506f.c):
    ///   entry0 = lower_32_bits(addr)
    ///   entry1 = upper_32_bits(addr) | (main ? 0 : BIT(9)) | (size >> 2) << 10
    ///            | (no_prefetch ? BIT(31) : 0)
    /// A user segment (main = false) at 0xab_cdef_0120, 0x100 bytes, no_prefetch = true:
    ///   entry0 = 0xcdef_0120
    ///   entry1 = 0xab | 0x200 | (0x40 << 10 = 0x1_0000) | 0x8000_0000 = 0x8001_02ab
    #[test]
    fn gp_entry_nouveau_chan506f_user_segment() {
        let e = GpEntry {
            address_words: 0xab_cdef_0120 >> 2, // 0x2a_f37b_c048
            length_words: 0x100 >> 2,
            sync_wait: true,
            subroutine: true,
            ..GpEntry::default()
        };
        assert_eq!(e.address_words, 0x2a_f37b_c048);
        assert_eq!(e.pack().unwrap(), [0xcdef_0120, 0x8001_02ab]);
        assert_eq!(GpEntry::unpack([0xcdef_0120, 0x8001_02ab]), e);
        assert_eq!(e.byte_address(), 0xab_cdef_0120);
        assert!(!e.is_control());
    }

    /// Linux nouveau, `nv50_dma_push()` (drivers/gpu/drm/nouveau/nouveau_dma.c, before the
    /// 2025 move to nvif/chan506f.c), called from `FIRE_RING()` with a byte length:
    ///   entry0 = lower_32_bits(offset)
    ///   entry1 = upper_32_bits(offset) | length << 8 | (no_prefetch ? (1 << 31) : 0)
    /// (`length << 8` of a byte count = `(length >> 2) << 10`, the LENGTH field in words.)
    /// Kernel ring at 0x1_0002_0000, 0x40 bytes, no_prefetch = false:
    ///   entry0 = 0x0002_0000, entry1 = 0x1 | 0x40 << 8 = 0x4001 (main level, sync proceed).
    #[test]
    fn gp_entry_nouveau_nv50_dma_push() {
        let e = entry(0x1_0002_0000 >> 2, 0x40 >> 2);
        assert_eq!(e.pack().unwrap(), [0x0002_0000, 0x0000_4001]);
        assert_eq!(GpEntry::unpack([0x0002_0000, 0x0000_4001]), e);
        // Its largest push, NV50_DMA_PUSH_MAX_LENGTH = 0x7fffff bytes, is the 21-bit
        // LENGTH limit once rounded down to whole words: 0x7ffffc bytes = 0x1fffff words.
        assert_eq!(0x7f_fffc >> 2, MAX_LENGTH_WORDS);
        let max = entry(0, 0x7f_fffc >> 2).pack().unwrap();
        assert_eq!(max, [0, 0x7f_fffc << 8]);
    }

    /// NVIDIA UVM, `uvm_hal_maxwell_host_set_gpfifo_entry()` (open-gpu-kernel-modules,
    /// kernel-open/nvidia-uvm/uvm_maxwell_host.c), class A16F field macros:
    ///   GP_ENTRY0 GET    = LO32(pushbuffer_va) >> 2
    ///   GP_ENTRY1 GET_HI = HI32(pushbuffer_va), LENGTH = pushbuffer_length >> 2,
    ///             PRIV = KERNEL, SYNC = WAIT (sync_flag == UVM_GPFIFO_SYNC_WAIT)
    /// pushbuffer_va = 0x7f_ffe0_0040, pushbuffer_length = 0x1000 bytes, sync wait:
    ///   entry0 = 0xffe0_0040
    ///   entry1 = 0x7f | 0x100 | (0x400 << 10 = 0x10_0000) | 0x8000_0000 = 0x8010_017f
    #[test]
    fn gp_entry_uvm_maxwell_kernel_segment() {
        let e = GpEntry {
            address_words: 0x7f_ffe0_0040 >> 2, // 0x1f_fff8_0010
            length_words: 0x1000 >> 2,
            sync_wait: true,
            privileged: true,
            ..GpEntry::default()
        };
        assert_eq!(e.address_words, 0x1f_fff8_0010);
        assert_eq!(e.pack().unwrap(), [0xffe0_0040, 0x8010_017f]);
        assert_eq!(GpEntry::unpack([0xffe0_0040, 0x8010_017f]), e);
    }

    /// NVIDIA UVM, `uvm_hal_maxwell_host_set_gpfifo_noop()` (same file):
    ///   *fifo_entry = (LENGTH 0 | OPCODE NOP) << 32   -> both words 0.
    /// And a GP_CRC control entry built by hand from the header: OPCODE 7:0 = 2,
    /// OPERAND 31:0 = 0xdead_beef, SYNC = WAIT -> [0xdead_beef, 0x8000_0002].
    #[test]
    fn gp_entry_control_entries() {
        let nop = GpEntry::unpack([0, 0]);
        assert!(nop.is_control());
        assert_eq!(nop.control_opcode(), Some(OPCODE_NOP));
        assert_eq!(nop.control_operand(), Some(0));
        assert_eq!(
            GpEntry::control(OPCODE_NOP, 0, false).pack().unwrap(),
            [0, 0]
        );

        let crc = GpEntry::control(OPCODE_GP_CRC, 0xdead_beef, true);
        assert_eq!(crc.pack().unwrap(), [0xdead_beef, 0x8000_0002]);
        let back = GpEntry::unpack([0xdead_beef, 0x8000_0002]);
        assert_eq!(back, crc);
        assert!(back.is_control() && back.sync_wait);
        assert_eq!(back.control_opcode(), Some(OPCODE_GP_CRC));
        assert_eq!(back.control_operand(), Some(0xdead_beef));
        // The operand's low two bits alias FETCH and NO_CONTEXT_SWITCH.
        assert!(back.fetch_conditional && back.no_context_switch);

        for op in [OPCODE_ILLEGAL, OPCODE_PB_CRC, 0xff] {
            let c = GpEntry::control(op, 0x1234_5678, false);
            assert_eq!(c.pack().unwrap(), [0x1234_5678, op as u32]);
            assert_eq!(c.control_opcode(), Some(op));
        }
        // A segment entry has no opcode/operand.
        assert_eq!(entry(0x100, 1).control_opcode(), None);
        assert_eq!(entry(0x100, 1).control_operand(), None);
    }

    // ---- every field isolated ----

    /// Each field at its largest value, all others zero, sets exactly the documented bits;
    /// the fields are disjoint and cover both words.
    #[test]
    fn gp_entry_fields_isolated() {
        let z = GpEntry::default();
        let cases: [(&str, GpEntry, [u32; 2]); 7] = [
            (
                "FETCH 0:0",
                GpEntry {
                    fetch_conditional: true,
                    ..z
                },
                [1 << 0, 0],
            ),
            (
                "NO_CONTEXT_SWITCH 1:1",
                GpEntry {
                    no_context_switch: true,
                    ..z
                },
                [1 << 1, 0],
            ),
            (
                "GET 31:2 + GET_HI 7:0",
                GpEntry {
                    address_words: MAX_ADDRESS_WORDS,
                    ..z
                },
                [0xffff_fffc, 0x0000_00ff],
            ),
            (
                "PRIV 8:8",
                GpEntry {
                    privileged: true,
                    ..z
                },
                [0, 1 << 8],
            ),
            (
                "LEVEL 9:9",
                GpEntry {
                    subroutine: true,
                    ..z
                },
                [0, 1 << 9],
            ),
            (
                "LENGTH 30:10",
                GpEntry {
                    length_words: MAX_LENGTH_WORDS,
                    ..z
                },
                [0, 0x7fff_fc00],
            ),
            (
                "SYNC 31:31",
                GpEntry {
                    sync_wait: true,
                    ..z
                },
                [0, 1 << 31],
            ),
        ];
        let mut union = [0u32; 2];
        for (name, e, want) in cases {
            let got = e.pack().unwrap();
            assert_eq!(got, want, "{name}");
            assert_eq!(GpEntry::unpack(got), e, "{name}");
            assert_eq!(union[0] & got[0], 0, "{name} overlaps");
            assert_eq!(union[1] & got[1], 0, "{name} overlaps");
            union = [union[0] | got[0], union[1] | got[1]];
        }
        assert_eq!(union, [u32::MAX, u32::MAX]);
    }

    /// Walking one through the address and length: word address bit i lands on entry0 bit
    /// i + 2 (i < 30) or entry1 bit i - 30; length bit i on entry1 bit i + 10.
    #[test]
    fn gp_entry_walking_ones() {
        for i in 0..ADDRESS_WORD_BITS {
            let got = entry(1 << i, 0).pack().unwrap();
            let want = if i < ENTRY0_GET_BITS {
                [1 << (i + ENTRY0_GET_LSB), 0]
            } else {
                [0, 1 << (i - ENTRY0_GET_BITS + ENTRY1_GET_HI_LSB)]
            };
            assert_eq!(got, want, "address_words bit {i}");
        }
        for i in 0..ENTRY1_LENGTH_BITS {
            let got = entry(0, 1 << i).pack().unwrap();
            assert_eq!(
                got,
                [0, 1 << (i + ENTRY1_LENGTH_LSB)],
                "length_words bit {i}"
            );
        }
        // Byte address bits 39:32 are GET_HI 7:0.
        assert_eq!(entry(0xff_0000_0000 >> 2, 0).pack().unwrap(), [0, 0xff]);
    }

    #[test]
    fn gp_entry_constants_match_header() {
        assert_eq!(GP_ENTRY_SIZE, 2 * 4);
        assert_eq!((ENTRY0_GET_MSB, ENTRY0_GET_LSB), (31, 2));
        assert_eq!((ENTRY1_GET_HI_MSB, ENTRY1_GET_HI_LSB), (7, 0));
        assert_eq!((ENTRY1_LENGTH_MSB, ENTRY1_LENGTH_LSB), (30, 10));
        assert_eq!(ADDRESS_WORD_BITS, 38);
        assert_eq!(MAX_ADDRESS_WORDS << 2, (1u64 << 40) - 4);
    }

    // ---- range errors ----

    #[test]
    fn gp_entry_range_errors() {
        assert!(entry(MAX_ADDRESS_WORDS, MAX_LENGTH_WORDS).pack().is_ok());
        let a = entry(MAX_ADDRESS_WORDS + 1, 1).pack().unwrap_err();
        assert_eq!(a, GpEntryError::AddressWords(1 << 38));
        let msg = a.to_string();
        assert!(
            msg.contains("address_words") && msg.contains("38-bit"),
            "{msg}"
        );
        assert!(msg.contains("0x3fffffffff"), "{msg}");

        let l = entry(0, MAX_LENGTH_WORDS + 1).pack().unwrap_err();
        assert_eq!(l, GpEntryError::LengthWords(1 << 21));
        let msg = l.to_string();
        assert!(
            msg.contains("length_words") && msg.contains("21 bits"),
            "{msg}"
        );
        assert!(msg.contains("2097151"), "{msg}");

        assert_eq!(
            entry(u64::MAX, u32::MAX).pack().unwrap_err(),
            GpEntryError::AddressWords(u64::MAX)
        );
    }

    // ---- random round trips ----

    fn any_entry() -> impl Strategy<Value = GpEntry> {
        (
            0..=MAX_ADDRESS_WORDS,
            0..=MAX_LENGTH_WORDS,
            any::<[bool; 5]>(),
        )
            .prop_map(|(address_words, length_words, b)| GpEntry {
                address_words,
                length_words,
                sync_wait: b[0],
                no_context_switch: b[1],
                fetch_conditional: b[2],
                privileged: b[3],
                subroutine: b[4],
            })
    }

    proptest! {
        #[test]
        fn gp_entry_round_trip_fields(e in any_entry()) {
            let w = e.pack().unwrap();
            prop_assert_eq!(GpEntry::unpack(w), e);
            // Cross-check against the plain shift formulas of the header.
            let byte = e.byte_address();
            prop_assert_eq!(
                w[0],
                byte as u32 | e.no_context_switch as u32 * 2 | e.fetch_conditional as u32
            );
            prop_assert_eq!(
                w[1],
                (byte >> 32) as u32
                    | (e.privileged as u32) << 8
                    | (e.subroutine as u32) << 9
                    | e.length_words << 10
                    | (e.sync_wait as u32) << 31
            );
        }

        #[test]
        fn gp_entry_round_trip_words(w in any::<[u32; 2]>()) {
            let e = GpEntry::unpack(w);
            prop_assert_eq!(e.pack().unwrap(), w);
            if e.is_control() {
                prop_assert_eq!(e.control_operand(), Some(w[0]));
                prop_assert_eq!(e.control_opcode(), Some(w[1] as u8));
            }
        }

        #[test]
        fn gp_entry_control_round_trip(op in any::<u8>(), operand in any::<u32>(), sync in any::<bool>()) {
            let c = GpEntry::control(op, operand, sync);
            prop_assert!(c.is_control());
            prop_assert_eq!(c.control_opcode(), Some(op));
            prop_assert_eq!(c.control_operand(), Some(operand));
            prop_assert_eq!(c.pack().unwrap(), [operand, op as u32 | (sync as u32) << 31]);
        }

        #[test]
        fn gp_entry_out_of_range(extra in 1u64..1 << 20, len_extra in 1u32..1 << 10) {
            let a = MAX_ADDRESS_WORDS + extra;
            prop_assert_eq!(entry(a, 0).pack(), Err(GpEntryError::AddressWords(a)));
            let l = MAX_LENGTH_WORDS + len_extra;
            prop_assert_eq!(entry(0, l).pack(), Err(GpEntryError::LengthWords(l)));
        }
    }
}
