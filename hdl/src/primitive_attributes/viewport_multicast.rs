//! `ViewportMulticast` — viewport multicast in strict primitive order (SPEC PA-2, PA-3, PA-4
//! strict): a primitive with a 16-bit viewport mask leaves as one beat per set bit, in
//! ascending viewport order, all of them before the next primitive; a mask of 0 leaves as one
//! kill beat. With `layer_offset` a beat's layer is the primitive's layer plus the viewport
//! (modulo 2^32).
//!
//! Ports: `clock`, `reset`; `layer_offset` (static); in `in_valid`/`in_ready`, `in_mask`
//! (16 bits), `in_layer`, `in_prim`, `in_instance` (32 bits each); out `out_valid`/
//! `out_ready`, `out_kill` (the beat discards a mask-0 primitive: viewport 0, layer =
//! `in_layer`), `out_prim`, `out_instance`, `out_viewport`, `out_layer`, `out_first`,
//! `out_last` (first / last beat of its primitive; a kill beat has both).
//!
//! Timing: an arriving primitive is taken into a pending register with its first beat already
//! encoded (lowest viewport, the mask after it, whether that is empty), so no encoder sits
//! between the handshake and the registers it loads; the current primitive is held in
//! registers (its remaining mask, the viewport of the beat on offer). The pending primitive
//! becomes current in the cycle its predecessor's last beat is taken, and the pending register
//! refills in that cycle, so a primitive with k set bits leaves in k consecutive cycles and the
//! next follows with no bubble: one beat per cycle at full rate. Latency: the first beat is
//! offered two cycles after the primitive is taken.
use super::item::*;
use super::lowest_viewport::LowestViewport;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ViewportMulticast {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub layer_offset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_mask: Signal<In, Bits<VIEWPORTS>>,
    pub in_layer: Signal<In, Bits<LAYER_BITS>>,
    pub in_prim: Signal<In, Bits<PRIM_BITS>>,
    pub in_instance: Signal<In, Bits<INSTANCE_BITS>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_kill: Signal<Out, Bit>,
    pub out_prim: Signal<Out, Bits<PRIM_BITS>>,
    pub out_instance: Signal<Out, Bits<INSTANCE_BITS>>,
    pub out_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub out_layer: Signal<Out, Bits<LAYER_BITS>>,
    pub out_first: Signal<Out, Bit>,
    pub out_last: Signal<Out, Bit>,
    /// The first beat of an arriving primitive, and the beat after the one on offer (two
    /// encoders, so no input of a sub-block depends on its own outputs).
    lowest_in: LowestViewport,
    lowest_rest: LowestViewport,
    /// The pending primitive, with its first beat encoded.
    pend_valid: DFF<Bit>,
    pend_kill: DFF<Bit>,
    pend_viewport: DFF<Bits<VIEWPORT_BITS>>,
    pend_rest: DFF<Bits<VIEWPORTS>>,
    pend_rest_empty: DFF<Bit>,
    pend_layer: DFF<Bits<LAYER_BITS>>,
    pend_prim: DFF<Bits<PRIM_BITS>>,
    pend_instance: DFF<Bits<INSTANCE_BITS>>,
    /// The beat on offer.
    cur_valid: DFF<Bit>,
    cur_kill: DFF<Bit>,
    cur_viewport: DFF<Bits<VIEWPORT_BITS>>,
    /// The mask bits after this beat's.
    cur_rest: DFF<Bits<VIEWPORTS>>,
    /// `cur_rest` is 0 (registered with it, so that `in_ready` is two LUTs from registers).
    cur_rest_empty: DFF<Bit>,
    cur_first: DFF<Bit>,
    cur_layer: DFF<Bits<LAYER_BITS>>,
    cur_prim: DFF<Bits<PRIM_BITS>>,
    cur_instance: DFF<Bits<INSTANCE_BITS>>,
    cur_last: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    advance: Signal<Local, Bit>,
}

impl Logic for ViewportMulticast {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            pend_valid,
            pend_kill,
            pend_viewport,
            pend_rest,
            pend_rest_empty,
            pend_layer,
            pend_prim,
            pend_instance,
            cur_valid,
            cur_kill,
            cur_viewport,
            cur_rest,
            cur_rest_empty,
            cur_first,
            cur_layer,
            cur_prim,
            cur_instance
        );
        self.lowest_in.mask.next = self.in_mask.val();
        self.lowest_rest.mask.next = self.cur_rest.q.val();
        // The beat on offer is its primitive's last when no mask bit is left after it.
        self.cur_last.next = self.cur_kill.q.val() | self.cur_rest_empty.q.val();
        // The pending primitive becomes current when the current one's last beat is taken.
        self.take.next = self.pend_valid.q.val()
            & (!self.cur_valid.q.val() | (self.out_ready.val() & self.cur_last.val()));
        self.in_ready.next = !self.pend_valid.q.val() | self.take.val();
        self.advance.next = self.cur_valid.q.val() & self.out_ready.val() & !self.cur_last.val();
        if self.in_ready.val() {
            self.pend_valid.d.next = self.in_valid.val();
            self.pend_kill.d.next = self.lowest_in.empty.val();
            self.pend_viewport.d.next = self.lowest_in.viewport.val();
            self.pend_rest.d.next = self.lowest_in.rest.val();
            self.pend_rest_empty.d.next = !self.lowest_in.rest.val().any();
            self.pend_layer.d.next = self.in_layer.val();
            self.pend_prim.d.next = self.in_prim.val();
            self.pend_instance.d.next = self.in_instance.val();
        }
        if self.take.val() {
            self.cur_valid.d.next = true;
            self.cur_kill.d.next = self.pend_kill.q.val();
            self.cur_viewport.d.next = self.pend_viewport.q.val();
            self.cur_rest.d.next = self.pend_rest.q.val();
            self.cur_rest_empty.d.next = self.pend_rest_empty.q.val();
            self.cur_first.d.next = true;
            self.cur_layer.d.next = self.pend_layer.q.val();
            self.cur_prim.d.next = self.pend_prim.q.val();
            self.cur_instance.d.next = self.pend_instance.q.val();
        } else if self.advance.val() {
            self.cur_viewport.d.next = self.lowest_rest.viewport.val();
            self.cur_rest.d.next = self.lowest_rest.rest.val();
            self.cur_rest_empty.d.next = !self.lowest_rest.rest.val().any();
            self.cur_first.d.next = false;
        } else if self.out_ready.val() {
            // The last beat was taken and nothing new arrived.
            self.cur_valid.d.next = false;
        }
        self.out_valid.next = self.cur_valid.q.val();
        self.out_kill.next = self.cur_kill.q.val();
        self.out_prim.next = self.cur_prim.q.val();
        self.out_instance.next = self.cur_instance.q.val();
        self.out_viewport.next = self.cur_viewport.q.val();
        self.out_layer.next = self.cur_layer.q.val();
        if self.layer_offset.val() & !self.cur_kill.q.val() {
            self.out_layer.next = self.cur_layer.q.val()
                + bit_cast::<LAYER_BITS, VIEWPORT_BITS>(self.cur_viewport.q.val());
        }
        self.out_first.next = self.cur_first.q.val();
        self.out_last.next = self.cur_last.val();
        if self.reset.val() {
            self.pend_valid.d.next = false;
            self.cur_valid.d.next = false;
        }
    }
}
