//! `BarrierCluster` — the top block of the barrier mechanism (SPEC BR-1): `PIPES` tiling
//! units, `PIPES` PROPs and the back end's [`BarrierCounter`], with the release path from the
//! back end to every PROP inside the block.
//!
//! The stages between them are outside the block (the system simulation models them with
//! their latencies): each tiling unit's output goes through setup, raster and the pixel shader
//! into its PROP's input; each PROP's output goes through ROP; ROP sends the barriers it
//! retires to the back end's token inputs.
//!
//! Ports, per pipeline `i`: `bin_valid[i]`/`bin_ready[i]`/`bin_item[i]` (tiling-unit input from
//! the crossbar), `batch_valid[i]`/`batch_ready[i]`/`batch_item[i]` (tiling-unit output),
//! `flush_valid[i]`, `flush_reason[i]`, `flush_entries[i]`, `bin_idle[i]`;
//! `prop_in_valid[i]`/`prop_in_ready[i]`/`prop_in_item[i]`, `prop_out_valid[i]`/
//! `prop_out_ready[i]`/`prop_out_item[i]`, `hold_fill[i]`, `prop_busy[i]`; `token_valid[i]`/`token_ready[i]`/
//! `token[i]` (back-end input). Shared: `clock`, `reset`, `tiles`, `bin_capacity`;
//! `release_valid`, `release_tiled`, `release_tile` (what the back end sends every PROP);
//! `ready` (the back end's clear sweep is over); `violation` (any block's).
//!
//! Timing: each block's own (see [`TilingUnit`], [`Prop`], [`BarrierCounter`]); a release
//! reaches every PROP in the cycle it leaves the back end.
use super::barrier_counter::BarrierCounter;
use super::item::*;
use super::prop::Prop;
use super::tiling_unit::TilingUnit;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BarrierCluster<const PIPES: usize, const SRC_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub tiles: Signal<In, Bits<9>>,
    pub bin_capacity: Signal<In, Bits<9>>,
    pub bin_valid: [Signal<In, Bit>; PIPES],
    pub bin_ready: [Signal<Out, Bit>; PIPES],
    pub bin_item: [Signal<In, ScreenItem>; PIPES],
    pub batch_valid: [Signal<Out, Bit>; PIPES],
    pub batch_ready: [Signal<In, Bit>; PIPES],
    pub batch_item: [Signal<Out, ScreenItem>; PIPES],
    pub flush_valid: [Signal<Out, Bit>; PIPES],
    pub flush_reason: [Signal<Out, Bits<2>>; PIPES],
    pub flush_entries: [Signal<Out, Bits<9>>; PIPES],
    pub bin_idle: [Signal<Out, Bit>; PIPES],
    pub prop_in_valid: [Signal<In, Bit>; PIPES],
    pub prop_in_ready: [Signal<Out, Bit>; PIPES],
    pub prop_in_item: [Signal<In, ScreenItem>; PIPES],
    pub prop_out_valid: [Signal<Out, Bit>; PIPES],
    pub prop_out_ready: [Signal<In, Bit>; PIPES],
    pub prop_out_item: [Signal<Out, ScreenItem>; PIPES],
    pub hold_fill: [Signal<Out, Bits<4>>; PIPES],
    pub prop_busy: [Signal<Out, Bit>; PIPES],
    pub token_valid: [Signal<In, Bit>; PIPES],
    pub token_ready: [Signal<Out, Bit>; PIPES],
    pub token: [Signal<In, BarrierToken>; PIPES],
    pub release_valid: Signal<Out, Bit>,
    pub release_tiled: Signal<Out, Bit>,
    pub release_tile: Signal<Out, Bits<TILE_BITS>>,
    pub ready: Signal<Out, Bit>,
    /// The pipeline whose barrier the back end took this cycle.
    pub token_source: Signal<Out, Bits<SRC_BITS>>,
    pub violation: Signal<Out, Bit>,
    tiling: [TilingUnit; PIPES],
    props: [Prop; PIPES],
    backend: BarrierCounter<PIPES, SRC_BITS>,
}

impl<const PIPES: usize, const SRC_BITS: usize> Default for BarrierCluster<PIPES, SRC_BITS> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tiles: Default::default(),
            bin_capacity: Default::default(),
            bin_valid: std::array::from_fn(|_| Default::default()),
            bin_ready: std::array::from_fn(|_| Default::default()),
            bin_item: std::array::from_fn(|_| Default::default()),
            batch_valid: std::array::from_fn(|_| Default::default()),
            batch_ready: std::array::from_fn(|_| Default::default()),
            batch_item: std::array::from_fn(|_| Default::default()),
            flush_valid: std::array::from_fn(|_| Default::default()),
            flush_reason: std::array::from_fn(|_| Default::default()),
            flush_entries: std::array::from_fn(|_| Default::default()),
            bin_idle: std::array::from_fn(|_| Default::default()),
            prop_in_valid: std::array::from_fn(|_| Default::default()),
            prop_in_ready: std::array::from_fn(|_| Default::default()),
            prop_in_item: std::array::from_fn(|_| Default::default()),
            prop_out_valid: std::array::from_fn(|_| Default::default()),
            prop_out_ready: std::array::from_fn(|_| Default::default()),
            prop_out_item: std::array::from_fn(|_| Default::default()),
            hold_fill: std::array::from_fn(|_| Default::default()),
            prop_busy: std::array::from_fn(|_| Default::default()),
            token_valid: std::array::from_fn(|_| Default::default()),
            token_ready: std::array::from_fn(|_| Default::default()),
            token: std::array::from_fn(|_| Default::default()),
            release_valid: Default::default(),
            release_tiled: Default::default(),
            release_tile: Default::default(),
            ready: Default::default(),
            token_source: Default::default(),
            violation: Default::default(),
            tiling: std::array::from_fn(|_| Default::default()),
            props: std::array::from_fn(|_| Default::default()),
            backend: Default::default(),
        }
    }
}

impl<const PIPES: usize, const SRC_BITS: usize> Logic for BarrierCluster<PIPES, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        self.backend.clock.next = self.clock.val();
        self.backend.reset.next = self.reset.val();
        self.violation.next = self.backend.violation.val();
        for i in 0..PIPES {
            self.tiling[i].clock.next = self.clock.val();
            self.tiling[i].reset.next = self.reset.val();
            self.tiling[i].tiles.next = self.tiles.val();
            self.tiling[i].bin_capacity.next = self.bin_capacity.val();
            self.tiling[i].in_valid.next = self.bin_valid[i].val();
            self.tiling[i].in_item.next = self.bin_item[i].val();
            self.bin_ready[i].next = self.tiling[i].in_ready.val();
            self.batch_valid[i].next = self.tiling[i].out_valid.val();
            self.batch_item[i].next = self.tiling[i].out_item.val();
            self.tiling[i].out_ready.next = self.batch_ready[i].val();
            self.flush_valid[i].next = self.tiling[i].flush_valid.val();
            self.flush_reason[i].next = self.tiling[i].flush_reason.val();
            self.flush_entries[i].next = self.tiling[i].flush_entries.val();
            self.bin_idle[i].next = self.tiling[i].idle.val();
            self.props[i].clock.next = self.clock.val();
            self.props[i].reset.next = self.reset.val();
            self.props[i].in_valid.next = self.prop_in_valid[i].val();
            self.props[i].in_item.next = self.prop_in_item[i].val();
            self.prop_in_ready[i].next = self.props[i].in_ready.val();
            self.prop_out_valid[i].next = self.props[i].out_valid.val();
            self.prop_out_item[i].next = self.props[i].out_item.val();
            self.props[i].out_ready.next = self.prop_out_ready[i].val();
            self.props[i].release_valid.next = self.backend.release_valid.val();
            self.props[i].release_tiled.next = self.backend.release_tiled.val();
            self.props[i].release_tile.next = self.backend.release_tile.val();
            self.hold_fill[i].next = self.props[i].hold_fill.val();
            self.prop_busy[i].next = self.props[i].busy.val();
            self.backend.token_valid[i].next = self.token_valid[i].val();
            self.backend.token[i].next = self.token[i].val();
            self.token_ready[i].next = self.backend.token_ready[i].val();
            self.violation.next = self.violation.val()
                | self.tiling[i].violation.val()
                | self.props[i].violation.val();
        }
        self.release_valid.next = self.backend.release_valid.val();
        self.release_tiled.next = self.backend.release_tiled.val();
        self.release_tile.next = self.backend.release_tile.val();
        self.ready.next = self.backend.ready.val();
        self.token_source.next = self.backend.token_source.val();
    }
}
