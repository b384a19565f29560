//! Words and widths shared by the primitive-attribute blocks (SPEC PA-1..PA-6).
//!
//! Layouts (`#[derive(LogicStruct)]`, first field at bit 0):
//! - [`VertexPos`]: a vertex position as four IEEE-754 single-precision bit patterns, `x` at bits
//!   31:0 ... `w` at bits 127:96 (four 32-bit lanes, no register wider than 32 bits).
//! - a primitive entering multicast: `mask` (16 bits, bit v = viewport slot v), `layer`
//!   (32 bits, render-target array index), `prim` (32 bits, input triangle index), `instance`
//!   (32 bits, the vertex instance holding its per-primitive attributes, PA-6).
use rust_hdl::prelude::*;

/// Number of viewport slots (PA-2: a 16-bit viewport mask).
pub const VIEWPORTS: usize = 16;
/// Width of a viewport slot number.
pub const VIEWPORT_BITS: usize = 4;
/// Width of one viewport's packed swizzle code (PA-5: 3 bits per output component).
pub const SWIZZLE_BITS: usize = 12;
/// Width of the public swizzle register (PA-5: fields at bits 2:0, 6:4, 10:8, 14:12).
pub const SWIZZLE_REGISTER_BITS: usize = 16;
/// Packed identity swizzle: +x +y +z +w = 0 | 2<<3 | 4<<6 | 6<<9 = 0xD10 (3344).
pub const SWIZZLE_IDENTITY: u64 = 0xD10;
/// Register-layout identity swizzle (0x6420).
pub const SWIZZLE_REGISTER_IDENTITY: u64 = 0x6420;
/// Width of a render-target array index (layer).
pub const LAYER_BITS: usize = 32;
/// Width of an input primitive (triangle) index carried with a primitive.
pub const PRIM_BITS: usize = 32;
/// Width of a vertex-instance number (PA-6).
pub const INSTANCE_BITS: usize = 32;
/// Width of a vertex tag in the vertex cache: at most 65,536 vertices in a draw.
pub const VERTEX_BITS: usize = 16;

/// A vertex position: four 32-bit IEEE-754 bit patterns (no float arithmetic is done on them).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct VertexPos {
    pub x: Bits<32>,
    pub y: Bits<32>,
    pub z: Bits<32>,
    pub w: Bits<32>,
}

impl VertexPos {
    /// From four bit patterns `[x, y, z, w]`.
    pub fn from_bits(v: [u32; 4]) -> Self {
        Self {
            x: bits::<32>(v[0] as u64),
            y: bits::<32>(v[1] as u64),
            z: bits::<32>(v[2] as u64),
            w: bits::<32>(v[3] as u64),
        }
    }
    /// The four bit patterns `[x, y, z, w]`.
    pub fn to_bits(&self) -> [u32; 4] {
        [
            self.x.to_u32(),
            self.y.to_u32(),
            self.z.to_u32(),
            self.w.to_u32(),
        ]
    }
}
