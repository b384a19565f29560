//! `PaCluster` — the top block of primitive-specific attributes (SPEC PA-2..PA-6): the units
//! between the geometry shader and the viewport/clip unit's datapath, composed as one block
//! for place and route and for the system simulation.
//!
//! - Primitives from the GS (`prim_*`) go to [`ViewportMulticast`] in strict primitive order
//!   or to [`OrderSequencer`] in viewport order (`viewport_order`, static during a run); the
//!   one in use drives the beat channel (`beat_*`): one beat per (primitive, viewport) of its
//!   mask, or one kill beat for mask 0, with the layer offset applied (PA-2, PA-3, PA-4).
//! - The viewport/clip unit's [`ProvokingVertexCache`] (`lookup_*` -> `result_*`): three
//!   lookups per beat, the provoking vertex never hits (PA-6).
//! - [`ViewportSwizzle`] (`vertex_*` -> `swizzled_*`) with its table write port
//!   (`swizzle_cfg_*`, packed or public register layout): a vertex missing in the cache is
//!   swizzled for its viewport before it is stored in the cache slot (PA-5).
//!
//! The viewport/clip unit's control (the three lookups of a beat, the fetch of a missing
//! vertex into the swizzle, assembly of the output triangle) is the system model's part.
//!
//! Ports: `clock`, `reset`; static configuration `viewport_order`, `batch_size` (1..=256),
//! `layer_offset`, `cache_capacity` (1..=64); the channels above with the ports of the
//! sub-blocks; `violation` (the sequencer's or the cache's: a configuration out of range).
//!
//! Timing: the sub-blocks' own (multicast and sequencer one beat per cycle at best, cache one
//! lookup per cycle, swizzle one vertex per cycle); the block adds no register.
use super::item::*;
use super::order_sequencer::OrderSequencer;
use super::provoking_vertex_cache::{ProvokingVertexCache, SLOT_BITS};
use super::viewport_multicast::ViewportMulticast;
use super::viewport_swizzle::ViewportSwizzle;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct PaCluster {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub viewport_order: Signal<In, Bit>,
    pub batch_size: Signal<In, Bits<9>>,
    pub layer_offset: Signal<In, Bit>,
    pub cache_capacity: Signal<In, Bits<7>>,
    pub swizzle_cfg_valid: Signal<In, Bit>,
    pub swizzle_cfg_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub swizzle_cfg_value: Signal<In, Bits<SWIZZLE_REGISTER_BITS>>,
    pub swizzle_cfg_register_format: Signal<In, Bit>,
    pub swizzle_cfg_error: Signal<Out, Bit>,
    pub prim_valid: Signal<In, Bit>,
    pub prim_ready: Signal<Out, Bit>,
    pub prim_mask: Signal<In, Bits<VIEWPORTS>>,
    pub prim_layer: Signal<In, Bits<LAYER_BITS>>,
    pub prim_index: Signal<In, Bits<PRIM_BITS>>,
    pub prim_instance: Signal<In, Bits<INSTANCE_BITS>>,
    pub prim_end: Signal<In, Bit>,
    pub beat_valid: Signal<Out, Bit>,
    pub beat_ready: Signal<In, Bit>,
    pub beat_kill: Signal<Out, Bit>,
    pub beat_prim: Signal<Out, Bits<PRIM_BITS>>,
    pub beat_instance: Signal<Out, Bits<INSTANCE_BITS>>,
    pub beat_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub beat_layer: Signal<Out, Bits<LAYER_BITS>>,
    pub beat_first: Signal<Out, Bit>,
    pub beat_last: Signal<Out, Bit>,
    pub lookup_valid: Signal<In, Bit>,
    pub lookup_ready: Signal<Out, Bit>,
    pub lookup_vertex: Signal<In, Bits<VERTEX_BITS>>,
    pub lookup_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub lookup_provoking: Signal<In, Bit>,
    pub result_valid: Signal<Out, Bit>,
    pub result_ready: Signal<In, Bit>,
    pub result_hit: Signal<Out, Bit>,
    pub result_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub result_invalidated: Signal<Out, Bit>,
    pub result_vertex: Signal<Out, Bits<VERTEX_BITS>>,
    pub result_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub result_provoking: Signal<Out, Bit>,
    pub vertex_valid: Signal<In, Bit>,
    pub vertex_ready: Signal<Out, Bit>,
    pub vertex_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub vertex_pos: Signal<In, VertexPos>,
    pub vertex_slot: Signal<In, Bits<8>>,
    pub swizzled_valid: Signal<Out, Bit>,
    pub swizzled_ready: Signal<In, Bit>,
    pub swizzled_pos: Signal<Out, VertexPos>,
    pub swizzled_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub swizzled_slot: Signal<Out, Bits<8>>,
    pub violation: Signal<Out, Bit>,
    multicast: ViewportMulticast,
    sequencer: OrderSequencer,
    cache: ProvokingVertexCache,
    swizzle: ViewportSwizzle,
}

impl Logic for PaCluster {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks, resets, configuration.
        self.multicast.clock.next = self.clock.val();
        self.multicast.reset.next = self.reset.val();
        self.multicast.layer_offset.next = self.layer_offset.val();
        self.sequencer.clock.next = self.clock.val();
        self.sequencer.reset.next = self.reset.val();
        self.sequencer.layer_offset.next = self.layer_offset.val();
        self.sequencer.batch_size.next = self.batch_size.val();
        self.cache.clock.next = self.clock.val();
        self.cache.reset.next = self.reset.val();
        self.cache.capacity.next = self.cache_capacity.val();
        self.swizzle.clock.next = self.clock.val();
        self.swizzle.reset.next = self.reset.val();
        self.swizzle.cfg_valid.next = self.swizzle_cfg_valid.val();
        self.swizzle.cfg_viewport.next = self.swizzle_cfg_viewport.val();
        self.swizzle.cfg_value.next = self.swizzle_cfg_value.val();
        self.swizzle.cfg_register_format.next = self.swizzle_cfg_register_format.val();
        self.swizzle_cfg_error.next = self.swizzle.cfg_error.val();
        // Primitives: to the multicast (strict order) or the sequencer (viewport order).
        self.multicast.in_valid.next = self.prim_valid.val() & !self.viewport_order.val();
        self.multicast.in_mask.next = self.prim_mask.val();
        self.multicast.in_layer.next = self.prim_layer.val();
        self.multicast.in_prim.next = self.prim_index.val();
        self.multicast.in_instance.next = self.prim_instance.val();
        self.sequencer.in_valid.next = self.prim_valid.val() & self.viewport_order.val();
        self.sequencer.in_mask.next = self.prim_mask.val();
        self.sequencer.in_layer.next = self.prim_layer.val();
        self.sequencer.in_prim.next = self.prim_index.val();
        self.sequencer.in_instance.next = self.prim_instance.val();
        self.sequencer.in_end.next = self.prim_end.val();
        self.multicast.out_ready.next = self.beat_ready.val() & !self.viewport_order.val();
        self.sequencer.out_ready.next = self.beat_ready.val() & self.viewport_order.val();
        if self.viewport_order.val() {
            self.prim_ready.next = self.sequencer.in_ready.val();
            self.beat_valid.next = self.sequencer.out_valid.val();
            self.beat_kill.next = self.sequencer.out_kill.val();
            self.beat_prim.next = self.sequencer.out_prim.val();
            self.beat_instance.next = self.sequencer.out_instance.val();
            self.beat_viewport.next = self.sequencer.out_viewport.val();
            self.beat_layer.next = self.sequencer.out_layer.val();
            self.beat_first.next = self.sequencer.out_first.val();
            self.beat_last.next = self.sequencer.out_last.val();
        } else {
            self.prim_ready.next = self.multicast.in_ready.val();
            self.beat_valid.next = self.multicast.out_valid.val();
            self.beat_kill.next = self.multicast.out_kill.val();
            self.beat_prim.next = self.multicast.out_prim.val();
            self.beat_instance.next = self.multicast.out_instance.val();
            self.beat_viewport.next = self.multicast.out_viewport.val();
            self.beat_layer.next = self.multicast.out_layer.val();
            self.beat_first.next = self.multicast.out_first.val();
            self.beat_last.next = self.multicast.out_last.val();
        }
        // The vertex cache.
        self.cache.lookup_valid.next = self.lookup_valid.val();
        self.cache.lookup_vertex.next = self.lookup_vertex.val();
        self.cache.lookup_viewport.next = self.lookup_viewport.val();
        self.cache.lookup_provoking.next = self.lookup_provoking.val();
        self.lookup_ready.next = self.cache.lookup_ready.val();
        self.cache.result_ready.next = self.result_ready.val();
        self.result_valid.next = self.cache.result_valid.val();
        self.result_hit.next = self.cache.result_hit.val();
        self.result_slot.next = self.cache.result_slot.val();
        self.result_invalidated.next = self.cache.result_invalidated.val();
        self.result_vertex.next = self.cache.result_vertex.val();
        self.result_viewport.next = self.cache.result_viewport.val();
        self.result_provoking.next = self.cache.result_provoking.val();
        // The swizzle.
        self.swizzle.in_valid.next = self.vertex_valid.val();
        self.swizzle.in_viewport.next = self.vertex_viewport.val();
        self.swizzle.in_vertex.next = self.vertex_pos.val();
        self.swizzle.in_slot.next = self.vertex_slot.val();
        self.vertex_ready.next = self.swizzle.in_ready.val();
        self.swizzle.out_ready.next = self.swizzled_ready.val();
        self.swizzled_valid.next = self.swizzle.out_valid.val();
        self.swizzled_pos.next = self.swizzle.out_vertex.val();
        self.swizzled_viewport.next = self.swizzle.out_viewport.val();
        self.swizzled_slot.next = self.swizzle.out_slot.val();
        self.violation.next = self.cache.violation.val() | self.sequencer.violation.val();
    }
}
