//! Stream-output message formats (SPEC SO-5, SO-6, SO-7): hardware port types and their
//! software packing to the documented bit layouts.
//!
//! | message | width | layout |
//! | --- | --- | --- |
//! | first request (SO-5) | 25 | `[24:11]` batch ID (bit 24 = phase), `[10:1]` task number, `[0]` last task |
//! | response (SO-6) | 128 | SSOBO0 `[31:0]`, SSOBO1 `[63:32]`, SSOBO2 `[95:64]`, SSOBO3 `[127:96]` |
//! | second request (SO-7) | 128 | SBBN0 `[31:0]` ... SBBN3 `[127:96]` (bytes needed per buffer) |
//!
//! The hardware types are `#[derive(LogicStruct)]`: rust-hdl places the first field at bit 0,
//! so the field order below *is* the bit layout. 128-bit messages are four 32-bit lanes because
//! rust-hdl stores `Bits<N>` wider than 32 bits one byte per bit. [`FirstRequestFields`] and
//! [`Msg128Fields`] pack and unpack the same layouts in software with `bitvec`, for scenario
//! files, traces and scoreboards.
use bitvec::prelude::*;
use rust_hdl::prelude::*;
use std::fmt;
use std::ops::Range;

/// Width of a batch ID (SO-1): bit 13 phase, bits 12..0 wrapping counter.
pub const BATCH_ID_BITS: usize = 14;
/// Width of the batch counter below the phase bit.
pub const BATCH_COUNTER_BITS: usize = 13;
/// Width of a task number (SO-5).
pub const TASK_BITS: usize = 10;
/// Width of the first request (SO-5).
pub const FIRST_REQUEST_BITS: usize = 25;
/// Bits of the first request holding the last-task flag.
pub const FR_LAST: Range<usize> = 0..1;
/// Bits of the first request holding the task number.
pub const FR_TASK: Range<usize> = 1..11;
/// Bits of the first request holding the batch ID.
pub const FR_BATCH_ID: Range<usize> = 11..25;
/// Bits of a 128-bit message holding lane `i` (SSOBO\[i\] or SBBN\[i\]).
pub const fn lane_bits(i: usize) -> Range<usize> {
    32 * i..32 * i + 32
}

/// SO-5 first request on a port: `last` is bit 0, `task_number` bits 10:1, `batch_id` bits 24:11.
/// (`task` is a Verilog keyword, hence `task_number`.)
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct FirstRequest {
    pub last: Bit,
    pub task_number: Bits<10>,
    pub batch_id: Bits<14>,
}

/// SO-6 response / SO-7 second request on a port: four 32-bit lanes, `lane0` at bits 31:0.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Msg128 {
    pub lane0: Bits<32>,
    pub lane1: Bits<32>,
    pub lane2: Bits<32>,
    pub lane3: Bits<32>,
}

/// A field value that does not fit its documented width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRangeError {
    pub field: &'static str,
    pub value: u64,
    pub bits: usize,
}

impl fmt::Display for FieldRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} does not fit in {} bits",
            self.field, self.value, self.bits
        )
    }
}

impl std::error::Error for FieldRangeError {}

fn check(field: &'static str, value: u64, bits: usize) -> Result<(), FieldRangeError> {
    if bits < 64 && value >> bits != 0 {
        Err(FieldRangeError { field, value, bits })
    } else {
        Ok(())
    }
}

/// A 14-bit batch ID split into its phase bit and 13-bit counter (SO-1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BatchId(pub u16);

impl BatchId {
    pub fn new(phase: bool, counter: u16) -> Result<Self, FieldRangeError> {
        check("batch counter", counter as u64, BATCH_COUNTER_BITS)?;
        Ok(BatchId(((phase as u16) << BATCH_COUNTER_BITS) | counter))
    }
    pub fn phase(self) -> bool {
        self.0 >> BATCH_COUNTER_BITS & 1 == 1
    }
    pub fn counter(self) -> u16 {
        self.0 & ((1 << BATCH_COUNTER_BITS) - 1)
    }
    /// The next consecutive ID: the counter increments and the phase flips when it wraps.
    pub fn next(self) -> Self {
        BatchId((self.0 + 1) & ((1 << BATCH_ID_BITS) - 1))
    }
}

/// Software view of a first request (SO-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct FirstRequestFields {
    pub batch_id: u16,
    pub task: u16,
    pub last: bool,
}

impl FirstRequestFields {
    /// Pack into the low 25 bits of a word; errors if a field is wider than its slot.
    pub fn pack(&self) -> Result<u32, FieldRangeError> {
        check("batch_id", self.batch_id as u64, BATCH_ID_BITS)?;
        check("task", self.task as u64, TASK_BITS)?;
        let mut word = bitarr![u32, Lsb0; 0; 32];
        word[FR_LAST].store_le(self.last as u8);
        word[FR_TASK].store_le(self.task);
        word[FR_BATCH_ID].store_le(self.batch_id);
        Ok(word.into_inner()[0])
    }

    /// Unpack a 25-bit word; errors if bits above bit 24 are set.
    pub fn unpack(word: u32) -> Result<Self, FieldRangeError> {
        check("first request", word as u64, FIRST_REQUEST_BITS)?;
        let bits = word.view_bits::<Lsb0>();
        Ok(Self {
            last: bits[FR_LAST].load_le::<u8>() == 1,
            task: bits[FR_TASK].load_le::<u16>(),
            batch_id: bits[FR_BATCH_ID].load_le::<u16>(),
        })
    }

    /// The port value (fields must already fit; use [`pack`](Self::pack) to check).
    pub fn to_hw(&self) -> FirstRequest {
        FirstRequest {
            last: self.last,
            task_number: bits::<10>(self.task as u64),
            batch_id: bits::<14>(self.batch_id as u64),
        }
    }

    pub fn from_hw(hw: FirstRequest) -> Self {
        Self {
            batch_id: hw.batch_id.index() as u16,
            task: hw.task_number.index() as u16,
            last: hw.last,
        }
    }
}

/// Software view of a 128-bit message: SSOBO\[0..3\] (SO-6) or SBBN\[0..3\] (SO-7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Msg128Fields(pub [u32; 4]);

impl Msg128Fields {
    /// Pack to the 128-bit layout, lane `i` at bits `32i+31 : 32i`.
    pub fn pack(&self) -> u128 {
        let mut word = bitarr![u64, Lsb0; 0; 128];
        for (i, lane) in self.0.iter().enumerate() {
            word[lane_bits(i)].store_le(*lane);
        }
        let [lo, hi] = word.into_inner();
        (lo as u128) | ((hi as u128) << 64)
    }

    pub fn unpack(word: u128) -> Self {
        let raw = [word as u64, (word >> 64) as u64];
        let bits = raw.view_bits::<Lsb0>();
        Msg128Fields(std::array::from_fn(|i| bits[lane_bits(i)].load_le::<u32>()))
    }

    pub fn to_hw(&self) -> Msg128 {
        Msg128 {
            lane0: bits::<32>(self.0[0] as u64),
            lane1: bits::<32>(self.0[1] as u64),
            lane2: bits::<32>(self.0[2] as u64),
            lane3: bits::<32>(self.0[3] as u64),
        }
    }

    pub fn from_hw(hw: Msg128) -> Self {
        Msg128Fields([
            hw.lane0.to_u32(),
            hw.lane1.to_u32(),
            hw.lane2.to_u32(),
            hw.lane3.to_u32(),
        ])
    }
}

/// Flatten a hardware message to the integer rust-hdl puts on the wire (for co-simulation and
/// for checking that the port layout equals the software layout).
pub fn first_request_wire(hw: FirstRequest) -> u32 {
    let b: Bits<25> = hw.into();
    b.to_u32()
}
