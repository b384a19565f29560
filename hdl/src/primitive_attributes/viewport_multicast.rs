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
//! Timing: the current primitive is held in registers (its remaining mask, the viewport of
//! the beat on offer); a primitive is taken in the cycle its predecessor's last beat is
//! taken, so a primitive with k set bits leaves in k consecutive cycles and the next follows
//! with no bubble: one beat per cycle at full rate. Latency: the first beat is offered the
//! cycle after the primitive is taken.
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
    /// The beat on offer.
    cur_valid: DFF<Bit>,
    cur_kill: DFF<Bit>,
    cur_viewport: DFF<Bits<VIEWPORT_BITS>>,
    /// The mask bits after this beat's.
    cur_rest: DFF<Bits<VIEWPORTS>>,
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
            cur_valid,
            cur_kill,
            cur_viewport,
            cur_rest,
            cur_first,
            cur_layer,
            cur_prim,
            cur_instance
        );
        self.lowest_in.mask.next = self.in_mask.val();
        self.lowest_rest.mask.next = self.cur_rest.q.val();
        // The beat on offer is its primitive's last when no mask bit is left after it.
        self.cur_last.next = self.cur_kill.q.val() | self.lowest_rest.empty.val();
        self.in_ready.next = !self.cur_valid.q.val() | (self.out_ready.val() & self.cur_last.val());
        self.take.next = self.in_valid.val() & self.in_ready.val();
        self.advance.next = self.cur_valid.q.val() & self.out_ready.val() & !self.cur_last.val();
        if self.take.val() {
            self.cur_valid.d.next = true;
            self.cur_kill.d.next = self.lowest_in.empty.val();
            self.cur_viewport.d.next = self.lowest_in.viewport.val();
            self.cur_rest.d.next = self.lowest_in.rest.val();
            self.cur_first.d.next = true;
            self.cur_layer.d.next = self.in_layer.val();
            self.cur_prim.d.next = self.in_prim.val();
            self.cur_instance.d.next = self.in_instance.val();
        } else if self.advance.val() {
            self.cur_viewport.d.next = self.lowest_rest.viewport.val();
            self.cur_rest.d.next = self.lowest_rest.rest.val();
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
            self.cur_valid.d.next = false;
        }
    }
}
