//! `ViewportSwizzle` — the per-viewport coordinate swizzle (SPEC PA-5): a table of 16 packed
//! 12-bit codes and a datapath that picks each output component of a vertex position from one
//! of its four input components, negated or not. No float arithmetic: negation flips bit 31,
//! so NaN payloads, -0.0 and infinities pass bit-exactly.
//!
//! Code field c (bits 3c+2:3c) gives output component c (x, y, z, w): source component
//! field/2, negated when the field is odd (+x=0, -x=1, +y=2, -y=3, +z=4, -z=5, +w=6, -w=7).
//!
//! Ports: `clock`, `reset` (every code back to identity 0xD10); table write port `cfg_valid`,
//! `cfg_viewport`, `cfg_value` (16 bits), `cfg_register_format` (0: packed code in bits 11:0,
//! bits 15:12 ignored; 1: the public register layout through a [`SwizzleAdapter`]),
//! `cfg_error` (1 in the cycle of a register-format write with a reserved bit set: that write
//! is refused, the entry keeps its code); vertex channel `in_valid`/`in_ready`,
//! `in_viewport`, `in_vertex` ([`VertexPos`]), `in_slot` (8 bits, carried unchanged);
//! output channel `out_valid`/`out_ready`, `out_vertex`, `out_viewport`, `out_slot`.
//!
//! Timing: latency 2 (stage 1 registers the vertex with its viewport's code, read in the
//! cycle the vertex is accepted — a write in that same cycle applies to later vertices;
//! stage 2 registers the swizzled vertex), one vertex per cycle; `in_ready` = stage 1 free
//! or moving on.
use super::item::*;
use super::swizzle_adapter::SwizzleAdapter;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ViewportSwizzle {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub cfg_value: Signal<In, Bits<SWIZZLE_REGISTER_BITS>>,
    pub cfg_register_format: Signal<In, Bit>,
    pub cfg_error: Signal<Out, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_viewport: Signal<In, Bits<VIEWPORT_BITS>>,
    pub in_vertex: Signal<In, VertexPos>,
    pub in_slot: Signal<In, Bits<8>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_vertex: Signal<Out, VertexPos>,
    pub out_viewport: Signal<Out, Bits<VIEWPORT_BITS>>,
    pub out_slot: Signal<Out, Bits<8>>,
    adapter: SwizzleAdapter,
    /// The table: one packed code per viewport.
    code: [DFF<Bits<SWIZZLE_BITS>>; VIEWPORTS],
    viewport_index: [Constant<Bits<VIEWPORT_BITS>>; VIEWPORTS],
    identity: Constant<Bits<SWIZZLE_BITS>>,
    /// The code a write stores (packed, or from the adapter).
    cfg_code: Signal<Local, Bits<SWIZZLE_BITS>>,
    cfg_refused: Signal<Local, Bit>,
    /// The code of `in_viewport`.
    in_code: Signal<Local, Bits<SWIZZLE_BITS>>,
    /// Stage 1: the vertex and its code.
    s1_valid: DFF<Bit>,
    s1_vertex: DFF<VertexPos>,
    s1_viewport: DFF<Bits<VIEWPORT_BITS>>,
    s1_slot: DFF<Bits<8>>,
    s1_code: DFF<Bits<SWIZZLE_BITS>>,
    /// Stage 2: the swizzled vertex.
    out_valid_q: DFF<Bit>,
    out_vertex_q: DFF<VertexPos>,
    out_viewport_q: DFF<Bits<VIEWPORT_BITS>>,
    out_slot_q: DFF<Bits<8>>,
    out_advance: Signal<Local, Bit>,
    s1_advance: Signal<Local, Bit>,
    /// The four input components of stage 1 and the swizzled outputs.
    comp_x: Signal<Local, Bits<32>>,
    comp_y: Signal<Local, Bits<32>>,
    comp_z: Signal<Local, Bits<32>>,
    comp_w: Signal<Local, Bits<32>>,
    pick_x: SwizzlePick,
    pick_y: SwizzlePick,
    pick_z: SwizzlePick,
    pick_w: SwizzlePick,
}

impl Default for ViewportSwizzle {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_valid: Default::default(),
            cfg_viewport: Default::default(),
            cfg_value: Default::default(),
            cfg_register_format: Default::default(),
            cfg_error: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_viewport: Default::default(),
            in_vertex: Default::default(),
            in_slot: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vertex: Default::default(),
            out_viewport: Default::default(),
            out_slot: Default::default(),
            adapter: Default::default(),
            code: std::array::from_fn(|_| Default::default()),
            viewport_index: std::array::from_fn(|i| Constant::new(bits::<VIEWPORT_BITS>(i as u64))),
            identity: Constant::new(bits::<SWIZZLE_BITS>(SWIZZLE_IDENTITY)),
            cfg_code: Default::default(),
            cfg_refused: Default::default(),
            in_code: Default::default(),
            s1_valid: Default::default(),
            s1_vertex: Default::default(),
            s1_viewport: Default::default(),
            s1_slot: Default::default(),
            s1_code: Default::default(),
            out_valid_q: Default::default(),
            out_vertex_q: Default::default(),
            out_viewport_q: Default::default(),
            out_slot_q: Default::default(),
            out_advance: Default::default(),
            s1_advance: Default::default(),
            comp_x: Default::default(),
            comp_y: Default::default(),
            comp_z: Default::default(),
            comp_w: Default::default(),
            pick_x: Default::default(),
            pick_y: Default::default(),
            pick_z: Default::default(),
            pick_w: Default::default(),
        }
    }
}

impl Logic for ViewportSwizzle {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            s1_valid,
            s1_vertex,
            s1_viewport,
            s1_slot,
            s1_code,
            out_valid_q,
            out_vertex_q,
            out_viewport_q,
            out_slot_q
        );
        for i in 0..VIEWPORTS {
            self.code[i].clock.next = self.clock.val();
            self.code[i].d.next = self.code[i].q.val();
        }
        // Table writes.
        self.adapter.register_value.next = self.cfg_value.val();
        self.cfg_code.next = self.cfg_value.val().get_bits::<SWIZZLE_BITS>(0);
        self.cfg_refused.next = false;
        if self.cfg_register_format.val() {
            self.cfg_code.next = self.adapter.code.val();
            self.cfg_refused.next = self.adapter.reserved_set.val();
        }
        self.cfg_error.next = self.cfg_valid.val() & self.cfg_refused.val();
        for i in 0..VIEWPORTS {
            if self.cfg_valid.val()
                & !self.cfg_refused.val()
                & (self.cfg_viewport.val() == self.viewport_index[i].val())
            {
                self.code[i].d.next = self.cfg_code.val();
            }
        }
        // The code of the arriving vertex's viewport.
        self.in_code.next = self.identity.val();
        for i in 0..VIEWPORTS {
            if self.in_viewport.val() == self.viewport_index[i].val() {
                self.in_code.next = self.code[i].q.val();
            }
        }
        // Handshakes: each stage moves when the next one is free or moving.
        self.out_advance.next = !self.out_valid_q.q.val() | self.out_ready.val();
        self.s1_advance.next = !self.s1_valid.q.val() | self.out_advance.val();
        self.in_ready.next = self.s1_advance.val();
        if self.s1_advance.val() {
            self.s1_valid.d.next = self.in_valid.val();
            self.s1_vertex.d.next = self.in_vertex.val();
            self.s1_viewport.d.next = self.in_viewport.val();
            self.s1_slot.d.next = self.in_slot.val();
            self.s1_code.d.next = self.in_code.val();
        }
        // Stage 2: pick each component.
        self.comp_x.next = self.s1_vertex.q.val().x;
        self.comp_y.next = self.s1_vertex.q.val().y;
        self.comp_z.next = self.s1_vertex.q.val().z;
        self.comp_w.next = self.s1_vertex.q.val().w;
        self.pick_x.field.next = self.s1_code.q.val().get_bits::<3>(0);
        self.pick_y.field.next = self.s1_code.q.val().get_bits::<3>(3);
        self.pick_z.field.next = self.s1_code.q.val().get_bits::<3>(6);
        self.pick_w.field.next = self.s1_code.q.val().get_bits::<3>(9);
        self.pick_x.x.next = self.comp_x.val();
        self.pick_x.y.next = self.comp_y.val();
        self.pick_x.z.next = self.comp_z.val();
        self.pick_x.w.next = self.comp_w.val();
        self.pick_y.x.next = self.comp_x.val();
        self.pick_y.y.next = self.comp_y.val();
        self.pick_y.z.next = self.comp_z.val();
        self.pick_y.w.next = self.comp_w.val();
        self.pick_z.x.next = self.comp_x.val();
        self.pick_z.y.next = self.comp_y.val();
        self.pick_z.z.next = self.comp_z.val();
        self.pick_z.w.next = self.comp_w.val();
        self.pick_w.x.next = self.comp_x.val();
        self.pick_w.y.next = self.comp_y.val();
        self.pick_w.z.next = self.comp_z.val();
        self.pick_w.w.next = self.comp_w.val();
        if self.out_advance.val() {
            self.out_valid_q.d.next = self.s1_valid.q.val();
            self.out_vertex_q.d.next.x = self.pick_x.value.val();
            self.out_vertex_q.d.next.y = self.pick_y.value.val();
            self.out_vertex_q.d.next.z = self.pick_z.value.val();
            self.out_vertex_q.d.next.w = self.pick_w.value.val();
            self.out_viewport_q.d.next = self.s1_viewport.q.val();
            self.out_slot_q.d.next = self.s1_slot.q.val();
        }
        self.out_valid.next = self.out_valid_q.q.val();
        self.out_vertex.next = self.out_vertex_q.q.val();
        self.out_viewport.next = self.out_viewport_q.q.val();
        self.out_slot.next = self.out_slot_q.q.val();
        if self.reset.val() {
            self.s1_valid.d.next = false;
            self.out_valid_q.d.next = false;
            for i in 0..VIEWPORTS {
                self.code[i].d.next = self.identity.val();
            }
        }
    }
}

/// One output component of the swizzle: the input component `field`/2, its sign bit flipped
/// when `field` is odd (combinational).
#[derive(LogicBlock)]
pub struct SwizzlePick {
    pub field: Signal<In, Bits<3>>,
    pub x: Signal<In, Bits<32>>,
    pub y: Signal<In, Bits<32>>,
    pub z: Signal<In, Bits<32>>,
    pub w: Signal<In, Bits<32>>,
    pub value: Signal<Out, Bits<32>>,
    source: Signal<Local, Bits<32>>,
    sign_bit: Constant<Bits<32>>,
}

impl Default for SwizzlePick {
    fn default() -> Self {
        Self {
            field: Default::default(),
            x: Default::default(),
            y: Default::default(),
            z: Default::default(),
            w: Default::default(),
            value: Default::default(),
            source: Default::default(),
            sign_bit: Constant::new(bits::<32>(0x8000_0000)),
        }
    }
}

impl Logic for SwizzlePick {
    #[hdl_gen]
    fn update(&mut self) {
        self.source.next = self.x.val();
        if self.field.val().get_bits::<2>(1) == bits::<2>(1) {
            self.source.next = self.y.val();
        }
        if self.field.val().get_bits::<2>(1) == bits::<2>(2) {
            self.source.next = self.z.val();
        }
        if self.field.val().get_bits::<2>(1) == bits::<2>(3) {
            self.source.next = self.w.val();
        }
        self.value.next = self.source.val();
        if self.field.val().get_bit(0) {
            self.value.next = self.source.val() ^ self.sign_bit.val();
        }
    }
}
