//! The word that travels down a screen-space pipeline of the barrier mechanism (SPEC BR-1):
//! a primitive's entry for one cache tile, or a barrier command, with the widths every block of
//! [`super`] shares.
//!
//! Layout (`#[derive(LogicStruct)]`, first field at bit 0): `kind` (2 bits), `prim` (16 bits,
//! the primitive's API-order index, not its scenario id), `tile` (8 bits, the cache-tile
//! number; 0 and unused for a non-tiled barrier).
use rust_hdl::prelude::*;

/// Width of a cache-tile number: at most 2^8 = 256 cache tiles on the screen.
pub const TILE_BITS: usize = 8;
/// Largest number of cache tiles the RTL holds flags and counters for.
pub const MAX_TILES: usize = 1 << TILE_BITS;
/// Width of a primitive's API-order index: at most 65,536 primitives in a run.
pub const PRIM_BITS: usize = 16;
/// Tile flags are held in 32-bit words (SPEC X-2: no register wider than 32 bits).
pub const FLAG_WORDS: usize = MAX_TILES / 32;

/// `kind`: a primitive's entry for cache tile `tile`.
pub const KIND_PRIM: u64 = 0;
/// `kind`: a tiled barrier for cache tile `tile` (BR-5).
pub const KIND_TILED_BARRIER: u64 = 1;
/// `kind`: a non-tiled barrier (BR-4).
pub const KIND_NONTILED_BARRIER: u64 = 2;
/// `kind`, tiling-unit input only: the end of the frame (flush reason `end`, BR-3).
pub const KIND_END: u64 = 3;

/// One item of a screen-space pipeline.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct ScreenItem {
    pub kind: Bits<2>,
    pub prim: Bits<PRIM_BITS>,
    pub tile: Bits<TILE_BITS>,
}

impl ScreenItem {
    /// A primitive's entry for one cache tile.
    pub fn prim(prim: u64, tile: u64) -> Self {
        Self {
            kind: bits::<2>(KIND_PRIM),
            prim: bits::<PRIM_BITS>(prim),
            tile: bits::<TILE_BITS>(tile),
        }
    }
    /// A barrier: tiled for `Some(tile)`, non-tiled for `None`.
    pub fn barrier(tile: Option<u64>) -> Self {
        match tile {
            Some(t) => Self {
                kind: bits::<2>(KIND_TILED_BARRIER),
                prim: bits::<PRIM_BITS>(0),
                tile: bits::<TILE_BITS>(t),
            },
            None => Self {
                kind: bits::<2>(KIND_NONTILED_BARRIER),
                ..Default::default()
            },
        }
    }
    /// The end-of-frame marker (tiling-unit input).
    pub fn end() -> Self {
        Self {
            kind: bits::<2>(KIND_END),
            ..Default::default()
        }
    }
    pub fn kind_code(&self) -> u64 {
        self.kind.index() as u64
    }
}

/// What ROP sends the back end for a barrier: its kind and cache tile (10 bits).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct BarrierToken {
    pub kind: Bits<2>,
    pub tile: Bits<TILE_BITS>,
}

impl BarrierToken {
    /// The token of a barrier item.
    pub fn of(item: &ScreenItem) -> Self {
        BarrierToken {
            kind: item.kind,
            tile: item.tile,
        }
    }
}
