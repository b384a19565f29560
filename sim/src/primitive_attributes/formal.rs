//! Formal properties of the primitive-attribute units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the viewport swizzle's datapath against PA-5, for every code, and the viewport
//! multicast's beat order and layers against PA-2, PA-3 and PA-4 (strict order).
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::primitive_attributes::viewport_multicast::ViewportMulticast;
use ppu_hdl::primitive_attributes::viewport_swizzle::ViewportSwizzle;

/// `ViewportSwizzle` at its only parameters: stage 1 (vertex and code) to the output register.
fn viewport_swizzle() -> FormalCheck {
    // k = 5: the output register is loaded from stage 1 in one cycle, so any k >= 2 is
    // inductive (the props' copies of stage 1 are free in the step's first cycle); 5 lets the
    // mutants' BMC write a code after the reset (step 1; the reset loads the identity, all
    // fields even) and swizzle a vertex with it (table at 2, stage 1 at 3, output at 4).
    let prove = Mode::Prove { k: 5 };
    FormalCheck {
        unit: "viewport_swizzle",
        props: "viewport_swizzle",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(ViewportSwizzle::default(), "viewport_swizzle")),
        defines: vec![],
        flatten: true,
        // Z3 4.8.12 never leaves step 0's assumptions on this model (flat or not); cvc5 takes
        // seconds.
        solver: Solver::Cvc5,
        properties: vec![
            Property {
                name: "SELECT",
                claim: "every output component is the input component its 3-bit field names, sign bit flipped when the field is odd, for every code (PA-5)",
                mode: prove,
                why: "the output register is a function of stage 1 one cycle earlier",
                mutant: Mutant {
                    what: "the x field's sign flip dropped (-x, -y, -z, -w give +)",
                    find: r"(module viewport_swizzle\$pick_x\((?s:.)*?)value = source \^ sign_bit;",
                    replace: "${1}value = source;",
                },
            },
            Property {
                name: "BIJECTION",
                claim: "for a code whose four fields name four different components (any signs) the swizzle is one-to-one: the inverse recovers the vertex bit for bit (codes naming a component twice are legal in PA-5 and not one-to-one)",
                mode: prove,
                why: "the output register is a function of stage 1 one cycle earlier",
                mutant: Mutant {
                    what: "output y selected by the x field (bits 2:0 instead of 5:3)",
                    find: r"pick_y\$field = s1_code\$q\[3\+:3\];",
                    replace: "pick_y$$field = s1_code$$q[0+:3];",
                },
            },
        ],
    }
}

/// `ViewportMulticast`: one tracked primitive, from its acceptance to its last beat.
fn viewport_multicast() -> FormalCheck {
    // cvc5 bitblast: ORDER 63 -> 8 s, LAYER 14 -> 4 s against default cvc5 (base case and step).
    // k = 5: the tracked primitive is in the pending register or the current one, and the
    // helper invariants tie both to the props' remaining mask, so a short k is inductive; the
    // mutants' BMC needs a primitive accepted after the reset (step 1), pending (2), its first
    // beat on offer (3) and its second (4).
    let prove = Mode::Prove { k: 5 };
    FormalCheck {
        unit: "viewport_multicast",
        props: "viewport_multicast",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(ViewportMulticast::default(), "viewport_multicast")),
        defines: vec![],
        flatten: true,
        solver: Solver::Cvc5Bitblast,
        properties: vec![
            Property {
                name: "ORDER",
                claim: "a tracked primitive with mask M leaves as exactly one beat per set bit of M, in ascending viewport order, each carrying its primitive ID, the first flagged first and the one that empties M flagged last, and nothing of it after; M = 0 leaves as one kill beat (PA-2, PA-4 strict order)",
                mode: prove,
                why: "the tracked primitive is in the pending or the current register, tied to the props' remaining mask by helper invariants",
                mutant: Mutant {
                    what: "the mask after the beat on offer not cleared of the next beat's bit (a viewport repeats, last never flagged)",
                    find: r"(module viewport_multicast\$lowest_rest\((?s:.)*?)rest = mask & \(mask - 16'h1\);",
                    replace: "${1}rest = mask;",
                },
            },
            Property {
                name: "LAYER",
                claim: "every beat of a tracked primitive carries its instance, and its layer is the primitive's plus the beat's viewport (mod 2^32) with the layer offset on, the primitive's otherwise and on a kill beat (PA-3)",
                mode: prove,
                why: "the tracked primitive is in the pending or the current register, tied to the props' layer and instance by helper invariants",
                mutant: Mutant {
                    what: "the layer offset never added (every beat at the primitive's layer)",
                    find: r"out_layer = cur_layer\$q \+ \{\{28\{1'b0\}\}, cur_viewport\$q\};",
                    replace: "out_layer = cur_layer$$q;",
                },
            },
        ],
    }
}

/// The primitive-attribute mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![viewport_swizzle(), viewport_multicast()]
}
