//! Formal properties of the barrier units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the back end's barrier counter against BR-4 and BR-5 (a release exactly when
//! a barrier of every pipeline has arrived, at the documented latency; counts that never pass
//! `PIPES - 1`; the clear sweep after reset), and PROP against BR-4..BR-6 (no item of a held
//! tile given out before its release; each tile's items in order, none lost or duplicated), and
//! the tiling unit against BR-3 and BR-4 (its output handshake, its flush sizes, a non-tiled
//! barrier after its flush, and per cache tile its entries and barriers in input order).
use crate::eda::export::verilog_of;
use crate::eda::formal::{
    abstract_block_rams, mutate, shrink_block_rams, FormalCheck, Mode, Mutant, Property, Solver,
};
use ppu_hdl::barrier::barrier_counter::BarrierCounter;
use ppu_hdl::barrier::prop::Prop;
use ppu_hdl::barrier::tiling_unit::TilingUnit;

/// The clear sweep after reset cut to one tile (tile 0), so that tokens are taken from the
/// second cycle after a reset; SWEEP proves the real sweep on the unit as exported.
const CUT_SWEEP: Mutant = Mutant {
    what: "clear sweep cut to one tile",
    find: r"localparam  last_tile = 8'hff;",
    replace: "localparam  last_tile = 8'h00;",
};

/// The counter for `P` pipelines with its block RAM abstracted ([`abstract_block_rams`]:
/// `barrier_counter_props.sv` constrains the reads of its tracked tile to the word last
/// written there), and its sweep cut when `cut` is set.
fn counter_verilog<const P: usize, const S: usize>(cut: bool) -> String {
    let v = verilog_of(BarrierCounter::<P, S>::default(), "barrier_counter");
    let v = abstract_block_rams(&v, 1).expect("barrier_counter");
    if cut {
        mutate(&v, &CUT_SWEEP).expect("barrier_counter: sweep pattern")
    } else {
        v
    }
}

/// `BarrierCounter` for `P` pipelines (2, and 4, the exported count), both on ABC (on cvc5's
/// bit-blaster the induction steps took 15 to 60 s at 2, and at 4 the BMC of the unit over a minute
/// to depth 10, EARLY and ONCE with their mutants about 4 minutes; ABC proves each property at
/// either count with its mutant in a few seconds), tile T any cache tile. k = 2: the helper
/// invariants (the RTL's count of T and the non-tiled count plus the tokens in the input, read and
/// count stages equal the props' counts; the count stage's bypass selects; every count register
/// below PIPES; the arbiter's choice one-hot and naming `token_source`) close the induction at
/// once. The arbiter's choice (`grant`, a local of the `RrArbiter` sub-block, no port of it) is
/// observed as `arbiter.grant`: the runner flattens the formal copy before exposing it, so the
/// exported Verilog keeps its ports (without that invariant k = 4 fails, and a BMC to depth 8 took
/// about 9 minutes). The mutants' BMC runs to P + 6: a reset (step 0), the cut sweep (step 1), P
/// tokens of one tile taken in steps 2..P+1 and the release of the last at step P+5 (t+4), so each
/// mutant reaches a release that comes early, late or never.
fn barrier_counter<const P: usize, const S: usize>() -> FormalCheck {
    let prove = Mode::ProveMutantDeeper {
        k: 2,
        mutant_depth: P as u32 + 6,
    };
    // The successor table's entries differ with PIPES: `count_succ[k]` = (k + 1) mod PIPES.
    let (early, count) = if P == 4 {
        (
            Mutant {
                what: "the successor of count PIPES-2 is 0 (release at PIPES-1 arrivals)",
                find: r"localparam  count_succ\$2 = 4'h3;",
                replace: "localparam  count_succ$$2 = 4'h0;",
            },
            Mutant {
                what: "the count is not cleared at PIPES (successor of PIPES-1 is PIPES)",
                find: r"localparam  count_succ\$3 = 4'h0;",
                replace: "localparam  count_succ$$3 = 4'h4;",
            },
        )
    } else {
        (
            Mutant {
                what: "the successor of count PIPES-2 is 0 (release at PIPES-1 arrivals)",
                find: r"localparam  count_succ\$0 = 4'h1;",
                replace: "localparam  count_succ$$0 = 4'h0;",
            },
            Mutant {
                what: "the count is not cleared at PIPES (successor of PIPES-1 is PIPES)",
                find: r"localparam  count_succ\$1 = 4'h0;",
                replace: "localparam  count_succ$$1 = 4'h2;",
            },
        )
    };
    FormalCheck {
        unit: "barrier_counter",
        props: "barrier_counter",
        variant: format!("pipes {}, sweep cut to 1 tile", P),
        verilog: Box::new(|| counter_verilog::<P, S>(true)),
        defines: defines(P),
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "EARLY",
                claim: "no release of a cache tile (or non-tiled) before PIPES barriers of it have arrived since its last release: a release comes only 4 cycles after the token that completes a set of PIPES (BR-4, BR-5)",
                mode: prove,
                why: "inductive with the count and bypass helper invariants",
                mutant: early,
            },
            Property {
                name: "ONCE",
                claim: "every set of PIPES barriers of a cache tile (or non-tiled) is released, once, exactly 4 cycles after the token that completes it (BR-4, BR-5, the unit's t+4)",
                mode: prove,
                why: "inductive with the count and bypass helper invariants",
                mutant: Mutant {
                    what: "stage 1 ignores the token in stage 2 (back-to-back tokens of a tile, e.g. two pipelines' in one cycle through the arbiter, count once)",
                    find: r"hit_last = count_valid\$q & count_tiled\$q & \(count_tile\$q == read_tile\$q\);",
                    replace: "hit_last = 1'b0;",
                },
            },
            Property {
                name: "COUNT",
                claim: "every count written into the block RAM (any tile) and the non-tiled count stay below PIPES; a tile's stored count is its barriers since its last release mod PIPES (BR-5)",
                mode: prove,
                why: "inductive with the count and bypass helper invariants",
                mutant: count,
            },
        ],
    }
}

/// The clear sweep on the unit as exported (256 tiles, 4 pipelines, on ABC). k = 2: the helper invariant ties the
/// tracked tile's "written 0" to the sweep's position, so the induction closes at once; the
/// mutant takes a token in the first cycle of the sweep.
fn barrier_counter_sweep<const P: usize, const S: usize>() -> FormalCheck {
    FormalCheck {
        unit: "barrier_counter",
        props: "barrier_counter",
        variant: format!("pipes {}", P),
        verilog: Box::new(|| counter_verilog::<P, S>(false)),
        defines: defines(P),
        flatten: true,
        solver: Solver::Abc,
        properties: vec![Property {
            name: "SWEEP",
            claim: "after a reset no token is taken and ready stays low until every cache tile's count has been written 0 (256 cycles); ready then stays high until the next reset (BR-5)",
            mode: Mode::Prove { k: 2 },
            why: "inductive with the sweep-position helper invariant",
            mutant: Mutant {
                what: "the arbiter is served during the sweep",
                find: r"arbiter\$grant_ready = ~clearing\$q;",
                replace: "arbiter$$grant_ready = 1'b1;",
            },
        }],
    }
}

/// `Prop` (256 tile flags, 8 hold slots), tile T and its N-th item any, on ABC (bit level).
/// Both properties are proved by k-induction with k = 2 (ABC `ind -F 3`, about 50 s each; with
/// k = 1 the step is undecided), with helper invariants over the unit's registers
/// (`prop_props.sv`). Shared: the hold queue is a ring (one-hot head and tail, valid slots from
/// the head, its counts and their compares, the head item a copy of the head slot), `head_go`
/// only for a free head, a free staged item only without a non-tiled flag or barrier queued.
/// NO_EARLY: every cached copy of T's flag (staged item, hold slots, arrival slots) is the
/// flag, and T's flag (the non-tiled flag) is set exactly while a barrier of T (a non-tiled
/// barrier) is in the output register, out and not released, or released this cycle. A first
/// set of copies claimed for every tile failed: a release of another tile is not constrained
/// (one for a clear flag is bad input, `violation`), and then a copy's correction differs from
/// the flag word's when the release and the tile's flag write meet; only T's copies are
/// claimed. ORDER: T's items inside, oldest first (output register, ring from its head, stage,
/// arrival slots), carry consecutive arrival indices from `out_t`, a staged or arriving item
/// of T with one of T in the ring is marked queued, and the arrival slots' tile matches are
/// current. The flag copies are left out of ORDER's run (they slow its step and it does not
/// read them). Counterexamples to induction were found with the step written as a BMC: free
/// initial registers (`setattr -unset init`), the invariants assumed for k steps and asserted
/// after. Both mutants fail in step 5 (their BMC to 10 covers, after the reset: a tiled
/// barrier of T taken in step 1 and given out in step 4, items of T held behind its flag,
/// other tiles passing, the release of T and the exit of a held item after it).
fn prop() -> FormalCheck {
    let prove = Mode::ProveMutantDeeper {
        k: 2,
        mutant_depth: 10,
    };
    FormalCheck {
        unit: "prop",
        props: "prop",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(Prop::default(), "prop")),
        defines: vec![],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "NO_EARLY",
                claim: "an item of tile T (any tile) leaves only after every barrier of T that left before it was released; any item only after every non-tiled barrier that left before it was released (BR-4, BR-5, BR-6)",
                mode: prove,
                why: "2-inductive with the helper invariants (cached flags, the ring, the flags against the barriers out); the mutant's BMC reaches a barrier of T given out and an item of T behind it",
                mutant: Mutant {
                    what: "the staged item ignores its tile's flag (passes unless an older item of its tile is queued)",
                    find: r"stage_blocked = ~stage_is_nontiled & \(stage_flag\$q \| stage_pendhit\$q\);",
                    replace: "stage_blocked = 1'b0;",
                },
            },
            Property {
                name: "ORDER",
                claim: "the items of a tile leave in arrival order, each once and unchanged: the N-th to leave is the N-th that arrived (indices mod 16, at most 12 items inside), and none leaves while none is inside (BR-6, BR-8, the unit's per-tile order)",
                mode: prove,
                why: "2-inductive with the helper invariants (the ring, T's items inside in order with consecutive indices, the queued marks); the mutant's BMC reaches an item of T taken twice",
                mutant: Mutant {
                    what: "the arrival queue's head slot keeps its item when that enters the stage (an item is given out twice)",
                    find: r"arr_valid\$0\$d = \(arr_valid\$0\$q & ~take_arrival\) \| arr_move \| arr_load_head;",
                    replace: "arr_valid$$0$$d = arr_valid$$0$$q | arr_move | arr_load_head;",
                },
            },
        ],
    }
}

/// The props' defines for `p` pipelines (2 or 4).
fn defines(p: usize) -> Vec<(String, String)> {
    let mut d = vec![("PIPES".to_string(), p.to_string())];
    if p == 4 {
        d.push(("FOUR_PIPES".to_string(), "1".to_string()));
    }
    d
}

/// The barrier mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        barrier_counter::<2, 1>(),
        barrier_counter::<4, 2>(),
        barrier_counter_sweep::<4, 2>(),
        prop(),
        tiling_unit(),
        tiling_unit_order(),
    ]
}

/// `TilingUnit` as exported (it has no parameters) with its four block RAMs abstracted
/// ([`abstract_block_rams`]): the properties below are about the bin's count, the flush
/// sequence and the output register, which hold for any answer of the RAMs (the walk may then
/// visit any entries in any order, or stop early).
fn tiling_unit_verilog() -> String {
    let v = verilog_of(TilingUnit::default(), "tiling_unit");
    abstract_block_rams(&v, 4).expect("tiling_unit")
}

/// The tiling unit as exported (256 cache tiles, up to 256 entries), its block RAMs abstracted
/// ([`tiling_unit_verilog`]), on ABC; `bin_capacity` in 1..=256 and steady, every other input
/// free. OUT_HOLD is a claim over two cycles, so k = 2 (it holds from every state). CAPACITY
/// is 1-inductive with the count's companions (`bin_count_plus1`, `bin_count_plus2`,
/// `bin_last`) and the count against the capacity per state; BARRIER with the owed barrier
/// tied to a `barrier` flush under way. The mutants' BMC: reset (step 0), an item staged (1)
/// and taken (2), a second entry or the end taken (3, 4), the flush from step 4 or 5 and its
/// output from step 6; OUT_HOLD's mutant needs a tiled barrier's round (its second tile's
/// barrier at step 10).
fn tiling_unit() -> FormalCheck {
    FormalCheck {
        unit: "tiling_unit",
        props: "tiling_unit",
        variant: "block RAMs abstracted".into(),
        verilog: Box::new(tiling_unit_verilog),
        defines: vec![],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "OUT_HOLD",
                claim: "an item offered towards setup and not taken is offered again in the next cycle, unchanged (output valid/ready)",
                mode: Mode::ProveMutantDeeper {
                    k: 2,
                    mutant_depth: 14,
                },
                why: "2-inductive (a claim over two cycles; the output register changes only when free or taken); the mutant's BMC reaches a flush after a tiled barrier emitting the second tile's barrier into the held first (step 10)",
                mutant: Mutant {
                    what: "an emitted item replaces the output register even while it is held",
                    find: r"emit_taken = ~out_valid_reg\$q \| out_ready;",
                    replace: "emit_taken = 1'b1;",
                },
            },
            Property {
                name: "CAPACITY",
                claim: "every flush reports at most bin_capacity entries and a threshold flush exactly bin_capacity: the entry that makes the count reach it is binned, then the unit flushes (BR-3)",
                mode: Mode::ProveMutantDeeper {
                    k: 1,
                    mutant_depth: 10,
                },
                why: "1-inductive with the count's companion registers and the count against the capacity per state; the mutant's BMC reaches two entries binned back to back at capacity 2 and the flush after them",
                mutant: Mutant {
                    what: "after binning an entry, the bin-full flag is computed from the old count",
                    find: r"bin_last\$d = bin_count_plus2\$q == bin_capacity;",
                    replace: "bin_last$$d = bin_count_plus1$$q == bin_capacity;",
                },
            },
            Property {
                name: "BARRIER",
                claim: "a non-tiled barrier goes down the pipeline only after a flush with reason barrier started, once per such flush, and before the next flush starts (BR-4)",
                mode: Mode::ProveMutantDeeper {
                    k: 1,
                    mutant_depth: 10,
                },
                why: "1-inductive with the owed barrier tied to a barrier flush under way; the mutant's BMC reaches an end-of-frame flush of an empty bin and its output",
                mutant: Mutant {
                    what: "the last state of every flush (also threshold and end) sends a non-tiled barrier",
                    find: r"if \(flush_reason_reg\$q == reason_barrier\) begin",
                    replace: "if (1'b1) begin",
                },
            },
        ],
    }
}

/// Words of the cut block RAMs for TILE_ORDER, and the most cache tiles it checks: every entry
/// index is below `bin_capacity` <= `ORDER_RAM_WORDS` and every tile below `tiles` <=
/// `ORDER_TILES`, so the cut RAMs hold every word the run writes or reads.
const ORDER_RAM_WORDS: usize = 4;
const ORDER_TILES: usize = 2;

/// `TilingUnit` as exported with its four block RAMs real but cut to [`ORDER_RAM_WORDS`] words
/// ([`shrink_block_rams`]): the per-tile order depends on what the lists store.
fn tiling_unit_order_verilog() -> String {
    let v = verilog_of(TilingUnit::default(), "tiling_unit");
    shrink_block_rams(&v, 4, ORDER_RAM_WORDS).expect("tiling_unit")
}

/// TILE_ORDER on ABC, by BMC to 20 steps (steps 0..19). The bit-level model of the full RAMs
/// (15k registers) reaches 17 steps in 5 minutes; cut to 4 words and 2 tiles it reaches 20 in
/// about 40 s, and each further step costs about twice the one before. 20 steps hold a whole
/// flush of one tile with a tiled barrier between two primitives of T, from the reset to every
/// item out and the unit idle again (18 steps: the entries are taken in steps 1-4, the flush
/// starts at 6, the two rounds' walks send entry, barrier, entry, the last leaves at 17), and of
/// two tiles the first round up to the second tile's walk (the whole of it takes 21 steps).
/// The mutant (an entry whose epoch equals the round goes out before that round's barrier)
/// fails at step 10.
fn tiling_unit_order() -> FormalCheck {
    FormalCheck {
        unit: "tiling_unit",
        props: "tiling_unit",
        variant: format!(
            "tiles <= {}, block RAMs cut to {} words",
            ORDER_TILES, ORDER_RAM_WORDS
        ),
        verilog: Box::new(tiling_unit_order_verilog),
        defines: vec![
            ("TILES_MAX".to_string(), ORDER_TILES.to_string()),
            ("RAM_WORDS".to_string(), ORDER_RAM_WORDS.to_string()),
        ],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![Property {
            name: "TILE_ORDER",
            claim: "per cache tile T the unit sends T's primitive entries and every tiled barrier (with tile T) in input order, each once and unchanged, nothing it did not take, and all of them by the time it is idle (BR-4, the unit's flush order)",
            mode: Mode::Bmc { depth: 20 },
            why: "not inductive without invariants over the linked lists in the RAMs; 20 steps hold a whole flush of one tile with a tiled barrier between two primitives of T (reset to idle in 18 steps) and a two-tile flush's first round; each further step about doubles the time (about 2 minutes at 20 with the walk's registered compares, 40 s before them)",
            mutant: Mutant {
                what: "a list's first entry goes out in the round of the barrier that came before it",
                find: r"head_in_phase\$d = head_raw\$q\[8\+:8\] < round\$q;",
                replace: "head_in_phase$$d = head_raw$$q[8+:8] <= round$$q;",
            },
        }],
    }
}
