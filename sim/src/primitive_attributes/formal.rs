//! Formal properties of the primitive-attribute units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the viewport swizzle's datapath against PA-5, for every code, the viewport
//! multicast's beat order and layers against PA-2, PA-3 and PA-4 (strict order), the order
//! sequencer's beat FIFO and hand-shake (proved) and its batch order and layers against PA-4
//! viewport order (bounded), and the provoking-vertex cache's results and tags against PA-6.
use crate::eda::export::verilog_of;
use crate::eda::formal::{abstract_block_rams, FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::primitive_attributes::order_sequencer::OrderSequencer;
use ppu_hdl::primitive_attributes::provoking_vertex_cache::ProvokingVertexCache;
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
        // 20 s (SELECT), ABC 1 s with the same counterexample steps.
        solver: Solver::Abc,
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
    // cvc5 bitblast: ORDER 63 -> 8 s, LAYER 14 -> 4 s against default cvc5 (base case and step);
    // ABC: 1.3 and 1.4 s, the mutants caught at the same steps.
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
        solver: Solver::Abc,
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

/// `ProvokingVertexCache` as exported (64 entries), `capacity` at most 4 (static during a run:
/// assumed constant). Every entry is the same logic and the FIFO pointer wraps at `capacity`, so
/// 4 entries have every case (hit, miss, provoking with and without a shared entry, the pointer
/// on the matched entry, the wrap); entries 4..63 are proved never valid. On ABC, k = 2: the
/// helper invariants tie the entries (with the allocation written one cycle after its decision
/// applied) and the pointer to the props' model, the lookups in stages
/// A, M and B to its queue of lookups, B's match vector, found and allocation decision and M's
/// current matches to the entries, and the two result slots to its queue of results. The
/// mutants' BMC runs to 14 steps: three lookups allocate and a fourth wraps (step 7). The
/// counterexample's replay on the SMT-LIB model (cvc5) is most of the unit's time (about 40 s
/// per mutant: 64 entries of 21-bit tags, flattened).
fn provoking_vertex_cache() -> FormalCheck {
    let prove = Mode::ProveMutantDeeper {
        k: 2,
        mutant_depth: 14,
    };
    FormalCheck {
        unit: "provoking_vertex_cache",
        props: "provoking_vertex_cache",
        variant: "capacity <= 4".into(),
        verilog: Box::new(|| verilog_of(ProvokingVertexCache::default(), "provoking_vertex_cache")),
        defines: vec![("CAP".into(), "4".into())],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "RESULT",
                claim: "every result is the model's for the oldest lookup not answered (lookups one at a time in order): a non-provoking lookup hits the valid entry with its tag, else allocates at the FIFO pointer; a provoking one never hits, invalidates the entry with its tag (invalidated) and allocates; the lookup echoed (PA-6)",
                mode: prove,
                why: "inductive with helper invariants tying the entries and pointer to the model, the stages' lookups to its queue and B's and M's match vectors to the entries",
                mutant: Mutant {
                    what: "the allocation pointer wraps one entry late (allocates at capacity)",
                    find: r"alloc_next\$q\} >= cap_last\$q\)",
                    replace: "alloc_next$$q} > cap_last$$q)",
                },
            },
            Property {
                name: "UNIQUE",
                claim: "never two valid entries with the same tag (vertex, viewport), and no entry at or above capacity valid (PA-6)",
                mode: prove,
                why: "the same helper invariants: the entries are the model's, whose tags are unique by construction",
                mutant: Mutant {
                    what: "a provoking lookup does not invalidate the shared entry (low bank)",
                    find: r"invalid_mask_lo = b_match_lo\$q;",
                    replace: "invalid_mask_lo = 32'h0;",
                },
            },
        ],
    }
}

/// `OrderSequencer` as exported (256-entry batch memories, 6-beat FIFO), `batch_size` at most
/// 2 (static, set during reset: assumed constant), its four block RAMs abstracted (the props
/// model words 0 and 1, all a batch of at most 2 writes and reads). A batch of two primitives
/// has every case of the documented order (kill beats before the passes, two primitives in one
/// viewport pass in primitive order, a pass skipped); every batch size runs the same scan.
///
/// NOFULL and HOLD are proved (ABC, k = 1 and 2) with helper invariants on the beat FIFO (count,
/// pointers) and the issue rule (fill plus beats on their way at most 6). ORDER and LAYER are
/// bounded to 12 steps: a batch of two primitives taken at steps 1 and 2 (after the reset and
/// the registered `batch_size` check) has its first beat at step 7 (five cycles after its last
/// primitive) and four more by step 11, which covers kill beats then the first viewport pass,
/// and a pass with both primitives. ABC's BMC takes 0.6 s to 10 steps, 15 s to 13 and 3 minutes
/// to 15 (the tracked batch's beats ahead, the FIFO's six 103-bit slots, free RAM data), and
/// the unit has no helper invariants tying the scan (pass, position, stages T and P, FIFO) to
/// the tracked batch yet, so no induction: the reason is in `synth/FORMAL.md`.
fn order_sequencer() -> FormalCheck {
    let bmc = Mode::Bmc { depth: 12 };
    FormalCheck {
        unit: "order_sequencer",
        props: "order_sequencer",
        variant: "batch_size <= 2".into(),
        verilog: Box::new(order_sequencer_verilog),
        defines: vec![("BS".into(), "2".into())],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "ORDER",
                claim: "a tracked batch leaves after the beats ahead of it as: a kill beat (viewport 0, first and last) per mask-0 primitive in primitive order, then per viewport ascending one beat per primitive with that bit in primitive order, first/last exactly at the lowest/highest bit of its mask, each owed beat once; nothing before it closes; no beat not owed (PA-4 viewport order, PA-2)",
                mode: bmc,
                why: "12 steps: a batch of two taken at steps 1 and 2 leaves its first five beats at steps 7..11 (kill beats, then a viewport pass of both primitives); deeper BMC grows past minutes and the scan has no helper invariants yet",
                mutant: Mutant {
                    what: "a closing batch starts at its lowest viewport, skipping the kill pass",
                    find: r"pass_kill\$d = 1'b1;",
                    replace: "pass_kill$$d = 1'b0;",
                },
            },
            Property {
                name: "LAYER",
                claim: "every beat of a tracked batch carries its primitive's instance and layer, plus the beat's viewport (mod 2^32) with the layer offset on and not on a kill beat (PA-3)",
                mode: bmc,
                why: "12 steps, as ORDER: the first five beats of a batch of two",
                mutant: Mutant {
                    what: "the layer offset never added",
                    find: r"test_layer_add\$d = read_viewport\$q;",
                    replace: "test_layer_add$$d = 4'h0;",
                },
            },
            Property {
                name: "NOFULL",
                claim: "with a valid batch_size violation stays low: a beat never finds the beat FIFO full (the issue rule: a read only while the FIFO holds fewer than 3 beats)",
                mode: Mode::ProveMutantDeeper {
                    k: 1,
                    mutant_depth: 16,
                },
                why: "1-inductive with the FIFO's count and pointer invariants and fill plus beats on their way at most 6; the mutant needs a 16-beat primitive issued against a stalled consumer until the FIFO overflows (step 11)",
                mutant: Mutant {
                    what: "reads issued while the FIFO holds up to 3 beats (limit 4)",
                    find: r"localparam  issue_fill_limit = 3'b11;",
                    replace: "localparam  issue_fill_limit = 3'b100;",
                },
            },
            Property {
                name: "HOLD",
                claim: "a beat on offer and not taken stays on offer, unchanged, the next cycle",
                mode: Mode::ProveMutantDeeper {
                    k: 2,
                    mutant_depth: 12,
                },
                why: "2-inductive with the FIFO's count and pointer invariants (its head slot is never written while it holds a beat); the mutant needs a first beat on offer (step 7)",
                mutant: Mutant {
                    what: "the beat FIFO popped whatever the consumer's ready",
                    find: r"beats\$rd_ready = out_ready;",
                    replace: "beats$$rd_ready = 1'b1;",
                },
            },
        ],
    }
}

/// The sequencer as exported, its four batch memories abstracted ([`abstract_block_rams`]):
/// the props model the words a batch of at most 2 uses.
fn order_sequencer_verilog() -> String {
    let v = verilog_of(OrderSequencer::default(), "order_sequencer");
    abstract_block_rams(&v, 4).expect("order_sequencer")
}

/// The primitive-attribute mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        viewport_swizzle(),
        viewport_multicast(),
        order_sequencer(),
        provoking_vertex_cache(),
    ]
}
